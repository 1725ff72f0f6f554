//! Naive twins of the loop scorers (tandem repeats, copy coverage, n-gram figures), and the
//! property tests that hold them equal on small inputs.
//!
//! The oracles try every period at every position and compare strings, never hashes; they
//! are O(n²) or worse, and short enough to read.

use super::copy_coverage::{copy_coverage, CopyCoverage, SpanBuilder, MAX_GAP, SHINGLE};
use super::ngram_stats::ngram_stats;
use super::tandem::{self, line_items, Tandem, TandemBest, Tandems, UnitKind};
use super::tokens::{token_classes, tokens, Tokenized};
use super::variation::Variation;
use proptest::prelude::*;
use std::collections::HashSet;
use std::ops::Range;

/// Every maximal run of period 1..=max at least two periods long, by brute force:
/// `(p, start, end)` in item indices.
fn naive_tandem_runs<T: Eq>(seq: &[T], max: usize) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for p in 1..=max {
        let mut i = 0;
        while i + p < seq.len() {
            let mut j = i + p;
            while j < seq.len() && seq[j] == seq[j - p] {
                j += 1;
            }
            if j - i >= 2 * p {
                out.push((p, i, j));
            }
            i = if j > i + p { j - p + 1 } else { i + 1 };
        }
    }
    out
}

fn naive_item_best(text: &str, items: &[Range<usize>], level: UnitKind, max: usize) -> TandemBest {
    let key = |r: &Range<usize>| if level == UnitKind::Line { tandem::line_key(text, r.clone()) } else { r.clone() };
    let strs: Vec<&str> = items.iter().map(|r| &text[key(r)]).collect();
    let mut best = TandemBest::default();
    for (p, i, j) in naive_tandem_runs(&strs, max) {
        best.offer(Tandem {
            variation: Variation::Exact,
            unit_kind: level,
            unit: items[i].start..items[i + p].start,
            period: p,
            count: (j - i) / p,
            start: items[i].start,
            end: items[j - 1].end,
        });
    }
    best
}

fn naive_tandems(text: &str) -> Tandems {
    let mut t = Tandems::default();
    for (p, i, j) in naive_tandem_runs(text.as_bytes(), tandem::MAX_CHAR_PERIOD) {
        let s = (i..=j).find(|&s| text.is_char_boundary(s)).unwrap();
        let e = (i..=j).rev().find(|&e| text.is_char_boundary(e)).unwrap();
        let run = Tandem {
            variation: Variation::Exact,
            unit_kind: UnitKind::Char,
            unit: s..s + p,
            period: p,
            count: (e - s) / p,
            start: s,
            end: e,
        };
        if e >= s + 2 * p && !tandem::within_a_number(text, &run) {
            t.char.offer(run);
        }
    }
    let token_items: Vec<Range<usize>> = tokens(text).into_iter().map(|t| t.range()).collect();
    t.word = naive_item_best(text, &token_items, UnitKind::Word, tandem::MAX_WORD_PERIOD);
    t.line = naive_item_best(text, &line_items(text), UnitKind::Line, tandem::MAX_LINE_PERIOD);
    t
}

/// Copy coverage by comparing every shingle's strings with every earlier one.
fn naive_copy_coverage(text: &str) -> CopyCoverage {
    let toks = tokens(text);
    let strs: Vec<&str> = toks.iter().map(|t| &text[t.range()]).collect();
    let classes = token_classes(text, &toks);
    let mut b = SpanBuilder::new(&classes);
    for i in 0..strs.len().saturating_sub(SHINGLE - 1) {
        if let Some(j) = (0..i).find(|&j| strs[j..j + SHINGLE] == strs[i..i + SHINGLE]) {
            b.add(i, j);
        }
    }
    b.finish(text, |k| toks[k].range())
}

