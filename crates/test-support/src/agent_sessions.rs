//! Labelled agent sessions, seeded and deterministic: healthy work (with the repeats real
//! agents make legitimately) and the loops agents fall into, each written out in the shapes
//! users paste — a Claude-Code-style session log (JSONL), an OpenAI chat request body, an
//! Anthropic Messages request body, an OpenAI Responses request body, and a JSONL request log
//! whose every request repeats the history so far.
//!
//! A [`Session`] is the agent's side of a conversation: a user request, then assistant turns,
//! each with optional reasoning, its text and its tool calls, every call with the result the
//! tool gave. A looping session says at which assistant turn (0-based) the loop starts.

use crate::textgen::{Rng, WORDS};
use serde_json::{json, Value};

/// One tool call and what the tool answered.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub name: String,
    pub args: Value,
    pub result: String,
    pub is_error: bool,
}

/// One assistant turn: reasoning (if any), text, then its tool calls in order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Turn {
    pub reasoning: Option<String>,
    pub text: String,
    pub calls: Vec<Call>,
    /// A user message after this turn (when the turn asks or ends the exchange).
    pub user_after: Option<String>,
}

/// A generated session with its label.
#[derive(Clone, Debug)]
pub struct Session {
    pub kind: &'static str,
    pub looping: bool,
    /// The assistant turn (0-based) where the loop starts.
    pub onset_turn: Option<usize>,
    pub request: String,
    pub turns: Vec<Turn>,
    /// Written with the furniture real logs carry (the session log only: a compaction summary,
    /// progress events, system reminders in tool results, a subagent's sidechain).
    pub noisy: bool,
}

/// The kinds of session, healthy ones first.
pub const HEALTHY: &[&str] = &[
    "varied_work",
    "test_after_each_edit",
    "polling_a_job",
    "reread_after_edit",
    "short_acks",
    "long_tool_log",
    "retry_after_error",
    // Issue 35: the rhythms of ordinary work, which repeat without looping.
    "next_file_please",
    "read_many_files",
    "grep_after_grep",
    "same_command_new_output",
    "formulaic_lines",
    "template_summaries",
    "template_reply",
    "user_repeats_instruction",
    "auto_continue",
    "long_realistic",
];
pub const LOOPING: &[&str] = &[
    "same_call_same_result",
    "ab_cycle",
    "same_reply_every_turn",
    "reasoning_repeats",
    "edit_revert",
    "late_loop",
    "same_error_thrice",
    "plan_restated",
];

/// Every kind, each with `rng_seeds` RNG seeds.
pub fn corpus(rng_seeds: u64) -> Vec<Session> {
    HEALTHY.iter().chain(LOOPING).flat_map(|&k| (0..rng_seeds).map(move |s| generate(k, s))).collect()
}

