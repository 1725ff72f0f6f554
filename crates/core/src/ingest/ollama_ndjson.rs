//! Ollama's native NDJSON stream (`/api/chat`, `/api/generate`): each non-blank line goes to
//! [`OllamaAssembler`]; a line that cannot be read is a diagnostic with its line number.

use super::builder::{Builder, Origin};
use super::lines::jsonl_lines;
use super::transcript::Transcript;
use super::Format;
use crate::stream::{Assembler, OllamaAssembler};

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::OllamaNdjson);
    let mut a = OllamaAssembler::new();
    for (line_no, range) in jsonl_lines(input) {
        let line = String::from_utf8_lossy(&input[range.clone()]);
        if let Err(e) = a.push_event(None, &line, range.clone()) {
            b.diag(Origin::new(range, Some(line_no)), e);
        }
    }
    let (turns, info) = a.finish();
    let whole = Origin::new(0..input.len(), Some(1));
    if info.chunks == 0 {
        b.diag(whole.clone(), "the stream is empty");
    }
    for turn in turns {
        b.turn((0, 0), turn, &whole);
    }
    b.t.stream = Some(info);
    b.finish()
}
