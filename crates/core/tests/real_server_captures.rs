//! Live mode on real streams: two SSE captures of the llama.cpp server of
//! `../shared/real-endpoint` (llama-cpp-python 0.3.36, tiny llama models with random weights),
//! taken with curl from its `/v1/chat/completions` and kept in `tests/data/real_server/`:
//! `tiny-random-llama` at temperature 1 (gibberish: words of its vocabulary glued into
//! non-words, `segmentheart fivecausewrong …`) and `tiny-random-llama-loopy` at temperature 0
//! (`pitchtail meetchick` over and over). Fed to a live session in small pieces as a stream
//! arrives, each is flagged while it streams — the gibberish by token soup, the loop by the
//! loop check — and not as the other.

use coherency_core::analyze::{Metric, Report, Verdict};
use coherency_core::live::session::{Ending, LiveSession};

/// The content report after each piece of `capture` fed to a live session, and the final one.
fn stream(capture: &[u8]) -> (Vec<Report>, Report) {
    let mut session = LiveSession::new(0.0);
    session.headers(1.0);
    let mut seen = Vec::new();
    for (i, piece) in capture.chunks(97).enumerate() {
        session.feed(piece, 2.0 + i as f64);
        seen.push(session.reports().1);
    }
    session.end(Ending::Closed, 1e6);
    let last = session.reports().1;
    (seen, last)
}

#[test]
fn a_random_models_gibberish_is_flagged_while_it_streams() {
    let (seen, last) = stream(include_bytes!("data/real_server/random_llama_t1.sse"));
    let first = seen.iter().position(|r| r.check(Metric::TokenSoup).level == Verdict::Fail);
    let first = first.expect("token soup FAILs before the stream ends");
    assert!(first < seen.len() * 3 / 4, "flagged at piece {first} of {}", seen.len());
    assert_eq!((last.verdict, last.check(Metric::TokenSoup).level), (Verdict::Fail, Verdict::Fail));
    assert!(last.onset.is_some_and(|o| o < 40), "{:?}", last.onset);
    let why = last.reasons.iter().find(|r| r.starts_with("token soup")).expect("a reason");
    assert!(why.contains("words of no language"), "{why}");
    assert_eq!(last.check(Metric::Loop).level, Verdict::Pass, "gibberish is not a loop: {:?}", last.reasons);
}

#[test]
fn a_random_models_loop_is_flagged_as_a_loop() {
    let (seen, last) = stream(include_bytes!("data/real_server/random_llama_loopy_t0.sse"));
    assert!(seen.iter().any(|r| r.verdict == Verdict::Fail), "FAIL while it streams");
    assert_eq!((last.verdict, last.check(Metric::Loop).level), (Verdict::Fail, Verdict::Fail));
    assert!(last.reasons[0].contains("'pitchtail meetchick '"), "{:?}", last.reasons);
}
