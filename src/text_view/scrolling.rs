//! The scroll geometry of the view: what the view measured (columns, row height, the tallest
//! its box may be) and the box it makes for a text, which rows are on screen (and rendered) at
//! a scroll position, the scroll position that centres a row, and the minimap's thumb. A text
//! taller than browsers can scroll goes through a scaled mapping.

/// A scroll height browsers handle everywhere; taller texts scroll through a scaled mapping.
pub const MAX_SCROLL_PX: f64 = 8_000_000.0;
/// Rows rendered above and below the visible ones.
pub const OVERSCAN: usize = 6;
/// Space above and below the rows inside the box, in px.
pub const PAD: f64 = 6.0;

/// What the view measured: columns that fit, the row height and the visible height, in px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    pub cols: usize,
    pub row_h: f64,
    /// The tallest the box may be (70 % of the browser window, at most 640 px).
    pub max_h: f64,
}

impl Measure {
    /// What the view assumes until it has measured itself.
    pub const GUESS: Measure = Measure { cols: 100, row_h: 22.0, max_h: 600.0 };

    /// The measure from a probe of ten characters `char_w` wide each and `row_h` tall, in a
    /// box `box_w` px wide inside a browser window `window_h` px tall; `None` while the probe
    /// has no size (not laid out yet).
    pub fn from_probe(char_w: f64, row_h: f64, box_w: f64, window_h: f64) -> Option<Measure> {
        if !(char_w > 0.0 && row_h > 0.0) {
            return None;
        }
        let usable = (box_w - 28.0).max(char_w * 8.0);
        let cols = ((usable / char_w).floor() as usize).clamp(8, 2000);
        Some(Measure { cols, row_h, max_h: (window_h * 0.7).clamp(160.0, 640.0) })
    }

    /// The height of the box for `rows` rows: as tall as the text, up to `max_h` (the rows
    /// scroll inside it; its 1 px borders come on top), with its scroll geometry.
    pub fn fit(&self, rows: usize) -> (f64, Geometry) {
        let box_h = self.max_h.min(rows as f64 * self.row_h + 2.0 * PAD).max(self.row_h + 2.0 * PAD);
        (box_h, Geometry { rows, row_h: self.row_h, view_h: box_h - 2.0 * PAD })
    }
}

/// The scroll geometry: `rows` rows of `row_h` px in a view `view_h` px tall; their
/// [`total`](Self::total) height scrolls in [`extent`](Self::extent) px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    pub rows: usize,
    pub row_h: f64,
    pub view_h: f64,
}

/// The rows to render and where their block starts, in scroll-content pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VisibleRows {
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
    pub fn visible_rows(&self, scroll_top: f64) -> VisibleRows {
        let row_h = self.row_h();
        let max_top = (self.extent() - self.view_h()).max(0.0);
        let top = if scroll_top.is_finite() { scroll_top.clamp(0.0, max_top) } else { 0.0 };
        let v = top * self.scale();
        let first_visible = ((v / row_h).floor() as usize).min(self.rows.saturating_sub(1));
        let end_visible = (((v + self.view_h()) / row_h).ceil() as usize).clamp(first_visible + 1, self.rows.max(1));
        let first = first_visible.saturating_sub(OVERSCAN);
        let end = (end_visible + OVERSCAN).min(self.rows);
        let top_px = (top - (v - first as f64 * row_h)).max(0.0);
        VisibleRows { first, end: end.max(first), top_px, first_visible, end_visible: end_visible.min(self.rows) }
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
        let w = self.visible_rows(scroll_top);
        let rows = self.rows as f64;
        let top = w.first_visible as f64 / rows;
        let height = ((self.view_h() / self.row_h()) / rows).min(1.0);
        (top.min(1.0 - height), height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_fits_the_text_up_to_the_measured_height() {
        let m = Measure::from_probe(8.0, 20.0, 828.0, 1000.0).expect("a measure");
        assert_eq!(m, Measure { cols: 100, row_h: 20.0, max_h: 640.0 });
        assert_eq!(Measure::from_probe(8.0, 20.0, 0.0, 100.0), Some(Measure { cols: 8, row_h: 20.0, max_h: 160.0 }));
        assert_eq!(Measure::from_probe(0.0, 20.0, 800.0, 900.0), None, "not laid out yet");
        assert_eq!(m.fit(3), (72.0, Geometry { rows: 3, row_h: 20.0, view_h: 60.0 }));
        assert_eq!(m.fit(0).0, 32.0, "one row at least");
        assert_eq!(m.fit(1000), (640.0, Geometry { rows: 1000, row_h: 20.0, view_h: 628.0 }));
    }

    #[test]
    fn the_rows_rendered_are_the_visible_ones_and_overscan() {
        let g = Geometry { rows: 1000, row_h: 20.0, view_h: 400.0 };
        assert_eq!(g.extent(), 20_000.0);
        let w = g.visible_rows(0.0);
        assert_eq!((w.first, w.first_visible, w.end_visible, w.end, w.top_px), (0, 0, 20, 26, 0.0));
        let w = g.visible_rows(2010.0);
        assert_eq!((w.first, w.first_visible, w.end_visible, w.end), (94, 100, 121, 127));
        assert_eq!(w.top_px, 94.0 * 20.0);
        let w = g.visible_rows(1e12);
        assert_eq!((w.end_visible, w.end), (1000, 1000));
        assert_eq!(g.visible_rows(f64::NAN).first, 0);
        // Centering puts the row in the middle of the view.
        let top = g.scroll_top_centering(500);
        let w = g.visible_rows(top);
        assert!(w.first_visible < 500 && 500 < w.end_visible);
    }

    #[test]
    fn tall_texts_scroll_through_a_scaled_mapping() {
        let g = Geometry { rows: 2_000_000, row_h: 20.0, view_h: 600.0 };
        assert_eq!(g.extent(), MAX_SCROLL_PX);
        let w = g.visible_rows(MAX_SCROLL_PX);
        assert_eq!(w.end, 2_000_000);
        // The last row ends exactly at the bottom of the scroll extent.
        let bottom = w.top_px + (w.end - w.first) as f64 * 20.0;
        assert!((bottom - MAX_SCROLL_PX).abs() < 1e-3, "{bottom}");
        // Every row can be brought into view.
        for r in [0, 1, 999_999, 1_999_999] {
            let w = g.visible_rows(g.scroll_top_centering(r));
            assert!(w.first_visible <= r && r < w.end_visible, "row {r}: {w:?}");
            // …and rendered where the view shows it.
            let y = w.top_px + (r - w.first) as f64 * 20.0;
            let top = g.scroll_top_centering(r);
            assert!(y >= top - 20.0 && y <= top + 600.0, "row {r} at {y}, view at {top}");
        }
        let (t, h) = g.thumb(MAX_SCROLL_PX);
        assert!(t + h <= 1.0 + 1e-9 && h > 0.0);
    }
}
