//! The page's view model: what the components show, made from the core's reports. No browser
//! imports, so it is unit-tested natively; no metric is computed here, every number comes from
//! a [`Report`]. Here: an analysed text ([`Analysis`]: its report and the [`segments`] its
//! highlights are drawn from), the wording of its figures, and URL parameters; [`document`]:
//! one input read in its format (its transcript, rows worst first, the message shown);
//! [`conversation`]: the conversation view (its turns, the flagged ones, what a click opens);
//! [`chart`]: the windowed-ratio chart's geometry; [`drift_chart`]: the drift chart's;
//! [`saved`]: a report the CLI saved, opened.

pub mod chart;
pub mod conversation;
pub mod document;
pub mod drift_chart;
pub mod saved;
pub mod share;
pub mod turn_view;

use std::rc::Rc;

use coherency_core::analyze::{onset_phrase, Metric, Report, Thresholds, Verdict};
use coherency_core::samples::Sample;
use coherency_core::wording::{percent, plural, thousands};

pub use coherency_core::analyze::verdict_headline;
pub use coherency_core::render::{kind_key, level_key, segments, span_title, Segment};

/// Where an analysed text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Typed or pasted into the text box.
    Input,
    /// A built-in sample, by id.
    Sample(&'static str),
    /// A file chosen with the upload button or dropped on the page, by name.
    File(Rc<str>),
    /// Streamed from an endpoint in live mode.
    Live,
    /// Carried by a result link the page was opened with.
    Link,
}

impl Source {
    /// The name it goes by in reports: the file's, or what the input was.
    pub fn name(&self) -> String {
        match self {
            Source::File(name) => name.to_string(),
            Source::Input => "pasted text".to_string(),
            Source::Sample(id) => format!("sample {id}"),
            Source::Live => "live stream".to_string(),
            Source::Link => "linked input".to_string(),
        }
    }

    /// What could not be done with it, for a failure's sentence ("Could not {what}: {why}."):
    /// a file is read, a text the page holds is analysed.
    pub fn could_not(&self) -> String {
        match self {
            Source::File(name) => format!("read the file {name}"),
            Source::Input => "analyse the pasted text".to_string(),
            Source::Sample(id) => format!("analyse the sample {id}"),
            Source::Live => "analyse the live stream".to_string(),
            Source::Link => "analyse the input the result link carried".to_string(),
        }
    }
}

/// One analysed text with its report and the segments the highlighted view renders.
#[derive(Debug)]
pub struct Analysis {
    /// Increases with every analysis; two analyses are equal when their `seq` is.
    pub seq: u64,
    pub source: Source,
    /// Shared with the transcript's message (no copy of a long text).
    pub text: Rc<String>,
    pub report: Rc<Report>,
    pub segments: Rc<[Segment]>,
    /// Wall time of the analysis in milliseconds, when the caller measured it.
    pub millis: Option<f64>,
}

impl PartialEq for Analysis {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

impl Analysis {
    /// Analyses `text` with the core and lays out its spans (for tests: the page's wasm holds no
    /// scorer, the analysis worker makes every report).
    #[cfg(test)]
    pub fn new(seq: u64, source: Source, text: impl Into<Rc<String>>) -> Self {
        let text = text.into();
        let report = coherency_core::analyze::analyze(&text);
        Self::with_report(seq, source, text, report)
    }

    /// Lays out the spans of `report`, the core's report of exactly `text`.
    pub fn with_report(seq: u64, source: Source, text: impl Into<Rc<String>>, report: impl Into<Rc<Report>>) -> Self {
        let (text, report) = (text.into(), report.into());
        let segments = segments(&text, &report.spans).into();
        Analysis { seq, source, text, report, segments, millis: None }
    }

    /// What the page shows instead of a verdict, or `None` when a verdict is meaningful.
    pub fn too_short_message(&self) -> Option<String> {
        if !self.report.too_short {
            return None;
        }
        if self.text.trim().is_empty() {
            let what = match (&self.source, self.text.is_empty()) {
                (Source::File(_), true) => "The file is empty",
                (Source::File(_), false) => "The file holds only whitespace",
                (_, true) => "The text box is empty",
                (_, false) => "The text box holds only whitespace",
            };
            return Some(format!("{what}: nothing to analyse yet. Paste a transcript above, or pick a sample."));
        }
        Some(
            self.report
                .reasons
                .first()
                .cloned()
                .unwrap_or_else(|| "Too short to judge: paste a longer text.".to_string()),
        )
    }

    /// The span to show for byte `at`: the first (outermost) span covering it, else the first
    /// span after it; `None` when no span reaches that far.
    pub fn span_near(&self, at: usize) -> Option<usize> {
        let spans = &self.report.spans;
        let covering = spans.iter().position(|s| s.start <= at && at < s.end);
        covering.or_else(|| spans.iter().position(|s| s.start >= at))
    }

