//! The Ollama native stream assembler (`/api/chat`, and `/api/generate`): one JSON object per
//! NDJSON line in, one assistant [`Reply`] out.
//!
//! `message.content` / `message.thinking` (or `response` / `thinking`) and `message.tool_calls`
//! go through the chat assembler (so inline `<think>` is split out too); the `"done": true`
//! line carries `done_reason` and the token counts; `{"error":…}` lines are recorded.

use super::assembler::Assembler;
use super::lenient::{json_problem, text as lenient_text};
use super::openai_chat::ChatAssembler;
use super::openai_wire::{error_text, Choice, Completion, MessageIn};
use super::reply::{Reply, StreamInfo, Usage};
use serde::Deserialize;
use std::ops::Range;

#[derive(Default, Deserialize)]
struct Line {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    message: Option<MessageIn>,
    #[serde(default, deserialize_with = "lenient_text")]
    response: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    thinking: Option<String>,
    #[serde(default)]
    done: Option<bool>,
    #[serde(default)]
    done_reason: Option<String>,
    #[serde(default)]
    prompt_eval_count: Option<u64>,
    #[serde(default)]
    eval_count: Option<u64>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

/// Incremental assembler of Ollama NDJSON lines. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct OllamaAssembler {
    chat: ChatAssembler,
    /// What the lines said about the stream (the chat assembler's own info is not used).
    info: StreamInfo,
}

impl OllamaAssembler {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Assembler for OllamaAssembler {
    /// Reads one NDJSON line (`event` is ignored).
    fn push_event(&mut self, _event: Option<&str>, data: &str, source: Range<usize>) -> Result<(), String> {
        self.info.chunks += 1;
        let line = serde_json::from_slice::<Line>(data.as_bytes())
            .map_err(|e| json_problem("not an Ollama stream line", &e))?;
        if let Some(e) = &line.error {
            self.info.add_error(error_text(e));
        }
        if self.info.model.is_none() {
            self.info.model = line.model;
        }
        let mut message = line.message;
        if line.response.is_some() || line.thinking.is_some() {
            let m = message.get_or_insert_with(MessageIn::default);
            m.content = m.content.take().or(line.response);
            m.thinking = m.thinking.take().or(line.thinking);
        }
        let choice = Choice { message, ..Choice::default() };
        self.chat.push_completion(Completion { choices: Some(vec![choice]), ..Completion::default() }, source);
        if line.done == Some(true) {
            self.info.saw_done = true;
            self.info.finish_reason = line.done_reason.or(self.info.finish_reason.take());
            if line.prompt_eval_count.is_some() || line.eval_count.is_some() {
                let total = line.prompt_eval_count.zip(line.eval_count).map(|(p, c)| p.saturating_add(c));
                self.info.usage = Some(Usage {
                    prompt_tokens: line.prompt_eval_count,
                    completion_tokens: line.eval_count,
                    total_tokens: total,
                    reasoning_tokens: None,
                });
            }
        }
        Ok(())
    }

    fn comment(&mut self) {
        self.info.comments += 1;
    }

    fn turns(&self) -> &[Reply] {
        self.chat.turns()
    }

    fn info(&self) -> &StreamInfo {
        &self.info
    }

    fn reasoning_placement(&self) -> super::ReasoningPlacement {
        self.chat.reasoning_placement()
    }

    fn finish(self) -> (Vec<Reply>, StreamInfo) {
        let (turns, _) = self.chat.finish();
        (turns, self.info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_and_generate_lines() {
        let mut a = OllamaAssembler::new();
        let lines = [
            r#"{"model":"q","message":{"role":"assistant","content":"","thinking":"hm"},"done":false}"#,
            r#"{"model":"q","message":{"role":"assistant","content":"Yes"},"done":false}"#,
            r#"{"model":"q","response":"!","done":false}"#,
            r#"{"model":"q","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":3,"eval_count":4}"#,
        ];
        for (i, l) in lines.iter().enumerate() {
            a.push_event(None, l, i..i + 1).unwrap();
        }
        assert!(a.push_event(None, "{\"error\":\"model not found\"}", 9..10).is_ok());
        assert!(a.push_event(None, "nope", 10..11).is_err());
        let (turns, info) = a.finish();
        assert_eq!((turns[0].reasoning.as_str(), turns[0].content.as_str()), ("hm", "Yes!"));
        assert_eq!((info.chunks, info.saw_done, info.finish_reason.as_deref()), (6, true, Some("stop")));
        assert_eq!(info.usage.as_ref().and_then(|u| u.total_tokens), Some(7));
        assert_eq!(info.errors, vec!["model not found".to_string()]);
    }
}
