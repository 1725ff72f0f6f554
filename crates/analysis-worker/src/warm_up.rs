//! Warming the analysis up: the page runs [`warm_up_in_worker`] once in a worker when it loads,
//! so that V8 compiles the analysis's hot functions with its optimizing compiler before the first
//! big file comes.
//!
//! V8 first compiles a wasm module with its baseline compiler and recompiles a function with the
//! optimizing one only once it has run for a while — and a call that is already running stays in
//! the baseline code until it returns (there is no on-stack replacement for wasm). The analysis
//! makes a few calls that each run over a whole text (the tokenizer, the scorers, the incoherence
//! checks), so on a big file they ran their whole length in baseline code: measured in V8 (node,
//! the worker's wasm, 20 MB of prose), a first analysis took 8.2–8.5 s and the same analysis run
//! again 5.3–5.7 s; after a warm-up over 16–64 KB of text, the first took 5.9–6.3 s. Chromium's
//! newer V8 loses far less (50 MB of prose in the page: 5,469 ms with the warm-up, 5,751
//! without, mostly the early verdict on the first 2 MiB; docs/speed.md). The compiled code
//! belongs to the module, which the page compiles once and hands to every worker, so one
//! warm-up serves the workers started after it.
//!
//! The warm-up runs the same functions a file's analysis runs, on small inputs made here: a plain
//! text read and judged as a file is (and both of the ways a long text is shared between two
//! workers: the first worker's part and the second's side passes fed in pieces), a request log
//! (JSONL) and every built-in sample (loops, CJK, a streamed capture).

use coherency_core::analyze::side_passes::SidePassCounter;
use coherency_core::analyze::{analyze_without_side_passes, Thresholds};
use coherency_core::judge::JudgedDocument;
use coherency_core::live::needle::filler;
use coherency_core::samples;
use coherency_core::splitmix::Rng;
use coherency_worker_wire::wire::encode;
use wasm_bindgen::prelude::*;

/// About how many bytes of prose the warm-up reads (enough, measured, for V8 to optimize the
/// functions that run over a whole text; small enough to take about a tenth of a second).
const PROSE_BYTES: usize = 16 << 10;

/// Prose of about `len` bytes: paragraphs of filler.
fn prose(len: usize) -> String {
    let mut rng = Rng::new(7);
    let mut text = String::with_capacity(len + 256);
    while text.len() < len {
        text.push_str(&paragraph(&mut rng));
        text.push_str("\n\n");
    }
    text
}

/// A paragraph of the needle probe's filler sentences.
fn paragraph(rng: &mut Rng) -> String {
    (0..rng.between(2, 6)).map(|_| filler::sentence(rng)).collect::<Vec<_>>().join(" ")
}

/// A request log of `records` lines (JSONL), as a server or proxy writes one: each a request
/// whose history grows through a session and the reply to it, with reasoning.
fn request_log(records: usize) -> String {
    let mut rng = Rng::new(11);
    let mut history = Vec::new();
    let mut log = String::new();
    for record in 0..records {
        if record % 4 == 0 {
            history = vec![serde_json::json!({"role": "system", "content": paragraph(&mut rng)})];
        }
        history.push(serde_json::json!({"role": "user", "content": filler::question(&mut rng)}));
        let (reasoning, content) = (paragraph(&mut rng), paragraph(&mut rng));
        let line = serde_json::json!({
            "request": {"model": "m", "messages": history},
            "response": {"id": format!("chatcmpl-{record}"), "object": "chat.completion", "choices": [{
                "index": 0,
                "message": {"role": "assistant", "reasoning_content": reasoning, "content": content},
                "finish_reason": "stop",
            }]},
        });
        log.push_str(&line.to_string());
        log.push('\n');
        history.push(serde_json::json!({"role": "assistant", "content": content}));
    }
    log
}

/// Runs the analysis's hot functions once on small inputs (see the module's header); returns
/// how many bytes it read (little-endian, 8 bytes: a buffer, as every job's answer is).
#[wasm_bindgen(js_name = warmUpInWorker)]
pub fn warm_up_in_worker() -> Vec<u8> {
    (warm_up() as u64).to_le_bytes().to_vec()
}

/// [`warm_up_in_worker`]'s work: how many bytes it read (so that nothing is optimized away).
fn warm_up() -> usize {
    let thresholds = Thresholds::default();
    let text = prose(PROSE_BYTES);
    let mut read = 0;

    // A long text's two shares, as two workers count them.
    let first = analyze_without_side_passes(&text, &thresholds);
    if let Some(mut counter) = SidePassCounter::new(text.len(), &thresholds) {
        for piece in text.as_bytes().chunks(16 << 10) {
            counter.feed(piece);
        }
        if let Some(passes) = counter.finish() {
            read += first.finish(&text, passes).bytes;
        }
    }

    // The same text, and every sample, read and judged as a file is, and encoded for the page.
    let samples = samples::samples().into_iter().chain(samples::capture_samples());
    let inputs = [text, request_log(24)].into_iter().chain(samples.map(|s| s.text));
    for input in inputs {
        let document = JudgedDocument::read(input.as_bytes(), None);
        read += document.size;
        encode(document, &mut |_| (), &mut |_| ());
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warm_up_reads_prose_a_log_and_every_sample() {
        let samples: usize = samples::samples().iter().chain(&samples::capture_samples()).map(|s| s.text.len()).sum();
        let log = request_log(24);
        assert_eq!(log.lines().count(), 24);
        assert!(log.lines().all(|l| serde_json::from_slice::<serde_json::Value>(l.as_bytes()).is_ok()));
        let read = warm_up();
        // The prose twice (as two shares, then as a file), the log, the samples.
        assert!(read >= 2 * PROSE_BYTES + log.len() + samples, "{read}");
        assert_eq!(warm_up_in_worker(), (read as u64).to_le_bytes());
    }

    #[test]
    fn the_log_reads_as_a_log_of_conversations() {
        let document = JudgedDocument::read(request_log(8).as_bytes(), None);
        assert_eq!(document.detected.name(), "jsonl");
        assert!(document.transcript.messages.len() > 8 * 2, "{}", document.transcript.messages.len());
    }
}
