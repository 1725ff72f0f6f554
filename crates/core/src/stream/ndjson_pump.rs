//! The pump of a stream of JSON lines (NDJSON: Ollama's native `/api/chat` and `/api/generate`),
//! as [`super::SseFraming`] is of SSE: bytes in however a network split them, each complete
//! non-blank line handed to the dialect's [`Assembler`] as one event, what could not be read
//! handed back as [`StreamProblem`]s with its bytes and line.

use super::assembler::Assembler;
use super::line_split::LineSplitter;
use super::pump::{Framing, Pump, StreamProblem};
use std::ops::Range;

/// NDJSON framing: each complete non-blank line is one event. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct NdjsonFraming(LineSplitter);

/// The pump of a stream of JSON lines.
pub type NdjsonPump<A> = Pump<NdjsonFraming, A>;

impl Framing for NdjsonFraming {
    fn feed(&mut self, bytes: &[u8], assembler: &mut dyn Assembler, problems: &mut Vec<StreamProblem>) {
        self.0.feed(bytes, |line, range, number| push(assembler, line, range, number, problems));
    }

    fn finish(&mut self, assembler: &mut dyn Assembler, problems: &mut Vec<StreamProblem>) {
        self.0.finish(|line, range, number| push(assembler, line, range, number, problems));
    }
}

fn push(
    assembler: &mut dyn Assembler,
    line: &[u8],
    range: Range<usize>,
    number: usize,
    problems: &mut Vec<StreamProblem>,
) {
    if line.iter().all(u8::is_ascii_whitespace) {
        return;
    }
    let text = String::from_utf8_lossy(line);
    if let Err(message) = assembler.push_event(None, &text, range.clone()) {
        problems.push(StreamProblem { message, range, line: number });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::OllamaAssembler;

    #[test]
    fn lines_are_read_however_the_input_is_split() {
        let input = "{\"model\":\"m\",\"message\":{\"role\":\"assistant\",\"content\":\"Hel\"},\"done\":false}\r\n\nnot json\n{\"model\":\"m\",\"message\":{\"content\":\"lo\"},\"done\":false}\n{\"done\":true,\"done_reason\":\"stop\",\"eval_count\":2}";
        for size in [1, 3, 17, input.len()] {
            let mut pump = NdjsonPump::new(OllamaAssembler::new());
            let mut problems: Vec<StreamProblem> = input.as_bytes().chunks(size).flat_map(|p| pump.feed(p)).collect();
            assert!(!pump.info().saw_done, "the last line has no end yet");
            problems.extend(pump.end_input());
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].line, 3);
            assert_eq!(&input.as_bytes()[problems[0].range.clone()], b"not json");
            assert_eq!(pump.turns()[0].content, "Hello");
            let info = pump.info();
            assert!(info.saw_done);
            assert_eq!(info.usage.as_ref().and_then(|u| u.completion_tokens), Some(2));
        }
    }
}
