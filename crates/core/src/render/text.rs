//! The CLI's text report, for a terminal: per file the verdict, the conversations with
//! findings across turns, the worst text's reasons and checks, the messages worst first, what
//! the stream said and the reader's diagnostics; and the summary line of many files ("312
//! files: 300 PASS, 9 WARN, 3 FAIL"). Every value from the input (file names, roles, tool
//! names, reasons quoting the text, stream errors, diagnostics) goes through
//! [`super::terminal::safe_value`], so nothing printed can act on the terminal. The words that
//! deserve a colour (verdicts) are marked with a [`Tone`]; the CLI picks the colours, or none.

use std::fmt::{self, Write};
use std::ops::Range;

use super::json::Listing;
use super::terminal::safe_value;
use crate::analyze::{
    onset_phrase, threshold_cell, verdict_headline, Check, Metric, Report, SpanKind, Thresholds, Verdict,
};
use crate::ingest::{Format, Transcript};
use crate::judge::{Author, ConversationReport, TranscriptReport};
use crate::wording::{lowercase_first, thousands};

/// What a marked word is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// A verdict: PASS, WARN or FAIL.
    Verdict(Verdict),
    /// A text too short to judge, an input not judged: said, but quietly.
    Quiet,
}

/// Text with some of its ranges marked with a [`Tone`]. Written with `write!` like a `String`;
/// [`StyledText::toned`] appends a marked piece.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StyledText {
    text: String,
    tones: Vec<(Range<usize>, Tone)>,
}

impl StyledText {
    /// Appends `piece`, marked with `tone`.
    pub fn toned(&mut self, tone: Tone, piece: &str) {
        let start = self.text.len();
        self.text.push_str(piece);
        self.tones.push((start..self.text.len(), tone));
    }

    /// The whole text, unmarked.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text in order, in pieces: each with its tone, or `None` between marked pieces.
    pub fn pieces(&self) -> Vec<(&str, Option<Tone>)> {
        let mut out = Vec::with_capacity(self.tones.len() * 2 + 1);
        let mut at = 0;
        for (range, tone) in &self.tones {
            if range.start > at {
                out.push((&self.text[at..range.start], None));
            }
            out.push((&self.text[range.clone()], Some(*tone)));
            at = range.end;
        }
        if at < self.text.len() {
            out.push((&self.text[at..], None));
        }
        out
    }
}

impl Write for StyledText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text.push_str(s);
        Ok(())
    }
}

/// One file's text report. `file` is the name to show (made safe here); `replaced` counts the
/// invalid UTF-8 sequences replaced before analysis; `worst` is the full report of the worst
/// judged text; `thresholds` what the texts were judged against; `listing` which messages
/// the table lists (the rest are counted: a log of 300,000 healthy records prints a few
/// lines, not a line each).
pub fn text_report(
    file: &str,
    replaced: usize,
    t: &Transcript,
    analysis: &TranscriptReport,
    worst: &Report,
    thresholds: &Thresholds,
    listing: Listing,
) -> StyledText {
    let mut out = StyledText::default();
    // Writing to a `StyledText` cannot fail.
    let _ = write_report(&mut out, FileToReport { file, replaced, t, analysis, r: worst, thresholds, listing });
    out
}

/// What [`text_report`] writes a report of.
#[derive(Clone, Copy)]
struct FileToReport<'a> {
    file: &'a str,
    replaced: usize,
    t: &'a Transcript,
    analysis: &'a TranscriptReport,
    r: &'a Report,
    thresholds: &'a Thresholds,
    listing: Listing,
}

/// Why a file could not be read, as one line for standard error: "coherency: cannot read
/// FILE: WHY".
pub fn cannot_read(file: &str, why: &str) -> String {
    format!("coherency: cannot read {}: {}", safe_value(file), safe_value(why))
}

/// A file passed over in a directory, as one line for standard error: "coherency: skipped
/// FILE: WHY".
pub fn skipped(file: &str, why: &str) -> String {
    format!("coherency: skipped {}: {}", safe_value(file), safe_value(why))
}

/// How many files got each outcome, for the summary line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileCounts {
    pub pass: usize,
    pub warn: usize,
    pub fail: usize,
    /// Could not be read, or held no text.
    pub unreadable: usize,
    /// Passed over in a directory (binary files).
    pub skipped: usize,
}

