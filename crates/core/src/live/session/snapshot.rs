//! A live run at one moment as plain data ([`LiveSnapshot`]): the texts, their three full
//! reports, the figures, how it ends and where its reasoning came from. The page's live mode
//! runs the session in its analysis worker and shows, and judges its answers from, the
//! snapshots that come back (the page's own wasm holds no scorer); a needle answer
//! ([`Answer::of`](crate::live::needle::grid::Answer::of)) and a soak generation
//! ([`Generation::of`](crate::live::soak::Generation::of)) are read from one.

use serde::{Deserialize, Serialize};

use super::ending::Ending;
use super::stats::LiveStats;
use crate::analyze::Report;
use crate::stream::ReasoningPlacement;

/// See the module doc. Everything but the capture (the body as received), which travels on
/// its own once the run has ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveSnapshot {
    pub reasoning: String,
    pub content: String,
    /// Full reports of the reasoning, the content and both combined (`LiveSession::reports`).
    pub reasoning_report: Report,
    pub content_report: Report,
    pub combined_report: Report,
    pub stats: LiveStats,
    pub ending: Ending,
    pub placement: ReasoningPlacement,
}

impl LiveSnapshot {
    pub fn is_running(&self) -> bool {
        self.ending == Ending::Running
    }
}
