//! Ollama's native NDJSON stream (`/api/chat`, and `/api/generate`): one object per line,
//! `message.content` / `message.thinking` (or `response` / `thinking`), ending with a
//! `"done": true` line that carries `done_reason` and token counts.

use super::builder::{Builder, Origin};
use super::lines::jsonl_lines;
use super::transcript::Transcript;
use super::Format;
use crate::stream::lenient_text;
use crate::stream::openai_wire::{error_text, Choice, Completion, MessageIn};
use crate::stream::{ChatAssembler, Usage};
use serde::Deserialize;

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

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::OllamaNdjson);
    let mut a = ChatAssembler::new();
    let (mut chunks, mut done, mut reason, mut usage, mut model, mut errors) = (0, false, None, None, None, Vec::new());
    for (line_no, range) in jsonl_lines(input) {
        chunks += 1;
        let at = Origin::new(range.clone(), Some(line_no));
        let line = match serde_json::from_slice::<Line>(&input[range.clone()]) {
            Ok(l) => l,
            Err(e) => {
                b.json_diag(at, "not an Ollama stream line", &e);
                continue;
            }
        };
        if let Some(e) = &line.error {
            errors.push(error_text(e));
        }
        model = model.or(line.model);
        let mut message = line.message;
        if line.response.is_some() || line.thinking.is_some() {
            let m = message.get_or_insert_with(MessageIn::default);
            m.content = m.content.take().or(line.response);
            m.thinking = m.thinking.take().or(line.thinking);
        }
        let choice = Choice { message, ..Choice::default() };
        a.push_completion(Completion { choices: Some(vec![choice]), ..Completion::default() }, range);
        if line.done == Some(true) {
            done = true;
            reason = line.done_reason.or(reason);
            if line.prompt_eval_count.is_some() || line.eval_count.is_some() {
                let total = line.prompt_eval_count.zip(line.eval_count).map(|(p, c)| p.saturating_add(c));
                usage = Some(Usage {
                    prompt_tokens: line.prompt_eval_count,
                    completion_tokens: line.eval_count,
                    total_tokens: total,
                    reasoning_tokens: None,
                });
            }
        }
    }
    let (turns, mut info) = a.finish();
    info.chunks = chunks;
    info.saw_done = done;
    info.finish_reason = reason;
    info.usage = usage;
    info.model = model;
    info.errors.extend(errors);
    if chunks == 0 {
        b.diag(Origin::new(0..input.len(), Some(1)), "the stream is empty");
    }
    let whole = Origin::new(0..input.len(), Some(1));
    for turn in turns {
        b.turn((0, 0), turn, &whole);
    }
    b.t.stream = Some(info);
    b.finish()
}
