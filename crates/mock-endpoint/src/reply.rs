//! What the mock model answers to a request, decided before a byte is sent: reasoning and
//! content text, a tool call, the finish reason, usage, and how the answer ends (cleanly, with
//! a mid-stream error, or cut off). The wire formats (`stream.rs`, `completion.rs`) only
//! render a [`Reply`].

use crate::behaviour::Behaviour;
use crate::context;
use crate::request::ChatRequest;
use crate::text;
use crate::token_logprobs::{self, Token};
use crate::tools;
use coherency_core::splitmix::GOLDEN;

/// Words of coherent text when the request sets no `max_tokens`.
const COHERENT_WORDS: usize = 6_000;
/// Words a loop runs to when the request sets no `max_tokens` (a loop runs to the limit).
const LOOP_WORDS: usize = 4_000;
/// Words sent before a mid-stream error or a dropped connection.
const WORDS_BEFORE_TROUBLE: usize = 300;

/// Words of the reference and drifting-kernel replies when the request sets no `max_tokens`.
const REFERENCE_WORDS: usize = 300;

/// What the reference models' reply depends on: the prompt alone at `temperature: 0`, the
/// prompt and the `seed` otherwise.
fn reference_seed(req: &ChatRequest) -> u64 {
    if req.temperature == Some(0.0) {
        req.prompt_hash
    } else {
        req.prompt_hash ^ req.seed.wrapping_mul(GOLDEN)
    }
}

/// A tool call to send.
#[derive(Clone, Debug)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// JSON text.
    pub arguments: String,
}

/// How the answer ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// finish_reason, usage, `[DONE]`.
    Clean,
    /// An `{"error":…}` chunk (a 500 when not streamed), then `[DONE]`.
    Error(String),
    /// The connection closes mid-answer.
    Cut,
}

#[derive(Clone, Debug)]
pub struct Reply {
    pub reasoning: String,
    pub content: String,
    pub tool_call: Option<ToolCall>,
    pub finish_reason: &'static str,
    pub ending: Ending,
    pub prompt_tokens: usize,
    pub completion_tokens: usize,
    /// The content's tokens with logprobs, when the request asked for `logprobs`.
    pub tokens: Option<Vec<Token>>,
}