/// Texts made of pieces that loop easily: short units, multi-byte characters, line breaks.
fn loopy_text() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "a", "a", "b", "ab", "la", "No", " ", " ", "\n", "\n", "  ", "the ", "cat ", "模", "😂", "é", "-", ". ", "x\n",
        "ab ab ", "1", "2",
    ];
    prop::collection::vec(prop::sample::select(PIECES), 0..120).prop_map(|v| v.concat())
}

/// Long loops (runs longer than the scan's 32-item chunks) with a prefix and a suffix.
fn long_loop_text() -> impl Strategy<Value = String> {
    (loopy_text(), "[ab模😂 \n]{1,6}", 0usize..120, "[ab\n]{0,3}", loopy_text()).prop_map(
        |(pre, unit, k, edit, post)| {
            let mut s = pre;
            for i in 0..k {
                s.push_str(&unit);
                if i == k / 2 {
                    s.push_str(&edit);
                }
            }
            s + &post
        },
    )
}

/// Loops long enough (hundreds of tokens) for the scan to take a run of a multiple of a long
/// run's period from that run (see `tandem::runs`), after a prefix that may match at a multiple.
fn very_long_loop_text() -> impl Strategy<Value = String> {
    ("[ab ]{0,12}", "[ab \n]{1,4}", 150usize..700, loopy_text()).prop_map(|(pre, unit, k, post)| {
        let mut s = pre;
        for _ in 0..k {
            s.push_str(&unit);
        }
        s + &post
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn tandems_agree_with_the_naive_oracle_on_very_long_loops(text in very_long_loop_text()) {
        prop_assert_eq!(tandem::tandems(&Tokenized::new(&text), tandem::line_best(&text)), naive_tandems(&text));
        // Every maximal run, not only the best: the runs of a multiple of a long run's period
        // are found too, where they start and end.
        for max in [8, 64] {
            let mut fast = Vec::new();
            tandem::runs(text.as_bytes(), max, |p, i, j| fast.push((p, i, j)));
            fast.sort_unstable();
            let mut naive = naive_tandem_runs(text.as_bytes(), max.min(text.len() / 2));
            naive.sort_unstable();
            prop_assert_eq!(fast, naive);
        }
    }

    #[test]
    fn tandems_agree_with_the_naive_oracle_on_long_loops(text in long_loop_text()) {
        prop_assert_eq!(tandem::tandems(&Tokenized::new(&text), tandem::line_best(&text)), naive_tandems(&text));
    }

    #[test]
    fn copy_coverage_agrees_with_the_naive_oracle_on_long_loops(text in long_loop_text()) {
        prop_assert_eq!(copy_coverage(&Tokenized::new(&text), None), naive_copy_coverage(&text));
    }

    #[test]
    fn tandems_agree_with_the_naive_oracle(text in loopy_text()) {
        prop_assert_eq!(tandem::tandems(&Tokenized::new(&text), tandem::line_best(&text)), naive_tandems(&text));
    }

    #[test]
    fn copy_coverage_agrees_with_the_naive_oracle(text in loopy_text()) {
        prop_assert_eq!(copy_coverage(&Tokenized::new(&text), None), naive_copy_coverage(&text));
    }

    #[test]
    fn ngram_figures_agree_with_counting_strings(text in loopy_text()) {
        let toks = tokens(&text);
        let strs: Vec<&str> = toks.iter().map(|t| &text[t.range()]).collect();
        let s = ngram_stats(&text);
        for n in 1..=4 {
            let expected = if strs.len() < n {
                1.0
            } else {
                strs.windows(n).collect::<HashSet<_>>().len() as f64 / (strs.len() + 1 - n) as f64
            };
            prop_assert!((s.distinct[n - 1] - expected).abs() < 1e-12);
        }
    }
}

#[test]
fn the_merge_gap_tolerates_small_edits_only() {
    // Sanity of the constants the oracles share with the fast code.
    const { assert!(MAX_GAP < SHINGLE) };
}
