//! Per-message analysis of a transcript: each message on its own, plus reasoning and content
//! combined for every reply that has both, so a loop hidden in the reasoning behind a clean
//! answer shows up as the reasoning message's FAIL. The overall verdict is the worst one.

use super::transcript::{Channel, Transcript};
use crate::analyze::text_units::floor_boundary;
use crate::analyze::{analyze, Metric, Report, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::rc::Rc;

/// The analysis of one text of a transcript.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MessageReport {
    /// Indices into [`Transcript::messages`] of the analysed text: one message, or for a
    /// combined report the reasoning and content messages of one reply, in order.
    pub messages: Vec<usize>,
    /// Reasoning and content of one reply analysed together (joined by a blank line).
    pub combined: bool,
    /// Shared between messages with the same text (a request log repeats its history).
    pub report: Rc<Report>,
}

/// Every report of a transcript, in message order (a combined report follows its reply).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TranscriptReport {
    pub reports: Vec<MessageReport>,
    /// The worst verdict of all reports; `None` when there was nothing to analyse.
    pub verdict: Option<Verdict>,
}

impl TranscriptReport {
    /// Indices into `reports`, worst verdict first; at equal verdicts texts long enough to
    /// judge come before too-short ones, single messages before combined ones (they point at
    /// the culprit), then input order.
    pub fn worst_first_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.reports.len()).collect();
        order.sort_by_key(|&i| {
            let r = &self.reports[i];
            (std::cmp::Reverse(r.report.verdict), r.report.too_short, r.combined)
        });
        order
    }

    /// The reports in [`Self::worst_first_order`].
    pub fn worst_first(&self) -> Vec<&MessageReport> {
        self.worst_first_order().into_iter().map(|i| &self.reports[i]).collect()
    }

    /// The report that sets the overall verdict.
    pub fn worst(&self) -> Option<&MessageReport> {
        self.worst_first().into_iter().next()
    }

    /// One table row per report, worst first: what the page's message table and the CLI's
    /// per-message output show. `t` must be the transcript these reports were made from.
    pub fn rows(&self, t: &Transcript) -> Vec<MessageRow> {
        self.worst_first_order()
            .into_iter()
            .filter_map(|i| {
                let r = &self.reports[i];
                let first = t.messages.get(*r.messages.first()?)?;
                Some(MessageRow {
                    report: i,
                    conversation: first.conversation,
                    index: first.index,
                    line: first.line,
                    role: first.role.clone(),
                    channel: if r.combined { "combined" } else { first.channel.as_str() },
                    name: first.name.clone(),
                    bytes: r.report.bytes,
                    verdict: r.report.verdict,
                    tripped: r.report.tripped,
                })
            })
            .collect()
    }
}

/// One row of the per-message table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MessageRow {
    /// Index into [`TranscriptReport::reports`] (for the full analysis of the row).
    pub report: usize,
    pub conversation: usize,
    pub index: usize,
    /// 1-based line of the message in the input.
    pub line: Option<usize>,
    pub role: String,
    /// `reasoning`, `content`, `tool`, or `combined` (reasoning + content of one reply).
    pub channel: &'static str,
    /// The tool's name, for tool calls and results.
    pub name: Option<String>,
    /// Size of the analysed text in UTF-8 bytes.
    pub bytes: usize,
    pub verdict: Verdict,
    /// The check that set the verdict (see [`crate::analyze::Report::tripped`]); `None` for PASS.
    pub tripped: Option<Metric>,
}

/// Analyses every message of `t` (identical texts once: request logs repeat their history)
/// and every reply's reasoning + content.
pub fn analyze_transcript(t: &Transcript) -> TranscriptReport {
    analyze_transcript_with(t, &mut |_| {})
}

/// How far [`analyze_transcript_with`] has got: texts and their bytes analysed so far (a text
/// met again counts as analysed), of how many, and the worst verdict so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisProgress {
    pub texts_done: usize,
    pub texts: usize,
    pub bytes_done: usize,
    pub bytes: usize,
    /// The worst verdict of the texts analysed so far (a FAIL here is the file's verdict).
    pub worst: Option<Verdict>,
    /// While a long text (≥ [`PREVIEW_OVER`] bytes) is analysed: the verdict of its first
    /// `.0` bytes, judged first so that a verdict so far comes in a fraction of the time.
    #[serde(default)]
    pub preview: Option<(usize, Verdict)>,
}

