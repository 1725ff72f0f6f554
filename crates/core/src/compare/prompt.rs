//! One prompt compared: the alignment of the two outputs, and along their common prefix the
//! drift of every paired token (|Δ logprob|, top-1 agreement, top-k divergence) and its trend
//! with position; at the parting point, how close a call the reference's choice was and both
//! continuations from there.

use super::align::{align, Alignment, Relation};
use super::output::Output;
use super::stats::{mean, spearman, Estimate};
use super::token_drift::{compare_tokens, top_gap};

/// Bytes of each continuation kept from the parting point.
pub const CONTINUATION_BYTES: usize = 160;
/// Paired tokens with logprobs a prompt needs for its own trend along position.
pub const MIN_TREND_TOKENS: usize = 8;

/// One prompt's comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptComparison {
    pub id: String,
    pub alignment: Alignment,
    /// Whether the outputs count as parted: they differ from a byte both have, or one stopped
    /// by itself (`finish_reason` "stop") where the other went on. One that was only cut
    /// shorter by its token budget (`length`, or no reason) is a prefix, not a parting.
    pub parted: bool,
    /// The context the reply started from (the reference's reported prompt tokens, else the
    /// candidate's).
    pub prompt_tokens: Option<u64>,
    /// Per paired token: (position in the reference's output, |Δ logprob|).
    pub deltas: Vec<(usize, f64)>,
    pub mean_delta: Option<f64>,
    /// The largest |Δ logprob| and the reference token where it is.
    pub max_delta: Option<(usize, f64)>,
    /// Paired tokens whose top lists were compared, and how many agreed on the top token.
    pub top1_compared: usize,
    pub top1_agreed: usize,
    pub mean_divergence: Option<f64>,
    /// Spearman's ρ of |Δ logprob| against position along this output (from `MIN_TREND_TOKENS` paired tokens).
    pub trend: Option<Estimate>,
    /// At the parting token: the reference's gap between its top two choices (nats), when given.
    pub parting_gap: Option<f64>,
    /// The reference's and the candidate's text from the start of the parting tokens (up to
    /// [`CONTINUATION_BYTES`], on character boundaries; invalid UTF-8 shown as U+FFFD).
    pub reference_continuation: String,
    pub candidate_continuation: String,
    /// Both sides had logprobs.
    pub logprobs: bool,
}

impl PromptComparison {
    /// The parting point in tokens of the reference, or bytes when it has no tokens.
    pub fn parting_position(&self, reference_has_tokens: bool) -> usize {
        if reference_has_tokens {
            self.alignment.reference_token
        } else {
            self.alignment.at_byte
        }
    }
}

/// `bytes[from..]`, up to `CONTINUATION_BYTES`, as text.
fn continuation(bytes: &[u8], from: usize) -> String {
    let from = from.min(bytes.len());
    // Back to the start of the character holding `from`.
    let mut start = from;
    while start > 0 && start < bytes.len() && (bytes[start] & 0xC0) == 0x80 && from - start < 3 {
        start -= 1;
    }
    let end = (start + CONTINUATION_BYTES).min(bytes.len());
    let text = String::from_utf8_lossy(&bytes[start..end]).into_owned();
    // A character cut at the end shows as U+FFFD: drop it.
    text.trim_end_matches('\u{FFFD}').to_string()
}

