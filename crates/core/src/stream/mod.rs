//! Streams: a sans-IO SSE decoder and the assemblers that rebuild replies from their deltas,
//! one per dialect, fed together by one pump.
//!
//! Pure code: bytes and strings in, events and [`Reply`]s out; no sockets, files or browser.
//! [`SsePump`] is the one way SSE bytes become replies: a saved capture (64 KiB feeds of the
//! whole file) and a live response body (one feed per network read) both go through it:
//!
//! ```
//! use coherency_core::stream::{ChatAssembler, SsePump};
//! let mut pump = SsePump::new(ChatAssembler::new());
//! for read in [&b"data: {\"choices\":[{\"delta\":{\"content\":\"Hel"[..], b"lo\"}}]}\n\ndata: [DONE]\n\n"] {
//!     assert!(pump.feed(read).is_empty(), "no problems");
//! }
//! assert_eq!(pump.turns()[0].content, "Hello");
//! assert!(pump.info().saw_done);
//! ```
//!
//! Files: `sse.rs` (the decoder), `pump.rs`, `assembler.rs` (the [`Assembler`] trait), one
//! assembler per dialect (`openai_chat.rs`, `responses.rs`, `anthropic.rs`, `ollama.rs`, the
//! last fed NDJSON lines rather than SSE, by `ndjson_pump.rs`), `live_pump.rs` (either pump
//! behind one face, for a live session of any dialect), `think.rs`, `reasoning_placement.rs`, `reply.rs`, the wire shapes, and `logprobs.rs` (the
//! chat assembler with each reply's tokens and logprobs kept beside it).

pub mod anthropic;
pub mod anthropic_wire;
mod assembler;
mod lenient;
pub mod line_split;
pub mod live_pump;
pub mod logprobs;
pub mod ndjson_pump;
pub mod ollama;
pub mod openai_chat;
pub mod openai_wire;
pub mod pump;
pub mod reasoning_placement;
pub mod reply;
pub mod responses;
pub mod sse;
pub mod think;
pub mod tool_call_merge;

pub(crate) use lenient::{json_problem_at, text as lenient_text, text_of_value as lenient_text_of_value, Shaped};

pub use anthropic::AnthropicAssembler;
pub use assembler::Assembler;
pub use line_split::LineSplitter;
pub use live_pump::LivePump;
pub use logprobs::{LogprobAssembler, TokenLogprob};
pub use ndjson_pump::{NdjsonFraming, NdjsonPump};
pub use ollama::OllamaAssembler;
pub use openai_chat::ChatAssembler;
pub use pump::{Framing, Pump, SseFraming, SsePump, StreamProblem};
pub use reasoning_placement::{ReasoningPlacement, Tally};
pub use reply::{Reply, StreamInfo, ToolCall, Usage, MAX_LISTED};
pub use responses::ResponsesAssembler;
pub use sse::{decode_all, split_joined, SseDecoder, SseEvent, SseMessage};
pub use think::{split_think, ThinkSplitter};
