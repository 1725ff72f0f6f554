//! The row model: one line of the per-message table per report, worst first, as the page's
//! message table and the CLI's per-message output show it.

use serde::Serialize;

use super::authorship::Author;
use super::report::TranscriptReport;
use crate::analyze::{Metric, Verdict};
use crate::ingest::Transcript;

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
    /// `reasoning`, `content`, `tool`, `combined` (reasoning + content of one reply), or a
    /// conversation's `model stream`, `reasoning stream`, `content stream`.
    pub channel: &'static str,
    /// The tool's name, for tool calls and results (not for a stream).
    pub name: Option<String>,
    /// Size of the analysed text in UTF-8 bytes.
    pub bytes: usize,
    pub verdict: Verdict,
    /// The check that set the verdict (see [`crate::analyze::Report::tripped`]); `None` for PASS.
    pub tripped: Option<Metric>,
    /// Who wrote the text.
    pub author: Author,
    /// Whether it counts towards the verdict, and why in words ("input — not judged").
    pub judged: bool,
    pub why: &'static str,
}

impl MessageRow {
    /// The channel in words, with the tool's name: "reasoning", "combined", "tool (get_weather)".
    pub fn channel_text(&self) -> String {
        match &self.name {
            Some(name) => format!("{} ({name})", self.channel),
            None => self.channel.to_string(),
        }
    }
}

impl TranscriptReport {
    /// One table row per report, worst first. `t` must be the transcript these reports were
    /// made from.
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
                    channel: match (r.stream, r.combined) {
                        (Some(kind), _) => kind.label(),
                        (None, true) => "combined",
                        (None, false) => first.channel.as_str(),
                    },
                    name: if r.stream.is_some() { None } else { first.name.clone() },
                    bytes: r.report.bytes(),
                    verdict: r.report.verdict(),
                    tripped: r.report.tripped(),
                    author: r.author,
                    judged: r.judged,
                    why: r.why(),
                })
            })
            .collect()
    }
}
