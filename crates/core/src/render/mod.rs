//! Reports rendered for people: the [`segments`] a highlighted text is drawn from (the page's
//! text view and the HTML report share them), a [`markdown`] summary to paste into an issue or a
//! chat, a self-contained [`html`] report file that reads with JavaScript off, and the result
//! [`result_link`] that carries the input itself, the drift rule's series in one line ([`drift_line`]); the [`json`] report (the CLI's `--json`), and a
//! [`saved_report`] (such JSON) read back to be shown again; the CLI's [`text`] report, with
//! every value from the input made [`terminal`]-safe. A comparison with a golden reference
//! (`compare`) has its own four: [`compare_text`], [`compare_json`], [`compare_markdown`] and
//! [`compare_html`], from the figures in words of [`compare_figures`].
//!
//! Everything from the input (texts, message names, tool names, reasons quoting the text) is
//! escaped for where it goes; nothing here is ever interpreted as markup.

pub mod compare_figures;
pub mod compare_html;
pub mod compare_json;
pub mod compare_markdown;
pub mod compare_text;
pub mod drift_line;
pub mod html;
pub mod json;
pub mod markdown;
pub mod result_link;
pub mod saved_report;
mod segments;
mod summary;
pub mod terminal;
pub mod text;

pub use segments::{segments, Layer, Segment};
pub use summary::{
    conversation_check, conversation_place, deciding_check, deciding_conversation, place_of, DocumentSummary,
    EXCERPT_BYTES,
};

use crate::analyze::{Span, SpanKind, Verdict};
use crate::wording::{plural, thousands};

/// Lower-case verdict for CSS classes: "pass", "warn", "fail".
pub fn level_key(level: Verdict) -> &'static str {
    match level {
        Verdict::Pass => "pass",
        Verdict::Warn => "warn",
        Verdict::Fail => "fail",
    }
}

/// The span kind as in the report's JSON, for `data-kind` and CSS classes.
pub fn kind_key(kind: SpanKind) -> &'static str {
    match kind {
        SpanKind::WordRun => "word_run",
        SpanKind::RepeatedLine => "repeated_line",
        SpanKind::Loop => "loop",
        SpanKind::Copy => "copy",
        SpanKind::TemplateLeak => "template_leak",
        SpanKind::TokenSoup => "token_soup",
        SpanKind::GluedWord => "glued_word",
        SpanKind::MisplacedWords => "misplaced_words",
        SpanKind::RunOn => "run_on",
        SpanKind::Drift => "drift",
    }
}

/// The tooltip of a highlighted span: "repeated line · 200 occurrences · FAIL".
pub fn span_title(span: &Span) -> String {
    let count = match span.kind {
        SpanKind::WordRun => plural(span.count, "word", "words in a row"),
        SpanKind::RepeatedLine => plural(span.count, "occurrence", "occurrences in the text"),
        SpanKind::Loop => match span.period {
            Some(p) => format!("{} × {}", plural(span.count, "copy", "copies"), plural(p, "byte", "bytes")),
            None => plural(span.count, "copy", "copies"),
        },
        SpanKind::Copy => match span.source {
            Some(src) => format!("{} · copied from byte {}", plural(span.count, "token", "tokens"), thousands(src)),
            None => plural(span.count, "token", "tokens"),
        },
        SpanKind::TemplateLeak => plural(span.count, "byte written after it", "bytes written after it"),
        SpanKind::TokenSoup => plural(span.count, "odd word", "odd words in its window"),
        SpanKind::GluedWord => plural(span.count, "glued word", "glued words in its window"),
        SpanKind::MisplacedWords => plural(span.count, "misplaced pair", "misplaced pairs in its window"),
        SpanKind::RunOn => plural(span.count, "word", "words with no stop"),
        SpanKind::Drift => plural(span.count, "byte", "bytes"),
    };
    format!("{} · {count} · {}", span.kind.label(), span.level.as_str())
}
