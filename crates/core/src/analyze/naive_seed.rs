//! Naive twins of the seed's fast scanners (word runs, repeated lines), and the property tests that hold them equal.
//!
//! The oracles split the text the obvious way, one `char` at a time into owned vectors, and
//! count with a map; the fast code scans bytes incrementally. Any disagreement on any input
//! is a bug in the fast code (or in the oracle: both are short enough to read).

use super::text_units::{is_py_line_break, is_py_whitespace};
use super::{analyze, Analyzer, SpanKind};
use proptest::prelude::*;
use std::collections::HashMap;

/// `(start, end)` of each maximal run of chars not matching `sep`.
fn pieces(text: &str, sep: fn(char) -> bool, keep_empty: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if sep(c) {
            if keep_empty || i > start {
                out.push((start, i));
            }
            start = i + c.len_utf8();
        }
    }
    if start < text.len() {
        out.push((start, text.len()));
    }
    out
}

/// maxrun and every run of at least `min` identical words, as (start, end, count).
fn naive_word_runs(text: &str, min: usize) -> (usize, Vec<(usize, usize, usize)>) {
    let words = pieces(text, is_py_whitespace, false);
    let (mut best, mut spans, mut i) = (0, Vec::new(), 0);
    while i < words.len() {
        let mut j = i + 1;
        while j < words.len() && text[words[j].0..words[j].1] == text[words[i].0..words[i].1] {
            j += 1;
        }
        best = best.max(j - i);
        if j - i >= min {
            spans.push((words[i].0, words[j - 1].1, j - i));
        }
        i = j;
    }
    (best, spans)
}

/// maxline and every occurrence of a line seen at least `min` times, as (start, end, count),
/// occurrences said back to back merged.
fn naive_lines(text: &str, min: usize) -> (usize, Vec<(usize, usize, usize)>) {
    let lines: Vec<(usize, usize)> = pieces(text, is_py_line_break, true)
        .into_iter()
        .map(|(s, e)| {
            let line = &text[s..e];
            let t = line.trim_matches(is_py_whitespace);
            let off = s + line.find(t).unwrap_or(0);
            (off, off + t.len())
        })
        .filter(|(s, e)| e > s)
        .collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for &(s, e) in &lines {
        *counts.entry(&text[s..e]).or_default() += 1;
    }
    let best = counts.values().copied().max().unwrap_or(0);
    // Occurrences said back to back (the line before is the same, at the same distance as
    // before) are one span: (start, end, count, period, start of the last occurrence).
    let mut runs: Vec<(usize, usize, usize, Option<usize>, usize)> = Vec::new();
    for (k, &(s, e)) in lines.iter().enumerate() {
        let n = counts[&text[s..e]];
        if n < min {
            continue;
        }
        let before = k.checked_sub(1).map(|j| lines[j]).filter(|&(ps, pe)| text[ps..pe] == text[s..e]);
        match (runs.last_mut(), before) {
            (Some(run), Some((ps, _))) if run.4 == ps && run.3.is_none_or(|p| s - ps == p) => {
                *run = (run.0, e, n, Some(s - ps), s);
            }
            _ => runs.push((s, e, n, None, s)),
        }
    }
    (best, runs.into_iter().map(|(s, e, n, _, _)| (s, e, n)).collect())
}

fn spans_of(report: &super::Report, kind: SpanKind) -> Vec<(usize, usize, usize)> {
    report.spans.iter().filter(|s| s.kind == kind).map(|s| (s.start, s.end, s.count)).collect()
}

/// Texts built from pieces that stress the scanners: repeats, every kind of whitespace and
/// line break, multi-byte characters.
fn tricky_text() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "a", "a", "b", "ab", "the", " ", " ", "  ", "\n", "\n", "\r\n", "\r", "\t", "\u{3000}", "\u{85}", "\u{a0}",
        "\u{2028}", "\u{1c}", "\u{1f}", "\u{b}", "é", "🙂", "模", "a\n", "ab ab ", "x y\n",
    ];
    prop::collection::vec(prop::sample::select(PIECES), 0..300).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn fast_scanners_agree_with_the_naive_oracles(text in tricky_text()) {
        let r = analyze(&text);
        let t = r.thresholds;
        let (maxrun, runs) = naive_word_runs(&text, t.maxrun_warn);
        let (maxline, lines) = naive_lines(&text, t.maxline_warn);
        prop_assert_eq!(r.metrics.maxrun, maxrun);
        prop_assert_eq!(r.metrics.maxline, maxline);
        prop_assert_eq!(spans_of(&r, SpanKind::WordRun), runs);
        prop_assert_eq!(spans_of(&r, SpanKind::RepeatedLine), lines);
    }

    #[test]
    fn low_thresholds_flag_what_the_oracle_flags(text in tricky_text()) {
        // Thresholds of 1 and 2 flag nearly everything: the span bookkeeping gets a workout.
        let t = super::Thresholds { maxrun_warn: 2, maxline_warn: 1, ..super::Thresholds::SEED };
        let mut a = Analyzer::with_thresholds(t);
        a.push(&text);
        let r = a.report();
        prop_assert_eq!(spans_of(&r, SpanKind::WordRun), naive_word_runs(&text, 2).1);
        prop_assert_eq!(spans_of(&r, SpanKind::RepeatedLine), naive_lines(&text, 1).1);
    }

    #[test]
    fn pushing_in_pieces_gives_the_same_report(text in tricky_text(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12)) {
        let mut bounds: Vec<usize> = cuts.iter().map(|i| i.index(text.len() + 1)).filter(|&b| text.is_char_boundary(b)).collect();
        bounds.sort_unstable();
        let mut a = Analyzer::new();
        let mut from = 0;
        for b in bounds.into_iter().chain([text.len()]) {
            a.push(&text[from..b]);
            from = b;
            // A report in the middle must not disturb what follows.
            let _ = a.report();
        }
        prop_assert_eq!(a.report(), analyze(&text));
    }
}

#[test]
fn oracles_agree_with_python_on_a_hand_checked_text() {
    // Python: maxrun("a a\u3000a b") == 3; maxline("x\n x \r\ny") == 2.
    assert_eq!(naive_word_runs("a a\u{3000}a b", 99).0, 3);
    assert_eq!(naive_lines("x\n x \r\ny", 99).0, 2);
}
