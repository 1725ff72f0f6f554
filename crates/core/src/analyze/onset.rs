//! The onset: the byte where a text's degenerate part starts, as the tripped checks agree.
//!
//! Each check that tripped says where its finding lies ([`Finding::region`]): the loop check's
//! run (with the copies around it that vary a little, see `edited_runs`), the copies
//! check's decisive copy (placed at its source when it decides), the degenerate end from the
//! profile's onset to the end, maxrun's run, maxline's line from the first of its dense chain
//! of occurrences (`line_repeats::LineView::region`). The onset starts from the region of the check that set
//! the verdict (the first in [`PREFERENCE`] at the verdict's level), takes in every other
//! tripped check's region that overlaps it until none does, and never lies after the start
//! of a region that a FAILing check counts. The profile's onset and the gzip ratio are known
//! only roughly: they place the onset only when they set the verdict. The incoherence checks'
//! regions (a leaked template, token soup: from the first finding to the end) join no other. So a loop whose copies vary a little before they
//! become exact is placed at its first copy, where the copies check sees it start, and not
//! where the exact run begins.

use super::checks::PREFERENCE;
use super::report::{Metric, Verdict};
use std::ops::Range;

/// One check's finding: its effective level, the bytes it counts as degenerate, and where its
/// onset is when it decides alone (`first`: a copy's source, a line's first occurrence, else
/// the region's start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub metric: Metric,
    pub level: Verdict,
    pub region: Range<usize>,
    pub first: usize,
}

/// Whether a check's region is known only roughly: the profile's onset to about a window, the
/// gzip ratio (a whole-text figure) by the profile's. Such a region sets the onset only when
/// it decides the verdict; it never moves a precise one.
fn is_coarse(m: Metric) -> bool {
    matches!(m, Metric::Profile | Metric::GzipRatio)
}

/// Whether a check is one of the incoherence checks (a leaked template, token soup, word salad).
fn is_incoherence(m: Metric) -> bool {
    matches!(m, Metric::TemplateLeak | Metric::TokenSoup | Metric::WordSalad | Metric::Drift)
}

/// The onset of a text judged `verdict` (none for PASS), from its checks' findings.
pub fn onset(verdict: Verdict, findings: &[Finding]) -> Option<usize> {
    if verdict == Verdict::Pass {
        return None;
    }
    let decisive = PREFERENCE.iter().find_map(|&m| findings.iter().find(|f| f.metric == m && f.level == verdict))?;
    let precise = || findings.iter().filter(|f| !is_coarse(f.metric));
    let mut region = decisive.region.clone();
    // The incoherence checks' regions run from what they found to the end: they neither take
    // in nor join the repetition checks' regions (another kind of breakdown).
    let joins = |f: &&Finding| !is_incoherence(f.metric) && !is_incoherence(decisive.metric);
    loop {
        let before = region.clone();
        for f in precise().filter(|f| f.level > Verdict::Pass).filter(joins) {
            if f.region.start <= region.end && region.start <= f.region.end {
                region = region.start.min(f.region.start)..region.end.max(f.region.end);
            }
        }
        if region == before {
            break;
        }
    }
    let failing = precise().filter(|f| f.level == Verdict::Fail).map(|f| f.region.start).min();
    Some([Some(decisive.first), Some(region.start), failing].into_iter().flatten().min().unwrap_or(region.start))
}

