//! JSONL request/response logs: one record per line, each record one conversation.
//!
//! A record may hold the request (`request.messages`, `request.body.messages`, `body.messages`
//! as in OpenAI batch files, or top-level `messages`, or a `prompt` string) and the response
//! (`response`, `response.body` as in batch output, `completion`, `output`: a chat completion,
//! an Ollama reply, or a plain string), or be a bare chat completion. Every request message
//! and every reply becomes messages of that conversation, in order. Lines that are streamed
//! chunks (`chat.completion.chunk`: a stream saved as JSON lines) are assembled into one more
//! conversation, with its stream info. A bad line is one diagnostic; the other lines are
//! still read.

use super::builder::{Builder, Origin};
use super::lines::{trim_ascii_range, LineIndex};
use super::openai::{message_turn, push_completion};
use super::transcript::{Channel, Transcript};
use super::Format;
use crate::stream::lenient_text;
use crate::stream::openai_wire::{Choice, Completion, MessageIn, UsageIn};
use crate::stream::ChatAssembler;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use std::ops::Range;

#[derive(Default, Deserialize)]
struct Record {
    #[serde(default)]
    object: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    request: Option<Request>,
    #[serde(default)]
    body: Option<Request>,
    #[serde(default)]
    messages: Option<Vec<MessageIn>>,
    #[serde(default, deserialize_with = "lenient_text")]
    prompt: Option<String>,
    #[serde(default, alias = "completion", alias = "output")]
    response: Option<ResponseField>,
    #[serde(default)]
    choices: Option<Vec<Choice>>,
    #[serde(default)]
    usage: Option<UsageIn>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Default, Deserialize)]
struct Request {
    #[serde(default)]
    messages: Option<Vec<MessageIn>>,
    #[serde(default, deserialize_with = "lenient_text")]
    prompt: Option<String>,
    #[serde(default)]
    body: Option<Box<Request>>,
}

impl Request {
    fn into_parts(self) -> (Option<Vec<MessageIn>>, Option<String>) {
        match (self.messages, self.prompt, self.body) {
            (None, None, Some(body)) => body.into_parts(),
            (m, p, _) => (m, p),
        }
    }
}

#[derive(Default, Deserialize)]
struct Response {
    #[serde(default)]
    choices: Option<Vec<Choice>>,
    #[serde(default)]
    usage: Option<UsageIn>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    error: Option<serde_json::Value>,
    #[serde(default)]
    detail: Option<serde_json::Value>,
    /// Ollama native reply.
    #[serde(default)]
    message: Option<MessageIn>,
    /// Batch output wraps the completion: `{"status_code":200,"body":{…}}`.
    #[serde(default)]
    body: Option<Box<Response>>,
}

/// A response object, or a plain string (the reply's text).
enum ResponseField {
    Text(String),
    Object(Box<Response>),
}

