//! The copies check: long copies of earlier text, copies that loop (at least twice as long as
//! their distance from their source) and passages re-told in other words, judged against the
//! copies' rules, with their spans, the copy that decided and its sentence.

use super::share::share;
use crate::analyze::code_blocks::{block_holding, fenced_blocks};
use crate::analyze::copy_coverage::{CopyCoverage, CopySpan};
use crate::analyze::report::{Check, CopyFigure, Direction, Metric, Span, SpanKind, Verdict};
use crate::analyze::restarts::{Restarts, NEW_PER_REPEATED};
use crate::analyze::thresholds::CopyRules;
use crate::analyze::tokens::{token_class, token_ranges_at, tokens, TokenClass};
use crate::wording::{percent_of, thousands};
use std::ops::Range;

/// Spans of copies reported at most (the figures count them all).
pub const MAX_COPY_SPANS: usize = 1000;
fn is_long(c: &CopySpan, r: &CopyRules) -> bool {
    c.tokens >= r.long_tokens && c.edit_density() <= r.max_edits && !c.is_data()
}

/// A copy that is a code block shown again: the copy and its source each lie inside a fenced
/// code block, not the same one (a revised or repeated listing).
fn code_shown_again(blocks: &[Range<usize>], c: &CopySpan) -> bool {
    let source = c.source..(c.source + (c.end - c.start)).min(c.start);
    matches!(
        (block_holding(blocks, &(c.start..c.end)), block_holding(blocks, &source)),
        (Some(a), Some(b)) if a != b
    )
}

/// A copy at least twice as long as its distance from its source: the text says it ≥ 3 times.
fn is_looping(c: &CopySpan, r: &CopyRules) -> bool {
    c.tokens >= r.looping_tokens
        && c.edit_density() <= r.max_edits
        && !c.is_data()
        && c.end - c.start >= 2 * (c.start - c.source)
}

/// The copies check judged: its spans, the copy that decided it, its sentence, and the share
/// of the text in long copies.
#[derive(Debug)]
pub(super) struct CopiesJudged {
    pub(super) check: Check,
    pub(super) spans: Vec<Span>,
    pub(super) decisive: Option<CopySpan>,
    pub(super) why: Option<String>,
    pub(super) long_share: f64,
    /// Copies past [`MAX_COPY_SPANS`].
    pub(super) not_listed: usize,
}

/// The re-tellings of the most re-told passage as copies, in bytes: each one's source is the
/// start of the passage's first telling.
pub(super) fn retellings(text: &str, r: &Restarts) -> Vec<CopySpan> {
    if r.retellings.is_empty() {
        return Vec::new();
    }
    let mut wanted: Vec<usize> = r.retellings.iter().flat_map(|t| [t.start, t.end - 1, t.source]).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let ranges = token_ranges_at(text, &wanted);
    let at = |k: usize| ranges[wanted.binary_search(&k).unwrap_or(0)].clone();
    let source = r.retellings.iter().map(|t| t.source).min().map_or(0, |s| at(s).start);
    r.retellings
        .iter()
        .map(|t| CopySpan {
            start: at(t.start).start,
            end: at(t.end - 1).end,
            source,
            tokens: t.tokens(),
            edits: t.tokens().saturating_sub(t.seen),
            number_edits: 0,
            numbers: 0,
            words: 0,
        })
        .collect()
}

