//! # Coherency Analyzer
//!
//! Catches *repetition collapse* in large-language-model output: the failure where a model
//! spirals into loops of the same words, lines or paragraphs. Give it a text, get a verdict
//! (PASS / WARN / FAIL), the reasons in words, every metric against its thresholds, and the
//! byte ranges of the degenerate spans.
//!
//! ```
//! let report = coherency_core::analyze::analyze(&"the ".repeat(4000));
//! assert_eq!(report.verdict, coherency_core::analyze::Verdict::Fail);
//! assert_eq!(report.metrics.maxrun, 4000);
//! ```
//!
//! For streamed text, push deltas into an [`analyze::Analyzer`] and call `report` whenever
//! the view needs it; the result is the same as analysing the whole text at once.
//!
//! Transcripts in other shapes (SSE captures, chat JSON, JSONL logs, agent sessions) are read
//! by [`ingest`], which detects the format and yields the messages ([`stream`] holds its sans-IO
//! SSE decoder and delta assembler), and judged by [`judge`]: every message, every reply's
//! reasoning and content together, and every conversation across its turns (the model's stream,
//! its tool calls), worst first — only the model's output sets the verdict.
//! [`judge::JudgedDocument::read`] does both from bytes:
//!
//! ```
//! use coherency_core::judge::JudgedDocument;
//! let doc = JudgedDocument::read("Let me check again.\n".repeat(40).as_bytes(), None);
//! assert_eq!(doc.report.verdict, Some(coherency_core::analyze::Verdict::Fail));
//! ```
//!
//! The modules are layers, each naming only the modules below it (held by `tests/layers.rs`):
//!
//! | module      | may name                                           | holds                                                          |
//! |-------------|----------------------------------------------------|----------------------------------------------------------------|
//! | [`render`]  | verdict, compare, ingest, analyze, stream, wording | reports for people: Markdown, HTML, JSON, segments, links      |
//! | [`live`]    | verdict, compare, ingest, analyze, stream, splitmix, wording | the live endpoint mode: the session, checks, soak statistics   |
//! | [`compare`] | analyze, ingest, stream, wording                   | an endpoint compared with a golden reference: partings, drift |
//! | [`judge`]   | analyze, ingest, splitmix, wording                 | transcripts judged: what the page, the CLI and live mode call |
//! | [`ingest`]  | stream, wording                                    | documents read into a transcript (reading only, no judging)   |
//! | [`analyze`] | splitmix, wording                                  | one text judged: the scorers, the checks, the `Report`        |
//! | [`stream`]  | wording                                            | sans-IO SSE decoding and reply assembly                        |
//! | [`samples`] | nothing                                            | the page's built-in sample texts                               |
//! | [`splitmix`]| nothing                                            | the one seeded generator and bit mixer (splitmix64)            |
//! | [`wording`] | nothing                                            | numbers and texts in words, for every sentence                 |
//!
//! This crate is the pure core: no browser crate and no I/O can be reached from it (its
//! `Cargo.toml` has none), so every number is computed here and tested natively, and the wasm
//! build gives the same. Its shells are the page (`coherency-page`), the CLI (`coherency-cli`)
//! and the tests.

pub mod analyze;
pub mod compare;
pub mod ingest;
pub mod judge;
pub mod live;
pub mod render;
pub mod samples;
pub mod splitmix;
pub mod stream;
pub mod wording;
