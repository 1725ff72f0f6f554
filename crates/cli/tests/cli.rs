//! The `coherency` command line as a user runs it: files, stdin, exit codes, JSON fields,
//! invalid UTF-8 and unreadable inputs.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `coherency` in the core's crate directory, so that fixtures are `tests/data/…` as in
/// the core's own tests (and the file names the CLI prints are those).
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_coherency"))
        .current_dir(coherency_test_support::workspace_root().join("crates/core"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_slice(l.as_bytes()).unwrap())
        .collect()
}

fn temp_file(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("coherency-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn exit_code_is_the_worst_verdict() {
    assert_eq!(run(&["analyze", "tests/data/warn_list.txt"], b"").status.code(), Some(1));
    assert_eq!(run(&["analyze", "tests/data/line_x400.txt"], b"").status.code(), Some(2));
    assert_eq!(run(&["analyze", "tests/data/warn_list.txt", "tests/data/the_x4000.txt"], b"").status.code(), Some(2));
    let prose = "src/samples/prose.txt";
    assert_eq!(run(&["analyze", prose], b"").status.code(), Some(0));
}

#[test]
fn json_has_the_stable_fields() {
    let out = run(&["analyze", "--json", "tests/data/line_x400.txt", "tests/data/the_x4000.txt"], b"");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    let r = &lines[0];
    assert_eq!(r["schema_version"], 1);
    assert_eq!(r["file"], "tests/data/line_x400.txt");
    assert_eq!(r["bytes"], 17_599);
    assert_eq!(r["verdict"], "FAIL");
    assert_eq!(r["seed_verdict"], "FAIL");
    assert_eq!((r["tripped"].as_str(), r["onset"].as_u64()), (Some("loop"), Some(0)));
    assert!(r["reasons"][0].as_str().unwrap().starts_with("loop 100 %: from byte 0 the line 'All work and no play"));
    assert!(r["reasons"][3].as_str().unwrap().starts_with("maxline 400 ≥ 12: the line 'All work and no play"));
    let tandem = &r["metrics"]["tandem"];
    assert_eq!((tandem["level"].as_str(), tandem["count"].as_u64()), (Some("line"), Some(400)));
    assert!(r["metrics"]["profile"]["windows"].as_array().unwrap().len() >= 4);
    assert_eq!(r["metrics"]["distinct"].as_array().unwrap().len(), 4);
    let checks: Vec<&str> = r["checks"].as_array().unwrap().iter().map(|c| c["metric"].as_str().unwrap()).collect();
    assert_eq!(
        checks,
        [
            "maxrun",
            "maxline",
            "gzip_ratio",
            "loop",
            "copies",
            "profile",
            "template_leak",
            "token_soup",
            "word_salad",
            "drift"
        ]
    );
    assert_eq!(r["metrics"]["maxrun"], 1);
    assert_eq!(r["metrics"]["maxline"], 400);
    assert_eq!(format!("{:.4}", r["metrics"]["gzip_ratio"].as_f64().unwrap()), "0.0074");
    let spans = r["spans"].as_array().unwrap();
    assert_eq!(spans.len(), 2, "400 repeated lines back to back as one span, and the loop");
    assert_eq!((spans[0]["start"].as_u64(), spans[0]["end"].as_u64()), (Some(0), Some(17_599)));
    assert_eq!((spans[0]["kind"].as_str(), spans[0]["count"].as_u64()), (Some("repeated_line"), Some(400)));
    assert_eq!(spans[0]["period"], 44);
    assert_eq!(r["spans_not_listed"], 0, "none left out");
    let the_loop = spans.iter().find(|s| s["kind"] == "loop").unwrap();
    assert_eq!((the_loop["start"].as_u64(), the_loop["end"].as_u64()), (Some(0), Some(17_599)));
    assert_eq!((the_loop["count"].as_u64(), the_loop["period"].as_u64()), (Some(400), Some(44)));
    assert_eq!(lines[1]["metrics"]["maxrun"], 4000);
    assert_eq!(lines[1]["spans"][0]["kind"], "word_run");
}

#[test]
fn dash_reads_standard_input() {
    let out =
        run(&["analyze", "--json", "-"], "loop loop loop loop loop loop loop loop loop loop loop loop\n".as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let r = &json_lines(&out)[0];
    assert_eq!(r["file"], "-");
    assert_eq!(r["metrics"]["maxrun"], 12);
}

#[test]
fn invalid_utf8_is_replaced_and_reported() {
    let path = temp_file("bad.txt", b"caf\xe9 au lait, \xff\xfe then a plain and coherent ending.\n");
    let out = run(&["analyze", "--json", &path], b"");
    assert_eq!(out.status.code(), Some(0));
    let r = &json_lines(&out)[0];
    // \xe9, \xff and \xfe are three invalid sequences (as Python's errors="replace" sees them);
    // each becomes U+FFFD, 3 bytes.
    assert_eq!(r["replaced_invalid_utf8"], 3);
    assert_eq!(r["bytes"], 51 - 3 + 9);
    let text = run(&["analyze", &path], b"");
    assert!(String::from_utf8(text.stdout).unwrap().contains("3 invalid UTF-8 sequence(s) were replaced"));
}

#[test]
fn an_unreadable_input_exits_3_and_the_others_are_still_reported() {
    let out = run(&["analyze", "--json", "tests/data/no-such-file.txt", "tests/data/warn_list.txt"], b"");
    assert_eq!(out.status.code(), Some(3));
    let lines = json_lines(&out);
    assert_eq!(lines[0]["file"], "tests/data/no-such-file.txt");
    assert!(lines[0]["error"].as_str().unwrap().contains("No such file"));
    assert_eq!(lines[1]["verdict"], "WARN");
    assert!(String::from_utf8(out.stderr).unwrap().contains("cannot read tests/data/no-such-file.txt"));
}

#[test]
fn text_output_puts_the_verdict_first() {
    let out = run(&["analyze", "tests/data/the_x4000.txt"], b"");
    let s = String::from_utf8(out.stdout).unwrap();
    let first = s.lines().next().unwrap();
    assert_eq!(first, "tests/data/the_x4000.txt: FAIL (15,999 bytes)");
    assert!(s.contains("the word 'the' repeats 4,000 times in a row, from byte 0"));
}

#[test]
fn short_input_says_so_instead_of_judging() {
    let out = run(&["analyze", "-"], b"ok\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("-: TOO SHORT (3 bytes)"));
}

#[test]
fn a_short_reply_ending_in_blank_lines_fails() {
    // A served model emitting newlines until max_tokens: blank output is degenerate.
    let text = format!("Here is the answer:{}", "\n".repeat(200_000));
    let out = run(&["analyze", "-"], text.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("-: FAIL (200,019 bytes)"), "{stdout}");
    assert!(stdout.contains("the text ends in 199,999 blank lines, from byte 19"), "{stdout}");
    let out = run(&["analyze", "--json", "-"], text.as_bytes());
    let json = &json_lines(&out)[0];
    assert_eq!((json["verdict"].as_str(), json["too_short"].as_bool()), (Some("FAIL"), Some(false)));
    assert_eq!(json["onset"], 19);
    // A few blank lines after a short reply are still too short to judge.
    let out = run(&["analyze", "-"], format!("Here is the answer:{}", "\n".repeat(30)).as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("-: TOO SHORT (49 bytes)"));
}

#[test]
fn empty_and_blank_inputs_hold_no_text_and_exit_3() {
    // A CI step whose download failed must not pass: empty stdin, an empty file, a blank file.
    let empty = temp_file("empty.txt", b"");
    let blank = temp_file("blank.txt", " \n".repeat(2_500).as_bytes());
    for (args, stdin, why) in [
        (vec!["analyze", "-"], &b""[..], "holds no text: it is empty"),
        (vec!["analyze", empty.as_str()], &b""[..], "holds no text: it is empty"),
        (vec!["analyze", "-"], &b"\n\n\n   \n"[..], "holds no text: only whitespace (7 bytes)"),
        (vec!["analyze", blank.as_str()], &b""[..], "holds no text: only whitespace (5,000 bytes)"),
    ] {
        let out = run(&args, stdin);
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(why), "{args:?}: {err}");
        let mut json_args = args.clone();
        json_args.insert(1, "--json");
        let out = run(&json_args, stdin);
        assert_eq!(out.status.code(), Some(3));
        assert_eq!(json_lines(&out)[0]["error"], why);
    }
}

#[test]
fn every_harness_format_can_be_named() {
    // Each harness's looping fixture, read as its format by name: FAIL (exit 2), in that format.
    for name in ["opencode", "codex-jsonl", "gemini-cli", "cline", "openhands", "swe-agent", "aider"] {
        let dir = coherency_test_support::fixture("formats");
        let stem = format!("harness_{}_loop.", name.replace('-', "_"));
        let file = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok()?.path().to_str().map(str::to_string))
            .find(|p| p.rsplit('/').next().is_some_and(|f| f.starts_with(&stem) && !f.ends_with(".expected.json")))
            .unwrap_or_else(|| panic!("no fixture {stem}*"));
        let out = run(&["analyze", "--json", "--format", name, &file], b"");
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert_eq!(json_lines(&out)[0]["format"], name);
        let help = String::from_utf8(run(&["analyze", "--help"], b"").stdout).unwrap();
        assert!(help.contains(name), "{name} in the usage");
    }
}

#[test]
fn a_bad_command_line_prints_usage() {
    for args in [&[][..], &["analyze"][..], &["frobnicate"][..], &["analyze", "--bogus", "x"][..]] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        assert!(String::from_utf8(out.stderr).unwrap().contains("Usage: coherency"), "{args:?}");
    }
    assert_eq!(run(&["--help"], b"").status.code(), Some(0));
}

