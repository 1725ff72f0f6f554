//! Format detection: looks at the start of the input and names its [`Format`].
//!
//! Cheap on big inputs: it reads the first line (and for SSE the first events), never the
//! whole file, except to tell a single pretty-printed JSON document from a JSONL log.

use super::format::Format;
use super::http_head::http_head;
use super::lines::jsonl_lines;
use crate::stream::{split_joined, SseDecoder, SseEvent};
use serde::Deserialize;

/// How much of the input the binary check and the SSE sniffing look at.
const HEAD: usize = 16 * 1024;

/// Names the format of `input`. Falls back to [`Format::Text`]. A saved HTTP response
/// (`curl -i`) is named by its body.
pub fn detect(input: &[u8]) -> Format {
    if binary_reason(input).is_some() {
        return Format::Binary;
    }
    let input = match http_head(input) {
        Some(head) => &input[head.body_start..],
        None => input,
    };
    let body = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let start = body.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(body.len());
    let rest = &body[start..];
    let sse_field = |f: &[u8]| rest.starts_with(f);
    if [&b"data:"[..], b"event:", b":", b"id:", b"retry:"].into_iter().any(sse_field) {
        return sse_flavor(body);
    }
    if rest.starts_with(b"{") || rest.starts_with(b"[") {
        return json_flavor(body);
    }
    Format::Text
}

/// Why `input` is not text, if it is not: a known binary signature, NUL bytes, or too many
/// bytes that are neither UTF-8 nor ordinary control characters.
pub fn binary_reason(input: &[u8]) -> Option<String> {
    const MAGIC: [(&[u8], &str); 8] = [
        (b"\x1f\x8b", "gzip-compressed data"),
        (b"PK\x03\x04", "a zip archive"),
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF-", "a PDF document"),
        (b"\x7fELF", "an executable"),
        (b"\0asm", "a WebAssembly module"),
    ];
    if let Some((_, what)) = MAGIC.iter().find(|(m, _)| input.starts_with(m)) {
        return Some(format!("this is {what}, not text"));
    }
    let head = &input[..input.len().min(HEAD)];
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
        return Some("this is UTF-16 text; save it as UTF-8 to analyse it".into());
    }
    if head.contains(&0) {
        return Some("it holds NUL bytes, so it is not text".into());
    }
    let (mut bad, mut rest) = (0usize, head);
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                bad += s.bytes().filter(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b)).count();
                break;
            }
            Err(e) => {
                let (ok, after) = rest.split_at(e.valid_up_to());
                bad += ok.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b)).count();
                match e.error_len() {
                    Some(n) => {
                        bad += n;
                        rest = &after[n..];
                    }
                    // A character cut by the end of the head: fine.
                    None => break,
                }
            }
        }
    }
    // A few stray bytes are a damaged text file (decoded lossily, with a diagnostic);
    // more than 10% is not text.
    (bad * 10 > head.len()).then(|| format!("{bad} of its first {} bytes are not text", head.len()))
}

/// The fields that tell JSON shapes apart.
#[derive(Default, Deserialize)]
struct Probe {
    #[serde(default, rename = "type")]
    kind: Option<serde_json::Value>,
    #[serde(default)]
    object: Option<serde_json::Value>,
    #[serde(default)]
    choices: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    message: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    messages: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    done: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    request: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    response: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    body: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    prompt: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    detail: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    uuid: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "sessionId")]
    session_id: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "leafUuid")]
    leaf_uuid: Option<serde::de::IgnoredAny>,
}

impl Probe {
    fn kind(&self) -> &str {
        self.kind.as_ref().and_then(|k| k.as_str()).unwrap_or("")
    }

    /// The line-per-record format this object belongs to, if any.
    fn line_format(&self) -> Option<Format> {
        if self.done.is_some() && (self.message.is_some() || self.response.is_some()) {
            Some(Format::OllamaNdjson)
        } else if self.kind.is_some() && (self.uuid.is_some() || self.session_id.is_some() || self.leaf_uuid.is_some())
            || self.kind() == "user"
            || self.kind() == "assistant"
        {
            Some(Format::SessionJsonl)
        } else if self.choices.is_some()
            || self.messages.is_some()
            || self.request.is_some()
            || self.response.is_some()
            || self.body.is_some()
            || self.prompt.is_some()
        {
            Some(Format::Jsonl)
        } else {
            None
        }
    }

    /// The format of a whole document made of this one object.
    fn document_format(&self) -> Option<Format> {
        let completion =
            self.object.as_ref().and_then(|o| o.as_str()).is_some_and(|o| o.starts_with("chat.completion"));
        if self.choices.is_some()
            || completion
            || ((self.error.is_some() || self.detail.is_some()) && self.kind.is_none())
        {
            Some(Format::OpenaiJson)
        } else {
            self.line_format()
        }
    }
}

fn probe(bytes: &[u8]) -> Option<Probe> {
    serde_json::from_slice::<Probe>(bytes).ok()
}

