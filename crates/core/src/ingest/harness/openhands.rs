//! OpenHands trajectories: a JSON array of events (or `{"trajectory": [...]}`). An event with
//! an `action` is the user's or the agent's (by `source`): a `message` is said (its `thought`
//! is the agent's reasoning), any other action (`run`, `read`, `edit`, `browse`…) is a tool
//! call — named after the function the model called (`tool_call_metadata.function_name`) or
//! the action, its arguments the action's `args` without the thought, which comes before it.
//! An event with an `observation` answers the action whose `id` its `cause` names: the call's
//! result, marked failed when `success` is false, the observation is `error`, or the exit code
//! is not 0. The V1 form (`"kind": "ActionEvent" | "ObservationEvent" | "MessageEvent"`,
//! linked by `tool_call_id`) is read the same way. Other events (state changes, agent status)
//! carry no text of the conversation: counted in one diagnostic.

use std::collections::HashMap;

use serde_json::Value;

use super::shared::{elements, text_of, thought_parts, Turns};
use crate::ingest::builder::{Builder, Origin, Part};
use crate::ingest::json_scan::Members;
use crate::ingest::transcript::{Channel, Transcript};
use crate::ingest::Format;

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::OpenHands);
    let list = match input.trim_ascii_start().first() {
        Some(b'[') => elements(input, 0..input.len()),
        _ => Members::of(input)
            .and_then(|m| m.get("trajectory").or_else(|| m.get("events")))
            .and_then(|r| elements(input, r)),
    };
    let Some(list) = list else {
        b.diag(Origin::new(0..input.len(), None), "not an OpenHands trajectory: no array of events");
        return b.finish();
    };
    let mut turns = Turns::new(0);
    // Calls by the action's id (or V1 tool call id): tool name.
    let mut calls: HashMap<String, Option<String>> = HashMap::new();
    // The agent's turn so far (its thought and calls), and the results that answer it.
    let (mut said, mut results): (Vec<Part>, Vec<Part>) = (Vec::new(), Vec::new());
    let mut said_at: Option<Origin> = None;
    let mut other = 0;
    let flush =
        |b: &mut Builder, turns: &mut Turns, said: &mut Vec<Part>, results: &mut Vec<Part>, at: &mut Option<Origin>| {
            if let Some(at) = at.take() {
                turns.add(b, std::mem::take(said), &at);
                turns.add(b, std::mem::take(results), &at);
            }
        };
    for range in list {
        let at = Origin::new(range.clone(), None);
        let e = match serde_json::from_slice::<Value>(&input[range]) {
            Ok(v) => v,
            Err(err) => {
                b.json_diag(at, "not an OpenHands event", &err);
                continue;
            }
        };
        let kind = e.get("kind").and_then(Value::as_str).unwrap_or("");
        let source = e.get("source").and_then(Value::as_str).unwrap_or("agent");
        let action =
            e.get("action").and_then(Value::as_str).or(if kind == "ActionEvent" { Some("tool") } else { None });
        let observation = e.get("observation").is_some() || kind == "ObservationEvent";
        // Bookkeeping: not said, not a tool call.
        let bookkeeping = matches!(action, Some("change_agent_state" | "recall" | "system" | "condensation" | "null"));
        if bookkeeping {
            other += 1;
        } else if let Some(action) = action.filter(|_| !observation) {
            let args = e.get("args").cloned().unwrap_or(Value::Null);
            let thought = thought_of(&e, &args);
            if action == "message" || kind == "MessageEvent" {
                let text = text_of(args.get("content")).unwrap_or_default();
                if source == "user" {
                    flush(&mut b, &mut turns, &mut said, &mut results, &mut said_at);
                    turns.add(&mut b, vec![Part::new("user", Channel::Content, text)], &at);
                } else {
                    if !results.is_empty() {
                        flush(&mut b, &mut turns, &mut said, &mut results, &mut said_at);
                    }
                    said.extend(thought.map(|t| Part::new("assistant", Channel::Reasoning, t)));
                    said.push(Part::new("assistant", Channel::Content, text));
                    grow(&mut said_at, &at);
                }
                continue;
            }
            // A new call after results came: a new turn.
            if !results.is_empty() {
                flush(&mut b, &mut turns, &mut said, &mut results, &mut said_at);
            }
            let meta = e.get("tool_call_metadata");
            let name = meta
                .and_then(|m| text_of(m.get("function_name")))
                .or_else(|| text_of(e.get("tool_name")))
                .or_else(|| Some(action.to_string()));
            let id = text_of(e.get("id")).or_else(|| text_of(e.get("tool_call_id")));
            let call_id = meta.and_then(|m| text_of(m.get("tool_call_id"))).or_else(|| text_of(e.get("tool_call_id")));
            let mut args = if kind == "ActionEvent" { e.get("action").cloned().unwrap_or(Value::Null) } else { args };
            if let Value::Object(o) = &mut args {
                o.remove("thought");
            }
            said.extend(thought.into_iter().flat_map(thought_parts));
            said.push(Part::new("assistant", Channel::Tool, args.to_string()).call(name.clone(), call_id.clone()));
            if let Some(id) = id {
                calls.insert(id, name.clone());
            }
            if let Some(call_id) = call_id {
                calls.insert(call_id, name);
            }
            grow(&mut said_at, &at);
        } else if observation {
            let cause = text_of(e.get("cause"))
                .or_else(|| text_of(e.get("tool_call_id")))
                .or_else(|| text_of(e.get("action_id")));
            // An observation of no action (a state change, a recall) answers no call.
            let Some(cause) = cause else {
                other += 1;
                continue;
            };
            let cause = Some(cause);
            let name = cause.as_ref().and_then(|c| calls.get(c).cloned()).flatten();
            let content = text_of(e.get("content"))
                .or_else(|| e.get("observation").filter(|o| o.is_object()).and_then(|o| text_of(o.get("content"))))
                .unwrap_or_default();
            let code = e.pointer("/extras/metadata/exit_code").or_else(|| e.pointer("/observation/exit_code"));
            let failed = e.get("success").and_then(Value::as_bool) == Some(false)
                || e.get("observation").and_then(Value::as_str) == Some("error")
                || code.and_then(Value::as_i64).is_some_and(|c| c != 0);
            results.push(Part::new("tool", Channel::Tool, content).call(name, cause).failed(failed));
            grow(&mut said_at, &at);
        } else {
            other += 1;
        }
    }
    flush(&mut b, &mut turns, &mut said, &mut results, &mut said_at);
    if other > 0 {
        let end = b.t.messages.last().map_or(0, |m| m.source.end);
        b.diag(
            Origin::new(end..end, None),
            format!("{other} event(s) that are neither actions nor observations skipped"),
        );
    }
    b.finish()
}

