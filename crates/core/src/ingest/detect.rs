//! Format detection: looks at the start of the input and names its [`Format`].
//!
//! Cheap on big inputs: it reads the first line (and for SSE the first events), never the
//! whole file, except to tell a single pretty-printed JSON document from a JSONL log.

use super::format::Format;
use super::http_head::http_head;
use super::lines::jsonl_lines;
use crate::stream::{split_joined, Shaped, SseDecoder, SseEvent};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

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
    if rest.starts_with(super::live_captures::LINE_START.as_bytes()) {
        return Format::LiveCaptures;
    }
    if let Some(harness) = super::harness::detect::harness(rest) {
        return harness;
    }
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
    choices: Option<IgnoredAny>,
    #[serde(default)]
    message: Option<IgnoredAny>,
    #[serde(default)]
    messages: Option<Dialect>,
    #[serde(default)]
    done: Option<IgnoredAny>,
    #[serde(default)]
    request: Option<Nested>,
    #[serde(default)]
    response: Option<Nested>,
    #[serde(default)]
    body: Option<Nested>,
    #[serde(default)]
    prompt: Option<IgnoredAny>,
    #[serde(default)]
    error: Option<IgnoredAny>,
    #[serde(default)]
    detail: Option<IgnoredAny>,
    #[serde(default)]
    uuid: Option<IgnoredAny>,
    #[serde(default, rename = "sessionId")]
    session_id: Option<IgnoredAny>,
    #[serde(default, rename = "leafUuid")]
    leaf_uuid: Option<IgnoredAny>,
    // Anthropic and Responses bodies.
    #[serde(default)]
    role: Option<IgnoredAny>,
    #[serde(default)]
    content: Option<Dialect>,
    #[serde(default)]
    system: Option<IgnoredAny>,
    #[serde(default)]
    input: Option<Dialect>,
    #[serde(default)]
    instructions: Option<IgnoredAny>,
    #[serde(default)]
    output: Option<Dialect>,
}

impl Probe {
    fn kind(&self) -> &str {
        self.kind.as_ref().and_then(|k| k.as_str()).unwrap_or("")
    }

    fn object(&self) -> &str {
        self.object.as_ref().and_then(|o| o.as_str()).unwrap_or("")
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
        } else if self.exchange() || self.object() == "response" || (self.kind() == "message" && self.content.is_some())
        {
            Some(Format::Jsonl)
        } else {
            None
        }
    }

    /// The format of a whole document made of this one object.
    fn document_format(&self) -> Option<Format> {
        let completion = self.object().starts_with("chat.completion");
        if self.choices.is_some()
            || completion
            || ((self.error.is_some() || self.detail.is_some()) && self.kind.is_none())
        {
            return Some(Format::OpenaiJson);
        }
        if self.kind() == "error" && self.error.is_some() {
            return Some(Format::AnthropicJson);
        }
        match self.line_format() {
            Some(f @ (Format::OllamaNdjson | Format::SessionJsonl)) => return Some(f),
            Some(_) => {}
            None if self.is_message() => {}
            None => return None,
        }
        let said = [&self.messages, &self.content, &self.input, &self.output].into_iter().flatten();
        let seen = said.fold(Dialect::default(), |a, b| a.or(*b));
        if seen.anthropic || (self.system.is_some() && self.messages.is_some()) {
            Some(Format::AnthropicJson)
        } else if seen.responses
            || self.object() == "response"
            || self.input.is_some()
            || self.instructions.is_some()
            || responses_item(self.kind())
        {
            Some(Format::ResponsesJson)
        } else if self.kind() == "message" && self.role.is_some() {
            Some(Format::AnthropicJson)
        } else {
            // A record wrapping another API's request or reply says so inside.
            let nested = [&self.request, &self.body, &self.response].into_iter().flatten();
            let inner = nested.filter_map(|n| n.object()?.document_format()).find(|&f| f != Format::OpenaiJson);
            Some(inner.unwrap_or(Format::OpenaiJson))
        }
    }

    /// A message or a Responses item (an element of a history), not a request or a reply.
    fn is_message(&self) -> bool {
        let kind = self.kind();
        if responses_item(kind) || kind == "message" {
            return true;
        }
        self.role.is_some() && self.content.is_some() && !self.exchange()
    }

    /// Holds a request or a reply: what was sent, or what came back.
    fn exchange(&self) -> bool {
        self.messages.is_some()
            || self.system.is_some()
            || self.instructions.is_some()
            || self.input.is_some()
            || self.prompt.is_some()
            || self.request.is_some()
            || self.choices.is_some()
            || self.response.is_some()
            || self.output.is_some()
            || self.body.is_some()
    }
}

