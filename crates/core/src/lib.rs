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
//! Transcripts in other shapes (SSE captures, chat JSON, JSONL logs, agent sessions) go
//! through [`ingest`], which detects the format and yields messages to analyse one by one;
//! [`stream`] holds its sans-IO SSE decoder and delta assembler.
//!
//! This crate is the pure core: no browser crate and no I/O can be reached from it (its
//! `Cargo.toml` has none), so every number is computed here and tested natively, and the wasm
//! build gives the same. Its shells are the page (`coherency-page`), the CLI (`coherency-cli`)
//! and the tests.

pub mod analyze;
pub mod ingest;
pub mod live;
pub mod samples;
pub mod stream;
