//! Saved HTTP responses (`curl -i` output): the status line and headers before the body.
//!
//! The head is skipped so the body is detected and read as usual; byte ranges and line numbers
//! still count from the start of the file. A status other than 2xx is worth telling the user.

/// The head of a saved HTTP response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// Where the body starts (after the blank line that ends the head).
    pub body_start: usize,
    /// Lines in the head, the blank line included.
    pub lines: usize,
    /// The status line, e.g. `HTTP/1.1 401 Unauthorized`.
    pub status: String,
    /// The status is 2xx.
    pub ok: bool,
}

/// Heads longer than this are not heads.
const MAX_HEAD: usize = 64 * 1024;

/// The head of `input` if it starts with an HTTP status line and has a blank line after its
/// headers.
pub fn http_head(input: &[u8]) -> Option<Head> {
    if !input.starts_with(b"HTTP/") {
        return None;
    }
    let (mut at, mut lines, mut status) = (0, 0, String::new());
    while at < input.len().min(MAX_HEAD) {
        let end = input[at..].iter().position(|&b| b == b'\n').map(|k| at + k)?;
        let line = input[at..end].strip_suffix(b"\r").unwrap_or(&input[at..end]);
        lines += 1;
        at = end + 1;
        if lines == 1 {
            status = String::from_utf8_lossy(line).trim().to_string();
        } else if line.is_empty() {
            let code = status.split_whitespace().nth(1).unwrap_or("");
            return Some(Head { body_start: at, lines, ok: code.starts_with('2'), status });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads() {
        let h = http_head(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\ndata: {}\n\n").unwrap();
        assert_eq!((h.body_start, h.lines, h.ok, h.status.as_str()), (52, 3, true, "HTTP/1.1 200 OK"));
        let h = http_head(b"HTTP/2 401\nx: y\n\n{\"detail\":\"Invalid API key\"}").unwrap();
        assert_eq!((h.body_start, h.ok), (17, false));
        assert_eq!(http_head(b"HTTP/1.1 200 OK\r\nno end"), None);
        assert_eq!(http_head(b"data: {}"), None);
    }
}
