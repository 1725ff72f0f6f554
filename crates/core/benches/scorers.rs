//! Speed of the loop scorers (tandem repeats, copy coverage, windowed profile, n-gram figures)
//! and of the whole analysis, against one gzip-9 pass over the same bytes.
//!
//! `cargo bench --bench scorers` prints, for generated 1, 10 and 50 MB texts (prose, prose
//! turning into a loop halfway, Chinese-like prose, "NoNoNo…"), the best-of-N time of each
//! scorer, of the loop checks together (`loop_checks::find`: tokens shared), of the whole
//! `analyze` (the seed's three with its exact gzip-9 pass, plus the loop checks), and of one
//! flate2 gzip-9 pass, with the ratios loops / gzip and analyze / gzip. The aim is analyze ≤
//! 1.5 × gzip on 10 MB. Without `--bench` (as under `cargo test --benches`) only 1 MB is
//! measured, once.

use coherency_test_support::gzip_pass;
use coherency_test_support::labelled;
use coherency_test_support::textgen;
use coherency_test_support::timing;

use coherency_core::analyze::{analyze, copy_coverage, loop_checks, ngram_stats, profile, tandem, tokens, Thresholds};
use coherency_test_support::grammar::{english, english_turning_into_loop};
use gzip_pass::gzip_pass;
use std::hint::black_box;
use textgen::Rng;
use timing::best_of;

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    println!(
        "{:<12} {:>5} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9} {:>8} {:>8}",
        "input", "MB", "tandem", "copy", "profile", "ngram", "loops ms", "analyze", "gzip-9", "loops/gz", "anl/gz"
    );
    for &mb in if quick { &[1usize][..] } else { &[1, 10, 50][..] } {
        let len = mb * 1_000_000;
        let mut rng = Rng::new(42);
        let inputs = [
            ("prose", english(&mut rng, len)),
            ("prose→loop", english_turning_into_loop(&mut rng, len)),
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
                black_box(tandem::tandems(&tokens::Tokenized::new(text), tandem::line_best(text)));
            });
            let c = best_of(runs, || {
                black_box(copy_coverage::copy_coverage(&tokens::Tokenized::new(text), None));
            });
            let p = best_of(runs, || {
                black_box(profile::profile(text));
            });
            let g = best_of(runs, || {
                black_box(ngram_stats::ngram_stats(text));
            });
            let a = best_of(runs, || {
                black_box(loop_checks::find(text, Thresholds::SEED.loops));
            });
            let whole = best_of(runs, || {
                black_box(analyze(text));
            });
            let gz = best_of(runs, || {
                black_box(gzip_pass(text.as_bytes()));
            });
            println!(
                "{:<12} {:>5.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>9.1} {:>9.1} {:>9.1} {:>8.2} {:>8.2}",
                name,
                text.len() as f64 / 1e6,
                ms(t),
                ms(c),
                ms(p),
                ms(g),
                ms(a),
                ms(whole),
                ms(gz),
                a.as_secs_f64() / gz.as_secs_f64(),
                whole.as_secs_f64() / gz.as_secs_f64()
            );
        }
    }
}
