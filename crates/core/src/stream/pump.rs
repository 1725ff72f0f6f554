//! The one stream pump: SSE bytes → [`SseDecoder`] → events → a dialect's [`Assembler`], with
//! whatever could not be read handed back as [`StreamProblem`]s (words, bytes and line).
//!
//! Sans-IO and fed piece by piece: [`SsePump::feed`] takes whatever bytes arrived (a network
//! read, or 64 KiB of a saved file), [`SsePump::end_input`] reads what the decoder still holds,
//! and the assembler's replies and [`StreamInfo`] can be read at any time. A saved capture
//! (`ingest`) and a live run (`live::LiveSession`) go through this same code, so they read a
//! stream the same way: every event's data into the assembler; keep-alive comments counted;
//! a capture whose events were run together (saved without the blank lines between them, so
//! the decoder joins every `data:` line into one event) split back into its payloads, with a
//! note; the decoder's and the assembler's complaints as problems, the stream going on.

use super::assembler::Assembler;
use super::reply::{Reply, StreamInfo};
use super::sse::{split_joined, SseDecoder, SseEvent, SseMessage};
use std::ops::Range;

/// The note for events that were run together.
const JOINED: &str =
    "events are not separated by blank lines (the capture lost them?): each data line is read as its own event";

/// Something in the stream that could not be read, or that a reader should know; the stream
/// goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamProblem {
    pub message: String,
    /// The bytes of the input it is about.
    pub range: Range<usize>,
    /// 1-based line of `range.start`.
    pub line: usize,
}

/// How a stream's bytes are cut into events for the assembler: SSE ([`SseFraming`]) or JSON
/// lines ([`super::ndjson_pump::NdjsonFraming`]). Sans-IO: fed whatever bytes arrived.
pub trait Framing: Clone + Default {
    /// Takes the next bytes; hands each event they complete to `assembler`, and what could
    /// not be read to `problems`.
    fn feed(&mut self, bytes: &[u8], assembler: &mut dyn Assembler, problems: &mut Vec<StreamProblem>);
    /// Ends the input: reads what the framing still holds.
    fn finish(&mut self, assembler: &mut dyn Assembler, problems: &mut Vec<StreamProblem>);
}

/// A framing and an assembler, fed together. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct Pump<F, A> {
    framing: F,
    assembler: A,
}

/// The pump of an SSE stream.
pub type SsePump<A> = Pump<SseFraming, A>;

impl<F: Framing, A: Assembler> Pump<F, A> {
    pub fn new(assembler: A) -> Self {
        Self { framing: F::default(), assembler }
    }

    /// Takes the next bytes of the input; returns the problems they brought (mostly none).
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<StreamProblem> {
        let mut problems = Vec::new();
        self.framing.feed(bytes, &mut self.assembler, &mut problems);
        problems
    }

    /// Ends the input: reads an unterminated last line and the event it completes.
    pub fn end_input(&mut self) -> Vec<StreamProblem> {
        let mut problems = Vec::new();
        self.framing.finish(&mut self.assembler, &mut problems);
        problems
    }

    /// The dialect's assembler, holding the replies so far.
    pub fn assembler(&self) -> &A {
        &self.assembler
    }

    /// The replies so far (texts grow as events arrive).
    pub fn turns(&self) -> &[Reply] {
        self.assembler.turns()
    }

    /// What the stream has said about itself so far.
    pub fn info(&self) -> &StreamInfo {
        self.assembler.info()
    }

    /// Ends the input and the stream: the problems of the last bytes, the replies in index
    /// order, and the stream info.
    pub fn finish(mut self) -> (Vec<StreamProblem>, Vec<Reply>, StreamInfo) {
        let problems = self.end_input();
        let (turns, info) = self.assembler.finish();
        (problems, turns, info)
    }
}

/// SSE framing: the [`SseDecoder`]'s events, each message's data to the assembler.
#[derive(Clone, Debug, Default)]
pub struct SseFraming(SseDecoder);

impl Framing for SseFraming {
    fn feed(&mut self, bytes: &[u8], assembler: &mut dyn Assembler, problems: &mut Vec<StreamProblem>) {
        take(assembler, self.0.feed(bytes), problems);
    }

    fn finish(&mut self, assembler: &mut dyn Assembler, problems: &mut Vec<StreamProblem>) {
        take(assembler, self.0.finish(), problems);
    }
}

/// Hands `events` to `assembler`; what could not be read goes to `problems`. One copy for every
/// dialect (the assembler behind a `dyn`), to keep the wasm small.
fn take(assembler: &mut dyn Assembler, events: Vec<SseEvent>, problems: &mut Vec<StreamProblem>) {
    for event in events {
        match event {
            SseEvent::Message(m) => message(assembler, m, problems),
            SseEvent::Comment { .. } => assembler.comment(),
            SseEvent::Problem { message, range, line } => problems.push(StreamProblem { message, range, line }),
        }
    }
}

fn message(assembler: &mut dyn Assembler, m: SseMessage, problems: &mut Vec<StreamProblem>) {
    let problem = |message: String| StreamProblem { message, range: m.range.clone(), line: m.line };
    let parts = split_joined(&m.data);
    if parts.is_some() {
        problems.push(problem(JOINED.to_string()));
    }
    // Run-together events lost their names: their data's `type` says.
    let name = if parts.is_some() { None } else { m.event.as_deref() };
    for data in parts.unwrap_or_else(|| vec![&m.data]) {
        if let Err(e) = assembler.push_event(name, data, m.range.clone()) {
            problems.push(problem(e));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::ChatAssembler;

    fn chunk(text: &str) -> String {
        format!("{{\"choices\":[{{\"delta\":{{\"content\":\"{text}\"}}}}]}}")
    }

    #[test]
    fn problems_carry_their_bytes_and_lines_and_the_stream_goes_on() {
        let input = format!(": ping\n\ndata: {}\n\nbogus: 1\ndata: nonsense\n\ndata: {}\n\n", chunk("a"), chunk("b"));
        let mut pump = SsePump::new(ChatAssembler::new());
        let mut problems: Vec<StreamProblem> = input.as_bytes().chunks(5).flat_map(|p| pump.feed(p)).collect();
        let (rest, turns, info) = pump.finish();
        problems.extend(rest);
        let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [5, 5], "{problems:?}");
        assert!(problems[0].message.starts_with("unknown SSE field"));
        assert!(problems[1].message.starts_with("chunk is not a chat-completion chunk"));
        assert_eq!(&input.as_bytes()[problems[1].range.clone()][..6], b"bogus:");
        assert_eq!((turns[0].content.as_str(), info.comments, info.chunks), ("ab", 1, 3));
    }

    #[test]
    fn run_together_events_are_split_with_a_note() {
        let input = format!("data: {}\ndata: {}\ndata: [DONE]\n", chunk("a"), chunk("b"));
        let mut pump = SsePump::new(ChatAssembler::new());
        assert!(pump.feed(input.as_bytes()).is_empty(), "nothing is dispatched before the end");
        let (problems, turns, info) = pump.finish();
        assert_eq!(problems, [StreamProblem { message: JOINED.into(), range: 0..input.len(), line: 1 }]);
        assert_eq!((turns[0].content.as_str(), info.saw_done), ("ab", true));
    }
}
