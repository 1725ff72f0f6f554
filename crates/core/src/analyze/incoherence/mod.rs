//! Incoherence beyond repetition, judged: a leaked chat template (`template_leak`), token
//! soup (`token_soup`), word salad (`word_salad`, `misplaced`, `run_on`) and topic drift (`drift`, never worse than
//! a WARN). Each gives a check with its value and level against
//! [`IncoherenceRules`], the spans that show it, where it starts (for the onset) and a
//! sentence that quotes what it found. The whole text is judged at every report, so a text
//! pushed in pieces gets the same findings as one push.

mod char_set;
pub mod drift;
pub mod function_words;
pub mod misplaced;
pub mod no_language;
pub mod run_on;
mod swar;
pub mod template_leak;
pub mod token_soup;
pub mod word_salad;
mod words;

use super::report::{Check, Direction, DriftFigure, Metric, Span, SpanKind, Verdict};
use super::thresholds::IncoherenceRules;
use crate::wording::{plural, quote, thousands};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Spans listed per check; more are counted in `spans_not_listed`.
pub const MAX_SPANS: usize = 1000;

/// What the incoherence checks found in one text (serde: a second worker of the page finds
/// them for a long text, see [`super::side_passes`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IncoherenceFindings {
    /// Template leak, token soup, word salad and drift, in [`Metric::ALL`]'s order.
    pub checks: [Check; 4],
    /// Where each check's finding lies (for the onset), in the same order.
    pub regions: [Option<Range<usize>>; 4],
    /// One sentence per check at WARN or FAIL (without the "label value" head).
    pub why: [Option<String>; 4],
    pub spans: Vec<Span>,
    pub spans_not_listed: usize,
    /// The drift rule's series, where drift is judged.
    pub drift: Option<DriftFigure>,
}

impl IncoherenceFindings {
    /// The sentence of `metric`'s check, if it tripped.
    pub fn why_of(&self, metric: Metric) -> Option<String> {
        let i = self.checks.iter().position(|c| c.metric == metric)?;
        self.why[i].clone()
    }

    /// The region of `metric`'s check, if it tripped.
    pub fn region_of(&self, metric: Metric) -> Option<Range<usize>> {
        let i = self.checks.iter().position(|c| c.metric == metric)?;
        self.regions[i].clone()
    }
}

fn level_of(value: usize, warn: usize, fail: usize) -> Verdict {
    if value >= fail {
        Verdict::Fail
    } else if value >= warn {
        Verdict::Warn
    } else {
        Verdict::Pass
    }
}

fn check(metric: Metric, value: usize, warn: usize, fail: usize, level: Verdict) -> Check {
    Check {
        metric,
        value: value as f64,
        warn_at: warn as f64,
        fail_at: fail as f64,
        direction: Direction::AtLeast,
        level,
        judged: true,
        data: false,
    }
}

/// Judges `text` by the incoherence checks.
pub fn find(text: &str, rules: &IncoherenceRules) -> IncoherenceFindings {
    find_with_prompt(text, None, rules)
}

/// The drift check of a text: its check, region, sentence and span (at WARN).
#[derive(Clone, Debug, PartialEq)]
pub struct DriftJudged {
    pub check: Check,
    pub region: Option<Range<usize>>,
    pub why: Option<String>,
    pub span: Option<Span>,
    /// The rule's series, where it judged the text.
    pub figure: Option<DriftFigure>,
}

/// The drift check of `text`, a model's reply to `prompt` when there is one (see
/// [`drift::drift_from`]). Never worse than WARN.
pub fn judge_drift(text: &str, prompt: Option<&str>, rules: &IncoherenceRules) -> DriftJudged {
    let found = drift::drift_from(text, prompt);
    let share = found.as_ref().map_or(0.0, |d| d.tail.len() as f64 / text.len() as f64);
    let level = if found.is_some() && share >= rules.drift_warn { Verdict::Warn } else { Verdict::Pass };
    let check = Check {
        metric: Metric::Drift,
        value: share,
        warn_at: rules.drift_warn,
        fail_at: 1.0,
        direction: Direction::AtLeast,
        level,
        judged: found.is_some(),
        data: false,
    };
    let figure = found.as_ref().map(|d| DriftFigure {
        topic: d.topic.clone(),
        prompt_words: d.prompt_words,
        opening: d.opening,
        window: d.window,
        windows: d.presence.clone(),
        tail: d.tail.start,
    });
    let Some(d) = found.filter(|_| level == Verdict::Warn) else {
        return DriftJudged { check, region: None, why: None, span: None, figure };
    };
    let span = Span {
        start: d.tail.start,
        end: d.tail.end,
        kind: SpanKind::Drift,
        count: d.tail.len(),
        level: Verdict::Warn,
        period: None,
        source: None,
    };
    let listed = |words: &[String]| words.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(", ");
    let why = if d.prompt_topic.is_empty() {
        format!(
            "from byte {} to the end ({}) none of the opening's topic words ({}) comes back; drift alone is a WARN",
            thousands(d.tail.start),
            crate::wording::percent(share),
            listed(&d.topic)
        )
    } else {
        format!(
            "from byte {} to the end ({}) neither the prompt's topic words ({}) nor the opening's ({}) come back; drift alone is a WARN",
            thousands(d.tail.start),
            crate::wording::percent(share),
            listed(&d.prompt_topic),
            listed(&d.topic)
        )
    };
    DriftJudged { check, region: Some(d.tail), why: Some(why), span: Some(span), figure }
}

