//! The live run's view model: a [`LiveSnapshot`] of the run's session, as the analysis worker
//! sent it (texts with their reports and highlight segments, the worst channel, timings), and
//! the wording of its figures. Pure, so it is unit-tested natively; every number comes from
//! the session's reports and stats.

use std::rc::Rc;

use crate::model::{duration_text, Analysis, Source};
use coherency_core::analyze::{Breakdown, Metric, Verdict, PASS_HEADLINE};
use coherency_core::ingest::Channel;
use coherency_core::live::{
    broken_off, ending_key, ending_line, stopped_at_fail, worst_channel, BrokenOff, LiveSnapshot, LiveStats,
    BYTES_PER_TOKEN,
};
use coherency_core::wording::{plural, thousands};

/// What the page shows of a live run at one moment.
#[derive(Debug)]
pub struct LiveView {
    /// Increases with every snapshot; two views are equal when their `seq` is.
    pub seq: u64,
    pub reasoning: Rc<Analysis>,
    pub content: Rc<Analysis>,
    /// The worst verdict and where: one channel, or `None` when the reasoning and the content
    /// share it (see [`worst_word`]); `None` altogether while too short.
    pub worst: Option<(Verdict, Option<Channel>)>,
    /// Each text's own verdict (`None` while too short to judge), named as the page shows it:
    /// the reasoning and the content when they have text, and both combined when both have.
    pub channels: Vec<(&'static str, Option<Verdict>)>,
    pub stats: LiveStats,
    pub running: bool,
    pub ending_key: &'static str,
    pub ending_text: String,
    /// How the run broke off, when the server did not let it finish (said before the verdict).
    pub broken: Option<BrokenOff>,
    /// The response body as received, once the run has ended (for replay and download).
    pub capture: Option<Rc<[u8]>>,
}

impl PartialEq for LiveView {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

impl LiveView {
    /// The view of `snapshot`, with the body as received once the run has ended (`capture`).
    pub fn snapshot(seq: u64, snapshot: LiveSnapshot, capture: Option<Rc<[u8]>>) -> Self {
        let running = snapshot.is_running();
        let LiveSnapshot {
            reasoning,
            content,
            reasoning_report: r,
            content_report: c,
            combined_report: combined,
            stats,
            ending,
            ..
        } = snapshot;
        let worst = worst_channel(&r, &c);
        let judged = |rep: &coherency_core::analyze::Report| (!rep.too_short).then_some(rep.verdict);
        let mut channels = Vec::new();
        if r.bytes > 0 {
            channels.push((channel_word(Channel::Reasoning), judged(&r)));
        }
        if c.bytes > 0 || r.bytes == 0 {
            channels.push((channel_word(Channel::Content), judged(&c)));
        }
        if r.bytes > 0 && c.bytes > 0 {
            channels.push((COMBINED, judged(&combined)));
        }
        let reasoning = Analysis::with_report(seq, Source::Live, reasoning, r);
        let content = Analysis::with_report(seq, Source::Live, content, c);
        LiveView {
            seq,
            reasoning: Rc::new(reasoning),
            content: Rc::new(content),
            worst,
            channels,
            ending_key: ending_key(&ending, stats.stream.saw_done),
            ending_text: ending_line(&ending, &stats),
            broken: broken_off(&ending, &stats),
            running,
            capture: capture.filter(|_| !running),
            stats,
        }
    }

    /// The view of a run the page stopped at its first FAIL: says so, and what it saved of
    /// `max_tokens`.
    pub fn stopped_at_fail(mut self, max_tokens: Option<u64>) -> Self {
        self.ending_key = "stopped-at-fail";
        self.ending_text = stopped_at_fail(&self.stats, max_tokens);
        self
    }

    /// The verdict the run shows: the text's worst, unless the run broke off and its text does
    /// not FAIL (then `None`: the breakage is said instead).
    pub fn shown_verdict(&self) -> Option<Verdict> {
        let verdict = self.worst.map(|(v, _)| v);
        match &self.broken {
            Some(b) if b.replaces(verdict) => None,
            _ => verdict,
        }
    }

    /// The line beside Start and Stop: the verdict so far (or the breakage), and how the run
    /// goes or ended.
    pub fn status(&self) -> String {
        let verdict = match (&self.broken, self.worst) {
            (Some(b), w) if b.replaces(w.map(|(v, _)| v)) => b.badge,
            (_, Some((v, _))) => v.as_str(),
            (_, None) => "not judged yet",
        };
        format!("{verdict}: {} The result is below.", self.ending_text)
    }

    /// The check that set the worst verdict: the worst channel's (the content's when both share
    /// it, as [`Self::reasons`]).
    pub fn tripped(&self) -> Option<Metric> {
        match self.worst {
            Some((_, Some(Channel::Reasoning))) => self.reasoning.report.tripped,
            _ => self.content.report.tripped,
        }
    }

