//! The range invariants: every byte range a reader, the decoder, an assembler or the analysis
//! gives back lies inside its input (`start <= end <= len`), and the analysis's spans are
//! sorted and on char boundaries of the analysed text. Each check panics (= a crash for
//! libFuzzer) with what was out of place.

use coherency_core::analyze::Report;
use coherency_core::ingest::Transcript;
use coherency_core::stream::{Reply, StreamProblem};
use std::ops::Range;

/// `range` lies in `0..=len`, start before end.
pub fn in_input(what: &str, range: &Range<usize>, len: usize) {
    assert!(range.start <= range.end && range.end <= len, "{what}: range {range:?} outside the input of {len} bytes");
}

/// Every message's source and every diagnostic's range lie in the input of `len` bytes.
pub fn transcript(t: &Transcript, len: usize) {
    for m in &t.messages {
        in_input("message source", &m.source, len);
    }
    for d in &t.diagnostics {
        in_input("diagnostic", &d.range, len);
    }
}

/// Every reply's reasoning, content and tool-call sources lie in the input.
pub fn turns(turns: &[Reply], len: usize) {
    for t in turns {
        for r in t.reasoning_source.iter().chain(&t.content_source) {
            in_input("turn source", r, len);
        }
        for c in &t.tool_calls {
            if let Some(r) = &c.source {
                in_input("tool call source", r, len);
            }
        }
    }
}

/// Every stream problem's range lies in the input.
pub fn problems(problems: &[StreamProblem], len: usize) {
    for p in problems {
        in_input("stream problem", &p.range, len);
    }
}

/// The report's spans, onset and figures lie in `text`, on char boundaries; spans sorted.
pub fn report(r: &Report, text: &str) {
    assert_eq!(r.bytes, text.len(), "report bytes");
    let on_boundary = |what: &str, at: usize| {
        assert!(text.is_char_boundary(at), "{what} {at} is not on a char boundary of the {} bytes", text.len());
    };
    let mut previous = 0;
    for s in &r.spans {
        in_input("span", &(s.start..s.end), text.len());
        on_boundary("span start", s.start);
        on_boundary("span end", s.end);
        assert!(s.start >= previous, "spans not sorted by start: {} after {previous}", s.start);
        previous = s.start;
        if let Some(source) = s.source {
            assert!(source <= s.start, "a copy's source {source} after its copy at {}", s.start);
        }
    }
    if let Some(onset) = r.onset {
        on_boundary("onset", onset);
    }
    if let Some(t) = &r.metrics.tandem {
        in_input("tandem figure", &(t.start..t.end), text.len());
    }
    if let Some(c) = &r.metrics.copy {
        in_input("copy figure", &(c.start..c.end), text.len());
    }
}
