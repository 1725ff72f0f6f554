//! An endpoint compared with a golden reference: the same prompts at deterministic settings,
//! where the two outputs part company and how far the chosen tokens' logprobs drift before
//! they do — the check that sees a numerical bug (a kernel, a cast, a cache) before it becomes a
//! loop. Pure: bytes in, figures and words out.
//!
//! ```
//! use coherency_core::compare::{compare, judge, read_outputs, Reading};
//! let sse = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi there\"}}]}\n\ndata: [DONE]\n\n";
//! let reference = read_outputs("p1", sse.as_bytes()).outputs;
//! let c = compare(&reference, &reference, 0.5);
//! assert_eq!(judge(&c, None, &Default::default()).reading, Reading::Identical);
//! ```
//!
//! Files, one concept each: `output.rs` (one prompt's output: text, tokens, logprobs, what the
//! server said), `read.rs` (golden files, soak captures files, SSE and JSON captures read into
//! outputs), `golden.rs` (the golden file format), `pairing.rs` (which output answers which
//! prompt), `align.rs` (two token streams lined up: identical, prefix, parted at a byte and a
//! token; tokenisations compared by bytes), `token_drift.rs` (|Δ logprob|, top-1, the top-k
//! total variation), `prompt.rs` (one prompt compared), `stats.rs` (medians, shares, means and
//! rank correlations with 95 % intervals), `comparison.rs` (across prompts), `judgement.rs`
//! (the verdict by `CompareRules` and the reading in words), `report.rs` (what the reports
//! show: files, models, the comparison, the noise floor, the judgement).

mod align;
mod comparison;
pub mod golden;
mod judgement;
mod output;
mod pairing;
mod prompt;
mod read;
mod report;
pub mod stats;
mod token_drift;

pub use align::{align, Alignment, Relation};
pub use comparison::{compare, Comparison, PositionBin, NEAR_TIE, POSITION_BINS};
pub use golden::{golden_file, golden_line, read_golden_line, GOLDEN_SCHEMA};
pub use judgement::{judge, Judgement, Reading};
pub use output::Output;
pub use pairing::{pair, Pairing};
pub use prompt::{compare_prompt, PromptComparison, CONTINUATION_BYTES};
pub use read::{read_outputs, InputKind, ReadOutputs};
pub use report::CompareReport;
pub use token_drift::{compare_tokens, top_gap, total_variation, TokenDrift};
