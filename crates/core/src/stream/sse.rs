//! A sans-IO decoder of Server-Sent Events: bytes in, events out, each with its byte range.
//!
//! [`SseDecoder::feed`] takes whatever bytes arrived (a network read, or a whole saved file)
//! and returns the events those bytes completed; [`SseDecoder::finish`] flushes the rest at
//! the end of the input. The result does not depend on how the input was cut: lines come from
//! [`LineSplitter`] (a CR at the end of one feed and an LF at the start of the next are one
//! line end; a leading BOM is dropped even when it arrives byte by byte), and each line is
//! decoded whole, so a UTF-8 character split across feeds is too. Reading sockets or files is
//! the caller's business.
//!
//! Follows the WHATWG `text/event-stream` rules (fields `event`, `data`, `id`, `retry`;
//! several `data:` lines joined with `\n`; one space after the colon dropped), with two
//! choices made for saved captures: comments are kept as events (servers use them for
//! keep-alives, and the count is worth showing), and [`SseDecoder::finish`] dispatches a last
//! event that lacks its closing blank line instead of dropping it, so a cut stream keeps its
//! last chunk. Lines that are not valid UTF-8 are decoded lossily and reported.

use super::line_split::LineSplitter;
use serde::Serialize;
use std::ops::Range;

/// A dispatched event: its `event:` name (if any), its data, its `id:` (if any).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SseMessage {
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    pub id: Option<String>,
    /// From the start of its first field line to the start of the blank line that ended it
    /// (or to the end of the input when [`SseDecoder::finish`] dispatched it).
    pub range: Range<usize>,
    /// 1-based line of its first field line.
    pub line: usize,
}

/// What the decoder read, in input order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SseEvent {
    Message(SseMessage),
    /// A `:` line: `text` is what follows the colon, one leading space dropped.
    /// `range` covers the line without its line end.
    Comment {
        text: String,
        range: Range<usize>,
        line: usize,
    },
    /// Something a reader should hear about (a line that is not UTF-8, an unknown field);
    /// decoding goes on. `range` covers the line without its line end.
    Problem {
        message: String,
        range: Range<usize>,
        line: usize,
    },
}

impl SseEvent {
    /// The bytes of the input the event came from.
    pub fn range(&self) -> Range<usize> {
        match self {
            SseEvent::Message(m) => m.range.clone(),
            SseEvent::Comment { range, .. } | SseEvent::Problem { range, .. } => range.clone(),
        }
    }
}

/// The event being built from field lines until a blank line dispatches it.
#[derive(Clone, Debug, Default)]
struct Pending {
    start: usize,
    line: usize,
    event: Option<String>,
    data: Option<String>,
    id: Option<String>,
}

/// Incremental `text/event-stream` decoder. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct SseDecoder {
    lines: LineSplitter,
    fields: Fields,
}

/// What the field lines have said so far.
#[derive(Clone, Debug, Default)]
struct Fields {
    pending: Option<Pending>,
}

impl SseDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the next bytes of the input; returns the events they completed.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let fields = &mut self.fields;
        self.lines.feed(bytes, |line, range, n| fields.line(line, range, n, &mut out));
        out
    }

    /// Ends the input: reads an unterminated last line and dispatches a pending event.
    /// The decoder is then ready for a new input.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let fields = &mut self.fields;
        let end = self.lines.finish(|line, range, n| fields.line(line, range, n, &mut out));
        if let Some(p) = self.fields.pending.take() {
            if let Some(data) = p.data {
                out.push(SseEvent::Message(SseMessage {
                    event: p.event,
                    data,
                    id: p.id,
                    range: p.start..end,
                    line: p.line,
                }));
            }
        }
        out
    }
}

impl Fields {
    /// Interprets one line (without its line end).
    fn line(&mut self, bytes: &[u8], range: Range<usize>, line: usize, out: &mut Vec<SseEvent>) {
        let start = range.start;
        let text = match std::str::from_utf8(bytes) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(e) => {
                out.push(SseEvent::Problem {
                    message: format!(
                        "not valid UTF-8 (first bad byte at offset {}); decoded with U+FFFD",
                        start + e.valid_up_to()
                    ),
                    range: range.clone(),
                    line,
                });
                String::from_utf8_lossy(bytes)
            }
        };
        if text.is_empty() {
            if let Some(p) = self.pending.take() {
                if let Some(data) = p.data {
                    let m = SseMessage { event: p.event, data, id: p.id, range: p.start..start, line: p.line };
                    out.push(SseEvent::Message(m));
                }
            }
            return;
        }
        if let Some(comment) = text.strip_prefix(':') {
            let text = comment.strip_prefix(' ').unwrap_or(comment).to_string();
            out.push(SseEvent::Comment { text, range, line });
            return;
        }
        let (field, value) = match text.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (&*text, ""),
        };
        let p = self.pending.get_or_insert_with(|| Pending { start, line, ..Pending::default() });
        match field {
            "data" => match &mut p.data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => p.data = Some(value.to_string()),
            },
            "event" => p.event = Some(value.to_string()),
            "id" => p.id = Some(value.to_string()),
            "retry" => {}
            _ => out.push(SseEvent::Problem {
                message: format!("unknown SSE field '{}' ignored", crate::wording::quote(field)),
                range,
                line,
            }),
        }
    }
}

