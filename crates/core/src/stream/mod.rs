//! Streams: a sans-IO SSE decoder and the assemblers that rebuild replies from their deltas.
//!
//! Pure code: bytes and strings in, events and [`Turn`]s out; no sockets, files or browser.
//! The same pieces read a saved capture (one feed of the whole file) and, later, a live
//! response body (one feed per network read):
//!
//! ```
//! use coherency_core::stream::{Assembler, ChatAssembler, SseDecoder, SseEvent};
//! let (mut decoder, mut chat) = (SseDecoder::new(), ChatAssembler::new());
//! for read in [&b"data: {\"choices\":[{\"delta\":{\"content\":\"Hel"[..], b"lo\"}}]}\n\ndata: [DONE]\n\n"] {
//!     for event in decoder.feed(read) {
//!         match event {
//!             SseEvent::Message(m) => chat.push_event(m.event.as_deref(), &m.data, m.range).unwrap(),
//!             SseEvent::Comment { .. } => chat.comment(),
//!             SseEvent::Problem { .. } => {}
//!         }
//!     }
//! }
//! assert_eq!(chat.turns()[0].content, "Hello");
//! assert!(chat.info().saw_done);
//! ```

pub mod anthropic;
pub mod anthropic_wire;
pub mod assemble;
mod assembler;
mod lenient;
pub mod line_split;
pub mod ollama;
pub mod openai_wire;
pub mod responses;
pub mod sse;
pub mod think;
pub mod turn;

pub(crate) use lenient::{json_problem_at, text as lenient_text};

pub use anthropic::AnthropicAssembler;

pub use assemble::ChatAssembler;
pub use assembler::Assembler;
pub use line_split::LineSplitter;
pub use ollama::OllamaAssembler;
pub use responses::ResponsesAssembler;
pub use sse::{decode_all, for_each_event, split_joined, SseDecoder, SseEvent, SseMessage};
pub use think::{split_think, ThinkSplitter};
pub use turn::{StreamInfo, ToolCall, Turn, Usage};
