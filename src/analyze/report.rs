//! The analysis result as plain data: verdict, reasons, metric values, checks and spans.
//!
//! Everything the page and the CLI show comes from a [`Report`]; neither computes a metric
//! itself. Spans are byte ranges into the analysed text. `to_json` is the CLI's `--json`
//! shape and the export format; its field names are stable (add, don't rename).

use super::thresholds::Thresholds;
use serde::{Deserialize, Serialize};

/// PASS < WARN < FAIL, so the worst of several is their maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Verdict {
    Pass,
    Warn,
    Fail,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Warn => "WARN",
            Verdict::Fail => "FAIL",
        }
    }
}

/// The heuristics a report checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    Maxrun,
    Maxline,
    GzipRatio,
}

impl Metric {
    pub const ALL: [Metric; 3] = [Metric::Maxrun, Metric::Maxline, Metric::GzipRatio];

    /// The name used in reasons and in the page.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Maxrun => "maxrun",
            Metric::Maxline => "maxline",
            Metric::GzipRatio => "gzip ratio",
        }
    }

    /// What the metric measures, in a few words.
    pub fn meaning(self) -> &'static str {
        match self {
            Metric::Maxrun => "longest run of identical consecutive words",
            Metric::Maxline => "occurrences of the most repeated line",
            Metric::GzipRatio => "gzip-9 size ÷ raw size (low = repetitive)",
        }
    }

    /// The kind of span that shows where this metric tripped, if it has one.
    pub fn span_kind(self) -> Option<SpanKind> {
        match self {
            Metric::Maxrun => Some(SpanKind::WordRun),
            Metric::Maxline => Some(SpanKind::RepeatedLine),
            Metric::GzipRatio => None,
        }
    }
}

/// The raw metric values (the seed's three, exact).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub maxrun: usize,
    pub maxline: usize,
    pub gzip_ratio: f64,
    /// Size of the gzip-9 stream the ratio was computed from.
    pub gzip_bytes: usize,
}

/// Whether a counted value trips at or above its thresholds, or a ratio below them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    AtLeast,
    Below,
}

impl Direction {
    pub fn symbol(self, tripped: bool) -> &'static str {
        match (self, tripped) {
            (Direction::AtLeast, true) => "≥",
            (Direction::AtLeast, false) => "<",
            (Direction::Below, true) => "<",
            (Direction::Below, false) => "≥",
        }
    }
}

/// One heuristic judged against its thresholds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub metric: Metric,
    pub value: f64,
    pub warn_at: f64,
    pub fail_at: f64,
    pub direction: Direction,
    pub level: Verdict,
}

impl Check {
    /// The value as the page and the CLI print it.
    pub fn value_text(&self) -> String {
        format_metric(self.metric, self.value)
    }
}

/// Formats a metric value or threshold: counts as integers, ratios with 4 decimals.
pub fn format_metric(metric: Metric, value: f64) -> String {
    match metric {
        Metric::GzipRatio => format!("{value:.4}"),
        _ => format!("{value}"),
    }
}

/// Formats a threshold: counts as integers, ratios with 2 decimals.
pub fn format_threshold(metric: Metric, value: f64) -> String {
    match metric {
        Metric::GzipRatio => format!("{value:.2}"),
        _ => format!("{value}"),
    }
}

/// What flagged a span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpanKind {
    /// A run of identical consecutive words at or above maxrun's WARN threshold.
    WordRun,
    /// One occurrence of a line repeated at least maxline's WARN threshold times.
    RepeatedLine,
}

impl SpanKind {
    pub fn label(self) -> &'static str {
        match self {
            SpanKind::WordRun => "repeated word run",
            SpanKind::RepeatedLine => "repeated line",
        }
    }
}

/// A flagged byte range of the analysed text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: SpanKind,
    /// Words in the run, or occurrences of the line in the whole text.
    pub count: usize,
    /// WARN or FAIL, from the count against the metric's thresholds.
    pub level: Verdict,
}

/// The full result of analysing one text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Size of the analysed text in UTF-8 bytes.
    pub bytes: usize,
    pub verdict: Verdict,
    /// Why the verdict is what it is, in words, worst first.
    pub reasons: Vec<String>,
    pub metrics: Metrics,
    /// Each heuristic against its thresholds, in [`Metric::ALL`] order.
    pub checks: Vec<Check>,
    /// Flagged spans, sorted by start.
    pub spans: Vec<Span>,
    /// The text is empty, only whitespace, or under `thresholds.min_bytes`: the numbers are
    /// computed but mean little, and the page says so instead of showing a verdict.
    pub too_short: bool,
    pub thresholds: Thresholds,
}

impl Report {
    /// The report as pretty JSON, fields in declaration order (the golden-file format).
    pub fn to_pretty_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report is plain data and always serialises") + "\n"
    }

    /// The check of one metric.
    pub fn check(&self, metric: Metric) -> &Check {
        self.checks.iter().find(|c| c.metric == metric).expect("a report checks every metric")
    }

    /// The first span showing where `metric` tripped, if any.
    pub fn first_span_of(&self, metric: Metric) -> Option<&Span> {
        let kind = metric.span_kind()?;
        self.spans.iter().find(|s| s.kind == kind)
    }
}
