//! The minimap beside the text: marks where the flagged spans are, at their worst level, and
//! the span a click on it goes to.

use super::layout::Layout;
use coherency_core::analyze::{Span, Verdict};

/// Slots of the page's minimap.
pub const MAP_BUCKETS: usize = 240;

/// One mark of the minimap: a run of rows holding flagged text, at its worst level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapMark {
    /// Fractions (0..=1) of the rows.
    pub top: f64,
    pub height: f64,
    pub level: Verdict,
}

/// The minimap in `buckets` slots: a mark for each run of slots covered by spans of the same
/// worst level. O(spans × log rows + buckets), whatever the spans' lengths.
pub fn minimap(layout: &Layout, spans: &[Span], buckets: usize) -> Vec<MapMark> {
    let buckets = buckets.max(1);
    let rows = layout.rows().max(1) as f64;
    let mut warn = vec![0i64; buckets + 1];
    let mut fail = vec![0i64; buckets + 1];
    let slot = |row: usize| ((row as f64 / rows) * buckets as f64) as usize;
    for s in spans.iter().filter(|s| s.end > s.start) {
        let b0 = slot(layout.row_of(s.start)).min(buckets - 1);
        let b1 = slot(layout.row_of(s.end - 1)).clamp(b0, buckets - 1);
        let diff = if s.level == Verdict::Fail { &mut fail } else { &mut warn };
        diff[b0] += 1;
        diff[b1 + 1] -= 1;
    }
    let (mut w, mut f) = (0i64, 0i64);
    let mut marks: Vec<MapMark> = Vec::new();
    let mut prev: Option<Verdict> = None;
    for b in 0..buckets {
        w += warn[b];
        f += fail[b];
        let level = if f > 0 {
            Some(Verdict::Fail)
        } else if w > 0 {
            Some(Verdict::Warn)
        } else {
            None
        };
        let top = b as f64 / buckets as f64;
        match (level, marks.last_mut()) {
            (Some(l), Some(m)) if prev == Some(l) => m.height = top + 1.0 / buckets as f64 - m.top,
            (Some(l), _) => marks.push(MapMark { top, height: 1.0 / buckets as f64, level: l }),
            (None, _) => {}
        }
        prev = level;
    }
    marks
}

/// The share of the rows (0..=1) above byte `b`, for placing the onset on the minimap.
pub fn fraction_of(layout: &Layout, b: usize) -> f64 {
    layout.row_of(b) as f64 / layout.rows().max(1) as f64
}

/// The span to show after a click at `fraction` of the minimap: the first span starting in
/// the rows of that slot (of `buckets`), else in the slot below or above it (a mark is at
/// least a few pixels tall), else `None` (the view just scrolls there).
pub fn span_at_fraction(layout: &Layout, spans: &[Span], fraction: f64, buckets: usize) -> Option<usize> {
    let buckets = buckets.max(1);
    let slot = ((fraction.clamp(0.0, 1.0) * buckets as f64) as usize).min(buckets - 1);
    [slot, slot + 1, slot.wrapping_sub(1)]
        .into_iter()
        .filter(|&s| s < buckets)
        .find_map(|s| first_span_in_slot(layout, spans, s, buckets))
        .or_else(|| span_over_slot(layout, spans, slot, buckets))
}

/// The span that started last before `slot` and reaches into it (a long span — a loop, lines
/// said back to back — marks every slot it covers; the report lists a few thousand at most).
fn span_over_slot(layout: &Layout, spans: &[Span], slot: usize, buckets: usize) -> Option<usize> {
    let rows = layout.rows();
    let row = (slot * rows).div_ceil(buckets).min(rows.saturating_sub(1));
    let from = layout.row_range(row).0;
    let before = spans.partition_point(|s| s.start < from);
    spans[..before].iter().rposition(|s| s.end > from)
}

fn first_span_in_slot(layout: &Layout, spans: &[Span], slot: usize, buckets: usize) -> Option<usize> {
    let rows = layout.rows();
    let row_a = (slot * rows).div_ceil(buckets);
    let row_b = ((slot + 1) * rows).div_ceil(buckets).max(row_a + 1);
    let from = layout.row_range(row_a).0;
    let to = if row_b >= rows { usize::MAX } else { layout.row_range(row_b).0 };
    let i = spans.partition_point(|s| s.start < from);
    spans.get(i).filter(|s| s.start < to).map(|_| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text_view::span;
    use coherency_core::analyze::SpanKind;

    #[test]
    fn the_minimap_marks_runs_at_their_worst_level() {
        let text = "x\n".repeat(100);
        let l = Layout::new(&text, 80);
        assert_eq!(l.rows(), 100);
        let spans = [
            span(0, 20, SpanKind::RepeatedLine, Verdict::Warn), // rows 0..10
            span(10, 12, SpanKind::WordRun, Verdict::Fail),     // row 5
            span(180, 200, SpanKind::Loop, Verdict::Fail),      // rows 90..100
        ];
        let marks = minimap(&l, &spans, 10);
        let got: Vec<(f64, f64, Verdict)> = marks.iter().map(|m| (m.top, (m.height * 10.0).round(), m.level)).collect();
        assert_eq!(got, [(0.0, 1.0, Verdict::Fail), (0.9, 1.0, Verdict::Fail)]);
        assert_eq!(fraction_of(&l, 100), 0.5);
        assert_eq!(span_at_fraction(&l, &spans, 0.95, 10), Some(2));
        assert_eq!(span_at_fraction(&l, &spans, 0.5, 10), None);
        assert_eq!(span_at_fraction(&l, &spans, 0.85, 10), Some(2), "a click just above a mark");
        assert_eq!(span_at_fraction(&l, &spans, 1.0, 10), Some(2));
        assert!(minimap(&Layout::new("", 80), &[], 0).is_empty());
        // A click in the middle of a long span picks that span.
        let long = [span(0, 2, SpanKind::WordRun, Verdict::Warn), span(4, 200, SpanKind::RepeatedLine, Verdict::Fail)];
        assert_eq!(span_at_fraction(&l, &long, 0.5, 10), Some(1));
        assert_eq!(span_at_fraction(&l, &long[..1], 0.5, 10), None);
    }
}
