//! Agent session logs in the style of Claude Code: one event per line,
//! `{"type":"assistant","sessionId":…,"message":{"role":…,"content":[blocks]}}`.
//!
//! `thinking` blocks are reasoning, `text` blocks content, `tool_use` blocks tool calls (their
//! `input` as JSON text), `tool_result` blocks tool results (role `tool`, named after the call
//! they answer); a `content` string is one text block. Each event line is a turn, except that
//! consecutive lines of one API message (same `message.id`: Claude Code writes each block on
//! its own line) share a turn; each `sessionId` is a conversation. Lines without a message
//! (summaries, snapshots) are skipped.

use super::builder::{Builder, Origin};
use super::lines::jsonl_lines;
use super::transcript::{Channel, Transcript};
use super::Format;
use crate::stream::anthropic_wire::ContentBlock as Block;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;

#[derive(Default, Deserialize)]
struct Event {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default, rename = "sessionId")]
    session_id: Option<String>,
    #[serde(default)]
    message: Option<SessionMessage>,
}

#[derive(Default, Deserialize)]
struct SessionMessage {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    content: Option<Blocks>,
}

/// `content`: a string (one text block) or an array of blocks.
struct Blocks(Vec<Block>);

impl<'de> Deserialize<'de> for Blocks {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Blocks;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an array of content blocks")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Blocks, E> {
                self.visit_string(v.to_owned())
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Blocks, E> {
                Ok(Blocks(vec![Block { kind: Some("text".into()), text: Some(v), ..Block::default() }]))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Blocks, E> {
                Ok(Blocks(Vec::new()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Blocks, A::Error> {
                let mut out = Vec::new();
                while let Some(b) = seq.next_element::<Block>()? {
                    out.push(b);
                }
                Ok(Blocks(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Blocks, A::Error> {
                Block::deserialize(de::value::MapAccessDeserializer::new(map)).map(|b| Blocks(vec![b]))
            }
        }
        d.deserialize_any(V)
    }
}

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::SessionJsonl);
    let mut sessions: HashMap<String, usize> = HashMap::new();
    // Per conversation: the next turn index, and the message id of the last turn.
    let mut turns: Vec<(usize, Option<String>)> = Vec::new();
    let mut tool_names: HashMap<String, String> = HashMap::new();
    let mut current = 0;
    for (line_no, range) in jsonl_lines(input) {
        let at = Origin::new(range.clone(), Some(line_no));
        let event = match serde_json::from_slice::<Event>(&input[range]) {
            Ok(e) => e,
            Err(e) => {
                b.json_diag(at, "not a session event", &e);
                continue;
            }
        };
        if let Some(id) = event.session_id {
            let n = sessions.len();
            current = *sessions.entry(id).or_insert(n);
        }
        let Some(message) = event.message else { continue };
        let role = message.role.or(event.kind).unwrap_or_else(|| "unknown".into());
        if turns.len() <= current {
            turns.resize(current + 1, (0, None));
        }
        let (next, last_id) = &turns[current];
        let same_message = message.id.is_some() && message.id == *last_id && *next > 0;
        let place = (current, if same_message { next - 1 } else { *next });
        let mut any = false;
        for block in message.content.map(|c| c.0).unwrap_or_default() {
            let (role, channel, name, text) = match block.kind.as_deref() {
                Some("text") => (role.as_str(), Channel::Content, None, block.text),
                Some("thinking") => (role.as_str(), Channel::Reasoning, None, block.thinking),
                Some("tool_use") | Some("server_tool_use") => {
                    if let (Some(id), Some(name)) = (&block.id, &block.name) {
                        tool_names.insert(id.clone(), name.clone());
                    }
                    (role.as_str(), Channel::Tool, block.name, block.input)
                }
                Some("tool_result") => {
                    let name = block.tool_use_id.as_ref().and_then(|id| tool_names.get(id)).cloned();
                    ("tool", Channel::Tool, name, block.content)
                }
                _ => continue,
            };
            if let Some(text) = text.filter(|t| !t.is_empty()) {
                b.message(place, role, channel, name.as_deref(), text, at.clone());
                any = true;
            }
        }
        if any && !same_message {
            turns[current] = (place.1 + 1, message.id);
        }
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_sessions_and_tool_names() {
        let input = br#"{"type":"summary","summary":"s","leafUuid":"l"}
{"type":"user","sessionId":"A","message":{"role":"user","content":"fix it"}}
{"type":"assistant","sessionId":"A","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"x"},{"type":"text","text":"ok"}]}}
{"type":"assistant","sessionId":"A","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"path":"a"}}]}}
{"type":"user","sessionId":"A","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"data"}]}]}}
{"type":"user","sessionId":"B","message":{"role":"user","content":"other"}}
{broken
"#;
        let t = parse(input);
        let got: Vec<String> = t
            .messages
            .iter()
            .map(|m| {
                format!("{}.{} {} {} {:?} {:?}", m.conversation, m.index, m.role, m.channel.as_str(), m.name, m.text)
            })
            .collect();
        assert_eq!(
            got,
            vec![
                "0.0 user content None \"fix it\"",
                "0.1 assistant reasoning None \"hm\"",
                "0.1 assistant content None \"ok\"",
                "0.1 assistant tool Some(\"Read\") \"{\\\"path\\\":\\\"a\\\"}\"",
                "0.2 tool tool Some(\"Read\") \"data\"",
                "1.0 user content None \"other\"",
            ]
        );
        assert_eq!(t.diagnostics.len(), 1);
        assert_eq!(t.diagnostics[0].line, Some(7));
    }
}
