//! Going from place to place in the text: where next / previous goes from the current span or
//! from the view, the position said beside the buttons, and the place that shows a byte (the
//! onset, a point on the chart).

use crate::model::Analysis;
use coherency_core::analyze::Span;

/// A place in the analysed text the view is asked to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Highlighted span N (scrolled to the middle of the view and flashed).
    Span(usize),
    /// A byte of the text (its row scrolled to the middle of the view).
    Byte(usize),
}

/// The place that shows byte `at`: the span covering it or one starting just after it, else
/// that byte itself.
pub fn place_of_byte(analysis: &Analysis, at: usize) -> Place {
    // A span more than a profile window (4 KiB) past the place would show somewhere else.
    let near = analysis.span_near(at).filter(|&i| analysis.report.spans[i].start <= at + 4096);
    near.map_or(Place::Byte(at), Place::Span)
}

/// `current`, if the view still shows it (the bytes `from..to` are on screen); steps start
/// from the view otherwise.
pub fn still_shown(spans: &[Span], current: Option<usize>, from: usize, to: usize) -> Option<usize> {
    current.filter(|&c| spans.get(c).is_some_and(|s| s.start < to.max(from + 1) && s.end >= from))
}

/// The span that "next" (or "previous") goes to: the one after (before) `current` when the
/// view still shows it, else the first span starting at or after (the last before) byte
/// `anchor`, where the view is. `None` when there are no spans.
pub fn step(spans: &[Span], current: Option<usize>, anchor: usize, forward: bool) -> Option<usize> {
    let n = spans.len();
    if n == 0 {
        return None;
    }
    Some(match (current.filter(|&c| c < n), forward) {
        (Some(c), true) => (c + 1).min(n - 1),
        (Some(c), false) => c.saturating_sub(1),
        (None, true) => spans.partition_point(|s| s.start < anchor).min(n - 1),
        (None, false) => spans.partition_point(|s| s.start < anchor).saturating_sub(1),
    })
}

/// "span 3 of 401", or "401 spans" before one is picked.
pub fn position_text(current: Option<usize>, total: usize) -> String {
    match current.filter(|&c| c < total) {
        Some(c) => format!(
            "span {} of {}",
            coherency_core::wording::thousands(c + 1),
            coherency_core::wording::thousands(total)
        ),
        None => coherency_core::wording::plural(total, "span", "spans"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text_view::span;
    use coherency_core::analyze::{SpanKind, Verdict};

    #[test]
    fn next_and_previous_follow_the_current_span_or_the_view() {
        let spans: Vec<Span> = (0..5).map(|i| span(i * 10, i * 10 + 5, SpanKind::WordRun, Verdict::Warn)).collect();
        assert_eq!(step(&spans, None, 0, true), Some(0));
        assert_eq!(step(&spans, Some(0), 0, true), Some(1));
        assert_eq!(step(&spans, Some(4), 0, true), Some(4));
        assert_eq!(step(&spans, Some(0), 0, false), Some(0));
        assert_eq!(step(&spans, None, 25, true), Some(3));
        assert_eq!(step(&spans, None, 25, false), Some(2));
        assert_eq!(step(&spans, None, 999, true), Some(4));
        assert_eq!(step(&spans, None, 0, false), Some(0));
        assert_eq!(step(&[], None, 0, true), None);
        assert_eq!(position_text(Some(2), 401), "span 3 of 401");
        assert_eq!(position_text(None, 1200), "1,200 spans");
        assert_eq!(position_text(None, 1), "1 span");
    }

    #[test]
    fn the_current_span_counts_while_it_is_on_screen() {
        let spans: Vec<Span> = (0..5).map(|i| span(i * 10, i * 10 + 5, SpanKind::WordRun, Verdict::Warn)).collect();
        assert_eq!(still_shown(&spans, Some(2), 0, 100), Some(2));
        assert_eq!(still_shown(&spans, Some(2), 25, 40), Some(2), "it ends inside the view");
        assert_eq!(still_shown(&spans, Some(2), 26, 40), None, "the view has moved past it");
        assert_eq!(still_shown(&spans, Some(2), 0, 20), None, "it starts below the view");
        assert_eq!(still_shown(&spans, Some(9), 0, 100), None);
        assert_eq!(still_shown(&spans, None, 0, 100), None);
    }

    #[test]
    fn a_byte_is_shown_by_the_span_there_or_just_after() {
        let prose: String = (0..800).map(|i| format!("word{i} ")).collect();
        let text = format!("{prose}{}", "Let me check the file again. ".repeat(60));
        let a = Analysis::new(1, crate::model::Source::Input, text);
        let onset = a.report.onset.expect("an onset");
        let Place::Span(i) = place_of_byte(&a, onset) else { panic!("the onset shows its span") };
        assert!(a.report.spans[i].start <= onset + 4096);
        assert_eq!(place_of_byte(&a, 0), Place::Byte(0), "no span within 4 KiB");
        assert_eq!(place_of_byte(&a, a.text.len()), Place::Byte(a.text.len()));
    }
}
