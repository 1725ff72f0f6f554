//! The analysed text, virtualised: only the rows on screen are in the page, however long the
//! text (a single 50 MB line included), with every flagged span highlighted, loop copies
//! banded, the onset marked, a minimap of where the spans are, and next / previous span.
//!
//! The component ([`HighlightedText`]) measures, scrolls and renders; what it shows is
//! computed by pure modules, unit-tested natively: [`layout`] (the text cut into rows of a
//! known width), [`scrolling`] (the rows on screen for a scroll position), [`fragments`] (the
//! highlighted fragments of those rows, loop copies banded), [`minimap`] and [`navigation`]
//! (next / previous span, the place that shows a byte). [`highlight`] builds the page's one
//! highlight element, for this view and the live mode's texts. [`text_link`] is how the rest of the
//! page asks the view to show a place: the root component owns it, it is not a global. Work per
//! frame is the visible rows only: rows, segments and spans are found by binary search.

pub mod fragments;
pub mod highlight;
mod highlighted_text;
pub mod layout;
mod legend;
pub mod minimap;
pub mod navigation;
pub mod scrolling;
pub mod text_link;

pub use highlighted_text::HighlightedText;

/// A span for the tests: `count` 3, no period or source.
#[cfg(test)]
fn span(
    start: usize,
    end: usize,
    kind: coherency_core::analyze::SpanKind,
    level: coherency_core::analyze::Verdict,
) -> coherency_core::analyze::Span {
    coherency_core::analyze::Span { start, end, kind, count: 3, level, period: None, source: None }
}
