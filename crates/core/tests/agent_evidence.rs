//! Evidence for the judgement of agent sessions (issue 12): the labelled sessions of
//! `coherency_test_support::agent_sessions` — healthy work with the repeats real agents make
//! legitimately, and the loops agents fall into, each with the assistant turn where it starts —
//! read in the shapes users paste and judged whole. Prints the confusion table
//! (`cargo test --test integration agent_evidence:: -- --nocapture`) and pins: no healthy session FAILs; every
//! loop FAILs, with its onset at the turn where it was planted.

use crate::support::model_turns;
use coherency_core::analyze::Verdict;
use coherency_core::judge::JudgedDocument;
use coherency_test_support::agent_sessions::{corpus, Session, HEALTHY, LOOPING};
use coherency_test_support::parallel;

/// RNG seeds per kind (`AGENT_EVIDENCE_SEEDS=40` for a bigger run).
fn rng_seeds() -> u64 {
    std::env::var("AGENT_EVIDENCE_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(8)
}

type Writer = fn(&Session) -> Vec<u8>;

/// The longest session written as a request log (each record repeats the history so far).
const MAX_LOGGED_TURNS: usize = 300;

/// The shapes a session is written in, as users paste them.
const SHAPES: &[(&str, Writer)] = &[
    ("session-jsonl", Session::to_session_jsonl),
    ("openai-request", Session::to_openai_request),
    ("anthropic-request", Session::to_anthropic_request),
    ("responses-request", Session::to_responses_request),
    ("jsonl-log", Session::to_jsonl_log),
];

/// One session judged: the conversation's verdict, its onset turn as the assistant turn it is
/// (0-based among the model's turns), what tripped.
struct Outcome {
    verdict: Verdict,
    onset: Option<usize>,
    tripped: String,
    /// The tool-call check's figures: the most identical calls in a row with the same result,
    /// the most copies of a cycle.
    repeat: usize,
    cycle: usize,
}

fn judge(bytes: &[u8]) -> Outcome {
    let doc = JudgedDocument::read(bytes, None);
    let r = &doc.report;
    // The main conversation: the longest (a noisy log has a subagent's sidechain beside it).
    let c = r.conversations.iter().max_by_key(|c| c.turns).expect("a conversation");
    let worst = r.conversations.iter().map(|c| c.verdict).max();
    assert_eq!(r.verdict, worst, "the transcript's verdict is its worst conversation's");
    assert_eq!(worst, Some(c.verdict), "the main conversation is the worst");
    let model_turns = model_turns(&doc.transcript, c.conversation);
    let onset = c.onset_turn.map(|turn| model_turns.iter().position(|&u| u == turn).unwrap_or(usize::MAX));
    let mut tripped = Vec::new();
    if c.tool_calls.level() == c.verdict && c.verdict > Verdict::Pass {
        tripped.push("tool".to_string());
    }
    for &i in &c.streams {
        let s = &r.reports[i];
        if s.report.verdict() == c.verdict && c.verdict > Verdict::Pass {
            let metric = s.report.tripped().map_or("", |m| m.label());
            tripped.push(format!("{}:{metric}", s.stream.map_or("?", |k| k.label())));
        }
    }
    for m in r.reports.iter().filter(|m| m.stream.is_none() && m.judged && m.report.verdict() == c.verdict) {
        if c.verdict > Verdict::Pass {
            tripped.push(format!("message:{}", m.report.tripped().map_or("", |m| m.label())));
        }
    }
    tripped.sort();
    tripped.dedup();
    let (repeat, cycle) = (c.tool_calls.longest_repeat, c.tool_calls.most_cycle_copies);
    Outcome { verdict: c.verdict, onset, tripped: tripped.join(" "), repeat, cycle }
}

#[test]
fn healthy_sessions_never_fail_and_every_loop_fails_at_its_planted_turn() {
    let sessions = corpus(rng_seeds());
    // Every (shape, session) judged on every core first; the table is then read in order.
    let jobs: Vec<(usize, usize)> = (0..SHAPES.len())
        .flat_map(|shape| (0..sessions.len()).map(move |s| (shape, s)))
        // A request log repeats the history in every record: its size grows with the
        // square of the turns; the longest sessions are judged in the other shapes.
        .filter(|&(shape, s)| SHAPES[shape].0 != "jsonl-log" || sessions[s].turns.len() <= MAX_LOGGED_TURNS)
        .collect();
    let outcomes: std::collections::HashMap<(usize, usize), Outcome> =
        jobs.iter().copied().zip(parallel::map(&jobs, |&(shape, s)| judge(&(SHAPES[shape].1)(&sessions[s])))).collect();
    let mut problems = Vec::new();
    println!(
        "{:<22} {:<20} {:>4} {:>4} {:>4}  {:>9}  {:>6} {:>6}  tripped (per session)",
        "kind", "shape", "PASS", "WARN", "FAIL", "onset ok", "repeat", "cycle"
    );
    for (shape_index, &(shape, _)) in SHAPES.iter().enumerate() {
        for kind in HEALTHY.iter().chain(LOOPING) {
            let mut counts = [0usize; 3];
            let (mut onsets_ok, mut tripped) = (0, std::collections::BTreeMap::<String, usize>::new());
            let (mut repeats, mut cycles) = (Vec::new(), Vec::new());
            for (index, s) in sessions.iter().enumerate().filter(|(_, s)| s.kind == *kind) {
                let Some(o) = outcomes.get(&(shape_index, index)) else { continue };
                counts[o.verdict as usize] += 1;
                *tripped.entry(o.tripped.clone()).or_default() += 1;
                repeats.push(o.repeat);
                cycles.push(o.cycle);
                if s.looping {
                    let planted = s.onset_turn;
                    if o.verdict == Verdict::Fail && o.onset == planted {
                        onsets_ok += 1;
                    } else {
                        problems.push(format!(
                            "{kind} ({shape}): {:?} with onset at model turn {:?}, planted at {planted:?} [{}]",
                            o.verdict, o.onset, o.tripped
                        ));
                    }
                } else if o.verdict > Verdict::Pass {
                    problems.push(format!("healthy {kind} ({shape}) {} [{}]", o.verdict.as_str(), o.tripped));
                }
            }
            let tripped: Vec<String> = tripped.into_iter().map(|(k, n)| format!("{n}× {k}")).collect();
            let judged: usize = counts.iter().sum();
            let onset = if LOOPING.contains(kind) { format!("{onsets_ok}/{judged}") } else { "-".into() };
            let range = |v: &[usize]| {
                let (lo, hi) = (v.iter().min().unwrap_or(&0), v.iter().max().unwrap_or(&0));
                if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}–{hi}")
                }
            };
            println!(
                "{kind:<22} {shape:<20} {:>4} {:>4} {:>4}  {onset:>9}  {:>6} {:>6}  {}",
                counts[0],
                counts[1],
                counts[2],
                range(&repeats),
                range(&cycles),
                tripped.join(", ")
            );
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
