//! Speed of ingest (+ per-message analysis) of a JSONL request/response log, against
//! serde_json merely parsing every line of the same file.
//!
//! `cargo bench --bench ingest` generates a ~50 MB log in memory (thousands of conversations:
//! system, user and history messages, replies with reasoning and content, some of them
//! looping) and prints best-of-3 times and MB/s for: serde_json parsing each line into a
//! `Value`, `ingest::read` (detection + parsing into a transcript), and `ingest::read` +
//! `judge_transcript`. The aim is ingest < 2 × the plain parse. Analysis runs a gzip-9 pass
//! over every distinct message, so the last line is bounded by gzip, not by ingest.
//!
//! Then a chat-completion SSE capture of the same size, read whole (`ingest::read`) and the
//! way the live endpoint mode reads it (16 KiB reads into the `SsePump`: the SSE decoder, each
//! event into the chat assembler), with the cost per chunk. Without `--bench` (as
//! `cargo test --benches` runs it) it uses ~2 MB and one run.

use coherency_test_support::biglog;
use coherency_test_support::textgen;
use coherency_test_support::timing;

use biglog::generate_log;
use coherency_core::ingest;
use coherency_core::judge::judge_transcript;
use coherency_core::stream::{ChatAssembler, SsePump};
use serde_json::json;
use std::hint::black_box;
use textgen::{prose, Rng, WORDS};
use timing::best_of;

/// A chat-completion SSE capture of about `target` bytes: reasoning then content, a few
/// words per chunk. Returns the bytes and the number of chunks.
fn generate_sse(target: usize) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(11);
    let mut out = Vec::with_capacity(target + 1000);
    let mut n = 0;
    while out.len() < target {
        let field = if n % 1000 < 600 { "reasoning_content" } else { "content" };
        let piece = prose(&mut rng, 12, WORDS, " ") + " ";
        let chunk = json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1790000000, "model": "m",
            "choices": [{"index": 0, "delta": {field: piece}, "finish_reason": null}]});
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(serde_json::to_string(&chunk).unwrap_or_default().as_bytes());
        out.extend_from_slice(b"\n\n");
        n += 1;
    }
    out.extend_from_slice(b"data: [DONE]\n\n");
    (out, n)
}

/// What the live endpoint mode does with a response body: network-sized reads into the pump
/// (decoder, each event into the assembler).
fn live(bytes: &[u8]) -> usize {
    let mut pump = SsePump::new(ChatAssembler::new());
    for read in bytes.chunks(16 * 1024) {
        black_box(pump.feed(read));
    }
    black_box(pump.end_input());
    pump.turns().iter().map(|t| t.content.len() + t.reasoning.len()).sum()
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let (mb, runs) = if quick { (2, 1) } else { (50, 3) };
    let (log, records) = generate_log(mb * 1_000_000);
    let size = log.len() as f64 / 1e6;

    let parse = best_of(runs, || {
        for line in log.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            black_box(serde_json::from_slice::<serde_json::Value>(line).ok());
        }
    });
    let mut messages = 0;
    let ingest = best_of(runs, || messages = black_box(ingest::read(&log)).messages.len());
    let mut verdict = None;
    let full = best_of(runs, || {
        let t = ingest::read(&log);
        verdict = black_box(judge_transcript(&t)).verdict;
    });

    println!("JSONL log: {size:.1} MB, {records} records, {messages} messages, overall verdict {verdict:?}");
    println!("{:<34} {:>10} {:>10} {:>10}", "pass", "ms", "MB/s", "× parse");
    for (name, d) in
        [("serde_json::Value per line", parse), ("ingest::read", ingest), ("ingest::read + judge_transcript", full)]
    {
        let s = d.as_secs_f64();
        println!("{:<34} {:>10.1} {:>10.1} {:>10.2}", name, s * 1e3, size / s, s / parse.as_secs_f64());
    }

    let (sse, chunks) = generate_sse(mb * 1_000_000);
    let size = sse.len() as f64 / 1e6;
    let whole = best_of(runs, || {
        black_box(ingest::read(&sse));
    });
    let streamed = best_of(runs, || {
        black_box(live(&sse));
    });
    println!();
    println!("SSE capture: {size:.1} MB, {chunks} chunks");
    println!("{:<34} {:>10} {:>10} {:>10}", "pass", "ms", "MB/s", "µs/chunk");
    for (name, d) in [("ingest::read", whole), ("16 KiB reads → SsePump", streamed)] {
        let s = d.as_secs_f64();
        println!("{:<34} {:>10.1} {:>10.1} {:>10.3}", name, s * 1e3, size / s, s * 1e6 / chunks as f64);
    }
}
