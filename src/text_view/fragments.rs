//! The highlighted fragments of a row: the text between two boundaries of spans, loop-copy
//! bands, rows or markers, each with the spans covering it, outermost first, and loop copies in
//! alternating bands. The segments of the spans are found by binary search, so a row costs the
//! same in a text with a million spans.

use crate::model::Segment;
use coherency_core::analyze::text_units::ceil_boundary;
use coherency_core::analyze::{Span, SpanKind};

/// Loop copies shorter than this (in bytes) are banded in groups of copies at least this long.
pub const MIN_BAND_BYTES: usize = 4;

/// One span covering a fragment of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FragmentLayer {
    /// Index into the report's spans.
    pub span: usize,
    /// The fragment starts the span: it carries the span's `id` and class `span`.
    pub first: bool,
    /// Loops: the band of copies this fragment is in (band `k` holds copies `k × per_band` on).
    pub band: Option<Band>,
}

/// A band of a loop: `per_band` copies from copy `index × per_band` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    pub index: usize,
    pub per_band: usize,
}

impl Band {
    /// "copy 3 of 60" or "copies 5–8 of 60" (1-based).
    pub fn describe(&self, count: usize) -> String {
        let first = self.index * self.per_band + 1;
        let last = (first + self.per_band - 1).min(count.max(first));
        if last == first {
            format!("copy {first} of {count}")
        } else {
            format!("copies {first}–{last} of {count}")
        }
    }

    /// Shading alternates with the band's parity.
    pub fn odd(&self) -> bool {
        self.index % 2 == 1
    }
}

/// A fragment of a row: text between two boundaries of spans, loop copies, rows or markers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment {
    pub start: usize,
    pub end: usize,
    /// Outermost first.
    pub layers: Vec<FragmentLayer>,
    /// A marker (the onset, a copy's source) goes just before this fragment: its index in the
    /// `markers` given to [`fragments`].
    pub marker: Option<usize>,
}

/// Copies per band of a loop of `period` bytes (so that a band is at least [`MIN_BAND_BYTES`]).
fn per_band(period: usize) -> usize {
    MIN_BAND_BYTES.div_ceil(period.max(1))
}

/// The band of loop `span` at byte `at`.
fn band_at(span: &Span, at: usize) -> Option<Band> {
    let period = span.period.filter(|&p| p > 0)?;
    let per = per_band(period);
    Some(Band { index: at.saturating_sub(span.start) / (period * per), per_band: per })
}

