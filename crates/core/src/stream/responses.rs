//! The OpenAI Responses stream assembler: `response.*` events in, one assistant [`Reply`] out.
//!
//! Text from `response.output_text.delta` (and `refusal.delta`), reasoning from
//! `response.reasoning_summary_text.delta` and `response.reasoning_text.delta` (parts joined by
//! a blank line), tool calls from `response.output_item.added` + `function_call_arguments.delta`.
//! The stream ends with `response.completed`, `.incomplete` or `.failed`; `error` events are
//! recorded. Incremental like [`super::ChatAssembler`]: one JSON parse per event.
//!
//! A whole reply (`"object":"response"`, a request not streamed) read as the first and only
//! event gives the same turn: its `output` items' `output_text` (and `refusal`) parts, reasoning `summary` and
//! `content` parts, and `function_call`s, with its status, usage and model.

use super::anthropic_wire::ContentBlock;
use super::assembler::{one_reply_methods, Assembler};
use super::lenient::{json_problem, text as lenient_text};
use super::openai_wire::{error_text, json_text, UsageIn};
use super::reply::{widen, Reply, StreamInfo, ToolCall};
use serde::Deserialize;
use std::collections::HashMap;
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
    /// `"response"` for a whole reply.
    #[serde(default)]
    object: Option<String>,
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
    /// A whole reply's function call's arguments.
    #[serde(default, deserialize_with = "json_text")]
    arguments: Option<String>,
    /// A whole reply's message parts (`output_text`, `refusal`) or reasoning parts.
    #[serde(default)]
    content: Option<Vec<ContentBlock>>,
    /// A whole reply's reasoning summary parts.
    #[serde(default)]
    summary: Option<Vec<ContentBlock>>,
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
    /// A whole reply's items.
    #[serde(default)]
    output: Option<Vec<Item>>,
}

#[derive(Default, Deserialize)]
struct Incomplete {
    #[serde(default)]
    reason: Option<String>,
}

/// Incremental assembler of Responses API events. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct ResponsesAssembler {
    reply: Reply,
    info: StreamInfo,
    /// The first tool call of each item id, and of each output index (hash maps: a hostile
    /// stream may start tens of thousands of calls).
    call_of_item: HashMap<String, usize>,
    call_at_index: HashMap<u64, usize>,
    /// Which reasoning part the last reasoning delta belonged to.
    reasoning_part: Option<(Option<String>, Option<u64>, Option<u64>)>,
}

impl ResponsesAssembler {
    /// Starts a call at output index `index` for item `item`; its position in the calls.
    fn new_call(&mut self, index: u64, item: Option<String>) -> usize {
        let k = self.reply.tool_calls.len();
        self.reply.tool_calls.push(ToolCall { index, ..ToolCall::default() });
        if let Some(item) = item {
            self.call_of_item.entry(item).or_insert(k);
        }
        self.call_at_index.entry(index).or_insert(k);
        k
    }

    fn event(&mut self, ev: Event, name: Option<&str>, range: Range<usize>) {
        let kind = ev.kind.as_deref().or(name).unwrap_or("");
        match kind {
            "response.output_text.delta" | "response.refusal.delta" => {
                if let Some(d) = ev.delta.filter(|d| !d.is_empty()) {
                    self.reply.content.push_str(&d);
                    widen(&mut self.reply.content_source, range);
                }
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                if let Some(d) = ev.delta.filter(|d| !d.is_empty()) {
                    self.reasoning((ev.item_id, ev.summary_index, ev.content_index), &d, range);
                }
            }
            "response.output_item.added" => {
                if let Some(item) = ev.item.filter(|i| i.kind.as_deref() == Some("function_call")) {
                    let index = ev.output_index.unwrap_or(0);
                    self.new_call(index, item.id.clone());
                    let call = self.reply.tool_calls.last_mut().expect("just pushed");
                    (call.id, call.name, call.source) =
                        (item.call_id.or(item.id), item.name.unwrap_or_default(), Some(range));
                }
            }
            "response.function_call_arguments.delta" => {
                let by_item = ev.item_id.as_ref().and_then(|id| self.call_of_item.get(id));
                let k = by_item.or_else(|| self.call_at_index.get(&ev.output_index?)).copied();
                let k = match k {
                    Some(k) => k,
                    None => self.new_call(ev.output_index.unwrap_or(0), ev.item_id.clone()),
                };
                let call = &mut self.reply.tool_calls[k];
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
                    self.ended(r);
                }
            }
            "error" => {
                let text = ev.message.or_else(|| ev.error.as_ref().map(error_text));
                self.info.add_error(text.unwrap_or_else(|| "error event".into()));
            }
            _ => {}
        }
    }

    /// Appends reasoning text of `part` (item, summary and content index): a new part after
    /// a blank line.
    fn reasoning(&mut self, part: (Option<String>, Option<u64>, Option<u64>), text: &str, range: Range<usize>) {
        let part = Some(part);
        if self.reasoning_part != part && !self.reply.reasoning.is_empty() {
            self.reply.reasoning.push_str("\n\n");
        }
        self.reasoning_part = part;
        self.reply.reasoning.push_str(text);
        widen(&mut self.reply.reasoning_source, range);
    }

    /// What an ended response says: why it ended, its model, usage and error.
    fn ended(&mut self, r: Response) {
        let reason = r.incomplete_details.and_then(|d| d.reason);
        self.reply.finish_reason = reason.or(r.status);
        self.info.model = r.model.or(self.info.model.take());
        self.info.usage = r.usage.map(Into::into);
        if let Some(e) = r.error.filter(|e| !e.is_null()) {
            self.info.add_error(error_text(&e));
        }
    }

    /// A whole reply (see the module doc).
    fn whole(&mut self, mut r: Response, range: Range<usize>) {
        for (index, item) in r.output.take().unwrap_or_default().into_iter().enumerate() {
            match item.kind.as_deref() {
                Some("message") => {
                    for part in item.content.unwrap_or_default() {
                        if let Some(text) = part.text.or(part.refusal).filter(|t| !t.is_empty()) {
                            self.reply.content.push_str(&text);
                            widen(&mut self.reply.content_source, range.clone());
                        }
                    }
                }
                Some("reasoning") => {
                    let parts = item.summary.unwrap_or_default().into_iter().chain(item.content.unwrap_or_default());
                    for (k, part) in parts.enumerate() {
                        if let Some(text) = part.text.filter(|t| !t.is_empty()) {
                            self.reasoning((item.id.clone(), Some(k as u64), None), &text, range.clone());
                        }
                    }
                }
                Some("function_call") => {
                    let k = self.new_call(index as u64, item.id.clone());
                    let call = &mut self.reply.tool_calls[k];
                    call.id = item.call_id.or(item.id);
                    call.name = item.name.unwrap_or_default();
                    call.arguments = item.arguments.unwrap_or_default();
                    call.source = Some(range.clone());
                }
                _ => {}
            }
        }
        self.ended(r);
    }
}