/// One session of `kind` (one of [`HEALTHY`] or [`LOOPING`]).
pub fn generate(kind: &'static str, seed: u64) -> Session {
    let mut rng = Rng::new(0xA6E_u64.wrapping_mul(seed + 1) ^ kind.len() as u64);
    let files = ["src/date.rs", "src/lib.rs", "src/parse.rs", "tests/date.rs", "src/main.rs", "Cargo.toml"];
    let request = format!("The date test fails on leap years, can you fix it? {}", sentence(&mut rng, 12));
    let mut turns = Vec::new();
    let mut repo = Repo::default();
    let (looping, onset) = match kind {
        "varied_work" => {
            let n = 8 + rng.below(6);
            varied(&mut rng, &mut repo, &mut turns, n, &files);
            (false, None)
        }
        "test_after_each_edit" => {
            for i in 0..long_or(seed, 500, 6 + rng.below(4)) {
                turns.push(edit_turn(&mut rng, &mut repo, files[i % 3], i));
                let passed = 10 + i * 3 + rng.below(3);
                turns.push(turn(
                    &mut rng,
                    "Running the tests again.",
                    vec![call("bash", json!({"cmd": "cargo test"}), &test_result(passed, 3usize.saturating_sub(i)))],
                ));
            }
            (false, None)
        }
        "polling_a_job" => {
            turns.push(turn(
                &mut rng,
                "Starting the build job.",
                vec![call("bash", json!({"cmd": "ci start build"}), "job 4711 started")],
            ));
            let steps = long_or(seed, 1_000, 6 + rng.below(5));
            for i in 0..steps {
                let pct = (i + 1) * 100 / (steps + 1);
                turns.push(turn(
                    &mut rng,
                    "Checking on the job.",
                    vec![call(
                        "bash",
                        json!({"cmd": "ci status 4711"}),
                        &format!("job 4711: running, step {} of {steps}, {pct}% done", i + 1),
                    )],
                ));
            }
            turns.push(turn(
                &mut rng,
                "Checking on the job.",
                vec![call("bash", json!({"cmd": "ci status 4711"}), "job 4711: finished, all 212 tests passed")],
            ));
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        "reread_after_edit" => {
            for (i, f) in files.iter().take(4).enumerate() {
                turns.push(read_turn(&mut rng, &repo, f));
                turns.push(edit_turn(&mut rng, &mut repo, f, i));
                turns.push(read_turn(&mut rng, &repo, f));
            }
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        "short_acks" => {
            for i in 0..10 {
                if i % 3 == 2 {
                    let mut t = turn(&mut rng, "Done.", Vec::new());
                    t.user_after = Some(sentence(&mut rng, 10));
                    turns.push(t);
                } else {
                    varied(&mut rng, &mut repo, &mut turns, 1, &files);
                }
            }
            (false, None)
        }
        "long_tool_log" => {
            varied(&mut rng, &mut repo, &mut turns, 3, &files);
            let log: String = (0..400 + rng.below(200))
                .map(|i| {
                    format!(
                        "Epoch 1: {:>3}%|{:<20}| {i}/600 [00:{:02}<01:40, 5.9it/s]\n",
                        i / 6,
                        "#".repeat(i / 30),
                        i % 60
                    )
                })
                .collect();
            turns.push(turn(
                &mut rng,
                "Training for one epoch.",
                vec![call("bash", json!({"cmd": "python train.py"}), &log)],
            ));
            varied(&mut rng, &mut repo, &mut turns, 3, &files);
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        "retry_after_error" => {
            // A transient error, the same call again, and it works: two identical calls, two results.
            varied(&mut rng, &mut repo, &mut turns, 3, &files);
            let cmd = json!({"cmd": "cargo build"});
            let mut failed =
                call("bash", cmd.clone(), "error: failed to download from `https://index.crates.io`: timed out");
            failed.is_error = true;
            turns.push(turn(&mut rng, "Building the crate.", vec![failed]));
            turns.push(turn(&mut rng, "A network error; trying again.", vec![call("bash", cmd, "Finished in 4.2s")]));
            varied(&mut rng, &mut repo, &mut turns, 3, &files);
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        "same_error_thrice" => {
            // The same failing call three times in a row with the same error, and the session
            // stops there (OpenHands' stuck detector stops an agent at 3 identical action + error pairs).
            let n = 3 + rng.below(4);
            varied(&mut rng, &mut repo, &mut turns, n, &files);
            let onset = turns.len();
            for _ in 0..3 {
                let mut c = call(
                    "Read",
                    json!({"file_path": "src/dates.rs"}),
                    "<tool_use_error>File does not exist: src/dates.rs</tool_use_error>",
                );
                c.is_error = true;
                turns.push(turn(&mut rng, "Let me read the dates module to see the leap year rule.", vec![c]));
            }
            (true, Some(onset))
        }
        "plan_restated" => {
            // The same plan said again each turn with one word changed, behind varied calls.
            varied(&mut rng, &mut repo, &mut turns, 2, &files);
            let onset = turns.len();
            let plan: Vec<String> = format!(
                "Plan: first read the helper, then fix the rule for years divisible by 100, then run the tests. {}",
                sentence(&mut rng, 25)
            )
            .split(' ')
            .map(str::to_string)
            .collect();
            for i in 0..10 {
                let mut words = plan.clone();
                let at = 1 + rng.below(words.len() - 1);
                words[at] = rng.pick(WORDS).to_string();
                let mut t = read_turn(&mut rng, &repo, files[i % files.len()]);
                t.text = words.join(" ");
                turns.push(t);
            }
            (true, Some(onset))
        }
        "same_call_same_result" => {
            varied(&mut rng, &mut repo, &mut turns, 2, &files);
            let onset = turns.len();
            let result = file_body(&mut rng, 0);
            for _ in 0..15 {
                turns.push(turn(
                    &mut rng,
                    "Let me read the helper file to check the February logic.",
                    vec![call("Read", json!({"file_path": "src/date.rs"}), &result)],
                ));
            }
            (true, Some(onset))
        }
        "ab_cycle" => {
            varied(&mut rng, &mut repo, &mut turns, 2, &files);
            let onset = turns.len();
            let body = file_body(&mut rng, 1);
            let failure = test_result(12, 1);
            for i in 0..12 {
                let (what, c) = if i % 2 == 0 {
                    ("I'll look at the helper again.", call("Read", json!({"file_path": "src/date.rs"}), &body))
                } else {
                    ("Now the test.", call("bash", json!({"cmd": "cargo test date"}), &failure))
                };
                turns.push(turn(&mut rng, what, vec![c]));
            }
            (true, Some(onset))
        }
        "same_reply_every_turn" => {
            varied(&mut rng, &mut repo, &mut turns, 2, &files);
            let onset = turns.len();
            let reply = format!("I have fixed the leap year rule. {}", sentence(&mut rng, 30));
            for _ in 0..8 {
                let mut t = turn(&mut rng, &reply, Vec::new());
                t.user_after = Some("The test still fails.".into());
                turns.push(t);
            }
            (true, Some(onset))
        }
        "reasoning_repeats" => {
            varied(&mut rng, &mut repo, &mut turns, 2, &files);
            let onset = turns.len();
            let thought =
                format!("The February length is wrong. {} I should check the helper.", sentence(&mut rng, 40));
            for i in 0..10 {
                let mut t = read_turn(&mut rng, &repo, files[i % files.len()]);
                t.reasoning = Some(thought.clone());
                turns.push(t);
            }
            (true, Some(onset))
        }
        "edit_revert" => {
            varied(&mut rng, &mut repo, &mut turns, 2, &files);
            let onset = turns.len();
            let (a, b) = ("if y % 4 == 0 { 29 } else { 28 }", "if is_leap(y) { 29 } else { 28 }");
            for i in 0..10 {
                let (old, new) = if i % 2 == 0 { (a, b) } else { (b, a) };
                turns.push(turn(
                    &mut rng,
                    "Let me adjust the February rule.",
                    vec![call(
                        "Edit",
                        json!({"file_path": "src/date.rs", "old_string": old, "new_string": new}),
                        "The file src/date.rs has been updated.",
                    )],
                ));
            }
            (true, Some(onset))
        }
        "late_loop" => {
            // Seed 1: after 300 turns of the healthy rhythm the loop then says too (edit, then
            // "Running the tests." with a new count each time), the same words with the same
            // failing result: the formula said again while nothing moves on is the loop.
            let (text, cmd) = if seed == 1 {
                for i in 0..150 {
                    turns.push(edit_turn(&mut rng, &mut repo, files[i % 3], i));
                    let out = test_result(100 + i, i % 3);
                    turns.push(turn(
                        &mut rng,
                        "Running the tests.",
                        vec![call("bash", json!({"cmd": "cargo test"}), &out)],
                    ));
                }
                ("Running the tests.", "cargo test")
            } else {
                varied(&mut rng, &mut repo, &mut turns, 20, &files);
                ("The test still fails; running it again to see the error.", "cargo test date::leap")
            };
            let onset = turns.len();
            let failure = test_result(40, 2);
            for _ in 0..20 {
                turns.push(turn(&mut rng, text, vec![call("bash", json!({"cmd": cmd}), &failure)]));
            }
            (true, Some(onset))
        }
        "next_file_please" => {
            // The same edit on another file each time the user asks, answered "Done." (issue 35).
            let n = long_or(seed, 500, 4 + rng.below(27));
            for i in 0..n {
                let file = format!("src/module_{i:02}.rs");
                let args = json!({"file_path": file, "old_string": "parse_date(", "new_string": "read_date("});
                let mut edit =
                    turn(&mut rng, "", vec![call("Edit", args, &format!("The file {file} has been updated."))]);
                edit.reasoning = None;
                turns.push(edit);
                let mut done = turn(&mut rng, "Done.", Vec::new());
                done.reasoning = None;
                done.user_after = (i + 1 < n).then(|| "Next file, please.".to_string());
                turns.push(done);
            }
            (false, None)
        }
        "read_many_files" => {
            let n = long_or(seed, 1_000, 20 + rng.below(21));
            for i in 0..n {
                let file = format!("src/part_{i:02}.rs");
                let body = file_body(&mut Rng::new(i as u64 + seed * 1000 + 7), i);
                turns.push(turn(
                    &mut rng,
                    "Let me check that file.",
                    vec![call("Read", json!({"file_path": file}), &body)],
                ));
            }
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        "grep_after_grep" => {
            let n = long_or(seed, 1_000, 10 + rng.below(20));
            for i in 0..n {
                let word = format!("{}_{i}", rng.pick(WORDS));
                let hits = format!("{}:{}: {}", files[i % files.len()], 10 + i, sentence(&mut rng, 8));
                turns.push(turn(&mut rng, "Searching again.", vec![call("Grep", json!({"pattern": word}), &hits)]));
            }
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        "same_command_new_output" => {
            // `git status` between edits: the same command, its output changing with the work.
            let n = long_or(seed, 500, 6 + rng.below(10));
            for i in 0..n {
                turns.push(edit_turn(&mut rng, &mut repo, files[i % files.len()], i));
                let status: String =
                    (0..=i.min(files.len() - 1)).map(|k| format!("\tmodified:   {}\n", files[k])).collect();
                let out = format!("On branch fix-leap\nChanges not staged for commit:\n{status}");
                turns.push(turn(
                    &mut rng,
                    "Checking the status.",
                    vec![call("bash", json!({"cmd": "git status"}), &out)],
                ));
            }
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        "formulaic_lines" => {
            // Short set phrases, said again and again while the work moves on.
            let phrases = ["Done.", "Running the tests.", "Let me check that file.", "Looks good."];
            let n = long_or(seed, 1_000, 20 + rng.below(20));
            for i in 0..n {
                let phrase = phrases[i % phrases.len()];
                let c = match i % 3 {
                    0 => call("Read", json!({"file_path": format!("src/unit_{i}.rs")}), &file_body(&mut rng, i)),
                    1 => call("bash", json!({"cmd": "cargo test"}), &test_result(10 + i, usize::from(i % 5 == 1))),
                    _ => {
                        let args =
                            json!({"file_path": format!("src/unit_{i}.rs"), "old_string": "a", "new_string": "b"});
                        call("Edit", args, "The file has been updated.")
                    }
                };
                turns.push(turn(&mut rng, phrase, vec![c]));
            }
            (false, None)
        }
        "template_summaries" => {
            // A summary per file in a fixed template, one file a turn.
            let n = long_or(seed, 1_000, 20 + rng.below(11));
            for i in 0..n {
                let file = format!("src/area_{i:02}.rs");
                let text = format!(
                    "## {file}\n- Purpose: {}\n- Issues: none found.\n- Tests: covered.",
                    sentence(&mut rng, 9)
                );
                let body = file_body(&mut rng, i);
                turns.push(turn(&mut rng, &text, vec![call("Read", json!({"file_path": file}), &body)]));
            }
            (false, None)
        }
        "template_reply" => {
            // Many files read, then one reply holding a summary per file in a fixed template,
            // each item's content its own (issue 35).
            let n = long_or(seed, 300, 24 + rng.below(13));
            let names: Vec<String> = (0..n).map(|i| format!("src/{}_{i}.rs", rng.pick(WORDS))).collect();
            for (i, file) in names.iter().enumerate() {
                let body = file_body(&mut rng, i);
                turns.push(turn(&mut rng, "", vec![call("Read", json!({"file_path": file}), &body)]));
            }
            let shape = seed % 4;
            let mut text = String::from("Here is a summary of each file.\n\n");
            for (i, file) in names.iter().enumerate() {
                let words = 7 + rng.below(8);
                let purpose = sentence(&mut rng, words);
                let item = match shape {
                    0 => format!("### {file}\nPurpose: {purpose}\nStatus: ok\n\n"),
                    1 => {
                        let key = format!("`{}_{}`", rng.pick(WORDS), rng.pick(WORDS));
                        format!("### {file}\n- **Purpose:** {purpose}\n- **Key items:** {key}\n- **Status:** ok\n\n")
                    }
                    2 => format!("{}. `{file}` — {purpose} Status: ok. Tests: passing.\n", i + 1),
                    _ => {
                        let issues = if rng.below(4) == 0 { sentence(&mut rng, 6) } else { "none found.".to_string() };
                        format!("**{file}**\nPurpose: {purpose}\nIssues: {issues}\nTests: covered.\n\n")
                    }
                };
                text.push_str(&item);
            }
            text.push_str("Nothing in these files needs changing for the leap-year fix.");
            turns.push(turn(&mut rng, &text, Vec::new()));
            (false, None)
        }
        "user_repeats_instruction" => {
            // The user asks for the tests again and again (a flaky test): the same call, the same
            // result, each time asked for.
            varied(&mut rng, &mut repo, &mut turns, 2, &files);
            let result = test_result(40, 1);
            let n = long_or(seed, 1_000, 4 + rng.below(5));
            if let Some(last) = turns.last_mut() {
                last.user_after = Some("Run the tests again, please.".into());
            }
            for i in 0..n {
                let mut t =
                    turn(&mut rng, "Running the tests.", vec![call("bash", json!({"cmd": "cargo test"}), &result)]);
                t.user_after = (i + 1 < n).then(|| "Run the tests again, please.".to_string());
                turns.push(t);
            }
            (false, None)
        }
        "auto_continue" => {
            // A harness sends "Continue." after every turn; the agent works on.
            let n = long_or(seed, 1_000, 10 + rng.below(15));
            for _ in 0..n {
                varied(&mut rng, &mut repo, &mut turns, 1, &files);
                if let Some(t) = turns.last_mut() {
                    t.text = format!("Continuing with the next step. {}", t.text);
                    t.user_after = Some("Continue.".into());
                }
            }
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        "long_realistic" => {
            // A long session of ordinary work: reading many files, editing, testing, committing,
            // every rhythm above in turn, up to 1,000 turns, with the noise real logs carry.
            let target = if seed == 0 { 1_000 } else { 120 + 40 * seed as usize };
            let mut i = 0;
            while turns.len() < target {
                i += 1;
                match rng.below(6) {
                    0 => {
                        for k in 0..3 + rng.below(6) {
                            let file = format!("src/m{}_{k}.rs", i);
                            let body = file_body(&mut rng, k);
                            turns.push(turn(
                                &mut rng,
                                "Let me check that file.",
                                vec![call("Read", json!({"file_path": file}), &body)],
                            ));
                        }
                    }
                    1 => {
                        let file = files[i % files.len()];
                        turns.push(edit_turn(&mut rng, &mut repo, file, i));
                        let failed = rng.below(3);
                        let out = test_result(100 + i, failed);
                        turns.push(turn(
                            &mut rng,
                            "Running the tests.",
                            vec![call("bash", json!({"cmd": "cargo test"}), &out)],
                        ));
                    }
                    2 => {
                        let word = format!("{}{i}", rng.pick(WORDS));
                        let hits = format!("{}:{}: {}", files[i % files.len()], i % 300, sentence(&mut rng, 8));
                        turns.push(turn(
                            &mut rng,
                            "Searching for it.",
                            vec![call("Grep", json!({"pattern": word}), &hits)],
                        ));
                    }
                    3 => {
                        let out =
                            format!("[fix-leap {:07x}] step {i}\n 1 file changed, {} insertions(+)", i * 7919, i % 40);
                        let msg = format!("git commit -am 'step {i}'");
                        turns.push(turn(&mut rng, "Committing.", vec![call("bash", json!({"cmd": msg}), &out)]));
                    }
                    4 => {
                        let mut done = turn(&mut rng, "Done.", Vec::new());
                        done.user_after = Some(sentence(&mut rng, 10));
                        varied(&mut rng, &mut repo, &mut turns, 1, &files);
                        turns.push(done);
                    }
                    _ => varied(&mut rng, &mut repo, &mut turns, 2, &files),
                }
            }
            turns.truncate(target - 1);
            final_answer(&mut rng, &mut turns);
            (false, None)
        }
        other => panic!("no session kind {other:?}"),
    };
    let noisy = kind == "long_realistic";
    Session { kind, looping, onset_turn: onset, request, turns, noisy }
}

/// How often a healthy rhythm repeats: `long` times in the session of seed 1 (up to 1,000
/// turns: a rhythm kept up all day), `short` in the others.
fn long_or(seed: u64, long: usize, short: usize) -> usize {
    if seed == 1 {
        long
    } else {
        short
    }
}

/// About `words` words of grammatical prose (`grammar::sentence`s: random words would be word
/// salad), never one word twice in a row (a model's ordinary sentence; "latency latency
/// latency" would be a small loop of its own).
fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut kept: Vec<String> = Vec::new();
    while kept.len() < words {
        for w in crate::grammar::sentence(rng).split_whitespace() {
            if kept.last().map(String::as_str) != Some(w) {
                kept.push(w.to_string());
            }
        }
    }
    kept.truncate(words);
    let mut s = kept.join(" ");
    if !s.ends_with(['.', '?', '!']) {
        s = s.trim_end_matches([',', ';']).to_string() + ".";
    }
    s
}

fn call(name: &str, args: Value, result: &str) -> Call {
    Call { name: name.into(), args, result: result.into(), is_error: false }
}

fn turn(rng: &mut Rng, text: &str, calls: Vec<Call>) -> Turn {
    let reasoning = (rng.below(3) == 0).then(|| {
        let words = 8 + rng.below(12);
        sentence(rng, words)
    });
    Turn { reasoning, text: text.into(), calls, user_after: None }
}

/// The files the agent works on: a file reads the same until it is edited.
#[derive(Default)]
struct Repo {
    edits: std::collections::HashMap<String, usize>,
}

impl Repo {
    /// The file's text now: a function of its name and how often it was edited.
    fn body(&self, file: &str) -> String {
        let version = self.edits.get(file).copied().unwrap_or(0);
        let seed = file.bytes().fold(version as u64 + 1, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
        file_body(&mut Rng::new(seed), version)
    }
}

fn file_body(rng: &mut Rng, salt: usize) -> String {
    format!(
        "// helper {salt}\nfn days_in_feb(y: u32) -> u32 {{ if y % 4 == 0 {{ 29 }} else {{ 28 }} }}\n// {}\n",
        sentence(rng, 10)
    )
}

fn test_result(passed: usize, failed: usize) -> String {
    if failed == 0 {
        format!("running {passed} tests\ntest result: ok. {passed} passed; 0 failed")
    } else {
        format!(
            "running {} tests\ntest date::leap ... FAILED\nassertion failed: days_in_feb(1900) == 28\ntest result: FAILED. {passed} passed; {failed} failed",
            passed + failed
        )
    }
}

fn read_turn(rng: &mut Rng, repo: &Repo, file: &str) -> Turn {
    let text = format!("Reading {file}: {}", sentence(rng, 8));
    turn(rng, &text, vec![call("Read", json!({"file_path": file}), &repo.body(file))])
}

fn edit_turn(rng: &mut Rng, repo: &mut Repo, file: &str, salt: usize) -> Turn {
    *repo.edits.entry(file.to_string()).or_default() += 1;
    let text = format!("Editing {file}: {}", sentence(rng, 10));
    let args = json!({"file_path": file, "old_string": format!("v{salt}"), "new_string": format!("v{}", salt + 1)});
    turn(rng, &text, vec![call("Edit", args, &format!("The file {file} has been updated."))])
}

/// `n` turns of varied work: reads, edits, searches and commands with changing arguments.
fn varied(rng: &mut Rng, repo: &mut Repo, turns: &mut Vec<Turn>, n: usize, files: &[&str]) {
    for _ in 0..n {
        let i = rng.below(1_000);
        let t = match rng.below(4) {
            0 => read_turn(rng, repo, files[i % files.len()]),
            1 => edit_turn(rng, repo, files[i % files.len()], i),
            2 => {
                let word = rng.pick(WORDS).to_string();
                let text = format!("Searching for {word}: {}", sentence(rng, 8));
                let hits = format!("{}:{}: {}", files[i % files.len()], i % 300, sentence(rng, 8));
                turn(rng, &text, vec![call("Grep", json!({"pattern": word}), &hits)])
            }
            _ => {
                let text = format!("Checking the build: {}", sentence(rng, 8));
                let out = format!("Compiling proj v0.{i}.0\nFinished in {}.{}s", 1 + i % 9, i % 10);
                turn(rng, &text, vec![call("bash", json!({"cmd": format!("cargo build -p crate{}", i % 7)}), &out)])
            }
        };
        turns.push(t);
    }
}

fn final_answer(rng: &mut Rng, turns: &mut Vec<Turn>) {
    let text = format!("Fixed: the helper now follows the 100/400 rule. {}", sentence(rng, 20));
    turns.push(turn(rng, &text, Vec::new()));
}

impl Session {
    /// Tool call ids: `call_{turn}_{index}`.
    fn call_id(turn: usize, k: usize) -> String {
        format!("call_{turn}_{k}")
    }

    /// An assistant turn as Anthropic content blocks: thinking, text, tool_use.
    fn assistant_blocks(t: usize, turn: &Turn) -> Vec<Value> {
        let mut blocks = Vec::new();
        if let Some(r) = &turn.reasoning {
            blocks.push(json!({"type": "thinking", "thinking": r}));
        }
        if !turn.text.is_empty() {
            blocks.push(json!({"type": "text", "text": turn.text}));
        }
        for (k, c) in turn.calls.iter().enumerate() {
            blocks.push(json!({"type": "tool_use", "id": Self::call_id(t, k), "name": c.name, "input": c.args}));
        }
        blocks
    }

    /// A Claude-Code-style session log: one JSON object per line (user, assistant content
    /// blocks — thinking, text, tool_use — and tool_result blocks in user lines). A noisy
    /// session also carries a compaction summary line, progress events, system reminders in
    /// some tool results, a compacted history's summary as a user message, and a subagent's
    /// sidechain (a conversation of its own).
    pub fn to_session_jsonl(&self) -> Vec<u8> {
        let mut lines = Vec::new();
        let mut n = 0usize;
        let mut line = |lines: &mut Vec<String>, kind: &str, message: Value| {
            n += 1;
            let v = json!({"type": kind, "sessionId": "s-1", "uuid": format!("u-{n}"), "message": message});
            lines.push(v.to_string());
        };
        if self.noisy {
            lines.push(
                json!({"type": "summary", "summary": "Fixing the leap-year test", "leafUuid": "u-1"}).to_string(),
            );
        }
        line(&mut lines, "user", json!({"role": "user", "content": self.request}));
        for (t, turn) in self.turns.iter().enumerate() {
            if self.noisy && t % 10 == 3 {
                lines.push(
                    json!({"type": "progress", "uuid": format!("p-{t}"), "data": {"type": "hook_progress", "hookEvent": "PostToolUse", "status": "running"}})
                        .to_string(),
                );
            }
            if self.noisy && t == 5 {
                lines.extend(Self::sidechain(t));
            }
            if self.noisy && t > 0 && t == self.turns.len() / 2 {
                let summary = "This session is being continued from a previous conversation that ran out of context. \
                    The conversation is summarized below:\nThe user asked to fix the leap-year test; the helper and \
                    its callers were read and edited, the tests run after each edit.";
                lines.push(
                    json!({"type": "user", "sessionId": "s-1", "uuid": format!("c-{t}"), "isCompactSummary": true,
                                  "message": {"role": "user", "content": summary}})
                    .to_string(),
                );
            }
            let blocks = Self::assistant_blocks(t, turn);
            line(&mut lines, "assistant", json!({"role": "assistant", "content": blocks}));
            for (k, c) in turn.calls.iter().enumerate() {
                let mut content = c.result.clone();
                if self.noisy && t % 7 == 0 {
                    content.push_str("\n\n<system-reminder>\nWhenever you read a file, consider whether it looks malicious.\n</system-reminder>");
                }
                let result = json!({"type": "tool_result", "tool_use_id": Self::call_id(t, k), "content": content, "is_error": c.is_error});
                line(&mut lines, "user", json!({"role": "user", "content": [result]}));
            }
            if let Some(u) = &turn.user_after {
                line(&mut lines, "user", json!({"role": "user", "content": u}));
            }
        }
        let mut out = lines.join("\n");
        out.push('\n');
        out.into_bytes()
    }

    /// A subagent's sidechain (its own conversation, linked by `parentUuid`): asked to find the
    /// callers, it searches once and answers.
    fn sidechain(t: usize) -> Vec<String> {
        let at = |k: usize| format!("side-{t}-{k}");
        let event = |k: usize, kind: &str, message: Value| {
            let parent = if k == 0 { Value::Null } else { json!(at(k - 1)) };
            json!({"type": kind, "sessionId": "s-1", "isSidechain": true, "uuid": at(k), "parentUuid": parent, "message": message})
                .to_string()
        };
        let id = format!("side_call_{t}");
        vec![
            event(0, "user", json!({"role": "user", "content": "Find every caller of days_in_feb in the crate."})),
            event(
                1,
                "assistant",
                json!({"role": "assistant", "content": [{"type": "text", "text": "Searching the crate for callers."},
                    {"type": "tool_use", "id": id, "name": "Grep", "input": {"pattern": "days_in_feb"}}]}),
            ),
            event(
                2,
                "user",
                json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "src/date.rs:12\nsrc/calendar.rs:40\ntests/date.rs:7"}]}),
            ),
            event(
                3,
                "assistant",
                json!({"role": "assistant", "content": "Three callers: the date module, the calendar and the date test."}),
            ),
        ]
    }

    /// The conversation as OpenAI chat `messages` (reasoning as `reasoning_content`, calls as
    /// `tool_calls` with JSON-string arguments, results as `tool` messages).
    pub fn openai_messages(&self) -> Vec<Value> {
        let mut msgs = vec![
            json!({"role": "system", "content": "You are a coding agent."}),
            json!({"role": "user", "content": self.request}),
        ];
        for (t, turn) in self.turns.iter().enumerate() {
            let mut m = json!({"role": "assistant", "content": turn.text});
            if let Some(r) = &turn.reasoning {
                m["reasoning_content"] = json!(r);
            }
            if !turn.calls.is_empty() {
                let calls: Vec<Value> = turn
                    .calls
                    .iter()
                    .enumerate()
                    .map(|(k, c)| json!({"id": Self::call_id(t, k), "type": "function", "function": {"name": c.name, "arguments": c.args.to_string()}}))
                    .collect();
                m["tool_calls"] = json!(calls);
            }
            msgs.push(m);
            for (k, c) in turn.calls.iter().enumerate() {
                msgs.push(json!({"role": "tool", "tool_call_id": Self::call_id(t, k), "content": c.result}));
            }
            if let Some(u) = &turn.user_after {
                msgs.push(json!({"role": "user", "content": u}));
            }
        }
        msgs
    }

    /// A JSONL request log as a proxy writes it: one record per assistant turn, its request
    /// the whole history so far (the replies' reasoning left out, as clients send it back) and
    /// its response that turn as a chat completion; then a last record sending the full
    /// history, answered by an error (the context ran out).
    pub fn to_jsonl_log(&self) -> Vec<u8> {
        let history = self.openai_messages();
        let mut out = String::new();
        // Where each assistant turn is in the history.
        let turns = history.iter().enumerate().filter(|(_, m)| m["role"] == "assistant").map(|(i, _)| i);
        let record = |request: &[Value], response: Value| {
            let sent: Vec<Value> = request.iter().map(without_reasoning).collect();
            json!({"request": {"model": "gpt-4o", "messages": sent}, "response": response}).to_string() + "\n"
        };
        for (k, at) in turns.enumerate() {
            let reply = json!({"id": format!("chatcmpl-{k}"), "object": "chat.completion", "choices": [
                {"index": 0, "message": history[at], "finish_reason": "stop"}]});
            out += &record(&history[..at], reply);
        }
        let overflow = json!({"error": {"message": "This model's maximum context length is 128000 tokens.", "type": "invalid_request_error"}});
        out += &record(&history, overflow);
        out.into_bytes()
    }

    /// An OpenAI Responses request body: `instructions`, then `input` items (messages, reasoning
    /// with its summary, function calls and their outputs), pretty-printed.
    pub fn to_responses_request(&self) -> Vec<u8> {
        let text = |role: &str, kind: &str, text: &str| json!({"type": "message", "role": role, "content": [{"type": kind, "text": text}]});
        let mut input = vec![text("user", "input_text", &self.request)];
        for (t, turn) in self.turns.iter().enumerate() {
            if let Some(r) = &turn.reasoning {
                let summary = json!([{"type": "summary_text", "text": r}]);
                input.push(json!({"type": "reasoning", "id": format!("rs_{t}"), "summary": summary}));
            }
            input.push(text("assistant", "output_text", &turn.text));
            for (k, c) in turn.calls.iter().enumerate() {
                let (id, args) = (Self::call_id(t, k), c.args.to_string());
                input.push(json!({"type": "function_call", "id": format!("fc_{t}_{k}"), "call_id": id, "name": c.name, "arguments": args}));
            }
            for (k, c) in turn.calls.iter().enumerate() {
                input.push(json!({"type": "function_call_output", "call_id": Self::call_id(t, k), "output": c.result}));
            }
            if let Some(u) = &turn.user_after {
                input.push(text("user", "input_text", u));
            }
        }
        let body = json!({"model": "gpt-5", "instructions": "You are a coding agent.", "input": input});
        serde_json::to_vec_pretty(&body).expect("plain data")
    }

    /// An OpenAI chat request body, pretty-printed as people save it.
    pub fn to_openai_request(&self) -> Vec<u8> {
        let body = json!({"model": "gpt-4o", "messages": self.openai_messages()});
        serde_json::to_vec_pretty(&body).expect("plain data")
    }

    /// An Anthropic Messages request body (`tool_use` / `tool_result` blocks).
    pub fn to_anthropic_request(&self) -> Vec<u8> {
        let mut msgs = vec![json!({"role": "user", "content": self.request})];
        for (t, turn) in self.turns.iter().enumerate() {
            let blocks = Self::assistant_blocks(t, turn);
            msgs.push(json!({"role": "assistant", "content": blocks}));
            let mut user: Vec<Value> = turn
                .calls
                .iter()
                .enumerate()
                .map(|(k, c)| json!({"type": "tool_result", "tool_use_id": Self::call_id(t, k), "content": c.result, "is_error": c.is_error}))
                .collect();
            if let Some(u) = &turn.user_after {
                user.push(json!({"type": "text", "text": u}));
            }
            if !user.is_empty() {
                msgs.push(json!({"role": "user", "content": user}));
            }
        }
        let body = json!({"model": "claude-sonnet-4-5", "max_tokens": 4096, "system": "You are a coding agent.", "messages": msgs});
        serde_json::to_vec_pretty(&body).expect("plain data")
    }
}

/// A history message as a client sends it back: without the reply's reasoning.
fn without_reasoning(m: &Value) -> Value {
    let mut m = m.clone();
    if let Some(o) = m.as_object_mut() {
        o.remove("reasoning_content");
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_generates_deterministically_with_its_label() {
        for &k in HEALTHY.iter().chain(LOOPING) {
            let (a, b) = (generate(k, 3), generate(k, 3));
            assert_eq!(a.turns, b.turns, "{k} is deterministic");
            assert_eq!(a.looping, LOOPING.contains(&k));
            assert_eq!(a.onset_turn.is_some(), a.looping, "{k}: a loop has an onset");
            if let Some(o) = a.onset_turn {
                assert!(o < a.turns.len(), "{k}: onset inside the session");
            }
        }
        assert_eq!(generate("late_loop", 0).onset_turn, Some(20));
    }

    #[test]
    fn the_shapes_are_json() {
        let s = generate("ab_cycle", 1);
        for line in String::from_utf8(s.to_session_jsonl()).unwrap().lines() {
            serde_json::from_slice::<Value>(line.as_bytes()).expect("a JSON line");
        }
        let chat: Value = serde_json::from_slice(&s.to_openai_request()).unwrap();
        assert!(chat["messages"].as_array().unwrap().iter().any(|m| m["role"] == "tool"));
        let anthropic: Value = serde_json::from_slice(&s.to_anthropic_request()).unwrap();
        assert!(anthropic["messages"].as_array().unwrap().len() > s.turns.len());
        let responses: Value = serde_json::from_slice(&s.to_responses_request()).unwrap();
        assert!(responses["input"].as_array().unwrap().iter().any(|i| i["type"] == "function_call_output"));
        let log = String::from_utf8(s.to_jsonl_log()).unwrap();
        assert_eq!(log.lines().count(), s.turns.len() + 1, "a record per turn, and the overflow");
        for line in log.lines() {
            let r: Value = serde_json::from_slice(line.as_bytes()).expect("a JSON line");
            let sent = r["request"]["messages"].as_array().unwrap();
            assert!(sent.iter().all(|m| m.get("reasoning_content").is_none()), "reasoning is not sent back");
        }
    }
}
