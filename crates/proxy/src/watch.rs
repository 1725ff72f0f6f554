//! One generation watched as its reply passes through the proxy: the pure part of the proxy's
//! work, with no socket or clock of its own (bytes and milliseconds in, what to send out).
//!
//! A streamed reply (`text/event-stream`; Ollama's `application/x-ndjson`) goes through the
//! core's [`LiveSession`] — the same pump and analyzers as the page's live mode, with the
//! assembler of the request's [`Dialect`]. Without a cut policy every read is passed
//! on as it came and scored on the side. With one (`--cut-on fail`), the client gets whole
//! events only: a read's part of an event not yet whole waits for the rest (at most
//! [`MAX_HELD`]). The reply so far is checked — a full report of its reasoning and content
//! joined as the judge joins them, paced as the page paces its reports
//! ([`LiveSession::report_due`]) — by a [`Check`] the caller runs off the network threads (a
//! report costs milliseconds: it must not hold up the bytes of other streams); when its
//! answer ([`Watch::checked`]) reaches the level, the stream ends at the next event boundary
//! with the proxy's own last chunk and `[DONE]` ([`crate::cut`]); the session then holds
//! exactly what the client received from upstream. A reply that is not streamed (JSON) is
//! kept whole up to [`MAX_BODY_BYTES`] and scored when it ends, as one event whose data is
//! the body (each dialect's assembler reads a whole reply as it reads an event:
//! [`Dialect::whole_capture`]). Anything else
//! passes unscored, and the log says why.

use std::time::Instant;

use coherency_core::analyze::{analyze, Verdict};
use coherency_core::judge::join_reply;
use coherency_core::live::{estimate_tokens, Ending, LiveSession, MAX_BODY_BYTES, MAX_CAPTURE_BYTES};

use crate::cut::{self, StreamFacts, TokensSaved};
use crate::decode::Decoder;
use crate::dialect::Dialect;
use crate::event_bounds::EventBounds;
use crate::request_facts::RequestFacts;

/// Bytes of one unfinished event held back from the client, at most (cut mode): past it they
/// are passed on, and a cut waits for the end of that event.
pub const MAX_HELD: usize = 1 << 20;

/// What kind of reply passes, from its status and headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A stream (server-sent events; Ollama's NDJSON): scored as it passes.
    Stream,
    /// A whole JSON reply (a generation not streamed): scored when it ends.
    Json,
    /// Passed on, not scored, for this reason (an HTTP error, a compressed body, another type).
    Unscored(String),
}

impl Shape {
    /// The shape of a reply of `dialect` with `status`, its `content-type` and
    /// `content-encoding`.
    pub fn of(dialect: Dialect, status: u16, content_type: Option<&str>, content_encoding: Option<&str>) -> Shape {
        if !(200..300).contains(&status) {
            return Shape::Unscored(format!("HTTP {status}"));
        }
        if let Some(enc) = content_encoding
            .map(str::trim)
            .filter(|e| !e.is_empty() && !e.eq_ignore_ascii_case("identity") && Decoder::of(e).is_none())
        {
            return Shape::Unscored(format!(
                "not scored: the reply is compressed ({enc}), which the proxy does not decode"
            ));
        }
        let mime = content_type.unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        match mime.as_str() {
            m if dialect.is_stream(m) => Shape::Stream,
            "application/json" => Shape::Json,
            "" => Shape::Unscored("not scored: the reply has no content-type".to_string()),
            other => Shape::Unscored(format!("not scored: the reply is {other}, neither a stream nor JSON")),
        }
    }
}

/// What to do with one read of the reply.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Pass the read on as it came.
    PassOn,
    /// Pass these bytes on instead (whole events; the rest waits), possibly none.
    Send(Vec<u8>),
    /// Send these bytes (whole events, then the proxy's ending) and end the stream; close the
    /// upstream.
    Cut(Vec<u8>),
}

/// A cut the proxy made.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    pub verdict: Verdict,
    /// Why, in the core's words (the report's first reason).
    pub why: String,
    /// Tokens generated before the cut (the server's usage, else estimated).
    pub generated: u64,
    pub generated_estimated: bool,
    /// `None` when the request set no limit.
    pub saved: Option<TokensSaved>,
}

