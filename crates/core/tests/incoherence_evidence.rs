//! Evidence for the incoherence checks (issue 33): the labelled incoherent texts and their
//! look-alikes (`coherency_test_support::incoherent`) judged, as a confusion table per label
//! (PASS / WARN / FAIL of the incoherence checks, and of the whole report) with the onset error.
//!
//! `cargo test --test incoherence_evidence -- --nocapture` prints it; `EVIDENCE_1MB=1` adds the
//! 1 MB texts. Pinned: every planted leak and soup FAILs its check with the report's onset
//! where it was planted; no look-alike trips an incoherence check (a WARN is a defect); the
//! loop corpus (`labelled`) trips none either; pushing in pieces gives the report of one push.

use coherency_core::analyze::{analyze, Analyzer, Metric, Report, Verdict};
use coherency_test_support::{incoherent, labelled};
use std::collections::BTreeMap;
use std::fmt::Write;

fn lengths() -> Vec<usize> {
    let mut l = vec![100, 300, 1000, 3000, 10_000, 100_000];
    if std::env::var_os("EVIDENCE_1MB").is_some() {
        l.push(1_000_000);
    }
    l
}

/// The worst level of the incoherence checks.
fn incoherence_level(r: &Report) -> Verdict {
    [Metric::TemplateLeak, Metric::TokenSoup, Metric::WordSalad, Metric::Drift]
        .iter()
        .map(|&m| r.check(m).level)
        .max()
        .unwrap_or(Verdict::Pass)
}

/// How far the onset may lie from the planted one: a leak's marker is found exactly (a bare
/// role line after its blank line); soup and salad from their first odd word, a few words in.
fn tolerance(class: &str) -> usize {
    match class {
        "template_leak" => 4,
        // Drift is placed after the opening's last topic word, within a paragraph or so.
        "drift" => 1000,
        _ => 200,
    }
}

/// A label's row: [PASS, WARN, FAIL] of the incoherence checks, of the whole report, and the
/// worst onset error.
type Row = ([usize; 3], [usize; 3], usize);

#[test]
fn incoherent_texts_fail_at_their_onset_and_look_alikes_pass() {
    let corpus = incoherent::corpus(&lengths());
    let mut table: BTreeMap<(bool, &str), Row> = BTreeMap::new();
    let mut problems = Vec::new();
    for case in &corpus {
        let r = analyze(&case.text);
        let level = incoherence_level(&r);
        let failure = !case.class.is_empty();
        let row = table.entry((!failure, case.label)).or_insert(([0; 3], [0; 3], 0));
        row.0[level as usize] += 1;
        row.1[r.verdict as usize] += 1;
        if failure {
            let metric = match case.class {
                "template_leak" => Metric::TemplateLeak,
                "token_soup" => Metric::TokenSoup,
                "word_salad" => Metric::WordSalad,
                _ => Metric::Drift,
            };
            let planted = case.onset.expect("a failure has an onset");
            let error = r.onset.map_or(usize::MAX, |o| o.abs_diff(planted));
            row.2 = row.2.max(error);
            // Drift alone is a WARN.
            let want = if metric == Metric::Drift { Verdict::Warn } else { Verdict::Fail };
            if r.check(metric).level != want || r.verdict != want {
                problems.push(format!("{} {} B: {:?}, not {want:?}: {:?}", case.label, case.target, level, r.reasons));
            } else if error > tolerance(case.class) {
                problems.push(format!("{} {} B: onset {:?}, planted {planted}", case.label, case.target, r.onset));
            }
        } else if level != Verdict::Pass {
            problems.push(format!("{} {} B: a look-alike {:?}: {:?}", case.label, case.target, level, r.reasons));
        }
    }
    let mut out = String::new();
    writeln!(
        out,
        "{:<22} {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}   {:>6}",
        "label", "PASS", "WARN", "FAIL", "PASS", "WARN", "FAIL", "onset±"
    )
    .unwrap();
    writeln!(out, "{:<22} {:^17}   {:^17}", "", "incoherence checks", "whole report").unwrap();
    for ((_, label), (mine, whole, error)) in &table {
        let error = if *error == 0 && mine[2] == 0 { "-".to_string() } else { error.to_string() };
        writeln!(
            out,
            "{label:<22} {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}   {error:>6}",
            mine[0], mine[1], mine[2], whole[0], whole[1], whole[2]
        )
        .unwrap();
    }
    println!("{out}");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_loop_corpus_trips_no_incoherence_check() {
    for t in labelled::corpus(&[60, 300, 3000, 30_000]) {
        let r = analyze(&t.text);
        assert_eq!(incoherence_level(&r), Verdict::Pass, "{} {} B: {:?}", t.label, t.target, r.reasons);
    }
}

#[test]
fn pushed_in_pieces_the_report_is_the_same() {
    for case in incoherent::corpus(&[300, 3000]) {
        let whole = analyze(&case.text);
        let mut a = Analyzer::new();
        let mut at = 0;
        let mut step = 1;
        while at < case.text.len() {
            let mut end = (at + step).min(case.text.len());
            while !case.text.is_char_boundary(end) {
                end += 1;
            }
            a.push(&case.text[at..end]);
            at = end;
            step = step * 3 % 97 + 1;
        }
        assert_eq!(a.report(), whole, "{} {} B", case.label, case.target);
    }
}
