//! A comparison's figures in words, once, for the text, Markdown and HTML reports: each
//! figure's name, the candidate's value with its 95 % interval, and the noise floor's beside it;
//! each prompt's outcome ("parts at token 12, byte 40 (31 % of the output)"). The reports only
//! lay these out (and escape them for their medium).

use crate::analyze::CompareRules;
use crate::compare::stats::Estimate;
use crate::compare::{CompareReport, Comparison, PromptComparison, Relation, NEAR_TIE};
use crate::wording::{percent, plural, thousands};

/// Prompts listed one by one at most (the parted first); the rest are counted.
pub const PROMPTS_LISTED: usize = 50;

/// One figure: its name, the candidate's value, the noise floor's (when given).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub name: &'static str,
    pub candidate: String,
    pub noise: Option<String>,
}

fn interval(e: &Estimate, show: impl Fn(f64) -> String) -> String {
    if e.n < 2 || e.low == e.high {
        show(e.value)
    } else {
        format!("{} (95 % interval {} to {})", show(e.value), show(e.low), show(e.high))
    }
}

fn nats(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() >= 0.01 {
        format!("{x:.3}")
    } else {
        format!("{x:.1e}")
    }
}

fn rho(x: f64) -> String {
    format!("{x:.2}")
}

/// "ρ 0.31 (95 % interval …) over 9 prompts: grows" — `up` and `down` say what each sign means;
/// not read when the drift is under the rules' `trend_min_drift` (a trend in noise means nothing).
fn trend(t: &Option<Estimate>, up: &str, down: &str, small: Option<f64>) -> String {
    if let Some(min) = small {
        return format!("the drift is under {min} nats: too small for a trend to mean anything");
    }
    match t {
        None => "too few prompts to tell".into(),
        Some(e) => {
            let reading = if e.low > 0.0 {
                up
            } else if e.high < 0.0 {
                down
            } else {
                "no clear trend"
            };
            format!("ρ {} over {}: {reading}", interval(e, rho), plural(e.n, "prompt", "prompts"))
        }
    }
}

/// The figures of one comparison.
fn figures_of(c: &Comparison, rules: &CompareRules) -> Vec<(&'static str, String)> {
    let early_share = rules.early_share;
    let small = c.drift.is_some_and(|d| d.value < rules.trend_min_drift).then_some(rules.trend_min_drift);
    let n = c.prompts.len();
    let unit = if c.parting_in_tokens { "token" } else { "byte" };
    let mut out = vec![
        ("prompts compared", thousands(n)),
        ("identical", format!("{} of {}", thousands(c.identical), thousands(n))),
        (
            "parted",
            match &c.parted_share {
                Some(s) => format!("{} of {} — {}", thousands(c.parted), thousands(n), interval(s, percent)),
                None => "—".into(),
            },
        ),
        (
            "where they part",
            match (&c.parting, &c.parting_share) {
                (Some((m, q1, q3)), Some((s, _, _))) => format!(
                    "median {unit} {} (quartiles {} to {}), at {} of the reference's output",
                    interval(m, |x| format!("{x:.0}")),
                    q1.round(),
                    q3.round(),
                    percent(s.value)
                ),
                _ => "they do not part".into(),
            },
        ),
        ("early partings", format!("{} of {} before {} of the output", c.early, c.parted, percent(early_share))),
        (
            "partings at a near-tie",
            format!("{} of {} (the reference's top two within {NEAR_TIE} nats)", c.near_ties, c.parted),
        ),
    ];
    if c.with_logprobs == 0 && c.prompts.iter().any(|p| p.logprobs) {
        // Both sides gave logprobs, but no paired token to measure them on.
        out.push((
            "drift |Δ logprob|",
            "not measured: both sides gave logprobs, but every output parts at its first token, so no token is shared to compare".into(),
        ));
        return out;
    }
    if c.with_logprobs == 0 {
        out.push(("logprobs", "none: the outputs carry no logprobs on both sides, so no drift is measured".into()));
        return out;
    }
    out.push((
        "drift |Δ logprob|",
        match &c.drift {
            Some(d) => {
                let max = c.max_drift.as_ref().map(|(id, k, d)| {
                    format!("; largest {} nats at token {k} of {}", nats(*d), crate::wording::quote(id))
                });
                format!(
                    "mean {} nats a token, per prompt, over {}{}",
                    interval(d, nats),
                    plural(c.with_logprobs, "prompt", "prompts"),
                    max.unwrap_or_default()
                )
            }
            None => "—".into(),
        },
    ));
    out.push((
        "top-1 agreement",
        match &c.top1 {
            Some(t) => format!("{} of {} paired tokens", interval(t, percent), thousands(t.n)),
            None => "no top_logprobs on both sides".into(),
        },
    ));
    out.push((
        "top-k divergence (total variation)",
        match &c.divergence {
            Some(d) => format!("mean {} a token, per prompt", interval(d, |x| format!("{x:.4}"))),
            None => "no top_logprobs on both sides".into(),
        },
    ));
    out.push((
        "drift along the output",
        trend(&c.trend_along_output, "grows along the output", "shrinks along the output", small),
    ));
    out.push(("drift with context", trend(&c.trend_with_context, "grows with context", "shrinks with context", small)));
    out.push((
        "parting with context",
        trend(&c.parting_with_context, "longer contexts part later", "longer contexts part earlier", None),
    ));
    out
}

/// The report's figures, the noise floor's beside the candidate's.
pub fn figures(r: &CompareReport) -> Vec<Figure> {
    let mine = figures_of(&r.comparison, &r.rules);
    let floor = r.noise.as_ref().map(|(_, c)| figures_of(c, &r.rules));
    mine.into_iter()
        .map(|(name, candidate)| Figure {
            name,
            candidate,
            noise: floor
                .as_ref()
                .map(|f| f.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone()).unwrap_or_else(|| "—".into())),
        })
        .collect()
}