/// JSON document, JSONL log (of which kind), or text that merely starts with a brace.
fn json_flavor(body: &[u8]) -> Format {
    let mut lines = jsonl_lines(body);
    let Some((_, first)) = lines.next() else { return Format::Text };
    let first_is_json = serde_json::from_slice::<serde::de::IgnoredAny>(&body[first.clone()]).is_ok();
    let more = lines.next();
    if first_is_json && more.is_some() {
        // JSONL: the first lines that say what they are decide.
        let candidates =
            std::iter::once(first).chain(more.map(|(_, r)| r)).chain(jsonl_lines(body).skip(2).map(|(_, r)| r));
        return candidates.take(8).find_map(|r| probe(&body[r])?.line_format()).unwrap_or(Format::Text);
    }
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Array(items)) => {
            let is_completion = |v: &serde_json::Value| v.get("choices").is_some() || v.get("error").is_some();
            if !items.is_empty() && items.iter().any(is_completion) {
                Format::OpenaiJson
            } else {
                Format::Text
            }
        }
        // Parsed again from the bytes: one Probe parser for every use (a smaller wasm).
        Ok(_) => probe(body).and_then(|p| p.document_format()).unwrap_or(Format::Text),
        // Cut short: a reply that lost its end. Other errors: text that starts with a brace,
        // unless the lines after the first are JSON records.
        Err(e) if e.is_eof() => Format::OpenaiJson,
        Err(_) => {
            jsonl_lines(body).skip(1).take(8).find_map(|(_, r)| probe(&body[r])?.line_format()).unwrap_or(Format::Text)
        }
    }
}

/// Which event stream: Responses, Anthropic, or OpenAI chat chunks. `Text` when the lines
/// that look like SSE fields carry no JSON (prose that happens to start with `data:` or `:`).
fn sse_flavor(body: &[u8]) -> Format {
    #[derive(Deserialize)]
    struct Typed {
        #[serde(default, rename = "type")]
        kind: Option<String>,
    }
    let mut d = SseDecoder::new();
    let mut events = d.feed(&body[..body.len().min(HEAD)]);
    events.extend(d.finish());
    let (mut chat, mut comments, mut problems) = (false, 0, 0);
    for e in events.iter().take(64) {
        let m = match e {
            SseEvent::Message(m) => m,
            SseEvent::Comment { .. } => {
                comments += 1;
                continue;
            }
            SseEvent::Problem { .. } => {
                problems += 1;
                continue;
            }
        };
        let data = split_joined(&m.data).and_then(|lines| lines.first().copied()).unwrap_or(&m.data);
        let Ok(typed) = serde_json::from_slice::<Typed>(data.as_bytes()) else {
            chat |= data.trim() == "[DONE]";
            continue;
        };
        let name = typed.kind.as_deref().or(m.event.as_deref()).unwrap_or("");
        if name.starts_with("response.") {
            return Format::ResponsesSse;
        }
        if matches!(
            name,
            "message_start" | "content_block_start" | "content_block_delta" | "message_delta" | "message_stop"
        ) {
            return Format::AnthropicSse;
        }
        chat = true;
    }
    // Only keep-alive comments (a stream that never got to its first chunk) is still a stream.
    if chat || (comments > 0 && problems == 0) {
        Format::Sse
    } else {
        Format::Text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let cases: &[(&str, Format)] = &[
            ("", Format::Text),
            ("hello\n", Format::Text),
            ("{ not json at all", Format::Text),
            ("\u{feff}data: {\"choices\":[]}\n\n", Format::Sse),
            (": keep-alive\n\ndata: {}\n\n", Format::Sse),
            (": keep-alive\n\n", Format::Sse),
            ("data: the new oil, they said.\nAnd so on.\n", Format::Text),
            (":) fine\nthanks\n", Format::Text),
            ("data: {\"choices\":[]}\ndata: {\"choices\":[]}\n", Format::Sse),
            ("event: response.created\ndata: {}\n\n", Format::ResponsesSse),
            ("data: {\"type\":\"message_start\"}\n\n", Format::AnthropicSse),
            ("event: ping\ndata: {\"type\": \"ping\"}\n\nevent: message_start\ndata: {}\n\n", Format::AnthropicSse),
            ("{\"choices\":[]}", Format::OpenaiJson),
            ("[{\"choices\":[]},{\"choices\":[]}]", Format::OpenaiJson),
            ("{\"choices\":[{\"message\":{\"content\":\"cut", Format::OpenaiJson),
            ("{\"error\":{\"message\":\"x\"}}", Format::OpenaiJson),
            ("{\"message\":{\"content\":\"a\"},\"done\":false}\n{\"done\":true}\n", Format::OllamaNdjson),
            ("{\"request\":{},\"response\":{}}\n{\"request\":{}}\n", Format::Jsonl),
            ("{not json\n{\"messages\":[]}\n", Format::Jsonl),
            ("{\"type\":\"user\",\"uuid\":\"u\",\"message\":{}}\n{}\n", Format::SessionJsonl),
            ("{\"a\":1}\n{\"b\":2}\n", Format::Text),
            ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\ndata: {\"choices\":[]}\r\n\r\n", Format::Sse),
            ("HTTP/1.1 401 Unauthorized\r\n\r\n{\"detail\":\"Invalid API key\"}", Format::OpenaiJson),
        ];
        for (input, want) in cases {
            assert_eq!(detect(input.as_bytes()), *want, "{input:?}");
        }
    }

    #[test]
    fn binary() {
        assert_eq!(detect(b"\x1f\x8b\x08\0"), Format::Binary);
        assert_eq!(detect(b"abc\0def"), Format::Binary);
        assert_eq!(detect(&[0xffu8; 100]), Format::Binary);
        assert_eq!(detect(b"mostly fine text with one bad byte \xff here, and more text"), Format::Text);
        assert!(binary_reason(&[0xc3]).is_none());
    }
}
