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

/// The [`Assembler`] methods a dialect whose stream is one reply writes the same way (Responses,
/// Anthropic Messages): its reply in `self.reply`, its stream info in `self.info`; a keep-alive
/// counted, the stream's finish reason the reply's. Expanded inside each dialect's
/// `impl Assembler` after its own `push_event`.
macro_rules! one_reply_methods {
    () => {
        fn comment(&mut self) {
            self.info.comments += 1;
        }

        fn turns(&self) -> &[Reply] {
            std::slice::from_ref(&self.reply)
        }

        fn info(&self) -> &StreamInfo {
            &self.info
        }

        fn finish(mut self) -> (Vec<Reply>, StreamInfo) {
            self.info.finish_reason = self.reply.finish_reason.clone();
            (vec![self.reply], self.info)
        }
    };
}
pub(super) use one_reply_methods;
