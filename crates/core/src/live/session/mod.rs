//! One live run: response bytes in as they arrive, the growing texts, their reports and the
//! speed figures out. Each network read goes once through the SSE decoder and the chat
//! assembler (the [`SsePump`] a saved capture goes through too), and only the new text is
//! pushed into the three [`Analyzer`](crate::analyze::Analyzer)s (reasoning, content, and both combined in arrival
//! order), read in place, so feeding costs time proportional to the bytes read, not to the
//! text so far.
//!
//! A full [`Report`] is not free (one gzip-9 pass over the text so far), so the page asks for
//! one only when [`LiveSession::report_due`] says so (a [`ReportPacer`]: at most every
//! [`REPORT_EVERY_MS`], and within a CPU budget) and once more at the end.
//!
//! Its parts: `analyzers.rs` (the three analyzers, fed only new text), `stats.rs` (what the page
//! shows beside the text), `ending.rs` (how a run ends, in words), `snapshot.rs` (the run at one
//! moment as plain data: what the page's analysis worker sends the page).

mod analyzers;
mod ending;
mod pacing;
mod prompt;
mod snapshot;
mod stats;

use crate::analyze::Report;
use crate::stream::{ChatAssembler, LivePump, ReasoningPlacement, Reply, SsePump, StreamProblem, MAX_LISTED};
use analyzers::Analyzers;

pub use analyzers::worst_channel;
pub use ending::{capture_full, ending_key, ending_text, Ending};
pub use pacing::ReportPacer;
pub use prompt::prompt_of_request;
pub use snapshot::LiveSnapshot;
pub use stats::{estimate_tokens, tokens_per_second, LiveStats, BYTES_PER_TOKEN};

/// The least time between two full reports while streaming.
pub const REPORT_EVERY_MS: f64 = 250.0;

/// The share of the time the full reports may take while streaming (the [`ReportPacer`]'s
/// budget).
pub const REPORT_SHARE: f64 = 0.05;

/// Bytes of one streamed body the page reads, keeps as the capture and scores, at most: an
/// 8,000-token generation is 1–4 MB of SSE, so only a server streaming without end reaches it.
pub const MAX_CAPTURE_BYTES: usize = 64 << 20;

/// The state of one live run. See the module doc.
#[derive(Clone, Debug)]
pub struct LiveSession {
    /// The SSE decoder and the chat assembler, fed together as a capture's are (or another
    /// dialect's pump: [`Self::with_pump`]).
    pump: Box<dyn LivePump>,
    analyzers: Analyzers,
    started_ms: f64,
    headers_ms: Option<f64>,
    first_byte_ms: Option<f64>,
    first_token_ms: Option<f64>,
    last_token_ms: Option<f64>,
    /// Every body byte as received: the capture, which the file path reads to the same numbers.
    raw: Vec<u8>,
    /// What the pump could not read, in words (the first [`MAX_LISTED`]), and how many more.
    problems: Vec<String>,
    problems_not_listed: usize,
    pacer: ReportPacer,
    ending: Ending,
    /// The body reached the limit a caller gave ([`Self::feed_up_to`]).
    full: bool,
}

impl LiveSession {
    /// A run of a chat-completions stream whose request was sent at `started_ms`.
    pub fn new(started_ms: f64) -> Self {
        Self::with_pump(started_ms, Box::new(SsePump::new(ChatAssembler::new())))
    }

    /// A run whose stream is read by `pump` (another dialect: a Responses, Anthropic Messages
    /// or Ollama stream, each through the pump and assembler its saved captures are read with).
    pub fn with_pump(started_ms: f64, pump: Box<dyn LivePump>) -> Self {
        LiveSession {
            pump,
            analyzers: Analyzers::default(),
            started_ms,
            headers_ms: None,
            first_byte_ms: None,
            first_token_ms: None,
            last_token_ms: None,
            raw: Vec::new(),
            problems: Vec::new(),
            problems_not_listed: 0,
            pacer: ReportPacer::new(REPORT_EVERY_MS, REPORT_SHARE),
            ending: Ending::Running,
            full: false,
        }
    }

