//! The segments of a text between span boundaries: overlapping and nested spans drawn as nested
//! elements per segment (the page's text view, the HTML report).

use crate::analyze::Span;

/// A stretch of the text between two consecutive span boundaries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Byte range into the analysed text (always on char boundaries).
    pub start: usize,
    pub end: usize,
    /// The spans covering this stretch, outermost first.
    pub layers: Vec<Layer>,
}

/// One span covering a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layer {
    /// Index into `report.spans`.
    pub span: usize,
    /// This segment is where the span starts: the span's one element with class `span`.
    pub first: bool,
}

/// Splits `text` at every span boundary so that overlapping and nested spans can be drawn as
/// nested elements per segment. Each span's first segment is marked, so the page shows exactly
/// one `span` element per span. Boundaries that are not char boundaries of `text` (which the
/// core never produces) are dropped rather than split a character; the segments always cover
/// the whole text, in order.
pub fn segments(text: &str, spans: &[Span]) -> Vec<Segment> {
    let mut bounds: Vec<usize> = Vec::with_capacity(spans.len() * 2 + 2);
    bounds.push(0);
    bounds.push(text.len());
    for s in spans {
        bounds.push(s.start);
        bounds.push(s.end);
    }
    bounds.retain(|&b| text.is_char_boundary(b));
    bounds.sort_unstable();
    bounds.dedup();

    // Spans in the order they open; ties: the longer one is the outer one.
    let mut order: Vec<usize> = (0..spans.len()).filter(|&i| spans[i].start < spans[i].end).collect();
    order.sort_by_key(|&i| (spans[i].start, std::cmp::Reverse(spans[i].end), i));

    let mut out = Vec::with_capacity(bounds.len());
    let mut active: Vec<usize> = Vec::new();
    let mut next = 0;
    for w in bounds.windows(2) {
        let (start, end) = (w[0], w[1]);
        active.retain(|&i| spans[i].end > start);
        while next < order.len() && spans[order[next]].start <= start {
            let i = order[next];
            if spans[i].end > start {
                active.push(i);
            }
            next += 1;
        }
        let layers = active.iter().map(|&i| Layer { span: i, first: spans[i].start == start }).collect();
        out.push(Segment { start, end, layers });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{SpanKind, Verdict};

    fn span(start: usize, end: usize, kind: SpanKind) -> Span {
        Span { start, end, kind, count: 7, level: Verdict::Warn, period: None, source: None }
    }

    /// Segments as `(text, [(span, first)])`, the shape the view renders.
    fn check(text: &str, spans: &[Span], want: &[(&str, &[(usize, bool)])]) {
        let got: Vec<(&str, Vec<(usize, bool)>)> = segments(text, spans)
            .iter()
            .map(|s| (&text[s.start..s.end], s.layers.iter().map(|l| (l.span, l.first)).collect()))
            .collect();
        let want: Vec<(&str, Vec<(usize, bool)>)> = want.iter().map(|(t, l)| (*t, l.to_vec())).collect();
        assert_eq!(got, want);
        let firsts: usize = segments(text, spans).iter().flat_map(|s| &s.layers).filter(|l| l.first).count();
        assert_eq!(firsts, spans.len(), "one first segment per span");
    }

    #[test]
    fn no_spans_is_one_plain_segment() {
        check("hello", &[], &[("hello", &[])]);
    }

    #[test]
    fn disjoint_spans_leave_plain_text_between() {
        let s = [span(0, 2, SpanKind::RepeatedLine), span(3, 5, SpanKind::RepeatedLine)];
        check("ab\ncd\n", &s, &[("ab", &[(0, true)]), ("\n", &[]), ("cd", &[(1, true)]), ("\n", &[])]);
    }

    #[test]
    fn nested_spans_nest_outermost_first() {
        // A word run inside a repeated line, and one starting at the same byte.
        let s = [span(0, 9, SpanKind::RepeatedLine), span(0, 2, SpanKind::WordRun), span(3, 5, SpanKind::WordRun)];
        check(
            "aa bb cc.",
            &s,
            &[
                ("aa", &[(0, true), (1, true)]),
                (" ", &[(0, false)]),
                ("bb", &[(0, false), (2, true)]),
                (" cc.", &[(0, false)]),
            ],
        );
    }

    #[test]
    fn crossing_spans_are_split_and_marked_once() {
        // A word run that crosses the end of a repeated line into the next text.
        let s = [span(0, 5, SpanKind::RepeatedLine), span(3, 9, SpanKind::WordRun)];
        check("abcde\nfgh", &s, &[("abc", &[(0, true)]), ("de", &[(0, false), (1, true)]), ("\nfgh", &[(1, false)])]);
    }

    #[test]
    fn multibyte_text_is_cut_on_char_boundaries_only() {
        // "é" is 2 bytes: a boundary at byte 1 would split it and is dropped.
        let s = [span(0, 1, SpanKind::WordRun), span(3, 5, SpanKind::RepeatedLine)];
        let segs = segments("é ab", &s);
        let joined: String = segs.iter().map(|g| &"é ab"[g.start..g.end]).collect();
        assert_eq!(joined, "é ab");
        assert!(segs.iter().all(|g| g.start < g.end));
    }

    #[test]
    fn out_of_range_and_empty_spans_do_not_break_the_cover() {
        let s = [span(2, 2, SpanKind::WordRun), span(1, 99, SpanKind::RepeatedLine)];
        let segs = segments("abc", &s);
        assert_eq!(segs.first().map(|g| g.start), Some(0));
        assert_eq!(segs.last().map(|g| g.end), Some(3));
        assert!(segs.windows(2).all(|w| w[0].end == w[1].start));
    }
}
