//! The report as Markdown, to paste into an issue or a chat: the verdict, its reasons, where the
//! worst text turns degenerate (with a short quote from there), the checks against their
//! thresholds, the conversations with findings across turns and the worst messages.
//!
//! Text from the input is escaped (each character that opens Markdown emphasis, code, a link, a
//! table cell or HTML behind a backslash, line breaks as spaces) or quoted in a code block whose fence is longer than any
//! run of backticks inside it, so a pasted report never turns the input into markup or links.

use super::summary::{place, DocumentSummary};
use crate::analyze::{threshold_cell, Check, Verdict};
use crate::judge::MessageRow;
use crate::wording::{lowercase_first, plural, thousands};

/// Messages listed in the table, worst first.
pub const MESSAGES_LISTED: usize = 10;
/// Conversations with findings listed.
pub const CONVERSATIONS_LISTED: usize = 5;

/// The report of `summary` as Markdown (see the module header).
pub fn markdown(summary: &DocumentSummary) -> String {
    let mut out = String::new();
    let push = |out: &mut String, line: &str| {
        out.push_str(line);
        out.push('\n');
    };
    let headline = summary.headline().map(|h| format!(" ({})", escape(&h))).unwrap_or_default();
    push(
        &mut out,
        &format!("### Coherency Analyzer: **{}**{headline} · {}", summary.verdict_label, escape(summary.name)),
    );
    push(&mut out, "");
    let mut what = escape(&summary.what());
    if let Some(place) = summary.worst_place() {
        what += &format!(" · worst: {}", escape(&place));
    }
    push(&mut out, &what);
    if let Some((_, report, _)) = &summary.worst {
        push(&mut out, "");
        for reason in &report.reasons {
            push(&mut out, &format!("- {}", escape(reason)));
        }
    }
    if let Some((onset, excerpt, more)) = summary.excerpt() {
        push(&mut out, "");
        push(
            &mut out,
            &format!(
                "**Onset**: {}{}:",
                escape(&lowercase_first(&summary.onset_text().unwrap_or_else(|| format!("byte {}", thousands(onset))))),
                if more { " — the first bytes from there" } else { "" }
            ),
        );
        push(&mut out, "");
        let fence = "`".repeat(longest_run(excerpt, '`').max(2) + 1);
        push(&mut out, &format!("{fence}text"));
        push(&mut out, excerpt.trim_end_matches(['\n', '\r']));
        push(&mut out, &fence);
    }
    if let Some((_, report, _)) = &summary.worst {
        push(&mut out, "");
        push(&mut out, "| check | value | WARN | FAIL | level |");
        push(&mut out, "|---|---:|---|---|---|");
        for c in &report.checks {
            push(&mut out, &check_row(c));
        }
        if let Some(line) = super::drift_line::drift_line(report) {
            push(&mut out, "");
            push(&mut out, &format!("Drift: {}.", escape(&line)));
        }
        if let Some(changes) = summary.thresholds_changed() {
            push(&mut out, "");
            push(&mut out, &format!("Thresholds changed from the defaults: {changes}."));
        }
    }
    let flagged: Vec<_> = summary.flagged_conversations().collect();
    if !flagged.is_empty() {
        push(&mut out, "");
        push(&mut out, "**Across turns**");
        push(&mut out, "");
        for c in flagged.iter().take(CONVERSATIONS_LISTED) {
            let from = c.onset_turn.map(|u| format!(" from turn {u}")).unwrap_or_default();
            let why = c.reasons.first().map(|r| format!(": {}", escape(r))).unwrap_or_default();
            push(&mut out, &format!("- conversation {} {}{from}{why}", c.conversation, c.verdict.as_str()));
            if c.verdict == Verdict::Pass {
                // Why its repeats were not a loop: what changed between them.
                for r in c.reasons.iter().skip(1) {
                    push(&mut out, &format!("  - {}", escape(r)));
                }
            }
        }
        if flagged.len() > CONVERSATIONS_LISTED {
            push(&mut out, &format!("- … and {} more", thousands(flagged.len() - CONVERSATIONS_LISTED)));
        }
    }
    if summary.worst.as_ref().is_some_and(|w| w.0.is_some()) {
        push(&mut out, "");
        push(&mut out, "| verdict | message | where | bytes | tripped |");
        push(&mut out, "|---|---|---|---:|---|");
        for row in summary.rows.iter().take(MESSAGES_LISTED) {
            push(&mut out, &message_row(row));
        }
        if summary.rows.len() > MESSAGES_LISTED {
            push(&mut out, &format!("\n… and {} more", plural(summary.rows.len() - MESSAGES_LISTED, "text", "texts")));
        }
    }
    out
}

fn check_row(c: &Check) -> String {
    let level = if c.judged { c.level.as_str() } else { "not judged" };
    format!(
        "| {} | {} | {} | {} | {level} |",
        c.metric.label(),
        c.value_text(),
        threshold_cell(c, false),
        threshold_cell(c, true)
    )
}