impl FileCounts {
    /// Counts one file's verdict.
    pub fn add(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Pass => self.pass += 1,
            Verdict::Warn => self.warn += 1,
            Verdict::Fail => self.fail += 1,
        }
    }

    /// "312 files: 300 PASS, 9 WARN, 3 FAIL" — then ", 1 unreadable" and "; 2 skipped" when
    /// there are any. Files counted are those analysed or unreadable; skipped ones are not.
    pub fn summary(&self) -> StyledText {
        let mut out = StyledText::default();
        let files = self.pass + self.warn + self.fail + self.unreadable;
        let _ = write!(out, "{} {}: ", thousands(files), if files == 1 { "file" } else { "files" });
        for (i, (n, v)) in
            [(self.pass, Verdict::Pass), (self.warn, Verdict::Warn), (self.fail, Verdict::Fail)].into_iter().enumerate()
        {
            let _ = write!(out, "{}{} ", if i > 0 { ", " } else { "" }, thousands(n));
            out.toned(Tone::Verdict(v), v.as_str());
        }
        if self.unreadable > 0 {
            let _ = write!(out, ", {} unreadable", thousands(self.unreadable));
        }
        if self.skipped > 0 {
            let _ = write!(out, "; {} skipped", thousands(self.skipped));
        }
        out
    }
}

/// One check against its thresholds, on one line.
fn write_check(out: &mut StyledText, indent: &str, c: &Check) -> fmt::Result {
    let (warn, fail) = (threshold_cell(c, false), threshold_cell(c, true));
    write!(out, "{indent}{:<14} {:>10}   WARN {warn:<7} FAIL {fail:<7} ", c.metric.label(), c.value_text())?;
    if c.judged {
        out.toned(Tone::Verdict(c.level), c.level.as_str());
    } else {
        out.toned(Tone::Quiet, "not judged");
    }
    writeln!(out)
}

/// Conversations listed with their findings across turns, at most this many.
const CONVERSATIONS_SHOWN: usize = 20;

/// Each conversation whose judgement across turns is above PASS, or that repeats while the work
/// moves on: its verdict, onset turn and reasons (the tool loop, the streams; what changed
/// between the turns that repeat).
fn write_conversations(out: &mut StyledText, analysis: &TranscriptReport, thresholds: &Thresholds) -> fmt::Result {
    let flagged: Vec<&ConversationReport> = analysis.conversations.iter().filter(|c| c.worth_showing()).collect();
    for c in flagged.iter().take(CONVERSATIONS_SHOWN) {
        let from = c.onset_turn.map(|u| format!(" from turn {u}")).unwrap_or_default();
        let calls = match c.tool_calls.calls {
            0 => String::new(),
            1 => ", 1 tool call".to_string(),
            n => format!(", {} tool calls", thousands(n)),
        };
        write!(out, "  conversation {}: ", c.conversation)?;
        out.toned(Tone::Verdict(c.verdict), c.verdict.as_str());
        writeln!(out, "{from} ({} turns, {} by the model{calls})", thousands(c.turns), thousands(c.model_turns))?;
        for reason in &c.reasons {
            writeln!(out, "    {}", safe_value(reason))?;
        }
        let tool = &c.tool_calls.check;
        if tool.judged {
            write_check(out, "    ", tool)?;
        }
        if tool.level > Verdict::Pass {
            if let Some(rule) = tool.metric.rule(thresholds) {
                writeln!(out, "    {} rule: {rule}", tool.metric.label())?;
            }
        }
    }
    if flagged.len() > CONVERSATIONS_SHOWN {
        writeln!(out, "  … and {} more conversations with findings", thousands(flagged.len() - CONVERSATIONS_SHOWN))?;
    }
    Ok(())
}

