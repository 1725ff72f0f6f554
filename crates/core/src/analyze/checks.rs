//! Turns metric values into checks, a verdict and reasons in words.

use super::report::{format_threshold, Check, Direction, Metric, Metrics, Verdict};
use super::thresholds::Thresholds;
use crate::wording::{plural, quote, thousands};

/// Where the headline figures come from, so reasons can quote the text.
pub struct Evidence<'a> {
    /// The repeated word of the longest run and the run's start byte.
    pub longest_run: Option<(&'a str, usize)>,
    /// The most repeated line.
    pub most_repeated_line: Option<&'a str>,
}

/// Judges the seed's three metrics against their thresholds, in [`Metric::SEED`] order. The
/// gzip ratio is judged only from `thresholds.gzip_min_bytes` of text (`bytes`): below that,
/// DEFLATE's fixed costs dominate and the ratio says little; the check then stays PASS with
/// `judged: false`.
pub fn seed_checks(m: &Metrics, t: &Thresholds, bytes: usize) -> Vec<Check> {
    Metric::SEED
        .iter()
        .map(|&metric| {
            let (value, warn_at, fail_at, direction) = seed_thresholds(metric, m, t);
            let judged = metric != Metric::GzipRatio || bytes >= t.gzip_min_bytes;
            let level = if judged { level_of(value, warn_at, fail_at, direction) } else { Verdict::Pass };
            Check { metric, value, warn_at, fail_at, direction, level, judged, data: false }
        })
        .collect()
}

/// What the seed script says: its three heuristics at its thresholds, whatever the text's size.
pub fn seed_verdict(m: &Metrics, t: &Thresholds) -> Verdict {
    Metric::SEED
        .iter()
        .map(|&metric| {
            let (value, warn_at, fail_at, direction) = seed_thresholds(metric, m, t);
            level_of(value, warn_at, fail_at, direction)
        })
        .max()
        .unwrap_or(Verdict::Pass)
}

fn seed_thresholds(metric: Metric, m: &Metrics, t: &Thresholds) -> (f64, f64, f64, Direction) {
    match metric {
        Metric::Maxrun => (m.maxrun as f64, t.maxrun_warn as f64, t.maxrun_fail as f64, Direction::AtLeast),
        Metric::Maxline => (m.maxline as f64, t.maxline_warn as f64, t.maxline_fail as f64, Direction::AtLeast),
        Metric::GzipRatio => (m.gzip_ratio, t.gzip_ratio_warn, t.gzip_ratio_fail, Direction::Below),
        other => unreachable!("{other:?} is not a seed metric"),
    }
}

pub(super) fn level_of(value: f64, warn_at: f64, fail_at: f64, direction: Direction) -> Verdict {
    let trips = |at: f64| match direction {
        Direction::AtLeast => value >= at,
        Direction::Below => value < at,
    };
    if trips(fail_at) {
        Verdict::Fail
    } else if trips(warn_at) {
        Verdict::Warn
    } else {
        Verdict::Pass
    }
}

/// The order in which checks at the same level are named: the loop checks say where and what
/// repeats, so they come before the seed's counts.
pub const PREFERENCE: [Metric; 10] = [
    Metric::Loop,
    Metric::Copies,
    Metric::Profile,
    Metric::TemplateLeak,
    Metric::TokenSoup,
    Metric::WordSalad,
    Metric::Drift,
    Metric::Maxrun,
    Metric::Maxline,
    Metric::GzipRatio,
];

