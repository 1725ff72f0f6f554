//! The three analyzers of a live run (the reasoning, the content, and both combined in arrival
//! order), fed only the new text, and which of the two channels' reports is worst.

use crate::analyze::{Analyzer, Report, Verdict};
use crate::ingest::Channel;
use crate::judge::REPLY_SEPARATOR;

/// The three analyzers of a run: the reasoning, the content, and both combined in arrival
/// order; and how much of each text they have had.
#[derive(Clone, Debug, Default)]
pub(super) struct Analyzers {
    pub(super) reasoning: Analyzer,
    pub(super) content: Analyzer,
    pub(super) combined: Analyzer,
    pub(super) pushed_reasoning: usize,
    pub(super) pushed_content: usize,
    /// Which text the combined analyzer got last (true: the content), for a break between them.
    pub(super) combined_in_content: bool,
    /// The prompt the content answers (see `prompt.rs`), kept when the analyzers start again.
    pub(super) prompt: Option<String>,
}

impl Analyzers {
    /// The content is judged against `prompt` for topic drift.
    pub(super) fn set_prompt(&mut self, prompt: Option<String>) {
        self.content.set_prompt(prompt.clone());
        self.prompt = prompt;
    }

    /// Pushes what `reasoning` and `content` have gained since the last call; false when they
    /// have gained nothing.
    pub(super) fn sync_to(&mut self, reasoning: &str, content: &str) -> bool {
        let (new_r, new_c) = match (reasoning.get(self.pushed_reasoning..), content.get(self.pushed_content..)) {
            (Some(r), Some(c)) => (r, c),
            // A text shrank (a lone `</think>` moved the answer so far into the reasoning):
            // start the analyzers again from the texts as they now are.
            _ => {
                let prompt = self.prompt.take();
                *self = Analyzers::default();
                self.set_prompt(prompt);
                (reasoning, content)
            }
        };
        if new_r.is_empty() && new_c.is_empty() {
            return false;
        }
        if !new_r.is_empty() {
            self.reasoning.push(new_r);
            if self.combined_in_content {
                self.combined.push(REPLY_SEPARATOR);
                self.combined_in_content = false;
            }
            self.combined.push(new_r);
        }
        if !new_c.is_empty() {
            self.content.push(new_c);
            if !self.combined_in_content && !self.combined.text().is_empty() {
                self.combined.push(REPLY_SEPARATOR);
            }
            self.combined_in_content = true;
            self.combined.push(new_c);
        }
        self.pushed_reasoning = reasoning.len();
        self.pushed_content = content.len();
        true
    }
}

/// The worst verdict of the reasoning and the content, and which of them has it: `Some`
/// channel, or `None` when both do; too-short texts do not count.
pub fn worst_channel(reasoning: &Report, content: &Report) -> Option<(Verdict, Option<Channel>)> {
    match (!reasoning.too_short, !content.too_short) {
        (false, false) => None,
        (true, false) => Some((reasoning.verdict, Some(Channel::Reasoning))),
        (false, true) => Some((content.verdict, Some(Channel::Content))),
        (true, true) => Some(match reasoning.verdict.cmp(&content.verdict) {
            std::cmp::Ordering::Greater => (reasoning.verdict, Some(Channel::Reasoning)),
            std::cmp::Ordering::Less => (content.verdict, Some(Channel::Content)),
            std::cmp::Ordering::Equal => (content.verdict, None),
        }),
    }
}
