//! A [`Reply`] as an SSE stream of `chat.completion.chunk`s, exactly as FORMATS.md shows: a
//! role chunk, reasoning (in the field the behaviour or `--reasoning-field` names, or inline
//! between `<think>` chunks) and content in deltas of 1–3 words (tool-call arguments in small
//! fragments; with `logprobs` asked, a token a chunk with its `logprobs.content`), a finish chunk, a usage chunk with `choices: []` when asked for, `data: [DONE]`.
//! Each event goes out as its own flushed HTTP chunk, after the configured pause.

use crate::reasoning_field::{ReasoningField, THINK_CLOSE, THINK_OPEN};
use crate::reply::{Ending, Reply};
use crate::token_logprobs::wire_logprobs;
use crate::wire::{Chunk, ChunkChoice, Delta, Usage};
use coherency_core::splitmix::Rng;
use serde::Serialize;
use serde_json::json;
use std::io;
use std::thread::sleep;
use std::time::Duration;

/// What every chunk of one stream shares.
pub struct Stream<'a> {
    pub id: &'a str,
    pub created: u64,
    pub model: &'a str,
    /// Where the reasoning goes.
    pub reasoning_field: ReasoningField,
    pub include_usage: bool,
    pub delay: Duration,
    /// Send a `: keep-alive` comment first (as DeepSeek and OpenRouter do).
    pub keep_alive: bool,
}

/// Sends `reply` through `send` (one call per SSE event). Returns true when the reply ends
/// by cutting the connection (the caller closes it instead of ending the body).
pub fn send_reply(s: &Stream, reply: &Reply, send: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<bool> {
    let mut out = Out { send, delay: s.delay };
    if s.keep_alive {
        out.raw(b": keep-alive\n\n")?;
    }
    let mut first = Delta { role: Some("assistant"), content: Some(Some("")), ..Delta::default() };
    if let Some(call) = &reply.tool_call {
        first.content = Some(None);
        first.tool_calls = Some(json!([{
            "index": 0, "id": call.id, "type": "function", "function": {"name": call.name, "arguments": ""}}]));
    }
    out.data(&s.chunk(first, None), false)?;
    let mut rng = Rng::new(0xde17a);
    let inline = s.reasoning_field == ReasoningField::InlineThink && !reply.reasoning.is_empty();
    if inline {
        out.data(&s.chunk(Delta { content: Some(Some(THINK_OPEN)), ..Delta::default() }, None), true)?;
    }
    for piece in deltas(&reply.reasoning, &mut rng) {
        out.data(&s.chunk(Delta::reasoning(s.reasoning_field, piece), None), true)?;
    }
    if inline {
        out.data(&s.chunk(Delta { content: Some(Some(THINK_CLOSE)), ..Delta::default() }, None), true)?;
    }
    match &reply.tokens {
        // With logprobs, a token a chunk, each with its `logprobs.content` (as vLLM sends them).
        Some(tokens) => {
            for t in tokens {
                let mut chunk = s.chunk(Delta { content: Some(Some(&t.text)), ..Delta::default() }, None);
                chunk.choices[0].logprobs = Some(wire_logprobs(std::slice::from_ref(t)));
                out.data(&chunk, true)?;
            }
        }
        None => {
            for piece in deltas(&reply.content, &mut rng) {
                out.data(&s.chunk(Delta { content: Some(Some(piece)), ..Delta::default() }, None), true)?;
            }
        }
    }
    if let Some(call) = &reply.tool_call {
        for piece in fragments(&call.arguments) {
            let tool_calls = Some(json!([{"index": 0, "function": {"arguments": piece}}]));
            out.data(&s.chunk(Delta { tool_calls, ..Delta::default() }, None), true)?;
        }
    }
    match &reply.ending {
        Ending::Cut => return Ok(true),
        Ending::Error(message) => {
            out.data(&json!({"error": {"message": message, "type": "server_error", "code": 500}}), true)?;
        }
        Ending::Clean => {
            out.data(&s.chunk(Delta::default(), Some(reply.finish_reason)), true)?;
            if s.include_usage {
                let usage =
                    Chunk { choices: Vec::new(), usage: Some(reply.usage()), ..s.chunk(Delta::default(), None) };
                out.data(&usage, false)?;
            }
        }
    }
    out.raw(b"data: [DONE]\n\n")?;
    Ok(false)
}

/// Where events go, with the pause before each token.
struct Out<F> {
    send: F,
    delay: Duration,
}

impl<F: FnMut(&[u8]) -> io::Result<()>> Out<F> {
    fn data(&mut self, v: &impl Serialize, pause: bool) -> io::Result<()> {
        if pause && !self.delay.is_zero() {
            sleep(self.delay);
        }
        let json = serde_json::to_string(v).map_err(io::Error::other)?;
        self.raw(format!("data: {json}\n\n").as_bytes())
    }

    fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        (self.send)(bytes)
    }
}

impl<'a> Stream<'a> {
    fn chunk(&self, delta: Delta<'a>, finish_reason: Option<&'a str>) -> Chunk<'a> {
        Chunk {
            id: self.id,
            object: "chat.completion.chunk",
            created: self.created,
            model: self.model,
            choices: vec![ChunkChoice { index: 0, delta, logprobs: None, finish_reason }],
            usage: None,
        }
    }
}

impl Reply {
    pub fn usage(&self) -> Usage {
        Usage::new(self.prompt_tokens, self.completion_tokens)
    }
}

/// `text` cut into pieces of 1–3 words, each with the whitespace after it (leading
/// whitespace goes with the first piece); the pieces join back to `text`.
pub fn deltas<'t>(text: &'t str, rng: &mut Rng) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut words_in_piece = 0;
    let mut want = rng.between(1, 3);
    let mut prev_space = true;
    for (i, c) in text.char_indices() {
        let space = c.is_whitespace();
        if !space && prev_space && i > 0 {
            // A word starts at `i`; the previous one has ended.
            if words_in_piece == want {
                out.push(&text[start..i]);
                start = i;
                words_in_piece = 0;
                want = rng.between(1, 3);
            }
        }
        if !space && prev_space {
            words_in_piece += 1;
        }
        prev_space = space;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// JSON text cut into fragments of a few characters (on char boundaries), as models stream
/// tool arguments.
fn fragments(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (n, (i, _)) in text.char_indices().enumerate() {
        if n > 0 && n % 7 == 0 {
            out.push(&text[start..i]);
            start = i;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_join_back_and_hold_one_to_three_words() {
        let text = "  Alpha beta\n\ngamma  delta epsilon zeta. Eta theta iota\n";
        let pieces = deltas(text, &mut Rng::new(1));
        assert_eq!(pieces.concat(), text);
        assert!(pieces.len() > 2);
        for p in &pieces {
            assert!((1..=3).contains(&p.split_whitespace().count()), "{p:?}");
        }
        assert!(deltas("", &mut Rng::new(1)).is_empty());
    }

    #[test]
    fn fragments_join_back() {
        let s = r#"{"city":"Zürich","days":3}"#;
        assert_eq!(fragments(s).concat(), s);
        assert!(fragments(s).len() > 2);
    }
}
