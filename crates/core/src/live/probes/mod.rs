//! Endpoint probes A–G (the page's "endpoint health probes"): the requests to make and how to judge what came back. Each
//! judge takes what the page saw (status, body, stream figures) and gives PASS / FAIL / SKIP with
//! the evidence in words; the page only sends the requests and shows the list.
//!
//! - A `/models` lists the chosen model id, and ids are names, not file paths.
//! - B a short chat completion echoes the model and returns usage.
//! - C the completion has `id`, `object`, `created`, `choices`, `usage` with the right types.
//! - D reasoning arrives in a reasoning field when the model reasons (SKIP when it did not),
//!   judged from every reply seen, streamed or not (`reasoning_probe.rs`).
//! - E a tool definition with `tool_choice` yields `tool_calls` whose arguments parse as JSON
//!   holding the schema's required keys.
//! - F streaming gives several chunks, a clean `[DONE]`, and a first byte well before the last.
//! - G a bad key is rejected with 401 (SKIP when the server takes any key); CORS as seen.
//!
//! Its parts: `result.rs` (what every probe gives, below the judges), `requests.rs` (the
//! bodies to send), `judges.rs` (A–C, E–G), `reasoning_probe.rs` (D, from every reply seen).

mod judges;
pub mod reasoning_probe;
mod requests;
mod result;

pub use judges::{probe_bad_key, probe_completion, probe_models, probe_stream, probe_tools};
pub use requests::{completion_body, stream_body, tool_body, BAD_KEY};
pub use result::{unreachable, ProbeOutcome, ProbeResult, PROBES};
