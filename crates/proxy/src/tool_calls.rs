//! The tool-call check across a conversation's turns, for a generation whose request carries
//! an agent's history: the request body and the reply (rebuilt from its capture by the core's
//! `SsePump`: text, reasoning, tool calls) are read by the core as one exchange — a request
//! and its response, as a request/response log holds them — and judged by the core's judge,
//! whose conversation report holds the check. Run when a generation ends (on the log thread),
//! never in flight: a reply's call is whole only at its end.

use coherency_core::analyze::Verdict;
use coherency_core::judge::judge_transcript;
use serde_json::{json, Value};

use crate::dialect::Dialect;

/// What the check found.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCallCheck {
    pub verdict: Verdict,
    /// The calls of the conversation, the reply's included.
    pub calls: usize,
    /// The check's sentence.
    pub reason: String,
}

/// Whether a request body is worth the check: its messages hold a tool call or result.
pub fn has_tool_history(request: &Value) -> bool {
    request.as_object().is_some_and(has_tool_history_in)
}

/// [`has_tool_history`] of a request body's object: its `messages` (chat, Anthropic, Ollama)
/// or its Responses `input` items (`function_call`, `function_call_output`).
pub fn has_tool_history_in(request: &serde_json::Map<String, Value>) -> bool {
    if let Some(input) = request.get("input").and_then(Value::as_array) {
        let call =
            |i: &Value| matches!(i.get("type").and_then(Value::as_str), Some("function_call" | "function_call_output"));
        if input.iter().any(call) {
            return true;
        }
    }
    let Some(messages) = request.get("messages").and_then(Value::as_array) else { return false };
    messages.iter().any(|m| {
        m.get("tool_calls").is_some_and(|c| c.as_array().is_some_and(|c| !c.is_empty()))
            || m.get("role").and_then(Value::as_str) == Some("tool")
            || m.get("content").and_then(Value::as_array).is_some_and(|blocks| {
                blocks.iter().any(|b| matches!(b.get("type").and_then(Value::as_str), Some("tool_use" | "tool_result")))
            })
    })
}

