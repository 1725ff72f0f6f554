//! [`KeptReport`]: what a transcript's report keeps of one text's analysis — all of it when
//! the text is long or something was found, a few bytes when a short text passed.
//!
//! A log of 300,000 short replies that all pass would otherwise keep 300,000 full reports
//! (about a kilobyte each: figures, checks, the PASS sentence) that nobody reads until one row
//! is opened. A passing text under [`SUMMED_UP_UNDER`] bytes keeps its size and whether it
//! was too short to judge; its full report is computed again from the text when it is opened
//! ([`super::MessageReport::full_report`]), which for such a text takes a few milliseconds.
//! Everything the transcript's verdict, its rows and its conversations need — the verdict,
//! the tripped check, too short or not, the size — is known either way.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::analyze::{analyze_with, passes_without_deflate, Metric, Report, Thresholds, Verdict};

/// Passing texts shorter than this keep a summary, not their report (see the module header).
pub const SUMMED_UP_UNDER: usize = 64 * 1024;

/// One text's analysis as a transcript's report keeps it (in JSON `{"whole": report}` or
/// `{"passed": {"bytes": …, "too_short": …}}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeptReport {
    /// The whole report (shared between messages with the same text).
    Whole(Rc<Report>),
    /// A short text that passed: its size and whether it was too short to judge.
    Passed(PassedText),
}

/// What is kept of a short text that passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassedText {
    /// Size of the analysed text in UTF-8 bytes.
    pub bytes: usize,
    pub too_short: bool,
}

/// One text's analysis made before judging, on any thread (it holds no `Rc`): the whole
/// report, or what is kept of a short text that passed. The judge keeps it as
/// [`Analyzed::kept`] says (see [`super::Judging::analyzed`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Analyzed {
    /// Boxed: a report is a few hundred bytes, and a log holds one `Analysed` per text.
    Whole(Box<Report>),
    Passed(PassedText),
}

impl From<Report> for Analyzed {
    fn from(report: Report) -> Self {
        Self::Whole(Box::new(report))
    }
}

impl Analyzed {
    /// `text` analysed against `t`: [`KeptReport::of`]'s summary of a short text that
    /// passes, found without its DEFLATE passes when they cannot change its verdict (see
    /// [`passes_without_deflate`]); the whole report otherwise.
    pub fn of(text: &str, t: &Thresholds) -> Self {
        if *t == Thresholds::SEED && text.len() < SUMMED_UP_UNDER {
            if let Some(too_short) = passes_without_deflate(text, t) {
                return Self::Passed(PassedText { bytes: text.len(), too_short });
            }
        }
        Self::Whole(Box::new(analyze_with(text, t)))
    }

    /// What the transcript's report keeps of it.
    pub fn kept(self) -> KeptReport {
        match self {
            Self::Whole(report) => KeptReport::of(*report),
            Self::Passed(p) => KeptReport::Passed(p),
        }
    }
}

impl KeptReport {
    /// What to keep of `report`: a summary when it passed a text under [`SUMMED_UP_UNDER`]
    /// bytes against the default thresholds, the report itself otherwise (the summed-up
    /// report is made again with the defaults: see [`super::MessageReport::full_report`]).
    pub fn of(report: Report) -> Self {
        if report.verdict == Verdict::Pass && report.bytes < SUMMED_UP_UNDER && report.thresholds == Thresholds::SEED {
            Self::Passed(PassedText { bytes: report.bytes, too_short: report.too_short })
        } else {
            Self::Whole(Rc::new(report))
        }
    }

    /// What to keep of `text`'s analysis against `t` ([`Analyzed::of`], kept).
    pub fn analysed(text: &str, t: &Thresholds) -> Self {
        Analyzed::of(text, t).kept()
    }

    /// The whole report, when it is kept (always, unless the text passed).
    pub fn whole(&self) -> Option<&Rc<Report>> {
        match self {
            Self::Whole(r) => Some(r),
            Self::Passed(_) => None,
        }
    }

