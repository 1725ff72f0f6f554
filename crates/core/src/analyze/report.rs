//! The analysis result as plain data: verdict, reasons, metric values, checks and spans.
//!
//! Everything the page and the CLI show comes from a [`Report`]; neither computes a metric
//! itself. Spans are byte ranges into the analysed text. `to_json` is the CLI's `--json`
//! shape and the export format; its field names are stable (add, don't rename).

use super::tandem::UnitKind;
use super::thresholds::Thresholds;
use super::variation::Variation;
use crate::wording::{bytes_text, percent};
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
    /// The most covering tandem repeat (a unit said again and again, back to back).
    Loop,
    /// Long near-exact copies of earlier text.
    Copies,
    /// The degenerate end found by the windowed compression profile.
    Profile,
    /// Chat-template markers or role lines the model wrote (a runaway turn).
    TemplateLeak,
    /// Odd words: scripts mixed inside a word, byte-level tokenizer junk, mojibake.
    TokenSoup,
    /// Glued words: function words run together with the words around them.
    WordSalad,
    /// Topic drift: the share of the text, at its end, where the opening's topic never comes back.
    Drift,
    /// Tool calls said again with the same result: identical calls in a row, or a cycle of a
    /// few calls. Judged per conversation (`judge`), never in one text's [`Report::checks`].
    ToolLoop,
}

impl Metric {
    /// The checks of one text, in a [`Report`]'s order.
    pub const ALL: [Metric; 10] = [
        Metric::Maxrun,
        Metric::Maxline,
        Metric::GzipRatio,
        Metric::Loop,
        Metric::Copies,
        Metric::Profile,
        Metric::TemplateLeak,
        Metric::TokenSoup,
        Metric::WordSalad,
        Metric::Drift,
    ];
    /// The seed script's three heuristics.
    pub const SEED: [Metric; 3] = [Metric::Maxrun, Metric::Maxline, Metric::GzipRatio];

