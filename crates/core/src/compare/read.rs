//! Files read into [`Output`]s: a golden file, a soak's captures file (a line per generation,
//! each capture read through the one `SsePump`), a streamed capture (SSE) or a non-streamed
//! chat completion (JSON). Tokens and logprobs come from `choices[].logprobs.content[]`
//! ([`LogprobAssembler`]); the text, usage, model and finish reason as every reader gets them.
//! Nothing fails the whole file: what cannot be read is a problem with its line, and the rest
//! is read.

use super::golden::{read_golden_line, GOLDEN_LINE_START};
use super::output::Output;
use crate::ingest::LIVE_CAPTURES_LINE_START;
use crate::stream::{Assembler, LogprobAssembler, SsePump};
use serde_json::{json, Value};

/// What kind of file it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Golden,
    LiveCaptures,
    Sse,
    Json,
}

impl InputKind {
    pub fn name(self) -> &'static str {
        match self {
            InputKind::Golden => "golden file",
            InputKind::LiveCaptures => "captures file",
            InputKind::Sse => "SSE capture",
            InputKind::Json => "JSON completion",
        }
    }
}

/// A file's outputs and what could not be read in it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadOutputs {
    pub kind: InputKind,
    pub outputs: Vec<Output>,
    /// Problems in words, with their line when they have one ("line 3: …").
    pub problems: Vec<String>,
}

/// Reads `bytes`; `name` is the id of a single capture's output (its file name).
pub fn read_outputs(name: &str, bytes: &[u8]) -> ReadOutputs {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    let head = &bytes[start..];
    if head.starts_with(GOLDEN_LINE_START.as_bytes()) {
        return read_lines(bytes, InputKind::Golden, |_, line| read_golden_line(line).map(|o| vec![o]));
    }
    if head.starts_with(LIVE_CAPTURES_LINE_START.as_bytes()) {
        return read_captures_file(bytes);
    }
    let kind = if head.starts_with(b"{") { InputKind::Json } else { InputKind::Sse };
    let mut problems = Vec::new();
    let outputs = match read_capture(name, head, kind == InputKind::Json, &mut problems) {
        Some(o) => vec![o],
        None => Vec::new(),
    };
    ReadOutputs { kind, outputs, problems }
}

/// Reads a JSONL file line by line with `each` (given the 1-based line number).
fn read_lines(
    bytes: &[u8],
    kind: InputKind,
    mut each: impl FnMut(usize, &[u8]) -> Result<Vec<Output>, String>,
) -> ReadOutputs {
    let mut r = ReadOutputs { kind, outputs: Vec::new(), problems: Vec::new() };
    for (k, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match each(k + 1, line) {
            Ok(outputs) => r.outputs.extend(outputs),
            Err(why) => r.problems.push(format!("line {}: {why}", k + 1)),
        }
    }
    r
}

/// One capture: SSE events, or a whole completion read as one event. `None` when it holds no
/// reply (the problems say why).
fn read_capture(id: &str, bytes: &[u8], whole_json: bool, problems: &mut Vec<String>) -> Option<Output> {
    let mut pump = SsePump::new(LogprobAssembler::new());
    let mut assembler = LogprobAssembler::new();
    let (turns, info, tokens) = if whole_json {
        let text = String::from_utf8_lossy(bytes);
        if let Err(e) = assembler.push_event(None, &text, 0..bytes.len()) {
            problems.push(e);
        }
        assembler.finish_with_tokens()
    } else {
        for p in pump.feed(bytes).into_iter().chain(pump.end_input()) {
            problems.push(format!("line {}: {}", p.line, p.message));
        }
        pump.assembler().clone().finish_with_tokens()
    };
    problems.extend(info.errors.iter().map(|e| format!("the stream said: {e}")));
    let Some(turn) = turns.first() else {
        problems.push("it holds no reply".into());
        return None;
    };
    let tokens = tokens.into_iter().find(|(i, _)| *i == turn.choice).map(|(_, t)| t).unwrap_or_default();
    Some(Output {
        id: id.to_string(),
        prompt: None,
        text: turn.content.clone(),
        tokens,
        prompt_tokens: info.usage.as_ref().and_then(|u| u.prompt_tokens),
        finish_reason: turn.finish_reason.clone(),
        server: None,
        model: info.model.clone(),
        settings: Value::Null,
    })
}

/// A soak's captures file: each line's capture, named "prompt N" (N from 1; " #2" for a
/// prompt's second generation), prefixed with its configuration ("A · ") when the file holds
/// two.
fn read_captures_file(bytes: &[u8]) -> ReadOutputs {
    // Each line read once: the configurations are known before the ids are made.
    let mut lines: Vec<(usize, Result<Value, String>)> = Vec::new();
    for (k, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.iter().all(u8::is_ascii_whitespace) {
            lines.push((k + 1, serde_json::from_slice(line).map_err(|e| format!("not JSON: {e}"))));
        }
    }
    let config_of = |v: &Value| v.pointer("/generation/config").and_then(Value::as_str).unwrap_or_default().to_string();
    let configs: std::collections::BTreeSet<String> =
        lines.iter().filter_map(|(_, v)| v.as_ref().ok()).map(config_of).collect();
    let mut r = ReadOutputs { kind: InputKind::LiveCaptures, outputs: Vec::new(), problems: Vec::new() };
    let mut seen: Vec<(String, usize)> = Vec::new();
    for (line_no, v) in lines {
        match v.and_then(|v| captured_output(&v, configs.len() > 1, &mut seen)) {
            Ok(o) => r.outputs.push(o),
            Err(why) => r.problems.push(format!("line {line_no}: {why}")),
        }
    }
    r
}

