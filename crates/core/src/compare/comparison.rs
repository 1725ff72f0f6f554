//! A candidate's outputs compared with a reference's, across prompts: how many are identical,
//! where the others part (median and quartiles, with an interval), how far the chosen tokens'
//! logprobs drift along the common prefix, and whether that drift grows with position or with
//! the context the prompt started from — each figure with its 95 % interval.

use super::output::Output;
use super::pairing::{pair, Pairing};
use super::prompt::{compare_prompt, PromptComparison};
use super::stats::{mean, median, share, spearman, Estimate};

/// Bins of the absolute position (prompt tokens + output token) for the drift by position.
pub const POSITION_BINS: [usize; 6] = [0, 32, 128, 512, 2048, 8192];

/// One position bin's drift.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionBin {
    /// First position of the bin; it runs to the next bin's start (the last has no end).
    pub from: usize,
    pub to: Option<usize>,
    /// Paired tokens with logprobs in the bin, and their mean |Δ logprob|.
    pub tokens: usize,
    pub mean_delta: f64,
}

/// Every figure of a comparison. See the module doc.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub prompts: Vec<PromptComparison>,
    pub pairing: Pairing,
    pub identical: usize,
    /// Outputs that part (see [`PromptComparison::parted`]), and their share with its interval.
    pub parted: usize,
    pub parted_share: Option<Estimate>,
    /// Where the parted outputs part: median (tokens of the reference, or bytes when it has no
    /// tokens) with its interval, and the quartiles.
    pub parting: Option<(Estimate, f64, f64)>,
    /// True when `parting` counts tokens; false when some output had none (then bytes).
    pub parting_in_tokens: bool,
    /// Where they part as a share of the reference's output: its median.
    pub parting_share: Option<(Estimate, f64, f64)>,
    /// Parted outputs whose parting is early (before the rules' share of the output).
    pub early: usize,
    /// Partings where the reference's top two choices were within 0.1 nats: near-ties.
    pub near_ties: usize,
    /// Mean |Δ logprob| per prompt, averaged over prompts with its interval.
    pub drift: Option<Estimate>,
    /// The largest |Δ logprob| seen, with its prompt and token.
    pub max_drift: Option<(String, usize, f64)>,
    /// Paired tokens whose top lists were compared, and the share whose top token agreed.
    pub top1: Option<Estimate>,
    /// Mean top-k total variation per prompt, averaged over prompts.
    pub divergence: Option<Estimate>,
    pub by_position: Vec<PositionBin>,
    /// Mean of the per-prompt rank correlations of |Δ logprob| with position (prompts with
    /// enough paired tokens), with its interval: > 0 means drift grows along an output.
    pub trend_along_output: Option<Estimate>,
    /// Rank correlation across prompts of the context (prompt tokens) with the prompt's mean
    /// |Δ logprob|.
    pub trend_with_context: Option<Estimate>,
    /// Rank correlation across parted prompts of the context with the parting token: < 0
    /// means longer contexts part earlier.
    pub parting_with_context: Option<Estimate>,
    /// Prompts compared where both sides had logprobs.
    pub with_logprobs: usize,
}

/// A near-tie at the parting token: the reference's top two within this many nats.
pub const NEAR_TIE: f64 = 0.1;

/// Compares every candidate output with the reference output of the same prompt. `early_share`
/// says which partings are early (the rules' `early_share`).
pub fn compare(references: &[Output], candidates: &[Output], early_share: f64) -> Comparison {
    let pairing = pair(references, candidates);
    let prompts: Vec<PromptComparison> =
        pairing.pairs.iter().map(|&(i, j)| compare_prompt(&references[i], &candidates[j])).collect();
    let n = prompts.len();
    let identical = prompts.iter().filter(|p| p.alignment.outcome == super::align::Relation::Identical).count();
    let parted: Vec<(usize, &PromptComparison)> =
        pairing.pairs.iter().map(|&(i, _)| i).zip(&prompts).filter(|(_, p)| p.parted).collect();
    let in_tokens = parted.iter().all(|(i, _)| !references[*i].tokens.is_empty());
    let positions: Vec<f64> =
        parted.iter().map(|(i, p)| p.parting_position(in_tokens && !references[*i].tokens.is_empty()) as f64).collect();
    let shares: Vec<f64> = parted.iter().map(|(_, p)| p.alignment.share()).collect();
    let with_lp: Vec<&PromptComparison> = prompts.iter().filter(|p| p.mean_delta.is_some()).collect();
    let drifts: Vec<f64> = with_lp.iter().filter_map(|p| p.mean_delta).collect();
    let max_drift = prompts
        .iter()
        .filter_map(|p| p.max_delta.map(|(k, d)| (p.id.clone(), k, d)))
        .max_by(|a, b| a.2.total_cmp(&b.2));
    let (compared, agreed) = prompts.iter().fold((0, 0), |(c, a), p| (c + p.top1_compared, a + p.top1_agreed));
    let divergences: Vec<f64> = prompts.iter().filter_map(|p| p.mean_divergence).collect();
    let trends: Vec<f64> = prompts.iter().filter_map(|p| p.trend.map(|t| t.value)).collect();
    let context_drift: Vec<(f64, f64)> =
        with_lp.iter().filter_map(|p| Some((p.prompt_tokens? as f64, p.mean_delta?))).collect();
    let context_parting: Vec<(f64, f64)> =
        parted.iter().zip(&positions).filter_map(|((_, p), pos)| Some((p.prompt_tokens? as f64, *pos))).collect();
    let correlate = |pairs: &[(f64, f64)]| {
        let (x, y): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
        spearman(&x, &y)
    };
    Comparison {
        identical,
        parted: parted.len(),
        parted_share: share(parted.len(), n),
        parting: median(&positions),
        parting_in_tokens: in_tokens,
        parting_share: median(&shares),
        early: shares.iter().filter(|s| **s < early_share).count(),
        near_ties: parted.iter().filter(|(_, p)| p.parting_gap.is_some_and(|g| g <= NEAR_TIE)).count(),
        drift: mean(&drifts).map(at_least_zero),
        max_drift,
        top1: share(agreed, compared),
        divergence: mean(&divergences).map(at_least_zero),
        by_position: by_position(&prompts),
        trend_along_output: mean(&trends),
        trend_with_context: correlate(&context_drift),
        parting_with_context: correlate(&context_parting),
        with_logprobs: with_lp.len(),
        prompts,
        pairing,
    }
}