    /// The name used in reasons and in the page.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Maxrun => "maxrun",
            Metric::Maxline => "maxline",
            Metric::GzipRatio => "gzip ratio",
            Metric::Loop => "loop",
            Metric::Copies => "copies",
            Metric::Profile => "degenerate end",
            Metric::TemplateLeak => "template leak",
            Metric::TokenSoup => "token soup",
            Metric::WordSalad => "word salad",
            Metric::Drift => "topic drift",
            Metric::ToolLoop => "tool loop",
        }
    }

    /// The key used in the JSON report and in page element names.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Maxrun => "maxrun",
            Metric::Maxline => "maxline",
            Metric::GzipRatio => "gzip_ratio",
            Metric::Loop => "loop",
            Metric::Copies => "copies",
            Metric::Profile => "profile",
            Metric::TemplateLeak => "template_leak",
            Metric::TokenSoup => "token_soup",
            Metric::WordSalad => "word_salad",
            Metric::Drift => "drift",
            Metric::ToolLoop => "tool_loop",
        }
    }

    /// Whether the metric is one of the seed script's three.
    pub fn is_seed(self) -> bool {
        Metric::SEED.contains(&self)
    }

    /// One of the checks for breakdowns that do not repeat (`analyze::incoherence`).
    pub fn is_incoherence(self) -> bool {
        matches!(self, Metric::TemplateLeak | Metric::TokenSoup | Metric::WordSalad | Metric::Drift)
    }

    /// What the metric measures, in a few words.
    pub fn meaning(self) -> &'static str {
        match self {
            Metric::Maxrun => "longest run of identical consecutive words",
            Metric::Maxline => "occurrences of the most repeated line",
            Metric::GzipRatio => "gzip-9 size ÷ raw size (low = repetitive)",
            Metric::Loop => "share of the text that is one unit repeated back to back",
            Metric::Copies => "share of the text that is a long near-exact copy of earlier text",
            Metric::Profile => "share of the text, at its end, whose 4 KiB windows compress below 0.08",
            Metric::TemplateLeak => "chat-template markers or role lines the model wrote, outside code and quotes",
            Metric::TokenSoup => {
                "odd words in the densest window: scripts mixed inside a word, tokenizer junk, mojibake, U+FFFD"
            }
            Metric::WordSalad => {
                "glued words (function words run together with other words) or misplaced function-word pairs (`to to`, `the of`) in the densest window"
            }
            Metric::Drift => "share of the text, at its end, where none of the opening's topic words comes back",
            Metric::ToolLoop => {
                "identical tool calls in a row (or copies of a cycle of calls), each with the same result"
            }
        }
    }

    /// The WARN and FAIL rules in words, where a number alone does not say it all (made from
    /// the thresholds the checks read).
    pub fn rule(self, t: &Thresholds) -> Option<String> {
        let rules = &t.loop_rules();
        match self {
            Metric::Maxrun | Metric::Maxline => None,
            Metric::GzipRatio => Some(format!("judged on texts of {} or more", bytes_text(t.gzip_min_bytes))),
            Metric::Loop => Some(format!("WARN: {}; FAIL: {}", rules.loop_warn_text(), rules.loop_fail_text())),
            Metric::Copies => Some(format!(
                "{} count (looping: on a nearby source). WARN: {}; FAIL: {}",
                rules.copies_counted_text(),
                rules.copies_warn_text(),
                rules.copies_fail_text()
            )),
            Metric::Profile => {
                Some(format!("judged on texts of {} or more", bytes_text(rules.degenerate_end.min_bytes)))
            }
            Metric::TemplateLeak => {
                let r = t.incoherence_rules();
                Some(format!("WARN: {}; FAIL: {}", r.leak_warn_text(), r.leak_fail_text()))
            }
            Metric::TokenSoup => {
                let r = t.incoherence_rules();
                Some(format!("WARN: {}; FAIL: {}", r.soup_warn_text(), r.soup_fail_text()))
            }
            Metric::Drift => Some(format!(
                "judged in unstructured English prose of {} or more; never worse than WARN",
                bytes_text(super::incoherence::drift::MIN_BYTES)
            )),
            Metric::WordSalad => {
                let r = t.incoherence_rules();
                Some(format!("judged in English text; WARN: {}; FAIL: {}", r.salad_warn_text(), r.salad_fail_text()))
            }
            Metric::ToolLoop => {
                let tools = t.tools;
                Some(format!(
                    "a call is its tool's name and its arguments made canonical; {}. WARN: {}; FAIL: {}",
                    tools.error_text(),
                    tools.warn_text(),
                    tools.fail_text()
                ))
            }
        }
    }

    /// The kind of span that shows where this metric tripped, if it has one.
    pub fn span_kind(self) -> Option<SpanKind> {
        match self {
            Metric::Maxrun => Some(SpanKind::WordRun),
            Metric::Maxline => Some(SpanKind::RepeatedLine),
            Metric::GzipRatio | Metric::Profile | Metric::ToolLoop => None,
            Metric::Loop => Some(SpanKind::Loop),
            Metric::Copies => Some(SpanKind::Copy),
            Metric::TemplateLeak => Some(SpanKind::TemplateLeak),
            Metric::TokenSoup => Some(SpanKind::TokenSoup),
            Metric::WordSalad => Some(SpanKind::GluedWord),
            Metric::Drift => Some(SpanKind::Drift),
        }
    }
}

/// What went wrong, by the check that set a verdict: the words of a verdict's headline and of
/// its onset, so that every surface (the page, the live view, the reports) says a leaked
/// template, gibberish or drift as such, not as repetition. The one statement of that rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Breakdown {
    /// A loop, copies, a degenerate end or one of the seed's three counts.
    Repetition,
    TemplateLeak,
    Gibberish,
    WordSalad,
    Drift,
    ToolLoop,
}

impl Breakdown {
    /// The breakdown `tripped` finds. `None` (a verdict set across a conversation's turns, which
    /// looks for loops) reads as repetition.
    pub fn of(tripped: Option<Metric>) -> Breakdown {
        match tripped {
            Some(Metric::TemplateLeak) => Breakdown::TemplateLeak,
            Some(Metric::TokenSoup) => Breakdown::Gibberish,
            Some(Metric::WordSalad) => Breakdown::WordSalad,
            Some(Metric::Drift) => Breakdown::Drift,
            Some(Metric::ToolLoop) => Breakdown::ToolLoop,
            Some(Metric::Maxrun | Metric::Maxline | Metric::GzipRatio | Metric::Loop | Metric::Copies)
            | Some(Metric::Profile)
            | None => Breakdown::Repetition,
        }
    }