#[test]
fn a_reasoning_loop_behind_a_clean_answer_fails_and_names_the_reasoning() {
    let out = run(&["analyze", "--json", "tests/data/formats/deepseek_reasoning_loop.sse"], b"");
    assert_eq!(out.status.code(), Some(2));
    let r = &json_lines(&out)[0];
    assert_eq!(r["format"], "sse");
    assert_eq!(r["verdict"], "FAIL");
    let messages = r["messages"].as_array().unwrap();
    assert_eq!(messages[0]["channel"], "reasoning");
    assert_eq!(messages[0]["verdict"], "FAIL");
    assert_eq!(messages[0]["metrics"]["maxline"], r["metrics"]["maxline"]);
    // The onset at the start of its word (the loop's copies start 4 bytes into it).
    assert_eq!((messages[0]["tripped"].as_str(), messages[0]["onset"].as_u64()), (Some("loop"), Some(32)));
    assert!(messages[0]["spans"].as_array().unwrap().iter().any(|s| s["kind"] == "loop"));
    let content = messages.iter().find(|m| m["channel"] == "content").unwrap();
    assert_eq!(content["verdict"], "PASS");
    assert!(content["onset"].is_null());
    assert_eq!(r["stream"]["saw_done"], true);
}

/// A soak run's captures as the page saved them ("⤓ captures": an A/B run against the mock,
/// generation 1 of A coherent, generation 2 of B looping): each line a conversation judged as
/// the row on that line says the live run judged it.
#[test]
fn a_soak_runs_captures_file_is_read_to_the_verdicts_the_run_showed() {
    let path = "tests/data/formats/live_captures.jsonl";
    let out = run(&["analyze", "--json", path], b"");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let r = &json_lines(&out)[0];
    assert_eq!(r["format"], "live-captures");
    assert_eq!(r["verdict"], "FAIL");
    assert_eq!(r["diagnostics"].as_array().map(Vec::len), Some(0));
    let file =
        std::fs::read_to_string(coherency_test_support::workspace_root().join("crates/core").join(path)).unwrap();
    let rows: Vec<serde_json::Value> = file
        .lines()
        .map(|l| serde_json::from_slice::<serde_json::Value>(l.as_bytes()).unwrap()["generation"].clone())
        .collect();
    let conversations = r["conversations"].as_array().unwrap();
    assert_eq!(conversations.len(), rows.len());
    for (c, row) in conversations.iter().zip(&rows) {
        assert_eq!(c["verdict"], row["verdict"], "generation {} ({})", row["index"], row["config"]);
    }
    let said: Vec<&str> = rows.iter().map(|g| g["verdict"].as_str().unwrap()).collect();
    assert_eq!(said, ["PASS", "FAIL"]);
    // Each generation's answer: on its line of the file, with the verdict and onset of its row.
    for (line, row) in rows.iter().enumerate() {
        let m = r["messages"].as_array().unwrap().iter().find(|m| m["conversation"] == line).unwrap();
        assert_eq!((&m["line"], &m["verdict"], &m["onset"]), (&(line + 1).into(), &row["verdict"], &row["onset"]));
    }
    let text = String::from_utf8(run(&["analyze", path], b"").stdout).unwrap();
    assert!(text.starts_with(&format!("{path}: FAIL (live run captures (JSONL), 2 analysed texts)")), "{text}");
}

