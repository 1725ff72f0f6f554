//! Golden reports: each `tests/data/NAME.txt` analysed natively must equal
//! `tests/data/NAME.expected.json`. The wasm build is held to the same files by
//! `tests/wasm_parity.rs`, so native and wasm give the same numbers.
//!
//! To refresh after an intended change: `UPDATE_GOLDEN=1 cargo test --test integration golden::`, then
//! review the diff (a difference fails with a unified diff: `coherency_test_support::golden`).

use std::fs;
use std::path::Path;

use coherency_test_support::golden::assert_golden;

fn check(txt: &Path) {
    let text = fs::read_to_string(txt).unwrap();
    let got = coherency_core::analyze::analyze(&text).to_pretty_json();
    assert_golden(&Path::new(env!("CARGO_MANIFEST_DIR")).join(txt.with_extension("expected.json")), &got);
}

#[test]
fn every_fixture_matches_its_golden_report() {
    let mut n = 0;
    for entry in fs::read_dir("tests/data").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            check(&path);
            n += 1;
        }
    }
    assert!(n >= 5, "expected the fixtures under tests/data, found {n}");
}