/// How the reply ended, seen from the proxy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The upstream ended the body.
    Closed,
    /// The proxy cut it.
    Cut,
    /// The upstream connection failed mid-body (its words); the client's was ended the same way.
    UpstreamFailed(String),
    /// The client went away before the end.
    ClientGone,
    /// The proxy was stopped (SIGTERM, Ctrl-C) before the end.
    Stopped,
}

impl End {
    /// The short key the log writes.
    pub fn key(&self, saw_done: bool) -> &'static str {
        match self {
            End::Closed if saw_done => "done",
            End::Closed => "no-done",
            End::Cut => "cut-by-proxy",
            End::UpstreamFailed(_) => "upstream-failed",
            End::ClientGone => "client-gone",
            End::Stopped => "proxy-stopped",
        }
    }
}

/// Added time per read, as the I/O layer measured it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Added {
    pub reads: u64,
    pub total_ms: f64,
    pub max_ms: f64,
}

/// The reply so far, to judge ([`Watch::check`]).
#[derive(Debug)]
pub struct Check {
    /// Its reasoning and content, joined as the judge joins them.
    text: String,
    /// A stream of several choices (`n` > 1): each choice still streaming, by index, its
    /// text joined so; `text` is then unused.
    choices: Vec<(u64, String)>,
}

impl Check {
    /// Judges the text (a full report: milliseconds per few KB, so off the network threads).
    /// Several choices: the verdict is the mildest of the choices still streaming (none when
    /// one is too short to judge), so that a stream is cut only when every choice it could
    /// still deliver has reached the level — a healthy choice is never cut short for another's
    /// loop.
    pub fn run(self) -> Checked {
        let clock = Instant::now();
        if self.choices.is_empty() {
            let report = analyze(&self.text);
            return Checked {
                verdict: (!report.too_short).then_some(report.verdict),
                why: report.reasons.into_iter().next().unwrap_or_default(),
                cost_ms: clock.elapsed().as_secs_f64() * 1000.0,
            };
        }
        let mut mildest: Option<(Verdict, String)> = None;
        let mut judged = true;
        for (index, text) in &self.choices {
            let report = analyze(text);
            if report.too_short {
                judged = false;
                break;
            }
            if mildest.as_ref().is_none_or(|(v, _)| report.verdict < *v) {
                let why = report.reasons.into_iter().next().unwrap_or_default();
                mildest = Some((report.verdict, format!("choice {index}: {why}")));
            }
        }
        let (verdict, why) = match mildest.filter(|_| judged) {
            Some((v, why)) => (Some(v), why),
            None => (None, String::new()),
        };
        Checked { verdict, why, cost_ms: clock.elapsed().as_secs_f64() * 1000.0 }
    }
}

/// A reply's reasoning and content joined as the judge joins them.
pub fn joined(reasoning: &str, content: &str) -> String {
    join_reply([reasoning, content].into_iter().filter(|t| !t.is_empty()))
}

/// A check's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// `None`: too short to judge.
    pub verdict: Option<Verdict>,
    /// The report's first reason.
    pub why: String,
    pub cost_ms: f64,
}

/// One generation being watched. See the module doc.
#[derive(Debug)]
pub struct Watch {
    session: LiveSession,
    dialect: Dialect,
    shape: Shape,
    cut_on: Option<Verdict>,
    request: RequestFacts,
    bounds: EventBounds,
    facts: StreamFacts,
    /// Bytes received and not yet passed on (cut mode): the start of an event not yet whole.
    held: Vec<u8>,
    /// Bytes passed on so far (cut mode).
    passed: usize,
    /// The verdict reached the cut level; the cut waits for the end of an event.
    cut_due: Option<(Verdict, String)>,
    /// A check is out (started at this time), and the text size it was asked for.
    checking: Option<f64>,
    checked_len: usize,
    cut: Option<Cut>,
    /// A JSON reply as received, up to [`MAX_BODY_BYTES`]; `true` once past it.
    json: Vec<u8>,
    json_over: bool,
    /// A compressed body's decoder ([`Watch::decode`]), and why decoding stopped.
    decoder: Option<Decoder>,
    decode_error: Option<String>,
    added: Added,
}

impl Watch {
    /// A chat-completions reply of `shape` to a request asking `request`, started at
    /// `started_ms`; cut when its verdict reaches `cut_on` (streams only).
    pub fn new(started_ms: f64, shape: Shape, request: RequestFacts, cut_on: Option<Verdict>) -> Watch {
        Watch::of(Dialect::Chat, started_ms, shape, request, cut_on)
    }

