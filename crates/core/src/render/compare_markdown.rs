//! A comparison as Markdown, to attach to a bug: the verdict and the reading, the reasons, the
//! figures as a table (the noise floor in its own column when given), drift by position, and
//! the prompts that part with both continuations in code blocks. Input text is escaped
//! ([`escape`]) or fenced, so it never turns into links or markup.

use std::fmt::Write;

use super::compare_figures::{drift, figures, listed, outcome, position_rows, title};
use super::markdown::escape;
use crate::compare::{CompareReport, Relation};

/// A fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// The Markdown report of `r`.
pub fn compare_markdown(r: &CompareReport) -> String {
    let mut out = String::new();
    let j = &r.judgement;
    let _ = writeln!(out, "## Comparison: {}\n", escape(&title(r)));
    let _ = writeln!(out, "**{}** — {}\n", j.verdict.as_str(), escape(&j.sentence));
    for reason in &j.reasons {
        let _ = writeln!(out, "- {}", escape(reason));
    }
    if !j.reasons.is_empty() {
        out.push('\n');
    }
    let noise = r.noise.is_some();
    if noise {
        let _ = writeln!(out, "| figure | candidate | reference against itself |\n|---|---|---|");
    } else {
        let _ = writeln!(out, "| figure | value |\n|---|---|");
    }
    for f in figures(r) {
        match &f.noise {
            Some(n) => {
                let _ = writeln!(out, "| {} | {} | {} |", f.name, escape(&f.candidate), escape(n));
            }
            None => {
                let _ = writeln!(out, "| {} | {} |", f.name, escape(&f.candidate));
            }
        }
    }
    let rows = position_rows(&r.comparison);
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "\n### Drift by position\n\n| position | paired tokens | mean \\|Δ logprob\\| (nats) |\n|---|---|---|"
        );
        for (range, tokens, mean) in rows {
            let _ = writeln!(out, "| {range} | {tokens} | {mean} |");
        }
    }
    let (prompts, left) = listed(&r.comparison);
    if !prompts.is_empty() {
        let _ = writeln!(out, "\n### Prompts\n");
    }
    for p in prompts {
        let _ = writeln!(out, "- **{}**: {}", escape(&p.id), escape(&outcome(p)));
        if p.mean_delta.is_some() {
            let _ = writeln!(out, "  drift: {}", escape(&drift(p)));
        }
        if p.alignment.outcome != Relation::Identical {
            for (side, text) in [("reference", &p.reference_continuation), ("candidate", &p.candidate_continuation)] {
                let f = fence(text);
                let _ = writeln!(out, "\n  {side} from there:\n\n  {f}text\n  {}\n  {f}", text.replace('\n', "\n  "));
            }
            out.push('\n');
        }
    }
    if left > 0 {
        let _ = writeln!(out, "- … and {left} more");
    }
    for p in &r.problems {
        let _ = writeln!(out, "\nCould not read: {}", escape(p));
    }
    out
}
