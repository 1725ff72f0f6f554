//! Evidence for issue 5: the new scorers over the labelled corpus, as a table, and a candidate
//! verdict rule with its confusion table (label × PASS/WARN/FAIL).
//!
//! `cargo test --test scorer_evidence -- --nocapture` prints them; `EVIDENCE_1MB=1` adds the
//! 1 MB texts. The scorers are not wired into the verdict yet: the rule below is a candidate,
//! printed so thresholds can be chosen from the figures. The assertions pin only what holds
//! robustly: the detectors find the planted unit, period and onset.

#[path = "support/labelled.rs"]
mod labelled;
#[path = "support/textgen.rs"]
mod textgen;

use coherency::analyze::copy_coverage::{copy_coverage, CopyCoverage, CopySpan};
use coherency::analyze::ngram_stats::{ngram_stats, NgramStats};
use coherency::analyze::profile::{profile, Profile, WINDOW};
use coherency::analyze::tandem::{tandems, Tandem, Tandems};
use labelled::{corpus, Labelled, KINDS};
use std::collections::BTreeMap;
use std::fmt::Write;

struct Figures {
    tandems: Tandems,
    copy: CopyCoverage,
    profile: Profile,
    ngrams: NgramStats,
}

fn figures(text: &str) -> Figures {
    Figures { tandems: tandems(text), copy: copy_coverage(text), profile: profile(text), ngrams: ngram_stats(text) }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Pass,
    Warn,
    Fail,
}

/// Share of `n` bytes.
fn share(bytes: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        bytes as f64 / n as f64
    }
}

/// Copied spans that are long (≥ 32 tokens) and nearly exact (≤ 12 % edits): a block said
/// again, not a template filled with new values (logs run at 15–20 % edits).
fn long_copies(c: &CopyCoverage) -> impl Iterator<Item = &CopySpan> {
    c.spans.iter().filter(|s| s.tokens >= 32 && s.edit_density() <= 0.12)
}

/// The share of the text in long copies, the share of the longest one, and its source.
fn long_copy(c: &CopyCoverage, n: usize) -> (f64, f64, Option<usize>) {
    let longest =
        long_copies(c).fold(
            None,
            |b: Option<&CopySpan>, s| {
                if b.is_none_or(|b| s.end - s.start > b.end - b.start) {
                    Some(s)
                } else {
                    b
                }
            },
        );
    (
        share(long_copies(c).map(|s| s.end - s.start).sum(), n),
        longest.map_or(0.0, |s| share(s.end - s.start, n)),
        longest.map(|s| s.source),
    )
}

/// The candidate rule; returns the verdict, the detected onset and the scorer that decided.
///
/// FAIL: an exact loop (≥ 4 copies over half the text, ≥ 3 over three quarters, or ≥ 5
/// running to the end of the text over a quarter of it); one long near-exact copy over 30 %
/// of the text; a degenerate 4 KiB-window tail over a quarter of a text of ≥ 2 windows.
/// WARN: ≥ 3 copies over a quarter; long copies over 30 % in all; any copies over half.
fn candidate(f: &Figures, n: usize) -> (Verdict, Option<usize>, &'static str) {
    let t = f.tandems.covering();
    let (tcount, tcov) = t.map_or((0, 0.0), |t| (t.count, share(t.len(), n)));
    let to_end = t.is_some_and(|t| n - t.end < t.unit.len().max(2));
    let tandem_onset = t.map(|t| t.start);
    let (lcov, lmax, lsrc) = long_copy(&f.copy, n);
    let prof_tail = f.profile.onset.map_or(0.0, |o| share(n - o, n));
    if (tcount >= 4 && tcov >= 0.5) || (tcount >= 3 && tcov >= 0.75) || (tcount >= 5 && to_end && tcov >= 0.25) {
        return (Verdict::Fail, tandem_onset, "tandem");
    }
    if lmax >= 0.3 {
        return (Verdict::Fail, lsrc, "long copy");
    }
    if n >= 2 * WINDOW && prof_tail >= 0.25 {
        return (Verdict::Fail, f.profile.onset, "profile");
    }
    if tcount >= 3 && tcov >= 0.25 {
        return (Verdict::Warn, tandem_onset, "tandem");
    }
    if lcov >= 0.3 {
        return (Verdict::Warn, lsrc, "long copies");
    }
    if f.copy.coverage >= 0.5 {
        return (Verdict::Warn, f.copy.longest().map(|s| s.source), "copy");
    }
    (Verdict::Pass, None, "")
}

/// Edits per copied token over all spans.
fn edit_density(c: &CopyCoverage) -> f64 {
    let tokens: usize = c.spans.iter().map(|s| s.tokens).sum();
    share(c.spans.iter().map(|s| s.edits).sum(), tokens)
}

fn lengths() -> Vec<usize> {
    let mut l = vec![60, 100, 300, 1000, 10_000, 100_000];
    if std::env::var_os("EVIDENCE_1MB").is_some() {
        l.push(1_000_000);
    }
    l
}

fn fmt_opt(o: Option<usize>) -> String {
    o.map_or("-".into(), |o| o.to_string())
}

fn level(t: &Tandem) -> &'static str {
    match t.level {
        coherency::analyze::tandem::Level::Char => "c",
        coherency::analyze::tandem::Level::Word => "w",
        coherency::analyze::tandem::Level::Line => "l",
    }
}

