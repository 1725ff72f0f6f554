//! The text cut into rows of a known width, in one pass over its bytes.
//!
//! The text is cut at every newline and, inside a line, before the character that would pass
//! `cols` columns (East Asian wide characters count two, combining marks none, a tab up to the
//! next multiple of [`TAB`]); a row wraps after its last space when that leaves it at least half
//! full. The view renders each row with `white-space: pre` at a fixed height, so a row is
//! exactly one visual line and row `r` sits at `r × row height`: a single 50 MB line is as cheap
//! to scroll as a short text. Rows are found by binary search.

/// Columns of a tab stop (the view sets `tab-size` to the same).
pub const TAB: usize = 4;

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

/// Bytes laid out by one call of [`Cutter::cut`]. V8 runs a wasm function's first calls in
/// baseline code and cannot move a call under way to the optimized code (no on-stack
/// replacement), so one call over a 50 MB text ran all of it in baseline code (80 ms in
/// Chromium, 2026-12-08); cut in pieces, the later pieces run optimized. (`scripts/build-page`
/// keeps `wasm-opt` from inlining `Cutter::cut` into its one caller.)
const PIECE: usize = 64 << 10;

impl Layout {
    /// Cuts `text` into rows of at most `cols` columns (at least 8), one pass over its bytes.
    pub fn new(text: &str, cols: usize) -> Layout {
        Layout::in_pieces(text, cols, PIECE)
    }

    fn in_pieces(text: &str, cols: usize, piece: usize) -> Layout {
        let mut rows = Cutter::new(text, cols);
        let mut i = 0;
        while i < text.len() {
            i = rows.cut(i, (i + piece).min(text.len()));
        }
        rows.finish()
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

/// The rows being cut: where they start, and the row being filled.
struct Cutter<'t> {
    text: &'t str,
    cols: usize,
    /// A row never holds more characters than this, even of zero-width ones.
    max_chars: usize,
    starts: Vec<usize>,
    /// Columns and characters in the row so far.
    col: usize,
    chars: usize,
    /// Just after the row's last space or tab: (byte, columns and characters before it).
    soft: Option<(usize, usize, usize)>,
}

impl<'t> Cutter<'t> {
    fn new(text: &'t str, cols: usize) -> Cutter<'t> {
        let cols = cols.max(8);
        let mut starts = Vec::with_capacity(text.len() / cols + 1);
        starts.push(0);
        Cutter { text, cols, max_chars: cols * 2, starts, col: 0, chars: 0, soft: None }
    }

    /// Lays out the characters from byte `i` until byte `to` is reached (the last may end past
    /// it); returns the byte after the last.
    #[inline(never)]
    fn cut(&mut self, mut i: usize, to: usize) -> usize {
        let bytes = self.text.as_bytes();
        while i < to {
            // Fast path: a run of printable ASCII that fits in the row, one column each.
            let room = (self.cols.saturating_sub(self.col)).min(self.max_chars.saturating_sub(self.chars));
            let end = (i + room).min(to);
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
                let (col0, chars0) = (self.col, self.chars);
                self.col += j - from;
                self.chars += j - from;
                if let Some(at) = space {
                    let n = at + 1 - from;
                    self.soft = Some((at + 1, col0 + n, chars0 + n));
                }
                i = j;
                if i >= to {
                    break;
                }
            }
            i = self.step(i);
        }
        i
    }

    /// Lays out the character at byte `i`, starting a row before it if it does not fit;
    /// returns the byte after it.
    #[inline]
    fn step(&mut self, mut i: usize) -> usize {
        let bytes = self.text.as_bytes();
        let b = bytes[i];
        let (width, step) = if b < 0x80 {
            match b {
                b'\n' => {
                    i += 1;
                    if i < bytes.len() {
                        self.starts.push(i);
                    }
                    self.col = 0;
                    self.chars = 0;
                    self.soft = None;
                    return i;
                }
                b'\t' => (TAB - self.col % TAB, 1),
                b'\r' => (0, 1),
                _ => (1, 1),
            }
        } else {
            let c = self.text[i..].chars().next().unwrap_or(' ');
            (char_cols(c), c.len_utf8())
        };
        if self.chars > 0 && (self.col + width > self.cols || self.chars >= self.max_chars) {
            match self.soft.filter(|&(_, c, _)| c * 2 >= self.cols) {
                // Wrap after the last space when it leaves the row at least half full…
                Some((at, c, n)) => {
                    self.starts.push(at);
                    self.col -= c;
                    self.chars -= n;
                }
                // …else cut the word (a long word, CJK text, a line without spaces).
                None => {
                    self.starts.push(i);
                    self.col = 0;
                    self.chars = 0;
                }
            }
            self.soft = None;
        }
        self.col += if b == b'\t' { TAB - self.col % TAB } else { width };
        self.chars += 1;
        i += step;
        if b == b' ' || b == b'\t' {
            self.soft = Some((i, self.col, self.chars));
        }
        i
    }

    fn finish(self) -> Layout {
        Layout { starts: self.starts, len: self.text.len(), cols: self.cols }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout character by character, without the fast path: the oracle.
    fn naive_layout(text: &str, cols: usize) -> Layout {
        let mut rows = Cutter::new(text, cols);
        let mut i = 0;
        while i < text.len() {
            i = rows.step(i);
        }
        rows.finish()
    }

    #[test]
    fn the_fast_layout_equals_the_character_by_character_one() {
        let parts = ["word ", "longerword", " ", "\t", "\n", "好的，", "e\u{301}", "😂", "  ", "x", "\r\n", "-----"];
        let mut x: u64 = 1;
        for round in 0..300 {
            let mut text = String::new();
            for _ in 0..(round % 60 + 1) * 8 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(parts[(x >> 33) as usize % parts.len()]);
            }
            for cols in [8, 13, 40, 100] {
                let slow = naive_layout(&text, cols);
                assert_eq!(Layout::new(&text, cols).starts, slow.starts, "{text:?} at {cols} columns");
                // Laid out in pieces of any size (a piece may end inside a character or a run).
                for piece in [1, 3, 7, 64] {
                    let fast = Layout::in_pieces(&text, cols, piece);
                    assert_eq!(fast.starts, slow.starts, "{text:?} at {cols} columns, pieces of {piece}");
                }
            }
        }
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
}
