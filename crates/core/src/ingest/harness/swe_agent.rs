//! SWE-agent trajectories (`.traj`): `{"trajectory": [{response, thought, action,
//! observation}], "history": [{role, content, message_type, tool_calls?, tool_call_ids?}],
//! "info": {…}}`. The `history` is the conversation the model saw — chat messages with their
//! tool calls, and `tool` messages answering them by `tool_call_ids` — and is read as a chat
//! history. Without one, the `trajectory` steps are read: each step's thought is the model's
//! text, its action a `bash` call, its observation the call's result.

use serde_json::Value;

use super::shared::{elements, text_of, thought_parts, Turns};
use crate::ingest::builder::{Builder, Origin, Part};
use crate::ingest::history::{History, Item};
use crate::ingest::json_scan::Members;
use crate::ingest::transcript::{Channel, Transcript};
use crate::ingest::Format;
use crate::stream::lenient_text_of_value;

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::SweAgent);
    let members = Members::of(input);
    let list = |key: &str| members.as_ref().and_then(|m| m.get(key)).and_then(|r| elements(input, r));
    let mut turns = Turns::new(0);
    if let Some(history) = list("history").filter(|h| !h.is_empty()) {
        let mut reader = History::default();
        for range in history {
            let at = Origin::new(range.clone(), None);
            let text = &input[range];
            let v = match serde_json::from_slice::<Value>(text) {
                Ok(v) => v,
                Err(e) => {
                    b.json_diag(at, "not a SWE-agent history message", &e);
                    continue;
                }
            };
            let mut item = match Item::read(text) {
                Ok(item) => item,
                Err(e) => {
                    b.diag(at, format!("a history message that could not be read: {e}"));
                    continue;
                }
            };
            // A tool message answers its calls by `tool_call_ids`: the first names it.
            if v.get("tool_call_id").is_none() {
                if let Some(id) = v.get("tool_call_ids").and_then(Value::as_array).and_then(|ids| ids.first()) {
                    item.tool_call_id = lenient_text_of_value(id);
                }
            }
            let parts = reader.parts_of([item]);
            turns.add(&mut b, parts, &at);
        }
    } else if let Some(steps) = list("trajectory") {
        for range in steps {
            let at = Origin::new(range.clone(), None);
            let step = match serde_json::from_slice::<Value>(&input[range]) {
                Ok(v) => v,
                Err(e) => {
                    b.json_diag(at, "not a SWE-agent trajectory step", &e);
                    continue;
                }
            };
            let thought = text_of(step.get("thought")).or_else(|| text_of(step.get("response"))).unwrap_or_default();
            let action = text_of(step.get("action")).unwrap_or_default();
            let call = serde_json::json!({ "command": action }).to_string();
            let mut said = thought_parts(thought);
            said.push(
                Part::new("assistant", Channel::Tool, if action.is_empty() { String::new() } else { call })
                    .call(Some("bash".into()), None),
            );
            turns.add(&mut b, said, &at);
            let observation = text_of(step.get("observation")).unwrap_or_default();
            turns.add(&mut b, vec![Part::new("tool", Channel::Tool, observation).call(Some("bash".into()), None)], &at);
        }
    } else {
        b.diag(Origin::new(0..input.len(), None), "not a SWE-agent trajectory: no \"history\" or \"trajectory\" array");
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(t: &Transcript) -> Vec<String> {
        t.messages
            .iter()
            .map(|m| format!("{} {} {} {:?} {}", m.turn, m.role, m.channel.as_str(), m.name, m.text))
            .collect()
    }

    #[test]
    fn the_history_with_its_tool_calls() {
        let input = br#"{"trajectory": [], "history": [
 {"role": "system", "content": "You are helpful.", "message_type": "system_prompt"},
 {"role": "user", "content": "fix it", "message_type": "observation"},
 {"role": "assistant", "content": "Look first.", "thought": "Look first.", "action": "ls", "message_type": "action",
  "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\":\"ls\"}"}}]},
 {"role": "tool", "content": "a b", "tool_call_ids": ["c1"], "message_type": "observation"}
], "info": {"exit_status": "submitted"}}"#;
        assert_eq!(
            lines(&parse(input)),
            [
                "0 system content None You are helpful.",
                "1 user content None fix it",
                "2 assistant content None Look first.",
                "2 assistant tool Some(\"bash\") {\"command\":\"ls\"}",
                "3 tool tool Some(\"bash\") a b",
            ]
        );
    }

    #[test]
    fn trajectory_steps_without_a_history() {
        let input = br#"{"trajectory": [{"response": "r", "thought": "Look.", "action": "ls", "observation": "a b"}]}"#;
        assert_eq!(
            lines(&parse(input)),
            [
                "0 assistant content None Look.",
                "0 assistant tool Some(\"bash\") {\"command\":\"ls\"}",
                "1 tool tool Some(\"bash\") a b"
            ]
        );
    }
}