/// The copies check with restarts: when the re-tellings of one passage cover more of the text
/// than the copies' rules allow, they decide the level, the reason and the spans.
pub(super) fn with_restarts(text: &str, copies: CopiesJudged, retold: &[CopySpan], r: &CopyRules) -> CopiesJudged {
    let n = text.len();
    let retold_share = share(retold.iter().map(|c| c.end - c.start).sum(), n);
    let level = if retold_share >= r.restart_fail {
        Verdict::Fail
    } else if retold_share >= r.restart_warn {
        Verdict::Warn
    } else {
        Verdict::Pass
    };
    if level <= copies.check.level {
        return copies;
    }
    let first = &retold[0];
    let (tokens, edits): (usize, usize) = retold.iter().fold((0, 0), |(t, e), c| (t + c.tokens, e + c.edits));
    let why = format!(
        "the text starts over {} times, each time re-telling the passage from byte {} in slightly other words \
         ({} of the tokens new); the re-tellings cover {}",
        thousands(retold.len()),
        thousands(first.source),
        percent_of(edits, tokens.max(1)),
        percent_of(retold.iter().map(|c| c.end - c.start).sum(), n)
    );
    let spans = retold
        .iter()
        .take(MAX_COPY_SPANS)
        .map(|c| Span {
            start: c.start,
            end: c.end,
            kind: SpanKind::Copy,
            count: c.tokens,
            level,
            period: None,
            source: Some(c.source),
        })
        .collect();
    CopiesJudged {
        check: Check { value: retold_share, level, ..copies.check },
        spans,
        decisive: Some(first.clone()),
        why: Some(why),
        long_share: copies.long_share,
        not_listed: retold.len().saturating_sub(MAX_COPY_SPANS),
    }
}

/// The copies that are a template's items, left out: copies of one passage (the same source)
/// whose words said new — between each copy and the next, outside any copy, and the edits
/// bridged inside them that are not numbers — are at least [`NEW_PER_REPEATED`] of the words they say again (the
/// rule of `restarts`: what changes between the copies counts as much as what stays the
/// same). A summary per file whose fixed fields run long ("- Issues: none found. - Tests:
/// covered by the unit tests. - Status: ok") copies them for every file, each time after the
/// file's own words.
fn without_items(text: &str, c: &CopyCoverage) -> Option<CopyCoverage> {
    let mut by_source: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for (k, s) in c.spans.iter().enumerate() {
        by_source.entry(s.source).or_default().push(k);
    }
    if by_source.values().all(|g| g.len() < 2) {
        return None;
    }
    // The words outside every copy before each span's successor, once (in prefix sums): the
    // words between two copies of one passage, less those in other copies, are a difference.
    let words_in = |from: usize, to: usize| -> usize {
        let gap = text.get(from..to).unwrap_or_default();
        tokens(gap).iter().filter(|t| token_class(&gap[t.range()]) == TokenClass::Word).count()
    };
    let mut outside = Vec::with_capacity(c.spans.len() + 1);
    outside.push(0usize);
    for (k, s) in c.spans.iter().enumerate() {
        let next = c.spans.get(k + 1).map_or(s.end, |n| n.start.max(s.end));
        outside.push(outside[k] + words_in(s.end, next));
    }
    let mut items = vec![false; c.spans.len()];
    for copies in by_source.values().filter(|g| g.len() >= 2) {
        let (mut new, mut again) = (0, 0);
        for (i, &k) in copies.iter().enumerate() {
            let s = &c.spans[k];
            // Edits bridged inside the copy count as new, numbers aside (a log's counters and
            // times are not new words).
            let word_edits = s.edits.saturating_sub(s.number_edits);
            again += s.words.saturating_sub(word_edits);
            new += word_edits;
            if let Some(&next) = copies.get(i + 1) {
                // The words between this copy and the next that no copy holds.
                new += outside[next] - outside[k];
            }
        }
        if NEW_PER_REPEATED.1 * new >= NEW_PER_REPEATED.0 * again {
            for &k in copies {
                items[k] = true;
            }
        }
    }
    if !items.contains(&true) {
        return None;
    }
    let spans: Vec<CopySpan> = c.spans.iter().zip(&items).filter(|(_, &item)| !item).map(|(s, _)| s.clone()).collect();
    let copied_bytes = spans.iter().map(|s| s.end - s.start).sum();
    Some(CopyCoverage { coverage: share(copied_bytes, text.len()), spans, copied_bytes })
}

/// `c` without its copies inside rule lines (`-----` after `-----`: see `rule_lines`), when it
/// has any.
fn without_rules(text: &str, c: &CopyCoverage) -> Option<CopyCoverage> {
    let drawn = |s: &CopySpan| crate::analyze::rule_lines::within_rule_line(text, s.start..s.end);
    if !c.spans.iter().any(drawn) {
        return None;
    }
    let spans: Vec<CopySpan> = c.spans.iter().filter(|s| !drawn(s)).cloned().collect();
    let copied_bytes = spans.iter().map(|s| s.end - s.start).sum();
    Some(CopyCoverage { coverage: share(copied_bytes, text.len()), spans, copied_bytes })
}

