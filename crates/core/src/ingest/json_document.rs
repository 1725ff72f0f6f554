//! Whole JSON documents of the three APIs (formats `openai-json`, `responses-json`,
//! `anthropic-json`): a request body, a reply, a record of both ([`super::exchange`]), a
//! history saved as an array of messages or items, or an array of any of these. One reader for
//! the three: each shape is read whatever the format's name, which only says what was found.
//!
//! Each element of an array is read on its own, so one broken element costs only itself; so
//! is each message of a request's history (`messages`, or `input` items), which keeps its own
//! bytes and line, and a document cut short still gives the messages before the cut. Requests
//! that repeat a growing history are one conversation ([`super::chains`]); each choice of a
//! bare completion is a conversation of its own; the messages of a bare history are one.

use super::builder::{Builder, Origin};
use super::chains::Chains;
use super::detect::is_history_item;
use super::exchange::{Exchange, Said, SENT};
use super::history::{History, Item};
use super::json_scan::{array_elements, Members};
use super::lines::trim_ascii_range;
use super::transcript::Transcript;
use super::Format;
use std::ops::Range;

pub fn parse(input: &[u8], format: Format) -> Transcript {
    let mut b = Builder::new(input, format);
    let start = if input.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let whole = trim_ascii_range(input, start..input.len());
    if whole.is_empty() {
        b.diag(Origin::new(whole, Some(1)), "the input is empty");
        return b.finish();
    }
    let elements = array_elements(&input[whole.clone()])
        .map(|els| els.into_iter().map(|r| r.start + whole.start..r.end + whole.start).collect())
        .unwrap_or_else(|| vec![whole.clone()]);
    let mut doc = Document { input, b, chains: Chains::default(), loose: None };
    for range in elements {
        if is_history_item(&input[range.clone()]) {
            doc.loose_item(range);
        } else {
            doc.flush_loose();
            doc.exchange(range);
        }
    }
    doc.flush_loose();
    doc.b.group_conversations();
    doc.b.finish()
}

struct Document<'a> {
    input: &'a [u8],
    b: Builder<'a>,
    chains: Chains,
    /// A history given as bare messages or items: read so far, and its bytes.
    loose: Option<(History, Range<usize>)>,
}

