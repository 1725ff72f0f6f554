//! The pure logic of the virtualised text view: the text cut into rows of a known width, the
//! window of rows on screen for a scroll position, the highlighted pieces of those rows (loop
//! copies banded), the minimap's marks and span-to-span navigation. No browser imports: the
//! component (`components/highlighted_text.rs`) measures and renders, this module computes, and
//! is unit-tested natively.
//!
//! Rows: the text is cut at every newline and, inside a line, before the character that would
//! pass `cols` columns (East Asian wide characters count two, combining marks none, a tab up to
//! the next multiple of [`TAB`]). The view renders each row with `white-space: pre` at a fixed
//! height, so a row is exactly one visual line and row `r` sits at `r × row height`: a single
//! 50 MB line is as cheap to scroll as a short text. Work per frame is the visible rows only:
//! rows, segments and spans are found by binary search.

use crate::model::Segment;
use coherency_core::analyze::text_units::ceil_boundary;
use coherency_core::analyze::{Span, SpanKind, Verdict};

/// Columns of a tab stop (the view sets `tab-size` to the same).
pub const TAB: usize = 4;
/// A scroll height browsers handle everywhere; taller texts scroll through a scaled mapping.
pub const MAX_SCROLL_PX: f64 = 8_000_000.0;
/// Rows rendered above and below the visible ones.
pub const OVERSCAN: usize = 6;
/// Loop copies shorter than this (in bytes) are banded in groups of copies at least this long.
pub const MIN_BAND_BYTES: usize = 4;

/// The rows of a text: where each starts, in bytes, for a given width in columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    starts: Vec<usize>,
    len: usize,
    pub cols: usize,
}

/// How many columns `c` takes in a monospace view (tabs are handled by the caller).
pub fn char_cols(c: char) -> usize {
    let u = c as u32;
    match u {
        0x0300..=0x036F | 0x200B..=0x200F | 0x20D0..=0x20FF | 0xFE00..=0xFE0F | 0x0D => 0,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD => 2,
        _ => 1,
    }
}

impl Layout {
    /// Cuts `text` into rows of at most `cols` columns (at least 8), one pass over its bytes.
    pub fn new(text: &str, cols: usize) -> Layout {
        let cols = cols.max(8);
        // A row never holds more characters than this, even of zero-width ones.
        let max_chars = cols * 2;
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(text.len() / cols + 1);
        starts.push(0);
        let (mut col, mut chars, mut i) = (0usize, 0usize, 0usize);
        // Just after the row's last space or tab: (byte, columns and characters before it).
        let mut soft: Option<(usize, usize, usize)> = None;
        while i < bytes.len() {
            // Fast path: a run of printable ASCII that fits in the row, one column each.
            let room = (cols.saturating_sub(col)).min(max_chars.saturating_sub(chars));
            let end = (i + room).min(bytes.len());
            let (from, mut j, mut space) = (i, i, None);
            while j < end {
                let b = bytes[j];
                if !(0x20..0x7f).contains(&b) {
                    break;
                }
                if b == b' ' {
                    space = Some(j);
                }
                j += 1;
            }
            if j > from {
                let (col0, chars0) = (col, chars);
                col += j - from;
                chars += j - from;
                if let Some(at) = space {
                    let n = at + 1 - from;
                    soft = Some((at + 1, col0 + n, chars0 + n));
                }
                i = j;
                if i >= bytes.len() {
                    break;
                }
            }
            let b = bytes[i];
            let (width, step) = if b < 0x80 {
                match b {
                    b'\n' => {
                        i += 1;
                        if i < bytes.len() {
                            starts.push(i);
                        }
                        col = 0;
                        chars = 0;
                        soft = None;
                        continue;
                    }
                    b'\t' => (TAB - col % TAB, 1),
                    b'\r' => (0, 1),
                    _ => (1, 1),
                }
            } else {
                let c = text[i..].chars().next().unwrap_or(' ');
                (char_cols(c), c.len_utf8())
            };
            if chars > 0 && (col + width > cols || chars >= max_chars) {
                match soft.filter(|&(_, c, _)| c * 2 >= cols) {
                    // Wrap after the last space when it leaves the row at least half full…
                    Some((at, c, n)) => {
                        starts.push(at);
                        col -= c;
                        chars -= n;
                    }
                    // …else cut the word (a long word, CJK text, a line without spaces).
                    None => {
                        starts.push(i);
                        col = 0;
                        chars = 0;
                    }
                }
                soft = None;
            }
            col += if b == b'\t' { TAB - col % TAB } else { width };
            chars += 1;
            i += step;
            if b == b' ' || b == b'\t' {
                soft = Some((i, col, chars));
            }
        }
        Layout { starts, len: text.len(), cols }
    }