    /// Its name in a few words, at `verdict`'s level: "Repetition collapse" (FAIL), "Some
    /// repetition" (WARN). What the badge's headline and the live view start with.
    pub fn name(self, verdict: Verdict) -> &'static str {
        let fail = verdict == Verdict::Fail;
        match self {
            Breakdown::Repetition if fail => "Repetition collapse",
            Breakdown::Repetition => "Some repetition",
            Breakdown::TemplateLeak if fail => "Leaked chat template",
            Breakdown::TemplateLeak => "Chat-template markers",
            Breakdown::Gibberish if fail => "Gibberish",
            Breakdown::Gibberish => "Some garbled words",
            Breakdown::WordSalad if fail => "Word salad",
            Breakdown::WordSalad => "Some broken sentences",
            Breakdown::Drift => "Topic drift",
            Breakdown::ToolLoop if fail => "Tool loop",
            Breakdown::ToolLoop => "Repeated tool calls",
        }
    }

    /// What it means, said after the name at FAIL: "the text loops".
    fn what(self) -> &'static str {
        match self {
            Breakdown::Repetition => "the text loops",
            Breakdown::TemplateLeak => "the model wrote past its turn",
            Breakdown::Gibberish => "the words stop being words",
            Breakdown::WordSalad => "the words no longer make sentences",
            Breakdown::Drift => "the text leaves its topic",
            Breakdown::ToolLoop => "the same calls again and again",
        }
    }

    /// Where it starts, as a verb phrase: "Turns degenerate" (at byte …).
    pub fn onset_verb(self) -> &'static str {
        match self {
            Breakdown::Repetition | Breakdown::ToolLoop => "Turns degenerate",
            Breakdown::TemplateLeak => "Writes past its turn",
            Breakdown::Gibberish => "Turns to gibberish",
            Breakdown::WordSalad => "Turns to word salad",
            Breakdown::Drift => "Leaves its topic",
        }
    }

    /// When it starts at byte 0: "Degenerate from its very start".
    pub fn from_start(self) -> &'static str {
        match self {
            Breakdown::Repetition | Breakdown::ToolLoop => "Degenerate from its very start",
            Breakdown::TemplateLeak => "Past its turn from its very start",
            Breakdown::Gibberish => "Gibberish from its very start",
            Breakdown::WordSalad => "Word salad from its very start",
            Breakdown::Drift => "Off its topic from its very start",
        }
    }
}

/// What a PASS headline says: everything the checks look for, none found.
pub const PASS_HEADLINE: &str = "No repetition or incoherence found";

/// The headline of a verdict set by `tripped` (see [`Breakdown`]): "Repetition collapse: the
/// text loops", "Topic drift: the text leaves its topic", "Some repetition: worth a look".
pub fn verdict_headline(verdict: Verdict, tripped: Option<Metric>) -> String {
    let b = Breakdown::of(tripped);
    match verdict {
        Verdict::Pass => PASS_HEADLINE.to_string(),
        // Drift is never worse than WARN: its WARN says what it is, not only "worth a look".
        Verdict::Warn if b != Breakdown::Drift => format!("{}: worth a look", b.name(verdict)),
        _ => format!("{}: {}", b.name(verdict), b.what()),
    }
}

/// Where the breakdown `tripped` found starts, as a sentence's start: "Turns degenerate at byte
/// 1,234", "Leaves its topic at byte 1,810", "Degenerate from its very start (byte 0)".
pub fn onset_phrase(tripped: Option<Metric>, onset: usize) -> String {
    let b = Breakdown::of(tripped);
    if onset == 0 {
        format!("{} (byte 0)", b.from_start())
    } else {
        format!("{} at byte {}", b.onset_verb(), crate::wording::thousands(onset))
    }
}