    /// "Turns degenerate at byte 3,412 (line 57, 38 % into the text)", when the report has an
    /// onset; worded by what set the verdict ("Leaves its topic at byte …", see
    /// [`coherency_core::analyze::Breakdown`]).
    pub fn onset_text(&self) -> Option<String> {
        let onset = self.report.onset?;
        let phrase = onset_phrase(self.report.tripped, onset);
        if onset == 0 {
            return Some(phrase);
        }
        let line = self.text.as_bytes()[..onset.min(self.text.len())].iter().filter(|&&b| b == b'\n').count() + 1;
        let share = if self.text.is_empty() { 0.0 } else { onset as f64 / self.text.len() as f64 };
        Some(format!("{phrase} (line {}, {} into the text)", thousands(line), percent(share)))
    }

    /// The index in `report.spans` of the first span where `metric` tripped.
    pub fn first_span_index(&self, metric: Metric) -> Option<usize> {
        let first = self.report.first_span_of(metric)?;
        self.report.spans.iter().position(|s| std::ptr::eq(s, first))
    }
}

/// "Analysed 17,599 bytes in 3 ms · 3 seed heuristics (seed thresholds) + 3 loop checks + 4
/// incoherence checks": what
/// the report measured.
pub fn measured_line(report: &Report, millis: Option<f64>) -> String {
    let thresholds = if report.thresholds == Thresholds::SEED { "seed thresholds" } else { "custom thresholds" };
    let took = millis.map(|ms| format!(" in {}", duration_text(ms))).unwrap_or_default();
    let seed = report.checks.iter().filter(|c| c.metric.is_seed()).count();
    let incoherence = report.checks.iter().filter(|c| c.metric.is_incoherence()).count();
    let loops = report.checks.len() - seed - incoherence;
    let incoherence = match incoherence {
        0 => String::new(),
        n => format!(" + {n} incoherence checks"),
    };
    format!(
        "Analysed {}{took} · {seed} seed heuristics ({thresholds}) + {loops} loop checks{incoherence}",
        plural(report.bytes, "byte", "bytes"),
    )
}

/// "< 0.1 ms", "0.4 ms", "12 ms", "1.25 s".
pub fn duration_text(ms: f64) -> String {
    if ms < 0.1 {
        "< 0.1 ms".to_string()
    } else if ms < 1.0 {
        format!("{ms:.1} ms")
    } else if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// "1 highlighted span", "20 highlighted spans", "2,001 highlighted spans (and 8,000 more not
/// listed)" when the core left some out (it lists a few thousand at most).
pub fn span_count_text(n: usize, not_listed: usize) -> String {
    let listed = plural(n, "highlighted span", "highlighted spans");
    if not_listed == 0 {
        listed
    } else {
        format!("{listed} (and {} more not listed)", thousands(not_listed))
    }
}

/// A symbol that says the verdict without colour.
pub fn verdict_icon(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "✓",
        Verdict::Warn => "!",
        Verdict::Fail => "✕",
    }
}

/// Whether the text box's `current` text is the user's own and must be kept before a sample
/// replaces it (it is not blank and not one of the samples).
pub fn worth_stashing(current: &str, samples: &[Sample]) -> bool {
    !current.trim().is_empty() && !samples.iter().any(|s| s.text == current)
}

/// A built-in sample id from a query string such as `?sample=line-loop&x=1`.
/// A limit the page's URL lowers for a test (`key` is `"file-limit="` or
/// `"capture-limit="`): its number when given, never above `max`; `max` otherwise.
pub fn limit_param(search: &str, key: &str, max: usize) -> usize {
    let asked = search.trim_start_matches('?').split('&').find_map(|kv| kv.strip_prefix(key));
    asked.and_then(|v| v.parse::<usize>().ok()).map_or(max, |n| n.min(max))
}

/// Whether the query string asks for the live mode (`mode=live`).
pub fn live_param(search: &str) -> bool {
    search.trim_start_matches('?').split('&').any(|pair| pair == "mode=live")
}

/// The query string `search` with `mode=live` put in (`live`) or taken out, the rest kept in its
/// order: "?mode=live", "?sample=prose&mode=live", "" (none left).
pub fn with_mode(search: &str, live: bool) -> String {
    let mut pairs: Vec<&str> =
        search.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && !p.starts_with("mode=")).collect();
    if live {
        pairs.push("mode=live");
    }
    if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    }
}