pub(super) fn judge_copies(text: &str, c: &CopyCoverage, r: &CopyRules) -> CopiesJudged {
    let ruled = without_rules(text, c);
    let c = ruled.as_ref().unwrap_or(c);
    let kept = without_items(text, c);
    let c = kept.as_ref().unwrap_or(c);
    let n = text.len();
    let len = |s: &CopySpan| s.end - s.start;
    let long_share = share(c.spans.iter().filter(|s| is_long(s, r)).map(len).sum(), n);
    let looping_share = share(c.spans.iter().filter(|s| is_looping(s, r)).map(len).sum(), n);
    let longest = c.spans.iter().filter(|s| is_long(s, r)).max_by_key(|s| (len(s), std::cmp::Reverse(s.start)));
    let longest_looping =
        c.spans.iter().filter(|s| is_looping(s, r)).max_by_key(|s| (len(s), std::cmp::Reverse(s.start)));
    // One long copy over the FAIL share decides, unless it is a code block shown again.
    let blocks =
        if longest.is_some_and(|s| share(len(s), n) >= r.fail_one_long) { fenced_blocks(text) } else { Vec::new() };
    let fails_alone =
        |s: &CopySpan| is_long(s, r) && share(len(s), n) >= r.fail_one_long && !code_shown_again(&blocks, s);
    let longest_failing =
        c.spans.iter().filter(|s| fails_alone(s)).max_by_key(|s| (len(s), std::cmp::Reverse(s.start)));
    let fails_one = longest_failing.is_some();
    let longest = longest_failing.or(longest);
    let longest_share = longest.map_or(0.0, |s| share(len(s), n));
    let fails_looping = looping_share >= r.fail_looping;
    let warns_long = long_share >= r.warn_long;
    let warns_looping = looping_share >= r.warn_looping;
    let warns_any = c.coverage >= r.warn_any;
    let level = if fails_one || fails_looping {
        Verdict::Fail
    } else if warns_long || warns_looping || warns_any {
        Verdict::Warn
    } else {
        Verdict::Pass
    };
    // The copy named in the reason: the one that decided, else the longest of any kind.
    let decisive = if fails_one || (!fails_looping && warns_long) {
        longest
    } else if warns_looping {
        longest_looping
    } else {
        longest.or(longest_looping).or_else(|| c.longest())
    }
    .cloned();
    // The value is the share that decided the level (the largest counted share for PASS).
    let value = if fails_one {
        longest_share
    } else if fails_looping || (warns_looping && !warns_long) {
        looping_share
    } else if warns_long {
        long_share
    } else if warns_any {
        c.coverage
    } else {
        long_share.max(looping_share)
    };
    // What would count as long copies but for being data.
    let data_share = share(
        c.spans
            .iter()
            .filter(|s| s.tokens >= r.long_tokens && s.edit_density() <= r.max_edits && s.is_data())
            .map(len)
            .sum(),
        n,
    );
    let check = Check {
        metric: Metric::Copies,
        value,
        warn_at: r.warn_long,
        fail_at: r.fail_one_long,
        direction: Direction::AtLeast,
        level,
        judged: true,
        data: data_share >= r.warn_long,
    };
    if level == Verdict::Pass {
        return CopiesJudged { check, spans: Vec::new(), decisive, why: None, long_share, not_listed: 0 };
    }
    let shown = |s: &&CopySpan| is_long(s, r) || is_looping(s, r) || !warns_long && !warns_looping;
    let not_listed = c.spans.iter().filter(shown).count().saturating_sub(MAX_COPY_SPANS);
    let spans: Vec<Span> = c
        .spans
        .iter()
        .filter(shown)
        .take(MAX_COPY_SPANS)
        .map(|s| Span {
            start: s.start,
            end: s.end,
            kind: SpanKind::Copy,
            count: s.tokens,
            level: if fails_alone(s) || is_looping(s, r) && fails_looping { Verdict::Fail } else { Verdict::Warn },
            period: None,
            source: Some(s.source),
        })
        .collect();
    let why = decisive.as_ref().map(|d| {
        let edits = match d.edits {
            0 => "word for word".to_string(),
            1 => "with 1 token changed".to_string(),
            e => format!("with {} tokens changed", thousands(e)),
        };
        let what = if is_looping(d, r) {
            let distance = d.start - d.source;
            format!(
                "from byte {} the text repeats itself every ~{} bytes, {edits}, for {} bytes ({})",
                thousands(d.source),
                thousands(distance),
                thousands(len(d)),
                percent_of(len(d), n)
            )
        } else {
            format!(
                "the {} bytes from byte {} ({}) repeat the text at byte {}, {edits}",
                thousands(len(d)),
                thousands(d.start),
                percent_of(len(d), n),
                thousands(d.source)
            )
        };
        let what = if code_shown_again(&blocks, d) && share(len(d), n) >= r.fail_one_long {
            format!("{what} — a code block shown again, which alone is not a loop")
        } else {
            what
        };
        let rest = c.spans.len() - 1;
        if rest > 0 && level > Verdict::Pass {
            format!(
                "{what}; {} more cop{} cover {} in all",
                thousands(rest),
                if rest == 1 { "y" } else { "ies" },
                percent_of(c.copied_bytes, n)
            )
        } else {
            what
        }
    });
    CopiesJudged { check, spans, decisive, why, long_share, not_listed }
}

