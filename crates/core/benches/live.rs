//! Live scoring against a fast stream: CPU spent per second of stream, through the page's own
//! path, [`LiveSession`].
//!
//! Simulates a server sending 10,000 small deltas per second (1–3 words each) for a few
//! seconds: the bytes arrive in 4 KiB reads and go into `LiveSession::feed` (SSE decoder →
//! chat assembler → the incremental analyzers of the reasoning, the answer and both), with the
//! full reports the page takes (`LiveSession::reports`: one gzip-9 pass over each text so far)
//! whenever the session's pacer says one is due, and once more at the end. Prints the
//! processing time as a fraction of the stream's wall time (aim: under 5 %), split into
//! feeding (which should grow with the bytes read, not with the text so far) and reports.
//! Without `--bench` (as `cargo test --bench live` runs it) the stream is 1 s long.

use coherency_test_support::textgen;

use coherency_core::live::{Ending, LiveSession};
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};
use textgen::{prose_turning_into_loop, Rng};

const DELTAS_PER_SECOND: usize = 10_000;

/// An SSE capture of `n` chat-completion chunks of 1–3 words each, plus `[DONE]`.
fn capture(n: usize) -> Vec<u8> {
    let mut rng = Rng(11);
    let text = prose_turning_into_loop(&mut rng, n * 14);
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    let mut out = Vec::new();
    let mut w = 0;
    for i in 0..n {
        let take = 1 + rng.below(3);
        let delta: String = words[w % words.len()..(w + take).min(words.len())].concat();
        w = (w + take) % words.len();
        let chunk = json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1_790_000_000u64,
            "model": "m", "choices": [{"index": 0, "delta": {"content": delta}, "finish_reason": null}]});
        out.extend_from_slice(format!("data: {chunk}\n\n").as_bytes());
        if i == n - 1 {
            out.extend_from_slice(b"data: [DONE]\n\n");
        }
    }
    out
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let seconds = if quick { 1 } else { 5 };
    let n = DELTAS_PER_SECOND * seconds;
    let bytes = capture(n);
    let stream_ms = seconds as f64 * 1000.0;

    let mut session = LiveSession::new(0.0);
    let (mut reports, mut report_time) = (0usize, Duration::ZERO);
    let mut report = |session: &mut LiveSession, now_ms: f64| {
        let t = Instant::now();
        black_box(session.reports());
        let cost = t.elapsed();
        session.reported(now_ms, cost.as_secs_f64() * 1e3);
        report_time += cost;
        reports += 1;
    };
    let started = Instant::now();
    session.headers(0.0);
    let mut read_end = 0;
    for read in bytes.chunks(4096) {
        read_end += read.len();
        // Stream time: the bytes so far arrived evenly over the stream.
        let now_ms = stream_ms * read_end as f64 / bytes.len() as f64;
        session.feed(read, now_ms);
        if session.report_due(now_ms) {
            report(&mut session, now_ms);
        }
    }
    session.end(Ending::Closed, stream_ms);
    report(&mut session, stream_ms);
    let busy = started.elapsed();
    let feeding = busy.saturating_sub(report_time);
    let verdict = session.reports().1.verdict;

    let share = |d: Duration| 100.0 * d.as_secs_f64() / (stream_ms / 1e3);
    println!(
        "{n} deltas over a {seconds} s stream ({:.1} MB of SSE, {:.0} KB of text) in 4 KiB reads through LiveSession",
        bytes.len() as f64 / 1e6,
        session.content_text().len() as f64 / 1e3,
    );
    println!(
        "processing {:.1} ms = {:.2} % of the stream's wall time (aim < 5 %): feeding {:.1} ms ({:.2} %), \
         {} paced reports {:.1} ms ({:.2} %); final verdict {}",
        busy.as_secs_f64() * 1e3,
        share(busy),
        feeding.as_secs_f64() * 1e3,
        share(feeding),
        reports,
        report_time.as_secs_f64() * 1e3,
        share(report_time),
        verdict.as_str()
    );
}
