//! The analysis of one text: `analyze::analyze` on the input (read as UTF-8, lossily) must not
//! panic and must give spans in range, sorted and on char boundaries; the incremental
//! `Analyzer` fed the same text in up to eight pieces (cut where the input chooses) must give
//! the same report as one push.
#![no_main]

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
});
