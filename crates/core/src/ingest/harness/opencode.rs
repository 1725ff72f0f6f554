//! opencode's session export (`opencode export <id>`): `{"info": {"id": "ses_…"}, "messages":
//! [{"info": {"role"}, "parts": [...]}]}`. A message's `text` parts are its content,
//! `reasoning` parts its reasoning, and each `tool` part holds a call (`tool`, `callID`,
//! `state.input`) and its result (`state.output`, or `state.error` with status `error`): the
//! calls stay in the message's turn, their results make the next turn (the model's input).
//! Step markers, patches, files and snapshots carry no text and are skipped; a message or a
//! part that cannot be read is a diagnostic, and the rest is still read.

use serde::Deserialize;
use serde_json::Value;

use super::shared::{elements, text_of, Turns};
use crate::ingest::builder::{Builder, Origin, Part};
use crate::ingest::json_scan::Members;
use crate::ingest::transcript::{Channel, Transcript};
use crate::ingest::Format;

#[derive(Deserialize)]
struct Message {
    #[serde(default)]
    info: Info,
    #[serde(default)]
    parts: Vec<Value>,
}

#[derive(Default, Deserialize)]
struct Info {
    #[serde(default)]
    role: Option<String>,
}

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::Opencode);
    let whole = Origin::new(0..input.len(), None);
    let Some(messages) = Members::of(input).and_then(|m| m.get("messages")).and_then(|r| elements(input, r)) else {
        b.diag(whole, "not an opencode export: no \"messages\" array");
        return b.finish();
    };
    let mut turns = Turns::new(0);
    for range in messages {
        let at = Origin::new(range.clone(), None);
        let m = match serde_json::from_slice::<Message>(&input[range]) {
            Ok(m) => m,
            Err(e) => {
                b.json_diag(at, "not an opencode message", &e);
                continue;
            }
        };
        let role = m.info.role.unwrap_or_else(|| "assistant".into());
        let (mut said, mut results, mut skipped) = (Vec::new(), Vec::new(), 0);
        for part in &m.parts {
            let kind = part.get("type").and_then(Value::as_str).unwrap_or("");
            let text = || text_of(part.get("text")).unwrap_or_default();
            match kind {
                "text" => said.push(Part::new(&role, Channel::Content, text())),
                "reasoning" => said.push(Part::new(&role, Channel::Reasoning, text())),
                "tool" => {
                    let name = text_of(part.get("tool"));
                    let id = text_of(part.get("callID"));
                    let state = part.get("state");
                    let field = |k: &str| text_of(state.and_then(|s| s.get(k)));
                    let status = field("status").unwrap_or_default();
                    let args = field("input").unwrap_or_default();
                    said.push(Part::new(&role, Channel::Tool, args).call(name.clone(), id.clone()));
                    let result = field("output").or_else(|| field("error"));
                    if let Some(result) = result {
                        let part = Part::new("tool", Channel::Tool, result).call(name, id);
                        results.push(part.failed(status == "error"));
                    }
                }
                "step-start" | "step-finish" | "patch" | "file" | "snapshot" | "agent" | "compaction" => {}
                _ => skipped += 1,
            }
        }
        if skipped > 0 {
            b.diag(at.clone(), format!("{skipped} part(s) of an unknown type skipped"));
        }
        turns.add(&mut b, said, &at);
        turns.add(&mut b, results, &at);
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_calls_and_their_results() {
        let input = br#"{"info": {"id": "ses_1"}, "messages": [
  {"info": {"role": "user"}, "parts": [{"type": "text", "text": "fix it"}]},
  {"info": {"role": "assistant"}, "parts": [{"type": "step-start"}, {"type": "reasoning", "text": "hm"},
    {"type": "tool", "callID": "c1", "tool": "read", "state": {"status": "completed", "input": {"filePath": "a.rs"}, "output": "fn a() {}"}},
    {"type": "tool", "callID": "c2", "tool": "bash", "state": {"status": "error", "input": {"command": "make"}, "error": "make: *** no rule"}},
    {"type": "hologram"}]},
  {"info": {"role": "assistant"}, "parts": "broken"}
]}"#;
        let t = parse(input);
        let got: Vec<String> = t
            .messages
            .iter()
            .map(|m| {
                format!(
                    "{} {} {} {:?} {:?} {} {}",
                    m.turn,
                    m.role,
                    m.channel.as_str(),
                    m.name,
                    m.call_id,
                    m.is_error,
                    m.text
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                "0 user content None None false fix it",
                "1 assistant reasoning None None false hm",
                "1 assistant tool Some(\"read\") Some(\"c1\") false {\"filePath\":\"a.rs\"}",
                "1 assistant tool Some(\"bash\") Some(\"c2\") false {\"command\":\"make\"}",
                "2 tool tool Some(\"read\") Some(\"c1\") false fn a() {}",
                "2 tool tool Some(\"bash\") Some(\"c2\") true make: *** no rule",
            ]
        );
        let diags: Vec<(Option<usize>, &str)> = t.diagnostics.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert_eq!(diags[0], (Some(3), "1 part(s) of an unknown type skipped"));
        assert_eq!(diags[1].0, Some(7));
    }
}
