//! [`Summary`]: what a shared report says, whatever its form — the file's verdict, the worst
//! judged text with its full report, where it turns degenerate, the messages worst first and the
//! conversations with findings across turns.

use std::borrow::Cow;
use std::rc::Rc;

use crate::analyze::text_units::{ceil_boundary, floor_boundary};
use crate::analyze::{onset_phrase, verdict_headline, Metric, Report, Verdict};
use crate::ingest::{Format, Transcript};
use crate::judge::{ConversationReport, MessageRow, TranscriptReport};
use crate::wording::{plural, thousands};

/// Bytes of the text quoted from the onset on.
pub const EXCERPT_BYTES: usize = 240;

/// A judged document summed up for a report (see the module header).
pub struct DocumentSummary<'a> {
    /// The name the report goes by (a file name, "pasted text").
    pub name: &'a str,
    pub transcript: &'a Transcript,
    pub report: &'a TranscriptReport,
    /// "PASS", "WARN", "FAIL", "TOO SHORT" when nothing could be judged, "NO TEXT" when there
    /// was nothing to analyse (a stream of errors).
    pub verdict_label: &'static str,
    /// The file's verdict (of what is judged).
    pub verdict: Verdict,
    /// Every analysed text, worst judged first.
    pub rows: Vec<MessageRow>,
    /// The worst text: its row (none for a plain text), its full report and its text.
    pub worst: Option<(Option<usize>, Rc<Report>, Cow<'a, str>)>,
}

impl<'a> DocumentSummary<'a> {
    /// The summary of `report`, the judgement of `transcript`, under `name`.
    pub fn new(name: &'a str, transcript: &'a Transcript, report: &'a TranscriptReport) -> Self {
        let rows = report.rows(transcript);
        let worst = report.worst().map(|w| {
            let row = rows.iter().position(|r| std::ptr::eq(&report.reports[r.report], w));
            let row = row.filter(|_| transcript.format != Format::Text);
            (row, w.full_report(transcript), w.text(transcript))
        });
        let verdict = report.verdict.unwrap_or(Verdict::Pass);
        let verdict_label = match report.verdict {
            None => "NO TEXT",
            Some(_) if report.all_too_short() => "TOO SHORT",
            Some(v) => v.as_str(),
        };
        DocumentSummary { name, transcript, report, verdict_label, verdict, rows, worst }
    }

    /// What was read: "text, 17,599 bytes" or "request/response log (JSONL), 12 analysed texts".
    pub fn what(&self) -> String {
        match (&self.worst, self.transcript.format) {
            (Some((_, r, _)), Format::Text) => format!("text, {}", plural(r.bytes, "byte", "bytes")),
            _ => format!(
                "{}, {}",
                self.transcript.format.label(),
                plural(self.rows.len(), "analysed text", "analysed texts")
            ),
        }
    }

    /// Where the worst text is, for a document of several: "assistant reasoning of conversation
    /// 0, turn 3, line 5 (1,234 bytes)".
    pub fn worst_place(&self) -> Option<String> {
        // A conversation whose judgement across turns decides the verdict leads, as on the page.
        if let Some(c) = deciding_conversation(self.report) {
            let why = c.reasons.first().map(|r| format!(" — {r}")).unwrap_or_default();
            return Some(format!("{}{why}", conversation_place(c)));
        }
        let row = &self.rows[self.worst.as_ref()?.0?];
        Some(format!("{} {} of {} ({})", row.role, row.channel_text(), place(row), plural(row.bytes, "byte", "bytes")))
    }

    /// The onset of the worst text and the text from there (at most [`EXCERPT_BYTES`], cut on
    /// characters), with whether more follows.
    pub fn excerpt(&self) -> Option<(usize, &str, bool)> {
        let (_, report, text) = self.worst.as_ref()?;
        let onset = floor_boundary(text, report.onset?);
        let end = ceil_boundary(text, onset + EXCERPT_BYTES).min(text.len());
        let end = if end - onset > EXCERPT_BYTES { floor_boundary(text, onset + EXCERPT_BYTES) } else { end };
        Some((onset, &text[onset..end], end < text.len()))
    }

    /// The conversations whose judgement across turns found something: a loop, or repeats
    /// that moved on (see `ConversationReport::worth_showing`).
    pub fn flagged_conversations(&self) -> impl Iterator<Item = &'a ConversationReport> {
        self.report.conversations.iter().filter(|c| c.worth_showing())
    }

    /// The thresholds the texts were judged against, when a person changed any: "maxline.fail
    /// 20 (default 12)" ([`crate::analyze::Thresholds::changes_text`]); `None` for the defaults.
    pub fn thresholds_changed(&self) -> Option<String> {
        let (_, report, _) = self.worst.as_ref()?;
        report.thresholds.changes_text()
    }

    /// "Turns degenerate at byte 1,234", "Leaves its topic at byte 1,810": where the worst text
    /// breaks down, when it has an onset (see [`crate::analyze::onset_phrase`]).
    pub fn onset_text(&self) -> Option<String> {
        let (_, report, _) = self.worst.as_ref()?;
        report.onset.map(|o| onset_phrase(report.tripped, o))
    }

    /// The verdict's headline ("Repetition collapse: the text loops"), when there is a verdict
    /// (not for TOO SHORT or NO TEXT).
    pub fn headline(&self) -> Option<String> {
        matches!(self.verdict_label, "PASS" | "WARN" | "FAIL")
            .then(|| verdict_headline(self.verdict, deciding_check(self.report)))
    }
}