/// The raw metric values (the seed's three, exact).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub maxrun: usize,
    pub maxline: usize,
    /// When the most repeated line carries no content (`}`, a fence marker, a rule, lone
    /// punctuation) and reaches maxline's WARN threshold: how often the most repeated line with
    /// content occurs — what the product's verdict counts (the seed's figure is `maxline`).
    /// Written even when `None`: the page's worker sends reports in postcard, which cannot tell
    /// a field left out.
    #[serde(default)]
    pub content_maxline: Option<usize>,
    pub gzip_ratio: f64,
    /// Size of the gzip-9 stream the ratio was computed from.
    pub gzip_bytes: usize,
    /// The tandem repeat that decided the loop check (the most covering one when none trips).
    pub tandem: Option<TandemFigure>,
    /// Share of the text (0..=1) in copies of earlier text of at least 8 tokens.
    pub copy_coverage: f64,
    /// Share of the text in long near-exact copies (≥ 32 tokens, ≤ 12 % edits).
    pub long_copy_share: f64,
    /// The copy that decided the copies check (the longest long copy when none trips).
    pub copy: Option<CopyFigure>,
    pub profile: ProfileFigure,
    /// distinct-n for n = 1..=4: unique token n-grams ÷ n-grams (shown, not gating).
    pub distinct: [f64; 4],
    /// 1 when `distinct` counts every n-gram; k when it is estimated from 1 n-gram id in k
    /// (texts of over a million tokens).
    #[serde(default = "one")]
    pub distinct_sample: usize,
    /// The drift rule's series, where drift is judged (unstructured English prose of 4 KiB or
    /// more: see `incoherence::drift`); `None` elsewhere. Written even when `None` (postcard,
    /// see `content_maxline`).
    #[serde(default)]
    pub drift: Option<DriftFigure>,
}

/// The drift rule's topic words along the text: for windows along it, the share of their
/// words (five letters or more) that are the opening's topic words — or the prompt's, for a
/// reply to one — and where none comes back any more.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DriftFigure {
    /// The opening's topic words (a few).
    pub topic: Vec<String>,
    /// How many of the prompt's topic words were counted too (0 without a prompt).
    pub prompt_words: usize,
    /// Where the opening, whose topic words are counted, ends.
    pub opening: usize,
    /// Bytes per window (the last one may be up to a quarter longer).
    pub window: usize,
    /// `[start byte, share of topic words]` of each window, share to 4 decimals; at most
    /// `incoherence::drift::SERIES_MAX` windows.
    pub windows: Vec<(usize, f64)>,
    /// Where the tail with no topic word starts (the check's span when it WARNs).
    pub tail: usize,
}

/// A tandem repeat: `count` copies of a `unit_bytes`-byte unit back to back over `start..end`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TandemFigure {
    /// (Named `level` in JSON, as the reports have always written it.)
    #[serde(rename = "level")]
    pub unit_kind: UnitKind,
    /// The unit, shortened for display (see [`crate::wording::quote`]).
    pub unit: String,
    pub unit_bytes: usize,
    /// The unit's length in items of its kind (bytes, words or lines).
    pub period: usize,
    pub count: usize,
    pub start: usize,
    pub end: usize,
    /// (end − start) ÷ text bytes.
    pub share: f64,
    /// How the copies differ.
    #[serde(default)]
    pub variation: Variation,
}

/// A copy: bytes `start..end` repeat the text from byte `source`, with `edits` tokens changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CopyFigure {
    pub start: usize,
    pub end: usize,
    pub source: usize,
    pub tokens: usize,
    pub edits: usize,
    pub share: f64,
}

/// The compression ratio along the text in fixed windows, and where the text turns degenerate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileFigure {
    /// Bytes per window (the last one may be up to a quarter longer).
    pub window: usize,
    pub degenerate_below: f64,
    /// `[start byte, ratio]` of each window, ratio to 4 decimals.
    pub windows: Vec<(usize, f64)>,
    /// Start of the degenerate end, if the text has one.
    pub onset: Option<usize>,
    pub min_ratio: f64,
    /// Bytes from `onset` to the end ÷ text bytes (0 with no onset).
    pub tail_share: f64,
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
    /// False when the text is too small for this metric to mean anything (its level is then
    /// PASS, and the page says "not judged").
    #[serde(default = "yes")]
    pub judged: bool,
    /// The copies check only: most of what repeats is data — copies whose changes are numbers,
    /// holding as many numbers as words, cover at least its WARN share (see `judge::
    /// effective_level`).
    #[serde(default)]
    pub data: bool,
}