    /// The reasons of the channel with the worst verdict.
    pub fn reasons(&self) -> &[String] {
        match self.worst {
            Some((_, Some(Channel::Reasoning))) => &self.reasoning.report.reasons,
            _ => &self.content.report.reasons,
        }
    }
}

/// The page's word for a channel of a live run: `reasoning`, or `answer` for the content.
pub fn channel_word(channel: Channel) -> &'static str {
    match channel {
        Channel::Reasoning => "reasoning",
        Channel::Content => "answer",
        Channel::Tool => "tool",
    }
}

/// The page's word for the reasoning and the content analysed together.
pub const COMBINED: &str = "combined";

/// The page's word for where the worst verdict is: its channel's, or `both` when the
/// reasoning and the content share it.
pub fn worst_word(channel: Option<Channel>) -> &'static str {
    channel.map_or("both", channel_word)
}

/// "Repetition collapse in the reasoning", "Topic drift in the answer so far", "No repetition or
/// incoherence found so far", … for the verdict card: worded by the check that set the verdict
/// (`tripped`, see [`Breakdown`]).
pub fn live_headline(worst: Option<(Verdict, Option<Channel>)>, tripped: Option<Metric>, running: bool) -> String {
    let Some((verdict, channel)) = worst else {
        return if running { "Waiting for enough text to judge…" } else { "Too little text to judge" }.to_string();
    };
    let where_ = channel.map(|c| format!(" in the {}", channel_word(c))).unwrap_or_default();
    let so_far = if running { " so far" } else { "" };
    match verdict {
        Verdict::Pass => format!("{PASS_HEADLINE}{so_far}"),
        _ => format!("{}{where_}{so_far}", Breakdown::of(tripped).name(verdict)),
    }
}

/// "What came: no repetition or incoherence found.": the text's verdict, said after a run that broke off.
pub fn so_far_line(worst: Option<(Verdict, Option<Channel>)>, tripped: Option<Metric>) -> String {
    // ASCII only: `to_lowercase` would link the Unicode case tables into the wasm (~9 KB).
    let mut headline = live_headline(worst, tripped, false);
    headline[..1].make_ascii_lowercase();
    format!("What came: {headline}.")
}

/// "812 tokens/s · 2,048 tokens (estimated)": speed always beside the verdict (a looping model
/// often gets faster).
pub fn speed_line(stats: &LiveStats) -> String {
    let speed = match stats.tokens_per_s {
        Some(tps) => format!("{tps:.0} tokens/s"),
        None => "speed not yet measurable".to_string(),
    };
    format!("{speed} · {}", tokens_text(stats))
}

/// "2,048 tokens (usage)" or "≈ 2,048 tokens (estimated at 4 bytes a token)".
pub fn tokens_text(stats: &LiveStats) -> String {
    if stats.tokens_estimated {
        format!(
            "≈ {} tokens (estimate: {BYTES_PER_TOKEN} bytes a token, no usage sent yet)",
            thousands(stats.tokens as usize)
        )
    } else {
        format!("{} tokens (server's usage)", thousands(stats.tokens as usize))
    }
}

