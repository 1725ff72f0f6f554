//! The loop checks: tandem repeats, long copies and the windowed compression profile, judged
//! against their rules, with the spans that show them, where each starts, and the reasons.
//!
//! The seed's three heuristics miss loops without newlines, sub-word and CJK loops, loops with
//! small edits, blocks longer than DEFLATE's window and loops that start late in a long text.
//! These checks see them; their thresholds were chosen on the labelled corpus of
//! tests/support/labelled.rs (`cargo test --test scorer_evidence -- --nocapture` prints the
//! figures and the confusion table) for precision as much as recall: refrains, numbered lists,
//! tables, logs, similar code lines and a quotation said twice stay at PASS or WARN.
//!
//! - **loop** (value: share of the text covered by the decisive tandem repeat),
//! - **copies** (value: the share of the text in copies of earlier text that decided the level),
//! - **degenerate end** (value: share of the text from the windowed profile's onset to the end).
//!
//! Their rules are the fields of [`LoopRules`] (in [`Thresholds`](super::Thresholds)), said in
//! words by `LoopRules::loop_warn_text` and its siblings, which the page, the CLI and the README
//! show.

use super::code_blocks::{block_holding, fenced_blocks};
use super::copy_coverage::{copy_coverage_without_tokens, CopyCoverage, CopySpan};
use super::edited_runs;
use super::ngram_stats::{ngram_stats_of, token_classes, token_ids, token_ranges_at, tokens, NgramStats, Token};
use super::profile::{profile, Profile, DEGENERATE_BELOW};
use super::report::{
    Check, CopyFigure, Direction, Metric, ProfileFigure, Span, SpanKind, TandemFigure, UnitLevel, Verdict,
};
use super::restarts::{restarts, Restarts};
use super::tandem::{line_best, number_tandems, tandems_with_lines, Level, Tandem, TandemBest, Variation};
use super::thresholds::{CopyRules, LoopRules, TandemClause};
use crate::wording::{percent_of, plural, quote, thousands};
use std::ops::Range;

/// Spans of copies reported at most (the figures count them all).
pub const MAX_COPY_SPANS: usize = 1000;

/// What the loop scorers found in one text, judged.
#[derive(Clone, Debug)]
pub struct LoopFindings {
    pub tandem: Option<TandemFigure>,
    pub copy_coverage: f64,
    pub long_copy_share: f64,
    pub copy: Option<CopyFigure>,
    pub profile: ProfileFigure,
    pub distinct: [f64; 4],
    pub distinct_sample: usize,
    /// Loop, copies and degenerate end, in that order.
    pub checks: [Check; 3],
    /// Where each check's finding lies (for the onset), in the same order: the loop's run, the
    /// decisive copy, the profile's degenerate end.
    pub regions: [Option<Range<usize>>; 3],
    /// The decisive copy's source, when the copies check tripped.
    pub copy_source: Option<usize>,
    /// One sentence per check at WARN or FAIL (without the "label value ≥ threshold" head).
    pub why: [Option<String>; 3],
    pub spans: Vec<Span>,
    /// Copies found but not listed in `spans` (past [`MAX_COPY_SPANS`]).
    pub spans_not_listed: usize,
}

/// Runs the loop scorers over `text` and judges them by `rules`.
pub fn find(text: &str, rules: &LoopRules) -> LoopFindings {
    find_with_profile(text, rules, || profile(text))
}

/// [`find`], taking the windowed profile of `text` from `profile_of` once the token scorers are
/// done (the analyzer computes it on another thread meanwhile).
pub fn find_with_profile(text: &str, rules: &LoopRules, profile_of: impl FnOnce() -> Profile) -> LoopFindings {
    find_by_tokens(text, rules).judge(text, rules, profile_of())
}

/// What the token scorers found in one text (tandem repeats, copies, restarts, n-grams), before
/// the windowed profile joins them: the profile streams over the text's bytes, so it may be
/// made elsewhere meanwhile (the page's second worker makes a long file's).
#[derive(Debug)]
pub struct TokenFindings {
    exact: (Option<Tandem>, Verdict),
    ngrams: NgramStats,
    copies: CopyCoverage,
    judged: CopiesJudged,
}

