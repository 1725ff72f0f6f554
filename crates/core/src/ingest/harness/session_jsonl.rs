//! Agent session logs in the style of Claude Code: one event per line,
//! `{"type":"assistant","sessionId":…,"message":{"role":…,"content":[blocks]}}`.
//!
//! `thinking` blocks are reasoning, `text` blocks content, `tool_use` blocks tool calls (their
//! `input` as JSON text), `tool_result` blocks tool results (role `tool`, named after the call
//! they answer); a `content` string is one text block. Each event line is a turn, except that
//! consecutive lines of one API message (same `message.id`: Claude Code writes each block on
//! its own line) share a turn; each `sessionId` is a conversation, and so is each subagent's
//! sidechain (`isSidechain` lines, followed from their root by `parentUuid`), so that a
//! subagent's turns never land amid the main conversation's. Lines without a message
//! (summaries, snapshots) are skipped. Conversations come out one after the other.

use crate::ingest::builder::{Builder, Origin};
use crate::ingest::history::{History, Item};
use crate::ingest::lines::jsonl_lines;
use crate::ingest::transcript::Transcript;
use crate::ingest::Format;
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Default, Deserialize)]
struct Event {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default, rename = "sessionId")]
    session_id: Option<String>,
    #[serde(default, rename = "isSidechain")]
    sidechain: Option<bool>,
    #[serde(default)]
    uuid: Option<String>,
    #[serde(default, rename = "parentUuid")]
    parent_uuid: Option<String>,
    #[serde(default)]
    message: Option<Item>,
}

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::SessionJsonl);
    let mut sessions: HashMap<String, usize> = HashMap::new();
    // The sidechain conversation of each sidechain line, by its uuid.
    let mut sidechains: HashMap<String, usize> = HashMap::new();
    let mut conversations = 0;
    // Per conversation: the next turn index, and the message id of the last turn.
    let mut turns: Vec<(usize, Option<String>)> = Vec::new();
    // Reads the blocks, and knows every call seen (to name the results).
    let mut history = History::default();
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
        let conversation = if event.sidechain == Some(true) {
            let parent = event.parent_uuid.as_ref().and_then(|p| sidechains.get(p)).copied();
            let c = parent.unwrap_or_else(|| {
                conversations += 1;
                conversations - 1
            });
            if let Some(uuid) = event.uuid {
                sidechains.insert(uuid, c);
            }
            c
        } else {
            if let Some(id) = event.session_id {
                current = *sessions.entry(id).or_insert_with(|| {
                    conversations += 1;
                    conversations - 1
                });
            }
            current
        };
        let Some(mut message) = event.message else { continue };
        message.role = message.role.or(event.kind).or_else(|| Some("unknown".into()));
        // Only the blocks count: a line is not an OpenAI message with reasoning fields.
        let message =
            Item { kind: None, role: message.role, content: message.content, id: message.id, ..Item::default() };
        if turns.len() <= conversation {
            turns.resize(conversation + 1, (0, None));
        }
        let (next, last_id) = &turns[conversation];
        let same_message = message.id.is_some() && message.id == *last_id && *next > 0;
        let place = (conversation, if same_message { next - 1 } else { *next });
        let id = message.id.clone();
        let parts = history.parts_of([message]);
        let any = !parts.is_empty();
        for part in parts {
            b.message(place, part, at.clone());
        }
        if any && !same_message {
            turns[conversation] = (place.1 + 1, id);
        }
    }
    b.group_conversations();
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
                let (c, i, name, id) = (m.conversation, m.turn, &m.name, &m.call_id);
                format!("{c}.{i} {} {} {name:?} {id:?} {:?}", m.role, m.channel.as_str(), m.text)
            })
            .collect();
        assert_eq!(
            got,
            vec![
                "0.0 user content None None \"fix it\"",
                "0.1 assistant reasoning None None \"hm\"",
                "0.1 assistant content None None \"ok\"",
                "0.1 assistant tool Some(\"Read\") Some(\"t1\") \"{\\\"path\\\":\\\"a\\\"}\"",
                "0.2 tool tool Some(\"Read\") Some(\"t1\") \"data\"",
                "1.0 user content None None \"other\"",
            ]
        );
        assert_eq!(t.diagnostics.len(), 1);
        assert_eq!(t.diagnostics[0].line, Some(7));
    }

    /// A subagent's sidechain, interleaved with the main conversation (and another subagent's),
    /// is a conversation of its own; the main conversation stays whole.
    #[test]
    fn sidechains_are_conversations_of_their_own() {
        let input = br#"{"type":"user","sessionId":"A","uuid":"m1","parentUuid":null,"message":{"role":"user","content":"main 1"}}
{"type":"user","sessionId":"A","isSidechain":true,"uuid":"s1","parentUuid":null,"message":{"role":"user","content":"task one"}}
{"type":"user","sessionId":"A","isSidechain":true,"uuid":"t1","parentUuid":null,"message":{"role":"user","content":"task two"}}
{"type":"assistant","sessionId":"A","isSidechain":true,"uuid":"s2","parentUuid":"s1","message":{"role":"assistant","content":"done one"}}
{"type":"assistant","sessionId":"A","uuid":"m2","parentUuid":"m1","message":{"role":"assistant","content":"main 2"}}
{"type":"assistant","sessionId":"A","isSidechain":true,"uuid":"t2","parentUuid":"t1","message":{"role":"assistant","content":"done two"}}
"#;
        let got: Vec<String> =
            parse(input).messages.iter().map(|m| format!("{}.{} {}", m.conversation, m.turn, m.text)).collect();
        assert_eq!(got, ["0.0 main 1", "0.1 main 2", "1.0 task one", "1.1 done one", "2.0 task two", "2.1 done two"]);
    }
}