impl ResponsesAssembler {
    pub fn new() -> Self {
        Self { reply: Reply { role: Some("assistant".into()), ..Reply::default() }, ..Self::default() }
    }
}

impl Assembler for ResponsesAssembler {
    fn push_event(&mut self, event: Option<&str>, data: &str, source: Range<usize>) -> Result<(), String> {
        self.info.chunks += 1;
        let ev = serde_json::from_slice::<Event>(data.as_bytes())
            .map_err(|e| json_problem("event is not a Responses event", &e))?;
        // A whole reply stands alone: the first event, nothing streamed before it.
        let first = self.info.chunks == 1;
        if first && ev.kind.is_none() && event.is_none() && ev.object.as_deref() == Some("response") {
            let whole = serde_json::from_slice::<Response>(data.as_bytes())
                .map_err(|e| json_problem("reply is not a Responses reply", &e))?;
            self.whole(whole, source);
            return Ok(());
        }
        self.event(ev, event, source);
        Ok(())
    }

    one_reply_methods!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reasoning_parts_tool_call_and_end() {
        let mut a = ResponsesAssembler::new();
        let events = [
            (Some("response.created"), r#"{"response":{"model":"o"}}"#),
            (None, r#"{"type":"response.reasoning_summary_text.delta","item_id":"r","summary_index":0,"delta":"a"}"#),
            (None, r#"{"type":"response.reasoning_summary_text.delta","item_id":"r","summary_index":1,"delta":"b"}"#),
            (None, r#"{"type":"response.output_text.delta","item_id":"m","delta":"Hi"}"#),
            (
                None,
                r#"{"type":"response.output_item.added","output_index":2,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f"}}"#,
            ),
            (None, r#"{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":2,"delta":"{}"}"#),
            (None, r#"{"type":"error","message":"slow down"}"#),
            (
                None,
                r#"{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}}}"#,
            ),
        ];
        for (i, (name, data)) in events.iter().enumerate() {
            a.push_event(*name, data, i..i + 1).unwrap();
        }
        let (turns, info) = a.finish();
        let t = &turns[0];
        assert_eq!((t.reasoning.as_str(), t.content.as_str()), ("a\n\nb", "Hi"));
        assert_eq!((t.tool_calls[0].id.as_deref(), t.tool_calls[0].arguments.as_str()), (Some("c"), "{}"));
        let end = (info.saw_done, info.finish_reason.as_deref(), info.model.as_deref());
        assert_eq!(end, (true, Some("max_output_tokens"), Some("o")));
        assert_eq!(info.usage.as_ref().and_then(|u| u.total_tokens), Some(7));
        assert_eq!(info.errors, vec!["slow down".to_string()]);
    }

    #[test]
    fn a_whole_reply_gives_the_turn_its_stream_would() {
        let body = r#"{"id":"resp_1","object":"response","created_at":1790000000,"status":"incomplete","model":"o",
            "incomplete_details":{"reason":"max_output_tokens"},
            "output":[
              {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"a"},{"type":"summary_text","text":"b"}]},
              {"type":"message","id":"m","role":"assistant","content":[{"type":"output_text","text":"Hi","annotations":[]},{"type":"refusal","refusal":" no"}]},
              {"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{}"}],
            "usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}}"#;
        let mut a = ResponsesAssembler::new();
        a.push_event(None, body, 0..body.len()).unwrap();
        let (turns, info) = a.finish();
        let t = &turns[0];
        assert_eq!((t.reasoning.as_str(), t.content.as_str()), ("a\n\nb", "Hi no"));
        assert_eq!((t.tool_calls[0].id.as_deref(), t.tool_calls[0].name.as_str()), (Some("c"), "f"));
        assert_eq!(t.tool_calls[0].arguments, "{}");
        assert_eq!(
            (info.finish_reason.as_deref(), info.model.as_deref(), info.saw_done),
            (Some("max_output_tokens"), Some("o"), false)
        );
        assert_eq!(info.usage.as_ref().and_then(|u| u.completion_tokens), Some(4));
        // A named event with an object is still an event; a whole reply after a stream's
        // deltas is not read again (its text would be said twice).
        let mut b = ResponsesAssembler::new();
        b.push_event(Some("response.output_text.delta"), r#"{"object":"response","delta":"x"}"#, 0..1).unwrap();
        b.push_event(None, body, 1..2).unwrap();
        assert_eq!(b.turns()[0].content, "x");
    }
}
