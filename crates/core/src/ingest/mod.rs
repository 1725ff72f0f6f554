//! Ingest: reads what users have — plain text, OpenAI chat, Responses and Anthropic JSON
//! (replies, and the request bodies that hold an agent's history), SSE captures, Responses and
//! Anthropic streams, Ollama NDJSON, JSONL request logs, agent session logs — into a
//! [`Transcript`] of messages to judge. Reading only: what is judged and how is the verdict
//! layer's business (`judge`, above this one); nothing here analyses a text.
//!
//! Each format has its reader in the file of its name (`json_document.rs` for the three JSON
//! formats, `sse.rs` for every SSE dialect, `ollama_ndjson.rs`, `jsonl.rs`, `text.rs`; the agent
//! harnesses' session files in `harness/`: `opencode.rs`, `codex_rollout.rs`, `gemini_cli.rs`,
//! `cline.rs`, `openhands.rs`, `swe_agent.rs`, `aider_md.rs`, `session_jsonl.rs`, sharing
//! `shared.rs`, recognised by `detect.rs`; a live run's captures: `live_captures.rs`);
//! what they share: `history/` (messages and items of every API into turns: tool calls carry
//! their id, results the id of the call they answer and its name), `exchange.rs`
//! (a request and its reply, in any API's shape), `chains.rs` (exchanges that repeat a growing
//! history made one conversation, each turn once), `value_text.rs` (a message a reader holds as a
//! `serde_json::Value` read from its text instead, as the value would read). [`detect`] names
//! the format from the first bytes; [`parse`] reads a document in a given format; [`read`] does both. Parsers never fail
//! a document: what cannot be read becomes a [`Diagnostic`] with its line and byte range, and
//! the rest is still read. Every message keeps the byte range of the input it came from.
//!
//! ```
//! use coherency_core::ingest::{self, Channel, Format};
//! let capture = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Hmm.\",\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n";
//! let t = ingest::read(capture);
//! assert_eq!(t.format, Format::Sse);
//! assert_eq!(t.messages[0].channel, Channel::Reasoning);
//! assert_eq!(t.messages[1].text.as_str(), "Hi");
//! assert!(t.stream.unwrap().saw_done);
//! ```
//!
//! Pure code: bytes in, data out; no files, sockets or browser.

mod builder;
mod chains;
mod detect;
mod exchange;
mod format;
mod harness;
mod history;
mod http_head;
mod json_document;
mod json_scan;
mod jsonl;
mod lines;
mod live_captures;
mod ollama_ndjson;
mod parse;
mod plain_text;
mod reader;
mod sse;
mod transcript;
mod value_text;

#[cfg(test)]
mod fuzz;

pub use detect::{binary_reason, detect};
pub use format::Format;
pub use lines::LineIndex;
pub use live_captures::LINE_START as LIVE_CAPTURES_LINE_START;
pub use parse::{parse, parse_owned, read};
pub use plain_text::is_verbatim;
pub use reader::Reader;
pub use transcript::{Channel, Diagnostic, Message, Transcript, MAX_DIAGNOSTICS};