/// [`find`] for a model's reply to `prompt` (the last user message before it), when it has
/// one: the drift check measures the reply against the prompt's topic too.
pub fn find_with_prompt(text: &str, prompt: Option<&str>, rules: &IncoherenceRules) -> IncoherenceFindings {
    let mut spans = Vec::new();
    let mut spans_not_listed = 0;

    // The template leak.
    let leaks = template_leak::leaks(text);
    let runaway = leaks.iter().find(|l| l.written_after >= rules.leak_text_after);
    let leak_level = if leaks.len() >= rules.leak_fail && runaway.is_some() {
        Verdict::Fail
    } else if leaks.len() >= rules.leak_warn {
        Verdict::Warn
    } else {
        Verdict::Pass
    };
    let leak_check = check(Metric::TemplateLeak, leaks.len(), rules.leak_warn, rules.leak_fail, leak_level);
    let mut leak_region = None;
    let mut leak_why = None;
    if leak_level > Verdict::Pass {
        for l in &leaks {
            if spans.len() >= MAX_SPANS {
                spans_not_listed += 1;
                continue;
            }
            let level = if l.written_after >= rules.leak_text_after { Verdict::Fail } else { Verdict::Warn };
            spans.push(Span {
                start: l.marker.start,
                end: l.after.end,
                kind: SpanKind::TemplateLeak,
                count: l.written_after,
                level,
                period: None,
                source: None,
            });
        }
        let first = &leaks[0];
        leak_region = Some(first.marker.start..leaks.last().map_or(text.len(), |l| l.after.end));
        let told = runaway.unwrap_or(first);
        let marker = quote(&text[told.marker.clone()]);
        let mut sentence = match runaway {
            Some(l) => format!(
                "the model wrote '{marker}' at byte {} and went on for {} ('{}')",
                thousands(l.marker.start),
                plural(l.written_after, "non-blank byte", "non-blank bytes"),
                quote(text[l.after.clone()].trim_start())
            ),
            None => format!(
                "the model wrote '{marker}' at byte {}, with nothing after it: the server shows its template's stop marker",
                thousands(told.marker.start)
            ),
        };
        if leaks.len() > 1 {
            sentence.push_str(&format!(" — {} in all", plural(leaks.len(), "leak", "leaks")));
        }
        leak_why = Some(sentence);
    }

    // Token soup and word salad: odd words counted in windows of words.
    let (odd, words) = odd_words(text, rules);
    let odd: Vec<Unit> = odd.into_iter().map(|w| Unit { range: w.range, index: w.index, why: w.why.words() }).collect();
    let soup = Windowed {
        metric: Metric::TokenSoup,
        kind: SpanKind::TokenSoup,
        noun: ("odd word", "odd words"),
        window: rules.soup_window,
    };
    let counts =
        (rules.soup_warn, IncoherenceRules::fail_in(rules.soup_warn, rules.soup_fail, rules.soup_window, words));
    let (soup_check, soup_region, soup_why) = soup.judge(text, &odd, counts, &mut spans, &mut spans_not_listed);
    let (glued, words) = word_salad::glued_words(text);
    let glued: Vec<Unit> =
        glued.into_iter().map(|g| Unit { range: g.range, index: g.index, why: "words run together" }).collect();
    let salad = Windowed {
        metric: Metric::WordSalad,
        kind: SpanKind::GluedWord,
        noun: ("glued word", "glued words"),
        window: rules.soup_window,
    };
    let counts =
        (rules.salad_warn, IncoherenceRules::fail_in(rules.salad_warn, rules.salad_fail, rules.soup_window, words));
    let glued_judged = salad.judge(text, &glued, counts, &mut spans, &mut spans_not_listed);
    let (pairs, words) = misplaced::misplaced_pairs(text);
    let pairs: Vec<Unit> = pairs
        .into_iter()
        .map(|p| Unit { range: p.range, index: p.index, why: "function words out of place" })
        .collect();
    let misplaced = Windowed {
        metric: Metric::WordSalad,
        kind: SpanKind::MisplacedWords,
        noun: ("misplaced function-word pair", "misplaced function-word pairs"),
        window: rules.salad_misplaced_window,
    };
    // A rate, not a burst: the onset goes back to where the pairs start coming.
    let misplaced_judged =
        misplaced.judge(text, &pairs, rules.misplaced_counts_in(words), &mut spans, &mut spans_not_listed);
    // The word-salad check is the worse of its two counts (glued words first when both trip
    // alike); a count that trips with the other says so in the sentence.
    let run_on_judged = judge_run_ons(text, rules, &mut spans, &mut spans_not_listed);
    let (salad_check, salad_region, salad_why) = combine(combine(glued_judged, misplaced_judged), run_on_judged);
    // Drift: the opening's (and the prompt's) topic words never come back in a long tail.
    let DriftJudged { check: drift_check, region: drift_region, why: drift_why, span, figure } =
        judge_drift(text, prompt, rules);
    spans.extend(span);
    spans.sort_by_key(|s| (s.start, s.end));
    IncoherenceFindings {
        checks: [leak_check, soup_check, salad_check, drift_check],
        regions: [leak_region, soup_region, salad_region, drift_region],
        why: [leak_why, soup_why, salad_why, drift_why],
        spans,
        spans_not_listed,
        drift: figure,
    }
}

