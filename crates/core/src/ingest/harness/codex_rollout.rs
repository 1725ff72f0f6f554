//! Codex CLI's session rollout (`~/.codex/sessions/…/rollout-*.jsonl`): one
//! `{"timestamp", "type", "payload"}` per line. `response_item` payloads are Responses items —
//! messages, reasoning summaries, `function_call` / `custom_tool_call` / `local_shell_call`
//! and their `*_output` by `call_id` — read into turns as a Responses history is. The
//! `event_msg` lines (`agent_message`, `user_message`, `agent_reasoning`, token counts) say the
//! same texts again and are skipped, as are `session_meta`, `turn_context` and `compacted`. A
//! tool's output is a JSON string `{"output", "metadata": {"exit_code"}}` or text with
//! `Exit code: N`: its output is the result, a non-zero code marks it failed. The legacy form
//! (a first line `{"id", "timestamp", "instructions"}`, then bare items and
//! `{"record_type": "state"}` lines) is read the same way.

use serde::Deserialize;
use serde_json::Value;

use super::shared::{command_output, Turns};
use crate::ingest::builder::{Builder, Origin};
use crate::ingest::history::{History, Item};
use crate::ingest::lines::jsonl_lines;
use crate::ingest::transcript::Transcript;
use crate::ingest::value_text::member;
use crate::ingest::Format;

#[derive(Deserialize)]
struct Line {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    payload: Option<Value>,
    #[serde(default)]
    record_type: Option<String>,
}

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::CodexJsonl);
    let mut history = History::default();
    // Outputs that failed, by call id (the history names results by their call).
    let mut failed: Vec<(String, usize)> = Vec::new();
    let mut skipped = 0;
    for (line_no, range) in jsonl_lines(input) {
        let at = Origin::new(range.clone(), Some(line_no));
        let line = match serde_json::from_slice::<Line>(&input[range.clone()]) {
            Ok(l) => l,
            Err(e) => {
                b.json_diag(at, "not a rollout line", &e);
                continue;
            }
        };
        let line_text = &input[range.clone()];
        // The item's own text (the line's `payload`, or the whole line in the legacy form).
        let (value, text) = match (line.kind.as_deref(), line.payload) {
            (Some("response_item"), Some(payload)) => match member(line_text, "payload") {
                Some(r) => (payload, &line_text[r]),
                None => continue, // never: the line was read with its payload
            },
            (Some("event_msg" | "session_meta" | "turn_context" | "compacted"), _) => continue,
            // Legacy: bare items; the first line's session header and state lines carry no text.
            (Some(_), None) if line.record_type.is_none() => match serde_json::from_slice::<Value>(line_text) {
                Ok(v) => (v, line_text),
                Err(_) => continue,
            },
            (None, _) => continue,
            (Some(_), _) => {
                skipped += 1;
                continue;
            }
        };
        // What the reader sets over the item's own fields: a tool's output read for its text,
        // a shell call's action as its arguments.
        let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
        let mut output = None;
        if kind.ends_with("_call_output") {
            let raw = match value.get("output") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let (text, error) = command_output(&raw);
            if error {
                let id = value.get("call_id").and_then(Value::as_str).unwrap_or("").to_string();
                failed.push((id, line_no));
            }
            output = Some(text);
        }
        let arguments = (kind == "local_shell_call").then(|| value.get("action").map(Value::to_string)).flatten();
        let mut item = match Item::read(text) {
            Ok(item) => item,
            Err(e) => {
                b.diag(at, format!("a response item that could not be read: {e}"));
                continue;
            }
        };
        item.output = output.or(item.output);
        item.arguments = arguments.or(item.arguments);
        history.push(item, Some(range));
    }
    if skipped > 0 {
        let end = input.len();
        b.diag(Origin::new(end..end, None), format!("{skipped} line(s) of an unknown type skipped"));
    }
    let mut turns = Turns::new(0);
    turns.add_history(&mut b, history.take_turns(), &Origin::new(0..input.len(), None));
    for m in &mut b.t.messages {
        let answers = |(id, _): &(String, usize)| m.call_id.as_deref() == Some(id.as_str()) && m.role == "tool";
        m.is_error = failed.iter().any(answers);
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_read_and_events_skipped() {
        let input = br#"{"timestamp":"t","type":"session_meta","payload":{"id":"s","cli_version":"0.46.0"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}
{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"fix it"}}
{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"look first"}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"boom\",\"metadata\":{\"exit_code\":2}}"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"agent_reasoning","text":"look first"}}
not json
"#;
        let t = parse(input);
        let got: Vec<String> = t.message_lines();
        assert_eq!(
            got,
            [
                "0 user content None false fix it",
                "1 assistant reasoning None false look first",
                "1 assistant tool Some(\"shell\") false {\"command\":[\"ls\"]}",
                "2 tool tool Some(\"shell\") true boom",
            ]
        );
        assert_eq!(t.diagnostics.len(), 1);
        assert_eq!(t.diagnostics[0].line, Some(8));
        assert_eq!(t.messages[3].line, Some(6));
    }

    #[test]
    fn the_legacy_form_reads_bare_items() {
        let input = br#"{"id":"s","timestamp":"t","instructions":"be brief"}
{"record_type":"state"}
{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}
{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hello"}]}
"#;
        let texts: Vec<String> = parse(input).messages.iter().map(|m| format!("{} {}", m.role, m.text)).collect();
        assert_eq!(texts, ["user hi", "assistant hello"]);
    }
}
