//! Analysis: the seed's three heuristics, the loop checks and the incoherence checks, judged, with the spans that show
//! where they tripped and the onset of the degenerate text.
//!
//! Pure code: no I/O, no browser imports. One scorer per file; [`Analyzer`] runs them all.

mod analyzer;
pub(crate) mod checks;
pub mod code_blocks;
mod compare_rules;
pub mod content_lines;
pub mod copy_coverage;
pub mod edited_runs;
#[cfg(not(target_arch = "wasm32"))]
mod first_come;
pub mod first_seen;
pub mod gzip_ratio;
pub mod hashed_set;
pub mod incoherence;
pub mod line_repeats;
pub mod loop_checks;
pub mod profile;
// Naive oracles of the seed's scanners and of the loop scorers, with the property tests that
// hold the fast code equal to them.
#[cfg(test)]
mod naive_loops;
#[cfg(test)]
mod naive_seed;
pub mod ngram_stats;
mod onset;
mod report;
pub mod restarts;
pub mod rule_lines;
pub mod side_passes;
pub mod tandem;
pub mod text_units;
mod threshold_settings;
mod thresholds;
pub mod tokens;
pub mod variation;
pub mod word_runs;

pub use analyzer::{
    analyze, analyze_with, analyze_with_prompt, analyze_without_deflate, analyze_without_side_passes,
    passes_without_deflate, AnalysisWithoutDeflate, AnalysisWithoutSidePasses, Analyzer,
};
pub use compare_rules::CompareRules;
pub use report::{
    format_metric, format_threshold, onset_phrase, threshold_cell, verdict_headline, Breakdown, Check, CopyFigure,
    Direction, DriftFigure, Metric, Metrics, ProfileFigure, Report, Span, SpanKind, TandemFigure, Verdict,
    PASS_HEADLINE,
};
pub use tandem::UnitKind;
pub use threshold_settings::{setting_names, Setting, SettingKind, ThresholdChange, ThresholdError, SETTINGS};
pub use thresholds::{CopyRules, EndRules, IncoherenceRules, LoopRules, TandemClause, Thresholds, ToolRules};
