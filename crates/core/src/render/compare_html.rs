//! A comparison as one self-contained HTML file (`coherency compare --html`), to attach to a
//! bug: the verdict and the reading, the reasons, the figures (the noise floor in its own
//! column), drift by position, and each prompt that parts with both continuations side by side.
//! No script and nothing fetched; every byte of the input is escaped ([`escape`]).

use std::fmt::Write;

use super::compare_figures::{drift, figures, listed, outcome, position_rows, title};
use super::html::escape;
use super::level_key;
use crate::compare::{CompareReport, Relation};

const STYLE: &str = "
:root{color-scheme:light dark;--bg:#fbfbfa;--fg:#1d1f21;--muted:#5c6166;--line:#d9dcdf;--card:#fff;--pass:#1f7a3a;--warn:#9a6200;--fail:#b3261e}
@media (prefers-color-scheme:dark){:root{--bg:#17181a;--fg:#e6e6e3;--muted:#a2a7ad;--line:#33363a;--card:#1f2123;--pass:#6fcf8a;--warn:#f0b84a;--fail:#ff8a80}}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,sans-serif}
main{max-width:72rem;margin:0 auto;padding:1.5rem}h1{font-size:1.2rem}h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
.verdict{border:1px solid var(--line);border-left:.4rem solid var(--v);background:var(--card);padding:.75rem 1rem;border-radius:.4rem}
.verdict strong{color:var(--v);font-size:1.3rem}.v-pass{--v:var(--pass)}.v-warn{--v:var(--warn)}.v-fail{--v:var(--fail)}
table{border-collapse:collapse;width:100%;background:var(--card)}th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font:13px/1.45 ui-monospace,monospace}.muted{color:var(--muted)}
";

/// The HTML report of `r`.
pub fn compare_html(r: &CompareReport) -> String {
    let j = &r.judgement;
    let mut out = String::from("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    let _ = write!(out, "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>Comparison — {}</title><style>{STYLE}</style></head><body><main>", escape(j.verdict.as_str()));
    let _ = write!(out, "<h1>Comparison: {}</h1>", escape(&title(r)));
    let _ = write!(
        out,
        "<div class=\"verdict v-{}\"><strong>{}</strong> — {}",
        level_key(j.verdict),
        escape(j.verdict.as_str()),
        escape(&j.sentence)
    );
    if !j.reasons.is_empty() {
        out.push_str("<ul>");
        for reason in &j.reasons {
            let _ = write!(out, "<li>{}</li>", escape(reason));
        }
        out.push_str("</ul>");
    }
    out.push_str("</div><h2>Figures</h2><table><tr><th>figure</th><th>candidate</th>");
    if r.noise.is_some() {
        out.push_str("<th>reference against itself</th>");
    }
    out.push_str("</tr>");
    for f in figures(r) {
        let _ = write!(out, "<tr><td>{}</td><td>{}</td>", escape(f.name), escape(&f.candidate));
        if let Some(n) = &f.noise {
            let _ = write!(out, "<td>{}</td>", escape(n));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    let rows = position_rows(&r.comparison);
    if !rows.is_empty() {
        out.push_str("<h2>Drift by position</h2><table><tr><th>position (prompt + output tokens)</th><th>paired tokens</th><th>mean |Δ logprob| (nats)</th></tr>");
        for (range, tokens, mean) in rows {
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&range),
                escape(&tokens),
                escape(&mean)
            );
        }
        out.push_str("</table>");
    }
    let (prompts, left) = listed(&r.comparison);
    if !prompts.is_empty() {
        out.push_str("<h2>Prompts</h2><table><tr><th>prompt</th><th>outcome</th><th>reference from there</th><th>candidate from there</th></tr>");
    }
    for p in &prompts {
        let _ = write!(out, "<tr><td>{}</td><td>{}", escape(&p.id), escape(&outcome(p)));
        if p.mean_delta.is_some() {
            let _ = write!(out, "<br><span class=\"muted\">drift: {}</span>", escape(&drift(p)));
        }
        let (a, b) = if p.alignment.outcome == Relation::Identical {
            (String::new(), String::new())
        } else {
            (escape(&p.reference_continuation), escape(&p.candidate_continuation))
        };
        let _ = write!(out, "</td><td><pre>{a}</pre></td><td><pre>{b}</pre></td></tr>");
    }
    if !prompts.is_empty() {
        out.push_str("</table>");
    }
    if left > 0 {
        let _ = write!(out, "<p class=\"muted\">… and {left} more prompts.</p>");
    }
    for p in &r.problems {
        let _ = write!(out, "<p class=\"muted\">Could not read: {}</p>", escape(p));
    }
    out.push_str("</main></body></html>\n");
    out
}