/// Runs the token scorers over `text` and judges the copies by `rules`.
pub fn find_by_tokens(text: &str, rules: &LoopRules) -> TokenFindings {
    // The token tables are the analysis's memory on a long text (8 bytes a token for the
    // tokens, 4 for their ids, 8 a shingle for the copies' table): the tokens go before the
    // copies' table is made, so at most two of the three are held at once (with a byte a
    // token for the tokens' classes).
    let lines = line_best(text);
    let toks = tokens(text);
    let ids = token_ids(text, &toks);
    let exact = decisive_tandem(text, &toks, &ids, lines, rules);
    let classes = token_classes(text, &toks);
    drop(toks);
    let ngrams = ngram_stats_of(&ids);
    let copies = copy_coverage_without_tokens(text, &ids, &classes, ngrams.distinct_count[3]);
    let judged = judge_copies(text, &copies, &rules.copies);
    // Restarts can only raise the copies check. A passage re-told twice in slightly other
    // words keeps some 8 tokens in a row unchanged: a text without a single copy has none.
    let judged = if copies.spans.is_empty() || judged.check.level == Verdict::Fail {
        judged
    } else {
        with_restarts(
            text,
            judged,
            &retellings(text, &restarts(&ids, &classes, ngrams.distinct_count[3])),
            &rules.copies,
        )
    };
    drop(ids);
    drop(classes);
    TokenFindings { exact, ngrams, copies, judged }
}

impl TokenFindings {
    /// The loop checks of `text` (the text these were found in) judged by `rules`, with the
    /// windowed profile `prof` of that text.
    pub fn judge(self, text: &str, rules: &LoopRules, prof: Profile) -> LoopFindings {
        let TokenFindings { exact, ngrams, copies, judged } = self;
        judge_loops(text, rules, exact, &ngrams, &copies, judged, prof)
    }
}

fn judge_loops(
    text: &str,
    rules: &LoopRules,
    exact: (Option<Tandem>, Verdict),
    ngrams: &NgramStats,
    copies: &CopyCoverage,
    judged: CopiesJudged,
    prof: Profile,
) -> LoopFindings {
    let n = text.len();
    let CopiesJudged {
        check: copy_check,
        spans: copy_spans,
        decisive: decisive_copy,
        why: copy_why,
        long_share: long_copy_share,
        not_listed: spans_not_listed,
    } = judged;
    let tail_share = prof.onset.map_or(0.0, |o| share(n - o, n));
    let (tandem, loop_level) = exact;

    let mut spans = Vec::new();
    let loop_why = tandem.as_ref().filter(|_| loop_level > Verdict::Pass).map(|t| {
        spans.push(Span {
            start: t.start,
            end: t.end,
            kind: SpanKind::Loop,
            count: t.count,
            level: loop_level,
            // Copies with edits or changing numbers differ in length: no bands to draw.
            period: (t.variation == Variation::Exact).then_some(t.unit.len()),
            source: None,
        });
        loop_sentence(text, t)
    });
    // A copy inside the loop span says the same thing again: keep the loop's banded span only.
    let inside_loop = |c: &Span| {
        spans.first().is_some_and(|l: &Span| {
            let overlap = c.end.min(l.end).saturating_sub(c.start.max(l.start));
            overlap * 10 >= (c.end - c.start) * 9
        })
    };
    let copy_spans: Vec<Span> = copy_spans.into_iter().filter(|c| !inside_loop(c)).collect();
    spans.extend(copy_spans);
    // Nor does its reason need saying twice.
    let copy_why = match (&decisive_copy, spans.first()) {
        (Some(d), Some(l)) if l.kind == SpanKind::Loop && d.start >= l.start && d.end <= l.end => {
            copy_why.map(|_| "the same loop, seen as copies of the text before it".to_string())
        }
        _ => copy_why,
    };

    let end_rules = &rules.degenerate_end;
    let profile_judged = n >= end_rules.min_bytes;
    let profile_level = if !profile_judged {
        Verdict::Pass
    } else if tail_share >= end_rules.fail {
        Verdict::Fail
    } else if tail_share >= end_rules.warn {
        Verdict::Warn
    } else {
        Verdict::Pass
    };
    let profile_why = (profile_level > Verdict::Pass).then(|| profile_sentence(&prof, n));

    let loop_share = tandem.as_ref().map_or(0.0, |t| share(t.len(), n));
    let checks = [
        Check {
            metric: Metric::Loop,
            value: loop_share,
            warn_at: rules.loop_warn[0].share,
            fail_at: rules.loop_fail[0].share,
            direction: Direction::AtLeast,
            level: loop_level,
            judged: true,
            data: false,
        },
        copy_check,
        Check {
            metric: Metric::Profile,
            value: tail_share,
            warn_at: end_rules.warn,
            fail_at: end_rules.fail,
            direction: Direction::AtLeast,
            level: profile_level,
            judged: profile_judged,
            data: false,
        },
    ];
    let regions = [
        tandem.as_ref().filter(|_| loop_level > Verdict::Pass).map(|t| t.start..t.end),
        decisive_copy.as_ref().filter(|_| checks[1].level > Verdict::Pass).map(|c| c.start..c.end),
        prof.onset.filter(|_| profile_level > Verdict::Pass).map(|o| o..n),
    ];
    LoopFindings {
        tandem: tandem.map(|t| tandem_figure(text, &t)),
        copy_coverage: copies.coverage,
        long_copy_share,
        copy: decisive_copy.as_ref().map(|c| copy_figure(c, n)),
        profile: profile_figure(&prof, tail_share),
        distinct: ngrams.distinct,
        distinct_sample: ngrams.sample,
        copy_source: decisive_copy.as_ref().filter(|_| checks[1].level > Verdict::Pass).map(|c| c.source),
        checks,
        regions,
        why: [loop_why, copy_why, profile_why],
        spans,
        spans_not_listed,
    }
}

