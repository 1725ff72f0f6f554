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
//!
//! Then the concurrent case a soak run makes: 4 streams at once, 2,000 tokens per second each
//! (one token a chunk, each chunk its own read), four `LiveSession`s fed the reads interleaved
//! in the order of their timestamps, each reported in full at its end (the soak's row). Prints
//! the scoring time as a share of the wall time (must be under 5 %; with `--bench` it fails
//! over it); and the same streams as if each were shown live, with paced reports (printed
//! only: four pacers of 3 % each may spend up to 12 %).
//!
//! Without `--bench` (as `cargo test --bench live` runs it) the streams are short and nothing
//! timed is asserted.

use coherency_test_support::textgen;

use coherency_core::live::{Ending, LiveSession};
use coherency_test_support::grammar::english_turning_into_loop;
use serde_json::json;
use std::hint::black_box;
use std::time::{Duration, Instant};
use textgen::Rng;

const DELTAS_PER_SECOND: usize = 10_000;
/// The concurrent case: streams at once, and tokens per second of each.
const STREAMS: usize = 4;
const TOKENS_PER_SECOND: usize = 2_000;

/// The SSE events of `n` chat-completion chunks of 1 to `most` words each (the last followed
/// by `[DONE]`), from the generator seeded with `seed`: one event per chunk.
fn chunks(n: usize, most: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    let text = english_turning_into_loop(&mut rng, n * (4 * most + 2));
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    let mut out = Vec::with_capacity(n);
    let mut w = 0;
    for i in 0..n {
        let take = 1 + rng.below(most);
        let delta: String = words[w % words.len()..(w + take).min(words.len())].concat();
        w = (w + take) % words.len();
        let chunk = json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1_790_000_000u64,
            "model": "m", "choices": [{"index": 0, "delta": {"content": delta}, "finish_reason": null}]});
        let mut event = format!("data: {chunk}\n\n").into_bytes();
        if i == n - 1 {
            event.extend_from_slice(b"data: [DONE]\n\n");
        }
        out.push(event);
    }
    out
}

/// An SSE capture of `n` chat-completion chunks of 1–3 words each, plus `[DONE]`.
fn capture(n: usize) -> Vec<u8> {
    chunks(n, 3, 11).concat()
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    one_fast_stream(quick);
    concurrent_streams(quick);
}

/// Four streams at 2,000 tokens/s each, their reads interleaved by timestamp: as a soak runs
/// them (each read fed, one full report at each stream's end, as `Generation::of` takes it;
/// asserted), then as if each were shown live (paced reports too; printed).
fn concurrent_streams(quick: bool) {
    let seconds = if quick { 0.25 } else { 10.0 };
    let n = (TOKENS_PER_SECOND as f64 * seconds) as usize;
    // Each stream's chunks, the k-th stream's a quarter of a token's time after the one before.
    let streams: Vec<Vec<Vec<u8>>> = (0..STREAMS).map(|k| chunks(n, 1, 21 + k as u64)).collect();
    let token_ms = 1000.0 / TOKENS_PER_SECOND as f64;
    let mut reads: Vec<(f64, usize, usize)> = (0..STREAMS)
        .flat_map(|k| (0..n).map(move |i| ((i + 1) as f64 * token_ms + k as f64 * token_ms / STREAMS as f64, k, i)))
        .collect();
    reads.sort_by(|a, b| a.0.total_cmp(&b.0));
    let bytes: usize = streams.iter().flatten().map(Vec::len).sum();
    println!(
        "{STREAMS} concurrent streams at {TOKENS_PER_SECOND} tokens/s each over {seconds} s ({} chunks, {:.1} MB of SSE, \
         each chunk its own read, interleaved by timestamp) through {STREAMS} LiveSessions",
        reads.len(),
        bytes as f64 / 1e6,
    );
    for paced in [false, true] {
        let run = Concurrent::run(&streams, &reads, paced);
        let share = 100.0 * run.busy.as_secs_f64() / seconds;
        println!(
            "{}: scoring {:.1} ms = {share:.2} % of the wall time{}: feeding {:.1} ms, {} reports {:.1} ms; verdicts {}",
            if paced { "each shown live (paced reports)" } else { "as a soak runs them" },
            run.busy.as_secs_f64() * 1e3,
            if paced { "" } else { " (must be < 5 %)" },
            run.busy.saturating_sub(run.report_time).as_secs_f64() * 1e3,
            run.reports,
            run.report_time.as_secs_f64() * 1e3,
            run.verdicts.join(" "),
        );
        // Not timed: every chunk was read, and prose turning into a loop FAILs.
        assert_eq!(run.chunks, STREAMS * n, "a chunk went missing");
        assert!(run.verdicts.iter().all(|v| *v == "FAIL"), "prose turning into a loop must FAIL: {:?}", run.verdicts);
        if !quick && !paced {
            assert!(share < 5.0, "scoring took {share:.2} % of the wall time of 4 streams at 2,000 tokens/s each");
        }
    }
}

/// What one pass of the concurrent case measured.
struct Concurrent {
    busy: Duration,
    report_time: Duration,
    reports: usize,
    chunks: usize,
    verdicts: Vec<&'static str>,
}

impl Concurrent {
    /// Feeds `reads` (time, stream, chunk) into one session per stream; `paced`: each also
    /// reported whenever its pacer says one is due.
    fn run(streams: &[Vec<Vec<u8>>], reads: &[(f64, usize, usize)], paced: bool) -> Concurrent {
        let mut sessions: Vec<LiveSession> = streams.iter().map(|_| LiveSession::new(0.0)).collect();
        let (mut reports, mut report_time) = (0usize, Duration::ZERO);
        let started = Instant::now();
        for s in &mut sessions {
            s.headers(0.0);
        }
        for &(now_ms, k, i) in reads {
            let session = &mut sessions[k];
            session.feed(&streams[k][i], now_ms);
            if paced && session.report_due(now_ms) {
                let t = Instant::now();
                black_box(session.reports());
                let cost = t.elapsed();
                session.reported(now_ms, cost.as_secs_f64() * 1e3);
                report_time += cost;
                reports += 1;
            }
        }
        let last_ms = reads.last().map_or(0.0, |r| r.0);
        let mut verdicts = Vec::new();
        for s in &mut sessions {
            s.end(Ending::Closed, last_ms);
            let t = Instant::now();
            verdicts.push(black_box(s.reports()).2.verdict.as_str());
            report_time += t.elapsed();
            reports += 1;
        }
        let busy = started.elapsed();
        let chunks = sessions.iter().map(|s| s.stats().stream.chunks).sum();
        Concurrent { busy, report_time, reports, chunks, verdicts }
    }
}

/// One stream of 10,000 deltas a second, in 4 KiB reads.
fn one_fast_stream(quick: bool) {
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
