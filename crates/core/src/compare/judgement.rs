//! A comparison judged by the rules (`analyze::CompareRules`, a field of `Thresholds`) and read
//! in words: PASS / WARN / FAIL with the reasons, and what the pattern suggests — late, rare
//! partings with tiny drift read as benign nondeterminism; early partings with drift that grows
//! with context as a numerical fault. With a noise floor (the reference against itself), the
//! shares and drifts judged are what the candidate shows beyond the floor's.

use super::comparison::Comparison;
use crate::analyze::{CompareRules, Verdict};
use crate::wording::{percent, plural};

/// What the pattern of differences suggests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every prompt gave the reference's output.
    Identical,
    /// No more different than the reference is from itself, or late, rare partings with tiny
    /// drift.
    BenignNondeterminism,
    /// Early partings, or drift beyond the rules, growing with context.
    NumericalFault,
    /// Parting at once on almost every prompt: another model or other settings.
    DifferentModel,
    /// Different beyond noise, in no clear pattern.
    Unclear,
    /// No prompt could be compared.
    NothingCompared,
}

impl Reading {
    pub fn key(self) -> &'static str {
        match self {
            Reading::Identical => "identical",
            Reading::BenignNondeterminism => "benign_nondeterminism",
            Reading::NumericalFault => "numerical_fault",
            Reading::DifferentModel => "different_model",
            Reading::Unclear => "unclear",
            Reading::NothingCompared => "nothing_compared",
        }
    }
}

/// The verdict, its reasons and the reading.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub verdict: Verdict,
    pub reasons: Vec<String>,
    pub reading: Reading,
    /// One sentence that says what the reading is and why.
    pub sentence: String,
}

/// A rank correlation's interval lies above 0.
fn grows(c: &Comparison) -> bool {
    [c.trend_with_context, c.trend_along_output].iter().flatten().any(|t| t.n >= 4 && t.low > 0.0)
}

/// Judges `c` by `rules`, against `noise` (the reference compared with itself) when given.
pub fn judge(c: &Comparison, noise: Option<&Comparison>, rules: &CompareRules) -> Judgement {
    let n = c.prompts.len();
    if n == 0 {
        return Judgement {
            verdict: Verdict::Fail,
            reasons: vec!["no prompt of the reference has an output to compare".into()],
            reading: Reading::NothingCompared,
            sentence: "Nothing was compared: no output pairs with a prompt of the reference.".into(),
        };
    }
    let parted = c.parted_share.map_or(0.0, |s| s.value);
    let drift = c.drift.map_or(0.0, |d| d.value);
    let floor_parted = noise.and_then(|f| f.parted_share).map_or(0.0, |s| s.value);
    let floor_drift = noise.and_then(|f| f.drift).map_or(0.0, |d| d.value);
    let (excess_parted, excess_drift) = ((parted - floor_parted).max(0.0), (drift - floor_drift).max(0.0));
    let beyond = if noise.is_some() { " beyond the reference's own" } else { "" };
    let mut verdict = Verdict::Pass;
    let mut reasons = Vec::new();
    let mut raise = |level: Verdict, why: String| {
        if level > verdict {
            verdict = level;
        }
        reasons.push(why);
    };
    let of = |share: f64| format!("{} of prompts part{beyond}", percent(share));
    if excess_parted >= rules.parted_fail {
        raise(Verdict::Fail, format!("{} (FAIL from {})", of(excess_parted), percent(rules.parted_fail)));
    } else if excess_parted >= rules.parted_warn && c.parted > 0 {
        raise(Verdict::Warn, format!("{} (WARN from {})", of(excess_parted), percent(rules.parted_warn)));
    }
    let nats = |d: f64| format!("mean |Δ logprob| {d:.4} nats{beyond}");
    if excess_drift >= rules.drift_fail {
        raise(Verdict::Fail, format!("{} (FAIL from {})", nats(excess_drift), rules.drift_fail));
    } else if excess_drift >= rules.drift_warn {
        raise(Verdict::Warn, format!("{} (WARN from {})", nats(excess_drift), rules.drift_warn));
    }
    let growing = grows(c) && excess_drift >= rules.trend_min_drift;
    if growing {
        raise(
            Verdict::Warn,
            format!("drift grows with context (a rank correlation above 0), at {drift:.4} nats on average"),
        );
    }
    let median_share = c.parting_share.map_or(1.0, |(m, _, _)| m.value);
    let at_once = c.parting.is_some_and(|(m, _, _)| m.value <= 1.0) && c.parted * 10 >= n * 9;
    let early = c.parted > 0 && median_share < rules.early_share;
    let reading = if c.identical == n && verdict == Verdict::Pass {
        Reading::Identical
    } else if at_once {
        Reading::DifferentModel
    } else if verdict == Verdict::Pass {
        Reading::BenignNondeterminism
    } else if early || growing || excess_drift >= rules.drift_warn {
        Reading::NumericalFault
    } else {
        Reading::Unclear
    };
    let sentence = sentence(c, reading, noise, early, growing);
    Judgement { verdict, reasons, reading, sentence }
}

fn sentence(c: &Comparison, reading: Reading, noise: Option<&Comparison>, early: bool, growing: bool) -> String {
    let n = c.prompts.len();
    let same = format!("{} of {} identical", c.identical, plural(n, "prompt", "prompts"));
    let floor =
        noise.map(|f| format!(" (the reference against itself: {} of {} identical)", f.identical, f.prompts.len()));
    let floor = floor.unwrap_or_default();
    match reading {
        Reading::Identical => {
            let drift = c.drift.filter(|d| d.value > 0.0).map(|d| format!(", their logprobs {:.2e} nats apart on average", d.value));
            format!(
                "Identical: every one of the {} gave the reference's tokens{}{floor}.",
                plural(n, "prompt", "prompts"),
                drift.unwrap_or_default()
            )
        }
        Reading::NothingCompared => "Nothing was compared.".into(),
        Reading::DifferentModel => format!(
            "They part at once on almost every prompt ({same}): another model or other settings (prompts, template, sampling), not a small numerical change{floor}."
        ),
        Reading::BenignNondeterminism => format!(
            "{same}; the partings are {} and the drift tiny: this reads as benign nondeterminism (batching, reduction order), not a fault{floor}.",
            if early { "rare" } else { "late and rare" }
        ),
        Reading::NumericalFault => {
            let how = match (early, growing) {
                (true, true) => "early partings with drift that grows with context",
                (true, false) => "early partings",
                (false, true) => "drift that grows with context",
                (false, false) => "drift beyond the rules",
            };
            format!("{same}; {how}: this reads as a numerical fault in the candidate (a kernel, a cast, a cache), not noise{floor}.")
        }
        Reading::Unclear => format!(
            "{same}: more different than the rules allow, in no clear pattern — read the prompts below{floor}."
        ),
    }
}