/// The level a check contributes to the verdict. A maxline FAIL counts as WARN when the loop
/// check sees no loop and the copies check no FAIL-worthy copy: the line's occurrences are
/// then spread out, like a refrain or a litany's response, not a loop. A gzip-ratio or
/// degenerate-end FAIL counts as WARN when what repeats is data (the copies check's `data`:
/// rows of a table, lines of a log, a font's bytes under a counting comment) and neither the
/// loop check nor the copies check FAILs: such text compresses well without looping.
pub fn effective_level(c: &Check, checks: &[Check]) -> Verdict {
    let below = |metric, level| checks.iter().find(|k| k.metric == metric).is_none_or(|k| k.level < level);
    let data = checks.iter().any(|k| k.metric == Metric::Copies && k.data);
    let refrain = c.metric == Metric::Maxline && below(Metric::Loop, Verdict::Warn);
    let compresses_as_data =
        matches!(c.metric, Metric::GzipRatio | Metric::Profile) && data && below(Metric::Loop, Verdict::Fail);
    if c.level == Verdict::Fail && (refrain || compresses_as_data) && below(Metric::Copies, Verdict::Fail) {
        Verdict::Warn
    } else {
        c.level
    }
}

/// Why a check counts as WARN though it FAILs (see [`effective_level`]).
fn demoted_because(c: &Check) -> &'static str {
    if c.metric == Metric::Maxline {
        ", but not back to back (like a refrain), so WARN, not FAIL"
    } else {
        ", but what repeats is data (numbers changing from copy to copy), so WARN, not FAIL"
    }
}

/// The verdict (the worst effective level) and the check that set it, in [`PREFERENCE`] order.
pub fn verdict(checks: &[Check]) -> (Verdict, Option<Metric>) {
    let v = checks.iter().map(|c| effective_level(c, checks)).max().unwrap_or(Verdict::Pass);
    let tripped = (v > Verdict::Pass)
        .then(|| {
            PREFERENCE.into_iter().find(|&m| checks.iter().any(|c| c.metric == m && effective_level(c, checks) == v))
        })
        .flatten();
    (v, tripped)
}

/// A text too short to judge: its size, the minimum of non-blank bytes, and whether it is only
/// whitespace.
#[derive(Clone, Copy, Debug)]
pub struct TooShort {
    pub bytes: usize,
    pub min: usize,
    pub blank: bool,
}

