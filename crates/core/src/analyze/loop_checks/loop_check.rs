//! The loop check: the tandem repeat that decides it (each level's longest and most covering
//! runs, read from a word, extended over copies with small edits), its level by the rules'
//! clauses, its sentence and its figure.

use super::share::share;
use crate::analyze::edited_runs;
use crate::analyze::report::{Check, Direction, Metric, TandemFigure, Verdict};
use crate::analyze::tandem::{number_tandems, tandems, Tandem, TandemBest, UnitKind};
use crate::analyze::thresholds::{LoopRules, TandemClause};
use crate::analyze::tokens::{Token, Tokenized};
use crate::analyze::variation::Variation;
use crate::wording::{percent_of, plural, quote, thousands};
use std::ops::Range;

/// The loop check's figure: the share of a text of `n` bytes covered by the decisive run.
pub(super) fn loop_check(tandem: Option<&Tandem>, level: Verdict, n: usize, rules: &LoopRules) -> Check {
    Check {
        metric: Metric::Loop,
        value: tandem.map_or(0.0, |t| share(t.len(), n)),
        warn_at: rules.loop_warn[0].share,
        fail_at: rules.loop_fail[0].share,
        direction: Direction::AtLeast,
        level,
        judged: true,
        data: false,
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
pub(super) fn decisive_tandem(
    tokenized: &Tokenized,
    lines: TandemBest,
    rules: &LoopRules,
) -> (Option<Tandem>, Verdict) {
    let (text, toks, ids) = (tokenized.text(), tokenized.tokens().unwrap_or_default(), tokenized.ids());
    let t = tandems(tokenized, lines);
    let mut numbers = TandemBest::default();
    number_tandems(text, toks, ids, |r| numbers.offer(r));
    let n = text.len();
    let mut best: Option<(Verdict, Tandem, usize)> = None;
    let candidates =
        [&t.line, &t.word, &t.char, &numbers].into_iter().flat_map(|b| [&b.longest, &b.covering]).flatten();
    // A rule line (`-----`, a table's border) is drawn, not said again.
    for found in candidates.filter(|t| !crate::analyze::rule_lines::within_rule_line(text, t.start..t.end)) {
        // Read from its first word; runs at word and line level take in the copies around
        // them with small edits. Ranked as found (a rotation loses at most a lead-in).
        let rotated = readable_rotation(text, toks, found.clone());
        let shift = rotated.start - found.start;
        let cand = match rotated.unit_kind {
            UnitKind::Char => rotated,
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
    let starts: Vec<usize> = match t.unit_kind {
        _ if !t.variation.is_exact() => return t,
        UnitKind::Char => (t.start..t.unit.end).filter(|&s| text.is_char_boundary(s)).collect(),
        UnitKind::Word => {
            let first = toks.partition_point(|k| k.start() < t.start);
            toks[first..].iter().take(t.period).map(|k| k.start()).collect()
        }
        UnitKind::Line => return t,
    };
    let Some(&s) = starts.iter().find(|&&s| !is_lead_in(text, s)) else { return t };
    let shift = s - t.start;
    let unit_len = t.unit.len();
    if s == t.start || t.len() - shift < 2 * unit_len {
        return t;
    }
    // The unit's bytes from `s`: the rest of this copy and the start of the next.
    let (count, unit) = match t.unit_kind {
        UnitKind::Word => {
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

pub(super) fn loop_sentence(text: &str, t: &Tandem) -> String {
    // Words and lines are quoted without the whitespace that separates them.
    let unit = if t.unit_kind == UnitKind::Char { &text[t.unit.clone()] } else { text[t.unit.clone()].trim_end() };
    let size = match t.unit_kind {
        UnitKind::Char => format!("{}-byte unit", thousands(t.unit.len())),
        UnitKind::Word if t.period == 1 => "word".to_string(),
        UnitKind::Word => format!("{}-token unit", thousands(t.period)),
        UnitKind::Line if t.period == 1 => "line".to_string(),
        UnitKind::Line => format!("{}-line unit", thousands(t.period)),
    };
    let reach = if text.len() - t.end < t.unit.len().max(2) {
        "to the end".to_string()
    } else {
        format!("to byte {}", thousands(t.end))
    };
    // At character level a run may end in part of a copy.
    let part = if t.unit_kind == UnitKind::Char && t.len() > t.count * t.unit.len() { " and then in part" } else { "" };
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

pub(super) fn tandem_figure(text: &str, t: &Tandem) -> TandemFigure {
    TandemFigure {
        unit_kind: t.unit_kind,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::loop_checks::find;
    use crate::analyze::report::SpanKind;

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
    fn tandem_rules() {
        let t = |count: usize, unit: usize, start: usize, _n: usize| Tandem {
            unit_kind: UnitKind::Char,
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
