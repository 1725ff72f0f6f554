//! Turns metric values into checks, a verdict and reasons in words.

use super::report::{format_threshold, Check, Direction, Metric, Metrics, Verdict};
use super::thresholds::Thresholds;

/// Where the headline figures come from, so reasons can quote the text.
pub struct Evidence<'a> {
    /// The repeated word of the longest run and the run's start byte.
    pub longest_run: Option<(&'a str, usize)>,
    /// The most repeated line.
    pub most_repeated_line: Option<&'a str>,
}

/// Judges each metric against its thresholds.
pub fn checks(m: &Metrics, t: &Thresholds) -> Vec<Check> {
    Metric::ALL
        .iter()
        .map(|&metric| {
            let (value, warn_at, fail_at, direction) = match metric {
                Metric::Maxrun => (m.maxrun as f64, t.maxrun_warn as f64, t.maxrun_fail as f64, Direction::AtLeast),
                Metric::Maxline => (m.maxline as f64, t.maxline_warn as f64, t.maxline_fail as f64, Direction::AtLeast),
                Metric::GzipRatio => (m.gzip_ratio, t.gzip_ratio_warn, t.gzip_ratio_fail, Direction::Below),
            };
            let trips = |at: f64| match direction {
                Direction::AtLeast => value >= at,
                Direction::Below => value < at,
            };
            let level = if trips(fail_at) {
                Verdict::Fail
            } else if trips(warn_at) {
                Verdict::Warn
            } else {
                Verdict::Pass
            };
            Check { metric, value, warn_at, fail_at, direction, level }
        })
        .collect()
}

/// The worst level among the checks.
pub fn verdict(checks: &[Check]) -> Verdict {
    checks.iter().map(|c| c.level).max().unwrap_or(Verdict::Pass)
}

/// The reasons for the verdict, worst first: one sentence per tripped check, or one sentence
/// saying nothing tripped.
/// `too_short` is `Some((bytes, min_bytes))` when the text is too short to judge.
pub fn reasons(checks: &[Check], m: &Metrics, ev: &Evidence, too_short: Option<(usize, usize)>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some((bytes, min)) = too_short {
        out.push(format!(
            "Too short to judge: {} of text (at least {min} non-blank bytes are needed for these heuristics to mean anything).",
            plural(bytes, "byte")
        ));
    }
    let mut tripped: Vec<&Check> = checks.iter().filter(|c| c.level != Verdict::Pass).collect();
    tripped.sort_by_key(|c| std::cmp::Reverse(c.level));
    for c in &tripped {
        let at = if c.level == Verdict::Fail { c.fail_at } else { c.warn_at };
        let head = format!(
            "{} {} {} {}{}",
            c.metric.label(),
            c.value_text(),
            c.direction.symbol(true),
            format_threshold(c.metric, at),
            if c.level == Verdict::Warn { " (WARN)" } else { "" }
        );
        let why = match c.metric {
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
        };
        out.push(format!("{head}: {why}"));
    }
    if tripped.is_empty() && too_short.is_none() {
        let parts: Vec<String> = checks
            .iter()
            .map(|c| {
                format!(
                    "{} {} {} {}",
                    c.metric.label(),
                    c.value_text(),
                    c.direction.symbol(false),
                    format_threshold(c.metric, c.warn_at)
                )
            })
            .collect();
        out.push(format!("No heuristic reached its WARN threshold: {}.", parts.join(", ")));
    }
    out
}

/// `text` shortened to 40 characters, with line breaks shown as ⏎.
pub fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = text.chars().take(MAX).map(|c| if c == '\n' || c == '\r' { '⏎' } else { c }).collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

/// 12345 → "12,345".
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn plural(n: usize, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{} {unit}s", thousands(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(maxrun: usize, maxline: usize, gzip_ratio: f64) -> Metrics {
        Metrics { maxrun, maxline, gzip_ratio, gzip_bytes: 100 }
    }

    #[test]
    fn thresholds_are_inclusive_for_counts_and_strict_for_the_ratio() {
        let t = Thresholds::SEED;
        let lv = |m: Metrics| verdict(&checks(&m, &t));
        assert_eq!(lv(metrics(5, 4, 0.15)), Verdict::Pass);
        assert_eq!(lv(metrics(6, 1, 0.5)), Verdict::Warn);
        assert_eq!(lv(metrics(1, 5, 0.5)), Verdict::Warn);
        assert_eq!(lv(metrics(1, 1, 0.1499)), Verdict::Warn);
        assert_eq!(lv(metrics(12, 1, 0.5)), Verdict::Fail);
        assert_eq!(lv(metrics(1, 12, 0.5)), Verdict::Fail);
        assert_eq!(lv(metrics(1, 1, 0.0999)), Verdict::Fail);
        assert_eq!(lv(metrics(1, 1, 0.10)), Verdict::Warn);
    }

    #[test]
    fn reasons_quote_the_evidence_worst_first() {
        let m = metrics(7, 400, 0.0074);
        let c = checks(&m, &Thresholds::SEED);
        let ev = Evidence {
            longest_run: Some(("go", 12)),
            most_repeated_line: Some("All the same line, over and over again and again"),
        };
        let r = reasons(&c, &m, &ev, None);
        assert_eq!(r.len(), 3);
        assert_eq!(r[0], "maxline 400 ≥ 12: the line 'All the same line, over and over again a…' repeats 400 times");
        assert!(r[1].starts_with("gzip ratio 0.0074 < 0.10: the whole text compresses to 0.74 %"), "{}", r[1]);
        assert_eq!(r[2], "maxrun 7 ≥ 6 (WARN): the word 'go' repeats 7 times in a row, from byte 12");
    }

    #[test]
    fn a_pass_says_what_was_measured() {
        let m = metrics(1, 1, 0.39);
        let r = reasons(
            &checks(&m, &Thresholds::SEED),
            &m,
            &Evidence { longest_run: None, most_repeated_line: None },
            None,
        );
        assert_eq!(
            r,
            ["No heuristic reached its WARN threshold: maxrun 1 < 6, maxline 1 < 5, gzip ratio 0.3900 ≥ 0.15."]
        );
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(15999), "15,999");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
