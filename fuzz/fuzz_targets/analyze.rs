//! The analysis of one text: `analyze::analyze` on the input (read as UTF-8, lossily) must not
//! panic and must give spans in range, sorted and on char boundaries; the incremental
//! `Analyzer` fed the same text in up to eight pieces (cut where the input chooses) must give
//! the same report as one push; and the windowed profile fed in byte pieces (as a file is read,
//! cut anywhere, even inside a character) must equal the whole text's.
#![no_main]

use coherency_core::analyze::profile::{profile_with, ProfileBuilder};
use coherency_core::analyze::{analyze, Analyzer};
use coherency_fuzz::{cuts, ranges};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let report = analyze(&text);
    ranges::report(&report, &text);

    let cuts = cuts::char_cuts(&text);
    let mut analyzer = Analyzer::new();
    for piece in cuts::pieces(&text, &cuts) {
        analyzer.push(piece);
    }
    // Compared through Debug so that a NaN figure equals itself.
    assert_eq!(
        format!("{report:?}"),
        format!("{:?}", analyzer.report()),
        "pieces cut at {cuts:?} differ from one push"
    );

    // Small windows, so that a short input has many and a loop in it an onset to place.
    let whole = profile_with(&text, 64, 0.3);
    let bytes = text.as_bytes();
    let mut byte_cuts = cuts.clone();
    byte_cuts.push(cuts::one_offset(data).min(bytes.len()));
    byte_cuts.sort_unstable();
    let mut builder = ProfileBuilder::with(bytes.len(), 64, 0.3);
    let mut from = 0;
    for &cut in byte_cuts.iter().chain([&bytes.len()]) {
        builder.feed(&bytes[from..cut]);
        from = cut;
    }
    assert_eq!(builder.finish().as_ref(), Some(&whole), "profile fed in pieces cut at {byte_cuts:?}");
});
