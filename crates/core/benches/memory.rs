//! Peak heap of the worker's path, natively: a file's bytes read whole, parsed
//! (`ingest::parse_owned`) and analysed (`judge::judge_transcript`), for generated 10 MB and
//! 50 MB files (a JSONL request log, a plain text). Prints the peak of live heap bytes in each
//! phase (and what is live after parsing: the transcript; after analysing: transcript and
//! reports) as a multiple of the file size — the part of the page's memory that the core decides
//! (the page adds the wasm memory's growth slack, the handover to the page and the view). A
//! counting global allocator measures it; nothing is asserted.
//!
//! `cargo bench --bench memory -- --bench` (`MEMORY_BENCH_SIZES=10,50`); quick mode (1 MB)
//! without `--bench`.

use coherency_test_support::biglog;
use coherency_test_support::textgen;

use coherency_test_support::counting_alloc::{live, peak, reset_peak, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let sizes: Vec<usize> = if quick {
        vec![1]
    } else {
        std::env::var("MEMORY_BENCH_SIZES")
            .unwrap_or_else(|_| "10,50".into())
            .split(',')
            .filter_map(|s| s.trim().parse().ok())
            .collect()
    };
    println!("peak live heap ÷ file size, per phase (the file's bytes count as 1.0)");
    println!(
        "{:<20} {:>8} {:>8} {:>8} {:>9} {:>8} {:>9}",
        "file", "MB", "parse", "parsed", "analyse", "result", "messages"
    );
    for mb in sizes {
        for kind in ["jsonl", "text"] {
            let bytes = match kind {
                "jsonl" => biglog::generate_log(mb * 1_000_000).0,
                _ => coherency_test_support::grammar::english(&mut textgen::Rng::new(5), mb * 1_000_000).into_bytes(),
            };
            let size = bytes.len() as f64;
            let base = reset_peak() - bytes.len();
            let format = coherency_core::ingest::detect(&bytes);
            let transcript = coherency_core::ingest::parse_owned(bytes, format);
            let parse = (peak() - base) as f64 / size;
            let parsed = (reset_peak() - base) as f64 / size;
            let report = coherency_core::judge::judge_transcript(&transcript);
            let analyse = (peak() - base) as f64 / size;
            let result = (live() - base) as f64 / size;
            println!(
                "{:<20} {:>8.1} {:>8.2} {:>8.2} {:>9.2} {:>8.2} {:>9}",
                format!("{kind}-{mb}mb"),
                size / 1e6,
                parse,
                parsed,
                analyse,
                result,
                transcript.messages.len()
            );
            drop((transcript, report));
        }
        scorer_parts(mb);
    }
}

/// Each scorer's own peak on the plain text of `mb` MB, beyond the text (its tables).
fn scorer_parts(mb: usize) {
    use coherency_core::analyze::*;
    let text = coherency_test_support::grammar::english(&mut textgen::Rng::new(5), mb * 1_000_000);
    let n = text.len() as f64;
    let part = |name: &str, f: &mut dyn FnMut()| {
        let before = reset_peak();
        f();
        println!("  {name:<28} {:>6.2}", (peak() - before) as f64 / n);
    };
    let tokenized = tokens::Tokenized::new(&text);
    let toks = tokenized.tokens().unwrap_or_default();
    let ids = tokenized.ids();
    println!("text-{mb}mb by scorer ({} tokens, {} bytes each on this target):", toks.len(), size_of_val(&toks[0]));
    part("tokens", &mut || {
        std::hint::black_box(tokens::tokens(&text));
    });
    part("token ids", &mut || {
        std::hint::black_box(tokens::token_ids(&text, toks));
    });
    part("n-gram stats", &mut || {
        std::hint::black_box(ngram_stats::ngram_stats_of(ids));
    });
    part("copy coverage", &mut || {
        std::hint::black_box(copy_coverage::copy_coverage(&tokenized, None));
    });
    part("tandem repeats", &mut || {
        std::hint::black_box(tandem::tandems(&tokenized, tandem::line_best(&text)));
    });
    part("windowed profile", &mut || {
        std::hint::black_box(profile::profile(&text));
    });
    part("maxline", &mut || {
        std::hint::black_box(line_repeats::maxline(&text));
    });
    part("gzip size", &mut || {
        std::hint::black_box(gzip_ratio::gzip_size(text.as_bytes()));
    });
    drop(tokenized);
    part("loop checks (all of the above)", &mut || {
        std::hint::black_box(loop_checks::find(&text, Thresholds::SEED.loops));
    });
    part("analyze (the whole report)", &mut || {
        std::hint::black_box(analyze(&text));
    });
}
