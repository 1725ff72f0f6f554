//! The report as one self-contained HTML file (`coherency analyze --html`, the page's "Download
//! report"): the verdict and its reasons, the checks, the conversations with findings across
//! turns, the messages worst first, and the worst text with every span highlighted and the onset
//! marked. No script and nothing fetched: it reads the same with JavaScript off, offline, as a CI
//! artifact. Light and dark follow the reader's system.
//!
//! Every byte of the input (texts, roles, tool names, the file name, reasons quoting the text)
//! is escaped ([`escape`]): a report of a hostile transcript is inert.

use std::fmt::Write;

use super::summary::{place, DocumentSummary};
use super::{kind_key, level_key, segments, span_title};
use crate::analyze::text_units::floor_boundary;
use crate::analyze::{threshold_cell, Span, SpanKind};
use crate::wording::{plural, thousands};

/// Bytes of the worst text shown at most: a text longer than this is shown from a little before
/// where it turns degenerate (its onset, else its first span), and the report says which bytes.
pub const TEXT_SHOWN: usize = 1 << 20;
/// Bytes shown before the onset when the text is cut.
const LEAD_IN: usize = 4096;
/// Message rows listed at most.
pub const ROWS_LISTED: usize = 50;

const STYLE: &str = "
:root{color-scheme:light dark;--bg:#fbfbfa;--fg:#1d1f21;--muted:#5c6166;--line:#d9dcdf;--card:#fff;
--pass:#1f7a3a;--warn:#9a6200;--fail:#b3261e;--m-warn:#fde9b8;--m-fail:#f9d3cf;--m-copy:#d6e6fb;--m-line:#e8dcf7}
@media (prefers-color-scheme:dark){:root{--bg:#17181a;--fg:#e6e6e3;--muted:#a2a7ad;--line:#33363a;--card:#1f2123;
--pass:#6fcf8a;--warn:#f0b84a;--fail:#ff8a80;--m-warn:#5a4410;--m-fail:#6b2621;--m-copy:#1f3a5c;--m-line:#3e2d57}}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,sans-serif}
main{max-width:68rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.2rem;margin:0 0 .25rem}h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
.muted{color:var(--muted)}
.verdict{border:1px solid var(--line);border-left:.4rem solid var(--v);background:var(--card);padding:.75rem 1rem;border-radius:.4rem}
.verdict strong{color:var(--v);font-size:1.3rem;letter-spacing:.03em}
.v-pass{--v:var(--pass)}.v-warn{--v:var(--warn)}.v-fail{--v:var(--fail)}.v-short{--v:var(--muted)}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}
:not(mark).l-pass{color:var(--pass)}:not(mark).l-warn{color:var(--warn)}:not(mark).l-fail{color:var(--fail)}
pre.text{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--card);border:1px solid var(--line);padding:1rem;border-radius:.4rem;font:13px/1.45 ui-monospace,monospace}
mark{color:inherit;background:none}
mark.l-warn{background:var(--m-warn)}mark.l-fail{background:var(--m-fail)}
mark.k-copy{background:var(--m-copy)}mark.k-repeated_line{box-shadow:inset 0 -2px #8a63c9}
mark.k-word_run{text-decoration:underline wavy}
mark.k-template_leak{box-shadow:inset 0 2px #c2410c}mark.k-token_soup{text-decoration:underline wavy #c2410c}
mark.k-glued_word{text-decoration:underline dotted 2px #9a6200}mark.k-misplaced_words{text-decoration:underline double #9a6200}mark.k-run_on{text-decoration:underline dashed 1px #9a6200}mark.k-drift{box-shadow:inset 0 -1px var(--muted)}
#onset{display:inline-block;padding:0 .3rem;margin-right:.15rem;border-radius:.3rem;background:var(--fail);color:#fff;font:600 11px/1.6 system-ui,sans-serif}
.legend mark{padding:0 .3rem}
";

/// The report of `summary` as one HTML document (see the module header).
pub fn html(summary: &DocumentSummary) -> String {
    let mut out = String::new();
    let v_class = match summary.verdict_label {
        "TOO SHORT" | "NO TEXT" => "short",
        _ => level_key(summary.verdict),
    };
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{} · {} · Coherency Analyzer</title><style>{STYLE}</style></head>\n<body><main>\n",
        summary.verdict_label,
        escape(summary.name)
    );
    let _ = writeln!(out, "<h1>Coherency Analyzer report</h1>");
    let _ = writeln!(
        out,
        "<p class=\"muted\"><span id=\"file\">{}</span> · {}</p>",
        escape(summary.name),
        escape(&summary.what())
    );

    let _ =
        write!(out, "<section class=\"verdict v-{v_class}\"><strong id=\"verdict\">{}</strong>", summary.verdict_label);
    if let Some(headline) = summary.headline() {
        let _ = write!(out, " <span id=\"headline\">{}</span>", escape(&headline));
    }
    if let Some(place) = summary.worst_place() {
        let _ = write!(out, " <span class=\"muted\">worst: {}</span>", escape(&place));
    }
    if let Some((_, report, _)) = &summary.worst {
        let _ = write!(out, "\n<ul id=\"reasons\">");
        for reason in &report.reasons {
            let _ = write!(out, "<li>{}</li>", escape(reason));
        }
        let _ = write!(out, "</ul>");
    }
    if let Some(onset) = summary.onset_text() {
        let _ = write!(out, "<p>{}: <a href=\"#onset\">go to the onset</a>.</p>", escape(&onset));
    }
    let _ = writeln!(out, "</section>");

    if let Some((_, report, _)) = &summary.worst {
        let _ = writeln!(out, "<h2>Checks</h2>\n<table id=\"checks\"><tr><th>check</th><th>value</th><th>WARN</th><th>FAIL</th><th>level</th></tr>");
        for c in &report.checks {
            let (level, class) =
                if c.judged { (c.level.as_str(), level_key(c.level)) } else { ("not judged", "muted") };
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td class=\"{class}\">{level}</td></tr>",
                c.metric.label(),
                // A check that did not run shows no value (as the page shows it).
                if c.judged { escape(&c.value_text()) } else { "—".into() },
                escape(&threshold_cell(c, false)),
                escape(&threshold_cell(c, true))
            );
        }
        let _ = writeln!(out, "</table>");
        if let Some(line) = super::drift_line::drift_line(report) {
            let _ = writeln!(out, "<p id=\"drift-line\">Drift: {}.</p>", escape(&line));
        }
        if let Some(changes) = summary.thresholds_changed() {
            let _ = writeln!(
                out,
                "<p id=\"thresholds-changed\">Thresholds changed from the defaults: {}.</p>",
                escape(&changes)
            );
        }
    }

    let flagged: Vec<_> = summary.flagged_conversations().collect();
    if !flagged.is_empty() {
        let _ = writeln!(out, "<h2>Across turns</h2>\n<ul id=\"conversations\">");
        for c in &flagged {
            let from = c.onset_turn.map(|u| format!(" from turn {u}")).unwrap_or_default();
            let _ = write!(
                out,
                "<li><span class=\"l-{}\">conversation {} {}</span>{from}",
                level_key(c.verdict),
                c.conversation,
                c.verdict.as_str()
            );
            for reason in &c.reasons {
                let _ = write!(out, "<br>{}", escape(reason));
            }
            let _ = writeln!(out, "</li>");
        }
        let _ = writeln!(out, "</ul>");
    }

    if summary.worst.as_ref().is_some_and(|w| w.0.is_some()) {
        let _ = writeln!(
            out,
            "<h2>Messages, worst first</h2>\n<table id=\"messages\"><tr><th>verdict</th><th>message</th><th>where</th><th>bytes</th><th>tripped</th></tr>"
        );
        for row in summary.rows.iter().take(ROWS_LISTED) {
            let judged =
                if row.judged { String::new() } else { format!(" <span class=\"muted\">({})</span>", row.why) };
            let _ = writeln!(
                out,
                "<tr><td class=\"l-{}\">{}{judged}</td><td>{} {}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                level_key(row.verdict),
                row.verdict.as_str(),
                escape(&row.role),
                escape(&row.channel_text()),
                place(row),
                thousands(row.bytes),
                row.tripped.map_or("", |m| m.label())
            );
        }
        let _ = writeln!(out, "</table>");
        if summary.rows.len() > ROWS_LISTED {
            let more = plural(summary.rows.len() - ROWS_LISTED, "text", "texts");
            let _ = writeln!(
                out,
                "<p class=\"muted\">… and {more} more (the CLI's <code>--json</code> lists every one).</p>"
            );
        }
    }

    if let Some((_, report, text)) = &summary.worst {
        let _ = writeln!(out, "<h2>The worst text</h2>");
        let focus = report.onset.or(report.spans.first().map(|s| s.start)).unwrap_or(0);
        let (from, to) = window(text, focus);
        let listed = plural(report.spans.len(), "span", "spans");
        let not_listed = match report.spans_not_listed {
            0 => String::new(),
            n => format!(" (and {} more not listed)", thousands(n)),
        };
        let _ = write!(out, "<p class=\"legend muted\">{listed} highlighted{not_listed}: ");
        let _ = write!(out, "<mark class=\"k-loop l-fail\">FAIL</mark> <mark class=\"k-loop l-warn\">WARN</mark> ");
        let _ = write!(out, "<mark class=\"k-copy l-warn\">copy</mark>");
        // A legend entry for each kind of breakdown that does not repeat, when the text has one.
        for kind in [
            SpanKind::TemplateLeak,
            SpanKind::TokenSoup,
            SpanKind::GluedWord,
            SpanKind::MisplacedWords,
            SpanKind::RunOn,
            SpanKind::Drift,
        ] {
            if let Some(level) = report.spans.iter().filter(|s| s.kind == kind).map(|s| s.level).max() {
                let _ =
                    write!(out, " <mark class=\"k-{} l-{}\">{}</mark>", kind_key(kind), level_key(level), kind.label());
            }
        }
        let _ = writeln!(out, "; hover a mark for what it is.</p>");
        if (from, to) != (0, text.len()) {
            let _ = writeln!(
                out,
                "<p class=\"muted\" id=\"cut\">A long text: bytes {} to {} of {} shown.</p>",
                thousands(from),
                thousands(to),
                thousands(text.len())
            );
        }
        let _ = write!(out, "<pre class=\"text\" id=\"text\">");
        highlighted(&mut out, &text[from..to], from, &report.spans, report.onset);
        let _ = writeln!(out, "</pre>");
    }
    let _ = writeln!(
        out,
        "<p class=\"muted\">Made by Coherency Analyzer {}, offline: nothing in this file is fetched or run.</p>\n</main></body></html>",
        env!("CARGO_PKG_VERSION")
    );
    out
}

/// The bytes of `text` shown: all of it, or [`TEXT_SHOWN`] from a little before `focus`.
fn window(text: &str, focus: usize) -> (usize, usize) {
    if text.len() <= TEXT_SHOWN {
        return (0, text.len());
    }
    let from = floor_boundary(text, focus.saturating_sub(LEAD_IN).min(text.len() - TEXT_SHOWN));
    (from, floor_boundary(text, from + TEXT_SHOWN))
}

/// `shown` (the text's bytes from `offset`) with its spans as nested `<mark>`s and the onset
/// marked, every byte escaped.
fn highlighted(out: &mut String, shown: &str, offset: usize, spans: &[Span], onset: Option<usize>) {
    let end = offset + shown.len();
    let local: Vec<Span> = spans
        .iter()
        .filter(|s| s.end > offset && s.start < end)
        .map(|s| Span { start: s.start.max(offset) - offset, end: s.end.min(end) - offset, ..s.clone() })
        .collect();
    let onset = onset.filter(|&o| o >= offset && o < end).map(|o| o - offset);
    for seg in segments(shown, &local) {
        for layer in &seg.layers {
            let s = &local[layer.span];
            let _ = write!(
                out,
                "<mark class=\"k-{} l-{}\" title=\"{}\">",
                kind_key(s.kind),
                level_key(s.level),
                escape(&span_title(s))
            );
        }
        match onset.filter(|&o| o >= seg.start && o < seg.end) {
            Some(o) => {
                out.push_str(&escape(&shown[seg.start..o]));
                out.push_str("<span id=\"onset\" title=\"where the text starts to go wrong\">onset</span>");
                out.push_str(&escape(&shown[o..seg.end]));
            }
            None => out.push_str(&escape(&shown[seg.start..seg.end])),
        }
        for _ in &seg.layers {
            out.push_str("</mark>");
        }
    }
}

/// `text` safe anywhere in HTML: text or a quoted attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\0' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::JudgedDocument;

    fn report(bytes: &[u8]) -> String {
        let doc = JudgedDocument::read(bytes, None);
        html(&DocumentSummary::new("in<put>.txt", &doc.transcript, &doc.report))
    }

    #[test]
    fn a_loop_is_shown_with_its_verdict_checks_marks_and_onset() {
        let text = format!("{}{}", "A calm opening sentence that says something. ", "Let me check again.\n".repeat(40));
        let out = report(text.as_bytes());
        assert!(out.starts_with("<!doctype html>"));
        assert!(out.contains("<strong id=\"verdict\">FAIL</strong>"), "{out}");
        assert!(out.contains("<span id=\"file\">in&lt;put&gt;.txt</span>"));
        assert!(out.contains("<a href=\"#onset\">"));
        assert_eq!(out.matches("<span id=\"onset\"").count(), 1);
        assert!(out.contains("<mark class=\"k-loop l-fail\" title=\"loop · 40 copies"), "{out}");
        assert!(!out.contains("<script"), "no script at all");
        // The text reads back from the <pre> once the markup is taken out.
        let pre = &out[out.find("<pre class=\"text\" id=\"text\">").unwrap()..out.find("</pre>").unwrap()];
        let plain = strip_tags(pre).replace("onset", "");
        assert_eq!(unescape(&plain), text);
    }

    #[test]
    fn words_of_no_language_are_marked_with_their_own_legend_entry() {
        let words = ["twenty", "weight", "dividequotientred", "rise", "believemolecule", "appear", "miss", "gave"];
        let text: Vec<&str> = (0..160).map(|i| words[(i * 7 + i / 8) % words.len()]).collect();
        let out = report(text.join(" ").as_bytes());
        assert!(out.contains("<strong id=\"verdict\">FAIL</strong>"), "{out}");
        assert!(out.contains("<mark class=\"k-token_soup l-fail\">odd word</mark>"), "{out}");
        assert!(out.contains("<mark class=\"k-token_soup l-fail\" title=\"odd word"), "{out}");
        assert!(!out.contains("<mark class=\"k-glued_word"), "no legend entry for a kind not shown");
    }

    #[test]
    fn changed_thresholds_are_said_under_the_checks() {
        let text = format!("{}{}", "A calm opening sentence that says something. ", "Let me check again.\n".repeat(40));
        assert!(!report(text.as_bytes()).contains("thresholds-changed"));
        let mut thresholds = crate::analyze::Thresholds::SEED;
        thresholds.assign("gzip_ratio.fail=0.05").expect("a setting");
        let options = crate::judge::JudgeOptions { thresholds, ..Default::default() };
        let doc = JudgedDocument::read_with(text.as_bytes(), None, &options);
        let out = html(&DocumentSummary::new("x", &doc.transcript, &doc.report));
        assert!(
            out.contains("<p id=\"thresholds-changed\">Thresholds changed from the defaults: gzip_ratio.fail 0.05 (default 0.1).</p>"),
            "{out}"
        );
    }

    #[test]
    fn hostile_text_names_and_tools_stay_text() {
        let payload = "<script>alert(1)</script><svg onload=alert(2)><a href=\"javascript:alert(3)\">x</a>'\"&";
        let log = serde_json::json!({"messages": [
            {"role": "assistant", "content": format!("{payload} {}", "again and ".repeat(300)),
             "tool_calls": [{"id": "c1", "type": "function", "function": {"name": payload, "arguments": "{}"}}]},
            {"role": "tool", "name": payload, "tool_call_id": "c1", "content": payload}]})
        .to_string();
        let out = report(log.as_bytes());
        // Only this module's own elements: no tag from the input opens.
        let allowed = [
            "!doctype", "html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "p", "span", "section",
            "strong", "ul", "li", "br", "a", "table", "tr", "th", "td", "pre", "mark", "code",
        ];
        for tag in out.split('<').skip(1).map(|t| t.trim_start_matches('/')) {
            let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '!').collect();
            assert!(allowed.contains(&name.to_ascii_lowercase().as_str()), "<{name} got through");
        }
        assert!(!out.contains("href=\"javascript"));
        assert!(out.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    }

    #[test]
    fn a_long_text_is_shown_from_before_its_onset_and_says_so() {
        let prose: String = (0..60_000).map(|i| format!("w{i} ")).collect();
        let text = format!("{prose}{}", "Let me check again.\n".repeat(70_000));
        let out = report(text.as_bytes());
        assert!(out.contains("id=\"cut\""), "the cut is said");
        assert!(out.contains("<span id=\"onset\""), "the onset is inside the bytes shown");
        assert!(out.len() < TEXT_SHOWN * 3, "{} bytes", out.len());
    }

    fn strip_tags(s: &str) -> String {
        let mut out = String::new();
        let mut inside = false;
        for c in s.chars() {
            match c {
                '<' => inside = true,
                '>' if inside => inside = false,
                c if !inside => out.push(c),
                _ => {}
            }
        }
        out
    }

    fn unescape(s: &str) -> String {
        s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
    }
}