/// One of the word-salad check's two counts: its check, region and sentence.
type Judged = (Check, Option<Range<usize>>, Option<String>);

/// The word-salad check from its glued-word and misplaced-pair counts: the worse of the two
/// (the glued words when alike), with the other's sentence added when it tripped too; its
/// region is the worse count's.
fn combine(glued: Judged, misplaced: Judged) -> Judged {
    let (main, other) = if misplaced.0.level > glued.0.level { (misplaced, glued) } else { (glued, misplaced) };
    let (check, region, why) = main;
    // The onset is the worse count's (the other's region may lie in healthy text before it).
    let region = region.or(other.1);
    let why = match (why, other.2) {
        (Some(a), Some(b)) => Some(format!("{a}; and {b}")),
        (a, b) => a.or(b),
    };
    (check, region, why)
}

/// The word-salad check's third count: the longest sentence that never ends (see `run_on`), in
/// words; its spans (one a sentence at WARN or over) pushed to `spans`.
fn judge_run_ons(text: &str, rules: &IncoherenceRules, spans: &mut Vec<Span>, not_listed: &mut usize) -> Judged {
    let (warn, fail) = (rules.salad_run_on_warn, rules.salad_run_on_fail);
    let (runs, _) = run_on::run_ons(text, warn.min(fail));
    let longest = runs.iter().map(|r| r.words).max().unwrap_or(0);
    let level = level_of(longest, warn, fail);
    let check = check(Metric::WordSalad, longest, warn, fail, level);
    let (Some(first), Some(last)) = (runs.first(), runs.last()) else { return (check, None, None) };
    for r in &runs {
        if spans.len() >= MAX_SPANS {
            *not_listed += 1;
            continue;
        }
        spans.push(Span {
            start: r.range.start,
            end: r.range.end,
            kind: SpanKind::RunOn,
            count: r.words,
            level: level_of(r.words, warn, fail),
            period: None,
            source: None,
        });
    }
    let opening: String = text[first.range.clone()].split_whitespace().take(10).collect::<Vec<_>>().join(" ");
    let mut why = format!(
        "a sentence of {} from byte {} never ends ('{}…'): no stop, no line break",
        plural(first.words, "word", "words"),
        thousands(first.range.start),
        quote(&opening)
    );
    if runs.len() > 1 {
        why.push_str(&format!(
            "; {} such sentences in all, the longest {}",
            runs.len(),
            plural(longest, "word", "words")
        ));
    }
    (check, Some(first.range.start..last.range.end), Some(why))
}

/// The odd words of `text` (see `token_soup`), with the words of its stretches in no language
/// (see `no_language`) in their places, and the number of its words.
fn odd_words(text: &str, rules: &IncoherenceRules) -> (Vec<token_soup::OddWord>, usize) {
    use token_soup::{OddWord, Oddity};
    let (out, words) = token_soup::odd_words(text);
    let gibberish = no_language::words(text, rules.soup_function_window, rules.soup_function_share);
    if gibberish.is_empty() {
        return (out, words);
    }
    let mut merged = Vec::with_capacity(out.len() + gibberish.len());
    let mut odd = out.into_iter().peekable();
    for g in gibberish {
        while let Some(o) = odd.next_if(|o| o.index <= g.index) {
            merged.push(o);
        }
        if merged.last().is_some_and(|o: &OddWord| o.index == g.index) {
            continue;
        }
        merged.push(OddWord { range: g.range, index: g.index, why: Oddity::NoLanguage });
    }
    merged.extend(odd);
    (merged, words)
}