#[test]
#[allow(clippy::write_literal)] // The header's format mirrors the rows' so the columns line up.
fn evidence_table_and_candidate_confusion() {
    let corpus = corpus(&lengths());
    let mut table = String::new();
    writeln!(
        table,
        "{:<19} {:>7} {:>4} | {:>1} {:>6} {:>5} {:>5} | {:>5} {:>4} {:>5} {:>5} {:>7} | {:>7} {:>5} | {:>7} | {:>4} {:>4} {:>4} | {:<4} {:>7} {}",
        "label",
        "bytes",
        "deg",
        "L",
        "count",
        "unit",
        "tcov",
        "copy",
        "edit",
        "lcov",
        "lmax",
        "l.src",
        "p.onset",
        "pmin",
        "expect",
        "d1",
        "d2",
        "d4",
        "rule",
        "onset",
        "by"
    )
    .unwrap();
    let mut confusion: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    let mut problems = Vec::new();
    for l in &corpus {
        let n = l.text.len();
        let f = figures(&l.text);
        let t = f.tandems.covering();
        let (v, onset, by) = candidate(&f, n);
        confusion.entry(l.label).or_default()[v as usize] += 1;
        writeln!(
            table,
            "{:<19} {:>7} {:>4} | {:>1} {:>6} {:>5} {:>5.2} | {:>5.2} {:>4.2} {:>5.2} {:>5.2} {:>7} | {:>7} {:>5.3} | {:>7} | {:>4.2} {:>4.2} {:>4.2} | {:<4} {:>7} {}",
            l.label,
            n,
            if l.degenerate { "LOOP" } else { "ok" },
            t.map_or("-", level),
            t.map_or(0, |t| t.count),
            t.map_or(0, |t| t.unit.len()),
            t.map_or(0.0, |t| share(t.len(), n)),
            f.copy.coverage,
            edit_density(&f.copy),
            long_copy(&f.copy, n).0,
            long_copy(&f.copy, n).1,
            fmt_opt(long_copy(&f.copy, n).2),
            fmt_opt(f.profile.onset),
            f.profile.min_ratio,
            fmt_opt(l.onset),
            f.ngrams.distinct[0],
            f.ngrams.distinct[1],
            f.ngrams.distinct[3],
            ["PASS", "WARN", "FAIL"][v as usize],
            fmt_opt(onset),
            by
        )
        .unwrap();
        check_detectors(l, &f, &mut problems);
        // The candidate rule already meets the bar on this corpus; pinned so a change
        // of generator or scorer that breaks it is seen.
        if !l.degenerate && v == Verdict::Fail {
            problems.push(format!("{} ({} B): legit text FAILs ({by})", l.label, l.target));
        }
        if l.degenerate && v == Verdict::Pass && n >= 1000 {
            problems.push(format!("{} ({} B): loop PASSes", l.label, l.target));
        }
    }
    let mut conf = String::from("\ncandidate rule: label × verdict (PASS WARN FAIL)\n");
    for k in KINDS {
        if let Some(c) = confusion.get(k.label) {
            writeln!(
                conf,
                "{:<19} {:>4} {:>4} {:>4}   {}",
                k.label,
                c[0],
                c[1],
                c[2],
                if k.degenerate { "loop" } else { "legit" }
            )
            .unwrap();
        }
    }
    println!("{table}{conf}");
    assert!(problems.is_empty(), "{} detector misses:\n{}", problems.len(), problems.join("\n"));
}

/// What holds robustly: exact loops are found as a tandem repeat of the planted unit (or a
/// rotation of it, or its primitive root) starting within one unit of the onset; long exact
/// loops get a profile onset within a window; near-duplicate paragraphs and big blocks are
/// long copies whose source is the onset.
fn check_detectors(l: &Labelled, f: &Figures, problems: &mut Vec<String>) {
    let n = l.text.len();
    let Some(onset) = l.onset else { return };
    let mut miss = |what: String| problems.push(format!("{} ({} B): {what}", l.label, l.target));
    let loop_bytes = n - onset;
    match &l.unit {
        Some(unit) if unit.len() <= 200 && loop_bytes >= 3 * unit.len() => {
            let t = f.tandems.covering().unwrap();
            // The primitive unit may be shorter ("the the " loops on "the ").
            if !unit.len().is_multiple_of(t.unit.len()) {
                miss(format!("tandem unit {:?}, planted {unit:?}", &l.text[t.unit.clone()]));
            }
            if t.start.abs_diff(onset) > unit.len() {
                miss(format!("tandem start {}, onset {onset}", t.start));
            }
        }
        Some(_) | None if loop_bytes >= 3000 => {
            let src = long_copy(&f.copy, n).2;
            if src.is_none_or(|s| s.abs_diff(onset) > 300) {
                miss(format!("copy source {src:?}, onset {onset}"));
            }
        }
        _ => {}
    }
    // Exact short units only: a paragraph repeated with edits keeps 4 KiB windows near 0.07–0.13.
    if n >= 4 * WINDOW && loop_bytes >= 2 * WINDOW && l.unit.as_ref().is_some_and(|u| u.len() < WINDOW / 4) {
        match f.profile.onset {
            Some(o) if o.abs_diff(onset) <= WINDOW => {}
            o => miss(format!("profile onset {o:?}, onset {onset}")),
        }
    }
}
