//! Speed of the new scorers (tandem repeats, copy coverage, windowed profile, n-gram figures)
//! against one gzip-9 pass over the same bytes.
//!
//! `cargo bench --bench scorers` prints, for generated 1, 10 and 50 MB texts (prose, prose
//! turning into a loop halfway, Chinese-like prose, "NoNoNo…"), the best-of-N time of each scorer, of all
//! four together, and of one flate2 gzip-9 pass, and the ratio all / gzip. The issue aims at
//! ≤ 1.5 × gzip for everything (the seed's analysis included) on 10 MB. Without `--bench`
//! (as under `cargo test --benches`) only 1 MB is measured, once.

#[path = "support/gzip_pass.rs"]
mod gzip_pass;
#[path = "../tests/support/labelled.rs"]
mod labelled;
#[path = "../tests/support/textgen.rs"]
mod textgen;
#[path = "support/timing.rs"]
mod timing;

use coherency::analyze::{copy_coverage, ngram_stats, profile, tandem};
use gzip_pass::gzip_pass;
use std::hint::black_box;
use textgen::{prose, prose_turning_into_loop, Rng, WORDS};
use timing::best_of;

/// All four, sharing the tokens between copy coverage and the n-gram figures (as the analyzer
/// will when they are wired in).
fn all(text: &str) {
    black_box(tandem::tandems(text));
    let toks = ngram_stats::tokens(text);
    black_box(copy_coverage::copy_coverage_of(text, &toks));
    black_box(profile::profile(text));
    let ids: Vec<u64> = toks.iter().map(|t| t.id).collect();
    black_box(ngram_stats::ngram_stats_of(&ids));
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    println!(
        "{:<12} {:>5} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7}",
        "input", "MB", "tandem", "copy", "profile", "ngram", "all ms", "gzip-9", "all/gz"
    );
    for &mb in if quick { &[1usize][..] } else { &[1, 10, 50][..] } {
        let len = mb * 1_000_000;
        let mut rng = Rng(42);
        let inputs = [
            ("prose", prose(&mut rng, len, WORDS, " ")),
            ("prose→loop", prose_turning_into_loop(&mut rng, len)),
            ("cjk prose", labelled::cjk_prose(&mut rng, len)),
            // The worst case of the tandem scan: every even period up to the bound matches.
            ("NoNo loop", "No".repeat(len / 2)),
        ];
        let runs = if quick || mb >= 50 {
            1
        } else if mb >= 10 {
            2
        } else {
            3
        };
        for (name, text) in &inputs {
            let t = best_of(runs, || {
                black_box(tandem::tandems(text));
            });
            let c = best_of(runs, || {
                black_box(copy_coverage::copy_coverage(text));
            });
            let p = best_of(runs, || {
                black_box(profile::profile(text));
            });
            let g = best_of(runs, || {
                black_box(ngram_stats::ngram_stats(text));
            });
            let a = best_of(runs, || all(text));
            let gz = best_of(runs, || {
                black_box(gzip_pass(text.as_bytes()));
            });
            println!(
                "{:<12} {:>5.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>7.2}",
                name,
                text.len() as f64 / 1e6,
                ms(t),
                ms(c),
                ms(p),
                ms(g),
                ms(a),
                ms(gz),
                a.as_secs_f64() / gz.as_secs_f64()
            );
        }
    }
}