/// A word a windowed check counts: its bytes, its index among the text's words, why.
struct Unit {
    range: Range<usize>,
    index: usize,
    why: &'static str,
}

/// A check that counts odd words (or glued words, or misplaced pairs) in every window of
/// `window` words.
struct Windowed {
    metric: Metric,
    kind: SpanKind,
    noun: (&'static str, &'static str),
    /// The window's length in words.
    window: usize,
}

impl Windowed {
    /// The check of `units` (in order) by the counts (WARN, FAIL) that judge the text (a text
    /// shorter than the window is judged at the same rate: see [`IncoherenceRules::fail_in`] and
    /// [`IncoherenceRules::misplaced_counts_in`]), its region and sentence; its spans pushed to
    /// `spans` (past [`MAX_SPANS`], counted in `not_listed`).
    fn judge(
        &self,
        text: &str,
        units: &[Unit],
        (warn, fail_at): (usize, usize),
        spans: &mut Vec<Span>,
        not_listed: &mut usize,
    ) -> (Check, Option<Range<usize>>, Option<String>) {
        let window = self.window;
        let (densest, mut onset) = densest(units, window, warn);
        if self.kind == SpanKind::MisplacedWords {
            // Misplaced pairs come at a rate (one in a few dozen words of salad), and the first
            // window that holds the WARN count may start well into the salad: the onset goes
            // back over the pairs before it, each within a window of the next (healthy prose
            // has next to none: one in tens of thousands of words).
            let gap = window.max(1);
            while let Some(i) = onset.filter(|&i| i > 0 && units[i].index - units[i - 1].index <= gap) {
                onset = Some(i - 1);
            }
        }
        let level = level_of(densest, warn, fail_at);
        let check = check(self.metric, densest, warn, fail_at, level);
        let Some(first) = onset.filter(|_| level > Verdict::Pass) else { return (check, None, None) };
        // Each unit with the units in the window it opens.
        let mut hi = 0;
        let mut listed = 0;
        for (i, w) in units.iter().enumerate() {
            hi = hi.max(i);
            if i > 0 && units[i - 1].range == w.range {
                // One word counted as several (a byte-level text's pieces): one span.
                continue;
            }
            while units.get(hi + 1).is_some_and(|n| n.index - w.index < window) {
                hi += 1;
            }
            if listed >= MAX_SPANS {
                *not_listed += 1;
                continue;
            }
            listed += 1;
            spans.push(Span {
                start: w.range.start,
                end: w.range.end,
                kind: self.kind,
                count: hi - i + 1,
                level,
                period: None,
                source: None,
            });
        }
        let start = units[first].range.start;
        let region = start..units.last().map_or(text.len(), |w| w.range.end);
        let mut shown: Vec<String> = Vec::new();
        let mut kinds: Vec<&str> = Vec::new();
        let stretch = units[first].why == token_soup::Oddity::NoLanguage.words();
        if stretch {
            // Words of no language are shown as the stretch they make.
            let end = units[first..].iter().take(8).next_back().map_or(start, |w| w.range.end);
            shown.push(format!("'{}'", quote(&text[start..end])));
        }
        for (i, w) in units[first..].iter().enumerate() {
            if !stretch && shown.len() < 3 && (i == 0 || units[first + i - 1].range != w.range) {
                shown.push(format!("'{}'", quote(&text[w.range.clone()])));
            }
            if !kinds.contains(&w.why) {
                kinds.push(w.why);
            }
        }
        let (one, many) = self.noun;
        let why = format!(
            "{} in {window} words, from byte {}: {} ({}); {} in all",
            plural(densest, one, many),
            thousands(start),
            shown.join(", "),
            kinds.join(", "),
            plural(units.len(), one, many)
        );
        (check, Some(region), Some(why))
    }
}

/// The most units among any `window` consecutive words, and the index (into `units`) of the
/// first unit of the first window that holds at least `at_least` of them, if one does.
fn densest(units: &[Unit], window: usize, at_least: usize) -> (usize, Option<usize>) {
    let mut best = 0;
    let mut first = None;
    let mut lo = 0;
    for hi in 0..units.len() {
        while units[hi].index - units[lo].index >= window {
            lo += 1;
        }
        let n = hi - lo + 1;
        if n >= at_least && first.is_none() {
            first = Some(lo);
        }
        best = best.max(n);
    }
    (best, first)
}
