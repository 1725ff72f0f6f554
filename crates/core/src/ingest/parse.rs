//! A document read: its format detected or given, its bytes handed to the reader of that
//! format (after a saved HTTP response's head), never failing (problems are diagnostics).

use super::detect::{binary_reason, detect};
use super::format::Format;
use super::http_head::http_head;
use super::transcript::{Diagnostic, Transcript};
use super::{
    harness::{aider_md, cline, codex_rollout, gemini_cli, opencode, openhands, session_jsonl, swe_agent},
    json_document, jsonl, live_captures, ollama_ndjson, plain_text, sse,
};
use crate::stream::{AnthropicAssembler, ChatAssembler, ResponsesAssembler};

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
/// files this way, through [`Reader`](super::Reader)).
pub fn parse_owned(input: Vec<u8>, format: Format) -> Transcript {
    match format {
        Format::Text => plain_text::parse_owned(input),
        _ => parse(&input, format),
    }
}

fn parse_body(input: &[u8], format: Format) -> Transcript {
    match format {
        Format::Text => plain_text::parse(input),
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
