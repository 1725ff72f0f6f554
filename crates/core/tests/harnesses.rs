//! The agent harnesses' session files (issue 20): every labelled session of
//! `coherency_test_support::agent_sessions` written as each harness writes it
//! (`agent_harnesses`), detected from its first 4 KB as that harness and never as another
//! format, read, and judged whole. Prints the confusion table per harness
//! (`cargo test --test integration harnesses:: -- --nocapture`) and pins: every healthy session PASSes (no
//! WARN, no FAIL); every loop FAILs — where the harness merges reasoning and reply too (see
//! `merged`) —, with its onset within one of the model's turns of where it was planted.

use crate::support::model_turns;
use coherency_core::analyze::Verdict;
use coherency_core::ingest::{detect, Format};
use coherency_core::judge::JudgedDocument;
use coherency_test_support::agent_harnesses::Harness;
use coherency_test_support::agent_sessions::{corpus, HEALTHY, LOOPING};
use coherency_test_support::parallel;

fn format_of(h: Harness) -> Format {
    match h {
        Harness::Opencode => Format::Opencode,
        Harness::Codex => Format::CodexJsonl,
        Harness::GeminiCli => Format::GeminiCli,
        Harness::Cline => Format::Cline,
        Harness::OpenHands => Format::OpenHands,
        Harness::SweAgent => Format::SweAgent,
        Harness::Aider => Format::Aider,
    }
}

/// Whether `h` writes a turn's reasoning and reply as one text (OpenHands' and SWE-agent's
/// `thought`, without markers between them), and `kind` is a loop in one of the two only: the
/// same reasoning behind new replies, the same reply after new reasoning, a plan re-stated with
/// edits. Each turn's text is then half new: the loop shows as copies across turns in the
/// replies' stream, and its onset may be found a turn early.
fn merged(h: Harness, kind: &str) -> bool {
    matches!(h, Harness::OpenHands | Harness::SweAgent)
        && matches!(kind, "reasoning_repeats" | "same_reply_every_turn" | "plan_restated")
}

/// RNG seeds per kind (`HARNESS_EVIDENCE_SEEDS=20` for a bigger run).
fn rng_seeds() -> u64 {
    std::env::var("HARNESS_EVIDENCE_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4)
}

/// One harness file read and judged: the format detected from its first 4 KB (the whole
/// file's detected format when that differs), the verdict, the onset as the model's turn
/// (0-based among its turns), the first reason.
struct Judged {
    detected_from_start: Format,
    verdict: Verdict,
    onset: Option<usize>,
    first_reason: Option<String>,
}

fn judge_as(h: Harness, bytes: &[u8]) -> Judged {
    let head = detect(&bytes[..bytes.len().min(4096)]);
    let whole = detect(bytes);
    let detected_from_start = if head == format_of(h) { whole } else { head };
    let doc = JudgedDocument::read(bytes, None);
    let verdict = doc.report.verdict.unwrap_or(Verdict::Pass);
    let c = doc.report.conversations.iter().max_by_key(|c| c.verdict).expect("a conversation");
    let model_turns = model_turns(&doc.transcript, c.conversation);
    let onset = c.onset_turn.and_then(|t| model_turns.iter().position(|&u| u == t));
    Judged { detected_from_start, verdict, onset, first_reason: c.reasons.first().map(|r| format!("{r:?}")) }
}

#[test]
fn every_harness_file_is_detected_from_its_start_and_judged() {
    let sessions = corpus(rng_seeds());
    // Every (harness, session) read and judged on every core first; the table is then read in order.
    let jobs: Vec<(Harness, usize)> =
        Harness::ALL.into_iter().flat_map(|h| (0..sessions.len()).map(move |s| (h, s))).collect();
    let judged = parallel::map(&jobs, |&(h, s)| judge_as(h, &sessions[s].to_harness(h)));
    let judged: std::collections::HashMap<(Harness, usize), Judged> = jobs.into_iter().zip(judged).collect();
    let mut problems = Vec::new();
    println!(
        "{:<22} {:<12} {:>5} {:>5} {:>5}  onset (model turn: planted → found)",
        "kind", "harness", "PASS", "WARN", "FAIL"
    );
    for h in Harness::ALL {
        for kind in HEALTHY.iter().chain(LOOPING) {
            let mut counts = [0usize; 3];
            let mut onsets = Vec::new();
            for (index, s) in sessions.iter().enumerate().filter(|(_, s)| s.kind == *kind) {
                let Judged { detected_from_start, verdict, onset, first_reason } = &judged[&(h, index)];
                let (verdict, onset) = (*verdict, *onset);
                if *detected_from_start != format_of(h) {
                    problems.push(format!("{kind} as {h:?}: detected {} from its start", detected_from_start.name()));
                }
                counts[verdict as usize] += 1;
                if s.looping {
                    onsets.push(format!(
                        "{}→{}",
                        s.onset_turn.unwrap_or(0),
                        onset.map_or("-".into(), |o| o.to_string())
                    ));
                    if verdict != Verdict::Fail {
                        problems.push(format!("{kind} as {h:?}: looping, judged {}", verdict.as_str()));
                    } else if onset
                        .zip(s.onset_turn)
                        .is_none_or(|(o, p)| o.abs_diff(p) > 1 || (o != p && !merged(h, kind)))
                    {
                        problems.push(format!("{kind} as {h:?}: onset {onset:?}, planted {:?}", s.onset_turn));
                    }
                } else if verdict > Verdict::Pass {
                    problems.push(format!("{kind} as {h:?}: healthy, judged {}: {:?}", verdict.as_str(), first_reason));
                }
            }
            onsets.dedup();
            println!(
                "{kind:<22} {:<12} {:>5} {:>5} {:>5}  {}",
                format_of(h).name(),
                counts[0],
                counts[1],
                counts[2],
                onsets.join(" ")
            );
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// The fixtures under `tests/data/formats/harness_*`: for each harness, a healthy session and a
/// looping one, as the generator writes them (their goldens are `golden.rs`'s). Written with
/// `UPDATE_GOLDEN=1`; otherwise held equal to the generator's output.
#[test]
fn each_harness_has_a_healthy_and_a_looping_fixture() {
    use coherency_test_support::agent_sessions::generate;
    for h in Harness::ALL {
        let ext = h.file_name().rsplit('.').next().unwrap_or("txt");
        for (label, kind) in [("healthy", "varied_work"), ("loop", "same_call_same_result")] {
            let name = format!("formats/harness_{}_{label}.{ext}", format_of(h).name().replace('-', "_"));
            let path = coherency_test_support::fixture(&name);
            let bytes = generate(kind, 0).to_harness(h);
            let text = String::from_utf8(bytes).expect("a harness writes UTF-8");
            coherency_test_support::golden::assert_golden(&path, &text);
            let saved = std::fs::read(&path).expect("the fixture");
            let doc = JudgedDocument::read(&saved, None);
            assert_eq!(doc.detected, format_of(h), "{name}");
            let verdict = doc.report.verdict.unwrap_or(Verdict::Pass);
            match label {
                "loop" => assert_eq!(verdict, Verdict::Fail, "{name}"),
                _ => assert!(verdict < Verdict::Fail, "{name}: {verdict:?}"),
            }
        }
    }
}