fn yes() -> bool {
    true
}

fn one() -> usize {
    1
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
        Metric::Loop | Metric::Copies | Metric::Profile | Metric::Drift => percent(value),
        // Counts: whole numbers (integer formatting keeps float printing code out of the wasm).
        _ => (value as u64).to_string(),
    }
}

/// Formats a threshold: counts as integers, ratios with 2 decimals, shares as percentages.
pub fn format_threshold(metric: Metric, value: f64) -> String {
    match metric {
        Metric::GzipRatio => format!("{value:.2}"),
        Metric::Loop | Metric::Copies | Metric::Profile | Metric::Drift => percent(value),
        _ => (value as u64).to_string(),
    }
}

/// A check's threshold as its tables show it, with its direction: "≥ 12", "< 0.10"; a
/// threshold the check never reaches (drift's FAIL: drift alone is a WARN) is "never".
pub fn threshold_cell(c: &Check, fail: bool) -> String {
    if fail && c.metric == Metric::Drift {
        return "never".to_string();
    }
    let value = if fail { c.fail_at } else { c.warn_at };
    format!("{} {}", c.direction.symbol(true), format_threshold(c.metric, value))
}

/// What flagged a span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpanKind {
    /// A run of identical consecutive words at or above maxrun's WARN threshold.
    WordRun,
    /// One occurrence of a line repeated at least maxline's WARN threshold times.
    RepeatedLine,
    /// A unit repeated back to back; `period` is the unit's length in bytes, `count` its copies.
    Loop,
    /// A long near-exact copy of earlier text; `source` is where the original starts, `count`
    /// the copy's length in tokens.
    Copy,
    /// A leaked chat-template marker or role line and the text written after it; `count` is
    /// the non-blank bytes written after it.
    TemplateLeak,
    /// An odd word (scripts mixed inside it, tokenizer junk, mojibake); `count` is the odd
    /// words in the densest window around it.
    TokenSoup,
    /// A glued word (function words run together with other words); `count` is the glued
    /// words in the window it opens.
    GluedWord,
    /// A pair of words with a function word where English never puts it (`to to`, `the of`,
    /// `and.`); `count` is the misplaced pairs in the window it opens.
    MisplacedWords,
    /// A sentence that never ends (no stop, no line break, in English prose); `count` is its
    /// length in words.
    RunOn,
    /// The tail of a text that has left its opening's topic; `count` is its length in bytes.
    Drift,
}

impl SpanKind {
    pub const ALL: [SpanKind; 10] = [
        SpanKind::Loop,
        SpanKind::Copy,
        SpanKind::WordRun,
        SpanKind::RepeatedLine,
        SpanKind::TemplateLeak,
        SpanKind::TokenSoup,
        SpanKind::GluedWord,
        SpanKind::MisplacedWords,
        SpanKind::RunOn,
        SpanKind::Drift,
    ];

