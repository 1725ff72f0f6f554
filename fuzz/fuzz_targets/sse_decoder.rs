//! The SSE decoder (`stream/sse.rs`): no panic, every event's range inside the input, and the
//! input fed in two pieces (cut at an offset the input chooses) gives the same events as fed
//! whole.
#![no_main]

use coherency_core::stream::SseDecoder;
use coherency_fuzz::{cuts::one_offset, ranges};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut whole = SseDecoder::new();
    let mut events = whole.feed(data);
    events.extend(whole.finish());
    for e in &events {
        ranges::in_input("event", &e.range(), data.len());
    }

    let at = one_offset(data);
    let mut cut = SseDecoder::new();
    let mut cut_events = cut.feed(&data[..at]);
    cut_events.extend(cut.feed(&data[at..]));
    cut_events.extend(cut.finish());
    assert_eq!(events, cut_events, "events differ when cut at {at}");
});