    /// The response headers arrived at `now_ms`.
    pub fn headers(&mut self, now_ms: f64) {
        self.headers_ms.get_or_insert(now_ms);
    }

    /// Reads the body bytes of one network read that arrived at `now_ms`, up to `limit` bytes
    /// of body in all ([`MAX_CAPTURE_BYTES`]; see [`Self::is_full`]).
    pub fn feed_up_to(&mut self, bytes: &[u8], now_ms: f64, limit: usize) {
        let room = limit.saturating_sub(self.raw.len());
        self.feed(&bytes[..bytes.len().min(room)], now_ms);
        self.full |= bytes.len() >= room;
    }

    /// Whether a [`Self::feed_up_to`] reached its limit: the caller stops reading and ends the
    /// run with [`capture_full`]'s words.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Reads the body bytes of one network read that arrived at `now_ms`.
    pub fn feed(&mut self, bytes: &[u8], now_ms: f64) {
        if bytes.is_empty() {
            return;
        }
        self.first_byte_ms.get_or_insert(now_ms);
        self.raw.extend_from_slice(bytes);
        let problems = self.pump.feed(bytes);
        self.note(problems);
        self.sync(now_ms);
    }

    /// Ends the run at `now_ms`: reads whatever the decoder still holds.
    pub fn end(&mut self, ending: Ending, now_ms: f64) {
        let problems = self.pump.end_input();
        self.note(problems);
        // Flush a held `<think>` fragment: the finished turns are the final texts.
        let turns = self.pump.finished_turns();
        if let Some(t) = turns.first() {
            if self.analyzers.sync_to(&t.reasoning, &t.content) {
                self.token_at(now_ms);
            }
        }
        self.ending = ending;
    }

    pub fn ending(&self) -> &Ending {
        &self.ending
    }

    pub fn is_running(&self) -> bool {
        self.ending == Ending::Running
    }

    /// Whether a full report is due at `now_ms` while streaming (see the module doc).
    pub fn report_due(&self, now_ms: f64) -> bool {
        self.pacer.due(now_ms)
    }

    /// Records that reports were made at `now_ms`, taking `cost_ms`.
    pub fn reported(&mut self, now_ms: f64, cost_ms: f64) {
        self.pacer.reported(now_ms, cost_ms);
    }

    /// The response body as received so far (SSE as sent: no request, no key).
    pub fn capture(&self) -> &[u8] {
        &self.raw
    }

    /// Where the reasoning so far came from: the delta fields that carried it, or the
    /// content's `<think>` block (what check D judges a stream by).
    pub fn reasoning_placement(&self) -> ReasoningPlacement {
        self.pump.reasoning_placement()
    }

    pub fn reasoning_text(&self) -> &str {
        self.analyzers.reasoning.text()
    }

    pub fn content_text(&self) -> &str {
        self.analyzers.content.text()
    }

    /// The replies so far, one per choice (a request with `n` > 1 streams several); the
    /// analyzers, reports and texts above are the first one's.
    pub fn turns(&self) -> &[Reply] {
        self.pump.turns()
    }

    /// The request this run streams (its JSON body): the content is judged against its prompt
    /// (the last user message) for topic drift, as a reply in a transcript is.
    pub fn set_request(&mut self, body: &str) {
        self.analyzers.set_prompt(prompt_of_request(body));
    }

    /// Full reports of the reasoning, the content and both combined (one gzip pass each: not
    /// per chunk). While one channel is empty the combined text is the other one, whose report
    /// it then is (the same report, not computed twice).
    pub fn reports(&self) -> (Report, Report, Report) {
        let a = &self.analyzers;
        let (reasoning, content) = (a.reasoning.report(), a.content.report());
        let combined = if a.reasoning.text().is_empty() {
            content.clone()
        } else if a.content.text().is_empty() {
            reasoning.clone()
        } else {
            a.combined.report()
        };
        (reasoning, content, combined)
    }