/// The reasons for the verdict, worst first (then in [`PREFERENCE`] order): one sentence per
/// tripped check, or one sentence saying what was measured when nothing tripped.
/// `why` gives the loop checks' sentences (see [`super::loop_checks`]).
/// `too_short` is set when the text is too short to judge.
pub fn reasons(
    checks: &[Check],
    t: &Thresholds,
    m: &Metrics,
    ev: &Evidence,
    why: &dyn Fn(Metric) -> Option<String>,
    too_short: Option<TooShort>,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(TooShort { bytes, blank: true, .. }) = too_short {
        out.push(format!("Nothing to judge: the text is only whitespace ({}).", plural(bytes, "byte", "bytes")));
    } else if let Some(TooShort { bytes, min, .. }) = too_short {
        out.push(format!(
            "Too short to judge: {} of text (at least {min} non-blank bytes are needed for these heuristics to mean anything).",
            plural(bytes, "byte", "bytes")
        ));
    }
    let rank = |c: &Check| PREFERENCE.iter().position(|&p| p == c.metric).unwrap_or(PREFERENCE.len());
    let mut tripped: Vec<(&Check, Verdict)> =
        checks.iter().map(|c| (c, effective_level(c, checks))).filter(|(_, l)| *l != Verdict::Pass).collect();
    tripped.sort_by_key(|(c, l)| (std::cmp::Reverse(*l), rank(c)));
    for (c, effective) in &tripped {
        let at = if c.level == Verdict::Fail { c.fail_at } else { c.warn_at };
        let warn = if *effective == Verdict::Warn { " (WARN)" } else { "" };
        // The loop checks' rules combine several figures: their sentence says what tripped.
        let head = if c.metric.is_seed() {
            format!(
                "{} {} {} {}{warn}",
                c.metric.label(),
                c.value_text(),
                c.direction.symbol(true),
                format_threshold(c.metric, at)
            )
        } else {
            format!("{} {}{warn}", c.metric.label(), c.value_text())
        };
        let mut text = match c.metric {
            Metric::Maxrun => match ev.longest_run {
                Some((word, start)) => format!(
                    "the word '{}' repeats {} times in a row, from byte {}",
                    quote(word),
                    thousands(m.maxrun),
                    thousands(start)
                ),
                None => String::new(),
            },
            Metric::Maxline => match ev.most_repeated_line {
                Some(line) => format!("the line '{}' repeats {} times", quote(line), thousands(m.maxline)),
                None => String::new(),
            },
            Metric::GzipRatio => format!(
                "the whole text compresses to {:.2} % of its size — it says little that it has not said before",
                m.gzip_ratio * 100.0
            ),
            other => why(other).unwrap_or_default(),
        };
        if c.level != *effective {
            text.push_str(demoted_because(c));
        }
        out.push(format!("{head}: {text}"));
    }
    if tripped.is_empty() && too_short.is_none() {
        let parts: Vec<String> = checks
            .iter()
            .map(|c| {
                if !c.judged {
                    return format!(
                        "{} not judged ({})",
                        c.metric.label(),
                        c.metric.rule(t).unwrap_or_else(|| "text too short".into())
                    );
                }
                format!(
                    "{} {} {} {}",
                    c.metric.label(),
                    c.value_text(),
                    c.direction.symbol(false),
                    format_threshold(c.metric, c.warn_at)
                )
            })
            .collect();
        out.push(format!("No check reached its WARN threshold: {}.", parts.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::report::ProfileFigure;

    fn metrics(maxrun: usize, maxline: usize, gzip_ratio: f64) -> Metrics {
        Metrics {
            maxrun,
            maxline,
            content_maxline: None,
            gzip_ratio,
            gzip_bytes: 100,
            tandem: None,
            copy_coverage: 0.0,
            long_copy_share: 0.0,
            copy: None,
            profile: ProfileFigure {
                window: 4096,
                degenerate_below: 0.08,
                windows: vec![],
                onset: None,
                min_ratio: 1.0,
                tail_share: 0.0,
            },
            distinct: [1.0; 4],
            distinct_sample: 1,
            drift: None,
        }
    }

    fn loop_check(metric: Metric, level: Verdict) -> Check {
        Check {
            metric,
            value: 0.0,
            warn_at: 0.25,
            fail_at: 0.5,
            direction: Direction::AtLeast,
            level,
            judged: true,
            data: false,
        }
    }

    #[test]
    fn thresholds_are_inclusive_for_counts_and_strict_for_the_ratio() {
        let t = Thresholds::SEED;
        let lv = |m: Metrics| verdict(&seed_checks(&m, &t, 2000)).0;
        assert_eq!(lv(metrics(5, 4, 0.15)), Verdict::Pass);
        assert_eq!(lv(metrics(6, 1, 0.5)), Verdict::Warn);
        assert_eq!(lv(metrics(1, 5, 0.5)), Verdict::Warn);
        assert_eq!(lv(metrics(1, 1, 0.1499)), Verdict::Warn);
        assert_eq!(lv(metrics(12, 1, 0.5)), Verdict::Fail);
        assert_eq!(lv(metrics(1, 1, 0.0999)), Verdict::Fail);
        assert_eq!(lv(metrics(1, 1, 0.10)), Verdict::Warn);
        assert_eq!(seed_verdict(&metrics(1, 12, 0.5), &t), Verdict::Fail);
    }

    #[test]
    fn the_gzip_ratio_is_judged_from_1_kib() {
        let m = metrics(1, 1, 0.05);
        let short = seed_checks(&m, &Thresholds::SEED, 1023);
        assert_eq!((short[2].level, short[2].judged), (Verdict::Pass, false));
        assert_eq!(seed_verdict(&m, &Thresholds::SEED), Verdict::Fail, "the seed script judges it anyway");
        assert_eq!(seed_checks(&m, &Thresholds::SEED, 1024)[2].level, Verdict::Fail);
    }

    #[test]
    fn a_maxline_fail_without_a_loop_counts_as_warn() {
        let mut c = seed_checks(&metrics(1, 40, 0.5), &Thresholds::SEED, 2000);
        c.push(loop_check(Metric::Loop, Verdict::Pass));
        c.push(loop_check(Metric::Copies, Verdict::Pass));
        assert_eq!(c[1].level, Verdict::Fail, "the seed's value and threshold are kept");
        assert_eq!(verdict(&c), (Verdict::Warn, Some(Metric::Maxline)));
        c[3].level = Verdict::Fail;
        assert_eq!(verdict(&c), (Verdict::Fail, Some(Metric::Loop)), "the loop check is named first");
    }

    #[test]
    fn a_text_that_compresses_because_it_is_data_warns() {
        let mut c = seed_checks(&metrics(1, 1, 0.05), &Thresholds::SEED, 20_000);
        c.push(loop_check(Metric::Loop, Verdict::Pass));
        c.push(Check { data: true, ..loop_check(Metric::Copies, Verdict::Warn) });
        assert_eq!(verdict(&c), (Verdict::Warn, Some(Metric::Copies)));
        let r = reasons(
            &c,
            &Thresholds::SEED,
            &metrics(1, 1, 0.05),
            &Evidence { longest_run: None, most_repeated_line: None },
            &|_| None,
            None,
        );
        assert!(
            r.iter().any(
                |r| r.ends_with("but what repeats is data (numbers changing from copy to copy), so WARN, not FAIL")
            ),
            "{r:?}"
        );
        c[3].level = Verdict::Fail;
        assert_eq!(verdict(&c).0, Verdict::Fail, "a loop is a loop, data or not");
        c[3].level = Verdict::Pass;
        c[4].data = false;
        assert_eq!(verdict(&c).0, Verdict::Fail, "not data: the seed's FAIL stands");
    }

    #[test]
    fn reasons_quote_the_evidence_worst_first() {
        let m = metrics(7, 400, 0.0074);
        let mut c = seed_checks(&m, &Thresholds::SEED, 20_000);
        c.push(loop_check(Metric::Loop, Verdict::Fail));
        let ev = Evidence {
            longest_run: Some(("go", 12)),
            most_repeated_line: Some("All the same line, over and over again and again"),
        };
        let why = |m: Metric| (m == Metric::Loop).then(|| "from byte 0 the line 'All' repeats".to_string());
        let r = reasons(&c, &Thresholds::SEED, &m, &ev, &why, None);
        assert_eq!(r.len(), 4);
        assert_eq!(r[0], "loop 0 %: from byte 0 the line 'All' repeats");
        assert_eq!(r[1], "maxline 400 ≥ 12: the line 'All the same line, over and over again a…' repeats 400 times");
        assert!(r[2].starts_with("gzip ratio 0.0074 < 0.10: the whole text compresses to 0.74 %"), "{}", r[2]);
        assert_eq!(r[3], "maxrun 7 ≥ 6 (WARN): the word 'go' repeats 7 times in a row, from byte 12");
    }

    #[test]
    fn a_refrain_says_why_it_is_only_a_warning() {
        let m = metrics(1, 20, 0.5);
        let mut c = seed_checks(&m, &Thresholds::SEED, 2000);
        c.push(loop_check(Metric::Loop, Verdict::Pass));
        let ev = Evidence { longest_run: None, most_repeated_line: Some("Lord, hear our prayer.") };
        let r = reasons(&c, &Thresholds::SEED, &m, &ev, &|_| None, None);
        assert_eq!(
            r,
            ["maxline 20 ≥ 12 (WARN): the line 'Lord, hear our prayer.' repeats 20 times, but not back to back \
              (like a refrain), so WARN, not FAIL"]
        );
    }

    #[test]
    fn a_pass_says_what_was_measured() {
        let m = metrics(1, 1, 0.39);
        let mut c = seed_checks(&m, &Thresholds::SEED, 500);
        c.push(loop_check(Metric::Loop, Verdict::Pass));
        let r = reasons(
            &c,
            &Thresholds::SEED,
            &m,
            &Evidence { longest_run: None, most_repeated_line: None },
            &|_| None,
            None,
        );
        assert_eq!(
            r,
            ["No check reached its WARN threshold: maxrun 1 < 6, maxline 1 < 5, gzip ratio not judged (judged on \
              texts of 1 KiB or more), loop 0 % < 25 %."]
        );
    }
}
