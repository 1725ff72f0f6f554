//! Conversation histories as the three APIs write them, read into turns: OpenAI chat messages
//! (`content` as a string or parts, reasoning fields, `tool_calls`, `tool` results answering a
//! `tool_call_id`, the legacy `function_call` and `function` results), Anthropic messages
//! (content blocks `text`, `thinking`, `tool_use`, `tool_result`) and Responses items
//! (`message`, `reasoning`, `function_call`, `function_call_output`, and the other `*_call` /
//! `*_call_output` items). One lenient shape, [`Item`], reads any of them, so a document that
//! mixes them loses nothing.
//!
//! Each message is a turn, except that a Responses reply's typed items (its reasoning, message
//! and calls, one after another) share one. Within a turn, parts keep the input's order;
//! consecutive texts of one kind are joined by a line break, as content parts always were, and
//! inline `<think>` is split out of an assistant's text. Tool calls carry their id; tool
//! results carry the id of the call they answer and are named after that call. Empty texts are
//! left out.
//!
//! The shape every message and item is read in is [`Item`] (`item.rs`).

mod item;

use super::builder::Part;
use super::transcript::Channel;
use crate::stream::openai_wire::pick_reasoning;
use crate::stream::tool_call_merge::ToolCallMerger;
use crate::stream::ThinkSplitter;
use std::collections::HashMap;
use std::ops::Range;

pub use item::{Blocks, Item};

/// One turn of a history: its parts, and the bytes of the input it came from when the reader
/// knows them (else the whole record's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryTurn {
    pub parts: Vec<Part>,
    pub source: Option<Range<usize>>,
}

/// A history read item by item into turns, with the calls seen so far (to name the results
/// that answer them).
#[derive(Default)]
pub struct History {
    turns: Vec<HistoryTurn>,
    /// Tool names by call id.
    calls: HashMap<String, String>,
    /// The last turn was opened by a model-side Responses item and may take the next ones.
    open: bool,
}

impl History {
    /// Reads one item (a message or a Responses item) from `source` into the turns.
    pub fn push(&mut self, item: Item, source: Option<Range<usize>>) {
        let joins = item.model_side();
        let mut parts = Vec::new();
        self.item_parts(item, &mut parts);
        match self.turns.last_mut() {
            Some(last) if joins && self.open => {
                last.parts.extend(parts);
                last.source = match (last.source.take(), source) {
                    (Some(a), Some(b)) => Some(a.start.min(b.start)..a.end.max(b.end)),
                    (a, b) => a.or(b),
                };
            }
            _ if parts.is_empty() => {}
            _ => {
                self.turns.push(HistoryTurn { parts, source });
                self.open = joins;
            }
        }
        if !joins {
            self.open = false;
        }
    }

