//! Where the SSE events of a stream end, as its bytes arrive: the offset just past the last
//! blank line (`\n`, `\r\n` or `\r`, the WHATWG line ends). A stream cut there leaves the
//! client whole events only, so the proxy's own last chunk and `[DONE]` can follow it. The
//! answer does not depend on how the stream was split into reads (tested at every offset).
//! For an NDJSON stream (Ollama's) every line is an event: [`EventBounds::lines`].

/// A scanner of event ends. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct EventBounds {
    /// Bytes scanned so far.
    offset: usize,
    /// Bytes of the current line so far (0: at the start of a line).
    line_len: usize,
    /// The last byte ended a line with CR: an LF next belongs to that line end.
    after_cr: bool,
    /// Just past the last blank line: where the last complete event ends.
    last: usize,
    /// Every line end ends an event (NDJSON).
    lines: bool,
}

impl EventBounds {
    pub fn new() -> Self {
        Self::default()
    }

    /// A scanner of an NDJSON stream's lines: each line end ends an event.
    pub fn lines() -> Self {
        Self { lines: true, ..Self::default() }
    }

    /// Scans the next bytes of the stream.
    pub fn feed(&mut self, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            let at = self.offset + i;
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    // The LF of a CRLF: an event that ended at the CR ends after it.
                    if self.last == at {
                        self.last = at + 1;
                    }
                    continue;
                }
            }
            match b {
                b'\n' | b'\r' => {
                    if self.line_len == 0 || self.lines {
                        self.last = at + 1;
                    }
                    self.line_len = 0;
                    self.after_cr = b == b'\r';
                }
                _ => self.line_len += 1,
            }
        }
        self.offset += bytes.len();
    }

    /// The offset just past the last complete event (0 before the first).
    pub fn last_end(&self) -> usize {
        self.last
    }

    /// Bytes scanned so far.
    pub fn scanned(&self) -> usize {
        self.offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: every event end in `input`, from the core's SSE decoder's own line ends.
    fn naive_last_end(input: &[u8]) -> usize {
        let mut last = 0;
        let mut line_start = 0;
        let mut i = 0;
        while i < input.len() {
            let b = input[i];
            if b == b'\n' || b == b'\r' {
                let mut end = i + 1;
                if b == b'\r' && input.get(i + 1) == Some(&b'\n') {
                    end += 1;
                }
                if i == line_start {
                    last = end;
                }
                line_start = end;
                i = end;
            } else {
                i += 1;
            }
        }
        last
    }

    #[test]
    fn event_ends_are_found_however_the_stream_is_split() {
        let inputs: [&[u8]; 5] = [
            b"data: {\"a\":1}\n\ndata: [DONE]\n\n",
            b": keep-alive\r\n\r\ndata: x\r\ndata: y\r\n\r\ndata: part",
            b"data: a\r\rdata: b\r\n\r\nevent: e\ndata: c\n\n\n",
            b"data: no end yet\n",
            b"\n\ndata: z\r\n\r",
        ];
        for input in inputs {
            let want = naive_last_end(input);
            for cut in 0..=input.len() {
                let mut b = EventBounds::new();
                b.feed(&input[..cut]);
                assert!(b.last_end() <= cut);
                b.feed(&input[cut..]);
                assert_eq!(b.last_end(), want, "{:?} cut at {cut}", String::from_utf8_lossy(input));
                assert_eq!(b.scanned(), input.len());
            }
            let mut bytewise = EventBounds::new();
            for byte in input {
                bytewise.feed(std::slice::from_ref(byte));
            }
            assert_eq!(bytewise.last_end(), want);
        }
    }

    #[test]
    fn in_lines_mode_each_line_end_is_an_events_end() {
        let input = b"{\"a\":1}\r\n{\"b\":2}\n{\"c\":";
        for cut in 0..=input.len() {
            let mut b = EventBounds::lines();
            b.feed(&input[..cut]);
            b.feed(&input[cut..]);
            assert_eq!(b.last_end(), "{\"a\":1}\r\n{\"b\":2}\n".len(), "cut at {cut}");
        }
    }

    #[test]
    fn the_end_follows_the_blank_line() {
        let mut b = EventBounds::new();
        b.feed(b"data: one\n\ndata: tw");
        assert_eq!(b.last_end(), "data: one\n\n".len());
        b.feed(b"o\n");
        assert_eq!(b.last_end(), "data: one\n\n".len(), "one line end is not an event's");
        b.feed(b"\n");
        assert_eq!(b.last_end(), "data: one\n\ndata: two\n\n".len());
    }
}
