//! The interface every stream assembler offers, so a capture reader and the live view drive
//! any dialect the same way: SSE events in, [`Reply`]s and [`StreamInfo`] out.

use super::reasoning_placement::ReasoningPlacement;
use super::reply::{Reply, StreamInfo};
use std::ops::Range;

/// Rebuilds replies from a stream's events, one event at a time.
pub trait Assembler {
    /// Reads one event: its `event:` name (if any), its data, and the bytes of the input it
    /// came from. An error is an event that could not be read, in words; the stream goes on.
    fn push_event(&mut self, event: Option<&str>, data: &str, source: Range<usize>) -> Result<(), String>;

    /// Counts a keep-alive comment.
    fn comment(&mut self);

    /// The replies so far (texts grow as events arrive).
    fn turns(&self) -> &[Reply];

    /// What the stream has said about itself so far.
    fn info(&self) -> &StreamInfo;

    /// Where the reasoning so far came from (which delta fields, or an inline `<think>`
    /// block), for dialects that have a choice of places; none by default.
    fn reasoning_placement(&self) -> ReasoningPlacement {
        ReasoningPlacement::default()
    }

    /// Ends the stream: the replies, in index order, and the stream info.
    fn finish(self) -> (Vec<Reply>, StreamInfo)
    where
        Self: Sized;
}
