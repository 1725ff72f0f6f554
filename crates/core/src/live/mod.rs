//! Live endpoint mode, the part with no browser in it: building the chat-completion request
//! from the form and the endpoints' URLs, the streaming session (bytes →
//! [`SsePump`](crate::stream::SsePump) (decoder and chat assembler, as for a saved capture) →
//! [`Analyzer`](crate::analyze::Analyzer)s) with its timings and speed figures, the health
//! probes' judges (probe D from every reply seen, streamed or not), the words for failures,
//! the statistics of a soak run (many generations, or A against B) and its captures in one
//! file, the context fidelity (needle) probe, and the API key bound to the endpoint it was
//! given for.
//!
//! Sans-IO like the stream module: the page's fetch loop hands in bytes and timestamps
//! (milliseconds from any fixed origin) and reads back what to show. Opening connections,
//! aborting them and the clock are the caller's business, so all of this is tested natively.

pub mod captures_file;
pub mod conversation;
pub mod explain;
pub mod key_binding;
pub mod needle;
pub mod outcome;
pub mod probes;
pub mod request;
pub mod session;
pub mod soak;

pub use explain::{
    body_too_big, explain_fetch_failure, http_error_text, plain_http_key_warning, MAX_BODY_BYTES, PROBE_TIMEOUT_MS,
    REDIRECT_REFUSED,
};
pub use key_binding::BoundKey;
pub use outcome::{broken_off, ending_line, stopped_at_fail, BrokenOff};
pub use probes::reasoning_probe;
pub use request::{build_request, chat_url, models_url, parse_models, ChatRequest, RequestForm, PRESETS};
pub use session::{
    capture_full, ending_key, ending_text, estimate_tokens, worst_channel, Ending, LiveSession, LiveSnapshot,
    LiveStats, ReportPacer, BYTES_PER_TOKEN, MAX_CAPTURE_BYTES, REPORT_EVERY_MS, REPORT_SHARE,
};