/// Compares `candidate` with `reference` (the same prompt).
pub fn compare_prompt(reference: &Output, candidate: &Output) -> PromptComparison {
    let alignment = align(reference, candidate);
    let stopped = |o: &Output| o.finish_reason.as_deref() == Some("stop");
    let parted = match alignment.outcome {
        Relation::Identical => false,
        Relation::Parted => true,
        Relation::ReferenceShorter => stopped(reference),
        Relation::CandidateShorter => stopped(candidate),
    };
    let mut deltas = Vec::new();
    let (mut top1_compared, mut top1_agreed, mut divergences) = (0, 0, Vec::new());
    for &(i, j) in &alignment.pairs {
        let (Some(r), Some(c)) = (reference.tokens.get(i), candidate.tokens.get(j)) else { continue };
        let d = compare_tokens(r, c);
        if let Some(delta) = d.delta {
            deltas.push((i, delta));
        }
        if let Some(agrees) = d.top1_agrees {
            top1_compared += 1;
            top1_agreed += usize::from(agrees);
        }
        divergences.extend(d.divergence);
    }
    let values: Vec<f64> = deltas.iter().map(|(_, d)| *d).collect();
    let trend = if deltas.len() >= MIN_TREND_TOKENS {
        let positions: Vec<f64> = deltas.iter().map(|(i, _)| *i as f64).collect();
        spearman(&positions, &values)
    } else {
        None
    };
    let (a, b) = (reference.compared_bytes(), candidate.compared_bytes());
    // Both from the earlier of the two parting tokens' starts (the bytes before `at_byte` are
    // the same on both sides).
    let from = alignment.reference_token_start.min(alignment.candidate_token_start);
    PromptComparison {
        id: reference.id.clone(),
        parted,
        prompt_tokens: reference.prompt_tokens.or(candidate.prompt_tokens),
        mean_delta: mean(&values).map(|m| m.value),
        max_delta: deltas.iter().copied().max_by(|x, y| x.1.total_cmp(&y.1)),
        deltas,
        top1_compared,
        top1_agreed,
        mean_divergence: mean(&divergences).map(|m| m.value),
        trend,
        parting_gap: if alignment.outcome == Relation::Identical {
            None
        } else {
            reference.tokens.get(alignment.reference_token).and_then(top_gap)
        },
        reference_continuation: continuation(&a, from),
        candidate_continuation: continuation(&b, from),
        logprobs: reference.has_logprobs() && candidate.has_logprobs(),
        alignment,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::TokenLogprob;

    fn out(tokens: &[(&str, f64)], finish: &str) -> Output {
        Output {
            id: "p".into(),
            text: tokens.iter().map(|t| t.0).collect(),
            tokens: tokens
                .iter()
                .map(|(t, lp)| TokenLogprob {
                    token: t.to_string(),
                    bytes: None,
                    logprob: Some(*lp),
                    top: vec![(t.to_string(), *lp), ("zz".into(), lp - 0.5)],
                })
                .collect(),
            finish_reason: Some(finish.into()),
            ..Output::default()
        }
    }

    #[test]
    fn drift_along_the_prefix_and_the_continuations_from_the_parting_point() {
        let reference: Vec<(&str, f64)> = (0..12).map(|i| (["a", "b", "c"][i % 3], -1.0)).collect();
        let mut drifted = reference.clone();
        for (k, t) in drifted.iter_mut().enumerate() {
            t.1 -= 0.01 * k as f64;
        }
        drifted[10].0 = "x";
        let c = compare_prompt(&out(&reference, "length"), &out(&drifted, "length"));
        assert!(c.parted);
        assert_eq!((c.alignment.at_byte, c.alignment.reference_token), (10, 10));
        assert_eq!(c.deltas.len(), 10);
        assert!((c.max_delta.unwrap().1 - 0.09).abs() < 1e-9);
        assert!((c.mean_delta.unwrap() - 0.045).abs() < 1e-9);
        assert!(c.trend.unwrap().value > 0.99, "drift grows along the output");
        assert_eq!((c.top1_compared, c.top1_agreed), (10, 10));
        assert_eq!((c.reference_continuation.as_str(), c.candidate_continuation.as_str()), ("bc", "xc"));
        let mut cut = drifted.clone();
        cut[10].0 = "bz";
        let c = compare_prompt(&out(&reference, "length"), &out(&cut, "length"));
        assert_eq!(
            (c.alignment.at_byte, c.reference_continuation.as_str(), c.candidate_continuation.as_str()),
            (11, "bc", "bzc"),
            "from the parting token's start"
        );
        assert!((c.parting_gap.unwrap() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_budget_cut_is_a_prefix_but_stopping_early_is_a_parting() {
        let long = out(&[("a", -1.0), ("b", -1.0)], "length");
        assert!(!compare_prompt(&long, &out(&[("a", -1.0)], "length")).parted);
        assert!(compare_prompt(&long, &out(&[("a", -1.0)], "stop")).parted);
        assert!(!compare_prompt(&long, &long).parted);
    }

    #[test]
    fn outputs_without_tokens_are_compared_by_their_text() {
        let text = |t: &str| Output { id: "p".into(), text: t.into(), ..Output::default() };
        let c = compare_prompt(&text("Hi there"), &text("Hi there"));
        assert_eq!((c.alignment.outcome, c.mean_delta, c.logprobs), (Relation::Identical, None, false));
        let c = compare_prompt(&text("Hi there"), &text("Hi where"));
        assert!(c.parted && c.alignment.at_byte == 3 && c.deltas.is_empty());
        // One side with tokens, the other without: by bytes, no drift.
        let c = compare_prompt(&out(&[("Hi", -1.0), (" there", -1.0)], "stop"), &text("Hi there"));
        assert_eq!((c.alignment.outcome, c.mean_delta), (Relation::Identical, None));
    }

    #[test]
    fn continuations_start_on_a_character() {
        assert_eq!(continuation("héllo".as_bytes(), 2), "éllo");
        assert_eq!(continuation(b"abc", 3), "");
    }
}