    /// The timings, counts and speed so far.
    pub fn stats(&self) -> LiveStats {
        let mut stream = self.pump.info().clone();
        // The first reply's, else what the stream said (Ollama's `done_reason`).
        stream.finish_reason =
            self.pump.turns().iter().find_map(|t| t.finish_reason.clone()).or(stream.finish_reason.take());
        let since = |t: Option<f64>| t.map(|t| (t - self.started_ms).max(0.0));
        let (tokens, tokens_estimated) = match stream.usage.as_ref().and_then(|u| u.completion_tokens) {
            Some(n) => (n, false),
            None => (estimate_tokens(self.reasoning_text()) + estimate_tokens(self.content_text()), true),
        };
        let generation_ms = self.first_token_ms.zip(self.last_token_ms).map(|(a, b)| b - a);
        LiveStats {
            to_headers_ms: since(self.headers_ms),
            to_first_byte_ms: since(self.first_byte_ms),
            to_first_token_ms: since(self.first_token_ms),
            generation_ms,
            bytes: self.raw.len(),
            tokens,
            tokens_estimated,
            tokens_per_s: generation_ms.and_then(|ms| tokens_per_second(tokens, ms)),
            stream,
            problems: self.problems.clone(),
            problems_not_listed: self.problems_not_listed,
        }
    }

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

    /// Keeps what the pump could not read: listed up to [`MAX_LISTED`], then counted.
    fn note(&mut self, problems: Vec<StreamProblem>) {
        for p in problems {
            if self.problems.len() < MAX_LISTED {
                self.problems.push(p.message);
            } else {
                self.problems_not_listed += 1;
            }
        }
    }

    /// Pushes the text the assembler has gained since the last call into the analyzers: only
    /// what is new, read in place (the texts so far are not copied).
    fn sync(&mut self, now_ms: f64) {
        let Some(t) = self.pump.turns().first() else { return };
        if !t.tool_calls.is_empty() && self.first_token_ms.is_none() {
            self.first_token_ms = Some(now_ms);
            self.last_token_ms = Some(now_ms);
        }
        if self.analyzers.sync_to(&t.reasoning, &t.content) {
            self.token_at(now_ms);
        }
    }

