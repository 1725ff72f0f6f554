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
        self.worst_first_order().into_iter().filter_map(|i| self.row(i, t)).collect()
    }

    /// The first of [`Self::rows`] and how many there are, without making them all (a log
    /// has hundreds of thousands of rows; its text summary names one).
    pub fn worst_row(&self, t: &Transcript) -> (Option<MessageRow>, usize) {
        let count = (0..self.reports.len()).filter(|&i| self.has_row(i, t)).count();
        let worst = (0..self.reports.len()).filter(|&i| self.has_row(i, t)).min_by_key(|&i| self.worst_first_key(i));
        (worst.and_then(|i| self.row(i, t)), count)
    }

    /// The rows of [`Self::rows`] for which `keep(verdict)` says yes, asked in their order;
    /// only those rows are made.
    pub fn rows_where(&self, t: &Transcript, mut keep: impl FnMut(Verdict) -> bool) -> Vec<MessageRow> {
        self.worst_first_order()
            .into_iter()
            .filter(|&i| self.has_row(i, t) && keep(self.reports[i].report.verdict()))
            .filter_map(|i| self.row(i, t))
            .collect()
    }

    /// Whether report `i` has a row: a message in `t`.
    fn has_row(&self, i: usize, t: &Transcript) -> bool {
        self.reports[i].messages.first().is_some_and(|&m| m < t.messages.len())
    }

    /// The row of report `i`, when it has a message in `t`.
    fn row(&self, i: usize, t: &Transcript) -> Option<MessageRow> {
        let r = &self.reports[i];
        let first = t.messages.get(*r.messages.first()?)?;
        Some(MessageRow {
            report: i,
            conversation: first.conversation,
            index: first.turn,
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
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::{judge_transcript, TranscriptReport};

    /// The first row and the count, as the whole table gives them.
    fn agrees_with_rows(input: &str) {
        let t = crate::ingest::read(input.as_bytes());
        let r: TranscriptReport = judge_transcript(&t);
        let rows = r.rows(&t);
        assert_eq!(r.worst_row(&t), (rows.first().cloned(), rows.len()), "{input}");
        assert_eq!(r.worst().map(|w| w as *const _), r.worst_first().first().map(|w| *w as *const _));
    }

    #[test]
    fn the_worst_row_is_the_first_row() {
        agrees_with_rows("");
        agrees_with_rows("just one text");
        let mut log = String::new();
        for i in 0..40 {
            let reply = if i % 7 == 3 { "no ".repeat(40) } else { format!("reply {i} is fine.") };
            log.push_str(&format!(
                "{{\"request\":{{\"messages\":[{{\"role\":\"user\",\"content\":\"q {i}\"}}]}},\"response\":{{\"choices\":[{{\"message\":{{\"role\":\"assistant\",\"content\":\"{reply}\"}}}}]}}}}\n"
            ));
        }
        agrees_with_rows(&log);
        // Ties keep report order: every reply passes.
        agrees_with_rows(&log.replace("no no", "ok no"));
    }
}
