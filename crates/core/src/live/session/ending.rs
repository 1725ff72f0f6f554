//! How a live run ends: [`Ending`] (running, closed, stopped, cut), the words for it, its key,
//! and the words of a run cut at its capture limit.

use serde::{Deserialize, Serialize};

use super::stats::LiveStats;

/// How a run that reached its capture limit (`limit` bytes) ends: [`Ending::Cut`] with these words.
pub fn capture_full(limit: usize) -> String {
    let size = match limit % (1 << 20) {
        0 => format!("{} MiB", limit >> 20),
        _ => crate::wording::bytes_text(limit),
    };
    format!(
        "the stream passed {size} and the page stopped reading it: the capture and the scores hold its first {size}"
    )
}

/// How a run ended (or that it has not).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    Running,
    /// The body ended normally (with or without `[DONE]`: see [`StreamInfo::saw_done`](crate::stream::StreamInfo::saw_done)).
    Closed,
    /// The user pressed Stop.
    Stopped,
    /// The connection failed mid-body; the browser's words.
    Cut(String),
}

/// How the run ended, in words.
pub fn ending_text(ending: &Ending, stats: &LiveStats) -> String {
    let chunks = match stats.stream.chunks {
        1 => "1 chunk".to_string(),
        n => format!("{n} chunks"),
    };
    match ending {
        Ending::Running => format!("Streaming… {chunks} so far."),
        Ending::Closed if stats.stream.saw_done => format!("Complete: {chunks}, then [DONE]."),
        Ending::Closed => {
            format!("Ended without [DONE] after {chunks}: the server closed the stream early. What came is kept and scored.")
        }
        Ending::Stopped => format!("Stopped by you after {chunks}. What came is kept and scored."),
        Ending::Cut(e) => {
            format!("Cut: the connection failed after {chunks} ({e}), without [DONE]. What came is kept and scored.")
        }
    }
}

/// A short key for how the run ended: `running`, `done`, `no-done`, `stopped` or `cut`.
pub fn ending_key(ending: &Ending, saw_done: bool) -> &'static str {
    match ending {
        Ending::Running => "running",
        Ending::Closed if saw_done => "done",
        Ending::Closed => "no-done",
        Ending::Stopped => "stopped",
        Ending::Cut(_) => "cut",
    }
}