    /// [`Watch::new`] of a reply in `dialect`.
    pub fn of(
        dialect: Dialect,
        started_ms: f64,
        shape: Shape,
        request: RequestFacts,
        cut_on: Option<Verdict>,
    ) -> Watch {
        Watch {
            session: dialect.session(started_ms),
            dialect,
            shape,
            cut_on,
            request,
            bounds: if dialect.lines() { EventBounds::lines() } else { EventBounds::new() },
            facts: StreamFacts::new(dialect),
            held: Vec::new(),
            passed: 0,
            cut_due: None,
            checking: None,
            checked_len: 0,
            cut: None,
            json: Vec::new(),
            json_over: false,
            decoder: None,
            decode_error: None,
            added: Added::default(),
        }
    }

    /// The reply's `content-encoding`: a gzip or deflate body is decoded on the side to be
    /// scored (and never cut: the client gets it compressed, as sent). Call before the body.
    pub fn decode(&mut self, content_encoding: Option<&str>) {
        if !matches!(self.shape, Shape::Stream | Shape::Json) {
            return;
        }
        self.decoder = content_encoding.and_then(Decoder::of);
        if self.decoder.is_some() {
            self.cut_on = None;
        }
    }

    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The response headers arrived at `now_ms`.
    pub fn headers(&mut self, now_ms: f64) {
        self.session.headers(now_ms);
    }

    /// Whether reads may be held back or the stream cut (the I/O layer then drops a
    /// `content-length`, which a cut would break).
    pub fn may_cut(&self) -> bool {
        self.cut_on.is_some() && self.shape == Shape::Stream
    }

    /// One read of the reply body, arrived at `now_ms`: what to send the client.
    pub fn on_data(&mut self, bytes: &[u8], now_ms: f64) -> Step {
        if self.cut.is_some() {
            return Step::Send(Vec::new());
        }
        if self.decoder.is_some() {
            self.on_compressed(bytes, now_ms);
            return Step::PassOn;
        }
        match self.shape {
            Shape::Stream if self.may_cut() => self.on_stream_cut_mode(bytes, now_ms),
            Shape::Stream => {
                if !self.session.is_full() {
                    self.session.feed_up_to(bytes, now_ms, MAX_CAPTURE_BYTES);
                }
                Step::PassOn
            }
            Shape::Json => {
                let room = MAX_BODY_BYTES.saturating_sub(self.json.len());
                self.json.extend_from_slice(&bytes[..bytes.len().min(room)]);
                self.json_over |= bytes.len() > room;
                Step::PassOn
            }
            Shape::Unscored(_) => Step::PassOn,
        }
    }

    /// A read of a compressed body: its decoded bytes scored as a plain body's would be.
    fn on_compressed(&mut self, bytes: &[u8], now_ms: f64) {
        let Watch { decoder, decode_error, session, json, json_over, shape, .. } = self;
        let (Some(decoder), None) = (decoder.as_mut(), decode_error.as_ref()) else { return };
        let take = |plain: &[u8]| match shape {
            Shape::Stream if !session.is_full() => session.feed_up_to(plain, now_ms, MAX_CAPTURE_BYTES),
            Shape::Json => {
                let room = MAX_BODY_BYTES.saturating_sub(json.len());
                json.extend_from_slice(&plain[..plain.len().min(room)]);
                *json_over |= plain.len() > room;
            }
            _ => {}
        };
        let result = if bytes.is_empty() { decoder.finish(take) } else { decoder.feed(bytes, take) };
        if let Err(e) = result {
            *decode_error = Some(e);
        }
    }

    fn on_stream_cut_mode(&mut self, bytes: &[u8], now_ms: f64) -> Step {
        let read_start = self.bounds.scanned();
        self.bounds.feed(bytes);
        let end = self.bounds.last_end();
        let mut out = Vec::new();
        if end > self.passed {
            let split = end - read_start;
            out.reserve(self.held.len() + split);
            out.append(&mut self.held);
            out.extend_from_slice(&bytes[..split]);
            self.held.extend_from_slice(&bytes[split..]);
            self.passed = end;
        } else {
            self.held.extend_from_slice(bytes);
        }
        if self.held.len() > MAX_HELD {
            // An event this long is passed on before its end; a cut waits for the end of it.
            out.append(&mut self.held);
            self.passed = self.bounds.scanned();
        }
        if !out.is_empty() {
            self.facts.see(&out);
            if !self.session.is_full() {
                self.session.feed_up_to(&out, now_ms, MAX_CAPTURE_BYTES);
            }
        }
        self.try_cut(out)
    }

