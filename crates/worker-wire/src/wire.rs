//! The hand-over of a file read and analysed in the Web Worker to the page: pieces in postcard
//! (serde's compact binary format), each in its own buffer, small enough for the page to decode
//! one at a time between frames (and to let go of once decoded), so that taking in a 50 MB
//! result never stalls the page for long; and the message texts one after the other in one
//! texts buffer (written straight into a buffer the worker transfers, not copied). A text said
//! before travels once: later messages with the same text point at the first. A plain text that
//! is the file's bytes unchanged does not travel at all: the page reads it from the file itself
//! ([`Decoder::file_texts`]). Pure: the round trip is unit-tested natively.
//!
//! Pieces, in order: a head (formats, stream info, diagnostics), messages (where each text is,
//! texts left out), the distinct reports (a request log repeats its history: identical texts
//! share one report), the spans of very long reports in slices, the index from each
//! [`MessageReport`] to its report (with who wrote it, whether it is judged, which stream it
//! is), and the conversations' judgements.
//!
//! Verdicts, levels and counts travel as data and are never recomputed on the page; numbers
//! travel exactly (a ratio's eight bytes). Postcard rather than JSON: serde's JSON readers for
//! these types cost the page's wasm 26 KB gzipped more. A type on the wire therefore always
//! writes every field (no `skip_serializing_if`: a binary format cannot tell a field left out)
//! and is never tagged inside (`Variation` is tagged inside only in JSON).
//!
//! What travels is the core's [`JudgedDocument`]; this module is only its encoding.

use std::ops::Range;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use coherency_core::analyze::{Span, Verdict};
use coherency_core::ingest::{self, Diagnostic, Format, Message, Transcript};
use coherency_core::judge::{
    Author, ConversationReport, JudgedDocument, KeptReport, MessageReport, StreamKind, TextTable, TranscriptReport,
};
use coherency_core::stream::StreamInfo;

/// Messages per piece.
const MESSAGES_PER_PIECE: usize = 4_000;
/// A reports piece ends once its encoding reaches this size.
const REPORT_PIECE_BYTES: usize = 512 * 1024;
/// Spans per piece; a report with more has the rest in `Spans` pieces.
const SPANS_PER_PIECE: usize = 1_000;
/// Index entries per piece.
const INDEX_PER_PIECE: usize = 16_000;

/// A [`MessageReport`] as it travels: its messages, combined or not, its distinct report, who
/// wrote it, whether it is judged, which stream it is (a tuple: thousands of them).
#[derive(Clone, Serialize, Deserialize)]
struct Entry(Vec<usize>, bool, usize, Author, bool, Option<StreamKind>);

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Piece {
    Head {
        size: usize,
        detected: Format,
        chosen: Option<Format>,
        format: Format,
        stream: Option<StreamInfo>,
        diagnostics: Vec<Diagnostic>,
        verdict: Option<Verdict>,
        messages: usize,
        reports: usize,
        #[serde(default)]
        conversations: usize,
    },
    /// Messages with empty texts; `lens[i]` bytes of the texts buffer are message i's text,
    /// except for those in `same` (pairs `i, j`: the text of message j, said before) and in
    /// `file` (pairs `i, at`: the file's `lens[i]` bytes from `at`).
    Messages { lens: Vec<usize>, same: Vec<usize>, file: Vec<usize>, messages: Vec<Message> },
    /// Distinct reports (a summary for a short text that passed), in order; long span lists
    /// follow in `Spans` pieces.
    Reports(Vec<KeptReport>),
    /// More spans of distinct report `report`.
    Spans { report: usize, spans: Vec<Span> },
    /// One entry per [`MessageReport`], in order.
    Index(Vec<Entry>),
    /// Conversations' judgements, in order.
    Conversations(Vec<ConversationReport>),
}

fn bytes(piece: &Piece) -> Vec<u8> {
    postcard::to_allocvec(piece).unwrap_or_default()
}

