//! What lies behind context loss, from the reported prompt counts and the repeated asks: a
//! server that cut the prompt (silent truncation: a count far below the estimate, at a round
//! cap, or one count for two lengths) and a greedy request answered two ways (nondeterminism).

use super::answer::{Answer, Retrieval};
use crate::live::needle::plan::{Cell, Depth, Probe};

/// A reported prompt count under this share of the estimate says the prompt was cut.
pub const FAR_BELOW: f64 = 0.5;
/// A reported count that is a multiple of this, below the estimate by [`ROUND_BELOW`], is a
/// server's context cap (2,048, 4,096, 8,192…).
pub const ROUND: u64 = 512;
pub const ROUND_BELOW: f64 = 0.9;
/// One reported count for two lengths whose estimates differ by more than this factor: the
/// count stopped growing with the prompt.
pub const SAME_COUNT_GROWTH: f64 = 1.1;

/// How the estimate is made and when a count says the prompt was cut, in words.
pub fn estimate_rule() -> String {
    format!(
        "Lengths are estimated prompt tokens: each message's bytes ÷ 4. A real tokenizer and the chat template count \
otherwise, so only a reported count under {:.0} % of the estimate, a multiple of {ROUND} under {:.0} % of it, or one \
count for two lengths is read as a cut prompt.",
        FAR_BELOW * 100.0,
        ROUND_BELOW * 100.0
    )
}

/// Why a reported prompt count says the server cut the prompt.
#[derive(Clone, Debug, PartialEq)]
pub enum CutSign {
    /// A round number (a multiple of [`ROUND`]) well below the estimate: a context cap.
    RoundCap,
    /// The same count as at this shorter length, though the prompt grew.
    SameCount(usize),
    /// Under [`FAR_BELOW`] of the estimate.
    FarBelow,
}

/// The first sign of a cut prompt: at which length and depth, the estimate, the count.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    pub length: usize,
    pub depth: Depth,
    pub estimated: usize,
    pub reported: u64,
    pub sign: CutSign,
}

/// Whether `reported` prompt tokens for a prompt of `estimated` says it was cut (one count
/// alone; [`truncation`] also compares the lengths).
pub fn cut_sign(estimated: usize, reported: u64) -> Option<CutSign> {
    let estimated = estimated as f64;
    if reported > 0 && reported.is_multiple_of(ROUND) && (reported as f64) < ROUND_BELOW * estimated {
        Some(CutSign::RoundCap)
    } else if (reported as f64) < FAR_BELOW * estimated {
        Some(CutSign::FarBelow)
    } else {
        None
    }
}

/// The shortest length whose prompt the server cut, judged from the first asks only (a
/// repeated request may be counted without the part a cache held).
pub fn truncation(probe: &Probe, answers: &[Answer]) -> Option<Cut> {
    let counted: Vec<(&Cell, u64)> =
        answers.iter().filter(|a| !a.repeat).filter_map(|a| Some((&probe.cells[a.cell], a.prompt_tokens?))).collect();
    let cuts = counted.iter().filter_map(|&(cell, reported)| {
        let same = counted.iter().find(|&&(other, count)| {
            count == reported
                && other.length < cell.length
                && cell.estimated_tokens as f64 > SAME_COUNT_GROWTH * other.estimated_tokens as f64
        });
        let sign = cut_sign(cell.estimated_tokens, reported).or(same.map(|(o, _)| CutSign::SameCount(o.length)))?;
        Some(Cut { length: cell.length, depth: cell.depth, estimated: cell.estimated_tokens, reported, sign })
    });
    cuts.min_by_key(|c| c.length)
}

/// Two answers to one greedy request that differ (errors do not count).
pub(super) fn differs(a: &Answer, b: &Answer) -> bool {
    let answered = |x: &Answer| !matches!(x.outcome, Retrieval::Error(_));
    answered(a) && answered(b) && a.text != b.text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_says_a_cut_when_far_below_or_at_a_round_cap() {
        assert_eq!(cut_sign(8200, 4096), Some(CutSign::RoundCap));
        assert_eq!(cut_sign(8200, 3000), Some(CutSign::FarBelow));
        assert_eq!(cut_sign(4090, 4096), None, "a count above the estimate is the template's");
        assert_eq!(cut_sign(4090, 3700), None, "a tokenizer that counts 10 % fewer");
        assert_eq!(cut_sign(4090, 3584), Some(CutSign::RoundCap), "7 × 512, 12 % under");
        assert_eq!(cut_sign(1000, 0), Some(CutSign::FarBelow));
    }
}
