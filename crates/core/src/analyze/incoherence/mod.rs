//! Incoherence beyond repetition, judged: a leaked chat template (`template_leak`) and token
//! soup (`token_soup`). Each gives a check with its value and level against
//! [`IncoherenceRules`], the spans that show it, where it starts (for the onset) and a
//! sentence that quotes what it found. The whole text is judged at every report, so a text
//! pushed in pieces gets the same findings as one push.

pub mod template_leak;
pub mod token_soup;

use super::report::{Check, Direction, Metric, Span, SpanKind, Verdict};
use super::thresholds::IncoherenceRules;
use crate::wording::{plural, quote, thousands};
use std::ops::Range;

/// Spans listed per check; more are counted in `spans_not_listed`.
pub const MAX_SPANS: usize = 1000;

/// What the incoherence checks found in one text.
#[derive(Clone, Debug, PartialEq)]
pub struct IncoherenceFindings {
    /// Template leak and token soup, in [`Metric::ALL`]'s order.
    pub checks: [Check; 2],
    /// Where each check's finding lies (for the onset), in the same order.
    pub regions: [Option<Range<usize>>; 2],
    /// One sentence per check at WARN or FAIL (without the "label value" head).
    pub why: [Option<String>; 2],
    pub spans: Vec<Span>,
    pub spans_not_listed: usize,
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

    // Token soup.
    let (odd, words) = token_soup::odd_words(text);
    let (densest, onset) = token_soup::densest(&odd, rules.soup_window, rules.soup_warn);
    // A text shorter than the window FAILs at the same rate: a sentence of soup.
    let fail_at = rules.soup_fail_in(words);
    let soup_level = level_of(densest, rules.soup_warn, fail_at);
    let soup_check = check(Metric::TokenSoup, densest, rules.soup_warn, fail_at, soup_level);
    let mut soup_region = None;
    let mut soup_why = None;
    if let (Some(first), true) = (onset, soup_level > Verdict::Pass) {
        // Each odd word with the odd words in the window it opens.
        let mut hi = 0;
        let mut listed = 0;
        for (i, w) in odd.iter().enumerate() {
            hi = hi.max(i);
            if i > 0 && odd[i - 1].range == w.range {
                // One word counted as several (a byte-level text's pieces): one span.
                continue;
            }
            while odd.get(hi + 1).is_some_and(|n| n.index - w.index < rules.soup_window) {
                hi += 1;
            }
            if listed >= MAX_SPANS {
                spans_not_listed += 1;
                continue;
            }
            listed += 1;
            spans.push(Span {
                start: w.range.start,
                end: w.range.end,
                kind: SpanKind::TokenSoup,
                count: hi - i + 1,
                level: soup_level,
                period: None,
                source: None,
            });
        }
        let start = odd[first].range.start;
        soup_region = Some(start..odd.last().map_or(text.len(), |w| w.range.end));
        let shown: Vec<String> =
            odd[first..].iter().take(3).map(|w| format!("'{}'", quote(&text[w.range.clone()]))).collect();
        let mut kinds: Vec<&str> = Vec::new();
        for w in &odd[first..] {
            if !kinds.contains(&w.why.words()) {
                kinds.push(w.why.words());
            }
        }
        soup_why = Some(format!(
            "{} in {} words, from byte {}: {} ({}); {} in all",
            plural(densest, "odd word", "odd words"),
            rules.soup_window,
            thousands(start),
            shown.join(", "),
            kinds.join(", "),
            plural(odd.len(), "odd word", "odd words")
        ));
    }
    crate::order::sort_by_key_stable(&mut spans, |s| (s.start, s.end));
    IncoherenceFindings {
        checks: [leak_check, soup_check],
        regions: [leak_region, soup_region],
        why: [leak_why, soup_why],
        spans,
        spans_not_listed,
    }
}
