//! The golden file: a reference's outputs saved to compare against later, with no reference
//! server. JSONL, one prompt a line, every line versioned:
//!
//! ```text
//! {"coherency_golden":1,"id":"prompt 1","prompt":null,"server":"http://127.0.0.1:8080/v1/chat/completions",
//!  "model":"tiny-random-llama","settings":{"seed":11},"prompt_tokens":27,"finish_reason":"length",
//!  "text":" been develop","tokens":[" been"," develop"],"logprobs":[-2.0657,-2.1825],
//!  "top_logprobs":[[[" been",-2.0657],["noun",-2.6389]],[[" develop",-2.1825],[" feet",-2.8839]]]}
//! ```
//!
//! `coherency_golden` is the schema (1; raised when a field changes meaning or goes, not when
//! one is added). `server` and `model` are as the server reported them (`null` when unknown);
//! `settings` the request's settings that were recorded. `tokens`, `logprobs` (a number or
//! `null` each) and `top_logprobs` (a list of `[token, logprob]` each) run in parallel, empty
//! when the server sent no logprobs; `token_bytes` (each token's bytes, or `null` where its text
//! says them) is written only when a token is part of a character.

use super::output::Output;
use crate::stream::TokenLogprob;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// The schema written, and the newest read.
pub const GOLDEN_SCHEMA: u64 = 1;
/// How every line of a golden file starts: what tells it from other files.
pub const GOLDEN_LINE_START: &str = "{\"coherency_golden\":";

/// One output as a golden line (no line break).
pub fn golden_line(o: &Output) -> String {
    let mut m = Map::new();
    m.insert("id".into(), json!(o.id));
    m.insert("prompt".into(), json!(o.prompt));
    m.insert("server".into(), json!(o.server));
    m.insert("model".into(), json!(o.model));
    m.insert("settings".into(), o.settings.clone());
    m.insert("prompt_tokens".into(), json!(o.prompt_tokens));
    m.insert("finish_reason".into(), json!(o.finish_reason));
    m.insert("text".into(), json!(o.text));
    m.insert("tokens".into(), json!(o.tokens.iter().map(|t| t.token.as_str()).collect::<Vec<_>>()));
    m.insert("logprobs".into(), json!(o.tokens.iter().map(|t| t.logprob).collect::<Vec<_>>()));
    let top: Vec<Vec<(&str, f64)>> =
        o.tokens.iter().map(|t| t.top.iter().map(|(s, l)| (s.as_str(), *l)).collect()).collect();
    m.insert("top_logprobs".into(), json!(top));
    if o.tokens.iter().any(|t| t.bytes.is_some()) {
        m.insert("token_bytes".into(), json!(o.tokens.iter().map(|t| t.bytes.clone()).collect::<Vec<_>>()));
    }
    let body = Value::Object(m).to_string();
    // `{"coherency_golden":1,` then the rest of the object.
    format!("{GOLDEN_LINE_START}{GOLDEN_SCHEMA},{}", &body[1..])
}

/// Outputs as a golden file.
pub fn golden_file<'a>(outputs: impl IntoIterator<Item = &'a Output>) -> String {
    outputs.into_iter().map(|o| golden_line(o) + "\n").collect()
}

/// A golden line as read: every field optional, so that what is missing is named.
#[derive(Deserialize)]
struct GoldenIn {
    coherency_golden: Option<u64>,
    id: Option<String>,
    prompt: Option<String>,
    server: Option<String>,
    model: Option<String>,
    #[serde(default)]
    settings: Value,
    prompt_tokens: Option<u64>,
    finish_reason: Option<String>,
    text: Option<String>,
    #[serde(default)]
    tokens: Vec<Value>,
    #[serde(default)]
    logprobs: Vec<Option<f64>>,
    #[serde(default)]
    top_logprobs: Vec<Vec<(String, f64)>>,
    #[serde(default)]
    token_bytes: Vec<Option<Vec<u8>>>,
}

/// Reads one golden line, or says what is wrong with it.
pub fn read_golden_line(line: &[u8]) -> Result<Output, String> {
    let g: GoldenIn = serde_json::from_slice(line).map_err(|e| format!("not a golden line: {e}"))?;
    let schema = g.coherency_golden.ok_or("no \"coherency_golden\" schema number")?;
    if schema > GOLDEN_SCHEMA {
        return Err(format!(
            "written with golden schema {schema}; this version reads schema {GOLDEN_SCHEMA} (a newer coherency wrote it)"
        ));
    }
    let id = g.id.ok_or("no \"id\"")?;
    let (mut logprobs, mut top, mut bytes) =
        (g.logprobs.into_iter(), g.top_logprobs.into_iter(), g.token_bytes.into_iter());
    let mut tokens = Vec::with_capacity(g.tokens.len());
    for (k, t) in g.tokens.into_iter().enumerate() {
        let Value::String(token) = t else { return Err(format!("token {} is not a string", k + 1)) };
        tokens.push(TokenLogprob {
            token,
            bytes: bytes.next().flatten(),
            logprob: logprobs.next().flatten(),
            top: top.next().unwrap_or_default(),
        });
    }
    Ok(Output {
        id,
        prompt: g.prompt,
        text: g.text.unwrap_or_default(),
        tokens,
        prompt_tokens: g.prompt_tokens,
        finish_reason: g.finish_reason,
        server: g.server,
        model: g.model,
        settings: g.settings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_golden_line_reads_back_to_its_output() {
        let o = Output {
            id: "prompt 1".into(),
            prompt: Some("Say \"hi\"".into()),
            text: " beené".into(),
            tokens: vec![
                TokenLogprob {
                    token: " been".into(),
                    bytes: None,
                    logprob: Some(-2.065725326538086),
                    top: vec![(" been".into(), -2.065725326538086), ("noun".into(), -2.6389)],
                },
                TokenLogprob { token: "\u{FFFD}".into(), bytes: Some(vec![195]), logprob: None, top: vec![] },
                TokenLogprob { token: "\u{FFFD}".into(), bytes: Some(vec![169]), logprob: Some(-0.5), top: vec![] },
            ],
            prompt_tokens: Some(27),
            finish_reason: Some("length".into()),
            server: Some("http://127.0.0.1:8080/v1/chat/completions".into()),
            model: Some("tiny".into()),
            settings: json!({"seed": 11, "temperature": 0}),
        };
        let line = golden_line(&o);
        assert!(line.starts_with(GOLDEN_LINE_START) && !line.contains('\n'));
        assert_eq!(read_golden_line(line.as_bytes()).unwrap(), o);
        assert_eq!(o.compared_bytes(), " beené".as_bytes());
        let bare = Output { id: "x".into(), text: "hello".into(), ..Output::default() };
        assert_eq!(read_golden_line(golden_line(&bare).as_bytes()).unwrap(), bare);
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(read_golden_line(b"nope").unwrap_err().starts_with("not a golden line"));
        assert_eq!(read_golden_line(b"{\"id\":\"a\"}").unwrap_err(), "no \"coherency_golden\" schema number");
        assert!(read_golden_line(b"{\"coherency_golden\":9,\"id\":\"a\"}").unwrap_err().contains("schema 9"));
        assert_eq!(read_golden_line(b"{\"coherency_golden\":1}").unwrap_err(), "no \"id\"");
        assert!(read_golden_line(b"{\"coherency_golden\":1,\"id\":\"a\",\"tokens\":[3]}")
            .unwrap_err()
            .contains("token 1"));
    }
}
