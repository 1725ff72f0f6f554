//! Result links (`render::result_link`) round-trip every built-in sample and every file under the
//! fixtures directory (inputs and their JSON reports) byte for
//! byte, with a format, a selection and changed thresholds, and a link's length is what the page says; inputs too
//! long for a link are refused, never cut.

use coherency_core::analyze::Thresholds;
use coherency_core::ingest::Format;
use coherency_core::render::result_link::{decode, encode, SharedInput, MAX_LINK_CHARS};
use coherency_core::samples::{capture_samples, samples};
use coherency_test_support::fixtures_dir;

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> =
        samples().into_iter().chain(capture_samples()).map(|s| (s.id.to_string(), s.text.into_bytes())).collect();
    for dir in [fixtures_dir(), fixtures_dir().join("formats")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out
}

#[test]
fn every_sample_and_fixture_comes_back_byte_for_byte() {
    let inputs = inputs();
    assert!(inputs.len() > 100, "{} inputs", inputs.len());
    let (mut linked, mut refused) = (0, 0);
    for (name, bytes) in inputs {
        let mut loosened = Thresholds::SEED;
        loosened.assign("maxline.fail=30").unwrap();
        for (format, selected, thresholds) in [(None, None, Thresholds::SEED), (Some(Format::Jsonl), Some(2), loosened)]
        {
            let input = SharedInput { bytes: bytes.clone(), format, selected, thresholds };
            match encode(&input) {
                Ok(link) => {
                    assert!(link.len() <= MAX_LINK_CHARS);
                    assert_eq!(decode(&link).as_ref(), Ok(&input), "{name}");
                    linked += 1;
                }
                Err(len) => {
                    assert!(len > MAX_LINK_CHARS, "{name}: refused at {len}");
                    refused += 1;
                }
            }
        }
    }
    assert!(linked > 200, "{linked} linked, {refused} refused");
}