#[test]
fn bad_lines_become_diagnostics_and_the_rest_is_analyzed() {
    let out = run(&["analyze", "--json", "tests/data/formats/requests.jsonl"], b"");
    let r = &json_lines(&out)[0];
    assert_eq!(r["format"], "jsonl");
    assert!(r["messages"].as_array().unwrap().len() >= 5);
    let d = &r["diagnostics"][0];
    assert_eq!(d["line"], 3);
    assert!(d["message"].as_str().unwrap().contains("not a request/response record"), "{d}");
}

#[test]
fn format_can_be_forced() {
    // Read as plain text, an SSE capture is one message: its JSON plumbing, not the reasoning.
    let out = run(&["analyze", "--json", "--format", "text", "tests/data/formats/deepseek_reasoning_loop.sse"], b"");
    let r = &json_lines(&out)[0];
    assert_eq!(r["format"], "text");
    assert_eq!(r["messages"].as_array().unwrap().len(), 1);
    assert_eq!(r["bytes"], r["input_bytes"]);
    let out = run(&["analyze", "--format", "yaml", "x"], b"");
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8(out.stderr).unwrap().contains("invalid value 'yaml' for '--format <NAME>'"));
}

#[test]
fn a_binary_file_gets_one_clear_message() {
    let out = run(&["analyze", "--json", "tests/data/formats/binary.bin"], b"");
    assert_eq!(out.status.code(), Some(3));
    let r = &json_lines(&out)[0];
    assert!(r["error"].as_str().unwrap().starts_with("Not a text file"), "{r}");
}

