//! The needle probe's answers judged and summed up: each answer found (it holds the needle,
//! exactly), missed or an error, with its evidence (its first words, the prompt tokens the
//! server reported against the estimate); the grid of lengths × depths; and what lies behind
//! context loss — a server that cut the prompt (silent truncation), a greedy request that
//! answered differently the second time (cache nondeterminism), an answer that repeats an
//! earlier turn — and the sentence a team quotes. Pure: the page hands in each answer.
//!
//! Its parts: `answer.rs` (each answer scored), `diagnosis.rs` (truncation and nondeterminism
//! from the counts and repeats), `summary.rs` (the sentence and its findings); this file shows
//! the grid's cells.

mod answer;
mod diagnosis;
mod summary;
#[cfg(test)]
mod test_probes;

use crate::live::needle::plan::Probe;
use crate::wording::{quote, thousands};

pub use answer::{echoed_turn, Answer, Retrieval, ECHO_SHARE, ECHO_WORDS};
use diagnosis::differs;
pub use diagnosis::{
    cut_sign, estimate_rule, truncation, Cut, CutSign, FAR_BELOW, ROUND, ROUND_BELOW, SAME_COUNT_GROWTH,
};
pub use summary::{summarize, Note, ProbeSummary};

/// What one cell of the grid shows.
#[derive(Clone, Debug, PartialEq)]
pub struct CellShown {
    /// "found", "missed", "error" or "waiting": the cell's word and its class.
    pub state: &'static str,
    /// The answer's first words, the prompt tokens reported against the estimate, and what
    /// the repeat and the echo check saw.
    pub evidence: String,
}

/// The grid's cell `index` as `answers` (so far) have it: its first ask decides.
pub fn cell_shown(probe: &Probe, answers: &[Answer], index: usize) -> CellShown {
    let cell = &probe.cells[index];
    let Some(first) = answers.iter().find(|a| a.cell == index && !a.repeat) else {
        return CellShown { state: "waiting", evidence: format!("≈{} tokens", thousands(cell.estimated_tokens)) };
    };
    let counted = match first.prompt_tokens {
        Some(n) => format!("{} of ≈{} prompt tokens", thousands(n as usize), thousands(cell.estimated_tokens)),
        None => format!("≈{} prompt tokens (none reported)", thousands(cell.estimated_tokens)),
    };
    let (state, mut evidence) = match &first.outcome {
        Retrieval::Found => ("found", format!("“{}” · {counted}", quote(&first.text))),
        Retrieval::Missed => ("missed", format!("“{}” · {counted}", quote(&first.text))),
        Retrieval::Error(why) => ("error", why.clone()),
    };
    if let Some(turn) = first.echoes {
        evidence += &format!(" · repeats assistant turn {turn}");
    }
    if let Some(again) = answers.iter().find(|a| a.cell == index && a.repeat) {
        evidence +=
            if differs(first, again) { " · answered differently the second time" } else { " · the same again" };
    }
    CellShown { state, evidence }
}

/// What the probe says when Stop ended it: how many requests finished, and that their cells
/// are kept while the cells still waiting were not asked.
pub fn stopped_text(probe: &Probe, answers: &[Answer]) -> String {
    format!(
        "Stopped after {} of {} requests: the cells that finished are kept; those still waiting were not asked.",
        answers.len(),
        probe.asks.len()
    )
}
