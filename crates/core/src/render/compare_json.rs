//! A comparison as one JSON object (`coherency compare --json`): `schema_version`, the files,
//! the verdict, its reasons and the reading, every figure as numbers (each estimate as
//! `{value, low, high, n}`), the noise floor's figures, drift by position, and each prompt.

use serde_json::{json, Value};

use crate::compare::stats::Estimate;
use crate::compare::{CompareReport, Comparison, PromptComparison, Relation};

/// The schema of the object (raised when a field changes meaning or goes).
pub const COMPARE_JSON_SCHEMA: u64 = 1;

fn estimate(e: &Option<Estimate>) -> Value {
    match e {
        Some(e) => json!({"value": e.value, "low": e.low, "high": e.high, "n": e.n}),
        None => Value::Null,
    }
}

fn median(m: &Option<(Estimate, f64, f64)>) -> Value {
    match m {
        Some((e, q1, q3)) => json!({"value": e.value, "low": e.low, "high": e.high, "n": e.n, "q1": q1, "q3": q3}),
        None => Value::Null,
    }
}

fn outcome_key(o: Relation) -> &'static str {
    match o {
        Relation::Identical => "identical",
        Relation::Parted => "parted",
        Relation::ReferenceShorter => "reference_shorter",
        Relation::CandidateShorter => "candidate_shorter",
    }
}

fn prompt(p: &PromptComparison) -> Value {
    let a = &p.alignment;
    json!({
        "id": p.id,
        "outcome": outcome_key(a.outcome),
        "parted": p.parted,
        "at_byte": a.at_byte,
        "reference_token": a.reference_token,
        "candidate_token": a.candidate_token,
        "share": a.share(),
        "retokenised": a.retokenised,
        "paired_tokens": a.pairs.len(),
        "prompt_tokens": p.prompt_tokens,
        "mean_delta": p.mean_delta,
        "max_delta": p.max_delta.map(|(k, d)| json!({"token": k, "delta": d})),
        "top1_compared": p.top1_compared,
        "top1_agreed": p.top1_agreed,
        "mean_divergence": p.mean_divergence,
        "trend": estimate(&p.trend),
        "parting_gap": p.parting_gap,
        "reference_continuation": p.reference_continuation,
        "candidate_continuation": p.candidate_continuation,
    })
}

fn figures(c: &Comparison) -> Value {
    json!({
        "prompts": c.prompts.len(),
        "identical": c.identical,
        "parted": c.parted,
        "parted_share": estimate(&c.parted_share),
        "parting": median(&c.parting),
        "parting_unit": if c.parting_in_tokens { "token" } else { "byte" },
        "parting_share": median(&c.parting_share),
        "early": c.early,
        "near_ties": c.near_ties,
        "with_logprobs": c.with_logprobs,
        "drift": estimate(&c.drift),
        "max_drift": c.max_drift.as_ref().map(|(id, k, d)| json!({"id": id, "token": k, "delta": d})),
        "top1": estimate(&c.top1),
        "divergence": estimate(&c.divergence),
        "trend_along_output": estimate(&c.trend_along_output),
        "trend_with_context": estimate(&c.trend_with_context),
        "parting_with_context": estimate(&c.parting_with_context),
        "by_position": c.by_position.iter().map(|b| json!({"from": b.from, "to": b.to, "tokens": b.tokens, "mean_delta": b.mean_delta})).collect::<Vec<_>>(),
        "missing": c.pairing.missing,
        "unmatched": c.pairing.unmatched,
        "paired_by_order": c.pairing.by_order,
    })
}

/// The JSON object of `r`, on one line.
pub fn compare_json(r: &CompareReport) -> String {
    let rules = &r.rules;
    json!({
        "schema_version": COMPARE_JSON_SCHEMA,
        "reference": r.reference,
        "candidates": r.candidates,
        "reference_model": r.reference_model,
        "candidate_model": r.candidate_model,
        "verdict": r.judgement.verdict.as_str(),
        "reasons": r.judgement.reasons,
        "reading": r.judgement.reading.key(),
        "sentence": r.judgement.sentence,
        "rules": {
            "parted_warn": rules.parted_warn, "parted_fail": rules.parted_fail,
            "drift_warn": rules.drift_warn, "drift_fail": rules.drift_fail,
            "early_share": rules.early_share, "trend_min_drift": rules.trend_min_drift,
        },
        "figures": figures(&r.comparison),
        "noise_floor": r.noise.as_ref().map(|(files, c)| json!({"files": files, "figures": figures(c)})),
        "prompts": r.comparison.prompts.iter().map(prompt).collect::<Vec<_>>(),
        "problems": r.problems,
    })
    .to_string()
}
