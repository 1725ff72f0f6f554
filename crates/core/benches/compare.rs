//! A 100-prompt golden file compared with a 100-generation soak captures file, as
//! `coherency compare golden.jsonl captures.jsonl` does it: both files read (the golden's JSON
//! lines, each capture through the SSE pump with its logprobs), the prompts aligned and compared,
//! the figures judged, and the text and JSON reports made. 500 tokens a prompt with 5 top
//! logprobs each; half the prompts part. Prints the time of each step and the whole; the aim is
//! under a second (docs/compare.md). Without `--bench` (`cargo test --bench compare`) it runs
//! 10 prompts once and prints nothing timed.

use coherency_core::analyze::CompareRules;
use coherency_core::compare::{golden_file, read_outputs, CompareReport};
use coherency_core::ingest::LIVE_CAPTURES_LINE_START;
use coherency_core::render::compare_json::compare_json;
use coherency_core::render::compare_text::compare_text;
use coherency_test_support::timing::best_of;
use serde_json::json;
use std::hint::black_box;
use std::time::Instant;

const TOKENS: usize = 500;
const TOP: usize = 5;

/// A streamed reply of prompt `p`: a token a chunk with its logprobs, parting at `part`.
fn stream(p: usize, drift: f64, part: Option<usize>) -> String {
    let mut out = String::new();
    for k in 0..TOKENS {
        let token = if Some(k) == part { " parted".to_string() } else { format!(" w{}", (p * 7 + k * 13) % 997) };
        let lp = -0.3 - ((p + k) % 17) as f64 * 0.05 - drift * k as f64;
        let top: Vec<_> = (0..TOP)
            .map(
                |i| json!({"token": if i == 0 { token.clone() } else { format!(" alt{i}") }, "logprob": lp - i as f64}),
            )
            .collect();
        let chunk = json!({"model": "m", "choices": [{"index": 0, "delta": {"content": token},
            "logprobs": {"content": [{"token": token, "logprob": lp, "bytes": null, "top_logprobs": top}]}}]});
        out += &format!("data: {chunk}\n\n");
    }
    out += "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":40}}\n\ndata: [DONE]\n\n";
    out
}

/// A soak's captures file of `n` generations, one per prompt.
fn captures(n: usize, drift: f64, parts: bool) -> String {
    (0..n)
        .map(|p| {
            let part = (parts && p % 2 == 1).then_some(TOKENS - 1 - p * 3 % TOKENS);
            let sse = serde_json::to_string(&stream(p, drift, part)).unwrap_or_default();
            format!("{LIVE_CAPTURES_LINE_START}\"generation\":{{\"index\":{p},\"config\":\"\",\"url\":\"http://127.0.0.1:1/v1\",\"model\":\"m\",\"prompt\":{p},\"seed\":{p}}},\"sse\":{sse}}}\n")
        })
        .collect()
}

fn main() {
    let benching = std::env::args().any(|a| a == "--bench");
    let n = if benching { 100 } else { 10 };
    let reference = captures(n, 0.0, false);
    let golden = golden_file(&read_outputs("ref", reference.as_bytes()).outputs);
    let candidate = captures(n, 0.0001, true);
    let run = || {
        let g = read_outputs("golden.jsonl", golden.as_bytes());
        let c = read_outputs("captures.jsonl", candidate.as_bytes());
        let report = CompareReport::new(
            ("golden.jsonl", &g.outputs),
            (vec!["captures.jsonl".into()], &c.outputs),
            None,
            CompareRules::DEFAULT,
            Vec::new(),
        );
        black_box((compare_text(&report), compare_json(&report)));
        report
    };
    let report = run();
    assert_eq!(report.comparison.prompts.len(), n, "every prompt paired");
    assert_eq!(report.comparison.parted, n / 2);
    if !benching {
        return;
    }
    let mb = |s: &str| s.len() as f64 / 1e6;
    println!(
        "compare: {n} prompts × {TOKENS} tokens, top {TOP}: golden {:.1} MB, captures {:.1} MB",
        mb(&golden),
        mb(&candidate)
    );
    let read_golden = best_of(3, || {
        black_box(read_outputs("golden.jsonl", golden.as_bytes()));
    });
    let read_captures = best_of(3, || {
        black_box(read_outputs("captures.jsonl", candidate.as_bytes()));
    });
    let whole = best_of(3, || {
        black_box(run());
    });
    let start = Instant::now();
    black_box(run());
    println!("  read the golden file     {:>8.1} ms", read_golden.as_secs_f64() * 1e3);
    println!("  read the captures file   {:>8.1} ms", read_captures.as_secs_f64() * 1e3);
    println!(
        "  the whole comparison     {:>8.1} ms (best of 3; one more run: {:.1} ms) — aim: under 1,000 ms",
        whole.as_secs_f64() * 1e3,
        start.elapsed().as_secs_f64() * 1e3
    );
}