    /// Ends the stream with `out` and the proxy's ending when a cut is due and the client has
    /// had whole events only; else sends `out`.
    fn try_cut(&mut self, mut out: Vec<u8>) -> Step {
        match &self.cut_due {
            Some((verdict, why)) if self.cut.is_none() && self.passed == self.bounds.last_end() => {
                let (verdict, why) = (*verdict, why.clone());
                let (generated, estimated) = self.generated();
                let open: Vec<u64> =
                    self.session.turns().iter().filter(|t| t.finish_reason.is_none()).map(|t| t.choice).collect();
                out.extend(cut::ending(&self.facts, &format!("{} — {why}", verdict.as_str()), generated, &open));
                self.held.clear();
                self.cut = Some(Cut {
                    verdict,
                    why,
                    generated,
                    generated_estimated: estimated,
                    saved: cut::tokens_saved(self.request.max_tokens, generated, estimated),
                });
                Step::Cut(out)
            }
            _ => Step::Send(out),
        }
    }

    /// The tokens generated so far, and whether estimated: the server's usage, else 4 bytes a
    /// token. Anthropic's usage before `message_delta` is `message_start`'s (one output
    /// token), so it is estimated until then.
    fn generated(&self) -> (u64, bool) {
        let stats = self.session.stats();
        let turns = self.session.turns();
        if turns.len() > 1 && stats.tokens_estimated {
            let all = turns.iter().map(|t| estimate_tokens(&t.reasoning) + estimate_tokens(&t.content)).sum();
            return (all, true);
        }
        let usage_is_final = stats.stream.finish_reason.is_some() || stats.stream.saw_done;
        if self.dialect == Dialect::Anthropic && !usage_is_final {
            let text = estimate_tokens(self.session.reasoning_text()) + estimate_tokens(self.session.content_text());
            return (text.max(stats.tokens), true);
        }
        (stats.tokens, stats.tokens_estimated)
    }

    /// A check of the reply so far when one is due at `now_ms` (a cut policy, none out, the
    /// pacer's time come, new text since the last): run it ([`Check::run`]) and hand its
    /// answer to [`Self::checked`].
    pub fn check(&mut self, now_ms: f64) -> Option<Check> {
        if !self.may_cut() || self.cut.is_some() || self.cut_due.is_some() || self.checking.is_some() {
            return None;
        }
        let turns = self.session.turns();
        let (reasoning, content) = (self.session.reasoning_text(), self.session.content_text());
        let size = if turns.len() > 1 {
            turns.iter().map(|t| t.reasoning.len() + t.content.len()).sum()
        } else {
            reasoning.len() + content.len()
        };
        if size == self.checked_len || self.session.is_full() || !self.session.report_due(now_ms) {
            return None;
        }
        self.checking = Some(now_ms);
        self.checked_len = size;
        if turns.len() > 1 {
            let choices = turns
                .iter()
                .filter(|t| t.finish_reason.is_none())
                .map(|t| (t.choice, joined(&t.reasoning, &t.content)))
                .collect();
            return Some(Check { text: String::new(), choices });
        }
        Some(Check { text: joined(reasoning, content), choices: Vec::new() })
    }

    /// A check's answer, arrived at `now_ms`: what to send (the proxy's ending when the
    /// verdict reaches the level and the client is between events; else nothing).
    pub fn checked(&mut self, answer: Checked, now_ms: f64) -> Step {
        let asked = self.checking.take().unwrap_or(now_ms);
        self.session.reported(asked, answer.cost_ms);
        if let (Some(level), Some(verdict)) = (self.cut_on, answer.verdict) {
            if verdict >= level && self.cut.is_none() {
                self.cut_due = Some((verdict, answer.why));
            }
        }
        if self.cut.is_some() {
            return Step::Send(Vec::new());
        }
        self.try_cut(Vec::new())
    }

    /// A check that was asked for will not be answered (the scorers are overloaded): the
    /// next one may be asked.
    pub fn check_lost(&mut self) {
        self.checking = None;
        self.checked_len = 0;
    }