impl<'de> Deserialize<'de> for ResponseField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ResponseField;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a response object or its text")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ResponseField, E> {
                Ok(ResponseField::Text(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<ResponseField, E> {
                Ok(ResponseField::Text(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ResponseField, A::Error> {
                Response::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|r| ResponseField::Object(Box::new(r)))
            }
        }
        d.deserialize_any(V)
    }
}

impl Response {
    /// Unwraps batch-output nesting and turns an Ollama reply into a completion.
    fn into_completion(self) -> Completion {
        match self {
            Response { choices: None, message: None, body: Some(inner), .. } => inner.into_completion(),
            r => {
                let choices = match (r.choices, r.message) {
                    (None, Some(m)) => Some(vec![Choice { message: Some(m), ..Choice::default() }]),
                    (c, _) => c,
                };
                Completion { model: r.model, choices, usage: r.usage, error: r.error, detail: r.detail }
            }
        }
    }
}

pub fn parse(input: &[u8]) -> Transcript {
    let mut log = LogReader::new();
    log.feed(input);
    log.finish()
}

/// A log read in pieces of any size: each line is parsed as soon as it ends, so the whole
/// document is never held. The transcript equals [`parse`] of the whole (ranges and line
/// numbers count from the document's start; streamed chunks still form one conversation).
pub struct LogReader {
    b: Builder<'static>,
    conversation: usize,
    chunks: Option<ChatAssembler>,
    /// Line starts as [`LineIndex`] counts them, for the chunks' own sources.
    lines: LineIndex,
    /// Lines ended so far.
    line: usize,
    /// Where the line not ended yet starts, and its bytes so far.
    line_start: usize,
    pending: Vec<u8>,
    /// Bytes fed so far.
    len: usize,
}

impl Default for LogReader {
    fn default() -> Self {
        Self::new()
    }
}

impl LogReader {
    pub fn new() -> Self {
        LogReader {
            b: Builder::new(&[], Format::Jsonl),
            conversation: 0,
            chunks: None,
            lines: LineIndex::new(&[]),
            line: 0,
            line_start: 0,
            pending: Vec::new(),
            len: 0,
        }
    }

    /// Messages read so far.
    pub fn messages(&self) -> usize {
        self.b.t.messages.len()
    }

    /// Reads the next bytes of the document.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len();
        while let Some(k) = bytes.iter().position(|&b| b == b'\n') {
            if self.pending.is_empty() {
                self.end_line(&bytes[..k], true);
            } else {
                let mut line = std::mem::take(&mut self.pending);
                line.extend_from_slice(&bytes[..k]);
                self.end_line(&line, true);
                line.clear();
                self.pending = line;
            }
            bytes = &bytes[k + 1..];
        }
        self.pending.extend_from_slice(bytes);
    }

    /// One whole line (without its LF): its line starts, then its record if it is not blank.
    fn end_line(&mut self, bytes: &[u8], ended: bool) {
        let start = self.line_start;
        self.line += 1;
        self.lines.push_line(start, bytes, ended);
        self.line_start = start + bytes.len() + 1;
        let skip = if self.line == 1 && bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        let r = trim_ascii_range(bytes, skip..bytes.len());
        if !r.is_empty() {
            self.record(self.line, start + r.start..start + r.end, &bytes[r]);
        }
    }

    /// Reads one record: line `line_no`, bytes `range` of the document.
    fn record(&mut self, line_no: usize, range: Range<usize>, bytes: &[u8]) {
        let b = &mut self.b;
        let conversation = self.conversation;
        let at = Origin::new(range.clone(), Some(line_no));
        let record = match serde_json::from_slice::<Record>(bytes) {
            Ok(r) => r,
            Err(e) => {
                b.json_diag(at, "not a request/response record", &e);
                return;
            }
        };
        if record.object.as_deref().is_some_and(|o| o.starts_with("chat.completion.chunk")) {
            let c = Completion {
                model: record.model,
                choices: record.choices,
                usage: record.usage,
                error: record.error,
                detail: None,
            };
            self.chunks.get_or_insert_with(ChatAssembler::new).push_completion(c, range);
            return;
        }
        let first = b.t.messages.len();
        let errors = b.t.diagnostics.len();
        let (messages, prompt) = match (record.request.or(record.body), record.messages, record.prompt) {
            (Some(req), None, None) => req.into_parts(),
            (_, m, p) => (m, p),
        };
        let mut index = 0;
        if let Some(p) = prompt {
            b.message((conversation, index), "user", Channel::Content, None, p, at.clone());
            index += 1;
        }
        for m in messages.into_iter().flatten() {
            b.turn((conversation, index), message_turn(m), &at);
            index += 1;
        }
        let response = match record.response {
            Some(ResponseField::Object(r)) => Some(r.into_completion()),
            Some(ResponseField::Text(text)) => {
                b.message((conversation, index), "assistant", Channel::Content, None, text, at.clone());
                None
            }
            None if record.choices.is_some() || record.error.is_some() => Some(Completion {
                choices: record.choices,
                usage: record.usage,
                error: record.error,
                model: record.model,
                detail: None,
            }),
            None => None,
        };
        if let Some(c) = response {
            let mut choice_conv = conversation;
            // push_completion numbers choices as conversations; here they stay in the record's
            // conversation, as consecutive turns (so two choices are never analysed combined).
            let before = b.t.messages.len();
            push_completion(b, c, &mut choice_conv, index, &at);
            for m in &mut b.t.messages[before..] {
                m.index = index + (m.conversation - conversation);
                m.conversation = conversation;
            }
        }
        if b.t.messages.len() > first {
            self.conversation += 1;
        } else if b.t.diagnostics.len() == errors {
            b.diag(at, "no request messages or response text in this record");
        }
    }

    /// The transcript, once every byte was fed.
    pub fn finish(mut self) -> Transcript {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.end_line(&line, false);
        }
        let LogReader { mut b, mut conversation, chunks, lines, len, .. } = self;
        b.set_document(lines, len);
        if let Some(a) = chunks {
            let (turns, info) = a.finish();
            let whole = Origin::new(0..len, Some(1));
            for turn in turns {
                b.turn((conversation, 0), turn, &whole);
                conversation += 1;
            }
            b.t.stream = Some(info);
        }
        b.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(t: &Transcript) -> Vec<String> {
        t.messages
            .iter()
            .map(|m| format!("{}.{} {} {} {:?}", m.conversation, m.index, m.role, m.channel.as_str(), m.text))
            .collect()
    }

    #[test]
    fn record_shapes() {
        let input = br#"{"request":{"messages":[{"role":"user","content":"q1"}]},"response":{"choices":[{"message":{"role":"assistant","content":"a1"}}]}}
{"custom_id":"x","response":{"status_code":200,"body":{"choices":[{"message":{"content":"a2"}}]}}}
oops
{"messages":[{"role":"system","content":[{"type":"text","text":"s"}]},{"role":"tool","content":"r"}],"response":"a3"}
{"prompt":"p","response":{"message":{"role":"assistant","content":"a4","thinking":"t4"},"done":true}}
{"unrelated":1}
{"messages":[{"role":"user","content":"q"}],"response":{"choices":[{"index":1,"message":{"content":"y"}},{"index":0,"message":{"content":"x"}}]}}
"#;
        let t = parse(input);
        assert_eq!(
            summary(&t),
            vec![
                "0.0 user content \"q1\"",
                "0.1 assistant content \"a1\"",
                "1.0 assistant content \"a2\"",
                "2.0 system content \"s\"",
                "2.1 tool tool \"r\"",
                "2.2 assistant content \"a3\"",
                "3.0 user content \"p\"",
                "3.1 assistant reasoning \"t4\"",
                "3.1 assistant content \"a4\"",
                "4.0 user content \"q\"",
                "4.1 assistant content \"x\"",
                "4.2 assistant content \"y\"",
            ]
        );
        let lines: Vec<Option<usize>> = t.diagnostics.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![Some(3), Some(6)]);
        assert_eq!(t.messages[2].line, Some(2));
    }

    #[test]
    fn streamed_chunks_saved_as_lines_are_assembled() {
        let input = br#"{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning_content":"r"}}]}
{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"}}]}
{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}]}
"#;
        let t = parse(input);
        assert_eq!(summary(&t), vec!["0.0 assistant reasoning \"r\"", "0.0 assistant content \"ab\""]);
        let s = t.stream.unwrap();
        assert_eq!((s.chunks, s.finish_reason.as_deref()), (3, Some("stop")));
        assert_eq!(t.messages[1].source, 93..281);
    }
}