    /// Text arrived at `now_ms`.
    fn token_at(&mut self, now_ms: f64) {
        self.first_token_ms.get_or_insert(now_ms);
        self.last_token_ms = Some(now_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::Verdict;
    use crate::ingest::Channel;

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

    #[test]
    fn a_flood_of_unreadable_chunks_and_errors_stays_bounded() {
        let mut s = LiveSession::new(0.0);
        let bad = "data: {not json\n\n".repeat(MAX_LISTED + 50);
        let errors = "data: {\"error\": {\"message\": \"overloaded\"}}\n\n".repeat(MAX_LISTED + 70);
        s.feed(bad.as_bytes(), 1.0);
        s.feed(errors.as_bytes(), 2.0);
        s.end(Ending::Closed, 3.0);
        let st = s.stats();
        assert_eq!((st.problems.len(), st.problems_not_listed), (MAX_LISTED, 50));
        assert_eq!((st.stream.errors.len(), st.stream.errors_not_listed), (MAX_LISTED, 70));
        assert_eq!((st.errors().count(), st.not_listed()), (2 * MAX_LISTED, 120));
    }

    fn chunk(field: &str, text: &str) -> String {
        let delta = serde_json::json!({ field: text });
        format!("data: {}\n\n", serde_json::json!({"model":"m","choices":[{"index":0,"delta":delta}]}))
    }

    #[test]
    fn timings_and_speed_come_from_the_arrival_times() {
        let mut s = LiveSession::new(1000.0);
        s.headers(1050.0);
        s.feed(b": keep-alive\n\n", 1100.0);
        s.feed(chunk("content", "Hello there. ").as_bytes(), 1300.0);
        s.feed(chunk("content", "General Kenobi.").as_bytes(), 2300.0);
        let st = s.stats();
        assert_eq!(st.to_headers_ms, Some(50.0));
        assert_eq!(st.to_first_byte_ms, Some(100.0));
        assert_eq!(st.to_first_token_ms, Some(300.0));
        assert_eq!(st.generation_ms, Some(1000.0));
        assert_eq!(st.stream.chunks, 2);
        assert!(st.tokens_estimated);
        assert_eq!(st.tokens, 7, "27 bytes ≈ 7 tokens");
        assert_eq!(st.tokens_per_s, Some(7.0));
        assert_eq!(s.content_text(), "Hello there. General Kenobi.");
    }

    #[test]
    fn usage_replaces_the_estimate_and_done_is_seen() {
        let mut s = LiveSession::new(0.0);
        s.feed(chunk("content", "abc ").as_bytes(), 10.0);
        s.feed(chunk("content", "def").as_bytes(), 510.0);
        s.feed(
            b"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":50,\"total_tokens\":53}}\n\ndata: [DONE]\n\n",
            600.0,
        );
        s.end(Ending::Closed, 600.0);
        let st = s.stats();
        assert_eq!((st.tokens, st.tokens_estimated), (50, false));
        assert_eq!(st.tokens_per_s, Some(100.0));
        assert_eq!(st.stream.finish_reason.as_deref(), Some("length"));
        assert!(st.stream.saw_done);
        assert_eq!(ending_key(s.ending(), st.stream.saw_done), "done");
        assert!(ending_text(s.ending(), &st).contains("[DONE]"));
    }

    #[test]
    fn reasoning_and_answer_are_analysed_apart_and_together() {
        let mut s = LiveSession::new(0.0);
        let lp = "I should check the config again.\n".repeat(30);
        // Split mid-line, mid-word, across reads.
        for piece in lp.as_bytes().chunks(7) {
            s.feed(chunk("reasoning_content", std::str::from_utf8(piece).unwrap()).as_bytes(), 1.0);
        }
        let answer = "The answer: reclaim runs when free memory falls under the low watermark.";
        s.feed(chunk("content", answer).as_bytes(), 2.0);
        s.end(Ending::Cut("network error".into()), 3.0);
        let (r, c, both) = s.reports();
        assert_eq!(r, crate::analyze::analyze(&lp), "pushed in pieces, the same report as at once");
        assert_eq!(r.verdict, Verdict::Fail);
        assert_eq!(c.verdict, Verdict::Pass);
        assert_eq!(both.verdict, Verdict::Fail);
        assert_eq!(worst_channel(&r, &c), Some((Verdict::Fail, Some(Channel::Reasoning))));
        assert_eq!(s.content_text(), answer);
        // The capture replays through the file path to the same reports.
        let doc = crate::ingest::read(s.capture());
        assert_eq!(doc.format, crate::ingest::Format::Sse);
        let replayed: Vec<_> = {
            let judged = crate::judge::judge_transcript(&doc);
            judged.reports.iter().map(|m| (*m.full_report(&doc)).clone()).collect()
        };
        assert!(replayed.contains(&r) && replayed.contains(&c) && replayed.contains(&both), "{replayed:?}");
        let st = s.stats();
        assert!(!st.stream.saw_done);
        assert_eq!(ending_key(s.ending(), st.stream.saw_done), "cut");
        assert!(ending_text(s.ending(), &st).contains("kept and scored"));
    }

    #[test]
    fn with_one_channel_the_combined_report_is_that_channels() {
        for field in ["content", "reasoning_content"] {
            let mut s = LiveSession::new(0.0);
            let text = "Let me check the file again. ".repeat(40);
            for piece in text.as_bytes().chunks(50) {
                s.feed(chunk(field, std::str::from_utf8(piece).unwrap()).as_bytes(), 1.0);
            }
            let (r, c, both) = s.reports();
            assert_eq!(both, crate::analyze::analyze(&text), "{field}");
            assert_eq!(both.verdict, Verdict::Fail);
            assert!(if field == "content" { r.too_short && c == both } else { c.too_short && r == both });
        }
    }

    #[test]
    fn the_session_says_which_field_carried_the_streamed_reasoning() {
        for field in ["reasoning_content", "reasoning", "reasoning_details", "inline"] {
            let mut s = LiveSession::new(0.0);
            let words = ["Let me ", "think about ", "pages."];
            if field == "inline" {
                s.feed(chunk("content", "<think>").as_bytes(), 1.0);
            }
            for w in words {
                let delta = match field {
                    "reasoning_details" => serde_json::json!({ field: [{"type": "reasoning.text", "text": w}] }),
                    "inline" => serde_json::json!({ "content": w }),
                    _ => serde_json::json!({ field: w }),
                };
                let c = serde_json::json!({"choices": [{"index": 0, "delta": delta}]});
                s.feed(format!("data: {c}\n\n").as_bytes(), 2.0);
            }
            s.feed(chunk("content", if field == "inline" { "</think>Paging." } else { "Paging." }).as_bytes(), 3.0);
            s.end(Ending::Closed, 4.0);
            assert_eq!(s.reasoning_text(), "Let me think about pages.", "{field}");
            let p = s.reasoning_placement();
            let tally = crate::stream::Tally { bytes: 25, chunks: 3 };
            if field == "inline" {
                assert_eq!((p.fields.len(), p.inline.map(|t| t.bytes)), (0, Some(25)));
            } else {
                assert_eq!((p.fields, p.inline), (vec![(field, tally)], None), "{field}");
            }
        }
    }

    #[test]
    fn a_late_think_close_moves_the_answer_into_the_reasoning() {
        let mut s = LiveSession::new(0.0);
        s.feed(chunk("content", "thinking hard about pages ").as_bytes(), 1.0);
        s.feed(chunk("content", "and more</think>The answer.").as_bytes(), 2.0);
        s.end(Ending::Closed, 3.0);
        assert_eq!(s.reasoning_text(), "thinking hard about pages and more");
        assert_eq!(s.content_text(), "The answer.");
    }

    #[test]
    fn errors_and_unreadable_chunks_are_listed() {
        let mut s = LiveSession::new(0.0);
        s.feed(b"data: {\"error\":{\"message\":\"model crashed\"}}\n\ndata: nonsense\n\n", 1.0);
        s.end(Ending::Closed, 2.0);
        let st = s.stats();
        let errors: Vec<&str> = st.errors().collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0], "model crashed");
        assert!(ending_text(s.ending(), &st).contains("without [DONE]"));
    }