    pub fn label(self) -> &'static str {
        match self {
            SpanKind::WordRun => "repeated word run",
            SpanKind::RepeatedLine => "repeated line",
            SpanKind::Loop => "loop",
            SpanKind::Copy => "copy of earlier text",
            SpanKind::TemplateLeak => "leaked chat template",
            SpanKind::TokenSoup => "odd word",
            SpanKind::GluedWord => "glued word",
            SpanKind::MisplacedWords => "misplaced function words",
            SpanKind::RunOn => "sentence that never ends",
            SpanKind::Drift => "drifted off topic",
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
    /// Loops whose copies are exact: the unit's length in bytes (copies are banded by it); none
    /// when copies differ (small edits, a changing number).
    #[serde(default)]
    pub period: Option<usize>,
    /// Copies: the byte where the copied text first occurs.
    #[serde(default)]
    pub source: Option<usize>,
}

/// The full result of analysing one text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Size of the analysed text in UTF-8 bytes.
    pub bytes: usize,
    pub verdict: Verdict,
    /// The check that set the verdict (`None` for PASS).
    pub tripped: Option<Metric>,
    /// What the seed script alone (maxrun, maxline, gzip ratio at its thresholds) would say.
    pub seed_verdict: Verdict,
    /// The byte where the text turns degenerate: the earliest start of what the checks at the
    /// verdict's level found; `None` for PASS.
    pub onset: Option<usize>,
    /// Why the verdict is what it is, in words, worst first.
    pub reasons: Vec<String>,
    pub metrics: Metrics,
    /// Each heuristic against its thresholds, in [`Metric::ALL`] order.
    pub checks: Vec<Check>,
    /// Flagged spans, sorted by start: at most a few thousand (2,000 word runs, 2,000 runs of
    /// repeated lines — a line said back to back is one span with its `period` —, 1,000
    /// copies, the loop).
    pub spans: Vec<Span>,
    /// Flagged spans past those caps: counted, not listed.
    #[serde(default)]
    pub spans_not_listed: usize,
    /// The text is empty, only whitespace, or short (see `analyzer::is_too_short`): the numbers are
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
        // Word salad shows its glued words, its misplaced pairs or its sentence that never
        // ends, whichever comes first.
        let salad = kind == SpanKind::GluedWord;
        self.spans
            .iter()
            .find(|s| s.kind == kind || salad && matches!(s.kind, SpanKind::MisplacedWords | SpanKind::RunOn))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_breakdown_has_its_own_headline_and_onset() {
        let fail = |m| verdict_headline(Verdict::Fail, Some(m));
        let warn = |m| verdict_headline(Verdict::Warn, Some(m));
        for m in [Metric::Loop, Metric::Copies, Metric::Profile, Metric::Maxrun, Metric::Maxline, Metric::GzipRatio] {
            assert_eq!(fail(m), "Repetition collapse: the text loops", "{m:?}");
            assert_eq!(warn(m), "Some repetition: worth a look", "{m:?}");
            assert_eq!(onset_phrase(Some(m), 1810), "Turns degenerate at byte 1,810");
        }
        assert_eq!(fail(Metric::TemplateLeak), "Leaked chat template: the model wrote past its turn");
        assert_eq!(warn(Metric::TemplateLeak), "Chat-template markers: worth a look");
        assert_eq!(fail(Metric::TokenSoup), "Gibberish: the words stop being words");
        assert_eq!(warn(Metric::TokenSoup), "Some garbled words: worth a look");
        assert_eq!(fail(Metric::WordSalad), "Word salad: the words no longer make sentences");
        assert_eq!(warn(Metric::WordSalad), "Some broken sentences: worth a look");
        assert_eq!(warn(Metric::Drift), "Topic drift: the text leaves its topic");
        assert_eq!(fail(Metric::ToolLoop), "Tool loop: the same calls again and again");
        assert_eq!(warn(Metric::ToolLoop), "Repeated tool calls: worth a look");
        // A verdict set across a conversation's turns (no one check of a text) is a loop.
        assert_eq!(verdict_headline(Verdict::Fail, None), "Repetition collapse: the text loops");
        for m in Metric::ALL.into_iter().map(Some).chain([None]) {
            assert_eq!(verdict_headline(Verdict::Pass, m), PASS_HEADLINE);
        }
        let onsets = [
            (Metric::TemplateLeak, "Writes past its turn at byte 12"),
            (Metric::TokenSoup, "Turns to gibberish at byte 12"),
            (Metric::WordSalad, "Turns to word salad at byte 12"),
            (Metric::Drift, "Leaves its topic at byte 12"),
        ];
        for (m, want) in onsets {
            assert_eq!(onset_phrase(Some(m), 12), want);
        }
        assert_eq!(onset_phrase(Some(Metric::Loop), 0), "Degenerate from its very start (byte 0)");
        assert_eq!(onset_phrase(Some(Metric::TokenSoup), 0), "Gibberish from its very start (byte 0)");
    }

    #[test]
    fn headlines_are_short_enough_for_the_badge_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for v in [Verdict::Warn, Verdict::Fail] {
            for m in Metric::ALL.into_iter().chain([Metric::ToolLoop]) {
                let h = verdict_headline(v, Some(m));
                assert!(h.chars().count() <= 52, "{h}");
                seen.insert(h);
            }
        }
        // Repetition (2), leak (2), gibberish (2), salad (2), drift (1), tool loop (2).
        assert_eq!(seen.len(), 11);
    }
}