/// The check of the conversation made of `request` (a request body with its history of
/// `messages`) and the reply of `dialect` captured as `capture`; `None` when it holds no call
/// or cannot be read.
pub fn check(request: &[u8], capture: &[u8], dialect: Dialect) -> Option<ToolCallCheck> {
    let request: Value = serde_json::from_slice(request).ok()?;
    let mut pump = dialect.pump();
    pump.feed(capture);
    pump.end_input();
    let turns = pump.finished_turns();
    let mut message = json!({"role": "assistant", "content": ""});
    if let Some(turn) = turns.into_iter().next() {
        message["content"] = turn.content.into();
        if !turn.reasoning.is_empty() {
            message["reasoning_content"] = turn.reasoning.into();
        }
        if !turn.tool_calls.is_empty() {
            let calls: Vec<Value> = turn
                .tool_calls
                .iter()
                .map(
                    |c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}),
                )
                .collect();
            message["tool_calls"] = calls.into();
        }
    }
    let exchange = json!({"request": request, "response": {"object": "chat.completion", "choices": [{"index": 0, "message": message}]}});
    let bytes = serde_json::to_vec(&exchange).ok()?;
    let transcript = coherency_core::ingest::read(&bytes);
    let judged = judge_transcript(&transcript);
    let c = judged.conversations.iter().max_by_key(|c| c.tool_calls.calls)?;
    (c.tool_calls.calls > 0).then(|| ToolCallCheck {
        verdict: c.tool_calls.level(),
        calls: c.tool_calls.calls,
        reason: c.tool_calls.reason.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An agent's request: `n` calls of `read_file` on the same path, each answered by
    /// `result(i)`.
    fn history(n: usize, result: impl Fn(usize) -> String) -> Value {
        let mut messages = vec![json!({"role": "user", "content": "Fix the failing test in src/date.py."})];
        for i in 0..n {
            messages.push(json!({"role": "assistant", "content": null, "tool_calls": [{"id": format!("call_{i}"), "type": "function",
                "function": {"name": "read_file", "arguments": "{\"path\":\"src/date.py\"}"}}]}));
            messages.push(json!({"role": "tool", "tool_call_id": format!("call_{i}"), "content": result(i)}));
        }
        json!({"model": "m", "stream": true, "messages": messages, "tools": [{"type": "function", "function": {"name": "read_file"}}]})
    }

    /// A streamed reply calling `read_file` on the same path once more.
    fn calls_again() -> String {
        let first = json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": 0, "id": "call_new", "type": "function",
            "function": {"name": "read_file", "arguments": ""}}]}}]});
        let args = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"path\":\"src/date.py\"}"}}]}}]});
        let end = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
        format!("data: {first}\n\ndata: {args}\n\ndata: {end}\n\ndata: [DONE]\n\n")
    }

    #[test]
    fn the_same_call_with_the_same_result_again_and_again_fails_across_turns() {
        let request = history(8, |_| "def parse(s):\n    return s\n".to_string());
        assert!(has_tool_history(&request));
        let found = check(request.to_string().as_bytes(), calls_again().as_bytes(), Dialect::Chat).unwrap();
        assert_eq!(found.verdict, Verdict::Fail, "{found:?}");
        assert_eq!(found.calls, 9, "the history's 8 and the reply's");
        assert!(found.reason.contains("read_file"), "{}", found.reason);
    }

    #[test]
    fn a_responses_history_of_the_same_call_and_result_fails_with_the_replys_call() {
        let history = |result: &dyn Fn(usize) -> String| {
            let mut input = vec![json!({"role": "user", "content": "Fix the failing test in src/date.py."})];
            for i in 0..8 {
                input.push(json!({"type": "function_call", "call_id": format!("call_{i}"), "name": "read_file",
                    "arguments": "{\"path\":\"src/date.py\"}"}));
                input
                    .push(json!({"type": "function_call_output", "call_id": format!("call_{i}"), "output": result(i)}));
            }
            json!({"model": "m", "stream": true, "input": input})
        };
        let request = history(&|_| "def parse(s):\n    return s\n".to_string());
        assert!(has_tool_history(&request));
        let added = json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "function_call", "id": "fc_9", "call_id": "call_9", "name": "read_file"}});
        let args = json!({"type": "response.function_call_arguments.delta", "item_id": "fc_9", "output_index": 0,
            "delta": "{\"path\":\"src/date.py\"}"});
        let reply = format!("event: response.output_item.added\ndata: {added}\n\nevent: response.function_call_arguments.delta\ndata: {args}\n\n");
        let found = check(request.to_string().as_bytes(), reply.as_bytes(), Dialect::Responses).unwrap();
        assert_eq!((found.verdict, found.calls), (Verdict::Fail, 9), "{found:?}");
        // Polling that gets a new result each time is no loop.
        let polling = history(&|i| format!("job running: {i} of 10 steps done"));
        let found = check(polling.to_string().as_bytes(), reply.as_bytes(), Dialect::Responses).unwrap();
        assert_eq!(found.verdict, Verdict::Pass, "{found:?}");
    }

    #[test]
    fn polling_with_new_results_and_a_history_without_calls_are_no_loop() {
        let polling = history(8, |i| format!("job running: {i} of 10 steps done"));
        let found = check(polling.to_string().as_bytes(), calls_again().as_bytes(), Dialect::Chat).unwrap();
        assert_eq!(found.verdict, Verdict::Pass, "{found:?}");
        let plain = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        assert!(!has_tool_history(&plain));
        let reply = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello.\"}}]}\n\ndata: [DONE]\n\n";
        assert_eq!(check(plain.to_string().as_bytes(), reply.as_bytes(), Dialect::Chat), None);
        assert_eq!(check(b"not json", reply.as_bytes(), Dialect::Chat), None);
    }
}