/// A mean of values that cannot be negative, its interval cut at 0.
fn at_least_zero(e: Estimate) -> Estimate {
    Estimate { low: e.low.max(0.0), ..e }
}

/// The mean |Δ logprob| in each bin of absolute position (prompt tokens, when reported, plus
/// the token's place in the output). Empty bins are left out.
fn by_position(prompts: &[PromptComparison]) -> Vec<PositionBin> {
    let mut sums = [(0usize, 0.0f64); POSITION_BINS.len()];
    for p in prompts {
        let base = p.prompt_tokens.unwrap_or(0) as usize;
        for &(k, d) in &p.deltas {
            let bin = POSITION_BINS.partition_point(|&start| start <= base + k) - 1;
            sums[bin].0 += 1;
            sums[bin].1 += d;
        }
    }
    sums.iter()
        .enumerate()
        .filter(|(_, (count, _))| *count > 0)
        .map(|(i, (count, sum))| PositionBin {
            from: POSITION_BINS[i],
            to: POSITION_BINS.get(i + 1).copied(),
            tokens: *count,
            mean_delta: sum / *count as f64,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::TokenLogprob;

    /// A reference of `len` tokens for prompt `id`, and a candidate that drifts by `slope` per
    /// token and parts at `part` (if any).
    fn pair_of(id: &str, len: usize, context: u64, offset: f64, part: Option<usize>) -> (Output, Output) {
        let make = |offset: f64, drift: f64, part: Option<usize>| Output {
            id: id.into(),
            tokens: (0..len)
                .map(|k| {
                    let token = if Some(k) == part { "Q".to_string() } else { format!("t{}", k % 7) };
                    let lp = -0.5 - offset - drift * k as f64;
                    TokenLogprob {
                        top: vec![(token.clone(), lp), ("alt".into(), lp - 1.0)],
                        token,
                        bytes: None,
                        logprob: Some(lp),
                    }
                })
                .collect(),
            prompt_tokens: Some(context),
            finish_reason: Some("length".into()),
            ..Output::default()
        };
        let (mut r, mut c) = (make(0.0, 0.0, None), make(offset, if offset > 0.0 { 0.00001 } else { 0.0 }, part));
        for o in [&mut r, &mut c] {
            o.text = o.tokens.iter().map(|t| t.token.as_str()).collect();
        }
        (r, c)
    }

    #[test]
    fn figures_across_prompts_against_direct_counts() {
        let mut refs = Vec::new();
        let mut cands = Vec::new();
        // Prompt k has context 100·k, parts at 60 − 5k (longer contexts part earlier), drifts by
        // 0.001·k plus 0.00001 a token along its output.
        for k in 0..10usize {
            let (r, c) = pair_of(&format!("p{k}"), 80, 100 * k as u64, 0.001 * k as f64, (k >= 2).then(|| 60 - 5 * k));
            refs.push(r);
            cands.push(c);
        }
        let cmp = compare(&refs, &cands, 0.5);
        assert_eq!((cmp.prompts.len(), cmp.identical, cmp.parted), (10, 2, 8));
        assert!(cmp.parting_in_tokens);
        let mut parts: Vec<f64> = (2..10).map(|k| (60 - 5 * k) as f64).collect();
        parts.sort_by(f64::total_cmp);
        assert_eq!(cmp.parting.unwrap().0.value, (parts[3] + parts[4]) / 2.0);
        assert_eq!(cmp.early, (2..10).filter(|k| ((60 - 5 * k) as f64) / 80.0 < 0.5).count());
        assert!(cmp.parting_with_context.unwrap().value < -0.99, "longer contexts part earlier");
        assert!(cmp.trend_with_context.unwrap().value > 0.99, "drift grows with context");
        assert!(cmp.trend_along_output.unwrap().value > 0.99, "drift grows along each output");
        assert_eq!(cmp.top1.unwrap().value, 1.0);
        // The drift of prompt 9: the mean over its paired tokens k < 15 of 0.009 + 0.00001·k.
        let p9 = cmp.prompts.iter().find(|p| p.id == "p9").unwrap();
        assert!((p9.mean_delta.unwrap() - (0.009 + 0.00001 * 7.0)).abs() < 1e-9);
        let tokens: usize = cmp.by_position.iter().map(|b| b.tokens).sum();
        assert_eq!(tokens, cmp.prompts.iter().map(|p| p.deltas.len()).sum::<usize>());
    }

    #[test]
    fn a_reference_against_itself_is_identical_everywhere() {
        let refs: Vec<Output> = (0..5).map(|k| pair_of(&format!("p{k}"), 20, 10, 0.0, None).0).collect();
        let cmp = compare(&refs, &refs, 0.5);
        assert_eq!((cmp.identical, cmp.parted), (5, 0));
        assert_eq!(cmp.drift.unwrap().value, 0.0);
        assert!(cmp.parting.is_none());
    }
}
