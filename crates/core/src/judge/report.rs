//! The reports of a transcript: one per judged text, in message order (the conversations'
//! streams last), each saying who wrote it and whether it is judged; the conversations'
//! judgements; and the worst judged verdict of them all, which is the transcript's.

use std::borrow::Cow;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::authorship::Author;
use super::conversation_report::ConversationReport;
use super::kept_report::KeptReport;
use super::model_stream::{StreamKind, StreamLayout};
use super::prompt::prompt_of;
use super::reply_text::join_reply;
use crate::analyze::{analyze_with_prompt, Report, Thresholds, Verdict};
use crate::ingest::Transcript;

/// The analysis of one text of a transcript.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MessageReport {
    /// Indices into [`Transcript::messages`] of the analysed text: one message, or for a
    /// combined report the reasoning and content messages of one reply, in order, or for a
    /// stream the conversation's messages it holds, in order.
    pub messages: Vec<usize>,
    /// Reasoning and content of one reply analysed together (joined as
    /// [`join_reply`](super::join_reply) joins them).
    pub combined: bool,
    /// Its analysis: the whole report, or a summary for a short text that passed (see
    /// [`KeptReport`]; [`Self::full_report`] gives the whole one either way). Shared between
    /// messages with the same text (a request log repeats its history).
    pub report: KeptReport,
    /// A conversation's stream of turns ([`StreamLayout`]), when the report is one's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<StreamKind>,
    /// Who wrote the text.
    #[serde(default)]
    pub author: Author,
    /// Whether the text counts towards the verdict (the model's output, or an input judged on
    /// request).
    #[serde(default = "yes")]
    pub judged: bool,
}

fn yes() -> bool {
    true
}

impl MessageReport {
    /// The text this report analysed: one message's, for a combined report the reply's texts
    /// joined, for a stream its turns laid out. `t` must be the transcript the report was made
    /// from.
    pub fn text<'t>(&self, t: &'t Transcript) -> Cow<'t, str> {
        let text = |&k: &usize| t.messages.get(k).map_or("", |m| m.text.as_str());
        if self.stream.is_some() {
            Cow::Owned(self.layout(t).text)
        } else if self.combined {
            Cow::Owned(join_reply(self.messages.iter().map(text)))
        } else {
            Cow::Borrowed(self.messages.first().map(text).unwrap_or_default())
        }
    }

    /// The stream's text and where each message is in it (for a report that is not a stream's:
    /// its messages laid out the same way).
    pub fn layout(&self, t: &Transcript) -> StreamLayout {
        let known: Vec<usize> = self.messages.iter().copied().filter(|&k| k < t.messages.len()).collect();
        StreamLayout::new(t, &known)
    }

    /// Why the text is judged or not, in words ("input — not judged").
    pub fn why(&self) -> &'static str {
        self.author.why(self.judged)
    }

    /// The verdict it adds to the transcript's: its own when judged.
    pub fn judged_verdict(&self) -> Option<Verdict> {
        self.judged.then_some(self.report.verdict())
    }

    /// The whole report: the one kept, or for a short text that passed the same report
    /// computed again from its text. `t` must be the transcript the report was made from.
    pub fn full_report(&self, t: &Transcript) -> Rc<Report> {
        match self.report.whole() {
            Some(r) => Rc::clone(r),
            None => {
                // A reply's drift is measured against its prompt (see `prompt`).
                let prompt = self.messages.first().filter(|_| self.stream.is_none()).and_then(|&k| prompt_of(t, k));
                Rc::new(analyze_with_prompt(&self.text(t), prompt, &Thresholds::default()))
            }
        }
    }
}

/// Every report of a transcript, in message order (a combined report follows its reply; the
/// streams come last), and each conversation's judgement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TranscriptReport {
    pub reports: Vec<MessageReport>,
    /// The worst judged verdict: of the judged reports and of every conversation's checks
    /// across turns; `None` when there was nothing to analyse.
    pub verdict: Option<Verdict>,
    /// One per conversation, in order of their numbers.
    #[serde(default)]
    pub conversations: Vec<ConversationReport>,
}

impl TranscriptReport {
    /// Indices into `reports`: judged texts first, worst verdict first; at equal verdicts texts
    /// long enough to judge come before too-short ones, single messages before combined ones
    /// and streams (they point at the culprit), then input order. Inputs not judged follow, in
    /// the same order.
    pub fn worst_first_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.reports.len()).collect();
        order.sort_by_key(|&i| self.worst_first_key(i));
        order
    }

    /// Where report `i` stands in [`Self::worst_first_order`]: the smallest key first, ties in
    /// report order.
    pub(super) fn worst_first_key(&self, i: usize) -> impl Ord {
        let r = &self.reports[i];
        (!r.judged, std::cmp::Reverse(r.report.verdict()), r.report.too_short(), r.combined, r.stream.is_some())
    }

    /// The reports in [`Self::worst_first_order`].
    pub fn worst_first(&self) -> Vec<&MessageReport> {
        self.worst_first_order().into_iter().map(|i| &self.reports[i]).collect()
    }

    /// The worst judged text (the worst input when nothing is judged): the first of
    /// [`Self::worst_first`], found without sorting them all (a log has hundreds of thousands).
    pub fn worst(&self) -> Option<&MessageReport> {
        (0..self.reports.len()).min_by_key(|&i| self.worst_first_key(i)).map(|i| &self.reports[i])
    }

    /// The judgement of conversation `id`.
    pub fn conversation(&self, id: usize) -> Option<&ConversationReport> {
        self.conversations.iter().find(|c| c.conversation == id)
    }

    /// Nothing could be judged: there are texts, every one too short to judge, and no
    /// conversation's checks across turns (its tool calls, its streams) found anything. A tool
    /// loop of short calls is a finding: its verdict stands.
    pub fn all_too_short(&self) -> bool {
        !self.reports.is_empty()
            && self.reports.iter().all(|r| r.report.too_short())
            && self.conversations.iter().all(|c| c.verdict == Verdict::Pass)
    }
}
