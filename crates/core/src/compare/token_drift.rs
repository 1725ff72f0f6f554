//! Two tokens that cover the same bytes, compared: |Δ logprob| of the chosen token, whether the
//! two servers' most likely tokens agree (top-1), and how far apart their top-k lists are.
//!
//! The divergence of the top-k lists is the **total variation distance** ½ Σ |p − q| between
//! the two lists, each turned into probabilities (e^logprob) and renormalised to sum to 1 over
//! its own k tokens; a token that only one list holds counts 0 in the other. It is 0 when both
//! lists hold the same tokens with the same probabilities and 1 when they share no token. It
//! measures the *visible* part of the two distributions (the top k), not the whole vocabulary.

use crate::stream::TokenLogprob;

/// One pair of tokens compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenDrift {
    /// |logprob(reference) − logprob(candidate)|, when both gave one.
    pub delta: Option<f64>,
    /// Whether the most likely token of each top list is the same, when both gave lists.
    pub top1_agrees: Option<bool>,
    /// The total variation distance of the top-k lists, when both gave lists.
    pub divergence: Option<f64>,
}

/// Compares one reference token with the candidate's token over the same bytes.
pub fn compare_tokens(reference: &TokenLogprob, candidate: &TokenLogprob) -> TokenDrift {
    let delta = match (reference.logprob, candidate.logprob) {
        (Some(a), Some(b)) => Some((a - b).abs()),
        _ => None,
    };
    let both = !reference.top.is_empty() && !candidate.top.is_empty();
    let top1 = |t: &TokenLogprob| {
        t.top.iter().max_by(|a, b| a.1.total_cmp(&b.1)).map(|(token, _)| token.clone()).unwrap_or_default()
    };
    TokenDrift {
        delta,
        top1_agrees: both.then(|| top1(reference) == top1(candidate)),
        divergence: both.then(|| total_variation(&reference.top, &candidate.top)),
    }
}

/// The total variation distance of two top-k lists (see the module doc).
pub fn total_variation(p: &[(String, f64)], q: &[(String, f64)]) -> f64 {
    fn normalised(list: &[(String, f64)]) -> Vec<(&str, f64)> {
        let mut probs: Vec<(&str, f64)> = Vec::with_capacity(list.len());
        // A token listed twice (some servers list byte variants) counts once, its mass added.
        for (token, lp) in list {
            match probs.iter_mut().find(|(t, _)| t == token) {
                Some((_, p)) => *p += lp.exp(),
                None => probs.push((token.as_str(), lp.exp())),
            }
        }
        let total: f64 = probs.iter().map(|(_, p)| p).sum();
        if total > 0.0 {
            for (_, p) in &mut probs {
                *p /= total;
            }
        }
        probs
    }
    let (p, q) = (normalised(p), normalised(q));
    let mass = |list: &[(&str, f64)], token: &str| list.iter().find(|(t, _)| *t == token).map_or(0.0, |(_, m)| *m);
    let mut sum = 0.0;
    for (token, m) in &p {
        sum += (m - mass(&q, token)).abs();
    }
    for (token, m) in &q {
        if !p.iter().any(|(t, _)| t == token) {
            sum += m;
        }
    }
    (sum / 2.0).clamp(0.0, 1.0)
}

/// The gap in logprob between the most and the second most likely token of a top list: how
/// close a call the choice was (`None` with fewer than two alternatives).
pub fn top_gap(token: &TokenLogprob) -> Option<f64> {
    let mut lps: Vec<f64> = token.top.iter().map(|(_, lp)| *lp).collect();
    lps.sort_by(|a, b| b.total_cmp(a));
    (lps.len() >= 2).then(|| lps[0] - lps[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(lp: f64, top: &[(&str, f64)]) -> TokenLogprob {
        TokenLogprob {
            token: top.first().map_or("x", |t| t.0).into(),
            bytes: None,
            logprob: Some(lp),
            top: top.iter().map(|(t, l)| (t.to_string(), *l)).collect(),
        }
    }

    #[test]
    fn equal_lists_do_not_diverge_and_disjoint_ones_fully_do() {
        let a = tok(-0.1, &[("a", -0.1), ("b", -2.5)]);
        let d = compare_tokens(&a, &a);
        assert_eq!((d.delta, d.top1_agrees, d.divergence), (Some(0.0), Some(true), Some(0.0)));
        let b = tok(-0.3, &[("c", -0.3), ("d", -1.5)]);
        let d = compare_tokens(&a, &b);
        assert_eq!(d.top1_agrees, Some(false));
        assert!((d.divergence.unwrap() - 1.0).abs() < 1e-12);
        assert!((d.delta.unwrap() - 0.2).abs() < 1e-12);
    }

    #[test]
    fn total_variation_against_a_direct_sum() {
        // p = {a: .5, b: .5}, q = {a: .75, c: .25} after renormalising: ½(.25 + .5 + .25) = .5.
        let p = [("a".to_string(), 0.5f64.ln()), ("b".to_string(), 0.5f64.ln())];
        let q = [("a".to_string(), 0.6f64.ln()), ("c".to_string(), 0.2f64.ln())];
        assert!((total_variation(&p, &q) - 0.5).abs() < 1e-12);
        assert!((total_variation(&q, &p) - 0.5).abs() < 1e-12, "symmetric");
        assert_eq!(total_variation(&[], &[]), 0.0);
    }

    #[test]
    fn missing_figures_stay_missing() {
        let bare = TokenLogprob { token: "a".into(), ..TokenLogprob::default() };
        let d = compare_tokens(&bare, &tok(-1.0, &[("a", -1.0)]));
        assert_eq!((d.delta, d.top1_agrees, d.divergence), (None, None, None));
        assert_eq!(top_gap(&tok(-0.1, &[("a", -0.1), ("b", -0.4)])).map(|g| (g * 10.0).round()), Some(3.0));
        assert_eq!(top_gap(&bare), None);
    }
}
