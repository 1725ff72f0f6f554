//! Cline's and Roo Code's task files. `api_conversation_history.json`: the Anthropic messages
//! the extension sent, read as an Anthropic history (`thinking`, `text`, `tool_use` blocks; a
//! `tool_result` with `is_error` marked failed) — and, in the older form, tool calls written as
//! XML inside the assistant's text (`<read_file>\n<path>a.rs</path>\n</read_file>`: a call with
//! its parameters as arguments) answered by user text `[read_file for 'a.rs'] Result:` (the
//! call's result). `ui_messages.json`: `[{"ts", "type": "say" | "ask", "say" | "ask", "text"}]`,
//! what the chat panel showed: the model's text, reasoning and commands, the user's feedback,
//! command output; API bookkeeping (`api_req_started`…) is skipped.

use serde_json::Value;

use super::shared::{elements, text_of, Turns};
use crate::ingest::builder::{Builder, Origin, Part};
use crate::ingest::history::{History, Item};
use crate::ingest::transcript::{Channel, Transcript};
use crate::ingest::Format;

/// Tools Cline and Roo Code write as XML in the older form.
const XML_TOOLS: [&str; 14] = [
    "read_file",
    "write_to_file",
    "replace_in_file",
    "apply_diff",
    "execute_command",
    "search_files",
    "list_files",
    "list_code_definition_names",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "attempt_completion",
    "new_task",
];

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::Cline);
    let Some(items) = elements(input, 0..input.len()) else {
        b.diag(Origin::new(0..input.len(), None), "not a Cline task file: not a JSON array");
        return b.finish();
    };
    let values: Vec<(Origin, Value)> = items
        .into_iter()
        .filter_map(|range| {
            let at = Origin::new(range.clone(), None);
            match serde_json::from_slice::<Value>(&input[range]) {
                Ok(v) => Some((at, v)),
                Err(e) => {
                    b.json_diag(at, "not a Cline message", &e);
                    None
                }
            }
        })
        .collect();
    if values.iter().any(|(_, v)| v.get("role").is_none() && (v.get("say").is_some() || v.get("ask").is_some())) {
        ui_messages(&mut b, values);
    } else {
        api_history(&mut b, input, values);
    }
    b.finish()
}

fn api_history(b: &mut Builder, input: &[u8], values: Vec<(Origin, Value)>) {
    let mut history = History::default();
    let mut turns = Turns::new(0);
    let mut failed: Vec<String> = Vec::new();
    for (at, v) in values {
        for block in v.get("content").and_then(Value::as_array).into_iter().flatten() {
            if block.get("is_error").and_then(Value::as_bool) == Some(true) {
                failed.extend(text_of(block.get("tool_use_id")));
            }
        }
        let assistant = v.get("role").and_then(Value::as_str) == Some("assistant");
        let item = match Item::read(&input[at.range.clone()]) {
            Ok(item) => item,
            Err(e) => {
                b.diag(at, format!("a message that could not be read: {e}"));
                continue;
            }
        };
        let parts = history.parts_of([item]).into_iter().flat_map(|p| xml_calls(p, assistant)).collect();
        turns.add(b, parts, &at);
    }
    for m in &mut b.t.messages {
        m.is_error = m.role == "tool" && m.call_id.as_ref().is_some_and(|id| failed.contains(id));
    }
}

/// A part with the older form's XML tool calls (in the assistant's text) and results (in the
/// user's) made calls and results; any other part as it is.
fn xml_calls(part: Part, assistant: bool) -> Vec<Part> {
    if part.channel != Channel::Content {
        return vec![part];
    }
    if !assistant {
        // "[read_file for 'src/a.rs'] Result:\n…"
        let text = part.text.trim_start();
        if let Some(rest) = text.strip_prefix('[') {
            if let Some((head, body)) = rest.split_once("] Result:") {
                let name = head.split_whitespace().next().unwrap_or("").to_string();
                if XML_TOOLS.contains(&name.as_str()) {
                    return vec![Part::new("tool", Channel::Tool, body.trim_start().to_string()).call(Some(name), None)];
                }
            }
        }
        return vec![part];
    }
    let mut out = Vec::new();
    let mut prose = String::new();
    let mut rest = part.text.as_str();
    while let Some((before, name, inner, after)) = next_xml_call(rest) {
        prose.push_str(before);
        let mut args = serde_json::Map::new();
        let mut params = inner;
        while let Some(open) = params.find('<') {
            let Some(close) = params[open..].find('>') else { break };
            let key = &params[open + 1..open + close];
            let end_tag = format!("</{key}>");
            let Some(end) = params.find(&end_tag) else { break };
            let value = params[open + close + 1..end].trim_matches('\n');
            args.insert(key.to_string(), Value::String(value.to_string()));
            params = &params[end + end_tag.len()..];
        }
        out.push(
            Part::new(&part.role, Channel::Tool, Value::Object(args).to_string()).call(Some(name.to_string()), None),
        );
        rest = after;
    }
    prose.push_str(rest);
    let prose = prose.trim().to_string();
    let mut all = vec![Part { text: prose, ..part }];
    all.extend(out);
    all
}