pub(super) fn copy_figure(c: &CopySpan, n: usize) -> CopyFigure {
    CopyFigure {
        start: c.start,
        end: c.end,
        source: c.source,
        tokens: c.tokens,
        edits: c.edits,
        share: share(c.end - c.start, n),
    }
}

#[cfg(test)]
mod tests {
    use crate::analyze::loop_checks::find;
    use crate::analyze::report::Verdict;
    use crate::analyze::thresholds::LoopRules;

    #[test]
    fn a_quotation_said_twice_passes_and_a_block_said_three_times_fails() {
        let para = |variant: usize| -> String {
            (0..60).map(|i| format!("w{}x{} ", (i * 7 + variant * 13) % 97, variant)).collect()
        };
        let quote = para(1);
        let text = format!("{}{quote}{}{quote}{}{}", para(2), para(3), para(4), para(5));
        assert_eq!(find(&text, &LoopRules::SEED).checks[1].level, Verdict::Pass);
        let thrice = format!("{}{quote}{quote}{quote}", para(2));
        let f = find(&thrice, &LoopRules::SEED);
        assert_eq!(f.checks[1].level, Verdict::Fail);
        assert_eq!(f.copy_source, Some(para(2).len()));
    }
    #[test]
    fn a_code_block_shown_again_warns_and_the_same_prose_said_twice_fails() {
        let para = |variant: usize| -> String {
            (0..60).map(|i| format!("w{}x{} ", (i * 7 + variant * 13) % 97, variant)).collect()
        };
        let code = format!("```rust\n{}\n```\n", para(1));
        let shown_again = format!("{}\n{code}\nThe fixed version:\n\n{code}", para(2));
        let f = find(&shown_again, &LoopRules::SEED);
        assert_eq!(f.checks[1].level, Verdict::Warn);
        assert!(f.why[1].as_deref().unwrap().contains("a code block shown again"), "{:?}", f.why[1]);
        // The same listing without fences is one long copy over 30 %: FAIL, as before…
        let said_twice = format!("{}\n{}\nThe fixed version:\n\n{}", para(2), para(1), para(1));
        assert_eq!(find(&said_twice, &LoopRules::SEED).checks[1].level, Verdict::Fail);
        // …and a block shown three times back to back still FAILs as looping copies.
        let thrice = format!("{}\n{code}{code}{code}", para(2));
        assert_eq!(find(&thrice, &LoopRules::SEED).checks[1].level, Verdict::Fail);
    }
}