pub fn sample_param(search: &str) -> Option<&str> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "sample")
        .map(|(_, value)| value)
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::{Span, SpanKind};

    #[test]
    fn a_line_loop_has_one_first_segment_per_line() {
        let text = "Let me look again.\n".repeat(20);
        let a = Analysis::new(1, Source::Input, text);
        assert_eq!(a.report.verdict, Verdict::Fail);
        assert_eq!(a.report.spans.len(), 2, "20 repeated lines back to back as one span, and the loop");
        let firsts = a.segments.iter().flat_map(|s| &s.layers).filter(|l| l.first).count();
        assert_eq!(firsts, 2);
        assert_eq!(a.first_span_index(Metric::Maxline), Some(0));
        assert_eq!(a.first_span_index(Metric::GzipRatio), None);
        assert_eq!(a.too_short_message(), None);
    }

    #[test]
    fn the_onset_is_worded_and_found_among_the_spans() {
        let text = format!("A first line.\nA second one.\n{}", "Let me check the file again. ".repeat(40));
        let a = Analysis::new(1, Source::Input, text);
        assert_eq!(a.report.onset, Some(28));
        assert_eq!(a.onset_text().unwrap(), "Turns degenerate at byte 28 (line 3, 2.4 % into the text)");
        let from_start = Analysis::new(2, Source::Input, "Let me check again.\n".repeat(40));
        assert_eq!(from_start.onset_text().as_deref(), Some("Degenerate from its very start (byte 0)"));
        let i = a.span_near(28).unwrap();
        assert_eq!(a.report.spans[i].kind, SpanKind::Loop);
        assert_eq!(a.span_near(0), Some(i), "the first span after");
        assert_eq!(a.span_near(a.text.len()), None);
        assert_eq!(
            Analysis::new(2, Source::Input, "calm prose, said once and only once".to_string()).onset_text(),
            None
        );
    }

    #[test]
    fn the_onset_says_what_went_wrong() {
        let drift = coherency_core::samples::samples().into_iter().find(|s| s.id == "drift").unwrap();
        let a = Analysis::new(1, Source::Input, drift.text);
        let onset = a.onset_text().unwrap();
        assert!(onset.starts_with("Leaves its topic at byte ") && onset.contains("into the text)"), "{onset}");
        assert_eq!(verdict_headline(a.report.verdict, a.report.tripped), "Topic drift: the text leaves its topic");
    }

    #[test]
    fn too_short_texts_get_a_calm_message() {
        let empty = Analysis::new(1, Source::Input, String::new());
        assert!(empty.too_short_message().is_some_and(|m| m.starts_with("The text box is empty")));
        let blank = Analysis::new(2, Source::Input, " \n\t ".to_string());
        assert!(blank.too_short_message().is_some_and(|m| m.starts_with("The text box holds only whitespace")));
        let short = Analysis::new(3, Source::Input, "hi there".to_string());
        assert!(short.too_short_message().is_some_and(|m| m.starts_with("Too short to judge")));
    }

    #[test]
    fn wording() {
        let a = Analysis::new(1, Source::Input, "x".repeat(17_599));
        assert_eq!(
            measured_line(&a.report, None),
            "Analysed 17,599 bytes · 3 seed heuristics (seed thresholds) + 3 loop checks + 4 incoherence checks"
        );
        assert_eq!(
            measured_line(&a.report, Some(12.3)),
            "Analysed 17,599 bytes in 12 ms · 3 seed heuristics (seed thresholds) + 3 loop checks + 4 incoherence checks"
        );
        assert_eq!(span_count_text(1, 0), "1 highlighted span");
        assert_eq!(span_count_text(1200, 0), "1,200 highlighted spans");
        assert_eq!(span_count_text(2001, 8000), "2,001 highlighted spans (and 8,000 more not listed)");
        assert_eq!(duration_text(0.0), "< 0.1 ms");
        assert_eq!(duration_text(0.25), "0.2 ms");
        assert_eq!(duration_text(1500.0), "1.50 s");
        let s = Span {
            start: 0,
            end: 1,
            kind: SpanKind::RepeatedLine,
            count: 200,
            level: Verdict::Fail,
            period: None,
            source: None,
        };
        assert_eq!(span_title(&s), "repeated line · 200 occurrences in the text · FAIL");
        for v in [Verdict::Pass, Verdict::Warn, Verdict::Fail] {
            assert!(!verdict_headline(v, None).is_empty() && !verdict_icon(v).is_empty());
            assert_eq!(level_key(v), v.as_str().to_lowercase());
        }
        assert_eq!(kind_key(SpanKind::WordRun), "word_run");
    }

    #[test]
    fn only_the_users_own_text_is_stashed() {
        let samples = coherency_core::samples::samples();
        assert!(worth_stashing("my transcript", &samples));
        assert!(!worth_stashing("  \n", &samples));
        assert!(!worth_stashing(&samples[2].text, &samples));
    }

    #[test]
    fn the_live_mode_is_put_in_and_taken_out_of_the_query_string() {
        assert!(live_param("?mode=live") && live_param("?sample=x&mode=live"));
        assert!(!live_param("") && !live_param("?mode=text") && !live_param("?xmode=live"));
        assert_eq!(with_mode("", true), "?mode=live");
        assert_eq!(with_mode("?sample=prose", true), "?sample=prose&mode=live");
        assert_eq!(with_mode("?mode=live", true), "?mode=live");
        assert_eq!(with_mode("?mode=live", false), "");
        assert_eq!(with_mode("?a=1&mode=live&b=2", false), "?a=1&b=2");
        assert!(live_param(&with_mode("?file-limit=9", true)));
    }

    #[test]
    fn sample_param_reads_the_query_string() {
        assert_eq!(sample_param("?sample=line-loop"), Some("line-loop"));
        assert_eq!(sample_param("?x=1&sample=prose&y"), Some("prose"));
        assert_eq!(sample_param("?sample="), None);
        assert_eq!(sample_param(""), None);
        assert_eq!(sample_param("?samples=prose"), None);
    }
}