fn write_report(out: &mut StyledText, of: FileToReport) -> fmt::Result {
    let FileToReport { file, replaced, t, analysis, r, thresholds, listing } = of;
    let judged = analysis.verdict.unwrap_or(r.verdict);
    let (worst_row, rows) = analysis.worst_row(t);
    write!(out, "{}: ", safe_value(file))?;
    if r.too_short && judged == r.verdict {
        out.toned(Tone::Quiet, "TOO SHORT");
    } else {
        out.toned(Tone::Verdict(judged), judged.as_str());
    }
    if t.format == Format::Text {
        writeln!(out, " ({} bytes)", thousands(r.bytes))?;
    } else {
        writeln!(out, " ({}, {} analysed texts)", t.format.label(), rows)?;
        write_conversations(out, analysis, thresholds)?;
        if let Some(row) = worst_row {
            let line = row.line.map(|l| format!(", line {l}")).unwrap_or_default();
            writeln!(
                out,
                "  worst: {} {} of conversation {}, turn {}{line} ({} bytes)",
                safe_value(&row.role),
                row.channel,
                row.conversation,
                row.index,
                thousands(row.bytes)
            )?;
        }
    }
    if !(r.too_short && judged == r.verdict) {
        writeln!(out, "  {}", verdict_headline(judged, super::deciding_check(analysis)))?;
    }
    if replaced > 0 {
        writeln!(out, "  note: {replaced} invalid UTF-8 sequence(s) were replaced with U+FFFD before analysis")?;
    }
    if let Some(changes) = thresholds.changes_text() {
        writeln!(out, "  thresholds: not the defaults — {changes}")?;
    }
    for reason in &r.reasons {
        writeln!(out, "  {}", safe_value(reason))?;
    }
    if let Some(onset) = r.onset {
        writeln!(out, "  onset: {}", lowercase_first(&onset_phrase(r.tripped, onset)))?;
    }
    for c in &r.checks {
        write_check(out, "  ", c)?;
    }
    for c in r.checks.iter().filter(|c| !c.metric.is_seed() && c.level > Verdict::Pass) {
        if let Some(rule) = c.metric.rule(&r.thresholds) {
            writeln!(out, "  {} rule: {rule}", c.metric.label())?;
        }
    }
    if let Some(line) = super::drift_line::drift_line(r) {
        writeln!(out, "  {}", safe_value(&line))?;
    }
    if let Some(first) = r.spans.first() {
        let kinds: Vec<String> = SpanKind::ALL
            .iter()
            .map(|&k| (k, r.spans.iter().filter(|s| s.kind == k).count()))
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{n} {}", k.label()))
            .collect();
        writeln!(
            out,
            "  spans: {} ({}); first at bytes {}..{}",
            r.spans.len(),
            kinds.join(", "),
            first.start,
            first.end
        )?;
    }
    if t.format != Format::Text {
        writeln!(out, "  messages, worst first:")?;
        let mut passing = 0;
        let listed = analysis.rows_where(t, |verdict| listing.lists(verdict, &mut passing));
        for row in &listed {
            let line = row.line.map(|l| format!("line {l}")).unwrap_or_default();
            let tripped = row.tripped.map(Metric::label).unwrap_or("");
            let who = format!("{} {}", safe_value(&row.role), safe_value(&row.channel_text()));
            let why = if row.author == Author::Input { format!("  ({})", row.why) } else { String::new() };
            write!(out, "    ")?;
            out.toned(Tone::Verdict(row.verdict), &format!("{:<4}", row.verdict.as_str()));
            writeln!(
                out,
                "  conv {:<3} turn {:<3} {:<28} {:>10} B  {:<10} {tripped}{why}",
                row.conversation,
                row.index,
                who,
                thousands(row.bytes),
                line
            )?;
        }
        if listed.len() < rows {
            let more = rows - listed.len();
            writeln!(
                out,
                "    … and {} more {}, all PASS (--all-messages lists every one)",
                thousands(more),
                if more == 1 { "message" } else { "messages" }
            )?;
        }
    }
    if let Some(s) = &t.stream {
        let n = |v: Option<u64>| v.map_or("?".to_string(), |v| thousands(v as usize));
        let usage = s.usage.as_ref().map_or("no usage reported".into(), |u| {
            format!("usage {} prompt + {} completion tokens", n(u.prompt_tokens), n(u.completion_tokens))
        });
        writeln!(
            out,
            "  stream: {} chunks, finish_reason {}, {}, {}",
            thousands(s.chunks),
            safe_value(s.finish_reason.as_deref().unwrap_or("none")),
            if s.saw_done { "ended cleanly" } else { "no end marker (cut or incomplete)" },
            usage
        )?;
        for e in &s.errors {
            writeln!(out, "  stream error: {}", safe_value(e))?;
        }
        if s.errors_not_listed > 0 {
            writeln!(out, "  … and {} more stream errors not listed", thousands(s.errors_not_listed))?;
        }
    }
    for d in &t.diagnostics {
        let at = d.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        writeln!(out, "  diagnostic: {at}{}", safe_value(&d.message))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::JudgedDocument;

    #[test]
    fn the_summary_counts_each_verdict_and_marks_them() {
        let counts = FileCounts { pass: 300, warn: 9, fail: 3, unreadable: 0, skipped: 0 };
        let line = counts.summary();
        assert_eq!(line.as_str(), "312 files: 300 PASS, 9 WARN, 3 FAIL");
        let marked: Vec<_> = line.pieces().into_iter().filter_map(|(s, tone)| tone.map(|t| (s, t))).collect();
        assert_eq!(
            marked,
            [
                ("PASS", Tone::Verdict(Verdict::Pass)),
                ("WARN", Tone::Verdict(Verdict::Warn)),
                ("FAIL", Tone::Verdict(Verdict::Fail))
            ]
        );
        let with_rest = FileCounts { pass: 1, unreadable: 1, skipped: 2, ..FileCounts::default() };
        assert_eq!(with_rest.summary().as_str(), "2 files: 1 PASS, 0 WARN, 0 FAIL, 1 unreadable; 2 skipped");
        let pieces: String = line.pieces().into_iter().map(|(s, _)| s).collect();
        assert_eq!(pieces, line.as_str(), "the pieces are the whole text");
    }

    #[test]
    fn values_from_the_input_cannot_act_on_the_terminal() {
        let capture = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\\u001b]0;pwned\\u0007\",\"content\":\"Hello there, how are you today? I am fine.\"},\"finish_reason\":\"stop\\u001b[2J\"}]}\n\n";
        let doc = JudgedDocument::read(capture.as_bytes(), None);
        let worst = doc.report.worst().expect("a text").full_report(&doc.transcript);
        let text =
            text_report("a\u{202e}b.sse", 0, &doc.transcript, &doc.report, &worst, &Thresholds::SEED, Listing::All);
        let shown = text.as_str();
        assert!(!shown.chars().any(|c| super::super::terminal::is_unsafe(c) && c != '\n'), "{shown}");
        assert!(shown.starts_with("a\\u{202e}b.sse: "), "{shown}");
        assert!(shown.contains("finish_reason stop\\x1b[2J"), "{shown}");
    }

    #[test]
    fn a_report_says_when_its_thresholds_are_not_the_defaults() {
        let doc = JudgedDocument::read(b"A line that is fine and long enough to judge.", None);
        let worst = doc.report.worst().expect("a text").full_report(&doc.transcript);
        let default = text_report("f", 0, &doc.transcript, &doc.report, &worst, &Thresholds::SEED, Listing::All);
        assert!(!default.as_str().contains("thresholds:"));
        let mut loose = Thresholds::SEED;
        loose.assign("maxline.warn=10").expect("a setting");
        let changed = text_report("f", 0, &doc.transcript, &doc.report, &worst, &loose, Listing::All);
        assert!(changed.as_str().contains("  thresholds: not the defaults — maxline.warn 10 (default 5)\n"));
    }

    #[test]
    fn a_drifting_text_gets_the_drift_line_under_its_checks() {
        let text = crate::samples::samples().into_iter().find(|s| s.id == "drift").expect("the sample").text;
        let doc = JudgedDocument::read(text.as_bytes(), None);
        let worst = doc.report.worst().expect("a text").full_report(&doc.transcript);
        let out = text_report("f", 0, &doc.transcript, &doc.report, &worst, &Thresholds::SEED, Listing::All);
        let out = out.as_str();
        let line = out.find("\n  topic words along the text ('kernel'").expect("the drift line");
        assert!(out.find("\n  topic drift ").is_some_and(|check| check < line), "under the checks: {out}");
        assert!(out.contains("····· — none from byte 1,810 to the end (61 %)\n"), "{out}");
    }
}