/// A Responses item type other than `message`.
fn responses_item(kind: &str) -> bool {
    kind == "reasoning" || kind.ends_with("_call") || kind.ends_with("_call_output")
}

fn probe(bytes: &[u8]) -> Option<Probe> {
    serde_json::from_slice::<Probe>(bytes).ok()
}

/// Whether `bytes` (an element of a whole JSON document's array) is a message or a Responses
/// item, to be read as part of one history, rather than a request or a reply.
pub fn is_history_item(bytes: &[u8]) -> bool {
    probe(bytes).is_some_and(|p| p.is_message())
}

/// A request or response inside a record: its probe when it is an object.
type Nested = Shaped<Box<Probe>>;

/// Which API's content blocks or items a value holds: the `type`s found at any depth.
#[derive(Clone, Copy, Debug, Default)]
struct Dialect {
    anthropic: bool,
    responses: bool,
}

impl Dialect {
    fn or(self, other: Dialect) -> Dialect {
        Dialect { anthropic: self.anthropic || other.anthropic, responses: self.responses || other.responses }
    }

    fn of_type(kind: &str) -> Dialect {
        let anthropic =
            matches!(kind, "tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "server_tool_use");
        let responses = matches!(kind, "input_text" | "output_text" | "summary_text" | "input_image" | "input_file")
            || responses_item(kind);
        Dialect { anthropic, responses }
    }
}

impl<'de> Deserialize<'de> for Dialect {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Dialect;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Dialect, A::Error> {
                let mut seen = Dialect::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    let found = if key == "type" {
                        match map.next_value::<serde_json::Value>()? {
                            serde_json::Value::String(kind) => Dialect::of_type(&kind),
                            _ => Dialect::default(),
                        }
                    } else {
                        map.next_value::<Dialect>()?
                    };
                    seen = seen.or(found);
                }
                Ok(seen)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Dialect, A::Error> {
                let mut seen = Dialect::default();
                while let Some(d) = seq.next_element::<Dialect>()? {
                    seen = seen.or(d);
                }
                Ok(seen)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Dialect, E> {
                Ok(Dialect::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Dialect, E> {
                Ok(Dialect::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Dialect, E> {
                Ok(Dialect::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Dialect, E> {
                Ok(Dialect::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Dialect, E> {
                Ok(Dialect::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Dialect, E> {
                Ok(Dialect::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// Elements of a JSON array the detection looks at: the first ones say what the array holds
/// (a 1 GB array of completions is not parsed whole to name its format).
const ARRAY_PROBE: usize = 64;

/// The format of a JSON array, from its first [`ARRAY_PROBE`] elements that are objects.
fn array_format(body: &[u8]) -> Option<Format> {
    let elements = super::json_scan::array_elements(body)?;
    let items: Vec<Nested> = elements
        .into_iter()
        .take(ARRAY_PROBE)
        .filter_map(|r| serde_json::from_slice::<Nested>(&body[r]).ok())
        .collect();
    let probes: Vec<&Probe> = items.iter().filter_map(|n| n.object().map(|p| &**p)).collect();
    let completion = |p: &&Probe| p.choices.is_some() || p.error.is_some();
    if probes.iter().any(completion) {
        return Some(Format::OpenaiJson);
    }
    probes.iter().find_map(|p| p.document_format())
}

/// JSON document, JSONL log (of which kind), or text that merely starts with a brace.
fn json_flavor(body: &[u8]) -> Format {
    let mut lines = jsonl_lines(body);
    let Some((_, first)) = lines.next() else { return Format::Text };
    let first_is_json = serde_json::from_slice::<IgnoredAny>(&body[first.clone()]).is_ok();
    let more = lines.next();
    if first_is_json && more.is_some() {
        // JSONL: the first lines that say what they are decide.
        let candidates =
            std::iter::once(first).chain(more.map(|(_, r)| r)).chain(jsonl_lines(body).skip(2).map(|(_, r)| r));
        return candidates.take(8).find_map(|r| probe(&body[r])?.line_format()).unwrap_or(Format::Text);
    }
    match serde_json::from_slice::<IgnoredAny>(body) {
        Ok(_) if body.trim_ascii_start().starts_with(b"[") => array_format(body).unwrap_or(Format::Text),
        Ok(_) => probe(body).and_then(|p| p.document_format()).unwrap_or(Format::Text),
        // Cut short: a reply or a request that lost its end. Other errors: text that starts
        // with a brace, unless the lines after the first are JSON records.
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
    // The probe ends at the last whole line: a `data:` line cut in two (by the probe's end, or
    // a capture's) is no JSON, and would make a capture without blank lines between its events
    // read as prose.
    let mut head = &body[..body.len().min(HEAD)];
    if let Some(end) = head.iter().rposition(|&b| b == b'\n') {
        head = &head[..=end];
    }
    let mut d = SseDecoder::new();
    let mut events = d.feed(head);
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
    fn a_capture_without_blank_lines_is_a_stream_wherever_the_probe_ends() {
        // Every length around the probe's end: the line it cuts is left out of the probe.
        let line = |k: usize| format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"w{k} \"}}}}]}}\n");
        let mut capture = String::new();
        let mut k = 0;
        while capture.len() < HEAD + 200 {
            capture += &line(k);
            k += 1;
        }
        for cut in HEAD - 80..HEAD + 120 {
            assert_eq!(detect(&capture.as_bytes()[..cut.min(capture.len())]), Format::Sse, "cut at {cut}");
        }
    }

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
            // Whole documents of histories: request bodies (pretty-printed or not), records,
            // replies and arrays, of each API.
            ("{\n  \"model\": \"m\",\n  \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]\n}\n", Format::OpenaiJson),
            ("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", Format::OpenaiJson),
            ("{\"request\":{\"messages\":[]},\n\"response\":{\"choices\":[]}}", Format::OpenaiJson),
            ("[{\"role\":\"user\",\"content\":\"a\"},\n{\"role\":\"assistant\",\"content\":\"b\"}]", Format::OpenaiJson),
            ("{\"model\":\"m\",\"system\":\"s\",\"messages\":[]}", Format::AnthropicJson),
            ("{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\"}]}]}", Format::AnthropicJson),
            ("{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}", Format::AnthropicJson),
            ("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}", Format::AnthropicJson),
            ("[{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"t\"}]}]", Format::AnthropicJson),
            ("{\"request\":{\"system\":\"s\",\"messages\":[]},\"response\":{\"type\":\"message\",\"content\":[]}}", Format::AnthropicJson),
            ("{\"model\":\"m\",\"input\":\"hi\"}", Format::ResponsesJson),
            ("{\"instructions\":\"i\",\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"x\"}]}]}", Format::ResponsesJson),
            ("{\"object\":\"response\",\"output\":[]}", Format::ResponsesJson),
            ("[{\"type\":\"function_call\",\"call_id\":\"c\",\"arguments\":\"{}\"}]", Format::ResponsesJson),
            ("{\"input\":\"a\"}\n{\"input\":\"b\",\"output\":\"c\"}\n", Format::Jsonl),
            ("{\"type\":\"message\",\"content\":[]}\n{\"type\":\"message\",\"content\":[]}\n", Format::Jsonl),
            // JSON that is none of these stays text.
            ("{\"role\":\"admin\",\"name\":\"bob\"}", Format::Text),
            ("[1, 2, {\"a\": 1}]", Format::Text),
            ("{\"type\":\"config\",\"version\":2}", Format::Text),
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