    /// Time the proxy added to one read (measured by the I/O layer).
    pub fn added(&mut self, ms: f64) {
        self.added.reads += 1;
        self.added.total_ms += ms;
        self.added.max_ms = self.added.max_ms.max(ms);
    }

    /// The upstream body ended: the bytes still held (an unfinished last event), to pass on
    /// as received.
    pub fn take_held(&mut self, now_ms: f64) -> Vec<u8> {
        let held = std::mem::take(&mut self.held);
        if !held.is_empty() && !self.session.is_full() {
            self.session.feed_up_to(&held, now_ms, MAX_CAPTURE_BYTES);
        }
        self.passed = self.bounds.scanned();
        held
    }

    /// Whether the proxy has cut the stream.
    pub fn is_cut(&self) -> bool {
        self.cut.is_some()
    }

    /// The watch done, as it `end`ed at `now_ms`: everything the log and the metrics need.
    pub fn finish(mut self, end: End, now_ms: f64) -> Finished {
        let end = if self.cut.is_some() { End::Cut } else { end };
        let ending = match &end {
            End::Closed => Ending::Closed,
            End::Cut => Ending::Cut(format!(
                "the proxy cut it: {}",
                self.cut.as_ref().map(|c| c.verdict.as_str()).unwrap_or_default()
            )),
            End::UpstreamFailed(why) => Ending::Cut(format!("the upstream failed: {why}")),
            End::ClientGone => Ending::Cut("the client went away".to_string()),
            End::Stopped => Ending::Cut("the proxy was stopped".to_string()),
        };
        if self.decoder.is_some() {
            // What the decoder still holds.
            self.on_compressed(&[], now_ms);
        }
        let mut note = None;
        match &self.shape {
            Shape::Json if self.json_over => {
                note = Some(format!("not scored: the reply is over {} MiB", MAX_BODY_BYTES >> 20));
            }
            Shape::Json => {
                let capture = self.dialect.whole_capture(&self.json);
                self.session.feed(&capture, now_ms);
            }
            Shape::Unscored(why) => note = Some(why.clone()),
            Shape::Stream if self.session.is_full() => {
                note = Some(coherency_core::live::capture_full(MAX_CAPTURE_BYTES).replace("the page", "the proxy"));
            }
            Shape::Stream => {}
        }
        if let (Some(decoder), None) = (&self.decoder, &note) {
            note = Some(match &self.decode_error {
                Some(e) => format!("scored in part: {e}"),
                None => format!(
                    "scored after decoding its {} body (the upstream compressed it despite accept-encoding: identity; passed on as sent, never cut)",
                    decoder.name()
                ),
            });
        }
        self.session.end(ending, now_ms);
        Finished {
            session: self.session,
            dialect: self.dialect,
            shape: self.shape,
            request: self.request,
            cut: self.cut,
            end,
            note,
            added: self.added,
        }
    }
}

/// A generation done: what the log and the metrics are made of.
#[derive(Debug)]
pub struct Finished {
    /// Ended; its capture is the reply as received (for a cut stream, what the client got
    /// from upstream before the cut).
    pub session: LiveSession,
    pub dialect: Dialect,
    pub shape: Shape,
    pub request: RequestFacts,
    pub cut: Option<Cut>,
    pub end: End,
    /// Why it was not (or not wholly) scored.
    pub note: Option<String>,
    pub added: Added,
}