/// Issue 12: an agent session calling the same tool with the same result turn after turn FAILs,
/// and the tool loop and the turn it starts from are named.
#[test]
fn a_looping_agent_session_fails_and_names_the_tool_loop() {
    let session = coherency_test_support::agent_sessions::generate("same_call_same_result", 3);
    let path = temp_file("looping-session.jsonl", &session.to_session_jsonl());
    let out = run(&["analyze", &path], b"");
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().next().unwrap().contains(": FAIL (agent session log (JSONL), "), "{text}");
    assert!(text.contains("  conversation 0: FAIL from turn 5 (35 turns, 17 by the model, 17 tool calls)"), "{text}");
    assert!(
        text.contains(
            "    tool loop: `Read {file_path: src/date.rs}` called 15 times in a row from turn 5, the same result each time"
        ),
        "{text}"
    );

    let out = run(&["analyze", "--json", &path], b"");
    assert_eq!(out.status.code(), Some(2));
    let r = &json_lines(&out)[0];
    assert_eq!((r["format"].as_str(), r["judged_verdict"].as_str()), (Some("session-jsonl"), Some("FAIL")));
    let c = &r["conversations"][0];
    assert_eq!((c["verdict"].as_str(), c["onset_turn"].as_u64()), (Some("FAIL"), Some(5)));
    let tool = &c["tool_calls"];
    assert_eq!((tool["check"]["metric"].as_str(), tool["check"]["level"].as_str()), (Some("tool_loop"), Some("FAIL")));
    assert_eq!((tool["loops"][0]["count"].as_u64(), tool["loops"][0]["same_result"].as_bool()), (Some(15), Some(true)));
    let streams = c["stream_results"].as_array().unwrap();
    assert!(streams.iter().any(|s| s["kind"] == "content" && s["verdict"] == "FAIL"), "{c}");
    let messages = r["messages"].as_array().unwrap();
    for m in messages {
        let input = ["user", "tool", "system"].contains(&m["role"].as_str().unwrap());
        assert_eq!(m["judged"].as_bool(), Some(!input), "{m}");
        assert_eq!(m["why"].as_str(), Some(if input { "input — not judged" } else { "model output — judged" }));
    }
    assert!(messages.iter().any(|m| m["channel"] == "content stream" && m["verdict"] == "FAIL"));
}