/// Texts at least this long get a preview: their first [`PREVIEW_BYTES`] judged first.
pub const PREVIEW_OVER: usize = 8 << 20;
/// How much of a long text the preview judges.
pub const PREVIEW_BYTES: usize = 2 << 20;

/// The first `max` bytes of `text`, cut on a character boundary.
fn prefix(text: &str, max: usize) -> &str {
    &text[..floor_boundary(text, max)]
}

/// One text to analyse: a message, or a reply's reasoning and content joined.
enum Unit {
    Single(usize),
    Combined(Vec<usize>),
}

/// Judges the start of a long text and says so, before the whole is analysed.
fn preview(text: &str, progress: &mut AnalysisProgress, on_progress: &mut dyn FnMut(AnalysisProgress)) {
    if text.len() >= PREVIEW_OVER {
        let head = prefix(text, PREVIEW_BYTES);
        progress.preview = Some((head.len(), analyze(head).verdict));
        on_progress(*progress);
    }
}

/// The texts [`analyze_transcript`] analyses, in report order.
fn units(t: &Transcript) -> Vec<Unit> {
    let msgs = &t.messages;
    let mut out = Vec::new();
    let mut i = 0;
    while i < msgs.len() {
        // One reply: the run of messages sharing conversation and turn.
        let mut j = i + 1;
        while j < msgs.len() && (msgs[j].conversation, msgs[j].index) == (msgs[i].conversation, msgs[i].index) {
            j += 1;
        }
        out.extend((i..j).map(Unit::Single));
        let parts: Vec<usize> = (i..j).filter(|&k| msgs[k].channel != Channel::Tool).collect();
        let has = |c: Channel| parts.iter().any(|&k| msgs[k].channel == c);
        if has(Channel::Reasoning) && has(Channel::Content) {
            out.push(Unit::Combined(parts));
        }
        i = j;
    }
    out
}

