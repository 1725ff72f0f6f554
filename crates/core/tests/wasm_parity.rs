//! wasm == native: in headless Chromium, the wasm build's report for each fixture under
//! tests/data must equal the golden JSON that tests/golden.rs holds the native build to.
//!
//! Run: `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test wasm_parity`
//! (.cargo/config.toml makes wasm-bindgen-test-runner the wasm32 runner).
#![cfg(target_arch = "wasm32")]

use coherency_core::analyze::{analyze, Verdict};
use coherency_core::samples::samples;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Every fixture with its golden report, byte-exact (mixed_unicode.txt keeps its CRLFs).
/// tests/golden.rs finds fixtures by listing tests/data; a new fixture must be added here too.
const FIXTURES: &[(&str, &str, &str)] = &[
    ("the_x4000", include_str!("data/the_x4000.txt"), include_str!("data/the_x4000.expected.json")),
    ("line_x400", include_str!("data/line_x400.txt"), include_str!("data/line_x400.expected.json")),
    ("mixed_unicode", include_str!("data/mixed_unicode.txt"), include_str!("data/mixed_unicode.expected.json")),
    ("warn_list", include_str!("data/warn_list.txt"), include_str!("data/warn_list.expected.json")),
    ("short", include_str!("data/short.txt"), include_str!("data/short.expected.json")),
];

#[wasm_bindgen_test]
fn every_fixture_gives_the_native_golden_report() {
    for (name, text, golden) in FIXTURES {
        assert_eq!(analyze(text).to_pretty_json(), *golden, "wasm report for {name} differs from its golden file");
    }
}

#[wasm_bindgen_test]
fn samples_get_the_verdicts_their_titles_promise() {
    let got: Vec<(&str, Verdict)> = samples().iter().map(|s| (s.id, analyze(&s.text).verdict)).collect();
    assert_eq!(
        got,
        [
            ("prose", Verdict::Pass),
            ("word-loop", Verdict::Fail),
            ("line-loop", Verdict::Fail),
            ("late-loop", Verdict::Fail),
            ("phrase-loop", Verdict::Fail),
            ("cjk-loop", Verdict::Fail),
            ("edited-loop", Verdict::Fail),
            ("counting-list", Verdict::Fail),
            ("restart", Verdict::Fail),
            ("drift", Verdict::Warn)
        ]
    );
}

#[wasm_bindgen_test]
fn line_loop_sample_has_its_repeated_lines_as_one_span() {
    let line_loop = samples().into_iter().find(|s| s.id == "line-loop").map(|s| s.text).unwrap_or_default();
    let report = analyze(&line_loop);
    assert_eq!(report.metrics.maxline, 200);
    assert_eq!(report.spans.len(), 2, "200 repeated lines back to back as one span, and the loop");
}
