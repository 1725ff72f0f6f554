//! Format detection and every reader: the first byte picks a format (`Format::ALL[b]`, or
//! detection through `ingest::read` when it is past the list), the rest is the document. No
//! panic; every message's source and diagnostic's range inside the document.
#![no_main]

use coherency_core::ingest::{self, Format};
use coherency_fuzz::ranges;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, doc)) = data.split_first() else { return };
    let transcript = match Format::ALL.get(usize::from(pick)) {
        Some(&format) => ingest::parse(doc, format),
        None => ingest::read(doc),
    };
    ranges::transcript(&transcript, doc.len());
});
