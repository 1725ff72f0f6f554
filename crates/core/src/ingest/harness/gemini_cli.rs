//! gemini-cli's sessions. The session JSONL (`~/.gemini/tmp/<project>/chats/session-*.jsonl`):
//! a metadata line, then records `{"id", "type": "user" | "gemini" | "info" | "error",
//! "content", "thoughts": [{subject, description}], "toolCalls": [{id, name, args, status,
//! result: [{functionResponse: {response: {output | error}}}]}]}`; `{"$set": …}` lines update
//! metadata (skipped); `{"$rewindTo": id}` drops that record and every one after it; a record
//! sent again with an id already seen replaces the earlier one. The older single JSON holds the
//! same records in `messages`. A `/chat save` checkpoint is `{"history": [{"role": "user" |
//! "model", "parts": [{text} | {thought: true, text} | {functionCall} | {functionResponse}]}]}`.
//! A `gemini` record's thoughts are its reasoning, its calls stay in its turn and their results
//! make the next (the model's input); a result with status `error` is marked failed. `info`
//! and `error` records are the tool's own notices: skipped, and counted in a diagnostic.

use std::collections::HashMap;
use std::ops::Range;

use serde_json::Value;

use super::shared::{elements, text_of, Turns};
use crate::ingest::builder::{Builder, Origin, Part};
use crate::ingest::json_scan::Members;
use crate::ingest::lines::jsonl_lines;
use crate::ingest::transcript::{Channel, Transcript};
use crate::ingest::Format;

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::GeminiCli);
    let trimmed = input.trim_ascii_start();
    // One JSON document: the older session file, or a checkpoint.
    if trimmed.starts_with(b"{") {
        if let Some(members) = Members::of(input) {
            if let Some(history) = members.get("history").and_then(|r| elements(input, r)) {
                checkpoint(&mut b, input, history);
                return b.finish();
            }
            if let Some(messages) = members.get("messages").and_then(|r| elements(input, r)) {
                let records = messages.into_iter().filter_map(|r| record(&mut b, input, r, None)).collect();
                records_to_turns(&mut b, records);
                return b.finish();
            }
        }
    }
    let mut records: Vec<Record> = Vec::new();
    let mut at_id: HashMap<String, usize> = HashMap::new();
    for (line_no, range) in jsonl_lines(input) {
        let Some(r) = record(&mut b, input, range, Some(line_no)) else { continue };
        if let Some(to) = r.value.get("$rewindTo").and_then(Value::as_str) {
            if let Some(&k) = at_id.get(to) {
                for dropped in records.drain(k..) {
                    at_id.remove(&dropped.id);
                }
            }
            continue;
        }
        if r.value.get("$set").is_some() || r.value.get("sessionId").is_some() {
            continue;
        }
        match at_id.get(&r.id) {
            Some(&k) if !r.id.is_empty() => records[k] = r,
            _ => {
                at_id.insert(r.id.clone(), records.len());
                records.push(r);
            }
        }
    }
    records_to_turns(&mut b, records);
    b.finish()
}

/// A record and where it came from.
struct Record {
    id: String,
    value: Value,
    at: Origin,
}

fn record(b: &mut Builder, input: &[u8], range: Range<usize>, line: Option<usize>) -> Option<Record> {
    let at = Origin::new(range.clone(), line);
    match serde_json::from_slice::<Value>(&input[range]) {
        Ok(value @ Value::Object(_)) => {
            let id = text_of(value.get("id")).unwrap_or_default();
            Some(Record { id, value, at })
        }
        Ok(_) => {
            b.diag(at, "not a gemini-cli record: not a JSON object");
            None
        }
        Err(e) => {
            b.json_diag(at, "not a gemini-cli record", &e);
            None
        }
    }
}

fn records_to_turns(b: &mut Builder, records: Vec<Record>) {
    let mut turns = Turns::new(0);
    let mut notices = 0;
    for r in records {
        let v = &r.value;
        match v.get("type").and_then(Value::as_str).unwrap_or("") {
            "user" => turns.add(b, vec![Part::new("user", Channel::Content, content(v.get("content")))], &r.at),
            "gemini" | "model" => {
                let mut said = Vec::new();
                for t in v.get("thoughts").and_then(Value::as_array).into_iter().flatten() {
                    let subject = text_of(t.get("subject")).unwrap_or_default();
                    let description = text_of(t.get("description")).unwrap_or_default();
                    let text = if subject.is_empty() { description } else { format!("{subject}: {description}") };
                    said.push(Part::new("assistant", Channel::Reasoning, text));
                }
                said.push(Part::new("assistant", Channel::Content, content(v.get("content"))));
                let mut results = Vec::new();
                for c in v.get("toolCalls").and_then(Value::as_array).into_iter().flatten() {
                    let (name, id) = (text_of(c.get("name")), text_of(c.get("id")));
                    let args = text_of(c.get("args")).unwrap_or_default();
                    said.push(Part::new("assistant", Channel::Tool, args).call(name.clone(), id.clone()));
                    let failed = c.get("status").and_then(Value::as_str) == Some("error");
                    let result = call_result(c.get("result"));
                    if let Some(text) = result.or_else(|| text_of(c.get("resultDisplay"))) {
                        results.push(Part::new("tool", Channel::Tool, text).call(name, id).failed(failed));
                    }
                }
                turns.add(b, said, &r.at);
                turns.add(b, results, &r.at);
            }
            _ => notices += 1,
        }
    }
    if notices > 0 {
        let end = b.t.messages.last().map_or(0, |m| m.source.end);
        b.diag(Origin::new(end..end, None), format!("{notices} info, error or unknown record(s) skipped"));
    }
}