/// Issue 12: a session whose model output is fine, where a tool printed a progress log, PASSes;
/// the log is analysed and shown, as an input that is not judged. `--judge-inputs` judges it:
/// WARN, as data (issue 13: lines that differ in their numbers are not a loop).
#[test]
fn a_tools_repetitive_log_is_an_input_and_not_judged() {
    let session = coherency_test_support::agent_sessions::generate("long_tool_log", 2);
    let path = temp_file("tool-log-session.jsonl", &session.to_session_jsonl());
    let out = run(&["analyze", "--json", &path], b"");
    assert_eq!(out.status.code(), Some(0));
    let r = &json_lines(&out)[0];
    assert_eq!(r["judged_verdict"], "PASS");
    let messages = r["messages"].as_array().unwrap();
    let log =
        messages.iter().find(|m| m["role"] == "tool" && m["verdict"] == "WARN").expect("the log WARNs on its own");
    assert_eq!((log["judged"].as_bool(), log["why"].as_str()), (Some(false), Some("input — not judged")));
    assert!(messages.iter().filter(|m| m["judged"] == true).all(|m| m["verdict"] == "PASS"));
    let first_input = messages.iter().position(|m| m["judged"] == false).unwrap();
    assert!(messages[first_input..].iter().all(|m| m["judged"] == false), "judged texts come first");

    let text = String::from_utf8(run(&["analyze", &path], b"").stdout).unwrap();
    assert!(text.lines().next().unwrap().contains(": PASS (agent session log (JSONL), "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("WARN") && l.contains("tool tool (bash)") && l.ends_with("(input — not judged)")),
        "{text}"
    );

    let out = run(&["analyze", "--json", "--judge-inputs", &path], b"");
    assert_eq!(out.status.code(), Some(1), "judged on request, the log WARNs the file");
    let r = &json_lines(&out)[0];
    assert_eq!((r["judged_verdict"].as_str(), r["judged"].as_bool()), (Some("WARN"), Some(true)));
    assert_eq!(r["why"], "input — judged on request");
}

/// Issue 35: a session that repeats while the work moves on PASSes, and the text report says
/// why that stretch was not a loop: what changed between its turns.
#[test]
fn the_text_report_says_what_changed_where_a_session_repeats_and_moves_on() {
    let out = run(&["analyze", "tests/data/formats/next_file_please.jsonl"], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  conversation 0: PASS ("), "{text}");
    assert!(
        text.contains(
            "4 turns say again only 'Done.' while the work moved on (the same call on 5 different files (Edit)"
        ),
        "{text}"
    );
    let out = run(&["analyze", "tests/data/formats/edit_test_progress.jsonl"], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("the same call with 4 different results"), "{text}");
}
