//! Live scoring against a fast stream: CPU spent per second of stream.
//!
//! Simulates a server sending 10,000 small deltas per second (1–3 words each) for a few
//! seconds: the bytes arrive in 4 KiB reads and go through `SseDecoder` → `ChatAssembler` →
//! `Analyzer::push` (incremental), with full `Analyzer::report`s (one gzip-9 pass over the
//! text so far each) when the default `ReportPacer` says so: every 250 ms of stream time while
//! reports are cheap, further apart as they grow. Prints the processing time as a fraction of
//! the stream's wall time (aim: under 5 %), and what the reports alone cost. Without `--bench`
//! (as `cargo test --bench live` runs it) the stream is 1 s long.

use coherency_test_support::textgen;

use coherency_core::analyze::{Analyzer, ReportPacer};
use coherency_core::stream::{ChatAssembler, SseDecoder, SseEvent};
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
    let stream_time = Duration::from_secs(seconds as u64);

    let (mut decoder, mut assembler, mut analyzer) = (SseDecoder::new(), ChatAssembler::new(), Analyzer::new());
    let (mut pushed, mut chunks_seen, mut pacer) = (0usize, 0usize, ReportPacer::default());
    let (mut reports, mut report_time) = (0usize, Duration::ZERO);
    let started = Instant::now();
    for read in bytes.chunks(4096) {
        for event in decoder.feed(read) {
            if let SseEvent::Message(m) = event {
                let _ = assembler.push(&m.data, m.range.clone());
                chunks_seen += 1;
            }
        }
        if let Some(turn) = assembler.turns().first() {
            analyzer.push(&turn.content[pushed..]);
            pushed = turn.content.len();
        }
        // Stream time: the chunks so far arrived at DELTAS_PER_SECOND.
        let now_ms = chunks_seen as f64 * 1000.0 / DELTAS_PER_SECOND as f64;
        if pacer.due(now_ms) {
            let t = Instant::now();
            black_box(analyzer.report());
            let cost = t.elapsed();
            pacer.reported(now_ms, cost.as_secs_f64() * 1e3);
            report_time += cost;
            reports += 1;
        }
    }
    let t = Instant::now();
    let last = analyzer.report();
    report_time += t.elapsed();
    reports += 1;
    let busy = started.elapsed();

    println!(
        "{n} deltas over a {seconds} s stream ({:.1} MB of SSE, {:.0} KB of text), reports paced by ReportPacer::default()",
        bytes.len() as f64 / 1e6,
        pushed as f64 / 1e3,
    );
    println!(
        "processing {:.1} ms = {:.2} % of the stream's wall time (aim < 5 %); {} reports took {:.1} ms of it; final verdict {}",
        busy.as_secs_f64() * 1e3,
        100.0 * busy.as_secs_f64() / stream_time.as_secs_f64(),
        reports,
        report_time.as_secs_f64() * 1e3,
        last.verdict.as_str()
    );
}