    /// A turn of one text said by `role` (a system prompt, a prompt, a string input).
    pub fn said(&mut self, role: &str, text: Option<String>) {
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            self.turns.push(HistoryTurn { parts: vec![Part::new(role, Channel::Content, text)], source: None });
        }
        self.open = false;
    }

    /// The parts of items read as one turn (a reply: a message, or a Responses output), their
    /// calls noted for the results that follow.
    pub fn parts_of(&mut self, items: impl IntoIterator<Item = Item>) -> Vec<Part> {
        let mut parts = Vec::new();
        for item in items {
            self.item_parts(item, &mut parts);
        }
        parts
    }

    /// The turns read so far; the calls stay known.
    pub fn take_turns(&mut self) -> Vec<HistoryTurn> {
        self.open = false;
        std::mem::take(&mut self.turns)
    }

    fn call(&mut self, role: &str, name: Option<String>, id: Option<String>, text: Option<String>) -> Part {
        if let (Some(id), Some(name)) = (&id, &name) {
            if !id.is_empty() && !name.is_empty() && self.calls.get(id) != Some(name) {
                self.calls.insert(id.clone(), name.clone());
            }
        }
        Part::new(role, Channel::Tool, text.unwrap_or_default()).call(name, id)
    }

    fn result(&self, role: &str, name: Option<String>, id: Option<String>, text: Option<String>) -> Part {
        let name = name.filter(|n| !n.is_empty()).or_else(|| self.calls.get(id.as_deref()?).cloned());
        Part::new(role, Channel::Tool, text.unwrap_or_default()).call(name, id)
    }

    /// Appends the parts of one item to `out`.
    fn item_parts(&mut self, item: Item, out: &mut Vec<Part>) {
        let kind = item.kind.as_deref().unwrap_or("");
        if kind == "reasoning" {
            let texts = item.summary.into_iter().chain(item.content).flat_map(|b| b.0);
            let texts: Vec<String> = texts.filter_map(|b| b.text.or(b.thinking)).filter(|t| !t.is_empty()).collect();
            push(out, Part::new("assistant", Channel::Reasoning, texts.join("\n\n")));
        } else if kind.ends_with("_call_output") {
            push(out, self.result("tool", None, item.call_id, item.output));
        } else if let Some(stem) = kind.strip_suffix("_call") {
            let name = item.name.or_else(|| Some(stem.to_string()));
            let text = item.arguments.or(item.input).or(item.action);
            let id = item.call_id.or(item.id);
            let call = self.call("assistant", name.clone(), id.clone(), text);
            push(out, call);
            // An `mcp_call` carries its output.
            if item.output.is_some() {
                push(out, self.result("tool", name, id, item.output));
            }
        } else {
            self.message_parts(item, out);
        }
    }

    /// A chat or Anthropic message (or a Responses `message` item).
    fn message_parts(&mut self, item: Item, out: &mut Vec<Part>) {
        let role = item.role.unwrap_or_else(|| "assistant".into());
        let answers = matches!(role.as_str(), "tool" | "function").then(|| (item.name, item.tool_call_id));
        let mut acc = Pending { role: &role, split_think: role == "assistant", ..Pending::default() };
        let fields = [item.reasoning_content, item.reasoning, item.thinking];
        acc.reasoning(pick_reasoning(fields, item.reasoning_details), out);
        for block in item.content.map(|c| c.0).unwrap_or_default() {
            match block.kind.as_deref().unwrap_or("") {
                "thinking" | "reasoning_text" => acc.reasoning(block.thinking.or(block.text), out),
                "redacted_thinking" => {}
                "tool_use" | "server_tool_use" | "mcp_tool_use" => {
                    acc.flush(self, &answers, out);
                    push(out, self.call(&role, block.name, block.id, block.input));
                }
                k if k == "tool_result" || k.ends_with("_tool_result") => {
                    acc.flush(self, &answers, out);
                    push(out, self.result("tool", None, block.tool_use_id, block.content));
                }
                "refusal" => acc.text(block.refusal.or(block.text)),
                "" => acc.text(block.text.or(block.content)),
                _ => acc.text(block.text),
            }
        }
        acc.flush(self, &answers, out);
        let (mut calls, mut merger) = (Vec::new(), ToolCallMerger::new());
        for (n, call) in item.tool_calls.into_iter().flatten().enumerate() {
            merger.merge(&mut calls, call, n, &(0..0));
        }
        for c in calls {
            push(out, self.call(&role, Some(c.name), c.id, Some(c.arguments)));
        }
        if let Some(f) = item.function_call {
            push(out, self.call(&role, f.name, None, f.arguments));
        }
    }
}

/// Adds `part` unless its text is empty.
fn push(out: &mut Vec<Part>, part: Part) {
    if !part.text.is_empty() {
        out.push(part);
    }
}

/// A message's reasoning and text not yet made parts: consecutive texts of one kind join.
#[derive(Default)]
struct Pending<'a> {
    role: &'a str,
    /// Split inline `<think>` out of the text (an assistant's).
    split_think: bool,
    reasoning: String,
    text: String,
}

impl Pending<'_> {
    fn reasoning(&mut self, r: Option<String>, out: &mut Vec<Part>) {
        let Some(r) = r.filter(|r| !r.is_empty()) else { return };
        if !self.text.is_empty() {
            // Reasoning after text starts a new pair, so the order stays the input's.
            self.emit(None, out);
        }
        join(&mut self.reasoning, r);
    }

    fn text(&mut self, t: Option<String>) {
        if let Some(t) = t.filter(|t| !t.is_empty()) {
            join(&mut self.text, t);
        }
    }

    /// Makes parts of what is pending; the text of a `tool` or `function` message is the result
    /// of the call it answers (`answers`: its own name, and the call's id).
    fn flush(&mut self, h: &History, answers: &Option<(Option<String>, Option<String>)>, out: &mut Vec<Part>) {
        let result = answers.as_ref().map(|(name, id)| {
            let text = Some(std::mem::take(&mut self.text));
            h.result(self.role, name.clone(), id.clone(), text)
        });
        self.emit(result, out);
    }

    /// Emits the reasoning, then `result` or else the text as content.
    fn emit(&mut self, result: Option<Part>, out: &mut Vec<Part>) {
        let mut text = std::mem::take(&mut self.text);
        let tagged = text.contains("</think>") || text.trim_start().starts_with("<think>");
        if self.split_think && tagged {
            let mut s = ThinkSplitter::new();
            let mut content = String::new();
            s.feed(&text, &mut self.reasoning, &mut content);
            s.finish(&mut self.reasoning, &mut content);
            text = content;
        }
        push(out, Part::new(self.role, Channel::Reasoning, std::mem::take(&mut self.reasoning)));
        match result {
            Some(r) => push(out, r),
            None => push(out, Part::new(self.role, Channel::Content, text)),
        }
    }
}