    pub fn rows(&self) -> usize {
        self.starts.len()
    }

    /// Byte range of row `r` (empty past the end).
    pub fn row_range(&self, r: usize) -> (usize, usize) {
        match self.starts.get(r) {
            Some(&s) => (s, self.starts.get(r + 1).copied().unwrap_or(self.len)),
            None => (self.len, self.len),
        }
    }

    /// The row holding byte `b` (the last row for `b` at or past the end).
    pub fn row_of(&self, b: usize) -> usize {
        self.starts.partition_point(|&s| s <= b).saturating_sub(1)
    }
}

/// The scroll geometry: `total` px of rows shown in `extent` px of scroll height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    pub rows: usize,
    pub row_h: f64,
    pub view_h: f64,
}

/// The rows to render and where their block starts, in scroll-content pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub first: usize,
    /// One past the last row rendered.
    pub end: usize,
    pub top_px: f64,
    /// The first row at least partly visible (without overscan).
    pub first_visible: usize,
    /// One past the last row at least partly visible.
    pub end_visible: usize,
}

impl Geometry {
    fn row_h(&self) -> f64 {
        if self.row_h.is_finite() && self.row_h > 0.0 {
            self.row_h
        } else {
            20.0
        }
    }

    fn view_h(&self) -> f64 {
        if self.view_h.is_finite() && self.view_h > 0.0 {
            self.view_h
        } else {
            0.0
        }
    }

    /// Height of all rows laid out at their natural height.
    pub fn total(&self) -> f64 {
        self.rows as f64 * self.row_h()
    }

    /// The scroll height the view gets (the total, capped at [`MAX_SCROLL_PX`]).
    pub fn extent(&self) -> f64 {
        self.total().min(MAX_SCROLL_PX)
    }

    /// Content pixels per scroll pixel (1 unless the text is taller than the cap).
    fn scale(&self) -> f64 {
        let (total, extent, view) = (self.total(), self.extent(), self.view_h());
        if total <= extent || extent <= view {
            1.0
        } else {
            (total - view) / (extent - view)
        }
    }

    /// The rows on screen (plus [`OVERSCAN`] each side) at scroll position `scroll_top`.
    pub fn window(&self, scroll_top: f64) -> Window {
        let row_h = self.row_h();
        let max_top = (self.extent() - self.view_h()).max(0.0);
        let top = if scroll_top.is_finite() { scroll_top.clamp(0.0, max_top) } else { 0.0 };
        let v = top * self.scale();
        let first_visible = ((v / row_h).floor() as usize).min(self.rows.saturating_sub(1));
        let end_visible = (((v + self.view_h()) / row_h).ceil() as usize).clamp(first_visible + 1, self.rows.max(1));
        let first = first_visible.saturating_sub(OVERSCAN);
        let end = (end_visible + OVERSCAN).min(self.rows);
        let top_px = (top - (v - first as f64 * row_h)).max(0.0);
        Window { first, end: end.max(first), top_px, first_visible, end_visible: end_visible.min(self.rows) }
    }

    /// The scroll position that puts row `r` in the middle of the view.
    pub fn scroll_top_centering(&self, r: usize) -> f64 {
        let row_h = self.row_h();
        let v = (r as f64 * row_h + row_h / 2.0 - self.view_h() / 2.0).max(0.0);
        (v / self.scale()).clamp(0.0, (self.extent() - self.view_h()).max(0.0))
    }

    /// The scroll position whose view starts at `fraction` (0..=1) of the text's rows.
    pub fn scroll_top_at(&self, fraction: f64) -> f64 {
        let r = (fraction.clamp(0.0, 1.0) * self.rows as f64) as usize;
        self.scroll_top_centering(r)
    }