/// Where a message's text travels.
#[derive(Clone, Copy, PartialEq)]
enum TextFrom {
    Buffer,
    /// The same text as that earlier message.
    Same(usize),
    /// The file's bytes at the message's source.
    File,
}

fn text_sources(t: &Transcript) -> Vec<TextFrom> {
    let from_file = ingest::is_verbatim(t);
    let mut first: TextTable<usize> = TextTable::default();
    let mut from = Vec::with_capacity(t.messages.len());
    for (i, m) in t.messages.iter().enumerate() {
        from.push(if from_file {
            TextFrom::File
        } else if let Some(&j) = first.get(m.text.as_str()) {
            TextFrom::Same(j)
        } else {
            first.insert(&m.text, i);
            TextFrom::Buffer
        });
    }
    from
}

/// The bytes of the texts buffer.
pub fn texts_len(loaded: &JudgedDocument) -> usize {
    let from = text_sources(&loaded.transcript);
    let buffer = loaded.transcript.messages.iter().zip(from).filter(|(_, f)| *f == TextFrom::Buffer);
    buffer.map(|(m, _)| m.text.len()).sum()
}

/// Lays out `loaded` for the page: the texts that travel, in order, go to `texts` (and are
/// freed), each encoded piece to `piece`.
pub fn encode(loaded: JudgedDocument, texts: &mut dyn FnMut(&str), piece: &mut dyn FnMut(Vec<u8>)) {
    let JudgedDocument { size, detected, chosen, mut transcript, report } = loaded;
    let from = text_sources(&transcript);
    // Identical single texts got identical reports: keep one of each.
    let mut distinct: Vec<KeptReport> = Vec::new();
    // The distinct report of each message's text, once known.
    let mut report_of: Vec<Option<usize>> = vec![None; from.len()];
    let mut index = Vec::with_capacity(report.reports.len());
    for r in report.reports {
        let first = match (r.combined, r.messages.as_slice()) {
            (false, [k]) => match from.get(*k) {
                Some(TextFrom::Same(j)) => Some(*j),
                Some(_) => Some(*k),
                None => None,
            },
            _ => None,
        };
        let at = match first.and_then(|k| report_of[k]) {
            Some(at) => at,
            None => {
                if let Some(k) = first {
                    report_of[k] = Some(distinct.len());
                }
                distinct.push(r.report);
                distinct.len() - 1
            }
        };
        index.push(Entry(r.messages, r.combined, at, r.author, r.judged, r.stream));
    }
    drop(report_of);

    let mut push = |p: &Piece| piece(bytes(p));
    let mut messages = std::mem::take(&mut transcript.messages);
    let head = Piece::Head {
        size,
        detected,
        chosen,
        format: transcript.format,
        stream: transcript.stream.take(),
        diagnostics: std::mem::take(&mut transcript.diagnostics),
        verdict: report.verdict,
        messages: messages.len(),
        reports: index.len(),
        conversations: report.conversations.len(),
    };
    // Texts one after the other; their lengths travel with the messages.
    let mut lens = Vec::with_capacity(messages.len());
    for (m, from) in messages.iter_mut().zip(&from) {
        lens.push(m.text.len());
        let text = std::mem::take(&mut m.text);
        if *from == TextFrom::Buffer {
            texts(&text);
        }
    }
    push(&head);
    let mut done = 0;
    while !messages.is_empty() {
        let rest = messages.split_off(messages.len().min(MESSAGES_PER_PIECE));
        let chunk = std::mem::replace(&mut messages, rest);
        let (mut same, mut file) = (Vec::new(), Vec::new());
        for (i, m) in chunk.iter().enumerate() {
            match from[done + i] {
                TextFrom::Same(j) => same.extend([i, j]),
                TextFrom::File => file.extend([i, m.source.start]),
                TextFrom::Buffer => {}
            }
        }
        let lens = lens[done..done + chunk.len()].to_vec();
        done += chunk.len();
        push(&Piece::Messages { lens, same, file, messages: chunk });
    }
    let mut batch: Vec<KeptReport> = Vec::new();
    let mut batch_bytes = 0;
    let mut later_spans: Vec<(usize, Vec<Span>)> = Vec::new();
    for (i, mut r) in distinct.into_iter().enumerate() {
        if let KeptReport::Whole(whole) = &mut r {
            if whole.spans.len() > SPANS_PER_PIECE {
                // Every other holder of this report is gone by now: this copies nothing.
                let rest = Rc::make_mut(whole).spans.split_off(SPANS_PER_PIECE);
                later_spans.push((i, rest));
            }
        }
        batch_bytes += postcard::to_allocvec(&r).map_or(0, |v| v.len());
        batch.push(r);
        if batch_bytes >= REPORT_PIECE_BYTES {
            push(&Piece::Reports(std::mem::take(&mut batch)));
            batch_bytes = 0;
            for (report, spans) in later_spans.drain(..) {
                for chunk in spans.chunks(SPANS_PER_PIECE) {
                    push(&Piece::Spans { report, spans: chunk.to_vec() });
                }
            }
        }
    }
    if !batch.is_empty() {
        push(&Piece::Reports(batch));
    }
    for (report, spans) in later_spans {
        for chunk in spans.chunks(SPANS_PER_PIECE) {
            push(&Piece::Spans { report, spans: chunk.to_vec() });
        }
    }
    for chunk in index.chunks(INDEX_PER_PIECE) {
        push(&Piece::Index(chunk.to_vec()));
    }
    let mut batch: Vec<ConversationReport> = Vec::new();
    let mut batch_bytes = 0;
    for c in report.conversations {
        batch_bytes += postcard::to_allocvec(&c).map_or(0, |v| v.len());
        batch.push(c);
        if batch_bytes >= REPORT_PIECE_BYTES {
            push(&Piece::Conversations(std::mem::take(&mut batch)));
            batch_bytes = 0;
        }
    }
    if !batch.is_empty() {
        push(&Piece::Conversations(batch));
    }
}

