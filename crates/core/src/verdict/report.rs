//! The reports of a transcript: one per judged text, in message order, and the worst verdict
//! of them all, which is the transcript's.

use std::borrow::Cow;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::reply::join_reply;
use crate::analyze::{Report, Verdict};
use crate::ingest::Transcript;

/// The analysis of one text of a transcript.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MessageReport {
    /// Indices into [`Transcript::messages`] of the analysed text: one message, or for a
    /// combined report the reasoning and content messages of one reply, in order.
    pub messages: Vec<usize>,
    /// Reasoning and content of one reply analysed together (joined as
    /// [`join_reply`](super::join_reply) joins them).
    pub combined: bool,
    /// Shared between messages with the same text (a request log repeats its history).
    pub report: Rc<Report>,
}

impl MessageReport {
    /// The text this report analysed: one message's, or for a combined report the reply's
    /// texts joined. `t` must be the transcript the report was made from.
    pub fn text<'t>(&self, t: &'t Transcript) -> Cow<'t, str> {
        let text = |&k: &usize| t.messages.get(k).map_or("", |m| m.text.as_str());
        if self.combined {
            Cow::Owned(join_reply(self.messages.iter().map(text)))
        } else {
            Cow::Borrowed(self.messages.first().map(text).unwrap_or_default())
        }
    }
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
}