/// A record's `content`: a string, or parts with text.
fn content(v: Option<&Value>) -> String {
    match v {
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| text_of(p.get("text")).or_else(|| p.as_str().map(str::to_string)))
            .collect::<Vec<_>>()
            .join("\n"),
        other => text_of(other).unwrap_or_default(),
    }
}

/// A call's `result`: its function responses' `output` or `error` (else the response as JSON).
fn call_result(v: Option<&Value>) -> Option<String> {
    let items = v?.as_array()?;
    let texts: Vec<String> = items
        .iter()
        .filter_map(|i| {
            let response = i.get("functionResponse")?.get("response")?;
            text_of(response.get("output"))
                .or_else(|| text_of(response.get("error")))
                .or_else(|| text_of(Some(response)))
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// A `/chat save` checkpoint: `{role, parts}` entries; a `user` entry whose parts are function
/// responses is the calls' results.
fn checkpoint(b: &mut Builder, input: &[u8], entries: Vec<Range<usize>>) {
    let mut turns = Turns::new(0);
    for range in entries {
        let Some(r) = record(b, input, range, None) else { continue };
        let role = r.value.get("role").and_then(Value::as_str).unwrap_or("model");
        let mut parts = Vec::new();
        for p in r.value.get("parts").and_then(Value::as_array).into_iter().flatten() {
            if let Some(call) = p.get("functionCall") {
                let (name, id) = (text_of(call.get("name")), text_of(call.get("id")));
                parts.push(
                    Part::new("assistant", Channel::Tool, text_of(call.get("args")).unwrap_or_default()).call(name, id),
                );
            } else if let Some(resp) = p.get("functionResponse") {
                let (name, id) = (text_of(resp.get("name")), text_of(resp.get("id")));
                let response = resp.get("response");
                let error = response.and_then(|r| r.get("error"));
                let text = text_of(response.and_then(|r| r.get("output")))
                    .or_else(|| text_of(error))
                    .or_else(|| text_of(response));
                parts.push(
                    Part::new("tool", Channel::Tool, text.unwrap_or_default()).call(name, id).failed(error.is_some()),
                );
            } else if let Some(text) = text_of(p.get("text")) {
                let thought = p.get("thought").and_then(Value::as_bool) == Some(true);
                let (who, channel) = match (role, thought) {
                    ("user", _) => ("user", Channel::Content),
                    (_, true) => ("assistant", Channel::Reasoning),
                    _ => ("assistant", Channel::Content),
                };
                parts.push(Part::new(who, channel, text));
            }
        }
        turns.add(b, parts, &r.at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_thoughts_calls_results_rewinds_and_resends() {
        let input = br#"{"sessionId":"s","projectHash":"p","startTime":"t"}
{"id":"u0","type":"user","content":"fix it"}
{"id":"g0","type":"gemini","content":"first try","thoughts":[{"subject":"Plan","description":"read it"}]}
{"id":"u1","type":"user","content":"no, other"}
{"$rewindTo":"u1"}
{"id":"g0","type":"gemini","content":"Reading.","toolCalls":[{"id":"c1","name":"read_file","args":{"path":"a"},"status":"error","result":[{"functionResponse":{"id":"c1","name":"read_file","response":{"error":"no such file"}}}]}]}
{"id":"i1","type":"info","content":"Request cancelled."}
{"$set":{"lastUpdated":"t2"}}
"#;
        let t = parse(input);
        assert_eq!(
            t.message_lines(),
            [
                "0 user content None false fix it",
                "1 assistant content None false Reading.",
                "1 assistant tool Some(\"read_file\") false {\"path\":\"a\"}",
                "2 tool tool Some(\"read_file\") true no such file",
            ]
        );
        assert_eq!(t.diagnostics.len(), 1, "the info record: {:?}", t.diagnostics);
    }

    #[test]
    fn a_checkpoint_and_the_older_json_are_read() {
        let checkpoint = br#"{"history": [
 {"role": "user", "parts": [{"text": "hi"}]},
 {"role": "model", "parts": [{"text": "think", "thought": true}, {"functionCall": {"name": "ls", "args": {}}}]},
 {"role": "user", "parts": [{"functionResponse": {"name": "ls", "response": {"output": "a b"}}}]}
]}"#;
        assert_eq!(
            parse(checkpoint).message_lines(),
            [
                "0 user content None false hi",
                "1 assistant reasoning None false think",
                "1 assistant tool Some(\"ls\") false {}",
                "2 tool tool Some(\"ls\") false a b",
            ]
        );
        let older = br#"{"sessionId": "s", "messages": [{"id": "1", "type": "user", "content": "hi"}, {"id": "2", "type": "gemini", "content": "hello"}]}"#;
        assert_eq!(
            parse(older).message_lines(),
            ["0 user content None false hi", "1 assistant content None false hello"]
        );
    }
}
