//! What a conversation judged across its turns comes to ([`ConversationReport`]: its
//! verdict, onset turn, the turns in loops ([`LoopTurn`]), the reasons): the type the
//! transcript's reports hold and the conversation's judgement (`conversation.rs`) makes.

use serde::{Deserialize, Serialize};

use super::tool_loop::ToolCheck;
use crate::analyze::Verdict;

/// One conversation's judgement across its turns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationReport {
    /// Its number (`Message::conversation`).
    pub conversation: usize,
    /// Its turns, and those with the model's output.
    pub turns: usize,
    pub model_turns: usize,
    /// The model's turns (`Message::index`) left out of its streams: they poll.
    pub polls: Vec<usize>,
    /// The model's turns (`Message::index`) left out of its streams because they move on: each
    /// says again only a formula while the work moved on (see `reasons` for what changed).
    /// Written even when empty: the page's worker sends this type in postcard, which cannot tell
    /// a field left out.
    #[serde(default)]
    pub moved_on: Vec<usize>,
    /// Indices into `TranscriptReport::reports` of its analysed streams.
    pub streams: Vec<usize>,
    /// The tool-call check.
    pub tool_calls: ToolCheck,
    /// The worst of its judged texts (messages, replies, streams) and its tool-call check.
    pub verdict: Verdict,
    /// The turn (`Message::index`) where it turns degenerate: the earliest start of what is at
    /// the verdict's level; `None` for PASS.
    pub onset_turn: Option<usize>,
    /// The turns that are part of a loop across turns (a stream's flagged spans, a tool loop's
    /// calls and results), with the loop's level, in order.
    pub loop_turns: Vec<LoopTurn>,
    /// Why, in words, worst first.
    pub reasons: Vec<String>,
}

impl ConversationReport {
    /// Whether the reports show it: its judgement across turns found a loop, or it repeats
    /// while the work moves on (turns that poll or say again only a formula), and its reasons
    /// say why that was not a loop ("the same call on 4 different files").
    pub fn worth_showing(&self) -> bool {
        self.verdict > Verdict::Pass || !self.moved_on.is_empty() || !self.polls.is_empty()
    }
}

/// A turn that is part of a loop across turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopTurn {
    /// `Message::index`.
    pub turn: usize,
    /// The level of the worst loop it is part of (WARN or FAIL).
    pub level: Verdict,
}