/// One line of a captures file read into its output; `seen` counts each prompt's generations.
fn captured_output(v: &Value, several_configs: bool, seen: &mut Vec<(String, usize)>) -> Result<Output, String> {
    let g = v.get("generation").cloned().unwrap_or(Value::Null);
    let prompt = g.get("prompt").and_then(Value::as_u64).unwrap_or(0) + 1;
    let config = g.get("config").and_then(Value::as_str).unwrap_or_default();
    let base = if several_configs && !config.is_empty() {
        format!("{config} · prompt {prompt}")
    } else {
        format!("prompt {prompt}")
    };
    let count = match seen.iter_mut().find(|(id, _)| *id == base) {
        Some((_, n)) => {
            *n += 1;
            *n
        }
        None => {
            seen.push((base.clone(), 1));
            1
        }
    };
    let id = if count > 1 { format!("{base} #{count}") } else { base };
    let sse = v.get("sse").and_then(Value::as_str).unwrap_or_default();
    if sse.is_empty() {
        let why = g.get("error").and_then(Value::as_str).unwrap_or("nothing was received");
        return Err(format!("{id} has no capture: {why}"));
    }
    let mut problems = Vec::new();
    let Some(mut o) = read_capture(&id, sse.as_bytes(), false, &mut problems) else {
        return Err(format!("{id}: {}", problems.join("; ")));
    };
    o.server = g.get("url").and_then(Value::as_str).map(String::from);
    o.model = o.model.or_else(|| g.get("model").and_then(Value::as_str).map(String::from));
    if let Some(seed) = g.get("seed").filter(|s| !s.is_null()) {
        o.settings = json!({ "seed": seed });
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::golden::golden_file;

    const CHUNK: &str = "data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"logprobs\":{\"content\":[{\"token\":\"Hi\",\"logprob\":-0.25,\"top_logprobs\":[{\"token\":\"Hi\",\"logprob\":-0.25}]}]}}]}\n\n\
        data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12}}\n\ndata: [DONE]\n\n";

    #[test]
    fn each_kind_of_file_is_read() {
        let sse = read_outputs("a.sse", CHUNK.as_bytes());
        assert_eq!((sse.kind, sse.problems.len()), (InputKind::Sse, 0));
        let o = &sse.outputs[0];
        assert_eq!(
            (o.id.as_str(), o.text.as_str(), o.prompt_tokens, o.model.as_deref()),
            ("a.sse", "Hi", Some(12), Some("m"))
        );
        assert_eq!(o.tokens[0].logprob, Some(-0.25));

        let json = br#"{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"logprobs":{"content":[{"token":"Hi","logprob":-0.25,"bytes":null,"top_logprobs":[]}]},"finish_reason":"stop"}],"usage":{"prompt_tokens":12}}"#;
        let j = read_outputs("a.json", json);
        assert_eq!(j.kind, InputKind::Json);
        assert_eq!((j.outputs[0].text.as_str(), j.outputs[0].tokens.len()), ("Hi", 1));

        let golden = read_outputs("g", golden_file(&sse.outputs).as_bytes());
        assert_eq!((golden.kind, &golden.outputs), (InputKind::Golden, &sse.outputs));

        let line = |i: u64, sse: &str| {
            format!(
                "{LIVE_CAPTURES_LINE_START}\"generation\":{{\"index\":{i},\"config\":\"\",\"url\":\"http://h/v1\",\"model\":\"m\",\"prompt\":{},\"seed\":{i}}},\"sse\":{}}}\n",
                i % 2,
                serde_json::to_string(sse).unwrap()
            )
        };
        let file = [line(0, CHUNK), line(1, CHUNK), line(2, CHUNK), "{oops\n".into(), line(3, "")].concat();
        let c = read_outputs("c", file.as_bytes());
        assert_eq!(c.kind, InputKind::LiveCaptures);
        let ids: Vec<&str> = c.outputs.iter().map(|o| o.id.as_str()).collect();
        assert_eq!(ids, ["prompt 1", "prompt 2", "prompt 1 #2"]);
        assert_eq!(c.outputs[2].settings, json!({"seed": 2}));
        assert_eq!(c.problems.len(), 2, "{:?}", c.problems);
        assert!(c.problems[0].starts_with("line 4: not JSON"));
        assert_eq!(c.problems[1], "line 5: prompt 2 #2 has no capture: nothing was received");
    }

    #[test]
    fn a_file_with_no_reply_says_so() {
        let r = read_outputs("x", b"hello, not a capture");
        assert!(r.outputs.is_empty());
        assert!(r.problems.iter().any(|p| p == "it holds no reply"), "{:?}", r.problems);
        assert!(read_outputs("x", b"").outputs.is_empty());
        assert!(!read_outputs("x", b"{not json").problems.is_empty());
    }
}