/// The first `<tool>…</tool>` of a known tool in `text`: the text before, the tool, its inner
/// text, and the text after.
fn next_xml_call(text: &str) -> Option<(&str, &str, &str, &str)> {
    let mut best: Option<(usize, &str)> = None;
    for tool in XML_TOOLS {
        if let Some(at) = text.find(&format!("<{tool}>")) {
            if best.is_none_or(|(b, _)| at < b) {
                best = Some((at, tool));
            }
        }
    }
    let (at, tool) = best?;
    let open = at + tool.len() + 2;
    let close = text[open..].find(&format!("</{tool}>"))? + open;
    Some((&text[..at], tool, &text[open..close], &text[close + tool.len() + 3..]))
}

fn ui_messages(b: &mut Builder, values: Vec<(Origin, Value)>) {
    let mut turns = Turns::new(0);
    // Consecutive messages of one side are one turn.
    let mut pending: Vec<Part> = Vec::new();
    let mut pending_at: Option<Origin> = None;
    let mut skipped = 0;
    for (at, v) in values {
        let kind = v.get("say").or_else(|| v.get("ask")).and_then(Value::as_str).unwrap_or("");
        let text = text_of(v.get("text")).unwrap_or_default();
        let part = match kind {
            "text" | "completion_result" | "followup" => Part::new("assistant", Channel::Content, text),
            "reasoning" => Part::new("assistant", Channel::Reasoning, text),
            "command" => Part::new("assistant", Channel::Tool, text).call(Some("execute_command".into()), None),
            "tool" => {
                let name = serde_json::from_slice::<Value>(text.as_bytes()).ok().and_then(|t| text_of(t.get("tool")));
                Part::new("assistant", Channel::Tool, text).call(name, None)
            }
            "command_output" => Part::new("tool", Channel::Tool, text).call(Some("execute_command".into()), None),
            "task" | "user_feedback" | "user_feedback_diff" => Part::new("user", Channel::Content, text),
            "error" => Part::new("tool", Channel::Tool, text).failed(true),
            _ => {
                skipped += 1;
                continue;
            }
        };
        let model = part.role == "assistant";
        let same_side = pending.first().is_some_and(|p| (p.role == "assistant") == model);
        if !same_side {
            if let Some(at) = pending_at.take() {
                turns.add(b, std::mem::take(&mut pending), &at);
            }
        }
        pending_at = Some(match pending_at {
            Some(first) => Origin::new(first.range.start..at.range.end, None),
            None => at,
        });
        pending.push(part);
    }
    if let Some(at) = pending_at {
        turns.add(b, pending, &at);
    }
    if skipped > 0 {
        let end = b.t.messages.last().map_or(0, |m| m.source.end);
        b.diag(
            Origin::new(end..end, None),
            format!("{skipped} bookkeeping message(s) skipped (API requests, checkpoints)"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_tool_use_and_failed_results() {
        let input = br#"[{"role":"user","content":[{"type":"text","text":"<task>\nfix it\n</task>"}]},
{"role":"assistant","content":[{"type":"text","text":"Reading."},{"type":"tool_use","id":"t1","name":"read_file","input":{"path":"a.rs"}}]},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"no such file","is_error":true}]}]"#;
        assert_eq!(
            parse(input).message_lines(),
            [
                "0 user content None false <task>\nfix it\n</task>",
                "1 assistant content None false Reading.",
                "1 assistant tool Some(\"read_file\") false {\"path\":\"a.rs\"}",
                "2 tool tool Some(\"read_file\") true no such file",
            ]
        );
    }

    #[test]
    fn the_older_xml_tool_calls_and_results() {
        let input = br#"[{"role":"user","content":"<task>fix it</task>"},
{"role":"assistant","content":"Let me look.\n\n<read_file>\n<path>src/a.rs</path>\n</read_file>"},
{"role":"user","content":[{"type":"text","text":"[read_file for 'src/a.rs'] Result:\nfn a() {}"}]}]"#;
        assert_eq!(
            parse(input).message_lines(),
            [
                "0 user content None false <task>fix it</task>",
                "1 assistant content None false Let me look.",
                "1 assistant tool Some(\"read_file\") false {\"path\":\"src/a.rs\"}",
                "2 tool tool Some(\"read_file\") false fn a() {}",
            ]
        );
    }

    #[test]
    fn ui_messages_are_read_by_side() {
        let input = br#"[{"ts":1,"type":"say","say":"task","text":"fix it"},
{"ts":2,"type":"say","say":"api_req_started","text":"{}"},
{"ts":3,"type":"say","say":"text","text":"Running the tests."},
{"ts":4,"type":"ask","ask":"command","text":"cargo test"},
{"ts":5,"type":"say","say":"command_output","text":"1 failed"}]"#;
        let t = parse(input);
        assert_eq!(
            t.message_lines(),
            [
                "0 user content None false fix it",
                "1 assistant content None false Running the tests.",
                "1 assistant tool Some(\"execute_command\") false cargo test",
                "2 tool tool Some(\"execute_command\") false 1 failed",
            ]
        );
        assert_eq!(t.diagnostics.len(), 1);
    }
}
