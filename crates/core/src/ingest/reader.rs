//! A document fed in pieces (the page's worker reads files in slices). A JSONL request log is
//! parsed line by line as the pieces arrive, so its bytes and its parsed texts are never all
//! held at once; any other document is collected and parsed whole. Either way the result
//! equals [`super::parse_owned`] of the whole document in the format asked for or detected.
//!
//! The format is decided from the first bytes ([`super::detect`]), once [`DECIDE_AFTER`] of
//! them have come: the log is read piece by piece only when they say JSONL and hold no HTTP
//! head (a saved response is read whole, as [`super::parse`] strips its head).

use std::collections::TryReserveError;

use super::http_head::http_head;
use super::jsonl::LogReader;
use super::{detect, parse_owned, Format, Transcript};

/// Bytes collected before the format is decided: more than an HTTP head or the detector reads.
const DECIDE_AFTER: usize = 1 << 20;

pub struct Reader {
    chosen: Option<Format>,
    /// The document's expected size (what to reserve when it is collected whole).
    size: usize,
    decide_after: usize,
    state: State,
}

enum State {
    /// The first bytes, format not decided yet.
    Head(Vec<u8>),
    /// Decided: collected whole.
    Whole(Vec<u8>),
    /// Decided: a JSONL log read line by line.
    Log(Box<LogReader>),
}

impl Reader {
    /// A reader for a document of about `size` bytes, to read as `chosen` (`None`: as
    /// detected).
    pub fn new(chosen: Option<Format>, size: usize) -> Reader {
        Reader { chosen, size, decide_after: DECIDE_AFTER, state: State::Head(Vec::new()) }
    }

    /// Messages read so far (only a log read line by line has any before the end).
    pub fn messages(&self) -> usize {
        match &self.state {
            State::Log(log) => log.messages(),
            _ => 0,
        }
    }

    /// Takes the next bytes. Fails only when a document read whole does not fit in memory.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), TryReserveError> {
        match &mut self.state {
            State::Log(log) => log.feed(bytes),
            State::Whole(all) => {
                all.try_reserve(bytes.len())?;
                all.extend_from_slice(bytes);
            }
            State::Head(head) => {
                head.extend_from_slice(bytes);
                if head.len() >= self.decide_after {
                    self.decide()?;
                }
            }
        }
        Ok(())
    }

    fn decide(&mut self) -> Result<(), TryReserveError> {
        let State::Head(head) = &mut self.state else { return Ok(()) };
        let head = std::mem::take(head);
        let log = detect(&head) == Format::Jsonl
            && self.chosen.is_none_or(|f| f == Format::Jsonl)
            && http_head(&head).is_none();
        self.state = if log {
            let mut reader = LogReader::new();
            reader.feed(&head);
            State::Log(Box::new(reader))
        } else {
            let mut all = head;
            all.try_reserve_exact(self.size.saturating_sub(all.len()))?;
            State::Whole(all)
        };
        Ok(())
    }

    /// The detected format and the transcript, once every byte was fed.
    pub fn finish(self) -> (Format, Transcript) {
        match self.state {
            State::Log(log) => (Format::Jsonl, log.finish()),
            State::Head(all) | State::Whole(all) => {
                let detected = detect(&all);
                (detected, parse_owned(all, self.chosen.unwrap_or(detected)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log() -> Vec<u8> {
        let mut log = String::from("\u{feff}");
        for i in 0..40 {
            log += &format!(
                "{{\"request\":{{\"messages\":[{{\"role\":\"user\",\"content\":\"Question {i}?\"}}]}},\"response\":\
                 {{\"choices\":[{{\"message\":{{\"content\":\"Answer\\n{i}.\"}}}}]}}}}\r\n"
            );
            if i % 7 == 0 {
                log += "  \n\r{\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n";
            }
            if i % 9 == 0 {
                log += "not json\n";
            }
        }
        log += "{\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"y\"},\"finish_reason\":\"stop\"}]}\r";
        log.into_bytes()
    }

    fn read_in_pieces(bytes: &[u8], chosen: Option<Format>, decide_after: usize, piece: usize) -> (Format, Transcript) {
        let mut r = Reader::new(chosen, bytes.len());
        r.decide_after = decide_after;
        for p in bytes.chunks(piece.max(1)) {
            r.feed(p).expect("memory");
        }
        r.finish()
    }

    #[test]
    fn a_log_read_in_pieces_equals_the_whole() {
        let bytes = log();
        let whole = super::super::parse(&bytes, Format::Jsonl);
        assert_eq!(whole.stream.as_ref().map(|s| s.chunks), Some(7));
        assert!(whole.messages.len() > 80 && whole.diagnostics.len() == 5, "{:?}", whole.diagnostics);
        // The streamed chunks' reply: its line as a line index of the whole counts it (lone CRs
        // too), as the whole-document reader always did.
        let lines = super::super::LineIndex::new(&bytes);
        let chunked = whole.messages.last().map(|m| m.conversation);
        for m in whole.messages.iter().filter(|m| Some(m.conversation) == chunked) {
            assert_eq!(m.line, Some(lines.line_of(m.source.start)), "{m:?}");
        }
        for piece in [1, 2, 3, 5, 64, 333, 1000, bytes.len()] {
            for decide_after in [1, 100, bytes.len() + 1] {
                let (detected, t) = read_in_pieces(&bytes, None, decide_after, piece);
                assert_eq!((detected, &t), (Format::Jsonl, &whole), "pieces of {piece}, deciding after {decide_after}");
            }
        }
    }

    #[test]
    fn other_documents_are_read_whole() {
        let bytes = log();
        let text = super::super::parse(&bytes, Format::Text);
        assert_eq!(read_in_pieces(&bytes, Some(Format::Text), 10, 7), (Format::Jsonl, text));
        let sse = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n";
        assert_eq!(read_in_pieces(sse, None, 10, 3), (Format::Sse, super::super::read(sse)));
        let saved = [&b"HTTP/1.1 200 OK\r\n\r\n"[..], &bytes].concat();
        assert_eq!(read_in_pieces(&saved, Some(Format::Jsonl), 10, 5).1, super::super::parse(&saved, Format::Jsonl));
        assert_eq!(read_in_pieces(b"", None, 10, 5), (Format::Text, super::super::read(b"")));
    }
}
