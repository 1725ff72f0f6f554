//! A live run's captures in one file (the page's "⤓ captures" of a soak or A/B run): JSONL,
//! one generation a line — `{"live_captures":1,"generation":{…its row…},"sse":"…"}`, the row as
//! the soak's JSONL export writes it and the body of its stream as received. A line may name
//! its stream's dialect (`"format":"responses-sse"`, `"anthropic-sse"` or `"ollama-ndjson"`:
//! the proxy's lines of those APIs); without it the capture is a chat-completions stream. Each line's
//! capture is read by the SSE reader a saved capture goes through (the one `SsePump`, as the
//! live run read it), so each generation is its own conversation with the numbers the run
//! showed. A line is read on its own: one that cannot be read is a diagnostic with its line
//! number and the others are still read.

use serde_json::Value;

use super::builder::{Builder, Origin};
use super::lines::jsonl_lines;
use super::transcript::Transcript;
use super::Format;
use crate::stream::{AnthropicAssembler, ChatAssembler, ResponsesAssembler};

/// How every line of the file starts: what format detection recognises.
pub const LINE_START: &str = "{\"live_captures\":1,";

/// Reads `input`, one generation a line.
pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::LiveCaptures);
    // Conversations are numbered one after another across lines (a capture may hold several
    // choices, each its own conversation).
    let mut next_conversation = 0;
    for (line_no, range) in jsonl_lines(input) {
        let at = Origin::new(range.clone(), Some(line_no));
        let line: Value = match serde_json::from_slice(&input[range.clone()]) {
            Ok(v) => v,
            Err(e) => {
                b.json_diag(at, "a capture line", &e);
                continue;
            }
        };
        let generation = line.get("generation");
        let name = generation_name(generation);
        let Some(sse) = line.get("sse").and_then(Value::as_str) else {
            b.diag(at, format!("{name}: the line has no \"sse\" capture"));
            continue;
        };
        if sse.is_empty() {
            let why = generation.and_then(|g| g.get("error")).and_then(Value::as_str).unwrap_or("nothing was received");
            b.diag(at, format!("{name} has no capture: {why}"));
            continue;
        }
        let capture = match line.get("format").and_then(Value::as_str).and_then(Format::from_name) {
            Some(Format::ResponsesSse) => {
                super::sse::parse(sse.as_bytes(), Format::ResponsesSse, ResponsesAssembler::new())
            }
            Some(Format::AnthropicSse) => {
                super::sse::parse(sse.as_bytes(), Format::AnthropicSse, AnthropicAssembler::new())
            }
            Some(Format::OllamaNdjson) => super::ollama_ndjson::parse(sse.as_bytes()),
            _ => super::sse::parse(sse.as_bytes(), Format::Sse, ChatAssembler::new()),
        };
        for d in capture.diagnostics {
            let inner = d.line.map(|l| format!(" (line {l} of its capture)")).unwrap_or_default();
            b.diag(at.clone(), format!("{name}: {}{inner}", d.message));
        }
        for error in capture.stream.iter().flat_map(|s| &s.errors) {
            b.diag(at.clone(), format!("{name}: the stream said: {error}"));
        }
        let mut conversations = 0;
        for mut m in capture.messages {
            conversations = conversations.max(m.conversation + 1);
            m.conversation += next_conversation;
            // The capture's bytes are escaped inside the line: its messages point at the line.
            m.source = range.clone();
            m.line = Some(line_no);
            b.t.messages.push(m);
        }
        next_conversation += conversations;
    }
    b.finish()
}

/// "generation 3" (1-based, "A · generation 3" in an A/B run), from a line's row.
fn generation_name(generation: Option<&Value>) -> String {
    let index = generation.and_then(|g| g.get("index")).and_then(Value::as_u64);
    let config = generation.and_then(|g| g.get("config")).and_then(Value::as_str).unwrap_or_default();
    let side = if config.is_empty() { String::new() } else { format!("{config} · ") };
    match index {
        Some(i) => format!("{side}generation {}", i + 1),
        None => "a generation".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(index: usize, sse: &str) -> String {
        let sse = serde_json::to_string(sse).unwrap();
        format!("{LINE_START}\"generation\":{{\"index\":{index},\"config\":\"\"}},\"sse\":{sse}}}\n")
    }

    const LOOP: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Again.\\n\"}}]}\n\n";

    #[test]
    fn each_line_is_a_conversation_and_a_bad_line_is_a_diagnostic_with_its_line() {
        let good = format!("{LOOP}data: [DONE]\n\n");
        let input = format!(
            "{}not json\n{}{LINE_START}\"generation\":{{\"index\":3,\"config\":\"B\",\"error\":\"HTTP 500\"}},\"sse\":\"\"}}\n{}",
            line(0, &good),
            line(1, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"cut\"}}]}\n\nevent: error\ndata: boom\n\n"),
            line(4, &good),
        );
        let t = parse(input.as_bytes());
        assert_eq!(t.format, Format::LiveCaptures);
        let placed: Vec<_> = t.messages.iter().map(|m| (m.conversation, m.line, m.text.as_str())).collect();
        assert_eq!(placed, [(0, Some(1), "Again.\n"), (1, Some(3), "cut"), (2, Some(5), "Again.\n")]);
        // A message points at its whole line (the capture is escaped inside it).
        let third = input.match_indices('\n').nth(1).unwrap().0 + 1;
        let third_end = third + input[third..].find('\n').unwrap();
        assert_eq!(t.messages[1].source, third..third_end);
        let said: Vec<_> = t.diagnostics.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(said.len(), 3, "{said:?}");
        assert_eq!(said[0].0, Some(2));
        assert!(said[0].1.starts_with("a capture line: "), "{said:?}");
        assert_eq!(said[1], (Some(3), "generation 2: the stream said: boom"));
        assert_eq!(said[2], (Some(4), "B · generation 4 has no capture: HTTP 500"));
    }
}