    /// The visible share of the rows as `(top, height)` fractions, for the minimap's thumb.
    pub fn thumb(&self, scroll_top: f64) -> (f64, f64) {
        if self.rows == 0 {
            return (0.0, 1.0);
        }
        let w = self.window(scroll_top);
        let rows = self.rows as f64;
        let top = w.first_visible as f64 / rows;
        let height = ((self.view_h() / self.row_h()) / rows).min(1.0);
        (top.min(1.0 - height), height)
    }
}

/// One span covering a piece of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceLayer {
    /// Index into the report's spans.
    pub span: usize,
    /// The piece starts the span: it carries the span's `id` and class `span`.
    pub first: bool,
    /// Loops: the band of copies this piece is in (band `k` holds copies `k × per_band` on).
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

/// A piece of a row: text between two boundaries of spans, loop copies, rows or markers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub start: usize,
    pub end: usize,
    /// Outermost first.
    pub layers: Vec<PieceLayer>,
    /// A marker (the onset, a copy's source) goes just before this piece: its index in the
    /// `markers` given to [`pieces`].
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

/// The smallest char boundary of `text` at or after `b`.
/// The highlighted pieces of bytes `from..to` of `text` (a row), from the segments of its spans
/// (found by binary search), cut at loop-copy bands and at `markers` (sorted byte positions such
/// as the onset).
pub fn pieces(
    text: &str,
    segments: &[Segment],
    spans: &[Span],
    from: usize,
    to: usize,
    markers: &[usize],
) -> Vec<Piece> {
    let to = to.min(text.len());
    let mut out = Vec::new();
    if from >= to {
        if let Some(m) = markers.iter().position(|&m| m == from).filter(|_| from < text.len()) {
            out.push(Piece { start: from, end: from, layers: Vec::new(), marker: Some(m) });
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
                    Some(PieceLayer { span: l.span, first: span.start == s, band })
                })
                .collect();
            out.push(Piece { start: s, end: e, layers, marker: markers.iter().position(|&m| m == s) });
        }
    }
    out
}

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

    /// The layout byte by byte, as before the fast path: the oracle.
    fn naive_layout(text: &str, cols: usize) -> Layout {
        let cols = cols.max(8);
        // A row never holds more characters than this, even of zero-width ones.
        let max_chars = cols * 2;
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(text.len() / cols + 1);
        starts.push(0);
        let (mut col, mut chars, mut i) = (0usize, 0usize, 0usize);
        // Just after the row's last space or tab: (byte, columns and characters before it).
        let mut soft: Option<(usize, usize, usize)> = None;
        while i < bytes.len() {
            let b = bytes[i];
            let (width, step) = if b < 0x80 {
                match b {
                    b'\n' => {
                        i += 1;
                        if i < bytes.len() {
                            starts.push(i);
                        }
                        col = 0;
                        chars = 0;
                        soft = None;
                        continue;
                    }
                    b'\t' => (TAB - col % TAB, 1),
                    b'\r' => (0, 1),
                    _ => (1, 1),
                }
            } else {
                let c = text[i..].chars().next().unwrap_or(' ');
                (char_cols(c), c.len_utf8())
            };
            if chars > 0 && (col + width > cols || chars >= max_chars) {
                match soft.filter(|&(_, c, _)| c * 2 >= cols) {
                    // Wrap after the last space when it leaves the row at least half full…
                    Some((at, c, n)) => {
                        starts.push(at);
                        col -= c;
                        chars -= n;
                    }
                    // …else cut the word (a long word, CJK text, a line without spaces).
                    None => {
                        starts.push(i);
                        col = 0;
                        chars = 0;
                    }
                }
                soft = None;
            }
            col += if b == b'\t' { TAB - col % TAB } else { width };
            chars += 1;
            i += step;
            if b == b' ' || b == b'\t' {
                soft = Some((i, col, chars));
            }
        }
        Layout { starts, len: text.len(), cols }
    }

    #[test]
    fn the_fast_layout_equals_the_byte_by_byte_one() {
        let pieces = ["word ", "longerword", " ", "\t", "\n", "好的，", "e\u{301}", "😂", "  ", "x", "\r\n", "-----"];
        let mut x: u64 = 1;
        for round in 0..300 {
            let mut text = String::new();
            for _ in 0..(round % 60 + 1) * 8 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(pieces[(x >> 33) as usize % pieces.len()]);
            }
            for cols in [8, 13, 40, 100] {
                let (fast, slow) = (Layout::new(&text, cols), naive_layout(&text, cols));
                assert_eq!(fast.starts, slow.starts, "{text:?} at {cols} columns");
            }
        }
    }
    use crate::model::segments;

    fn span(start: usize, end: usize, kind: SpanKind, level: Verdict) -> Span {
        Span { start, end, kind, count: 3, level, period: None, source: None }
    }

    fn rows_of<'a>(text: &'a str, l: &Layout) -> Vec<&'a str> {
        (0..l.rows()).map(|r| l.row_range(r)).map(|(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn rows_cut_at_newlines_and_width() {
        let text = "abcdefghij\nxy\n\nlast";
        let l = Layout::new(text, 8);
        assert_eq!(rows_of(text, &l), ["abcdefgh", "ij\n", "xy\n", "\n", "last"]);
        assert_eq!(l.row_of(0), 0);
        assert_eq!(l.row_of(9), 1);
        assert_eq!(l.row_of(text.len()), 4);
        assert_eq!(l.row_range(99), (text.len(), text.len()));
    }

    #[test]
    fn rows_wrap_after_spaces_unless_that_leaves_them_half_empty() {
        let text = "aaa bbb ccc ddd";
        assert_eq!(rows_of(text, &Layout::new(text, 8)), ["aaa bbb ", "ccc ddd"]);
        let text = "a bcdefghijklm";
        assert_eq!(rows_of(text, &Layout::new(text, 8)), ["a bcdefg", "hijklm"]);
    }

    #[test]
    fn rows_cover_the_text_on_char_boundaries() {
        for text in
            ["", "\n", "a\n", "é".repeat(50).as_str(), "我需要再检查一下这个文件。".repeat(9).as_str(), "\t\tx\r\n"]
        {
            let l = Layout::new(text, 10);
            assert!(l.rows() >= 1);
            let joined: String = rows_of(text, &l).concat();
            assert_eq!(joined, text);
        }
        // Wide characters take two columns: 5 per 10-column row.
        let cjk = "我需要再检查一下这个文件。";
        let l = Layout::new(cjk, 10);
        assert_eq!(rows_of(cjk, &l)[0], "我需要再检");
        // Zero-width characters cannot make a row unbounded.
        let marks = "a".to_string() + &"\u{0301}".repeat(1000);
        let l = Layout::new(&marks, 10);
        assert!(rows_of(&marks, &l).iter().all(|r| r.chars().count() <= 20));
    }

    #[test]
    fn a_fifty_megabyte_line_is_laid_out_in_fixed_rows() {
        let text = "Let me check the file again. ".repeat(50_000_000 / 29);
        let l = Layout::new(&text, 100);
        // Rows wrap after a space, at most 100 columns each.
        assert!(l.rows() >= text.len().div_ceil(100) && l.rows() <= text.len().div_ceil(90));
        let (a, b) = l.row_range(l.rows() / 2);
        assert!(b - a <= 100 && text[a..b].ends_with(' '));
        assert_eq!(l.row_of(text.len() - 1), l.rows() - 1);
    }

    #[test]
    fn the_window_is_the_visible_rows_and_overscan() {
        let g = Geometry { rows: 1000, row_h: 20.0, view_h: 400.0 };
        assert_eq!(g.extent(), 20_000.0);
        let w = g.window(0.0);
        assert_eq!((w.first, w.first_visible, w.end_visible, w.end, w.top_px), (0, 0, 20, 26, 0.0));
        let w = g.window(2010.0);
        assert_eq!((w.first, w.first_visible, w.end_visible, w.end), (94, 100, 121, 127));
        assert_eq!(w.top_px, 94.0 * 20.0);
        let w = g.window(1e12);
        assert_eq!((w.end_visible, w.end), (1000, 1000));
        assert_eq!(g.window(f64::NAN).first, 0);
        // Centering puts the row in the middle of the window.
        let top = g.scroll_top_centering(500);
        let w = g.window(top);
        assert!(w.first_visible < 500 && 500 < w.end_visible);
    }

    #[test]
    fn tall_texts_scroll_through_a_scaled_mapping() {
        let g = Geometry { rows: 2_000_000, row_h: 20.0, view_h: 600.0 };
        assert_eq!(g.extent(), MAX_SCROLL_PX);
        let w = g.window(MAX_SCROLL_PX);
        assert_eq!(w.end, 2_000_000);
        // The last row ends exactly at the bottom of the scroll extent.
        let bottom = w.top_px + (w.end - w.first) as f64 * 20.0;
        assert!((bottom - MAX_SCROLL_PX).abs() < 1e-3, "{bottom}");
        // Every row can be brought into view.
        for r in [0, 1, 999_999, 1_999_999] {
            let w = g.window(g.scroll_top_centering(r));
            assert!(w.first_visible <= r && r < w.end_visible, "row {r}: {w:?}");
            // …and rendered where the view shows it.
            let y = w.top_px + (r - w.first) as f64 * 20.0;
            let top = g.scroll_top_centering(r);
            assert!(y >= top - 20.0 && y <= top + 600.0, "row {r} at {y}, view at {top}");
        }
        let (t, h) = g.thumb(MAX_SCROLL_PX);
        assert!(t + h <= 1.0 + 1e-9 && h > 0.0);
    }

    #[test]
    fn loop_copies_are_banded_by_period() {
        let unit = "Let me check. ";
        let text = format!("Intro. {}", unit.repeat(5));
        let mut s = span(7, text.len(), SpanKind::Loop, Verdict::Fail);
        s.period = Some(unit.len());
        s.count = 5;
        let spans = [s];
        let segs = segments(&text, &spans);
        let ps = pieces(&text, &segs, &spans, 0, text.len(), &[7]);
        let texts: Vec<&str> = ps.iter().map(|p| &text[p.start..p.end]).collect();
        assert_eq!(texts, ["Intro. ", unit, unit, unit, unit, unit]);
        let bands: Vec<Option<usize>> =
            ps.iter().map(|p| p.layers.first().and_then(|l| l.band).map(|b| b.index)).collect();
        assert_eq!(bands, [None, Some(0), Some(1), Some(2), Some(3), Some(4)]);
        assert!(ps[1].marker == Some(0) && ps[1].layers[0].first);
        assert!(ps.iter().skip(2).all(|p| !p.layers[0].first && p.marker.is_none()));
        assert_eq!(ps[3].layers[0].band.map(|b| b.describe(5)), Some("copy 3 of 5".to_string()));
        // A row cut in the middle of a copy keeps the band of where it is.
        let ps = pieces(&text, &segs, &spans, 10, 30, &[]);
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
        let ps = pieces(&text, &segs, &spans, 0, text.len(), &[]);
        assert_eq!(ps.len(), 1 + 5, "bands of 4 copies");
        assert_eq!(ps[2].layers[0].band.map(|b| b.describe(20)), Some("copies 5–8 of 20".to_string()));

        let unit = "我需要再检查一下这个文件。";
        let text = format!("前言。{}", unit.repeat(3));
        let mut s = span(9, text.len(), SpanKind::Loop, Verdict::Fail);
        s.period = Some(unit.len() + 1); // an approximate period off the char grid
        let spans = [s];
        let segs = segments(&text, &spans);
        let ps = pieces(&text, &segs, &spans, 0, text.len(), &[]);
        assert!(ps.iter().all(|p| text.is_char_boundary(p.start) && text.is_char_boundary(p.end)));
        assert_eq!(ps.iter().map(|p| &text[p.start..p.end]).collect::<String>(), text);
    }

    #[test]
    fn pieces_find_their_segments_by_binary_search_in_huge_span_lists() {
        let text = "word ".repeat(200_000);
        let spans: Vec<Span> = (0..200_000).map(|i| span(i * 5, i * 5 + 4, SpanKind::WordRun, Verdict::Warn)).collect();
        let segs = segments(&text, &spans);
        let ps = pieces(&text, &segs, &spans, 500_002, 500_012, &[]);
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
        let ps = pieces(text, &segments(text, &[]), &[], 0, 6, &[3, 5]);
        assert_eq!(ps.iter().map(|p| (p.start, p.marker)).collect::<Vec<_>>(), [(0, None), (3, Some(0)), (5, Some(1))]);
        assert_eq!(pieces(text, &segments(text, &[]), &[], 6, 6, &[6]), []);
        assert!(pieces(text, &segments(text, &[]), &[], 2, 2, &[]).is_empty());
    }

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
    }

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
}
