//! Sans-IO line splitting: bytes in, complete lines out, however the input was cut.
//!
//! Line ends are LF, CRLF or a lone CR; a CR at the end of one feed and an LF at the start of
//! the next are one line end. A leading UTF-8 BOM is dropped even when it arrives byte by
//! byte. Each line comes with its byte range in the whole input and its 1-based number. The
//! SSE decoder reads its lines through this; a live NDJSON stream (Ollama's native API) can
//! too.

use std::ops::Range;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Incremental line splitter. See the module doc.
#[derive(Clone, Debug)]
pub struct LineSplitter {
    /// Bytes of the line being read (no line end yet).
    buf: Vec<u8>,
    /// Offset in the whole input of `buf[0]`.
    buf_start: usize,
    /// `buf[..scanned]` holds no line end.
    scanned: usize,
    /// The last line ended in CR: an LF right after it belongs to that line end.
    skip_lf: bool,
    /// Whether the leading BOM question is settled.
    bom_done: bool,
    /// 1-based number of the line being read.
    line: usize,
}

impl Default for LineSplitter {
    fn default() -> Self {
        Self::new()
    }
}

impl LineSplitter {
    pub fn new() -> Self {
        Self { buf: Vec::new(), buf_start: 0, scanned: 0, skip_lf: false, bom_done: false, line: 1 }
    }

    /// Takes the next bytes; calls `f(line, range, number)` for each line they complete
    /// (`line` without its line end, `range` its bytes in the whole input).
    pub fn feed(&mut self, bytes: &[u8], mut f: impl FnMut(&[u8], Range<usize>, usize)) {
        self.buf.extend_from_slice(bytes);
        if !self.bom_done {
            self.settle_bom(false);
            if !self.bom_done {
                return;
            }
        }
        let buf = std::mem::take(&mut self.buf);
        let mut line_start = 0;
        let mut at = self.scanned;
        loop {
            if self.skip_lf {
                match buf.get(at) {
                    None => break,
                    Some(&b) => {
                        self.skip_lf = false;
                        if b == b'\n' {
                            at += 1;
                            line_start = at;
                        }
                    }
                }
            }
            let Some(k) = buf[at..].iter().position(|&b| b == b'\n' || b == b'\r').map(|k| at + k) else {
                break;
            };
            let start = self.buf_start + line_start;
            f(&buf[line_start..k], start..start + (k - line_start), self.line);
            self.skip_lf = buf[k] == b'\r';
            self.line += 1;
            at = k + 1;
            line_start = at;
        }
        let mut buf = buf;
        buf.drain(..line_start);
        self.buf_start += line_start;
        self.scanned = buf.len();
        self.buf = buf;
    }

    /// Ends the input: calls `f` for a last line that has no line end (if not empty) and
    /// returns the length of the whole input. The splitter is then ready for a new input.
    pub fn finish(&mut self, mut f: impl FnMut(&[u8], Range<usize>, usize)) -> usize {
        if !self.bom_done {
            self.settle_bom(true);
            self.feed(&[], &mut f);
        }
        let end = self.buf_start + self.buf.len();
        if !self.buf.is_empty() {
            f(&self.buf, self.buf_start..end, self.line);
        }
        *self = Self::new();
        end
    }

    /// Drops a leading BOM once enough bytes are known (or the input ended).
    fn settle_bom(&mut self, at_end: bool) {
        if !at_end && self.buf.len() < BOM.len() && BOM.starts_with(&self.buf) {
            return;
        }
        if self.buf.starts_with(BOM) {
            self.buf.drain(..BOM.len());
            self.buf_start += BOM.len();
        }
        self.bom_done = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Lines = Vec<(Vec<u8>, Range<usize>, usize)>;

    fn split(pieces: &[&[u8]]) -> (Lines, usize) {
        let mut s = LineSplitter::new();
        let mut out = Vec::new();
        for p in pieces {
            s.feed(p, |l, r, n| out.push((l.to_vec(), r, n)));
        }
        let end = s.finish(|l, r, n| out.push((l.to_vec(), r, n)));
        (out, end)
    }

    #[test]
    fn every_line_end_and_every_cut() {
        let input = b"\xEF\xBB\xBFa\r\nb\rc\n\nd\r";
        let want: Lines = vec![
            (b"a".to_vec(), 3..4, 1),
            (b"b".to_vec(), 6..7, 2),
            (b"c".to_vec(), 8..9, 3),
            (b"".to_vec(), 10..10, 4),
            (b"d".to_vec(), 11..12, 5),
        ];
        assert_eq!(split(&[input]), (want.clone(), 13));
        for i in 0..=input.len() {
            for j in i..=input.len() {
                assert_eq!(split(&[&input[..i], &input[i..j], &input[j..]]), (want.clone(), 13), "cuts {i} {j}");
            }
        }
    }

    #[test]
    fn unterminated_last_line_and_partial_bom() {
        assert_eq!(split(&[b"x\ny"]), (vec![(b"x".to_vec(), 0..1, 1), (b"y".to_vec(), 2..3, 2)], 3));
        assert_eq!(split(&[b"\xEF\xBB"]), (vec![(b"\xEF\xBB".to_vec(), 0..2, 1)], 2));
        assert_eq!(split(&[b"\xEF\xBB\xBF"]), (vec![], 3));
    }
}
