//! The SSE decoder is sans-IO: for every fixture under `tests/data/formats/`, splitting the
//! input at any byte offset (two feeds), or feeding it one byte at a time, gives exactly the
//! events of one feed. Every offset is tried for each stream capture (`.sse`, `.http`) and each
//! fixture up to 4 KiB; in the bigger JSON and JSONL files, which the decoder sees only when
//! asked to read them as SSE, the offsets within two bytes of a line break and every 29th byte
//! (every offset would be O(n²): 30 s of CI for no more lines of the decoder run). The chat
//! assembler, fed those events as they come, rebuilds the same turns, whatever the dialect.

use coherency_core::ingest::{self, Format};
use coherency_core::stream::{
    decode_all, AnthropicAssembler, Assembler, ChatAssembler, Reply, ResponsesAssembler, SseDecoder, SseEvent,
    StreamInfo,
};
use std::fs;

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir("tests/data/formats")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".expected.json"))
        .map(|p| (p.display().to_string(), fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 10, "fixtures missing");
    out
}

fn feed_in(pieces: &[&[u8]]) -> Vec<SseEvent> {
    let mut d = SseDecoder::new();
    let mut out: Vec<SseEvent> = pieces.iter().flat_map(|p| d.feed(p)).collect();
    out.extend(d.finish());
    out
}

/// The offsets at which `bytes` (the fixture `name`) is split in two.
fn split_offsets(name: &str, bytes: &[u8]) -> Vec<usize> {
    let every = name.ends_with(".sse") || name.ends_with(".http") || bytes.len() <= 4096;
    let near_line_break = |at: usize| bytes[at.saturating_sub(2)..(at + 2).min(bytes.len())].contains(&b'\n');
    (0..=bytes.len()).filter(|&at| every || at % 29 == 0 || at == bytes.len() || near_line_break(at)).collect()
}

#[test]
fn every_split_offset_gives_the_same_events() {
    let files = fixtures();
    let splits: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, (name, bytes))| split_offsets(name, bytes).into_iter().map(move |at| (i, at)))
        .collect();
    let wholes: Vec<Vec<SseEvent>> = files.iter().map(|(_, bytes)| decode_all(bytes)).collect();
    let differ = coherency_test_support::parallel::map(&splits, |&(i, at)| {
        let (name, bytes) = &files[i];
        let (a, b) = bytes.split_at(at);
        (feed_in(&[a, b]) != wholes[i]).then(|| format!("{name} split at byte {at}"))
    });
    let differ: Vec<String> = differ.into_iter().flatten().collect();
    assert!(differ.is_empty(), "the events differ when the input is split: {}", differ.join(", "));
    assert!(splits.len() > 50_000, "{} splits", splits.len());
}

#[test]
fn one_byte_feeds_give_the_same_events() {
    for (name, bytes) in fixtures() {
        let pieces: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(feed_in(&pieces), decode_all(&bytes), "{name}");
    }
}

#[test]
fn events_map_back_onto_the_input() {
    for (name, bytes) in fixtures() {
        for e in decode_all(&bytes) {
            let slice = &bytes[e.range()];
            match &e {
                SseEvent::Message(_) => assert!(
                    [&b"data"[..], b"event", b"id", b"retry"].iter().any(|f| slice.starts_with(f)),
                    "{name}: {e:?}"
                ),
                SseEvent::Comment { .. } => assert!(slice.starts_with(b":"), "{name}: {e:?}"),
                SseEvent::Problem { .. } => {}
            }
        }
    }
}

/// What a live view does: decode each network read, push each event into the dialect's
/// assembler as it completes. Any way of cutting the body gives the same replies.
#[test]
fn live_assembly_matches_whole_file_assembly() {
    for (name, bytes) in fixtures().into_iter().filter(|(n, _)| n.ends_with(".sse")) {
        let check = |pieces: &[&[u8]]| match ingest::detect(&bytes) {
            Format::AnthropicSse => format!("{:?}", live(AnthropicAssembler::new(), pieces)),
            Format::ResponsesSse => format!("{:?}", live(ResponsesAssembler::new(), pieces)),
            _ => format!("{:?}", live(ChatAssembler::new(), pieces)),
        };
        let whole = check(&[&bytes]);
        for size in [1, 7, 64] {
            let pieces: Vec<&[u8]> = bytes.chunks(size).collect();
            assert_eq!(check(&pieces), whole, "{name} in pieces of {size}");
        }
    }
}

fn live<A: Assembler>(mut a: A, pieces: &[&[u8]]) -> (Vec<Reply>, StreamInfo) {
    let mut d = SseDecoder::new();
    let mut take = |events: Vec<SseEvent>| {
        for e in events {
            match e {
                SseEvent::Message(m) => {
                    let _ = a.push_event(m.event.as_deref(), &m.data, m.range);
                }
                SseEvent::Comment { .. } => a.comment(),
                SseEvent::Problem { .. } => {}
            }
        }
    };
    for p in pieces {
        take(d.feed(p));
    }
    take(d.finish());
    a.finish()
}
