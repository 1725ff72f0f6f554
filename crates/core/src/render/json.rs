//! The report as JSON: one object per file, the CLI's `--json` line and the page's "Download
//! JSON" (docs/cli.md lists its fields; [`saved_report`](super::saved_report) reads it
//! back). At the top level the worst judged message's report (for a plain text, the text's),
//! then the file's verdict, how many messages and conversations got each verdict, the messages
//! and conversations listed ([`Listing`]: every one, or every flagged one and the worst few
//! others, the rest counted) and what the reader noticed. Written as it is made: a short text
//! that passed keeps only a summary, so its report is made again as its row is written.

use serde::Serialize;

use super::saved_report::SCHEMA_VERSION;
use crate::analyze::{Metric, Metrics, Report, Span, ThresholdChange, Verdict};
use crate::ingest::{Diagnostic, Format, Transcript};
use crate::judge::{ConversationReport, MessageReport, MessageRow, StreamKind, TranscriptReport};
use crate::stream::StreamInfo;

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
    /// How many messages and conversations the file has, and of each verdict.
    counts: Counts,
    /// The analysed messages listed (and reasoning + content combined per reply, and each
    /// conversation's streams), worst judged first, then the inputs not judged: every one, or
    /// (the CLI's default, see [`Listing`]) every flagged one and the worst few others.
    messages: MessagesJson<'a>,
    /// Messages left out of `messages` (all PASS).
    messages_not_listed: usize,
    /// Conversations judged across their turns: every one, or those flagged or holding a
    /// listed message.
    conversations: Vec<ConversationJson<'a>>,
    /// Conversations left out of `conversations` (all PASS).
    conversations_not_listed: usize,
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

/// Which messages (and conversations) a file's line lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Every analysed message and every conversation (the CLI's `--all-messages`).
    All,
    /// Every message and conversation at WARN or FAIL, judged or not, and the `n` worst of the
    /// other messages (in the rows' order: judged first, long enough to judge before too
    /// short); a conversation is listed too when it holds a listed message. The rest are
    /// counted (`messages_not_listed`, `conversations_not_listed`): a log of 300,000 healthy
    /// records writes a few kilobytes, not a row each.
    FlaggedAndWorst(usize),
}

impl Listing {
    /// The healthy messages listed by default, worst first (the CLI's `--worst`, the page's
    /// ⤓ JSON).
    pub const WORST: usize = 10;

    /// What the CLI lists by default and the page's ⤓ JSON lists.
    pub const DEFAULT: Listing = Listing::FlaggedAndWorst(Listing::WORST);

    /// Whether a message of `verdict`, next in the rows' order, is listed; `passing` counts the
    /// passing messages listed so far (and is counted on).
    pub fn lists(self, verdict: Verdict, passing: &mut usize) -> bool {
        let listed = match self {
            Listing::All => true,
            Listing::FlaggedAndWorst(n) => verdict > Verdict::Pass || *passing < n,
        };
        *passing += usize::from(listed && verdict == Verdict::Pass);
        listed
    }
}

/// How many messages (rows: texts analysed) and conversations a file has, and of each verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub messages: usize,
    /// Messages that count towards the file's verdict.
    pub messages_judged: usize,
    /// Messages at WARN and at FAIL, judged or not.
    pub messages_warn: usize,
    pub messages_fail: usize,
    pub conversations: usize,
    pub conversations_warn: usize,
    pub conversations_fail: usize,
}

#[derive(Serialize)]
pub struct FileError<'a> {
    schema_version: u32,
    file: &'a str,
    error: String,
}

/// Invalid UTF-8 sequences in `bytes` (each replaced by U+FFFD before analysis): what the
/// line's `replaced_invalid_utf8` counts.
pub fn invalid_utf8_sequences(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(_) => 0,
        Err(_) => bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count(),
    }
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
        let rows = analysis.rows(t);
        let mut counts =
            Counts { messages: rows.len(), conversations: analysis.conversations.len(), ..Counts::default() };
        for r in &rows {
            counts.messages_judged += usize::from(r.judged);
            counts.messages_warn += usize::from(r.verdict == Verdict::Warn);
            counts.messages_fail += usize::from(r.verdict == Verdict::Fail);
        }
        for c in &analysis.conversations {
            counts.conversations_warn += usize::from(c.verdict == Verdict::Warn);
            counts.conversations_fail += usize::from(c.verdict == Verdict::Fail);
        }
        let messages = MessagesJson { rows, analysis, transcript: t };
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
            counts,
            messages,
            messages_not_listed: 0,
            conversations,
            conversations_not_listed: 0,
            diagnostics: &t.diagnostics,
            stream: t.stream.as_ref(),
        }
    }
}

impl FileReport<'_> {
    /// The line listing the messages and conversations `listing` says ([`Self::new`] lists
    /// every one).
    pub fn listing(mut self, listing: Listing) -> Self {
        if listing == Listing::All {
            return self;
        }
        let mut passing = 0;
        self.messages.rows.retain(|r| listing.lists(r.verdict, &mut passing));
        self.messages_not_listed = self.counts.messages - self.messages.rows.len();
        let holding: std::collections::BTreeSet<usize> = self.messages.rows.iter().map(|r| r.conversation).collect();
        self.conversations.retain(|c| c.report.verdict > Verdict::Pass || holding.contains(&c.report.conversation));
        self.conversations_not_listed = self.counts.conversations - self.conversations.len();
        self
    }
}

impl<'a> FileError<'a> {
    /// The line of a `file` that could not be read, and why.
    pub fn new(file: &'a str, error: String) -> Self {
        FileError { schema_version: SCHEMA_VERSION, file, error }
    }
}
