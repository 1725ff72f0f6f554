//! What the readers of agent harnesses' session files share: turns numbered as they are
//! placed, parts put into the transcript with where they came from, a tool's output that
//! comes as a JSON string of `{output, metadata}` read for its output, and JSON values given
//! to a reader as text. The readers are one file each beside this one.

use std::ops::Range;

use serde_json::Value;

use crate::ingest::builder::{Builder, Origin, Part};
use crate::ingest::history::HistoryTurn;
use crate::ingest::transcript::Channel;

/// Places turns of one conversation one after another.
pub struct Turns {
    pub conversation: usize,
    next: usize,
}

impl Turns {
    pub fn new(conversation: usize) -> Self {
        Turns { conversation, next: 0 }
    }

    /// Adds `parts` as the next turn (nothing when there are none), from `at`.
    pub fn add(&mut self, b: &mut Builder, parts: Vec<Part>, at: &Origin) {
        let parts: Vec<Part> = parts.into_iter().filter(|p| !p.text.is_empty()).collect();
        if parts.is_empty() {
            return;
        }
        for part in parts {
            b.message((self.conversation, self.next), part, at.clone());
        }
        self.next += 1;
    }

    /// Adds the turns a [`crate::ingest::history::History`] read, each from its own source (else
    /// from `at`).
    pub fn add_history(&mut self, b: &mut Builder, turns: Vec<HistoryTurn>, at: &Origin) {
        for turn in turns {
            let origin = turn.source.map_or_else(|| at.clone(), |r| Origin::new(r, None));
            self.add(b, turn.parts, &origin);
        }
    }
}

/// A JSON value as a reader shows it: a string as it is, anything else as compact JSON, null
/// and absent as nothing.
/// A harness's `thought` — OpenHands' and SWE-agent's one text for the model's reasoning and its
/// reply — as the parts it is: its `<think>…</think>` block (or the text before a lone
/// `</think>`) is the reasoning, the rest the reply. Without those markers the two cannot be
/// told apart (the file marks no boundary: a paragraph break is no sign of one), and the whole
/// thought is the reply's text, judged as one.
pub fn thought_parts(thought: String) -> Vec<Part> {
    if !thought.contains("</think>") {
        return vec![Part::new("assistant", Channel::Content, thought)];
    }
    let (reasoning, reply) = crate::stream::split_think(&thought);
    let mut parts = Vec::new();
    if !reasoning.trim().is_empty() {
        parts.push(Part::new("assistant", Channel::Reasoning, reasoning));
    }
    if !reply.trim().is_empty() || parts.is_empty() {
        parts.push(Part::new("assistant", Channel::Content, reply));
    }
    parts
}

pub fn text_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// A tool's output as Codex CLI (and others) store it: a JSON string `{"output": …,
/// "metadata": {"exit_code": N}}`, or plain text ending or starting with `Exit code: N`. The
/// output's text, and whether the command failed (a non-zero exit code).
pub fn command_output(raw: &str) -> (String, bool) {
    if let Ok(Value::Object(o)) = serde_json::from_slice::<Value>(raw.as_bytes()) {
        if let Some(out) = o.get("output").and_then(Value::as_str) {
            let code = o.get("metadata").and_then(|m| m.get("exit_code")).and_then(Value::as_i64);
            return (out.to_string(), code.is_some_and(|c| c != 0));
        }
    }
    let code = raw.lines().find_map(|l| l.trim().strip_prefix("Exit code: ")?.trim().parse::<i64>().ok());
    (raw.to_string(), code.is_some_and(|c| c != 0))
}

/// The byte ranges of the elements of the JSON array at `range` of `input` (`None` if it is
/// not an array), in `input`'s offsets.
pub fn elements(input: &[u8], range: Range<usize>) -> Option<Vec<Range<usize>>> {
    let start = range.start;
    let found = crate::ingest::json_scan::array_elements(&input[range])?;
    Some(found.into_iter().map(|r| r.start + start..r.end + start).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thought_is_split_where_it_marks_its_reasoning() {
        let got = |t: &str| -> Vec<(Channel, String)> {
            thought_parts(t.to_string()).into_iter().map(|p| (p.channel, p.text)).collect()
        };
        assert_eq!(
            got("<think>The test fails on 1900.</think>\nLet me read the helper."),
            [
                (Channel::Reasoning, "The test fails on 1900.".to_string()),
                (Channel::Content, "\nLet me read the helper.".to_string())
            ]
        );
        assert_eq!(
            got("The test fails on 1900.</think>Reading."),
            [(Channel::Reasoning, "The test fails on 1900.".to_string()), (Channel::Content, "Reading.".to_string())]
        );
        assert_eq!(
            got("The test fails on 1900.\n\nLet me read the helper."),
            [(Channel::Content, "The test fails on 1900.\n\nLet me read the helper.".to_string())],
            "no marker: one text"
        );
    }

    #[test]
    fn command_outputs_say_whether_they_failed() {
        assert_eq!(command_output(r#"{"output":"ok\n","metadata":{"exit_code":0}}"#), ("ok\n".into(), false));
        assert_eq!(command_output(r#"{"output":"boom","metadata":{"exit_code":2}}"#), ("boom".into(), true));
        assert!(command_output("Exit code: 1\nWall time: 0.2s\nerror[E0425]").1);
        assert!(!command_output("Exit code: 0\nfine").1);
        assert_eq!(command_output("plain output"), ("plain output".into(), false));
    }
}