/// `at` moved back to the start of its word when it falls inside one whose start is at most
/// 32 bytes back: the onset never splits a word ("sca|n." → "|scan."). Elsewhere (a space, a
/// line start, punctuation, text without spaces near) it stays.
pub fn word_start(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let in_word = |b: u8| b.is_ascii_alphanumeric() || b >= 0x80;
    if at == 0 || at >= bytes.len() || !(in_word(bytes[at]) && in_word(bytes[at - 1])) {
        return at;
    }
    let from = at.saturating_sub(32);
    // After an ASCII byte that is not a word's: a char boundary.
    bytes[from..at].iter().rposition(|&b| !in_word(b)).map_or(at, |i| from + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_onset_snaps_back_to_the_start_of_its_word() {
        let text = "The reclaim thread ran a scan. Then the scan.";
        let mid = text.find("can.").unwrap_or(0);
        assert_eq!(word_start(text, mid), mid - 1, "sca|n. → |scan.");
        assert_eq!(word_start(text, 4), 4, "at a word's start already");
        assert_eq!(word_start(text, 3), 3, "at a space");
        assert_eq!(word_start(text, 0), 0);
        assert_eq!(word_start(text, text.len()), text.len());
        let line = "first line\nsecond";
        assert_eq!(word_start(line, line.len() - 2), line.find("second").unwrap_or(0), "to the line's start");
        let cjk = "重复重复重复重复重复重复重复重复重复重复重复";
        assert_eq!(word_start(cjk, 12), 12, "no word start near: kept");
        let long = format!("x {}", "a".repeat(60));
        assert_eq!(word_start(&long, 50), 50, "a word longer than 32 bytes: kept");
    }

    fn f(metric: Metric, level: Verdict, region: Range<usize>) -> Finding {
        Finding { metric, level, first: region.start, region }
    }

    #[test]
    fn overlapping_findings_move_the_onset_to_where_the_loop_begins() {
        // The exact run starts late; the copies with edits start at byte 140.
        let findings = [
            f(Metric::Loop, Verdict::Fail, 5958..9000),
            f(Metric::Copies, Verdict::Fail, 140..9000),
            f(Metric::Maxrun, Verdict::Warn, 20..40),
        ];
        assert_eq!(onset(Verdict::Fail, &findings), Some(140));
        assert_eq!(onset(Verdict::Pass, &findings), None);
    }

    #[test]
    fn a_warning_elsewhere_does_not_move_it_but_a_failing_check_does() {
        let findings = [f(Metric::Loop, Verdict::Fail, 5000..9000), f(Metric::Maxrun, Verdict::Warn, 20..40)];
        assert_eq!(onset(Verdict::Fail, &findings), Some(5000));
        let findings = [f(Metric::Loop, Verdict::Fail, 5000..9000), f(Metric::Copies, Verdict::Fail, 300..900)];
        assert_eq!(onset(Verdict::Fail, &findings), Some(300));
        // Chains: the profile overlaps the copy, which overlaps the run.
        let findings = [
            f(Metric::Loop, Verdict::Warn, 5000..6000),
            f(Metric::Copies, Verdict::Warn, 4000..5500),
            f(Metric::Profile, Verdict::Warn, 3000..4100),
        ];
        assert_eq!(onset(Verdict::Warn, &findings), Some(4000), "the profile's onset is known to a window only");
        let findings = [f(Metric::Profile, Verdict::Fail, 3000..9000), f(Metric::Loop, Verdict::Warn, 3500..4000)];
        assert_eq!(onset(Verdict::Fail, &findings), Some(3000));
        let findings = [f(Metric::Profile, Verdict::Fail, 3000..9000), f(Metric::Copies, Verdict::Warn, 2000..4000)];
        assert_eq!(onset(Verdict::Fail, &findings), Some(2000));
        let findings = [f(Metric::Loop, Verdict::Fail, 133..2473), f(Metric::GzipRatio, Verdict::Fail, 0..2473)];
        assert_eq!(onset(Verdict::Fail, &findings), Some(133));
        // A copy that decides is placed at its source, the first copy of what it repeats.
        let copy = Finding { metric: Metric::Copies, level: Verdict::Fail, region: 600..900, first: 300 };
        assert_eq!(onset(Verdict::Fail, &[copy]), Some(300));
        // A leaked template's region runs to the end: it takes in no warning before it…
        let findings =
            [f(Metric::TemplateLeak, Verdict::Fail, 1000..9000), f(Metric::Maxline, Verdict::Warn, 300..8000)];
        assert_eq!(onset(Verdict::Fail, &findings), Some(1000));
        // …and a loop's onset is not moved by it; a FAILing one earlier than the loop counts.
        let findings = [f(Metric::Loop, Verdict::Fail, 5000..9000), f(Metric::TokenSoup, Verdict::Warn, 100..9000)];
        assert_eq!(onset(Verdict::Fail, &findings), Some(5000));
        let findings = [f(Metric::Loop, Verdict::Fail, 5000..9000), f(Metric::TemplateLeak, Verdict::Fail, 1000..9000)];
        assert_eq!(onset(Verdict::Fail, &findings), Some(1000));
    }
}
