//! The Anthropic Messages stream assembler: events in, one assistant [`Reply`] out.
//!
//! `thinking` blocks (`thinking_delta`) are reasoning, `text` blocks (`text_delta`) content,
//! `tool_use` blocks (`input_json_delta` fragments) tool calls; several blocks of one kind are
//! joined by a blank line. `message_delta` gives the stop reason and output tokens,
//! `message_stop` ends the stream, `ping` events count as keep-alives, `error` events are
//! recorded. Incremental like [`super::ChatAssembler`]: one JSON parse per event.
//!
//! A whole reply (`"type":"message"`, a request not streamed) read as one event, no block
//! before it, gives the same turn: its content blocks as if each had been started whole, its stop reason, usage
//! and model.

use super::anthropic_wire::ContentBlock;
use super::assembler::{one_reply_methods, Assembler};
use super::lenient::{json_problem, text as lenient_text};
use super::openai_wire::{error_text, UsageIn};
use super::reply::{widen, Reply, StreamInfo, ToolCall, Usage};
use serde::Deserialize;
use std::collections::HashMap;
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
    content_block: Option<ContentBlock>,
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default)]
    usage: Option<UsageIn>,
    #[serde(default)]
    error: Option<serde_json::Value>,
    /// A whole reply's blocks, role, model and stop reason.
    #[serde(default)]
    content: Option<Vec<ContentBlock>>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    stop_reason: Option<String>,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Text,
    Thinking,
    Tool,
}

/// Incremental assembler of Anthropic Messages events. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct AnthropicAssembler {
    reply: Reply,
    info: StreamInfo,
    /// The kind of the block last started at each index, and its last tool call's position
    /// (hash maps: a hostile stream may start tens of thousands of blocks).
    block_at: HashMap<u64, Kind>,
    call_at: HashMap<u64, usize>,
    /// The block index that last wrote to the reasoning / the content.
    last_thinking: Option<u64>,
    last_text: Option<u64>,
}

