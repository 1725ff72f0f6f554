//! The report as JSON: one object per file, the CLI's `--json` line and the page's "Download
//! JSON" (docs/cli.md lists its fields; [`saved_report`](super::saved_report) reads it
//! back). At the top level the worst judged message's report (for a plain text, the text's),
//! then the file's verdict, every message, every conversation's judgement and what the reader
//! noticed. Written as it is made: a log's line can be hundreds of megabytes, and a short text
//! that passed keeps only a summary, so its report is made again as its row is written.

use serde::Serialize;

use super::saved_report::SCHEMA_VERSION;
use crate::analyze::{Metric, Metrics, Report, Span, ThresholdChange, Verdict};
use crate::ingest::{Diagnostic, Format, Transcript};
use crate::stream::StreamInfo;
use crate::verdict::{ConversationReport, MessageReport, MessageRow, StreamKind, TranscriptReport};

/// One file's `--json` line: the worst judged message's report at the top level (for a plain
/// text file, the report of the text), the file's verdict, then every message, every
/// conversation's judgement across its turns and what the reader noticed.
#[derive(Serialize)]
pub struct FileReport<'a> {
    /// The version of this object's schema (docs/cli.md): raised when a field changes
    /// meaning or goes; new fields may come without it.
    schema_version: u32,
    file: &'a str,
    format: Format,
    /// Size of the input file; `bytes` is the size of the text the top-level report analysed.
    input_bytes: usize,
    /// Invalid UTF-8 sequences in the input, replaced by U+FFFD before analysis.
    replaced_invalid_utf8: usize,
    #[serde(flatten)]
    report: &'a Report,
    /// The thresholds that differ from the defaults (`--threshold`, `--config`): each
    /// setting's `name`, `value` and `default`; empty when every one is the default.
    thresholds_changed: Vec<ThresholdChange>,
    /// The file's verdict, which the exit status follows: the worst of what is judged (the
    /// model's texts and its conversations across turns; inputs too with `--judge-inputs`).
    /// `verdict` above is the top-level text's.
    judged_verdict: Verdict,
    /// Whether the top-level text is judged, and why (it is an input only when nothing is).
    judged: bool,
    why: &'static str,
    /// Every analysed message (and reasoning + content combined per reply, and each
    /// conversation's streams), worst judged first, then the inputs not judged.
    messages: MessagesJson<'a>,
    /// Each conversation judged across its turns.
    conversations: Vec<ConversationJson<'a>>,
    diagnostics: &'a [Diagnostic],
    #[serde(skip_serializing_if = "Option::is_none")]
    stream: Option<&'a StreamInfo>,
}

/// A conversation's judgement (`streams` index `messages[].report`), with its streams' verdicts.
#[derive(Serialize)]
struct ConversationJson<'a> {
    #[serde(flatten)]
    report: &'a ConversationReport,
    stream_results: Vec<StreamJson>,
}

#[derive(Serialize)]
struct StreamJson {
    /// Index of its report (`messages[].report`).
    report: usize,
    kind: StreamKind,
    verdict: Verdict,
    tripped: Option<Metric>,
    reasons: Vec<String>,
}

#[derive(Serialize)]
struct MessageJson<'a> {
    #[serde(flatten)]
    row: &'a MessageRow,
    seed_verdict: Verdict,
    /// Byte offset into this message's text (see `Report::onset`).
    onset: Option<usize>,
    reasons: &'a [String],
    metrics: &'a Metrics,
    spans: &'a [Span],
}

/// Every row's message with its full report, written one at a time: a short text that passed
/// keeps only a summary (`KeptReport`), so its report is computed again as it is written and
/// dropped after, instead of every report being held at once.
struct MessagesJson<'a> {
    rows: Vec<MessageRow>,
    analysis: &'a TranscriptReport,
    transcript: &'a Transcript,
}

impl Serialize for MessagesJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.rows.len()))?;
        for row in &self.rows {
            let r = self.analysis.reports[row.report].full_report(self.transcript);
            seq.serialize_element(&MessageJson {
                row,
                seed_verdict: r.seed_verdict,
                onset: r.onset,
                reasons: &r.reasons,
                metrics: &r.metrics,
                spans: &r.spans,
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
pub struct FileError<'a> {
    schema_version: u32,
    file: &'a str,
    error: String,
}

impl<'a> FileReport<'a> {
    /// The line of `file` (`input_bytes` read, `replaced` invalid UTF-8 sequences replaced),
    /// read as `t` and judged as `analysis`, whose worst judged message is `worst` with its
    /// full report `worst_report`.
    pub fn new(
        file: &'a str,
        input_bytes: usize,
        replaced: usize,
        t: &'a Transcript,
        analysis: &'a TranscriptReport,
        worst: &'a MessageReport,
        worst_report: &'a Report,
    ) -> Self {
        let messages = MessagesJson { rows: analysis.rows(t), analysis, transcript: t };
        let conversations = analysis
            .conversations
            .iter()
            .map(|c| ConversationJson {
                report: c,
                stream_results: c
                    .streams
                    .iter()
                    .filter_map(|&i| {
                        let r = analysis.reports.get(i)?;
                        Some(StreamJson {
                            report: i,
                            kind: r.stream?,
                            verdict: r.report.verdict(),
                            tripped: r.report.tripped(),
                            reasons: r.full_report(t).reasons.clone(),
                        })
                    })
                    .collect(),
            })
            .collect();
        FileReport {
            schema_version: SCHEMA_VERSION,
            file,
            format: t.format,
            input_bytes,
            replaced_invalid_utf8: replaced,
            report: worst_report,
            thresholds_changed: worst_report.thresholds.changes(),
            judged_verdict: analysis.verdict.unwrap_or(Verdict::Pass),
            judged: worst.judged,
            why: worst.why(),
            messages,
            conversations,
            diagnostics: &t.diagnostics,
            stream: t.stream.as_ref(),
        }
    }
}

impl<'a> FileError<'a> {
    /// The line of a `file` that could not be read, and why.
    pub fn new(file: &'a str, error: String) -> Self {
        FileError { schema_version: SCHEMA_VERSION, file, error }
    }
}