    #[test]
    fn reports_are_paced() {
        let mut s = LiveSession::new(0.0);
        assert!(s.report_due(0.0));
        s.reported(0.0, 1.0);
        assert!(!s.report_due(100.0));
        assert!(s.report_due(REPORT_EVERY_MS));
    }
    #[test]
    fn a_stream_past_its_capture_limit_is_read_to_the_limit_and_then_full() {
        let mut s = LiveSession::new(0.0);
        let piece = chunk("content", &"A fine sentence about page reclaim. ".repeat(4));
        let limit = piece.len() * 3 + 10;
        for i in 0..3 {
            s.feed_up_to(piece.as_bytes(), i as f64, limit);
            assert!(!s.is_full(), "under the limit after {} pieces", i + 1);
        }
        s.feed_up_to(piece.as_bytes(), 3.0, limit);
        assert!(s.is_full());
        assert_eq!(s.capture().len(), limit, "the capture stops exactly at the limit");
        assert_eq!(s.capture(), &piece.repeat(4).as_bytes()[..limit]);
        s.feed_up_to(piece.as_bytes(), 4.0, limit);
        assert_eq!(s.capture().len(), limit, "nothing more once full");
        s.end(Ending::Cut(capture_full(limit)), 5.0);
        let said = ending_text(s.ending(), &s.stats());
        assert!(said.contains(&format!("the stream passed {limit} bytes and the page stopped")), "{said}");
        assert!(capture_full(MAX_CAPTURE_BYTES).starts_with("the stream passed 64 MiB"));
    }
}
