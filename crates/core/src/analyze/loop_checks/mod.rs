//! The loop checks: tandem repeats, long copies and the windowed compression profile, judged
//! against their rules, with the spans that show them, where each starts, and the reasons.
//!
//! The seed's three heuristics miss loops without newlines, sub-word and CJK loops, loops with
//! small edits, blocks longer than DEFLATE's window and loops that start late in a long text.
//! These checks see them; their thresholds were chosen on the labelled corpus of
//! tests/support/labelled.rs (`cargo test --test integration scorer_evidence:: -- --nocapture` prints the
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
//!
//! The token scorers run once for all three ([`TokenFindings`]); each check is judged in its
//! own file (`loop_check.rs`, `copies.rs`, `degenerate_end.rs`, with `share.rs` below them) and
//! joined here.

mod copies;
mod degenerate_end;
mod loop_check;
mod share;

use super::copy_coverage::{copy_coverage, CopyCoverage};
use super::ngram_stats::{ngram_stats_of, NgramStats};
use super::profile::{profile, Profile};
use super::report::{Check, CopyFigure, ProfileFigure, Span, SpanKind, TandemFigure, Verdict};
use super::restarts::restarts;
use super::tandem::{line_best, Tandem};
use super::thresholds::LoopRules;
use super::tokens::Tokenized;
use super::variation::Variation;
use copies::{copy_figure, judge_copies, retellings, with_restarts, CopiesJudged};
use degenerate_end::{degenerate_end_check, profile_figure};
use loop_check::{decisive_tandem, loop_check, loop_sentence, tandem_figure};
use std::ops::Range;

pub use copies::MAX_COPY_SPANS;
pub use loop_check::tandem_level;

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
    let mut tokenized = Tokenized::new(text);
    let exact = decisive_tandem(&tokenized, lines, rules);
    tokenized.drop_ranges();
    let ngrams = ngram_stats_of(tokenized.ids());
    let copies = copy_coverage(&tokenized, Some(ngrams.distinct_count[3]));
    let judged = judge_copies(text, &copies, &rules.copies);
    // Restarts can only raise the copies check. A passage re-told twice in slightly other
    // words keeps some 8 tokens in a row unchanged: a text without a single copy has none.
    let judged = if copies.spans.is_empty() || judged.check.level == Verdict::Fail {
        judged
    } else {
        with_restarts(
            text,
            judged,
            &retellings(text, &restarts(tokenized.ids(), tokenized.classes(), ngrams.distinct_count[3])),
            &rules.copies,
        )
    };
    drop(tokenized);
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
    let (profile_check, profile_why) = degenerate_end_check(&prof, n, &rules.degenerate_end);
    let tail_share = profile_check.value;
    let profile_level = profile_check.level;

    let checks = [loop_check(tandem.as_ref(), loop_level, n, rules), copy_check, profile_check];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_passes_every_loop_check() {
        let text = "The scheduler wakes the reclaim thread when free memory falls below the low watermark, \
                    and the thread then walks the inactive list from its tail, writing dirty pages back.";
        let f = find(text, &LoopRules::SEED);
        assert!(f.checks.iter().all(|c| c.level == Verdict::Pass), "{:?}", f.checks);
        assert!(f.spans.is_empty() && f.why.iter().all(Option::is_none));
        assert!(!f.checks[2].judged, "the profile needs 8 KiB");
    }
}
