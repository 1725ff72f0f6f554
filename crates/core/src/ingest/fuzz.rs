//! Property tests: no parser panics or hangs on arbitrary bytes, and the SSE decoder and the
//! JSONL log reader give the same result however their input is cut.

use super::jsonl::{self, LogReader};
use super::{detect, parse, Format};
use crate::stream::{decode_all, SseDecoder};
use proptest::prelude::*;

/// Bytes that look a bit like the formats (so parsers get past their first checks), mixed
/// with arbitrary bytes.
fn inputs() -> impl Strategy<Value = Vec<u8>> {
    let pieces: Vec<&'static [u8]> = vec![
        b"HTTP/1.1 200 OK\r\n",
        b"data: ",
        b"event: ",
        b": ping\n",
        b"\n",
        b"\r\n",
        b"\r",
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b",",
        b":",
        b"\\u00e9",
        b"\\ud83d",
        b"[DONE]",
        b"{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"",
        b"<think>",
        b"</think>",
        b"\"type\":\"content_block_delta\"",
        b"\"type\":\"response.output_text.delta\",\"delta\":\"",
        b"\"message\":{\"role\":\"assistant\",\"content\":",
        b"\"done\":true",
        b"{\"type\":\"assistant\",\"sessionId\":\"s\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"",
        b"\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"arguments\":\"",
        b"{\"request\":{\"messages\":[",
        b"{\"model\":\"m\",\"system\":\"s\",\"messages\":[{\"role\":\"user\",\"content\":\"",
        b"{\"role\":\"assistant\",\"content\":\"a\"},",
        b"{\"role\":\"tool\",\"tool_call_id\":\"c\",\"content\":\"",
        b"\"function_call\":{\"name\":\"f\",\"arguments\":\"",
        b"{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\",\"input\":{",
        b"{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":[",
        b"{\"type\":\"thinking\",\"thinking\":\"",
        b"{\"instructions\":\"i\",\"input\":[",
        b"{\"type\":\"function_call\",\"call_id\":\"c\",\"arguments\":\"",
        b"{\"type\":\"function_call_output\",\"call_id\":\"c\",\"output\":\"",
        b"{\"type\":\"reasoning\",\"summary\":[{\"text\":\"",
        b"\"response\":{\"object\":\"response\",\"output\":[",
        b"\"response\":{\"type\":\"message\",\"content\":[",
        b"\xEF\xBB\xBF",
        b"\xff",
        b"\xc3",
        b"\0",
    ];
    let piece =
        prop_oneof![prop::sample::select(pieces).prop_map(|p| p.to_vec()), prop::collection::vec(any::<u8>(), 0..8),];
    prop::collection::vec(piece, 0..40).prop_map(|ps| ps.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn no_parser_panics(input in inputs()) {
        let _ = detect(&input);
        for f in Format::ALL {
            let t = parse(&input, f);
            for m in &t.messages {
                prop_assert!(m.source.start <= m.source.end && m.source.end <= input.len());
            }
            for d in &t.diagnostics {
                prop_assert!(d.range.start <= d.range.end && d.range.end <= input.len());
            }
        }
    }

    #[test]
    fn a_jsonl_log_does_not_depend_on_cuts(input in inputs(), cuts in prop::collection::vec(any::<usize>(), 0..6)) {
        let whole = jsonl::parse(&input);
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (input.len() + 1)).collect();
        cuts.sort_unstable();
        let mut r = LogReader::new();
        let mut from = 0;
        for c in cuts.into_iter().chain(std::iter::once(input.len())) {
            r.feed(&input[from..c]);
            from = c;
        }
        prop_assert_eq!(r.finish(), whole);
    }

    #[test]
    fn sse_events_do_not_depend_on_cuts(input in inputs(), cuts in prop::collection::vec(any::<usize>(), 0..6)) {
        let whole = decode_all(&input);
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (input.len() + 1)).collect();
        cuts.sort_unstable();
        let mut d = SseDecoder::new();
        let mut got = Vec::new();
        let mut from = 0;
        for c in cuts.into_iter().chain(std::iter::once(input.len())) {
            got.extend(d.feed(&input[from..c]));
            from = c;
        }
        got.extend(d.finish());
        prop_assert_eq!(got, whole);
    }
}