/// The highlighted fragments of bytes `from..to` of `text` (a row), from the segments of its spans
/// (found by binary search), cut at loop-copy bands and at `markers` (sorted byte positions such
/// as the onset).
pub fn fragments(
    text: &str,
    segments: &[Segment],
    spans: &[Span],
    from: usize,
    to: usize,
    markers: &[usize],
) -> Vec<Fragment> {
    let to = to.min(text.len());
    let mut out = Vec::new();
    if from >= to {
        if let Some(m) = markers.iter().position(|&m| m == from).filter(|_| from < text.len()) {
            out.push(Fragment { start: from, end: from, layers: Vec::new(), marker: Some(m) });
        }
        return out;
    }
    let first = segments.partition_point(|s| s.end <= from);
    let mut cuts: Vec<usize> = Vec::new();
    for seg in segments[first..].iter().take_while(|s| s.start < to) {
        let (a, b) = (seg.start.max(from), seg.end.min(to));
        if a >= b {
            continue;
        }
        cuts.clear();
        cuts.push(a);
        cuts.push(b);
        cuts.extend(markers.iter().copied().filter(|&m| m > a && m < b));
        for layer in &seg.layers {
            let Some(span) = spans.get(layer.span) else { continue };
            if span.kind != SpanKind::Loop {
                continue;
            }
            let Some(period) = span.period.filter(|&p| p > 0) else { continue };
            let step = period * per_band(period);
            // Band boundaries inside a..b: span.start + k × step.
            let mut k = (a.saturating_sub(span.start)) / step + 1;
            loop {
                let cut = ceil_boundary(text, span.start + k * step);
                if cut >= b {
                    break;
                }
                if cut > a {
                    cuts.push(cut);
                }
                k += 1;
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        for w in cuts.windows(2) {
            let (s, e) = (w[0], w[1]);
            let layers = seg
                .layers
                .iter()
                .filter_map(|l| {
                    let span = spans.get(l.span)?;
                    let band = if span.kind == SpanKind::Loop { band_at(span, s) } else { None };
                    Some(FragmentLayer { span: l.span, first: span.start == s, band })
                })
                .collect();
            out.push(Fragment { start: s, end: e, layers, marker: markers.iter().position(|&m| m == s) });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::segments;
    use crate::text_view::span;
    use coherency_core::analyze::Verdict;

    #[test]
    fn loop_copies_are_banded_by_period() {
        let unit = "Let me check. ";
        let text = format!("Intro. {}", unit.repeat(5));
        let mut s = span(7, text.len(), SpanKind::Loop, Verdict::Fail);
        s.period = Some(unit.len());
        s.count = 5;
        let spans = [s];
        let segs = segments(&text, &spans);
        let ps = fragments(&text, &segs, &spans, 0, text.len(), &[7]);
        let texts: Vec<&str> = ps.iter().map(|p| &text[p.start..p.end]).collect();
        assert_eq!(texts, ["Intro. ", unit, unit, unit, unit, unit]);
        let bands: Vec<Option<usize>> =
            ps.iter().map(|p| p.layers.first().and_then(|l| l.band).map(|b| b.index)).collect();
        assert_eq!(bands, [None, Some(0), Some(1), Some(2), Some(3), Some(4)]);
        assert!(ps[1].marker == Some(0) && ps[1].layers[0].first);
        assert!(ps.iter().skip(2).all(|p| !p.layers[0].first && p.marker.is_none()));
        assert_eq!(ps[3].layers[0].band.map(|b| b.describe(5)), Some("copy 3 of 5".to_string()));
        // A row cut in the middle of a copy keeps the band of where it is.
        let ps = fragments(&text, &segs, &spans, 10, 30, &[]);
        assert_eq!(ps.iter().map(|p| (p.start, p.end)).collect::<Vec<_>>(), [(10, 21), (21, 30)]);
        assert_eq!(ps[1].layers[0].band.map(|b| b.index), Some(1));
    }

    #[test]
    fn tiny_periods_band_groups_of_copies_and_cjk_cuts_stay_on_boundaries() {
        let text = "ab".to_string() + &"x".repeat(20);
        let mut s = span(2, 22, SpanKind::Loop, Verdict::Warn);
        s.period = Some(1);
        s.count = 20;
        let spans = [s];
        let segs = segments(&text, &spans);
        let ps = fragments(&text, &segs, &spans, 0, text.len(), &[]);
        assert_eq!(ps.len(), 1 + 5, "bands of 4 copies");
        assert_eq!(ps[2].layers[0].band.map(|b| b.describe(20)), Some("copies 5–8 of 20".to_string()));

        let unit = "我需要再检查一下这个文件。";
        let text = format!("前言。{}", unit.repeat(3));
        let mut s = span(9, text.len(), SpanKind::Loop, Verdict::Fail);
        s.period = Some(unit.len() + 1); // an approximate period off the char grid
        let spans = [s];
        let segs = segments(&text, &spans);
        let ps = fragments(&text, &segs, &spans, 0, text.len(), &[]);
        assert!(ps.iter().all(|p| text.is_char_boundary(p.start) && text.is_char_boundary(p.end)));
        assert_eq!(ps.iter().map(|p| &text[p.start..p.end]).collect::<String>(), text);
    }

    #[test]
    fn fragments_find_their_segments_by_binary_search_in_huge_span_lists() {
        let text = "word ".repeat(200_000);
        let spans: Vec<Span> = (0..200_000).map(|i| span(i * 5, i * 5 + 4, SpanKind::WordRun, Verdict::Warn)).collect();
        let segs = segments(&text, &spans);
        let ps = fragments(&text, &segs, &spans, 500_002, 500_012, &[]);
        let got: Vec<(usize, usize, Option<usize>)> =
            ps.iter().map(|p| (p.start, p.end, p.layers.first().map(|l| l.span))).collect();
        assert_eq!(
            got,
            [
                (500_002, 500_004, Some(100_000)),
                (500_004, 500_005, None),
                (500_005, 500_009, Some(100_001)),
                (500_009, 500_010, None),
                (500_010, 500_012, Some(100_002))
            ]
        );
        assert!(!ps[0].layers[0].first && ps[2].layers[0].first);
    }

    #[test]
    fn the_onset_is_a_cut_and_an_empty_row_can_hold_it() {
        let text = "abcdef";
        let ps = fragments(text, &segments(text, &[]), &[], 0, 6, &[3, 5]);
        assert_eq!(ps.iter().map(|p| (p.start, p.marker)).collect::<Vec<_>>(), [(0, None), (3, Some(0)), (5, Some(1))]);
        assert_eq!(fragments(text, &segments(text, &[]), &[], 6, 6, &[6]), []);
        assert!(fragments(text, &segments(text, &[]), &[], 2, 2, &[]).is_empty());
    }
}
