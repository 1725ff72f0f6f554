//! Golden reports: each `tests/data/NAME.txt` analysed natively must equal
//! `tests/data/NAME.expected.json`. The wasm build is held to the same files by
//! `tests/wasm_parity.rs`, so native and wasm give the same numbers.
//!
//! To refresh after an intended change: `UPDATE_GOLDEN=1 cargo test --test integration golden::`, then
//! review the diff.

use std::fs;
use std::path::Path;

fn check(txt: &Path) {
    let text = fs::read_to_string(txt).unwrap();
    let got = coherency_core::analyze::analyze(&text).to_pretty_json();
    let golden = txt.with_extension("expected.json");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&golden, &got).unwrap();
        return;
    }
    let want = fs::read_to_string(&golden)
        .unwrap_or_else(|_| panic!("{} is missing: run with UPDATE_GOLDEN=1", golden.display()));
    assert_eq!(got, want, "report for {} differs from its golden file", txt.display());
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