fn message_row(row: &MessageRow) -> String {
    let judged = if row.judged { String::new() } else { format!(" ({})", row.why) };
    format!(
        "| {}{judged} | {} {} | {} | {} | {} |",
        row.verdict.as_str(),
        escape(&row.role),
        escape(&row.channel_text()),
        place(row),
        thousands(row.bytes),
        row.tripped.map_or("", |m| m.label())
    )
}

/// `text` with each character Markdown or HTML could read as markup (emphasis, code, links,
/// table cells, the start of a tag or an entity) behind a backslash, and line breaks as spaces (it goes in a line
/// or a table cell). Lines start with what this module writes, never with input text.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        // "<" opens a tag or a comment only before a letter, "/", "!" or "?"; "&" an entity
        // only before a letter or "#": "maxrun 1 < 6" stays as it reads.
        let next = chars.peek().copied().unwrap_or(' ');
        let markup = match c {
            '<' => next.is_ascii_alphabetic() || matches!(next, '/' | '!' | '?'),
            '&' => next.is_ascii_alphanumeric() || next == '#',
            _ => false,
        };
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' | '&' if markup => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push(' '),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    text.split(|x| x != c).map(str::len).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::JudgedDocument;

    fn md(bytes: &[u8]) -> String {
        let doc = JudgedDocument::read(bytes, None);
        markdown(&DocumentSummary::new("input", &doc.transcript, &doc.report))
    }

    #[test]
    fn a_loop_gives_its_verdict_reasons_onset_and_checks() {
        let text = format!("{}{}", "A calm opening sentence that says something. ", "Let me check again.\n".repeat(40));
        let out = md(text.as_bytes());
        assert!(
            out.starts_with("### Coherency Analyzer: **FAIL** (Repetition collapse: the text loops) · input\n"),
            "{out}"
        );
        assert!(out.contains("\n- loop 95 %: from byte 45 the 5-token unit 'Let me check again.' repeats"), "{out}");
        assert!(
            out.contains("**Onset**: turns degenerate at byte 45 — the first bytes from there:\n\n```text\nLet me check again.\n"),
            "{out}"
        );
        assert!(out.contains("| maxline | 39 | ≥ 5 | ≥ 12 | FAIL |"), "{out}");
    }

    #[test]
    fn changed_thresholds_are_said_under_the_checks_and_defaults_say_nothing() {
        let text = format!("{}{}", "A calm opening sentence that says something. ", "Let me check again.\n".repeat(40));
        assert!(!md(text.as_bytes()).contains("Thresholds changed"));
        let mut thresholds = crate::analyze::Thresholds::SEED;
        thresholds.assign("maxline.fail=50").expect("a setting");
        let options = crate::judge::JudgeOptions { thresholds, ..Default::default() };
        let doc = JudgedDocument::read_with(text.as_bytes(), None, &options);
        let out = markdown(&DocumentSummary::new("input", &doc.transcript, &doc.report));
        assert!(out.contains("| maxline | 39 | ≥ 5 | ≥ 50 | WARN |"), "{out}");
        assert!(out.contains("\nThresholds changed from the defaults: maxline.fail 50 (default 12).\n"), "{out}");
    }

    #[test]
    fn markup_in_the_input_stays_text() {
        assert_eq!(escape("<script>alert(1)</script>"), "\\<script>alert(1)\\</script>");
        assert_eq!(escape("maxrun 1 < 6, a > b & c"), "maxrun 1 < 6, a > b & c");
        assert_eq!(escape("<!-- x --> <?php &#60;"), "\\<!-- x --> \\<?php \\&#60;");
        assert_eq!(escape("[x](javascript:alert(1))"), "\\[x\\](javascript:alert(1))");
        assert_eq!(escape("*a* _b_ `c` ~d~ &amp;"), "\\*a\\* \\_b\\_ \\`c\\` \\~d\\~ \\&amp;");
        assert_eq!(escape("a|b\nc"), "a\\|b c");
        // A quote holding backticks gets a longer fence.
        let text = "```` <img src=x onerror=alert(1)> ".repeat(200);
        let out = md(text.as_bytes());
        assert!(out.contains("\n`````text\n"), "{out}");
    }

    #[test]
    fn a_log_lists_its_worst_messages() {
        let line = |content: &str| {
            serde_json::json!({"messages": [{"role": "user", "content": "go"}, {"role": "assistant", "content": content}]})
                .to_string()
        };
        let log =
            format!("{}\n{}\n", line("A fine answer with enough words to judge it."), line(&"again and ".repeat(300)));
        let out = md(log.as_bytes());
        // Led by the conversation, as the page leads: where it turns degenerate, and why.
        assert!(
            out.contains("· worst: conversation 1, from turn 1 — turn 1: the assistant's reply FAILs on its own"),
            "{out}"
        );
        assert!(out.contains("| verdict | message | where | bytes | tripped |"), "{out}");
        assert!(out.contains("| FAIL | assistant content | conversation 1, turn 1, line 2 |"), "{out}");
    }
}
