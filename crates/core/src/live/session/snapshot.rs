//! A live run at one moment as plain data ([`LiveSnapshot`]): the texts, their three full
//! reports, the figures, how it ends and where its reasoning came from. The page's live mode
//! runs the session in its analysis worker and shows, and judges its answers from, the
//! snapshots that come back (the page's own wasm holds no scorer); a needle answer
//! ([`Answer::of`](crate::live::needle::grid::Answer::of)) and a soak generation
//! ([`Generation::of`](crate::live::soak::Generation::of)) are read from one.

use serde::{Deserialize, Serialize};

use super::{Ending, LiveSession, LiveStats};
use crate::analyze::Report;
use crate::stream::ReasoningPlacement;

/// See the module doc. Everything but the capture (the body as received), which travels on
/// its own once the run has ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveSnapshot {
    pub reasoning: String,
    pub content: String,
    /// Full reports of the reasoning, the content and both combined ([`LiveSession::reports`]).
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

impl LiveSession {
    /// The run as it is now (three full reports: not free, the caller paces it).
    pub fn snapshot(&self) -> LiveSnapshot {
        let (reasoning_report, content_report, combined_report) = self.reports();
        LiveSnapshot {
            reasoning: self.reasoning_text().to_string(),
            content: self.content_text().to_string(),
            reasoning_report,
            content_report,
            combined_report,
            stats: self.stats(),
            ending: self.ending().clone(),
            placement: self.reasoning_placement(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_holds_what_the_session_says() {
        let mut s = LiveSession::new(0.0);
        let lp = "Let me check the config file again.\n".repeat(20);
        let data = serde_json::json!({"choices":[{"index":0,"delta":{"reasoning_content": "Hmm.", "content": lp}}]});
        s.feed(format!("data: {data}\n\n").as_bytes(), 100.0);
        assert!(s.snapshot().is_running());
        s.end(Ending::Stopped, 200.0);
        let snap = s.snapshot();
        let (r, c, combined) = s.reports();
        assert_eq!((snap.reasoning.as_str(), snap.content.as_str()), (s.reasoning_text(), s.content_text()));
        assert_eq!((snap.reasoning_report, snap.content_report, snap.combined_report), (r, c, combined));
        assert_eq!(snap.stats, s.stats());
        assert_eq!(snap.ending, Ending::Stopped);
        assert_eq!(snap.placement, s.reasoning_placement());
        assert_eq!(snap.placement.fields.first().map(|f| f.0), Some("reasoning_content"));
    }
}
