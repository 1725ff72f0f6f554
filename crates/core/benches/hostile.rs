//! Hostile and odd inputs, each at two sizes (the second twice the first), read and judged as
//! the CLI and the page's worker do (`JudgedDocument::read`; a live stream fed one token per
//! network read as the page feeds `LiveSession`). Prints, per shape and size, the time and the
//! peak live heap per MB of input, the verdict, and the doubling ratio: time per MB at twice the
//! size ÷ time per MB at the size — about 1 for linear work, about 2 for quadratic. A counting
//! global allocator measures the heap; nothing is asserted (these machines are noisy).
//!
//! `cargo bench -p coherency-core --bench hostile -- --bench` (`HOSTILE_BENCH_MB=2`: 2 and 4 MB);
//! quick mode (64 and 128 KB, as `cargo bench-quick` runs it) without `--bench`.

use std::time::Instant;

use coherency_core::judge::JudgedDocument;
use coherency_core::live::{Ending, LiveSession};
use coherency_test_support::counting_alloc::{peak, reset_peak, Counting};
use coherency_test_support::textgen::Rng;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A shape: its name, and the input of about `n` bytes.
type Shape = (&'static str, fn(usize) -> Vec<u8>);

const SHAPES: &[Shape] = &[
    ("blank tail after a line", |n| format!("Here is the answer:{}", "\n".repeat(n)).into_bytes()),
    ("whitespace only", |n| " \n".repeat(n / 2).into_bytes()),
    ("x\\n repeated", |n| "x\n".repeat(n / 2).into_bytes()),
    ("random printable text", |n| {
        let mut rng = Rng::new(7);
        (0..n).map(|_| b' ' + (rng.below(95) as u8)).collect()
    }),
    ("tiny replies in a JSONL log", |n| {
        let mut out = String::new();
        for k in 0.. {
            if out.len() >= n {
                break;
            }
            let content = if k % 1000 == 7 { "answer number 100000".to_string() } else { format!("answer {k}") };
            let record = serde_json::json!({"id": format!("r{k}"), "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]});
            out += &record.to_string();
            out.push('\n');
        }
        out.into_bytes()
    }),
    ("JSON array of completions", |n| {
        let mut items = Vec::new();
        let mut len = 2;
        for k in 0.. {
            if len >= n {
                break;
            }
            let item = serde_json::json!({"id": format!("c{k}"), "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": format!("The reply number {k} says something.")}}]})
            .to_string();
            len += item.len() + 1;
            items.push(item);
        }
        format!("[{}]", items.join(",")).into_bytes()
    }),
    ("SSE: distinct tool-call ids", |n| {
        sse(n, |k| {
            serde_json::json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": k, "id": format!("call_{k}"),
                "function": {"name": "f", "arguments": "{}"}}]}}]})
        })
    }),
    ("SSE: distinct choice indexes", |n| {
        sse(n, |k| serde_json::json!({"choices": [{"index": k, "delta": {"content": "hi"}}]}))
    }),
    ("SSE: error chunks", |n| sse(n, |_| serde_json::json!({"error": {"message": "overloaded"}}))),
    ("SSE without blank lines", |n| {
        let mut out = String::new();
        let mut k = 0;
        while out.len() < n {
            let chunk =
                serde_json::json!({"choices": [{"index": 0, "delta": {"content": format!("word{} ", k % 97)}}]});
            out += &format!("data: {chunk}\n");
            k += 1;
        }
        out.into_bytes()
    }),
];

/// An SSE capture of about `n` bytes: chunk `k` is `chunk(k)`, then `[DONE]`.
fn sse(n: usize, chunk: impl Fn(usize) -> serde_json::Value) -> Vec<u8> {
    let mut out = String::new();
    let mut k = 0;
    while out.len() < n {
        out += &format!("data: {}\n\n", chunk(k));
        k += 1;
    }
    out += "data: [DONE]\n\n";
    out.into_bytes()
}

/// A live stream of about `n` bytes, one token per chunk, cut into one read per chunk.
fn live_reads(n: usize) -> Vec<Vec<u8>> {
    let mut reads = Vec::new();
    let mut len = 0;
    let mut k = 0;
    while len < n {
        let chunk = serde_json::json!({"choices": [{"index": 0, "delta": {"content": format!(" tok{}", k % 50)}}]});
        let read = format!("data: {chunk}\n\n").into_bytes();
        len += read.len();
        reads.push(read);
        k += 1;
    }
    reads
}

/// One measurement: bytes, milliseconds, peak heap beyond the input, and the verdict in words.
struct Run {
    bytes: usize,
    ms: f64,
    peak: usize,
    verdict: String,
}

fn judge(bytes: Vec<u8>) -> Run {
    let size = bytes.len();
    let base = reset_peak();
    let started = Instant::now();
    let doc = JudgedDocument::read(&bytes, None);
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let peak = peak().saturating_sub(base);
    let verdict = match (doc.no_text(), doc.report.verdict) {
        (Some(_), _) => "no text".to_string(),
        (None, Some(v)) if doc.report.all_too_short() => format!("{} (too short)", v.as_str()),
        (None, Some(v)) => format!("{} {}", v.as_str(), doc.detected.name()),
        (None, None) => "nothing".to_string(),
    };
    Run { bytes: size, ms, peak, verdict }
}

fn live(n: usize) -> Run {
    let reads = live_reads(n);
    let size = reads.iter().map(Vec::len).sum();
    let base = reset_peak();
    let started = Instant::now();
    let mut session = LiveSession::new(0.0);
    for (k, read) in reads.iter().enumerate() {
        session.feed(read, k as f64);
        std::hint::black_box(session.stats());
    }
    session.end(Ending::Closed, reads.len() as f64);
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let peak = peak().saturating_sub(base);
    let verdict = session.stats().stream.chunks.to_string() + " chunks";
    Run { bytes: size, ms, peak, verdict }
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let base: usize = if quick {
        64_000
    } else {
        std::env::var("HOSTILE_BENCH_MB")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .map_or(2_000_000, |mb| (mb * 1e6) as usize)
    };
    println!("hostile inputs: time and peak heap per MB at two sizes; ×2 = time per MB at twice the size ÷ at the size (1 linear, 2 quadratic)");
    println!("{:<30} {:>8} {:>10} {:>10} {:>6}  verdict", "shape", "MB", "ms/MB", "heap/MB", "×2");
    let row = |name: &str, runs: [Run; 2]| {
        let per_mb = |r: &Run| r.ms / (r.bytes as f64 / 1e6);
        let doubling = per_mb(&runs[1]) / per_mb(&runs[0]).max(1e-9);
        for (k, r) in runs.iter().enumerate() {
            let mb = r.bytes as f64 / 1e6;
            let ratio = if k == 1 { format!("{doubling:.2}") } else { String::new() };
            println!(
                "{:<30} {:>8.2} {:>10.1} {:>10.1} {:>6}  {}",
                if k == 0 { name } else { "" },
                mb,
                per_mb(r),
                r.peak as f64 / 1e6 / mb,
                ratio,
                r.verdict
            );
        }
    };
    for (name, make) in SHAPES {
        row(name, [judge(make(base)), judge(make(2 * base))]);
    }
    row("live: one token per read", [live(base), live(2 * base)]);
}
