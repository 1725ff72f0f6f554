//! A stream pump behind one object-safe face, whatever its framing (SSE events or NDJSON
//! lines) and its dialect: what a live session feeds each network read to and reads the
//! replies from. The page's live mode reads chat streams ([`super::SsePump`] with the
//! [`super::ChatAssembler`]); the proxy also reads Responses, Anthropic Messages and Ollama
//! streams, each with the assembler a saved capture of that dialect is read with.

use super::assembler::Assembler;
use super::pump::{Framing, Pump, StreamProblem};
use super::reasoning_placement::ReasoningPlacement;
use super::reply::{Reply, StreamInfo};
use std::fmt;

/// A pump fed a stream's bytes. See the module doc. (Not `Debug`: a vtable entry would link
/// every assembler's `Debug` code into the page's wasm, about 2 KB gzipped; see the
/// `Debug` of `dyn LivePump` below.)
pub trait LivePump: Send + Sync {
    /// Takes the next bytes; returns the problems they brought.
    fn feed(&mut self, bytes: &[u8]) -> Vec<StreamProblem>;
    /// Ends the input: reads what the framing still holds.
    fn end_input(&mut self) -> Vec<StreamProblem>;
    /// The replies so far.
    fn turns(&self) -> &[Reply];
    /// What the stream has said about itself so far.
    fn info(&self) -> &StreamInfo;
    /// The replies as the end of the stream would leave them (a held `<think>` fragment
    /// flushed), the pump left as it is.
    fn finished_turns(&self) -> Vec<Reply>;
    /// Where the reasoning so far came from.
    fn reasoning_placement(&self) -> ReasoningPlacement;
    fn clone_box(&self) -> Box<dyn LivePump>;
}

impl fmt::Debug for dyn LivePump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LivePump").field("turns", &self.turns().len()).finish_non_exhaustive()
    }
}

impl Clone for Box<dyn LivePump> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl<F, A> LivePump for Pump<F, A>
where
    F: Framing + Send + Sync + 'static,
    A: Assembler + Clone + Send + Sync + 'static,
{
    fn feed(&mut self, bytes: &[u8]) -> Vec<StreamProblem> {
        Pump::feed(self, bytes)
    }
    fn end_input(&mut self) -> Vec<StreamProblem> {
        Pump::end_input(self)
    }
    fn turns(&self) -> &[Reply] {
        Pump::turns(self)
    }
    fn info(&self) -> &StreamInfo {
        Pump::info(self)
    }
    fn finished_turns(&self) -> Vec<Reply> {
        self.assembler().clone().finish().0
    }
    fn reasoning_placement(&self) -> ReasoningPlacement {
        self.assembler().reasoning_placement()
    }
    fn clone_box(&self) -> Box<dyn LivePump> {
        Box::new(self.clone())
    }
}
