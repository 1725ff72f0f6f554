//! Anthropic Messages event streams: content blocks rebuilt into one assistant turn.
//!
//! `thinking` blocks (`thinking_delta`) are reasoning, `text` blocks (`text_delta`) content,
//! `tool_use` blocks (`input_json_delta` fragments) tool calls; several blocks of one kind are
//! joined by a blank line. `message_delta` gives the stop reason and output tokens,
//! `message_stop` ends the stream, `ping` events count as keep-alives, `error` events are
//! recorded.

use super::builder::{Builder, Origin};
use super::chat_sse::JOINED;
use super::transcript::Transcript;
use super::Format;
use crate::stream::lenient_text;
use crate::stream::openai_wire::{error_text, json_text, UsageIn};
use crate::stream::turn::widen;
use crate::stream::{for_each_event, split_joined, SseEvent, StreamInfo, ToolCall, Turn, Usage};
use serde::Deserialize;
use std::ops::Range;

#[derive(Default, Deserialize)]
struct Event {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    message: Option<StartMessage>,
    #[serde(default)]
    index: Option<u64>,
    #[serde(default)]
    content_block: Option<Block>,
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default)]
    usage: Option<UsageIn>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Default, Deserialize)]
struct StartMessage {
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    usage: Option<UsageIn>,
}

#[derive(Default, Deserialize)]
struct Block {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    text: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    thinking: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default, deserialize_with = "json_text")]
    input: Option<String>,
}

#[derive(Default, Deserialize)]
struct Delta {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    text: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    thinking: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    partial_json: Option<String>,
    #[serde(default)]
    stop_reason: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Thinking,
    Tool,
}

#[derive(Default)]
struct Reader {
    turn: Turn,
    info: StreamInfo,
    /// `(index, kind)` of each block started.
    blocks: Vec<(u64, Kind)>,
    /// The block index that last wrote to the reasoning / the content.
    last_thinking: Option<u64>,
    last_text: Option<u64>,
}

impl Reader {
    fn append(&mut self, kind: Kind, index: u64, text: &str, range: Range<usize>) {
        if text.is_empty() {
            return;
        }
        let (buf, last, source) = match kind {
            Kind::Thinking => (&mut self.turn.reasoning, &mut self.last_thinking, &mut self.turn.reasoning_source),
            Kind::Text => (&mut self.turn.content, &mut self.last_text, &mut self.turn.content_source),
            Kind::Tool => {
                if let Some(call) = self.turn.tool_calls.iter_mut().rev().find(|c| c.index == index) {
                    call.arguments.push_str(text);
                    widen(&mut call.source, range);
                }
                return;
            }
        };
        if *last != Some(index) && !buf.is_empty() {
            buf.push_str("\n\n");
        }
        *last = Some(index);
        buf.push_str(text);
        widen(source, range);
    }

    fn event(&mut self, ev: Event, name: Option<&str>, range: Range<usize>) {
        let kind = ev.kind.as_deref().or(name).unwrap_or("");
        let index = ev.index.unwrap_or(0);
        match kind {
            "message_start" => {
                if let Some(m) = ev.message {
                    self.turn.role = m.role.or(self.turn.role.take());
                    self.info.model = m.model;
                    self.info.usage = m.usage.map(Into::into);
                }
            }
            "content_block_start" => {
                let block = ev.content_block.unwrap_or_default();
                let k = match block.kind.as_deref() {
                    Some("thinking") => Kind::Thinking,
                    Some("tool_use") | Some("server_tool_use") => Kind::Tool,
                    _ => Kind::Text,
                };
                self.blocks.push((index, k));
                if k == Kind::Tool {
                    let args = block.input.filter(|i| i != "{}").unwrap_or_default();
                    let name = block.name.unwrap_or_default();
                    let source = Some(range.clone());
                    self.turn.tool_calls.push(ToolCall { index, id: block.id, name, arguments: args, source });
                } else {
                    let text = if k == Kind::Thinking { block.thinking } else { block.text };
                    self.append(k, index, text.as_deref().unwrap_or(""), range);
                }
            }
            "content_block_delta" => {
                let d = ev.delta.unwrap_or_default();
                let started = self.blocks.iter().rev().find(|(i, _)| *i == index).map(|(_, k)| *k);
                let (k, text) = match d.kind.as_deref() {
                    Some("thinking_delta") => (Kind::Thinking, d.thinking),
                    Some("input_json_delta") => (Kind::Tool, d.partial_json),
                    Some("text_delta") => (Kind::Text, d.text),
                    // signature_delta and unknown deltas carry no text to analyse.
                    _ => return,
                };
                if k == Kind::Tool && started != Some(Kind::Tool) {
                    self.blocks.push((index, Kind::Tool));
                    self.turn.tool_calls.push(ToolCall { index, ..ToolCall::default() });
                }
                self.append(k, index, text.as_deref().unwrap_or(""), range);
            }
            "message_delta" => {
                if let Some(r) = ev.delta.and_then(|d| d.stop_reason) {
                    self.turn.finish_reason = Some(r);
                }
                if let Some(u) = ev.usage {
                    let u: Usage = u.into();
                    let usage = self.info.usage.get_or_insert_with(Usage::default);
                    usage.prompt_tokens = u.prompt_tokens.or(usage.prompt_tokens);
                    usage.completion_tokens = u.completion_tokens.or(usage.completion_tokens);
                    if let (Some(p), Some(c)) = (usage.prompt_tokens, usage.completion_tokens) {
                        usage.total_tokens = Some(p.saturating_add(c));
                    }
                }
            }
            "message_stop" => self.info.saw_done = true,
            "error" => {
                let text = ev.error.as_ref().map(error_text).unwrap_or_else(|| "error event".into());
                self.info.errors.push(text);
            }
            _ => {}
        }
    }
}

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::AnthropicSse);
    let mut r = Reader::default();
    for_each_event(input, |event| match event {
        SseEvent::Message(m) => {
            let at = Origin::new(m.range.clone(), Some(m.line));
            let parts = split_joined(&m.data);
            if parts.is_some() {
                b.diag(at.clone(), JOINED);
            }
            // Run-together events lost their names: their data's `type` says.
            let name = if parts.is_some() { None } else { m.event.as_deref() };
            for data in parts.unwrap_or_else(|| vec![&m.data]) {
                let ev = match serde_json::from_str::<Event>(data) {
                    Ok(ev) => ev,
                    Err(e) => {
                        r.info.chunks += 1;
                        b.json_diag(at.clone(), "event is not an Anthropic event", &e);
                        continue;
                    }
                };
                if ev.kind.as_deref().or(name) == Some("ping") {
                    r.info.comments += 1;
                } else {
                    r.info.chunks += 1;
                    r.event(ev, name, m.range.clone());
                }
            }
        }
        SseEvent::Comment { .. } => r.info.comments += 1,
        SseEvent::Problem { message, range, line } => b.diag(Origin::new(range, Some(line)), message),
    });
    r.info.finish_reason = r.turn.finish_reason.clone();
    if r.info.chunks == 0 {
        b.diag(Origin::new(0..input.len(), Some(1)), "the stream holds no event");
    }
    b.turn((0, 0), r.turn, &Origin::new(0..input.len(), Some(1)));
    b.t.stream = Some(r.info);
    b.finish()
}