/// Appends `more` to `text`, a line break between.
fn join(text: &mut String, more: String) {
    if text.is_empty() {
        *text = more;
    } else {
        text.push('\n');
        text.push_str(&more);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `role channel name call_id text` of each part of each turn.
    fn read(items: &str) -> Vec<Vec<String>> {
        let items: Vec<Item> = serde_json::from_slice(items.as_bytes()).unwrap();
        let mut h = History::default();
        for item in items {
            h.push(item, None);
        }
        let show = |p: &Part| {
            let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "-".into());
            format!("{} {} {} {} {:?}", p.role, p.channel.as_str(), opt(&p.name), opt(&p.call_id), p.text)
        };
        h.take_turns().iter().map(|t| t.parts.iter().map(show).collect()).collect()
    }

    #[test]
    fn openai_chat_messages() {
        let got = read(
            r#"[{"role":"system","content":[{"type":"text","text":"s1"},{"type":"image_url"},"s2"]},
                {"role":"assistant","content":"a</think>b","reasoning_content":"r","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},
                {"role":"tool","tool_call_id":"c1","content":"42"},
                {"role":"assistant","content":null,"function_call":{"name":"g","arguments":"{\"x\":1}"}},
                {"role":"function","name":"g","content":"done"},
                {"role":"user","content":"x</think>y"},
                {"role":"assistant","content":""}]"#,
        );
        assert_eq!(
            got,
            vec![
                vec![r#"system content - - "s1\ns2""#],
                vec![r#"assistant reasoning - - "ra""#, r#"assistant content - - "b""#, r#"assistant tool f c1 "{}""#],
                vec![r#"tool tool f c1 "42""#],
                vec![r#"assistant tool g - "{\"x\":1}""#],
                vec![r#"function tool g - "done""#],
                vec![r#"user content - - "x</think>y""#],
            ]
        );
    }

    #[test]
    fn anthropic_blocks() {
        let got = read(
            r#"[{"role":"user","content":"fix it"},
                {"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"x"},{"type":"redacted_thinking","data":"…"},{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"Read","input":{"path":"a"}}]},
                {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"data"}],"is_error":true},{"type":"text","text":"and?"}]},
                {"role":"assistant","content":[{"type":"text","text":"a"},{"type":"thinking","thinking":"b"},{"type":"text","text":"c"}]}]"#,
        );
        assert_eq!(
            got,
            vec![
                vec![r#"user content - - "fix it""#],
                vec![
                    r#"assistant reasoning - - "hm""#,
                    r#"assistant content - - "ok""#,
                    r#"assistant tool Read t1 "{\"path\":\"a\"}""#
                ],
                vec![r#"tool tool Read t1 "data""#, r#"user content - - "and?""#],
                vec![r#"assistant content - - "a""#, r#"assistant reasoning - - "b""#, r#"assistant content - - "c""#],
            ]
        );
    }

    #[test]
    fn responses_items_and_one_turn_per_reply() {
        let got = read(
            r#"[{"role":"user","content":"hi"},
                {"type":"message","role":"user","content":[{"type":"input_text","text":"weather?"}]},
                {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"p1"},{"type":"summary_text","text":"p2"}]},
                {"type":"function_call","id":"fc_1","call_id":"call_1","name":"weather","arguments":"{\"city\":\"Oslo\"}"},
                {"type":"function_call_output","call_id":"call_1","output":"snow"},
                {"type":"reasoning","summary":[],"encrypted_content":"…"},
                {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Snow."},{"type":"refusal","refusal":"No more."}]},
                {"type":"local_shell_call","call_id":"ls_1","action":{"type":"exec","command":["ls"]}},
                {"type":"local_shell_call_output","call_id":"ls_1","output":"a.txt"}]"#,
        );
        assert_eq!(
            got,
            vec![
                vec![r#"user content - - "hi""#],
                vec![r#"user content - - "weather?""#],
                vec![r#"assistant reasoning - - "p1\n\np2""#, r#"assistant tool weather call_1 "{\"city\":\"Oslo\"}""#],
                vec![r#"tool tool weather call_1 "snow""#],
                vec![
                    r#"assistant content - - "Snow.\nNo more.""#,
                    r#"assistant tool local_shell ls_1 "{\"command\":[\"ls\"],\"type\":\"exec\"}""#
                ],
                vec![r#"tool tool local_shell ls_1 "a.txt""#],
            ]
        );
    }

    #[test]
    fn odd_shapes_are_read_or_skipped() {
        let got =
            read(r#"[{"content":[1,null,["x"],{"text":"t"},"s"]},{"role":"user","content":7},{},{"role":"user"}]"#);
        assert_eq!(got, vec![vec![r#"assistant content - - "t\ns""#], vec![r#"user content - - "7""#]]);
    }
}
