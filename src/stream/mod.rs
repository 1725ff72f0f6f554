//! Streams: a sans-IO SSE decoder and the assemblers that rebuild replies from their deltas.
//!
//! Pure code: bytes and strings in, events and [`Turn`]s out; no sockets, files or browser.
//! The same pieces read a saved capture (one feed of the whole file) and, later, a live
//! response body (one feed per network read).

pub mod assemble;
mod lenient;
pub mod openai_wire;
pub mod sse;
pub mod think;
pub mod turn;

pub(crate) use lenient::{json_problem_at, text as lenient_text};

pub use assemble::ChatAssembler;
pub use sse::{decode_all, for_each_event, split_joined, SseDecoder, SseEvent, SseMessage};
pub use think::{split_think, ThinkSplitter};
pub use turn::{StreamInfo, ToolCall, Turn, Usage};