/// The reply of `behaviour` to `req`. `Unauthorized`, `NoCors` and `HugeError` answer like `Coherent`
/// (the routes deal with what sets them apart).
pub fn plan(behaviour: Behaviour, req: &ChatRequest) -> Reply {
    let seed = req.seed;
    let behaviour = behaviour.for_seed(seed);
    let budget = req.max_tokens;
    let limit = |natural: usize| budget.map_or(natural, |b| b.min(natural));
    let mut reply = Reply {
        reasoning: String::new(),
        content: String::new(),
        tool_call: None,
        finish_reason: "stop",
        ending: Ending::Clean,
        prompt_tokens: req.prompt_tokens,
        completion_tokens: 0,
        tokens: None,
    };
    if let Some(i) = req.tool_to_call {
        let tool = &req.tools[i];
        let arguments = tools::arguments(&tool.parameters);
        reply.completion_tokens = arguments.len() / 4 + 1;
        reply.tool_call = Some(ToolCall { id: format!("call_mock_{i}"), name: tool.name.clone(), arguments });
        reply.finish_reason = "tool_calls";
        return reply;
    }
    let loop_words = budget.unwrap_or(LOOP_WORDS);
    // A model with a short memory: what it sees, and its answer to a needle question.
    let needle_answer = match behaviour {
        Behaviour::ContextWindow(window) => {
            let (seen, counted) = context::visible(&req.messages, window);
            reply.prompt_tokens = counted;
            context::answer(&req.messages, &seen)
        }
        _ => None,
    };
    // Words the text would have without a limit; `None` for a loop, which runs to the limit.
    let natural: Option<usize> = match behaviour {
        Behaviour::Coherent | Behaviour::Unauthorized | Behaviour::NoCors | Behaviour::HugeError => {
            Some(COHERENT_WORDS)
        }
        Behaviour::Slow => Some(100),
        Behaviour::Reasoning | Behaviour::ReasoningIn(_) => Some(1_900),
        Behaviour::ReasoningLoop => Some(loop_words),
        Behaviour::MidStreamError | Behaviour::Dropped => Some(WORDS_BEFORE_TROUBLE),
        Behaviour::WordLoop | Behaviour::LineLoop | Behaviour::LateLoop => None,
        Behaviour::SometimesLoops(_) => unreachable!("for_seed picks one"),
        Behaviour::Reference | Behaviour::DriftingKernel => Some(REFERENCE_WORDS),
        Behaviour::ContextWindow(_) => {
            Some(needle_answer.as_ref().map_or(COHERENT_WORDS, |a| a.split_whitespace().count()))
        }
    };
    match behaviour {
        Behaviour::Coherent | Behaviour::Slow | Behaviour::Unauthorized | Behaviour::NoCors | Behaviour::HugeError => {
            reply.content = text::coherent(seed, limit(natural.unwrap_or(0)));
        }
        Behaviour::WordLoop => reply.content = text::word_loop(seed, loop_words),
        Behaviour::LineLoop => reply.content = text::line_loop(loop_words),
        Behaviour::LateLoop => reply.content = text::late_loop(seed, loop_words),
        Behaviour::Reasoning | Behaviour::ReasoningIn(_) => {
            let reasoning = limit(400);
            reply.reasoning = text::thinking(seed.wrapping_add(1), reasoning);
            reply.content = text::coherent(seed, limit(1_900) - reasoning);
        }
        Behaviour::ReasoningLoop => {
            // The loop takes most of any budget, so it shows even under a small max_tokens.
            let answer = 120.min(loop_words / 4);
            let thinking = loop_words - answer;
            let lead = 60.min(thinking / 4);
            let lines = text::line_loop_of("Wait, let me re-check the lock ordering once more.", thinking - lead);
            reply.reasoning = format!("{}\n\n{lines}", text::thinking(seed.wrapping_add(1), lead));
            reply.content = text::thinking(seed, answer);
        }
        Behaviour::MidStreamError => {
            reply.content = text::coherent(seed, limit(WORDS_BEFORE_TROUBLE));
            reply.ending = Ending::Error("the mock model crashed mid-stream (behaviour `error`)".into());
        }
        Behaviour::Dropped => {
            reply.content = text::coherent(seed, limit(WORDS_BEFORE_TROUBLE));
            reply.ending = Ending::Cut;
        }
        Behaviour::ContextWindow(_) => {
            reply.content = needle_answer.unwrap_or_else(|| text::coherent(seed, limit(COHERENT_WORDS)));
        }
        Behaviour::SometimesLoops(_) => {}
        Behaviour::Reference => reply.content = text::coherent(reference_seed(req), limit(REFERENCE_WORDS)),
        Behaviour::DriftingKernel => {
            let seed = reference_seed(req);
            let reference = text::coherent(seed, limit(REFERENCE_WORDS));
            let rest = text::thinking(seed ^ 0x5eed, limit(REFERENCE_WORDS));
            let (content, tokens) =
                token_logprobs::drifted(seed, &reference, &rest, req.prompt_tokens, req.top_logprobs);
            reply.content = content;
            reply.tokens = req.logprobs.then_some(tokens);
        }
    }
    if req.logprobs && reply.tokens.is_none() {
        let seed = if behaviour == Behaviour::Reference { reference_seed(req) } else { seed };
        reply.tokens = Some(token_logprobs::reference(seed, &reply.content, req.top_logprobs));
    }
    reply.completion_tokens = reply.reasoning.split_whitespace().count() + reply.content.split_whitespace().count();
    let cut_by_limit = match natural {
        None => true,
        Some(n) => budget.is_some_and(|b| b < n),
    };
    if cut_by_limit {
        reply.finish_reason = "length";
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request;

    fn req(body: &str) -> ChatRequest {
        request::parse(body.as_bytes()).unwrap()
    }

    #[test]
    fn budgets_and_finish_reasons() {
        let r = plan(Behaviour::Coherent, &req(r#"{"messages":[]}"#));
        assert_eq!((r.completion_tokens, r.finish_reason), (COHERENT_WORDS, "stop"));
        let r = plan(Behaviour::Coherent, &req(r#"{"messages":[],"max_tokens":16}"#));
        assert_eq!((r.completion_tokens, r.finish_reason), (16, "length"));
        let r = plan(Behaviour::LineLoop, &req(r#"{"messages":[]}"#));
        assert_eq!((r.completion_tokens, r.finish_reason), (LOOP_WORDS, "length"));
        let r = plan(Behaviour::ReasoningLoop, &req(r#"{"messages":[],"max_tokens":1000}"#));
        assert_eq!((r.completion_tokens, r.finish_reason), (1000, "stop"));
        let r = plan(Behaviour::Reasoning, &req(r#"{"messages":[],"max_tokens":100}"#));
        assert_eq!((r.completion_tokens, r.finish_reason), (100, "length"));
        let r = plan(Behaviour::Reasoning, &req(r#"{"messages":[]}"#));
        assert_eq!((r.completion_tokens, r.finish_reason), (1_900, "stop"));
        let asked = r#"{"max_tokens":200,"messages":[{"role":"user","content":"The special magic number for a-b is 1234567. Hi."},
            {"role":"user","content":"What is the special magic number for a-b? Answer with the number only."}]}"#;
        let r = plan(Behaviour::ContextWindow(4096), &req(asked));
        assert_eq!((r.content.as_str(), r.finish_reason), ("The special magic number for a-b is 1234567.", "stop"));
        assert_eq!(r.prompt_tokens, 12 + 18, "48 and 70 bytes, ÷ 4 rounded up");
        let r = plan(Behaviour::ContextWindow(20), &req(asked));
        assert!(r.content.starts_with("I do not see") && r.prompt_tokens == 20, "{}", r.content);
    }
}