impl Document<'_> {
    /// One element of a history given as an array of messages.
    fn loose_item(&mut self, range: Range<usize>) {
        let input = self.input;
        let item = match serde_json::from_slice::<Item>(&input[range.clone()]) {
            Ok(item) => item,
            Err(e) => return self.b.json_diag(Origin::new(range, None), "not a message", &e),
        };
        let (history, bytes) = self.loose.get_or_insert_with(|| (History::default(), range.clone()));
        *bytes = bytes.start..range.end;
        history.push(item, Some(range));
    }

    fn flush_loose(&mut self) {
        if let Some((mut history, range)) = self.loose.take() {
            let at = Origin::new(range, None);
            self.chains.add(&mut self.b, history.take_turns(), Vec::new(), &at);
        }
    }

    /// A request, a reply, or a record of both, at `range`.
    fn exchange(&mut self, range: Range<usize>) {
        let (input, at) = (self.input, Origin::new(range.clone(), None));
        let bytes = &input[range.clone()];
        let shift = |r: Range<usize>| r.start + range.start..r.end + range.start;
        let level = request_level(bytes);
        let array =
            level.as_ref().and_then(|l| history_array(&bytes[l.clone()]).map(|a| a.start + l.start..a.end + l.start));
        let mut said = match array {
            Some(array) => {
                let array = shift(array);
                let items = self.history_items(array.clone());
                // The rest of the exchange, its history array left empty.
                let rest = [&input[range.start..array.start], b"[]", &input[array.end..range.end]].concat();
                match serde_json::from_slice::<Exchange>(&rest) {
                    Ok(exchange) => exchange.read(Some(items)),
                    Err(_) => {
                        // Cut short, or broken past its history: its messages still count.
                        self.not_read(&at, bytes);
                        Exchange::history_only().read(Some(items))
                    }
                }
            }
            None => match serde_json::from_slice::<Exchange>(bytes) {
                Ok(exchange) => exchange.read(None),
                Err(_) => return self.not_read(&at, bytes),
            },
        };
        // A system prompt, a prompt or a string input: the bytes of its field.
        if let Some(level) = level {
            for turn in said.request.iter_mut().filter(|t| t.source.is_none()) {
                let fields = match turn.parts.first().map(|p| p.role.as_str()) {
                    Some("system") => ["system", "instructions"],
                    _ => ["prompt", "input"],
                };
                let members = Members::of(&bytes[level.clone()]);
                let field = fields.iter().find_map(|f| members.as_ref()?.get(f));
                turn.source = field.map(|f| shift(f.start + level.start..f.end + level.start));
            }
        }
        self.said(said, &at);
    }

    /// The elements of a history array, each read on its own with its bytes.
    fn history_items(&mut self, array: Range<usize>) -> Vec<(Item, Range<usize>)> {
        let input = self.input;
        let elements = array_elements(&input[array.clone()]).unwrap_or_default();
        let mut items = Vec::with_capacity(elements.len());
        for r in elements {
            let r = r.start + array.start..r.end + array.start;
            match serde_json::from_slice::<Item>(&input[r.clone()]) {
                Ok(item) => items.push((item, r)),
                Err(e) => self.b.json_diag(Origin::new(r, None), "not a message", &e),
            }
        }
        items
    }

    fn not_read(&mut self, at: &Origin, bytes: &[u8]) {
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
            self.b.json_diag(at.clone(), "not JSON", &e);
        } else if let Err(e) = serde_json::from_slice::<Exchange>(bytes) {
            self.b.json_diag(at.clone(), "not a request or reply", &e);
        }
    }

    fn said(&mut self, said: Said, at: &Origin) {
        let Said { request, replies, problems } = said;
        let problem = !problems.is_empty();
        for p in problems {
            self.b.diag(at.clone(), p);
        }
        let any = if request.iter().all(|t| t.parts.is_empty()) {
            // A bare reply: each choice a conversation.
            let any = !replies.is_empty();
            for reply in replies {
                self.chains.alone(&mut self.b, reply, at);
            }
            any
        } else {
            self.chains.add(&mut self.b, request, replies, at)
        };
        if !any && !problem {
            self.b.diag(at.clone(), "no messages or reply text in it");
        }
    }
}

/// The object that holds the request of the exchange in `bytes`, as [`Exchange::read`] takes
/// it: the exchange itself if it has any request field, else its `request` (else `body`), or
/// that one's `body`.
fn request_level(bytes: &[u8]) -> Option<Range<usize>> {
    fn find(bytes: &[u8], top: bool) -> Option<Range<usize>> {
        let members = Members::of(bytes)?;
        if SENT.iter().any(|k| members.get(k).is_some()) {
            return Some(0..bytes.len());
        }
        let inner = if top { members.get("request").or_else(|| members.get("body")) } else { members.get("body") };
        let inner = inner.filter(|r| bytes[r.clone()].starts_with(b"{"))?;
        find(&bytes[inner.clone()], false).map(|r| r.start + inner.start..r.end + inner.start)
    }
    find(bytes, true)
}