/// A prompt's outcome in words.
pub fn outcome(p: &PromptComparison) -> String {
    let a = &p.alignment;
    let at = format!(
        "token {}, byte {} ({} of the output)",
        thousands(a.reference_token),
        thousands(a.at_byte),
        percent(a.share())
    );
    let mut s = match a.outcome {
        Relation::Identical => "identical".to_string(),
        Relation::Parted => format!("parts at {at}"),
        Relation::CandidateShorter if p.parted => format!("the candidate stops at {at}"),
        Relation::ReferenceShorter if p.parted => format!("the reference stops at {at}"),
        Relation::CandidateShorter => format!("the same until the candidate's budget ends at {at}"),
        Relation::ReferenceShorter => format!("the same until the reference's budget ends at {at}"),
    };
    if a.retokenised > 0 {
        s += &format!("; {} tokenised differently", plural(a.retokenised, "token", "tokens"));
    }
    if let Some(g) = p.parting_gap.filter(|_| a.outcome != Relation::Identical) {
        s += &format!("; the reference's top two {} nats apart there", nats(g));
    }
    s
}

/// A prompt's drift in words ("mean 0.012, max 0.2 at token 30, top-1 100 %"), or "—".
pub fn drift(p: &PromptComparison) -> String {
    let Some(m) = p.mean_delta else { return "—".into() };
    let mut s = format!("mean {}", nats(m));
    if let Some((k, d)) = p.max_delta {
        s += &format!(", max {} at token {k}", nats(d));
    }
    if p.top1_compared > 0 {
        s += &format!(", top-1 {}", crate::wording::percent_of(p.top1_agreed, p.top1_compared));
    }
    s
}

/// The prompts to list, parted first (earliest parting first), then the others, at most
/// [`PROMPTS_LISTED`]; and how many are left out.
pub fn listed(c: &Comparison) -> (Vec<&PromptComparison>, usize) {
    let mut order: Vec<&PromptComparison> = c.prompts.iter().collect();
    order.sort_by(|a, b| b.parted.cmp(&a.parted).then(a.alignment.share().total_cmp(&b.alignment.share())));
    let left = order.len().saturating_sub(PROMPTS_LISTED);
    order.truncate(PROMPTS_LISTED);
    (order, left)
}

/// The position bins' rows: ("0–31", "1,234 tokens", "0.0012").
pub fn position_rows(c: &Comparison) -> Vec<(String, String, String)> {
    c.by_position
        .iter()
        .map(|b| {
            let range = match b.to {
                Some(to) => format!("{}–{}", thousands(b.from), thousands(to - 1)),
                None => format!("{} and on", thousands(b.from)),
            };
            (range, plural(b.tokens, "token", "tokens"), nats(b.mean_delta))
        })
        .collect()
}

/// "tiny-random-llama (ref.jsonl) against tiny-random-llama (a.jsonl)".
pub fn title(r: &CompareReport) -> String {
    let side = |model: &Option<String>, files: &str| match model {
        Some(m) => format!("{m} ({files})"),
        None => files.to_string(),
    };
    let files = match r.candidates.len() {
        0..=3 => r.candidates.join(", "),
        n => format!("{} and {} more", r.candidates[..2].join(", "), n - 2),
    };
    format!("{} against the reference {}", side(&r.candidate_model, &files), side(&r.reference_model, &r.reference))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::Thresholds;
    use crate::compare::read_outputs;

    /// One streamed reply of `tokens`, each with its logprob and top alternatives.
    fn sse(tokens: &[&str]) -> Vec<u8> {
        let mut out = String::new();
        for t in tokens {
            out.push_str(&format!(
                "data: {{\"model\":\"m\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{t:?}}},\"logprobs\":{{\"content\":[{{\"token\":{t:?},\"logprob\":-0.5,\"top_logprobs\":[{{\"token\":{t:?},\"logprob\":-0.5}}]}}]}}}}]}}\n\n"
            ));
        }
        out.push_str("data: [DONE]\n\n");
        out.into_bytes()
    }

    fn figures_of_pair(reference: &[u8], candidate: &[u8]) -> Vec<Figure> {
        let r = read_outputs("p", reference).outputs;
        let c = read_outputs("p", candidate).outputs;
        figures(&CompareReport::new(("ref", &r), (vec!["new".into()], &c), None, Thresholds::SEED.compare, vec![]))
    }

    #[test]
    fn logprobs_given_but_no_shared_token_is_not_said_to_be_no_logprobs() {
        let f = figures_of_pair(&sse(&["Hello", " world"]), &sse(&["Bye", " now"]));
        assert!(f.iter().all(|f| f.name != "logprobs"), "{f:?}");
        let drift = f.iter().find(|f| f.name == "drift |Δ logprob|").unwrap();
        assert!(drift.candidate.starts_with("not measured: both sides gave logprobs"), "{}", drift.candidate);
        // With no logprobs on one side, the figure says so.
        let plain = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Bye\"}}]}\n\ndata: [DONE]\n\n";
        let f = figures_of_pair(&sse(&["Hello"]), plain);
        assert!(f.iter().any(|f| f.name == "logprobs" && f.candidate.starts_with("none")), "{f:?}");
        // A shared prefix: the drift is measured.
        let f = figures_of_pair(&sse(&["Hello", " world"]), &sse(&["Hello", " now"]));
        let drift = f.iter().find(|f| f.name == "drift |Δ logprob|").unwrap();
        assert!(drift.candidate.starts_with("mean"), "{}", drift.candidate);
    }
}
