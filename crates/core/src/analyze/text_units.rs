//! Python-compatible text units: the words of `str.split()` and the lines of `str.splitlines()`.
//!
//! The seed heuristics were defined in Python, so "word" and "line" mean exactly what Python
//! means by them: a word is a maximal run of non-whitespace characters, where whitespace is
//! `str.isspace()`; a line ends at any of `str.splitlines()`'s break characters. Both classes
//! are tested against every Unicode scalar value (see the tests below and
//! `tests/python_reference.rs`).
//!
//! The scanners work on bytes: every character outside ASCII that matters starts with the lead
//! byte 0xC2, 0xE1, 0xE2 or 0xE3, and a UTF-8 continuation byte can never be mistaken for one.

use std::ops::Range;

/// `char::is_whitespace` as Python's `str.isspace()` sees it (adds U+001C..U+001F).
pub fn is_py_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\x1c'..='\x1f'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// The characters at which Python's `str.splitlines()` ends a line.
pub fn is_py_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Byte length of the whitespace character starting at `i`, or 0 if there is none.
#[inline(always)]
fn whitespace_len_at(b: &[u8], i: usize) -> usize {
    match b[i] {
        b'\t'..=b'\r' | 0x1c..=0x1f | b' ' => 1,
        0xC2 => matches!(b.get(i + 1), Some(0x85 | 0xA0)) as usize * 2,
        0xE1 => (b.get(i + 1) == Some(&0x9A) && b.get(i + 2) == Some(&0x80)) as usize * 3,
        0xE2 => match (b.get(i + 1), b.get(i + 2)) {
            (Some(0x80), Some(0x80..=0x8A | 0xA8 | 0xA9 | 0xAF)) | (Some(0x81), Some(0x9F)) => 3,
            _ => 0,
        },
        0xE3 => (b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0x80)) as usize * 3,
        _ => 0,
    }
}

/// Byte length of the line-break character starting at `i`, or 0 if there is none.
#[inline(always)]
fn line_break_len_at(b: &[u8], i: usize) -> usize {
    match b[i] {
        b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1e => 1,
        0xC2 => (b.get(i + 1) == Some(&0x85)) as usize * 2,
        0xE2 => (b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9))) as usize * 3,
        _ => 0,
    }
}

/// Byte ranges of the words of `text[range]`, as `str.split()` would cut them.
/// `range` must start and end on character boundaries.
pub fn words(text: &str, range: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let b = text.as_bytes();
    let end = range.end;
    let mut i = range.start;
    std::iter::from_fn(move || {
        // Skip whitespace.
        while i < end {
            let n = whitespace_len_at(b, i);
            if n == 0 {
                break;
            }
            i += n;
        }
        if i >= end {
            return None;
        }
        let start = i;
        while i < end && whitespace_len_at(b, i) == 0 {
            i += 1;
        }
        Some(start..i)
    })
}

/// Byte ranges of the lines of `text[range]` (break characters excluded), as
/// `str.splitlines()` would cut them, except that "\r\n" yields an extra empty line, which
/// no caller counts. A final line without a break is included.
pub fn lines(text: &str, range: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let b = text.as_bytes();
    let end = range.end;
    let mut i = range.start;
    let mut done = range.start >= end;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let start = i;
        while i < end {
            let n = line_break_len_at(b, i);
            if n > 0 {
                let line = start..i;
                i += n;
                if i >= end {
                    done = true;
                }
                return Some(line);
            }
            i += 1;
        }
        done = true;
        Some(start..end)
    })
}

/// The largest character boundary of `text` at or below `i` (its length when `i` is past it).
pub fn floor_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `text` at or above `i` (its length when `i` is past it).
pub fn ceil_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// `range` with Python-whitespace removed from both ends (as `str.strip()`).
pub fn trim(text: &str, range: Range<usize>) -> Range<usize> {
    let s = &text[range.clone()];
    let t = s.trim_matches(is_py_whitespace);
    if t.is_empty() {
        return range.start..range.start;
    }
    let start = range.start + (t.as_ptr() as usize - s.as_ptr() as usize);
    start..start + t.len()
}

/// Byte offset just past the last character of `text[range]` for which `is_break` holds
/// (`None` when there is none). Used to find how far a chunk's complete units reach.
pub fn end_of_last(text: &str, range: Range<usize>, is_break: fn(char) -> bool) -> Option<usize> {
    text[range.clone()].char_indices().rev().find(|&(_, c)| is_break(c)).map(|(i, c)| range.start + i + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_round_to_characters_and_clamp_to_the_text() {
        let t = "a模b"; // 模 is bytes 1..4
        assert_eq!((1..=4).map(|i| floor_boundary(t, i)).collect::<Vec<_>>(), [1, 1, 1, 4]);
        assert_eq!((1..=4).map(|i| ceil_boundary(t, i)).collect::<Vec<_>>(), [1, 4, 4, 4]);
        assert_eq!((floor_boundary(t, 99), ceil_boundary(t, 99)), (5, 5));
    }

    #[test]
    fn byte_scanners_agree_with_char_classes_on_every_scalar_value() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let s = c.encode_utf8(&mut buf);
            let ws = whitespace_len_at(s.as_bytes(), 0);
            let lb = line_break_len_at(s.as_bytes(), 0);
            assert_eq!(ws != 0, is_py_whitespace(c), "whitespace {c:?}");
            assert_eq!(lb != 0, is_py_line_break(c), "line break {c:?}");
            if ws != 0 {
                assert_eq!(ws, s.len());
            }
            if lb != 0 {
                assert_eq!(lb, s.len());
            }
        }
    }

    #[test]
    fn words_split_like_python() {
        let t = " a\u{3000}bb\u{a0}\tccc  d\u{1c}e ";
        let got: Vec<&str> = words(t, 0..t.len()).map(|r| &t[r]).collect();
        assert_eq!(got, ["a", "bb", "ccc", "d", "e"]);
        assert_eq!(words("", 0..0).count(), 0);
        assert_eq!(words("   ", 0..3).count(), 0);
    }

    #[test]
    fn lines_split_like_python() {
        let t = "a\nb\r\nc\u{2028}d\u{85}e";
        let got: Vec<&str> = lines(t, 0..t.len()).map(|r| &t[r]).collect();
        assert_eq!(got, ["a", "b", "", "c", "d", "e"]);
        let t = "x\n";
        let got: Vec<&str> = lines(t, 0..t.len()).map(|r| &t[r]).collect();
        assert_eq!(got, ["x"]);
    }

    #[test]
    fn trim_strips_python_whitespace() {
        let t = "\u{3000} hi there \x1f";
        assert_eq!(&t[trim(t, 0..t.len())], "hi there");
        assert!(trim("  ", 0..2).is_empty());
    }

    #[test]
    fn end_of_last_finds_the_last_break() {
        assert_eq!(end_of_last("ab cd", 0..5, is_py_whitespace), Some(3));
        assert_eq!(end_of_last("ab cd", 3..5, is_py_whitespace), None);
        assert_eq!(end_of_last("a\u{2028}", 0..4, is_py_line_break), Some(4));
    }
}