/// Puts the pieces back together one at a time ([`encode`] in reverse).
#[derive(Default)]
pub struct Decoder {
    pieces: usize,
    next: usize,
    /// Where the next message's text starts in the buffer.
    text_at: usize,
    size: usize,
    formats: Option<(Format, Option<Format>)>,
    transcript: Option<Transcript>,
    verdict: Option<Verdict>,
    messages: usize,
    report_count: usize,
    conversation_count: usize,
    /// The distinct reports (each message's report points into them).
    distinct: Vec<KeptReport>,
    reports: Vec<MessageReport>,
    conversations: Vec<ConversationReport>,
    /// Messages whose text is the file's bytes at this range.
    file_texts: Vec<(usize, Range<usize>)>,
}

const CORRUPT: &str = "the worker's result did not read back";

impl Decoder {
    /// A decoder of `pieces` pieces.
    pub fn new(pieces: usize) -> Decoder {
        Decoder { pieces, ..Decoder::default() }
    }

    /// Pieces decoded so far, of how many.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.pieces)
    }

    pub fn done(&self) -> bool {
        self.next >= self.pieces
    }

    /// The messages whose texts the page reads from the file: `(message, byte range)`; their
    /// texts are empty in [`Decoder::finish`]'s result.
    pub fn file_texts(&self) -> &[(usize, Range<usize>)] {
        &self.file_texts
    }

    /// Decodes the next piece; `read(k)` returns piece k, `text(range)` those bytes of the
    /// texts buffer.
    pub fn step(
        &mut self,
        read: &mut dyn FnMut(usize) -> Vec<u8>,
        text: &mut dyn FnMut(Range<usize>) -> Vec<u8>,
    ) -> Result<(), String> {
        if self.done() {
            return Ok(());
        }
        self.next += 1;
        let piece: Piece = postcard::from_bytes(&read(self.next - 1)).map_err(|_| CORRUPT.to_string())?;
        match piece {
            Piece::Head {
                size,
                detected,
                chosen,
                format,
                stream,
                diagnostics,
                verdict,
                messages,
                reports,
                conversations,
            } => {
                self.size = size;
                self.report_count = reports;
                self.conversation_count = conversations;
                self.formats = Some((detected, chosen));
                self.verdict = verdict;
                self.messages = messages;
                let mut t = Transcript::new(format);
                t.stream = stream;
                t.diagnostics = diagnostics;
                t.messages.reserve_exact(messages);
                self.transcript = Some(t);
            }
            Piece::Messages { lens, same, file, messages } => {
                let t = self.transcript.as_mut().ok_or(CORRUPT)?;
                if lens.len() != messages.len() {
                    return Err(CORRUPT.into());
                }
                let first = t.messages.len();
                let (mut same, mut file) = (same.chunks_exact(2).peekable(), file.chunks_exact(2).peekable());
                for (i, (mut m, len)) in messages.into_iter().zip(lens).enumerate() {
                    if let Some(&[_, j]) = same.next_if(|p| p[0] == i) {
                        m.text = t.messages.get(j).ok_or(CORRUPT)?.text.clone();
                    } else if let Some(&[_, at]) = file.next_if(|p| p[0] == i) {
                        self.file_texts.push((first + i, at..at.checked_add(len).ok_or(CORRUPT)?));
                    } else {
                        let end = self.text_at.checked_add(len).ok_or(CORRUPT)?;
                        let text = text(self.text_at..end);
                        if text.len() != len {
                            return Err(CORRUPT.into());
                        }
                        m.text = Rc::new(String::from_utf8(text).map_err(|_| CORRUPT)?);
                        self.text_at = end;
                    }
                    t.messages.push(m);
                }
            }
            Piece::Reports(reports) => self.distinct.extend(reports),
            Piece::Spans { report, spans } => match self.distinct.get_mut(report) {
                // Not shared yet: the index pieces come after every span.
                Some(KeptReport::Whole(whole)) => Rc::make_mut(whole).spans.extend(spans),
                _ => return Err(CORRUPT.into()),
            },
            Piece::Index(entries) => {
                for Entry(messages, combined, at, author, judged, stream) in entries {
                    let report = self.distinct.get(at).ok_or(CORRUPT)?.clone();
                    self.reports.push(MessageReport { messages, combined, report, stream, author, judged });
                }
            }
            Piece::Conversations(conversations) => self.conversations.extend(conversations),
        }
        Ok(())
    }

    /// The result, once every piece is decoded.
    pub fn finish(self) -> Result<JudgedDocument, String> {
        let (Some((detected, chosen)), Some(transcript)) = (self.formats, self.transcript) else {
            return Err(CORRUPT.into());
        };
        let complete = self.next == self.pieces
            && transcript.messages.len() == self.messages
            && self.reports.len() == self.report_count
            && self.conversations.len() == self.conversation_count;
        if !complete {
            return Err(CORRUPT.into());
        }
        let report =
            TranscriptReport { reports: self.reports, verdict: self.verdict, conversations: self.conversations };
        Ok(JudgedDocument { size: self.size, detected, chosen, transcript, report })
    }
}

