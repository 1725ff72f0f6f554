//! Whether a live run finished, and what to lead with when it did not. A run the server broke
//! off — an error sent mid-stream, a connection cut, a stream closed with neither its end
//! marker nor a finish reason — is not a PASS, whatever its text shows so far: the page says
//! first that it failed or was cut (and why), then what the text shows. A loop in what came is
//! still a FAIL. A run the user stopped (or the page stopped at its first FAIL) is not broken.

use super::session::{ending_text, Ending, LiveStats};
use crate::analyze::Verdict;
use crate::wording::{plural, thousands};

/// A run that did not finish: why, in words, and a short key for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenOff {
    /// `error` (the server reported one), `cut` (the connection failed, or the page stopped
    /// reading) or `no-end` (closed with no end marker and no finish reason).
    pub key: &'static str,
    /// The badge's word in place of PASS or WARN: `ERROR` or `CUT`.
    pub badge: &'static str,
    /// What happened, said first: "The run failed: the server sent an error after 150 chunks
    /// (≈ 482 tokens): “…”."
    pub headline: String,
}

impl BrokenOff {
    /// Whether the breakage is the run's verdict instead of the text's `verdict`: always but
    /// for a FAIL (a loop in what came is a FAIL however the run ended).
    pub fn replaces(&self, verdict: Option<Verdict>) -> bool {
        verdict != Some(Verdict::Fail)
    }
}

/// How a run that has ended as `ending` with `stats` broke off, or `None` when it finished
/// (or is still running, or the user stopped it).
pub fn broken_off(ending: &Ending, stats: &LiveStats) -> Option<BrokenOff> {
    let after = format!(
        "after {} ({} tokens{})",
        plural(stats.stream.chunks, "chunk", "chunks"),
        thousands(stats.tokens as usize),
        if stats.tokens_estimated { ", estimated" } else { "" }
    );
    if let Some(first) = stats.stream.errors.first() {
        if !matches!(ending, Ending::Running | Ending::Stopped) {
            let more = stats.stream.errors.len() + stats.stream.errors_not_listed - 1;
            let more = if more > 0 { format!(" and {} more", thousands(more)) } else { String::new() };
            return Some(BrokenOff {
                key: "error",
                badge: "ERROR",
                headline: format!("The run failed: the server sent an error {after}: “{}”{more}.", clip(first, 300)),
            });
        }
    }
    match ending {
        Ending::Cut(why) => Some(BrokenOff {
            key: "cut",
            badge: "CUT",
            headline: format!("The run was cut {after}: {}.", why.trim_end_matches('.')),
        }),
        Ending::Closed if !stats.stream.saw_done && stats.stream.finish_reason.is_none() => Some(BrokenOff {
            key: "no-end",
            badge: "CUT",
            headline: format!(
                "The run was cut: the server closed the stream {after} with no [DONE] and no finish reason."
            ),
        }),
        _ => None,
    }
}

/// How the run ended, in words, for the line under the headline: as
/// [`ending_text`] says, except that a stream that reported an error and
/// then its end marker is not "Complete".
pub fn ending_line(ending: &Ending, stats: &LiveStats) -> String {
    match ending {
        Ending::Closed if stats.stream.saw_done && !stats.stream.errors.is_empty() => format!(
            "Ended with an error, then [DONE], after {}. What came is kept and scored.",
            plural(stats.stream.chunks, "chunk", "chunks")
        ),
        _ => ending_text(ending, stats),
    }
}

/// What the page says of a run it stopped at its first FAIL ("stop when it FAILs"): the
/// tokens it had and, when `max_tokens` is known, how many it saved —
/// "Stopped at the first FAIL after 1,204 tokens (estimated): up to 6,796 of max_tokens 8,000
/// not generated."
pub fn stopped_at_fail(stats: &LiveStats, max_tokens: Option<u64>) -> String {
    let had = format!(
        "Stopped at the first FAIL after {}{}",
        plural(stats.tokens as usize, "token", "tokens"),
        if stats.tokens_estimated { " (estimated)" } else { "" }
    );
    match max_tokens {
        Some(max) if max > stats.tokens => format!(
            "{had}: up to {} of max_tokens {} not generated. What came is kept and scored.",
            thousands((max - stats.tokens) as usize),
            thousands(max as usize)
        ),
        _ => format!("{had}. What came is kept and scored."),
    }
}

