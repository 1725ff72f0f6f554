//! Line numbers for byte offsets, and the lines of a JSONL document.

use std::ops::Range;

/// Where each line starts. Line ends are LF, CRLF or a lone CR (as the SSE decoder counts).
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(input: &[u8]) -> Self {
        let mut starts = vec![0];
        let mut i = 0;
        while i < input.len() {
            match input[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if input.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        Self { starts }
    }

    /// For a document read in pieces: one more line, `bytes` from `start` on, `ended` by a LF
    /// (not included) or the document's end. Gives the same starts as [`LineIndex::new`] of
    /// the whole.
    pub fn push_line(&mut self, start: usize, bytes: &[u8], ended: bool) {
        let mut from = 0;
        while let Some(k) = bytes[from..].iter().position(|&b| b == b'\r') {
            from += k + 1;
            // A CR is a line end unless a LF follows.
            if !(ended && from == bytes.len()) {
                self.starts.push(start + from);
            }
        }
        if ended {
            self.starts.push(start + bytes.len() + 1);
        }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).max(1)
    }
}

/// The non-blank lines of a JSONL document: `(1-based line number, byte range without the
/// line end)`. A leading BOM is skipped.
pub fn jsonl_lines(input: &[u8]) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
    let skip = if input.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let mut start = skip;
    let mut line = 0;
    std::iter::from_fn(move || loop {
        if start > input.len() || (start == input.len() && line > 0) {
            return None;
        }
        line += 1;
        let end = input[start..].iter().position(|&b| b == b'\n').map_or(input.len(), |k| start + k);
        let from = start;
        start = end + 1;
        let trimmed = trim_ascii_range(input, from..end);
        if !trimmed.is_empty() {
            return Some((line, trimmed));
        }
    })
}

/// `range` without leading and trailing ASCII whitespace.
pub fn trim_ascii_range(input: &[u8], range: Range<usize>) -> Range<usize> {
    let s = &input[range.clone()];
    let lead = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let trail = s[lead..].iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
    range.start + lead..range.end - trail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_of_counts_every_line_end() {
        let idx = LineIndex::new(b"a\nb\r\nc\rd");
        let lines: Vec<usize> = (0..8).map(|o| idx.line_of(o)).collect();
        assert_eq!(lines, vec![1, 1, 2, 2, 2, 3, 3, 4]);
    }

    #[test]
    fn lines_pushed_one_by_one_give_the_same_starts() {
        for input in [&b"a\nb\r\nc\rd"[..], b"\r\r\n\n\r", b"", b"x\r", b"\n"] {
            let mut idx = LineIndex::new(b"");
            let mut start = 0;
            for (i, line) in input.split(|&b| b == b'\n').enumerate() {
                let ended = start + line.len() < input.len();
                if ended || !line.is_empty() || i == 0 {
                    idx.push_line(start, line, ended);
                }
                start += line.len() + 1;
            }
            assert_eq!(idx.starts, LineIndex::new(input).starts, "{input:?}");
        }
    }

    #[test]
    fn jsonl_lines_skip_blanks_and_crlf() {
        let got: Vec<_> = jsonl_lines(b"\xEF\xBB\xBF{}\r\n\n  \n{\"a\":1}").collect();
        assert_eq!(got, vec![(1, 3..5), (4, 11..18)]);
        assert_eq!(jsonl_lines(b"").count(), 0);
        assert_eq!(jsonl_lines(b"x\n").collect::<Vec<_>>(), vec![(1, 0..1)]);
    }
}