/// Where a row's text is: "conversation 0, turn 3, line 5".
pub fn place(row: &MessageRow) -> String {
    place_of(row.conversation, row.index, row.line)
}

/// "conversation 0, turn 3, line 12": where a text is, by its numbers.
pub fn place_of(conversation: usize, turn: usize, line: Option<usize>) -> String {
    let line = line.map(|l| format!(", line {l}")).unwrap_or_default();
    format!("conversation {conversation}, turn {turn}{line}")
}

/// The conversation whose judgement across turns decides `report`'s verdict (one of two turns
/// or more at the verdict's level), when the verdict is not a PASS.
pub fn deciding_conversation(report: &TranscriptReport) -> Option<&ConversationReport> {
    let verdict = report.verdict.filter(|v| *v > Verdict::Pass)?;
    report.conversations.iter().find(|c| c.turns >= 2 && c.verdict == verdict)
}

/// The check that set `report`'s verdict, for its headline ([`crate::analyze::verdict_headline`]):
/// the tool-call check when a conversation's tool loop is at the verdict's level, else the worst
/// judged text's; `None` for PASS, or when only a judgement across turns reaches the verdict
/// (which reads as repetition).
pub fn deciding_check(report: &TranscriptReport) -> Option<Metric> {
    let verdict = report.verdict.filter(|v| *v > Verdict::Pass)?;
    if report.conversations.iter().any(|c| c.tool_calls.check.level == verdict) {
        return Some(Metric::ToolLoop);
    }
    report.worst().filter(|w| w.judged && w.report.verdict() == verdict).and_then(|w| w.report.tripped())
}

/// The check that set conversation `c`'s verdict, for its words: its tool-call check when that
/// is at the verdict's level, else the check of its first judged text at that level (a message,
/// then a stream of its turns); `None` for PASS.
pub fn conversation_check(
    transcript: &Transcript,
    report: &TranscriptReport,
    c: &ConversationReport,
) -> Option<Metric> {
    if c.verdict == Verdict::Pass {
        return None;
    }
    if c.tool_calls.check.level == c.verdict {
        return Some(Metric::ToolLoop);
    }
    let of_c = |r: &&crate::judge::MessageReport| {
        r.messages.first().and_then(|&m| transcript.messages.get(m)).is_some_and(|m| m.conversation == c.conversation)
    };
    report
        .reports
        .iter()
        .filter(|r| r.judged && r.report.verdict() == c.verdict)
        .filter(of_c)
        .min_by_key(|r| r.stream.is_some())
        .and_then(|r| r.report.tripped())
}

/// "conversation 0, from turn 3": where a conversation turns degenerate.
pub fn conversation_place(c: &ConversationReport) -> String {
    let from = c.onset_turn.map(|t| format!(", from turn {}", thousands(t))).unwrap_or_default();
    format!("conversation {}{from}", thousands(c.conversation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::JudgedDocument;

    #[test]
    fn a_plain_text_is_summed_up_from_its_report() {
        let text = format!("{}{}", "A calm opening sentence that says something. ", "Let me check again.\n".repeat(40));
        let doc = JudgedDocument::read(text.as_bytes(), None);
        let s = DocumentSummary::new("loop.txt", &doc.transcript, &doc.report);
        assert_eq!((s.verdict_label, s.verdict), ("FAIL", Verdict::Fail));
        assert_eq!(s.what(), format!("text, {} bytes", thousands(text.len())));
        assert_eq!(s.worst_place(), None, "a plain text is its own worst text");
        let (onset, excerpt, more) = s.excerpt().expect("an onset");
        assert!(text[onset..].starts_with(excerpt) && excerpt.len() <= EXCERPT_BYTES && more);
        assert!(excerpt.starts_with("Let me check again."), "{excerpt:?}");
    }

    #[test]
    fn a_log_names_its_worst_message_and_too_short_is_said() {
        let log = "{\"messages\":[{\"role\":\"assistant\",\"content\":\"fine\"}]}\n";
        let doc = JudgedDocument::read(log.as_bytes(), None);
        let s = DocumentSummary::new("log.jsonl", &doc.transcript, &doc.report);
        assert_eq!(s.verdict_label, "TOO SHORT");
        assert!(s.worst_place().is_some_and(|p| p.starts_with("assistant ")), "{:?}", s.worst_place());
        assert!(s.excerpt().is_none());
        assert!(s.what().ends_with("1 analysed text"), "{}", s.what());
    }
}