/// What travels, as tests keep it: the pieces and the texts buffer.
pub struct Wire {
    pub pieces: Vec<Vec<u8>>,
    pub texts: Vec<u8>,
}

/// Encodes `loaded` into a [`Wire`] (for tests: the worker hands each piece on as it comes).
pub fn encode_all(loaded: JudgedDocument) -> Wire {
    let mut texts = Vec::with_capacity(texts_len(&loaded));
    let mut pieces = Vec::new();
    encode(loaded, &mut |t| texts.extend_from_slice(t.as_bytes()), &mut |p| pieces.push(p));
    Wire { pieces, texts }
}

/// Decodes a whole [`Wire`] at once; texts from the file are read from `file` (for tests: the
/// page decodes piece by piece between frames).
pub fn decode(wire: &Wire, file: &[u8]) -> Result<JudgedDocument, String> {
    let mut d = Decoder::new(wire.pieces.len());
    let get = |bytes: &[u8], r: Range<usize>| bytes.get(r).map(<[u8]>::to_vec).unwrap_or_default();
    while !d.done() {
        d.step(&mut |k| wire.pieces.get(k).cloned().unwrap_or_default(), &mut |r| get(&wire.texts, r))?;
    }
    let from_file = d.file_texts().to_vec();
    let mut loaded = d.finish()?;
    for (i, r) in from_file {
        let (len, bytes) = (r.len(), get(file, r));
        let text = String::from_utf8(bytes).ok().filter(|t| t.len() == len).ok_or(CORRUPT)?;
        loaded.transcript.messages.get_mut(i).ok_or(CORRUPT)?.text = text.into();
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;
    fn fixture(name: &str) -> Vec<u8> {
        let path = coherency_test_support::fixture(&format!("formats/{name}"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn assert_same(got: &Result<JudgedDocument, String>, want: &JudgedDocument, name: &str) {
        let got = got.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((got.size, got.detected, got.chosen), (want.size, want.detected, want.chosen), "{name}");
        assert_eq!(got.transcript, want.transcript, "{name}");
        // Exactly: numbers travel as their bytes.
        assert_eq!(got.report, want.report, "{name}: the reports differ");
    }

    #[test]
    fn thresholds_a_person_set_travel_on_the_wire() {
        let mut t = coherency_core::analyze::Thresholds::SEED;
        t.assign("loop.fail=9").and_then(|()| t.assign("degenerate_end.warn=0.2")).expect("settings");
        let bytes = postcard::to_allocvec(&t).expect("written");
        assert_eq!(postcard::from_bytes::<coherency_core::analyze::Thresholds>(&bytes).ok(), Some(t));
    }

    #[test]
    fn every_fixture_comes_back_as_it_went() {
        let dir = coherency_test_support::fixture("formats");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("the fixtures")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| !n.ends_with(".json") || !n.contains("expected"))
            .collect();
        names.sort();
        assert!(names.len() > 5);
        for name in names {
            let bytes = fixture(&name);
            let l = JudgedDocument::read(&bytes, None);
            assert_same(&decode(&encode_all(l.clone()), &bytes), &l, &name);
        }
        let bytes = fixture("vllm.sse");
        let l = JudgedDocument::read(&bytes, Some(Format::Text));
        assert_same(&decode(&encode_all(l.clone()), &bytes), &l, "");
    }

    #[test]
    fn a_plain_text_is_read_from_the_file_unless_it_was_changed() {
        for (bytes, from_file) in [
            ("\u{feff}A plain text, with a BOM.".as_bytes(), true),
            (b"plain", true),
            (b"", true),
            (b"bad \xff bytes", false),
        ] {
            let l = JudgedDocument::read(bytes, None);
            let wire = encode_all(l.clone());
            assert_eq!(wire.texts.is_empty(), from_file || bytes.is_empty(), "{bytes:?}");
            assert_same(&decode(&wire, bytes), &l, "");
            if from_file && !bytes.is_empty() {
                assert!(decode(&wire, &bytes[..bytes.len() - 1]).is_err(), "the file got shorter");
            }
        }
    }

    #[test]
    fn a_big_log_travels_in_many_small_pieces_with_shared_reports_and_texts() {
        // Many records repeating a history, some looping: texts shared, reports deduplicated.
        let mut log = String::new();
        for i in 0..9_000 {
            let reply =
                if i % 10 == 0 { "Let me check again.\n".repeat(30) } else { format!("Answer number {i}, fine.") };
            log += &serde_json::json!({"request": {"messages": [
                {"role": "system", "content": "You are a careful assistant who answers briefly."},
                {"role": "user", "content": format!("Question {i}?")}]},
                "response": {"choices": [{"message": {"role": "assistant", "content": reply}}]}})
            .to_string();
            log.push('\n');
        }
        let l = JudgedDocument::read(log.as_bytes(), None);
        assert_eq!(l.transcript.format, Format::Jsonl);
        let all: usize = l.transcript.messages.iter().map(|m| m.text.len()).sum();
        let wire = encode_all(l.clone());
        assert!(wire.pieces.len() > 8, "{} pieces", wire.pieces.len());
        let biggest = wire.pieces.iter().map(Vec::len).max().unwrap_or(0);
        assert!(biggest < 2_000_000, "the largest piece has {biggest} bytes");
        assert!(wire.texts.len() * 2 < all, "texts said before travel once: {} of {all} bytes", wire.texts.len());
        assert_same(&decode(&wire, log.as_bytes()), &l, "");
    }

    #[test]
    fn a_text_with_many_spans_has_them_in_slices() {
        // Two lines taking turns: each occurrence is a span, up to the cap; the rest counted.
        let text = "The same line again.\nAnd the other one.\n".repeat(10_000);
        let l = JudgedDocument::read(text.as_bytes(), None);
        let report = l.report.reports[0].report.whole().expect("a FAIL keeps its report");
        assert!(report.spans.len() > 2 * SPANS_PER_PIECE, "{} spans", report.spans.len());
        assert_eq!(report.spans_not_listed, 20_000 - coherency_core::analyze::line_repeats::MAX_LINE_RUNS);
        let wire = encode_all(l.clone());
        assert!(wire.pieces.len() >= 3, "{} pieces", wire.pieces.len());
        assert_same(&decode(&wire, text.as_bytes()), &l, "");
    }

    #[test]
    fn an_agent_sessions_judgement_comes_back_as_it_went() {
        use coherency_test_support::agent_sessions::generate;
        for kind in ["same_call_same_result", "reasoning_repeats", "test_after_each_edit"] {
            let bytes = generate(kind, 1).to_session_jsonl();
            let l = JudgedDocument::read(&bytes, None);
            let c = &l.report.conversations[0];
            assert!(c.model_turns > 5, "{kind}: a conversation judged across turns");
            // A loop's streams are analysed; a healthy session's turns that move on are not.
            assert_eq!(!c.streams.is_empty(), kind != "test_after_each_edit", "{kind}: its streams");
            assert!(l.report.reports.iter().any(|r| !r.judged), "{kind}: inputs travel as not judged");
            let back = decode(&encode_all(l.clone()), &bytes);
            assert_same(&back, &l, kind);
            let back = back.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back.report.conversations, l.report.conversations, "{kind}");
            let streams = |d: &JudgedDocument| {
                d.report.reports.iter().map(|r| (r.stream, r.author, r.judged)).collect::<Vec<_>>()
            };
            assert_eq!(streams(&back), streams(&l), "{kind}");
        }
    }

    #[test]
    fn a_damaged_wire_is_an_error_not_a_panic() {
        let bytes = fixture("requests.jsonl");
        let mut wire = encode_all(JudgedDocument::read(&bytes, None));
        let last = wire.pieces.pop().unwrap_or_default();
        assert!(decode(&wire, &bytes).is_err(), "a missing piece");
        wire.pieces.push(last[..3].to_vec());
        assert!(decode(&wire, &bytes).is_err(), "a piece cut short");
        wire.pieces.pop();
        wire.pieces.push(last);
        assert!(decode(&wire, &bytes).is_ok());
        wire.texts.pop();
        assert!(decode(&wire, &bytes).is_err(), "texts cut short");
    }
}