/// The history array of a request object: its `messages`, else its `input` items.
fn history_array(request: &[u8]) -> Option<Range<usize>> {
    let members = Members::of(request)?;
    let array = |r: &Range<usize>| request[r.clone()].starts_with(b"[");
    match members.get("messages") {
        Some(m) => Some(m).filter(array),
        None => members.get("input").filter(array),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Channel;

    fn summary(t: &Transcript) -> Vec<String> {
        let show = |m: &crate::ingest::Message| {
            let id = m.call_id.as_deref().map(|c| format!(" #{c}")).unwrap_or_default();
            let name = m.name.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
            let line = m.line.unwrap_or(0);
            format!("{}.{} {} {}{name}{id} {:?} @{line}", m.conversation, m.turn, m.role, m.channel.as_str(), m.text)
        };
        t.messages.iter().map(show).collect()
    }

    #[test]
    fn completions_single_array_and_errors() {
        let t = parse(
            br#"{"choices":[{"message":{"role":"assistant","content":"hi","reasoning_content":"r"},"finish_reason":"stop"}]}"#,
            Format::OpenaiJson,
        );
        let got: Vec<(Channel, &str)> = t.messages.iter().map(|m| (m.channel, m.text.as_str())).collect();
        assert_eq!(got, vec![(Channel::Reasoning, "r"), (Channel::Content, "hi")]);
        let t = parse(
            br#"[{"choices":[{"message":{"content":"a"}}]}, {"choices": 5}, {"error":{"message":"bad key"}}]"#,
            Format::OpenaiJson,
        );
        assert_eq!(t.messages.len(), 1);
        assert_eq!(t.diagnostics.len(), 2, "{:?}", t.diagnostics);
        assert_eq!(t.diagnostics[1].message, "the reply is an error: bad key");
        let t = parse(b"  ", Format::OpenaiJson);
        assert_eq!(t.diagnostics.len(), 1);
    }

    #[test]
    fn a_pretty_printed_request_keeps_each_message_s_line() {
        let body = br#"{
  "model": "gpt-4o",
  "messages": [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": [{"type": "text", "text": "Weather in Oslo?"}]},
    {"role": "assistant", "content": null, "tool_calls": [
      {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}}
    ]},
    {"role": "tool", "tool_call_id": "call_1", "content": "snow"},
    {"oops"},
    {"role": "assistant", "content": "Snowing."}
  ],
  "tools": []
}"#;
        let t = parse(body, Format::OpenaiJson);
        assert_eq!(
            summary(&t),
            vec![
                r#"0.0 system content "Be brief." @4"#,
                r#"0.1 user content "Weather in Oslo?" @5"#,
                r#"0.2 assistant tool weather #call_1 "{\"city\":\"Oslo\"}" @6"#,
                r#"0.3 tool tool weather #call_1 "snow" @9"#,
                r#"0.4 assistant content "Snowing." @11"#,
            ]
        );
        assert_eq!(t.diagnostics.len(), 1);
        assert_eq!(t.diagnostics[0].line, Some(10));
        // Cut anywhere in the history: the messages before the cut are read, the cut is said.
        let cut = &body[..body.len() - 60];
        let t = parse(cut, Format::OpenaiJson);
        assert_eq!(t.messages.len(), 4, "{:?}", summary(&t));
        assert!(t.diagnostics.iter().any(|d| d.message.starts_with("not JSON")), "{:?}", t.diagnostics);
    }

    #[test]
    fn records_histories_and_replies_of_each_api() {
        let t = parse(
            br#"[{"request":{"body":{"system":"s","messages":[{"role":"user","content":"q"}]}},"response":{"type":"message","role":"assistant","content":[{"type":"thinking","thinking":"t"},{"type":"text","text":"a"}]}},
                {"model":"m","instructions":"i","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"x"}]}]},
                {"object":"response","output":[{"type":"reasoning","summary":[{"type":"summary_text","text":"r"}]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"y"}]}]},
                {"role":"user","content":"loose 1"},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"o"},
                {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}},
                {"model":"m"}]"#,
            Format::AnthropicJson,
        );
        assert_eq!(
            summary(&t),
            vec![
                r#"0.0 system content "s" @1"#,
                r#"0.1 user content "q" @1"#,
                r#"0.2 assistant reasoning "t" @1"#,
                r#"0.2 assistant content "a" @1"#,
                r#"1.0 system content "i" @2"#,
                r#"1.1 user content "x" @2"#,
                r#"2.0 assistant reasoning "r" @3"#,
                r#"2.0 assistant content "y" @3"#,
                r#"3.0 user content "loose 1" @4"#,
                r#"3.1 assistant tool f #c "{}" @4"#,
                r#"3.2 tool tool f #c "o" @4"#,
            ]
        );
        let said: Vec<&str> = t.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(said, ["the reply is an error: Overloaded", "no messages or reply text in it"]);
    }
}