impl Finished {
    /// Whether there is a reply to judge.
    pub fn scored(&self) -> bool {
        matches!(self.shape, Shape::Stream | Shape::Json) && !self.session.capture().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(text: &str) -> String {
        let delta = serde_json::json!({"id": "c1", "object": "chat.completion.chunk", "created": 5, "model": "m",
            "choices": [{"index": 0, "delta": {"content": text}}]});
        format!("data: {delta}\n\n")
    }

    fn looping_stream() -> String {
        let mut s = String::new();
        for i in 0..400 {
            s += &chunk(if i < 3 { "Let me see. " } else { "The lock is held.\n" });
        }
        s + "data: [DONE]\n\n"
    }

    fn facts(max_tokens: Option<u64>) -> RequestFacts {
        RequestFacts { model: Some("m".into()), stream: true, max_tokens, ..RequestFacts::default() }
    }

    #[test]
    fn replies_are_shaped_by_status_type_and_encoding() {
        assert_eq!(Shape::of(Dialect::Chat, 200, Some("text/event-stream; charset=utf-8"), None), Shape::Stream);
        assert_eq!(Shape::of(Dialect::Chat, 200, Some("Application/JSON"), Some("identity")), Shape::Json);
        assert_eq!(Shape::of(Dialect::Chat, 200, Some("text/event-stream"), Some("gzip")), Shape::Stream);
        assert_eq!(Shape::of(Dialect::Chat, 401, Some("application/json"), None), Shape::Unscored("HTTP 401".into()));
        assert!(
            matches!(Shape::of(Dialect::Chat, 200, Some("text/event-stream"), Some("br")), Shape::Unscored(w) if w.contains("br"))
        );
        assert!(
            matches!(Shape::of(Dialect::Chat, 200, Some("text/html"), None), Shape::Unscored(w) if w.contains("text/html"))
        );
    }

    #[test]
    fn without_a_policy_every_read_passes_as_it_came_and_is_scored() {
        let stream = looping_stream();
        let mut w = Watch::new(0.0, Shape::Stream, facts(Some(2000)), None);
        for (i, read) in stream.as_bytes().chunks(37).enumerate() {
            assert_eq!(w.on_data(read, i as f64), Step::PassOn);
        }
        let f = w.finish(End::Closed, 1000.0);
        assert_eq!(f.session.capture(), stream.as_bytes());
        assert_eq!(f.session.reports().2.verdict, Verdict::Fail);
        assert_eq!((f.cut, f.end.key(f.session.stats().stream.saw_done)), (None, "done"));
    }

    /// Feeds `stream` in reads of `size`, 1 ms apart; what the client got and the watch.
    fn through_cut_mode(stream: &str, size: usize, cut_on: Verdict) -> (Vec<u8>, Watch) {
        let mut w = Watch::new(0.0, Shape::Stream, facts(Some(2000)), Some(cut_on));
        let mut client = Vec::new();
        for (i, read) in stream.as_bytes().chunks(size).enumerate() {
            // Reports are paced: one is due every 250 ms.
            let now = i as f64 * 100.0;
            let mut step = w.on_data(read, now);
            if let Step::Send(bytes) = step {
                client.extend(bytes);
                // The check runs at once here; the proxy runs it on a scorer thread.
                step = match w.check(now) {
                    Some(check) => w.checked(check.run(), now),
                    None => Step::Send(Vec::new()),
                };
            }
            match step {
                Step::PassOn => client.extend_from_slice(read),
                Step::Send(bytes) => client.extend(bytes),
                Step::Cut(bytes) => {
                    client.extend(bytes);
                    return (client, w);
                }
            }
        }
        client.extend(w.take_held(1e9));
        (client, w)
    }

    #[test]
    fn a_looping_stream_is_cut_between_events_with_a_last_chunk_and_done() {
        let stream = looping_stream();
        for size in [1, 7, 64, 1000] {
            let (client, w) = through_cut_mode(&stream, size, Verdict::Fail);
            assert!(w.is_cut(), "read size {size}");
            assert!(client.len() < stream.len(), "ended early");
            let text = String::from_utf8(client.clone()).unwrap();
            let (before, ending) = text.split_at(text.find(": coherency proxy").unwrap());
            assert!(
                stream.starts_with(before) && before.ends_with("\n\n"),
                "whole events of upstream, then the ending"
            );
            assert!(
                ending.ends_with("data: [DONE]\n\n") && ending.contains("\"finish_reason\":\"length\""),
                "{ending}"
            );
            let f = w.finish(End::ClientGone, 2000.0);
            assert_eq!(f.end, End::Cut, "a cut stays a cut whatever happens next");
            assert_eq!(f.session.capture(), before.as_bytes(), "the capture is what the client got from upstream");
            let cut = f.cut.unwrap();
            assert_eq!(cut.verdict, Verdict::Fail);
            assert!(cut.generated_estimated);
            let saved = cut.saved.unwrap();
            assert_eq!(saved.tokens, 2000 - cut.generated);
            assert!(saved.estimated);
        }
    }

    #[test]
    fn a_healthy_stream_in_cut_mode_reaches_the_client_byte_for_byte() {
        let prose = coherency_core::samples::PROSE;
        let mut stream = String::new();
        for piece in prose.as_bytes().chunks(40) {
            stream += &chunk(&String::from_utf8_lossy(piece));
        }
        stream += ": keep-alive\r\n\r\ndata: [DONE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"no end";
        for size in [1, 13, 4096] {
            let (client, w) = through_cut_mode(&stream, size, Verdict::Fail);
            assert!(!w.is_cut());
            assert_eq!(client, stream.as_bytes(), "read size {size}");
            assert_eq!(w.finish(End::Closed, 1.0).session.capture(), stream.as_bytes());
        }
    }

    #[test]
    fn a_late_answer_cuts_at_once_between_events_and_one_check_is_out_at_a_time() {
        let stream = looping_stream();
        let mut w = Watch::new(0.0, Shape::Stream, facts(Some(500)), Some(Verdict::Fail));
        let half = stream.len() / 2;
        let mut client = Vec::new();
        let mut out = None;
        // Reads 10 bytes apart in time; a check is asked for at the first chance and answered late.
        for (i, read) in stream.as_bytes()[..half].chunks(10).enumerate() {
            if let Step::Send(bytes) = w.on_data(read, i as f64) {
                client.extend(bytes);
            }
            if out.is_some() {
                assert!(w.check(i as f64 + 1e6).is_none(), "one check out at a time");
            } else if w.session.content_text().len() > 300 {
                out = w.check(i as f64);
                assert!(out.is_some());
            }
        }
        let received = client.len();
        assert!(received < half, "the last event is not whole yet: held");
        let Step::Cut(ending) = w.checked(out.unwrap().run(), 1e6) else { panic!("no cut") };
        assert!(ending.starts_with(b": coherency proxy") && ending.ends_with(b"data: [DONE]\n\n"));
        assert_eq!(&stream.as_bytes()[..received], &client[..], "whole events, then the ending");
        assert_eq!(w.on_data(b"data: more\n\n", 2e6), Step::Send(Vec::new()), "nothing after a cut");
        assert!(w.check(3e6).is_none());
    }

    #[test]
    fn a_cut_at_warn_stops_earlier_than_at_fail() {
        let stream = looping_stream();
        let (at_warn, _) = through_cut_mode(&stream, 64, Verdict::Warn);
        let (at_fail, _) = through_cut_mode(&stream, 64, Verdict::Fail);
        assert!(at_warn.len() <= at_fail.len());
    }

    #[test]
    fn an_event_longer_than_the_hold_limit_is_passed_on_and_the_cut_waits_for_its_end() {
        let mut stream = looping_stream();
        let huge = chunk(&"x".repeat(MAX_HELD + 10));
        stream.insert_str(stream.len() / 2, &huge);
        let (client, w) = through_cut_mode(&stream, 4096, Verdict::Fail);
        assert!(w.is_cut());
        let text = String::from_utf8(client).unwrap();
        let before = &text[..text.find(": coherency proxy").unwrap()];
        assert!(stream.starts_with(before) && before.ends_with("\n\n"));
    }

    #[test]
    fn a_json_reply_is_scored_when_it_ends_and_a_stream_cut_by_upstream_says_so() {
        let looped = "The lock is held.\n".repeat(60);
        let body = serde_json::json!({"id": "x", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": looped}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 300, "total_tokens": 305}});
        let pretty = serde_json::to_string_pretty(&body).unwrap();
        let mut w = Watch::new(0.0, Shape::Json, facts(None), Some(Verdict::Fail));
        for read in pretty.as_bytes().chunks(100) {
            assert_eq!(w.on_data(read, 1.0), Step::PassOn, "a whole reply is never cut");
        }
        let f = w.finish(End::Closed, 2.0);
        assert!(f.scored());
        assert_eq!(f.session.content_text(), looped);
        assert_eq!(f.session.reports().2.verdict, Verdict::Fail);
        assert_eq!(f.session.stats().tokens, 300);

        let mut s = Watch::new(0.0, Shape::Stream, facts(None), None);
        s.on_data(chunk("Hello").as_bytes(), 1.0);
        let f = s.finish(End::UpstreamFailed("connection reset".into()), 2.0);
        assert_eq!(f.end.key(false), "upstream-failed");
        assert_eq!(f.session.ending(), &Ending::Cut("the upstream failed: connection reset".into()));
    }
}
