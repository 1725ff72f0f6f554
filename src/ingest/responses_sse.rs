//! OpenAI Responses API event streams: `response.*` events rebuilt into one assistant turn.
//!
//! Text from `response.output_text.delta` (and `refusal.delta`), reasoning from
//! `response.reasoning_summary_text.delta` and `response.reasoning_text.delta` (parts joined by
//! a blank line), tool calls from `response.output_item.added` + `function_call_arguments.delta`.
//! The stream ends with `response.completed`, `.incomplete` or `.failed`; `error` events are
//! recorded.

use super::builder::{Builder, Origin};
use super::chat_sse::JOINED;
use super::transcript::Transcript;
use super::Format;
use crate::stream::lenient_text;
use crate::stream::openai_wire::{error_text, UsageIn};
use crate::stream::turn::widen;
use crate::stream::{for_each_event, split_joined, SseEvent, StreamInfo, ToolCall, Turn};
use serde::Deserialize;
use std::ops::Range;

#[derive(Default, Deserialize)]
struct Event {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    delta: Option<String>,
    #[serde(default)]
    item_id: Option<String>,
    #[serde(default)]
    output_index: Option<u64>,
    #[serde(default)]
    summary_index: Option<u64>,
    #[serde(default)]
    content_index: Option<u64>,
    #[serde(default)]
    item: Option<Item>,
    #[serde(default)]
    response: Option<Response>,
    #[serde(default, deserialize_with = "lenient_text")]
    message: Option<String>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Default, Deserialize)]
struct Item {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Default, Deserialize)]
struct Response {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    usage: Option<UsageIn>,
    #[serde(default)]
    incomplete_details: Option<Incomplete>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Default, Deserialize)]
struct Incomplete {
    #[serde(default)]
    reason: Option<String>,
}

/// The state of the one reply being rebuilt.
#[derive(Default)]
struct Reader {
    turn: Turn,
    info: StreamInfo,
    /// Tool call item ids, same order as `turn.tool_calls`.
    call_items: Vec<Option<String>>,
    /// Which reasoning part the last reasoning delta belonged to.
    reasoning_part: Option<(Option<String>, Option<u64>, Option<u64>)>,
}

impl Reader {
    fn event(&mut self, ev: Event, name: Option<&str>, range: Range<usize>) {
        let kind = ev.kind.as_deref().or(name).unwrap_or("");
        match kind {
            "response.output_text.delta" | "response.refusal.delta" => {
                if let Some(d) = ev.delta.filter(|d| !d.is_empty()) {
                    self.turn.content.push_str(&d);
                    widen(&mut self.turn.content_source, range);
                }
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                if let Some(d) = ev.delta.filter(|d| !d.is_empty()) {
                    let part = Some((ev.item_id, ev.summary_index, ev.content_index));
                    if self.reasoning_part != part && !self.turn.reasoning.is_empty() {
                        self.turn.reasoning.push_str("\n\n");
                    }
                    self.reasoning_part = part;
                    self.turn.reasoning.push_str(&d);
                    widen(&mut self.turn.reasoning_source, range);
                }
            }
            "response.output_item.added" => {
                if let Some(item) = ev.item.filter(|i| i.kind.as_deref() == Some("function_call")) {
                    self.turn.tool_calls.push(ToolCall {
                        index: ev.output_index.unwrap_or(0),
                        id: item.call_id.or(item.id.clone()),
                        name: item.name.unwrap_or_default(),
                        arguments: String::new(),
                        source: Some(range),
                    });
                    self.call_items.push(item.id);
                }
            }
            "response.function_call_arguments.delta" => {
                let by_item = |c: &Option<String>| ev.item_id.is_some() && *c == ev.item_id;
                let k = self.call_items.iter().position(by_item).or_else(|| {
                    let index = ev.output_index?;
                    self.turn.tool_calls.iter().position(|c| c.index == index)
                });
                let k = match k {
                    Some(k) => k,
                    None => {
                        let index = ev.output_index.unwrap_or(0);
                        self.turn.tool_calls.push(ToolCall { index, ..ToolCall::default() });
                        self.call_items.push(ev.item_id.clone());
                        self.turn.tool_calls.len() - 1
                    }
                };
                let call = &mut self.turn.tool_calls[k];
                call.arguments.push_str(ev.delta.as_deref().unwrap_or(""));
                widen(&mut call.source, range);
            }
            "response.created" | "response.in_progress" => {
                if let Some(m) = ev.response.and_then(|r| r.model) {
                    self.info.model = Some(m);
                }
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                self.info.saw_done = true;
                if let Some(r) = ev.response {
                    let reason = r.incomplete_details.and_then(|d| d.reason);
                    self.turn.finish_reason = reason.or(r.status);
                    self.info.model = r.model.or(self.info.model.take());
                    self.info.usage = r.usage.map(Into::into);
                    if let Some(e) = r.error.filter(|e| !e.is_null()) {
                        self.info.errors.push(error_text(&e));
                    }
                }
            }
            "error" => {
                let text = ev.message.or_else(|| ev.error.as_ref().map(error_text));
                self.info.errors.push(text.unwrap_or_else(|| "error event".into()));
            }
            _ => {}
        }
    }
}

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::ResponsesSse);
    let mut r = Reader::default();
    r.turn.role = Some("assistant".into());
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
                r.info.chunks += 1;
                match serde_json::from_str::<Event>(data) {
                    Ok(ev) => r.event(ev, name, m.range.clone()),
                    Err(e) => b.json_diag(at.clone(), "event is not a Responses event", &e),
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