    pub fn verdict(&self) -> Verdict {
        self.whole().map_or(Verdict::Pass, |r| r.verdict)
    }

    /// The check that set the verdict (`None` for PASS).
    pub fn tripped(&self) -> Option<Metric> {
        self.whole().and_then(|r| r.tripped)
    }

    /// Where the text turns degenerate (`None` for PASS).
    pub fn onset(&self) -> Option<usize> {
        self.whole().and_then(|r| r.onset)
    }

    /// Size of the analysed text in UTF-8 bytes.
    pub fn bytes(&self) -> usize {
        match self {
            Self::Whole(r) => r.bytes,
            Self::Passed(p) => p.bytes,
        }
    }

    pub fn too_short(&self) -> bool {
        match self {
            Self::Whole(r) => r.too_short,
            Self::Passed(p) => p.too_short,
        }
    }

    /// The first of the report's reasons (`None` when only a summary is kept).
    pub fn first_reason(&self) -> Option<&str> {
        self.whole().and_then(|r| r.reasons.first()).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::analyze;

    #[test]
    fn a_text_analysed_keeps_what_its_full_report_would_keep() {
        let loose = {
            let mut t = Thresholds::SEED;
            t.assign("maxline.warn=3").expect("a setting");
            t
        };
        for text in ["ok", "short and fine, really", &"x y ".repeat(300), &"Check it.\n".repeat(8), "a b c d e f g h"] {
            for t in [Thresholds::SEED, loose] {
                assert_eq!(KeptReport::analysed(text, &t), KeptReport::of(analyze_with(text, &t)), "{text:?}");
            }
        }
    }

    #[test]
    fn a_short_passing_text_keeps_a_summary_and_anything_else_its_report() {
        let prose = "The cache is warm, so the second request returns in a few milliseconds.";
        let kept = KeptReport::of(analyze(prose));
        assert_eq!(kept, KeptReport::Passed(PassedText { bytes: prose.len(), too_short: false }));
        assert_eq!(
            (kept.verdict(), kept.tripped(), kept.onset(), kept.first_reason()),
            (Verdict::Pass, None, None, None)
        );

        let looping = "and then ".repeat(200);
        let kept = KeptReport::of(analyze(&looping));
        assert_eq!(kept.verdict(), Verdict::Fail);
        assert_eq!(kept.whole().map(|r| r.bytes), Some(looping.len()));
        assert!(kept.onset().is_some() && kept.first_reason().is_some());

        let long: String = (0..20_000).map(|i| format!("w{i} ")).collect();
        let kept = KeptReport::of(analyze(&long));
        assert!(long.len() >= SUMMED_UP_UNDER);
        assert_eq!((kept.verdict(), kept.whole().is_some()), (Verdict::Pass, true), "a long text keeps its report");

        let short = KeptReport::of(analyze("ok"));
        assert!(short.too_short() && short.whole().is_none());
    }

    #[test]
    fn both_forms_read_back_from_json_as_what_they_were() {
        let passed = KeptReport::of(analyze("short and fine, really"));
        let json = serde_json::to_string(&passed).unwrap();
        assert_eq!(json, r#"{"passed":{"bytes":22,"too_short":false}}"#);
        assert_eq!(serde_json::from_slice::<KeptReport>(json.as_bytes()).unwrap(), passed);
        // A whole report reads back whole (its ratios may differ in the last bit: serde_json).
        let whole = KeptReport::of(analyze(&"x y ".repeat(300)));
        let back: KeptReport = serde_json::from_slice(&serde_json::to_vec(&whole).unwrap()).unwrap();
        let key = |k: &KeptReport| k.whole().map(|r| (r.bytes, r.verdict, r.onset, r.reasons.clone(), r.spans.clone()));
        assert_eq!(key(&back), key(&whole));
        assert!(key(&whole).is_some());
    }
}
