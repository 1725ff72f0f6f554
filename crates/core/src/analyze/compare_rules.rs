//! The rules that judge a comparison of an endpoint with a golden reference (`compare`): how
//! many prompts may part and how far the chosen tokens' logprobs may drift before a comparison
//! WARNs or FAILs, and what counts as an early parting or a drift that grows with context. One
//! field of [`super::Thresholds`]; the CLI's exit status and every report's words follow them.

/// Where a comparison starts to WARN and to FAIL. With a noise floor (the reference compared
/// with itself), the shares and drifts judged are what the candidate shows beyond the floor's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompareRules {
    /// Share of prompts whose outputs part (0..=1) from which a comparison WARNs…
    pub parted_warn: f64,
    /// …and FAILs.
    pub parted_fail: f64,
    /// Mean |Δ logprob| of the chosen tokens along the common prefix (nats, averaged per prompt)
    /// from which a comparison WARNs…
    pub drift_warn: f64,
    /// …and FAILs.
    pub drift_fail: f64,
    /// A parting before this share of the reference's output is early.
    pub early_share: f64,
    /// Drift that grows with context (a rank correlation whose 95 % interval lies above 0) WARNs
    /// when the mean drift is at least this (nats): a trend in drift too small to matter does not.
    pub trend_min_drift: f64,
}

impl CompareRules {
    pub const DEFAULT: CompareRules = CompareRules {
        parted_warn: 0.05,
        parted_fail: 0.25,
        drift_warn: 0.01,
        drift_fail: 0.1,
        early_share: 0.5,
        trend_min_drift: 0.002,
    };
}

impl Default for CompareRules {
    fn default() -> Self {
        Self::DEFAULT
    }
}