/// An action's thought: `args.thought`, or V1's `thought` parts.
fn thought_of(e: &Value, args: &Value) -> Option<String> {
    let text = match e.get("thought") {
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| text_of(p.get("text"))).collect::<Vec<_>>().join("\n"),
        _ => text_of(args.get("thought")).unwrap_or_default(),
    };
    (!text.trim().is_empty()).then_some(text)
}

fn grow(at: &mut Option<Origin>, by: &Origin) {
    *at = Some(match at.take() {
        Some(a) => Origin::new(a.range.start.min(by.range.start)..a.range.end.max(by.range.end), None),
        None => by.clone(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_observations_and_their_links() {
        let input = br#"[{"id":0,"source":"user","action":"message","args":{"content":"fix it"}},
{"id":1,"source":"agent","action":"run","args":{"command":"cargo test","thought":"Run the tests."},"tool_call_metadata":{"function_name":"execute_bash","tool_call_id":"t1"}},
{"id":2,"source":"agent","cause":1,"observation":"run","content":"1 failed","extras":{"metadata":{"exit_code":101}},"success":false},
{"id":3,"source":"environment","observation":"agent_state_changed","content":""},
{"id":4,"source":"agent","action":"change_agent_state","args":{}},
{"id":5,"source":"agent","action":"message","args":{"content":"Done.","thought":""}}]"#;
        let t = parse(input);
        let got: Vec<String> = t.message_lines();
        assert_eq!(
            got,
            [
                "0 user content None false fix it",
                "1 assistant content None false Run the tests.",
                "1 assistant tool Some(\"execute_bash\") false {\"command\":\"cargo test\"}",
                "2 tool tool Some(\"execute_bash\") true 1 failed",
                "3 assistant content None false Done.",
            ]
        );
    }
}