/// The lines of a `data` value that is really several events' payloads run together: a
/// capture saved without the blank lines between events joins every `data:` line into one
/// event. `Some` when there are at least two lines and each is a JSON object or `[DONE]`
/// (a JSON value spread over several `data:` lines has lines that are not).
pub fn split_joined(data: &str) -> Option<Vec<&str>> {
    if !data.contains('\n') {
        return None;
    }
    let lines: Vec<&str> = data.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let whole = |l: &&str| (l.starts_with('{') && l.ends_with('}')) || *l == "[DONE]";
    (lines.len() >= 2 && lines.iter().all(whole)).then_some(lines)
}

/// Decodes a whole input at once (one `feed`, then `finish`).
pub fn decode_all(bytes: &[u8]) -> Vec<SseEvent> {
    let mut d = SseDecoder::new();
    let mut out = d.feed(bytes);
    out.extend(d.finish());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(data: &str, range: Range<usize>, line: usize) -> SseEvent {
        SseEvent::Message(SseMessage { event: None, data: data.into(), id: None, range, line })
    }

    fn bytewise(input: &[u8]) -> Vec<SseEvent> {
        let mut d = SseDecoder::new();
        let mut out: Vec<SseEvent> = input.iter().flat_map(|b| d.feed(std::slice::from_ref(b))).collect();
        out.extend(d.finish());
        out
    }

    #[test]
    fn data_lines_join_and_blank_line_dispatches() {
        let input = b"data: a\ndata:b\n\ndata: c\n\n";
        assert_eq!(decode_all(input), vec![msg("a\nb", 0..15, 1), msg("c", 16..24, 4)]);
    }

    #[test]
    fn line_ends_crlf_cr_lf_mix() {
        let input = b"data: x\r\n\r\ndata: y\r\rdata: z\n\n";
        let want = vec![msg("x", 0..9, 1), msg("y", 11..19, 3), msg("z", 20..28, 5)];
        assert_eq!(decode_all(input), want);
        assert_eq!(bytewise(input), want);
    }

    #[test]
    fn cr_then_lf_in_the_next_feed_is_one_line_end() {
        let mut d = SseDecoder::new();
        let mut got = d.feed(b"data: a\r");
        got.extend(d.feed(b"\n\r"));
        got.extend(d.feed(b"\ndata: b\n\n"));
        got.extend(d.finish());
        assert_eq!(got, vec![msg("a", 0..9, 1), msg("b", 11..19, 3)]);
    }

    #[test]
    fn comments_names_ids_and_bom() {
        let input = "\u{feff}: ping - 2026\nevent: delta\nid: 7\ndata: {}\n\n".as_bytes();
        let got = decode_all(input);
        assert_eq!(
            got,
            vec![
                SseEvent::Comment { text: "ping - 2026".into(), range: 3..16, line: 1 },
                SseEvent::Message(SseMessage {
                    event: Some("delta".into()),
                    data: "{}".into(),
                    id: Some("7".into()),
                    range: 17..45,
                    line: 2
                }),
            ]
        );
        assert_eq!(bytewise(input), got);
    }

    #[test]
    fn last_event_without_blank_line_is_kept_at_finish() {
        assert_eq!(decode_all(b"data: [DONE]"), vec![msg("[DONE]", 0..12, 1)]);
        assert_eq!(decode_all(b"data: [DONE]\n"), vec![msg("[DONE]", 0..13, 1)]);
    }

    #[test]
    fn event_without_data_is_not_dispatched() {
        assert_eq!(decode_all(b"event: ping\n\n"), vec![]);
        assert_eq!(decode_all(b"data\n\n"), vec![msg("", 0..5, 1)]);
    }

    #[test]
    fn split_utf8_and_invalid_bytes() {
        let input = "data: é😀\n\n".as_bytes();
        assert_eq!(bytewise(input), decode_all(input));
        let got = decode_all(b"data: \xff\n\n");
        assert!(matches!(&got[0], SseEvent::Problem { line: 1, .. }));
        assert_eq!(got[1], msg("\u{fffd}", 0..8, 1));
    }

    #[test]
    fn unknown_fields_are_reported_not_fatal() {
        let got = decode_all(b"{\"x\":1}\ndata: a\n\n");
        assert!(matches!(&got[0], SseEvent::Problem { line: 1, .. }));
        assert_eq!(got[1], msg("a", 0..16, 1));
    }

    #[test]
    fn joined_payloads_are_split_only_when_each_line_is_whole() {
        assert_eq!(split_joined("{\"a\":1}\n{\"b\":2}\n[DONE]"), Some(vec!["{\"a\":1}", "{\"b\":2}", "[DONE]"]));
        assert_eq!(split_joined("{\"a\":\n1}"), None);
        assert_eq!(split_joined("{\"a\":1}"), None);
    }

    #[test]
    fn bom_alone_or_partial() {
        assert_eq!(decode_all(b"\xEF\xBB\xBF"), vec![]);
        let got = decode_all(b"\xEF\xBB");
        assert!(got.iter().all(|e| matches!(e, SseEvent::Problem { range, .. } if *range == (0..2))), "{got:?}");
    }
}