fn share(bytes: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        bytes as f64 / n as f64
    }
}

/// The level of one tandem repeat in a text of `n` bytes, by the loop check's clauses.
pub fn tandem_level(t: &Tandem, n: usize, rules: &LoopRules) -> Verdict {
    match t.variation {
        Variation::Numbers { bare: true, .. } if t.count < rules.bare_count_min => return Verdict::Pass,
        Variation::Numbers { counts: None, .. } if t.count < rules.numbers_min => return Verdict::Pass,
        _ => {}
    }
    let len = t.len();
    let s = share(len, n);
    let to_end = n - t.end < t.unit.len().max(2);
    // Copies including a last partial one (exact at character level).
    let copies = len as f64 / t.unit.len().max(1) as f64;
    let meets = |clauses: &[TandemClause]| clauses.iter().any(|c| c.holds(t.count, copies, len, s, to_end));
    if meets(&rules.loop_fail) {
        Verdict::Fail
    } else if meets(&rules.loop_warn) {
        Verdict::Warn
    } else {
        Verdict::Pass
    }
}

/// The tandem repeat that decides the loop check: the worst-judged of each level's longest and
/// most covering runs (then more bytes, more copies, lines before words before characters).
fn decisive_tandem(
    text: &str,
    toks: &[Token],
    ids: &[u32],
    lines: TandemBest,
    rules: &LoopRules,
) -> (Option<Tandem>, Verdict) {
    let t = tandems_with_lines(text, toks, ids, lines);
    let mut numbers = TandemBest::default();
    number_tandems(text, toks, ids, |r| numbers.offer(r));
    let n = text.len();
    let mut best: Option<(Verdict, Tandem, usize)> = None;
    let candidates =
        [&t.line, &t.word, &t.char, &numbers].into_iter().flat_map(|b| [&b.longest, &b.covering]).flatten();
    for found in candidates {
        // Read from its first word; runs at word and line level take in the copies around
        // them with small edits. Ranked as found (a rotation loses at most a lead-in).
        let rotated = readable_rotation(text, toks, found.clone());
        let shift = rotated.start - found.start;
        let cand = match rotated.level {
            Level::Char => rotated,
            _ => edited_runs::extend(toks, ids, &rotated, rules.copies.max_edits),
        };
        let level = tandem_level(&cand, n, rules);
        let key = |t: &Tandem, shift: usize| (t.len() + shift, t.count);
        if best.as_ref().is_none_or(|(l, b, bs)| (level, key(&cand, shift)) > (*l, key(b, *bs))) {
            best = Some((level, cand, shift));
        }
    }
    match best {
        Some((level, t, _)) => (Some(t), level),
        None => (None, Verdict::Pass),
    }
}