/// [`analyze_transcript`], calling `on_progress` before the first text and after each one
/// (the caller decides how often to pass it on).
pub fn analyze_transcript_with(t: &Transcript, on_progress: &mut dyn FnMut(AnalysisProgress)) -> TranscriptReport {
    let msgs = &t.messages;
    let units = units(t);
    let size = |u: &Unit| match u {
        Unit::Single(k) => msgs[*k].text.len(),
        // Joined by blank lines.
        Unit::Combined(parts) => parts.iter().map(|&k| msgs[k].text.len() + 2).sum::<usize>().saturating_sub(2),
    };
    let mut progress =
        AnalysisProgress { texts: units.len(), bytes: units.iter().map(size).sum(), ..AnalysisProgress::default() };
    on_progress(progress);
    let mut reports: Vec<MessageReport> = Vec::with_capacity(units.len());
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for unit in &units {
        let report = match unit {
            Unit::Single(k) => {
                let m = &msgs[*k];
                let report = match seen.get(m.text.as_str()) {
                    Some(&r) => Rc::clone(&reports[r].report),
                    None => {
                        seen.insert(&m.text, reports.len());
                        preview(&m.text, &mut progress, on_progress);
                        Rc::new(analyze(&m.text))
                    }
                };
                MessageReport { messages: vec![*k], combined: false, report }
            }
            Unit::Combined(parts) => {
                let text = parts.iter().map(|&k| msgs[k].text.as_str()).collect::<Vec<_>>().join("\n\n");
                preview(&text, &mut progress, on_progress);
                MessageReport { messages: parts.clone(), combined: true, report: Rc::new(analyze(&text)) }
            }
        };
        progress.texts_done += 1;
        progress.bytes_done += size(unit);
        progress.preview = None;
        progress.worst = progress.worst.max(Some(report.report.verdict));
        reports.push(report);
        on_progress(progress);
    }
    let verdict = reports.iter().map(|r| r.report.verdict).max();
    TranscriptReport { reports, verdict }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{Format, Message};

    fn msg(index: usize, channel: Channel, text: String) -> Message {
        Message {
            conversation: 0,
            index,
            role: "assistant".into(),
            channel,
            name: None,
            text: text.into(),
            source: 0..0,
            line: None,
        }
    }

    #[test]
    fn loop_in_reasoning_behind_clean_answer_fails_the_reasoning() {
        let mut t = Transcript::new(Format::Sse);
        t.messages.push(msg(0, Channel::Reasoning, "Wait, let me re-check the total.\n".repeat(35)));
        t.messages.push(msg(0, Channel::Content, "The total is 42, as computed from the three invoices.".into()));
        let r = analyze_transcript(&t);
        assert_eq!(r.verdict, Some(Verdict::Fail));
        assert_eq!(r.reports.len(), 3);
        assert_eq!(r.reports[1].report.verdict, Verdict::Pass);
        assert!(r.reports[2].combined);
        let worst = r.worst().unwrap();
        assert_eq!((worst.messages.as_slice(), worst.combined), (&[0][..], false));
        let rows = r.rows(&t);
        let got: Vec<(&str, Verdict, Option<Metric>, usize)> =
            rows.iter().map(|row| (row.channel, row.verdict, row.tripped, row.report)).collect();
        assert_eq!(
            got,
            vec![
                ("reasoning", Verdict::Fail, Some(Metric::Loop), 0),
                ("combined", Verdict::Fail, Some(Metric::Loop), 2),
                ("content", Verdict::Pass, None, 1),
            ]
        );
    }

    #[test]
    fn nothing_to_analyse_has_no_verdict_and_duplicates_share_reports() {
        assert_eq!(analyze_transcript(&Transcript::new(Format::Binary)).verdict, None);
        let mut t = Transcript::new(Format::Jsonl);
        t.messages.push(msg(0, Channel::Content, "same text here, long enough to judge".into()));
        t.messages.push(msg(1, Channel::Content, "same text here, long enough to judge".into()));
        let r = analyze_transcript(&t);
        assert_eq!(r.reports[0].report, r.reports[1].report);
        assert_eq!(r.verdict, Some(Verdict::Pass));
    }

    #[test]
    fn among_passes_a_text_long_enough_to_judge_comes_first() {
        let mut t = Transcript::new(Format::Jsonl);
        t.messages.push(msg(0, Channel::Content, "ok".into()));
        t.messages.push(msg(1, Channel::Content, "A reply long enough to be judged on its own merits.".into()));
        let r = analyze_transcript(&t);
        assert_eq!(r.worst_first_order(), vec![1, 0]);
    }

    #[test]
    fn progress_counts_every_text_and_its_bytes_and_the_worst_so_far() {
        let mut t = Transcript::new(Format::Sse);
        t.messages.push(msg(0, Channel::Content, "A reply long enough to be judged on its own merits.".into()));
        t.messages.push(msg(1, Channel::Reasoning, "Wait, let me re-check the total.\n".repeat(35)));
        t.messages.push(msg(1, Channel::Content, "The total is 42.".into()));
        let mut seen = Vec::new();
        let r = analyze_transcript_with(&t, &mut |p| seen.push(p));
        assert_eq!(r, analyze_transcript(&t), "the same reports with or without progress");
        let total = t.messages.iter().map(|m| m.text.len()).sum::<usize>() + 35 * 33 + 2 + 16;
        assert_eq!(seen.len(), r.reports.len() + 1, "once before, once per text");
        assert_eq!((seen[0].texts_done, seen[0].bytes_done, seen[0].worst), (0, 0, None));
        let last = seen[seen.len() - 1];
        assert_eq!((last.texts_done, last.texts, last.bytes_done, last.bytes), (4, 4, total, total));
        let worst: Vec<Option<Verdict>> = seen.iter().map(|p| p.worst).collect();
        assert_eq!(
            worst,
            vec![None, Some(Verdict::Pass), Some(Verdict::Fail), Some(Verdict::Fail), Some(Verdict::Fail)]
        );
        assert!(seen.windows(2).all(|w| w[0].bytes_done <= w[1].bytes_done));
        assert!(seen.iter().all(|p| p.preview.is_none()), "short texts need no preview");
    }

    #[test]
    fn a_long_text_is_previewed_from_its_start() {
        let mut t = Transcript::new(Format::Text);
        let text = format!("{}{}", "Let me check the file again. ".repeat(80_000), "é".repeat(4_000_000));
        t.messages.push(msg(0, Channel::Content, text));
        let mut seen = Vec::new();
        analyze_transcript_with(&t, &mut |p| seen.push(p));
        assert_eq!(seen.len(), 3, "before, the preview, after");
        assert_eq!(seen[1].preview, Some((PREVIEW_BYTES, Verdict::Fail)), "2 MiB of the loop");
        assert_eq!((seen[1].texts_done, seen[2].preview), (0, None));
        assert_eq!(prefix("aé", 2), "a");
    }
}