/// Rows for the stream facts table: (label, value).
pub fn stat_rows(stats: &LiveStats, running: bool) -> Vec<(&'static str, String)> {
    let ms = |v: Option<f64>| v.map_or_else(|| "—".to_string(), duration_text);
    let mut rows = vec![
        ("Time to first byte", ms(stats.to_first_byte_ms)),
        ("Time to first token", ms(stats.to_first_token_ms)),
        ("Tokens", tokens_text(stats)),
        ("Speed", stats.tokens_per_s.map_or_else(|| "—".to_string(), |t| format!("{t:.1} tokens/s"))),
        ("Generation time", ms(stats.generation_ms)),
        ("Chunks", format!("{} ({})", thousands(stats.stream.chunks), plural(stats.bytes, "byte", "bytes"))),
    ];
    if !running {
        let stream = &stats.stream;
        rows.push(("Finish reason", stream.finish_reason.clone().unwrap_or_else(|| "none sent".to_string())));
        let usage = stream.usage.as_ref().map_or_else(
            || "none sent".to_string(),
            |u| {
                let n = |v: Option<u64>| v.map_or_else(|| "?".to_string(), |v| thousands(v as usize));
                format!(
                    "prompt {} · completion {} · total {}",
                    n(u.prompt_tokens),
                    n(u.completion_tokens),
                    n(u.total_tokens)
                )
            },
        );
        rows.push(("Usage", usage));
        rows.push(("[DONE]", if stream.saw_done { "received" } else { "not received" }.to_string()));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::live::{Ending, LiveSession};

    /// The view of `s` as the analysis worker would send it.
    fn view_of(seq: u64, s: &LiveSession) -> LiveView {
        LiveView::snapshot(seq, s.snapshot(), Some(Rc::from(s.capture())))
    }

    #[test]
    fn a_snapshot_carries_the_texts_reports_and_how_it_ended() {
        let mut s = LiveSession::new(0.0);
        let lp = "Let me check the config file again.\n".repeat(20);
        let data = serde_json::json!({"choices":[{"index":0,"delta":{"content": lp}}]});
        s.feed(format!("data: {data}\n\n").as_bytes(), 100.0);
        s.end(Ending::Stopped, 200.0);
        let v = view_of(3, &s);
        assert_eq!(v.worst, Some((Verdict::Fail, Some(Channel::Content))));
        assert_eq!(v.worst.map(|(_, c)| worst_word(c)), Some("answer"));
        assert_eq!(v.channels, [("answer", Some(Verdict::Fail))]);
        assert_eq!(&*v.content.text, lp.as_str());
        assert_eq!(v.content.report.spans.len(), 2, "20 repeated lines back to back as one span, and the loop");
        assert_eq!(v.ending_key, "stopped");
        assert!(!v.running);
        assert_eq!(v.capture.as_deref(), Some(s.capture()));
        assert!(!v.reasons().is_empty());
        assert_eq!(live_headline(v.worst, v.tripped(), false), "Repetition collapse in the answer");
        let rows = stat_rows(&v.stats, false);
        assert!(rows.iter().any(|(l, v)| *l == "[DONE]" && v == "not received"));
    }

    #[test]
    fn a_leaked_template_is_said_as_such_not_as_repetition() {
        let mut s = LiveSession::new(0.0);
        let leak = "The capital of France is Paris, a city on the Seine.<|im_end|>\n<|im_start|>user\n\
                    And what about Spain? Tell me about its capital too.<|im_end|>\n<|im_start|>assistant\n\
                    The capital of Spain is Madrid, in the middle of the country.";
        let data = serde_json::json!({"choices":[{"index":0,"delta":{"content": leak}}]});
        s.feed(format!("data: {data}\n\n").as_bytes(), 100.0);
        let running = view_of(1, &s);
        assert_eq!(running.worst, Some((Verdict::Fail, Some(Channel::Content))), "{:?}", running.reasons());
        assert_eq!(running.tripped(), Some(Metric::TemplateLeak));
        assert_eq!(live_headline(running.worst, running.tripped(), true), "Leaked chat template in the answer so far");
        assert_eq!(so_far_line(running.worst, running.tripped()), "What came: leaked chat template in the answer.");
    }

    #[test]
    fn a_stream_the_server_broke_off_is_not_a_pass_and_says_so_first() {
        let mut s = LiveSession::new(0.0);
        let prose = "The harbour was quiet that morning, and the boats rocked gently at their moorings. ";
        let data = serde_json::json!({"choices":[{"index":0,"delta":{"content": prose}}]});
        s.feed(format!("data: {data}\n\n").as_bytes(), 100.0);
        s.feed(b"data: {\"error\": {\"message\": \"the model crashed\"}}\n\ndata: [DONE]\n\n", 150.0);
        s.end(Ending::Closed, 200.0);
        let v = view_of(1, &s);
        assert_eq!(v.worst.map(|(v, _)| v), Some(Verdict::Pass), "the text itself passes");
        assert_eq!(v.shown_verdict(), None, "but the run is not a PASS");
        let broken = v.broken.as_ref().expect("broken off");
        assert_eq!(broken.badge, "ERROR");
        assert!(v.status().starts_with("ERROR: Ended with an error"), "{}", v.status());
        assert!(!v.ending_text.starts_with("Complete"), "{}", v.ending_text);
        assert_eq!(so_far_line(v.worst, v.tripped()), "What came: no repetition or incoherence found.");
    }

    #[test]
    fn a_run_stopped_at_its_first_fail_says_so_and_shows_the_fail() {
        let mut s = LiveSession::new(0.0);
        let lp = "Let me check the config file again.\n".repeat(20);
        let data = serde_json::json!({"choices":[{"index":0,"delta":{"content": lp}}]});
        s.feed(format!("data: {data}\n\n").as_bytes(), 100.0);
        let running = view_of(1, &s);
        assert!(running.status().starts_with("FAIL: Streaming… 1 chunk so far."), "{}", running.status());
        s.end(Ending::Stopped, 200.0);
        let v = view_of(2, &s).stopped_at_fail(Some(8000));
        assert_eq!(v.shown_verdict(), Some(Verdict::Fail));
        assert_eq!(v.ending_key, "stopped-at-fail");
        assert!(v.ending_text.contains("7,820 of max_tokens 8,000 not generated"), "{}", v.ending_text);
    }

    #[test]
    fn speed_is_worded_with_its_token_source() {
        let mut st =
            LiveStats { tokens: 2048, tokens_estimated: true, tokens_per_s: Some(812.4), ..Default::default() };
        assert_eq!(speed_line(&st), "812 tokens/s · ≈ 2,048 tokens (estimate: 4 bytes a token, no usage sent yet)");
        st.tokens_estimated = false;
        st.tokens_per_s = None;
        assert_eq!(speed_line(&st), "speed not yet measurable · 2,048 tokens (server's usage)");
        assert_eq!(live_headline(None, None, true), "Waiting for enough text to judge…");
        assert_eq!(live_headline(Some((Verdict::Pass, None)), None, true), "No repetition or incoherence found so far");
        assert_eq!(worst_word(None), "both");
    }
}