/// Whether a unit starting at byte `at` (punctuation or a space: not a letter or digit of any
/// script) reads better from a later rotation.
fn is_lead_in(text: &str, at: usize) -> bool {
    text[at..].chars().next().is_some_and(|c| !c.is_alphanumeric())
}

/// The same run started at a word rather than at a stray ". " or space before it, when a
/// rotation of the unit allows (a loop found from the full stop ending the sentence before
/// it is reported from its first word). Copies stay whole: the run loses at most a unit's
/// lead-in and keeps at least two copies.
fn readable_rotation(text: &str, toks: &[Token], t: Tandem) -> Tandem {
    let starts: Vec<usize> = match t.level {
        _ if !t.variation.is_exact() => return t,
        Level::Char => (t.start..t.unit.end).filter(|&s| text.is_char_boundary(s)).collect(),
        Level::Word => {
            let first = toks.partition_point(|k| k.start() < t.start);
            toks[first..].iter().take(t.period).map(|k| k.start()).collect()
        }
        Level::Line => return t,
    };
    let Some(&s) = starts.iter().find(|&&s| !is_lead_in(text, s)) else { return t };
    let shift = s - t.start;
    let unit_len = t.unit.len();
    if s == t.start || t.len() - shift < 2 * unit_len {
        return t;
    }
    // The unit's bytes from `s`: the rest of this copy and the start of the next.
    let (count, unit) = match t.level {
        Level::Word => {
            let first = toks.partition_point(|k| k.start() < s);
            let tokens = toks.partition_point(|k| k.start() < t.end) - first;
            let next = toks.get(first + t.period).map_or(t.end, |k| k.start());
            (tokens / t.period, s..next)
        }
        _ => ((t.len() - shift) / unit_len, s..s + unit_len),
    };
    if count < 2 {
        return t;
    }
    Tandem { unit, count, start: s, ..t }
}

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
struct CopiesJudged {
    check: Check,
    spans: Vec<Span>,
    decisive: Option<CopySpan>,
    why: Option<String>,
    long_share: f64,
    /// Copies past [`MAX_COPY_SPANS`].
    not_listed: usize,
}

