//! A comparison as the CLI's text report: the verdict and the reading in one sentence, the
//! reasons, the figures (the noise floor's beside them), drift by position, then each prompt
//! that parts with both continuations from the parting point. Every value from the input (file
//! names, ids, model names, continuations) is shown terminal-safe; the verdict is marked with a
//! [`Tone`] for the CLI's colour.

use std::fmt::Write;

use super::compare_figures::{drift, figures, listed, outcome, position_rows, title};
use super::terminal::safe_value;
use super::text::{StyledText, Tone};
use crate::compare::CompareReport;

/// The text report of `r`.
pub fn compare_text(r: &CompareReport) -> StyledText {
    let mut out = StyledText::default();
    let j = &r.judgement;
    let _ = writeln!(out, "coherency compare: {}", safe_value(&title(r)));
    out.toned(Tone::Verdict(j.verdict), j.verdict.as_str());
    let _ = writeln!(out, " — {}", j.sentence);
    for reason in &j.reasons {
        let _ = writeln!(out, "  · {reason}");
    }
    if r.comparison.pairing.by_order {
        let _ = writeln!(out, "  (no prompt id in common: outputs paired in the order of the files)");
    }
    let _ = writeln!(out);
    let figs = figures(r);
    let width = figs.iter().map(|f| f.name.chars().count()).max().unwrap_or(0);
    for f in &figs {
        let _ = writeln!(out, "{:<width$}  {}", f.name, safe_value(&f.candidate));
        if let Some(n) = &f.noise {
            let _ = writeln!(out, "{:<width$}    noise floor: {}", "", safe_value(n));
        }
    }
    let rows = position_rows(&r.comparison);
    if !rows.is_empty() {
        let _ = writeln!(out, "\ndrift by position (prompt tokens + output token): mean |Δ logprob| in nats");
        for (range, tokens, mean) in rows {
            let _ = writeln!(out, "  {range:>14}  {tokens:>14}  {mean}");
        }
    }
    let (prompts, left) = listed(&r.comparison);
    if !prompts.is_empty() {
        let _ = writeln!(out, "\nprompts (parted first):");
    }
    for p in prompts {
        let _ = writeln!(out, "  {}: {}", safe_value(&p.id), safe_value(&outcome(p)));
        if p.mean_delta.is_some() {
            let _ = writeln!(out, "      drift: {}", drift(p));
        }
        if p.alignment.outcome != crate::compare::Relation::Identical {
            let _ = writeln!(out, "      reference: {}", safe_value(&p.reference_continuation));
            let _ = writeln!(out, "      candidate: {}", safe_value(&p.candidate_continuation));
        }
    }
    if left > 0 {
        let _ = writeln!(out, "  … and {left} more");
    }
    let missing = &r.comparison.pairing;
    if !missing.missing.is_empty() {
        let _ = writeln!(
            out,
            "\n{} of the reference's prompts have no candidate output: {}",
            missing.missing.len(),
            safe_value(&missing.missing.join(", "))
        );
    }
    if !missing.unmatched.is_empty() {
        let _ = writeln!(
            out,
            "{} candidate outputs match no reference prompt: {}",
            missing.unmatched.len(),
            safe_value(&missing.unmatched.join(", "))
        );
    }
    for p in &r.problems {
        let _ = writeln!(out, "could not read: {}", safe_value(p));
    }
    out
}
