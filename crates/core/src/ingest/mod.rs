//! Ingest: reads what users have — plain text, OpenAI chat, Responses and Anthropic JSON
//! (replies, and the request bodies that hold an agent's history), SSE captures, Responses and
//! Anthropic streams, Ollama NDJSON, JSONL request logs, agent session logs — into a
//! [`Transcript`] of messages to judge. Reading only: what is judged and how is the verdict
//! layer's business (`verdict`, above this one); nothing here analyses a text.
//!
//! Each format has its reader in the file of its name (`json_document.rs` for the three JSON
//! formats, `sse.rs` for every SSE dialect, `ollama_ndjson.rs`, `jsonl.rs`, `session_jsonl.rs`,
//! `text.rs`; the agent harnesses' session files: `opencode.rs`, `codex_rollout.rs`,
//! `gemini_cli.rs`, `cline.rs`, `openhands.rs`, `swe_agent.rs`, `aider_md.rs`, sharing
//! `harness.rs`, recognised by `detect_harness.rs`; a live run's captures: `live_captures.rs`);
//! what they share: `history.rs` (messages and items of every API into turns: tool calls carry
//! their id, results the id of the call they answer and its name), `exchange.rs`
//! (a request and its reply, in any API's shape), `chains.rs` (exchanges that repeat a growing
//! history made one conversation, each turn once), `value_text.rs` (a message a reader holds as a
//! `serde_json::Value` read from its text instead, as the value would read). [`detect`] names
//! the format from the first bytes; [`parse`] reads a document in a given format; [`read`] does both. Parsers never fail
//! a document: what cannot be read becomes a [`Diagnostic`] with its line and byte range, and
//! the rest is still read. Every message keeps the byte range of the input it came from.
//!
//! ```
//! use coherency_core::ingest::{self, Channel, Format};
//! let capture = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Hmm.\",\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n";
//! let t = ingest::read(capture);
//! assert_eq!(t.format, Format::Sse);
//! assert_eq!(t.messages[0].channel, Channel::Reasoning);
//! assert_eq!(t.messages[1].text.as_str(), "Hi");
//! assert!(t.stream.unwrap().saw_done);
//! ```
//!
//! Pure code: bytes in, data out; no files, sockets or browser.

mod aider_md;
mod builder;
mod chains;
mod cline;
mod codex_rollout;
mod detect;
mod detect_harness;
mod exchange;
mod format;
mod gemini_cli;
mod harness;
mod history;
mod http_head;
mod json_document;
mod json_scan;
mod jsonl;
mod lines;
mod live_captures;
mod ollama_ndjson;
mod opencode;
mod openhands;
mod reader;
mod session_jsonl;
mod sse;
mod swe_agent;
mod text;
mod transcript;
mod value_text;

#[cfg(test)]
mod fuzz;

pub use detect::{binary_reason, detect};
pub use format::Format;
pub use lines::LineIndex;
pub use live_captures::LINE_START as LIVE_CAPTURES_LINE_START;
pub use reader::Reader;
pub use text::is_verbatim;
pub use transcript::{Channel, Diagnostic, Message, Transcript, MAX_DIAGNOSTICS};

use crate::stream::{AnthropicAssembler, ChatAssembler, ResponsesAssembler};
use http_head::http_head;

/// Reads `input` as `format`. Never fails: problems are diagnostics in the transcript.
/// A saved HTTP response (`curl -i`) is read from its body on, unless read as text; a status
/// other than 2xx is reported.
pub fn parse(input: &[u8], format: Format) -> Transcript {
    let head = http_head(input).filter(|_| !matches!(format, Format::Text | Format::Binary));
    let Some(head) = head else { return parse_body(input, format) };
    let mut t = parse_body(&input[head.body_start..], format);
    let (shift, lines) = (head.body_start, head.lines);
    for m in &mut t.messages {
        m.source = m.source.start + shift..m.source.end + shift;
        m.line = m.line.map(|l| l + lines);
    }
    for d in &mut t.diagnostics {
        d.range = d.range.start + shift..d.range.end + shift;
        d.line = d.line.map(|l| l + lines);
    }
    if !head.ok {
        let status = Diagnostic {
            line: Some(1),
            range: 0..head.status.len().min(input.len()),
            message: format!("the server answered {}", head.status),
        };
        t.diagnostics.insert(0, status);
    }
    t
}

/// [`parse`] taking the bytes, so that plain text is not copied (the page's worker reads big
/// files this way, through [`Reader`]).
pub fn parse_owned(input: Vec<u8>, format: Format) -> Transcript {
    match format {
        Format::Text => text::parse_owned(input),
        _ => parse(&input, format),
    }
}

fn parse_body(input: &[u8], format: Format) -> Transcript {
    match format {
        Format::Text => text::parse(input),
        Format::OpenaiJson | Format::ResponsesJson | Format::AnthropicJson => json_document::parse(input, format),
        Format::Sse => sse::parse(input, format, ChatAssembler::new()),
        Format::ResponsesSse => sse::parse(input, format, ResponsesAssembler::new()),
        Format::AnthropicSse => sse::parse(input, format, AnthropicAssembler::new()),
        Format::OllamaNdjson => ollama_ndjson::parse(input),
        Format::Jsonl => jsonl::parse(input),
        Format::SessionJsonl => session_jsonl::parse(input),
        Format::Opencode => opencode::parse(input),
        Format::CodexJsonl => codex_rollout::parse(input),
        Format::GeminiCli => gemini_cli::parse(input),
        Format::Cline => cline::parse(input),
        Format::OpenHands => openhands::parse(input),
        Format::SweAgent => swe_agent::parse(input),
        Format::Aider => aider_md::parse(input),
        Format::LiveCaptures => live_captures::parse(input),
        Format::Binary => binary(input),
    }
}

/// Detects the format of `input` and reads it.
pub fn read(input: &[u8]) -> Transcript {
    parse(input, detect(input))
}

/// A binary input: one diagnostic saying what it seems to be, no messages.
fn binary(input: &[u8]) -> Transcript {
    let why = binary_reason(input).unwrap_or_else(|| "it was read as binary".into());
    Transcript {
        format: Format::Binary,
        messages: Vec::new(),
        stream: None,
        diagnostics: vec![Diagnostic {
            line: None,
            range: 0..input.len(),
            message: format!("Not a text file: {why}. Nothing to analyse."),
        }],
    }
}
