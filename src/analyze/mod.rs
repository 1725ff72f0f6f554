//! Analysis: the seed's three heuristics, judged, with the spans that show where they tripped.
//!
//! Pure code: no I/O, no browser imports. One scorer per file; [`Analyzer`] runs them all.

mod analyzer;
pub mod copy_coverage;
pub mod gzip_ratio;
mod judge;
pub mod line_repeats;
mod pacing;
pub mod profile;
// proptest is a native-only dev-dependency.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod naive;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod naive_scorers;
pub mod ngram_stats;
mod report;
pub mod tandem;
pub mod text_units;
mod thresholds;
pub mod word_runs;

pub use analyzer::{analyze, Analyzer};
pub use judge::{quote, thousands};
pub use pacing::ReportPacer;
pub use report::{format_metric, format_threshold, Check, Direction, Metric, Metrics, Report, Span, SpanKind, Verdict};
pub use thresholds::Thresholds;