impl AnthropicAssembler {
    fn append(&mut self, kind: Kind, index: u64, text: &str, range: Range<usize>) {
        if text.is_empty() {
            return;
        }
        let (buf, last, source) = match kind {
            Kind::Thinking => (&mut self.reply.reasoning, &mut self.last_thinking, &mut self.reply.reasoning_source),
            Kind::Text => (&mut self.reply.content, &mut self.last_text, &mut self.reply.content_source),
            Kind::Tool => {
                if let Some(call) = self.call_at.get(&index).and_then(|&k| self.reply.tool_calls.get_mut(k)) {
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

    /// A block started at `index` (whole, in a whole reply).
    fn start_block(&mut self, index: u64, block: ContentBlock, range: Range<usize>) {
        let k = match block.kind.as_deref() {
            Some("thinking") => Kind::Thinking,
            Some("tool_use") | Some("server_tool_use") => Kind::Tool,
            _ => Kind::Text,
        };
        self.block_at.insert(index, k);
        if k == Kind::Tool {
            let args = block.input.filter(|i| i != "{}").unwrap_or_default();
            let name = block.name.unwrap_or_default();
            let source = Some(range.clone());
            self.call_at.insert(index, self.reply.tool_calls.len());
            self.reply.tool_calls.push(ToolCall { index, id: block.id, name, arguments: args, source });
        } else {
            let text = if k == Kind::Thinking { block.thinking } else { block.text };
            self.append(k, index, text.as_deref().unwrap_or(""), range);
        }
    }

    fn event(&mut self, ev: Event, name: Option<&str>, range: Range<usize>) {
        let kind = ev.kind.as_deref().or(name).unwrap_or("");
        let index = ev.index.unwrap_or(0);
        match kind {
            "message_start" => {
                if let Some(m) = ev.message {
                    self.reply.role = m.role.or(self.reply.role.take());
                    self.info.model = m.model;
                    self.info.usage = m.usage.map(Into::into);
                }
            }
            "content_block_start" => self.start_block(index, ev.content_block.unwrap_or_default(), range),
            // A whole reply stands alone: read only when nothing came before it.
            "message"
                if self.block_at.is_empty() && self.reply.content.is_empty() && self.reply.reasoning.is_empty() =>
            {
                self.reply.role = ev.role.or(self.reply.role.take());
                self.info.model = ev.model.or(self.info.model.take());
                self.info.usage = ev.usage.map(Into::into);
                for (i, block) in ev.content.unwrap_or_default().into_iter().enumerate() {
                    self.start_block(i as u64, block, range.clone());
                }
                self.reply.finish_reason = ev.stop_reason;
            }
            "content_block_delta" => {
                let d = ev.delta.unwrap_or_default();
                let started = self.block_at.get(&index).copied();
                let (k, text) = match d.kind.as_deref() {
                    Some("thinking_delta") => (Kind::Thinking, d.thinking),
                    Some("input_json_delta") => (Kind::Tool, d.partial_json),
                    Some("text_delta") => (Kind::Text, d.text),
                    // signature_delta and unknown deltas carry no text to analyse.
                    _ => return,
                };
                if k == Kind::Tool && started != Some(Kind::Tool) {
                    self.block_at.insert(index, Kind::Tool);
                    self.call_at.insert(index, self.reply.tool_calls.len());
                    self.reply.tool_calls.push(ToolCall { index, ..ToolCall::default() });
                }
                self.append(k, index, text.as_deref().unwrap_or(""), range);
            }
            "message_delta" => {
                if let Some(r) = ev.delta.and_then(|d| d.stop_reason) {
                    self.reply.finish_reason = Some(r);
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
                self.info.add_error(text);
            }
            _ => {}
        }
    }
}

impl AnthropicAssembler {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Assembler for AnthropicAssembler {
    fn push_event(&mut self, event: Option<&str>, data: &str, source: Range<usize>) -> Result<(), String> {
        let ev = match serde_json::from_slice::<Event>(data.as_bytes()) {
            Ok(ev) => ev,
            Err(e) => {
                self.info.chunks += 1;
                return Err(json_problem("event is not an Anthropic event", &e));
            }
        };
        if ev.kind.as_deref().or(event) == Some("ping") {
            self.info.comments += 1;
        } else {
            self.info.chunks += 1;
            self.event(ev, event, source);
        }
        Ok(())
    }

    one_reply_methods!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_usage_ping_and_errors() {
        let mut a = AnthropicAssembler::new();
        let events = [
            r#"{"type":"message_start","message":{"role":"assistant","model":"c","usage":{"input_tokens":5,"output_tokens":1}}}"#,
            r#"{"type":"ping"}"#,
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}"#,
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}"#,
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"s"}}"#,
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"A"}}"#,
            r#"{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}"#,
            r#"{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"B"}}"#,
            r#"{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}}"#,
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"1}"}}"#,
            r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}"#,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            r#"{"type":"message_stop"}"#,
        ];
        for (i, e) in events.iter().enumerate() {
            a.push_event(None, e, i..i + 1).unwrap();
        }
        assert!(a.push_event(None, "{", 99..100).is_err());
        let (turns, info) = a.finish();
        let t = &turns[0];
        assert_eq!((t.reasoning.as_str(), t.content.as_str()), ("hm", "A\n\nB"));
        assert_eq!((t.tool_calls[0].name.as_str(), t.tool_calls[0].arguments.as_str()), ("f", "{\"a\":1}"));
        assert_eq!((t.reasoning_source.clone(), t.content_source.clone()), (Some(3..4), Some(5..8)));
        assert_eq!((info.chunks, info.comments, info.saw_done), (14, 1, true));
        assert_eq!(info.finish_reason.as_deref(), Some("tool_use"));
        let usage = info.usage.as_ref().map(|u| (u.prompt_tokens, u.completion_tokens, u.total_tokens));
        assert_eq!(usage, Some((Some(5), Some(9), Some(14))));
        assert_eq!(info.errors, vec!["Overloaded".to_string()]);
    }

    #[test]
    fn a_whole_reply_gives_the_turn_its_stream_would() {
        let body = r#"{"id":"msg_1","type":"message","role":"assistant","model":"c",
            "content":[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"A"},{"type":"text","text":"B"},
                       {"type":"tool_use","id":"t","name":"f","input":{"a":1}}],
            "stop_reason":"max_tokens","usage":{"input_tokens":5,"output_tokens":9}}"#;
        let mut a = AnthropicAssembler::new();
        a.push_event(None, body, 0..body.len()).unwrap();
        let (turns, info) = a.finish();
        let t = &turns[0];
        assert_eq!((t.reasoning.as_str(), t.content.as_str()), ("hm", "A\n\nB"));
        assert_eq!((t.tool_calls[0].name.as_str(), t.tool_calls[0].arguments.as_str()), ("f", r#"{"a":1}"#));
        assert_eq!((info.finish_reason.as_deref(), info.model.as_deref()), (Some("max_tokens"), Some("c")));
        assert_eq!(info.usage.as_ref().and_then(|u| u.completion_tokens), Some(9));
        // After a streamed block, a whole message is not read again (its text would be said twice).
        let mut b = AnthropicAssembler::new();
        let delta = r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"A"}}"#;
        b.push_event(None, delta, 0..1).unwrap();
        b.push_event(None, body, 1..2).unwrap();
        assert_eq!(b.turns()[0].content, "A");
    }
}