/// The re-tellings of the most re-told passage as copies, in bytes: each one's source is the
/// start of the passage's first telling.
fn retellings(text: &str, r: &Restarts) -> Vec<CopySpan> {
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
fn with_restarts(text: &str, copies: CopiesJudged, retold: &[CopySpan], r: &CopyRules) -> CopiesJudged {
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

fn judge_copies(text: &str, c: &CopyCoverage, r: &CopyRules) -> CopiesJudged {
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

/// A run of nothing but whitespace, in words: "the text ends in 199,999 blank lines from byte
/// 19" or "from byte 19, 3,000 spaces"; `None` when the run holds anything else.
fn blank_run_sentence(text: &str, run: Range<usize>) -> Option<String> {
    let blank = &text[run.clone()];
    if !blank.chars().all(char::is_whitespace) {
        return None;
    }
    // The break that ends the line before the run is not a blank line.
    let ends_a_line = run.start > 0 && !text[..run.start].ends_with(['\n', '\r']);
    let breaks = blank.matches('\n').count().saturating_sub(usize::from(ends_a_line));
    let what = if breaks > 0 {
        plural(breaks, "blank line", "blank lines")
    } else {
        plural(blank.len(), "byte of whitespace", "bytes of whitespace")
    };
    Some(if text[run.end..].trim().is_empty() {
        format!("the text ends in {what}, from byte {}", thousands(run.start))
    } else {
        format!("from byte {}, {what}", thousands(run.start))
    })
}

fn loop_sentence(text: &str, t: &Tandem) -> String {
    // Words and lines are quoted without the whitespace that separates them.
    let unit = if t.level == Level::Char { &text[t.unit.clone()] } else { text[t.unit.clone()].trim_end() };
    let size = match t.level {
        Level::Char => format!("{}-byte unit", thousands(t.unit.len())),
        Level::Word if t.period == 1 => "word".to_string(),
        Level::Word => format!("{}-token unit", thousands(t.period)),
        Level::Line if t.period == 1 => "line".to_string(),
        Level::Line => format!("{}-line unit", thousands(t.period)),
    };
    let reach = if text.len() - t.end < t.unit.len().max(2) {
        "to the end".to_string()
    } else {
        format!("to byte {}", thousands(t.end))
    };
    // At character level a run may end in part of a copy.
    let part = if t.level == Level::Char && t.len() > t.count * t.unit.len() { " and then in part" } else { "" };
    let (start, count, share) = (thousands(t.start), thousands(t.count), percent_of(t.len(), text.len()));
    if let Some(blank) = blank_run_sentence(text, t.start..t.end) {
        return format!("{blank} ({share} of the text)");
    }
    match t.variation {
        Variation::Exact => {
            format!("from byte {start} the {size} '{}' repeats {count} times back to back{part}, {reach} ({share} of the text)", quote(unit))
        }
        Variation::Edited { edits } => format!(
            "from byte {start} the {size} '{}' repeats {count} times back to back, some copies with small edits ({} \
             changed in all), {reach} ({share} of the text)",
            quote(unit),
            plural(edits, "token", "tokens")
        ),
        Variation::Numbers { counts: Some((first, last)), bare: true } => format!(
            "from byte {start} the numbers {} to {} follow one another with nothing else said (an empty list, a bare \
             count): only the number changes, {reach} ({share} of the text)",
            thousands(first as usize),
            thousands(last as usize)
        ),
        Variation::Numbers { counts, .. } => {
            let changing = match counts {
                Some((first, last)) => {
                    format!("only its number changing ({} to {})", thousands(first as usize), thousands(last as usize))
                }
                None => "only its numbers changing".to_string(),
            };
            format!("from byte {start} the {size} '{}' repeats {count} times back to back with {changing}, {reach} ({share} of the text)", quote(unit))
        }
    }
}

fn profile_sentence(p: &Profile, n: usize) -> String {
    let onset = p.onset.unwrap_or(0);
    format!(
        "from byte {} to the end ({}) every {} KiB window compresses below {DEGENERATE_BELOW:.2} (lowest {:.3})",
        thousands(onset),
        percent_of(n - onset, n),
        p.window / 1024,
        p.min_ratio
    )
}

fn tandem_figure(text: &str, t: &Tandem) -> TandemFigure {
    TandemFigure {
        level: match t.level {
            Level::Char => UnitLevel::Char,
            Level::Word => UnitLevel::Word,
            Level::Line => UnitLevel::Line,
        },
        unit: quote(&text[t.unit.clone()]),
        unit_bytes: t.unit.len(),
        period: t.period,
        count: t.count,
        start: t.start,
        end: t.end,
        share: share(t.len(), text.len()),
        variation: t.variation,
    }
}

fn copy_figure(c: &CopySpan, n: usize) -> CopyFigure {
    CopyFigure {
        start: c.start,
        end: c.end,
        source: c.source,
        tokens: c.tokens,
        edits: c.edits,
        share: share(c.end - c.start, n),
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn profile_figure(p: &Profile, tail_share: f64) -> ProfileFigure {
    ProfileFigure {
        window: p.window,
        degenerate_below: DEGENERATE_BELOW,
        windows: p.windows.iter().map(|w| (w.start, round4(w.ratio))).collect(),
        onset: p.onset,
        min_ratio: round4(p.min_ratio),
        tail_share,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phrase_loop_on_one_line_fails_with_its_unit_and_start() {
        let unit = "Let me check the file again. ";
        let text = format!("I will look at main.rs first.\n{}", unit.repeat(48));
        let f = find(&text, &LoopRules::SEED);
        assert_eq!(f.checks[0].level, Verdict::Fail);
        let t = f.tandem.as_ref().unwrap();
        assert_eq!((t.start, t.unit_bytes, t.count), (30, unit.len(), 48));
        assert_eq!(f.regions[0], Some(30..text.trim_end().len()));
        assert_eq!(t.variation, Variation::Exact);
        let why = f.why[0].as_deref().unwrap();
        assert_eq!(
            why,
            "from byte 30 the 7-token unit 'Let me check the file again.' repeats 48 times back to back, \
             to the end (98 % of the text)"
        );
        let span = f.spans.iter().find(|s| s.kind == SpanKind::Loop).unwrap();
        assert_eq!((span.start, span.end, span.period), (30, text.trim_end().len(), Some(29)));
    }

    #[test]
    fn prose_passes_every_loop_check() {
        let text = "The scheduler wakes the reclaim thread when free memory falls below the low watermark, \
                    and the thread then walks the inactive list from its tail, writing dirty pages back.";
        let f = find(text, &LoopRules::SEED);
        assert!(f.checks.iter().all(|c| c.level == Verdict::Pass), "{:?}", f.checks);
        assert!(f.spans.is_empty() && f.why.iter().all(Option::is_none));
        assert!(!f.checks[2].judged, "the profile needs 8 KiB");
    }

    #[test]
    fn tandem_rules() {
        let t = |count: usize, unit: usize, start: usize, _n: usize| Tandem {
            level: Level::Char,
            unit: start..start + unit,
            period: unit,
            count,
            start,
            end: start + count * unit,
            variation: Variation::Exact,
        };
        assert_eq!(tandem_level(&t(4, 10, 0, 80), 80, &LoopRules::SEED), Verdict::Fail);
        assert_eq!(tandem_level(&t(3, 10, 0, 40), 40, &LoopRules::SEED), Verdict::Fail);
        assert_eq!(tandem_level(&t(3, 10, 0, 100), 100, &LoopRules::SEED), Verdict::Warn);
        assert_eq!(
            tandem_level(&t(3, 10, 30, 60), 60, &LoopRules::SEED),
            Verdict::Fail,
            "3 copies to the end over 40 %"
        );
        assert_eq!(tandem_level(&t(2, 10, 0, 20), 20, &LoopRules::SEED), Verdict::Pass);
        assert_eq!(tandem_level(&t(5, 10, 150, 200), 200, &LoopRules::SEED), Verdict::Fail, "runs to the end");
        assert_eq!(
            tandem_level(&t(12, 100, 0, 100_000), 100_000, &LoopRules::SEED),
            Verdict::Fail,
            "≥ 12 copies over 1 KiB"
        );
        assert_eq!(tandem_level(&t(8, 40, 0, 100_000), 100_000, &LoopRules::SEED), Verdict::Warn);
        assert_eq!(tandem_level(&t(60, 1, 0, 10_000), 10_000, &LoopRules::SEED), Verdict::Pass, "a rule of dashes");
    }

    #[test]
    fn a_quotation_said_twice_passes_and_a_block_said_three_times_fails() {
        let para =
            |seed: usize| -> String { (0..60).map(|i| format!("w{}x{} ", (i * 7 + seed * 13) % 97, seed)).collect() };
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
        let para =
            |seed: usize| -> String { (0..60).map(|i| format!("w{}x{} ", (i * 7 + seed * 13) % 97, seed)).collect() };
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
    #[test]
    fn a_blank_run_is_said_in_blank_lines() {
        let text = format!("Here is the answer:{}", "\n".repeat(200_000));
        let f = find(&text, &LoopRules::SEED);
        assert_eq!(f.checks[0].level, Verdict::Fail);
        assert_eq!(f.why[0].as_deref(), Some("the text ends in 199,999 blank lines, from byte 19 (100 % of the text)"));
        let spaces = format!("Here is the answer, in full: {}and more", " ".repeat(3000));
        let why = find(&spaces, &LoopRules::SEED).why[0].clone();
        assert_eq!(why.as_deref(), Some("from byte 28, 3,001 bytes of whitespace (99 % of the text)"));
    }
}
