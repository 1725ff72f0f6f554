//! The mock's reference and drifting-kernel models compared as the CLI compares them, over real
//! loopback HTTP: replies streamed and not, with logprobs as OpenAI and vLLM send them, read by
//! the core's `compare`. The reference against itself is identical at `temperature: 0` whatever
//! the seed; the drifting kernel parts where its context puts it, and the comparison says so.

use coherency_core::analyze::{CompareRules, Verdict};
use coherency_core::compare::{compare, judge, read_outputs, Output, Reading, Relation};
use coherency_mock_endpoint::client::post_chat as post;
use coherency_mock_endpoint::{Config, Server};

/// Prompt `k` (its context grows with k), asked of `model`; read as the CLI reads a capture.
fn ask(port: u16, model: &str, k: usize, seed: u64, stream: bool) -> Output {
    let words = "context ".repeat(k * k * 4);
    let body = format!(
        r#"{{"model":"{model}","messages":[{{"role":"user","content":"Prompt {k}: {words}"}}],"max_tokens":150,
            "temperature":0,"seed":{seed},"logprobs":true,"top_logprobs":5,"stream":{stream},"stream_options":{{"include_usage":true}}}}"#
    );
    let read = read_outputs(&format!("prompt {k}"), &post(port, &body));
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    read.outputs.into_iter().next().expect("an output")
}

fn server() -> coherency_mock_endpoint::Running {
    Server::bind(Config { port: 0, delay_ms: 0, quiet: true, ..Config::default() }).unwrap().spawn()
}

#[test]
fn the_reference_against_itself_is_identical_streamed_or_not_whatever_the_seed() {
    let s = server();
    let reference: Vec<Output> = (1..=6).map(|k| ask(s.port(), "mock-reference", k, 1, true)).collect();
    let again: Vec<Output> = (1..=6).map(|k| ask(s.port(), "mock-reference", k, 99, false)).collect();
    assert!(reference.iter().all(|o| o.tokens.len() == 150 && o.has_logprobs() && o.tokens[0].top.len() == 5));
    assert!(reference.iter().all(|o| o.prompt_tokens.is_some()));
    let c = compare(&reference, &again, 0.5);
    assert_eq!((c.identical, c.parted), (6, 0));
    assert_eq!(c.drift.unwrap().value, 0.0);
    let j = judge(&c, None, &CompareRules::DEFAULT);
    assert_eq!((j.verdict, j.reading), (Verdict::Pass, Reading::Identical));
}

#[test]
fn the_drifting_kernel_is_found_at_its_position_and_read_as_a_numerical_fault() {
    let s = server();
    let reference: Vec<Output> = (1..=12).map(|k| ask(s.port(), "mock-reference", k, 1, true)).collect();
    let drifting: Vec<Output> = (1..=12).map(|k| ask(s.port(), "mock-drifting-kernel", k, 1, k % 2 == 0)).collect();
    let again: Vec<Output> = (1..=12).map(|k| ask(s.port(), "mock-reference", k, 5, true)).collect();
    let c = compare(&reference, &drifting, 0.5);
    for p in &c.prompts {
        let context = p.prompt_tokens.unwrap() as usize;
        // The mock's rule: 12,000 ÷ (40 + prompt tokens), at least 4.
        let at = (12_000 / (40 + context)).max(4);
        if at < 150 {
            assert_eq!(p.alignment.outcome, Relation::Parted, "{}", p.id);
            assert_eq!(p.alignment.reference_token, at, "{} with {context} prompt tokens", p.id);
        } else {
            assert_ne!(p.alignment.outcome, Relation::Parted, "{}", p.id);
        }
    }
    assert!(c.parted >= 8, "{}", c.parted);
    assert!(c.parting_with_context.unwrap().value < -0.9, "longer prompts part earlier");
    assert!(c.trend_with_context.unwrap().low > 0.0, "drift grows with context");
    let noise = compare(&reference, &again, 0.5);
    let j = judge(&c, Some(&noise), &CompareRules::DEFAULT);
    assert_eq!((j.verdict, j.reading), (Verdict::Fail, Reading::NumericalFault), "{}", j.sentence);
}