/// `text` cut to about `max` bytes on a char boundary, with "…" when cut.
fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::LiveSession;

    fn session(body: &str, ending: Ending) -> (Ending, LiveStats) {
        let mut s = LiveSession::new(0.0);
        s.feed(body.as_bytes(), 10.0);
        s.end(ending.clone(), 20.0);
        (ending, s.stats())
    }

    fn chunk(text: &str) -> String {
        let data = serde_json::json!({"choices":[{"index":0,"delta":{"content": text}}]});
        format!("data: {data}\n\n")
    }

    #[test]
    fn a_server_error_mid_stream_is_a_failed_run_not_a_pass() {
        let body = format!(
            "{}{}data: {{\"error\": {{\"message\": \"the model crashed\"}}}}\n\ndata: [DONE]\n\n",
            chunk("The harbour was quiet that morning. "),
            chunk("Boats rocked at their moorings.")
        );
        let (ending, stats) = session(&body, Ending::Closed);
        let broken = broken_off(&ending, &stats).expect("broken off");
        assert_eq!((broken.key, broken.badge), ("error", "ERROR"));
        assert!(
            broken.headline.starts_with("The run failed: the server sent an error after 3 chunks ("),
            "{}",
            broken.headline
        );
        assert!(broken.headline.contains("the model crashed"), "{}", broken.headline);
        assert!(broken.replaces(Some(Verdict::Pass)) && broken.replaces(None) && broken.replaces(Some(Verdict::Warn)));
        assert!(!broken.replaces(Some(Verdict::Fail)), "a loop in what came stays a FAIL");
        let line = ending_line(&ending, &stats);
        assert!(line.starts_with("Ended with an error, then [DONE]") && !line.contains("Complete"), "{line}");
    }

    #[test]
    fn a_cut_connection_and_a_close_without_an_end_are_cut_runs() {
        let (ending, stats) = session(&chunk("Some text."), Ending::Cut("TypeError: network error".into()));
        let broken = broken_off(&ending, &stats).expect("cut");
        assert_eq!((broken.key, broken.badge), ("cut", "CUT"));
        assert!(broken.headline.ends_with("TypeError: network error."), "{}", broken.headline);

        let (ending, stats) = session(&chunk("Some text."), Ending::Closed);
        assert_eq!(broken_off(&ending, &stats).map(|b| b.key), Some("no-end"));
    }

    #[test]
    fn finished_stopped_and_running_runs_are_not_broken() {
        let finished = format!(
            "{}data: {{\"choices\":[{{\"index\":0,\"delta\":{{}},\"finish_reason\":\"stop\"}}]}}\n\ndata: [DONE]\n\n",
            chunk("Done.")
        );
        let (ending, stats) = session(&finished, Ending::Closed);
        assert_eq!(broken_off(&ending, &stats), None);
        assert_eq!(ending_line(&ending, &stats), ending_text(&ending, &stats));
        // A finish reason without [DONE] (some servers send none): finished.
        let no_done = finished.replace("data: [DONE]\n\n", "");
        let (ending, stats) = session(&no_done, Ending::Closed);
        assert_eq!(broken_off(&ending, &stats), None);
        for ending in [Ending::Stopped, Ending::Running] {
            let (ending, stats) = session(&chunk("Some text."), ending);
            assert_eq!(broken_off(&ending, &stats), None, "{ending:?}");
        }
    }

    #[test]
    fn a_run_stopped_at_its_first_fail_says_what_it_saved() {
        let stats = LiveStats { tokens: 1204, tokens_estimated: true, ..Default::default() };
        assert_eq!(
            stopped_at_fail(&stats, Some(8000)),
            "Stopped at the first FAIL after 1,204 tokens (estimated): up to 6,796 of max_tokens 8,000 not generated. What came is kept and scored."
        );
        assert_eq!(
            stopped_at_fail(&stats, None),
            "Stopped at the first FAIL after 1,204 tokens (estimated). What came is kept and scored."
        );
    }
}
