//! `coherency analyze --markdown` and `--html` on every fixture (the formats' and the plain
//! texts'), held to golden files under `tests/golden/`: what a user pastes into an issue or
//! attaches to a CI job. To refresh after an intended change: `UPDATE_GOLDEN=1 cargo test -p
//! coherency-cli --test reports`, then review the diff (a difference fails with a unified diff:
//! `coherency_test_support::golden`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use coherency_test_support::golden::{assert_golden, golden_difference};
use coherency_test_support::{input_fixtures, workspace_root};

/// Every input fixture, relative to the core's crate directory (where the CLI runs, so the
/// file names it prints are `tests/data/…`).
fn fixtures() -> Vec<String> {
    input_fixtures().into_iter().map(|f| format!("tests/data/{f}")).collect()
}

fn run(flag: &str, fixture: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_coherency"))
        .current_dir(workspace_root().join("crates/core"))
        .args(["analyze", flag, fixture])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn golden_path(fixture: &str, ext: &str) -> PathBuf {
    let name = Path::new(fixture).file_name().unwrap().to_string_lossy().replace('.', "_");
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(format!("{name}.{ext}"))
}

fn check_all(flag: &str, ext: &str) {
    let mut differ = Vec::new();
    let fixtures = fixtures();
    assert!(fixtures.len() >= 40, "{} fixtures", fixtures.len());
    for fixture in &fixtures {
        let got = run(flag, fixture);
        differ.extend(golden_difference(&golden_path(fixture, ext), &got));
    }
    assert!(
        differ.is_empty(),
        "{flag} differs from its golden file for {} fixtures:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn markdown_reports_match_their_golden_files() {
    check_all("--markdown", "md");
}

#[test]
fn html_reports_match_their_golden_files() {
    check_all("--html", "html");
}

#[test]
fn html_takes_one_file_and_the_forms_are_exclusive() {
    let core = workspace_root().join("crates/core");
    let run =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_coherency")).current_dir(&core).args(args).output().unwrap();
    let two = run(&["analyze", "--html", "tests/data/short.txt", "tests/data/line_x400.txt"]);
    assert_eq!(two.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&two.stderr).contains("--html writes one report"));
    let both = run(&["analyze", "--json", "--markdown", "tests/data/short.txt"]);
    assert_eq!(both.status.code(), Some(64));
    // The exit status follows the verdict whatever the form.
    assert_eq!(run(&["analyze", "--html", "tests/data/line_x400.txt"]).status.code(), Some(2));
    assert_eq!(run(&["analyze", "--markdown", "tests/data/warn_list.txt"]).status.code(), Some(1));
}

/// What the page does with a saved `--json` report: every fixture's line reads back into the
/// core's `SavedReports` with the CLI's verdicts, reasons, checks, messages and conversations.
#[test]
fn json_reports_read_back_as_the_cli_wrote_them() {
    use coherency_core::render::saved_report::read_saved_reports;
    let fixtures = fixtures();
    let mut args = vec!["analyze", "--json"];
    args.extend(fixtures.iter().map(String::as_str));
    let out = Command::new(env!("CARGO_BIN_EXE_coherency"))
        .current_dir(workspace_root().join("crates/core"))
        .args(&args)
        .output()
        .unwrap();
    let saved = read_saved_reports(&out.stdout);
    assert!(saved.problems.is_empty(), "{:?}", saved.problems);
    assert_eq!(saved.files.len(), fixtures.len());
    let lines: Vec<serde_json::Value> = out
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let mut analysed = 0;
    for ((file, line), fixture) in saved.files.iter().zip(&lines).zip(&fixtures) {
        assert_eq!(&file.file, fixture);
        let Ok(a) = &file.outcome else {
            assert_eq!(line["error"].as_str(), file.outcome.as_ref().err().map(String::as_str));
            continue;
        };
        analysed += 1;
        let strings = |v: &serde_json::Value| -> Vec<String> {
            v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
        };
        assert_eq!(a.verdict.as_str(), line["verdict"], "{fixture}");
        assert_eq!(a.judged_verdict.as_str(), line["judged_verdict"], "{fixture}");
        assert_eq!(a.format.map(|f| f.name()), line["format"].as_str(), "{fixture}");
        assert_eq!(a.input_bytes as u64, line["input_bytes"].as_u64().unwrap(), "{fixture}");
        assert_eq!(a.reasons, strings(&line["reasons"]), "{fixture}");
        for (check, json) in a.checks.iter().zip(line["checks"].as_array().unwrap()) {
            assert_eq!(check.level.as_str(), json["level"], "{fixture}");
            assert!((check.value - json["value"].as_f64().unwrap()).abs() < 1e-9, "{fixture}");
        }
        assert_eq!(a.messages.len(), line["messages"].as_array().unwrap().len(), "{fixture}");
        for (m, json) in a.messages.iter().zip(line["messages"].as_array().unwrap()) {
            assert_eq!(
                (m.role.as_str(), m.channel.as_str()),
                (json["role"].as_str().unwrap(), json["channel"].as_str().unwrap())
            );
            assert_eq!(m.reasons, strings(&json["reasons"]), "{fixture}");
        }
        let conversations = line["conversations"].as_array().unwrap();
        assert_eq!(a.conversations.len(), conversations.len(), "{fixture}");
        for (c, json) in a.conversations.iter().zip(conversations) {
            assert_eq!(
                (c.verdict.as_str(), c.onset_turn),
                (json["verdict"].as_str().unwrap(), json["onset_turn"].as_u64().map(|t| t as usize))
            );
        }
        assert_eq!(a.diagnostics.len(), line["diagnostics"].as_array().unwrap().len(), "{fixture}");
    }
    assert!(analysed >= 40, "{analysed} fixtures analysed");
}

/// The files of [`saved_report_matches_its_golden_file`]: a loop, a WARN, an agent's tool loop,
/// a clean log and a binary file the CLI cannot read. The page's end-to-end test opens the
/// golden file it gives.
const SAVED_REPORT_FILES: [&str; 5] = [
    "tests/data/line_x400.txt",
    "tests/data/warn_list.txt",
    "tests/data/formats/harness_cline_loop.json",
    "tests/data/formats/chat.json",
    "tests/data/formats/binary.bin",
];

/// `coherency analyze --json` over several files, as a user saves it for the page to open
/// again (`tests/golden/saved-report.jsonl`).
#[test]
fn saved_report_matches_its_golden_file() {
    let out = Command::new(env!("CARGO_BIN_EXE_coherency"))
        .current_dir(workspace_root().join("crates/core"))
        .args(["analyze", "--json"])
        .args(SAVED_REPORT_FILES)
        .output()
        .unwrap();
    let got = String::from_utf8(out.stdout).unwrap();
    assert_eq!(got.lines().count(), SAVED_REPORT_FILES.len());
    assert_golden(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/saved-report.jsonl"), &got);
}

/// `--json` on a log of many records lists every flagged message and the worst N others
/// (`--worst N`, 10 by default), counts the rest, and the page's reader reads it; with
/// `--all-messages` every message is listed, as before.
#[test]
fn json_of_many_records_lists_the_flagged_and_the_worst_few_and_reads_back() {
    use coherency_core::render::saved_report::read_saved_reports;
    let (mut log, records) = coherency_test_support::biglog::small_records_log(40_000);
    let looping = "I will check the file again. ".repeat(40);
    let record = serde_json::json!({
        "request": {"messages": [{"role": "user", "content": "Check the file, please."}]},
        "response": {"choices": [{"message": {"role": "assistant", "content": looping}}]}
    });
    log.extend_from_slice(format!("{record}\n").as_bytes());
    let path = std::env::temp_dir().join(format!("coherency-many-records-{}.jsonl", std::process::id()));
    fs::write(&path, &log).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_coherency"))
            .args(["analyze", "--json"])
            .args(args)
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "the looping reply FAILs");
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let saved = read_saved_reports(&out.stdout);
        assert!(saved.problems.is_empty(), "{:?}", saved.problems);
        let Ok(a) = &saved.files[0].outcome else { panic!("read back: {:?}", saved.files) };
        assert_eq!(a.messages.len(), line["messages"].as_array().unwrap().len());
        assert_eq!(a.conversations.len(), line["conversations"].as_array().unwrap().len());
        line
    };
    let texts = 2 * (records + 1);
    for (args, others) in [(&[][..], 10), (&["--worst", "3"][..], 3), (&["--worst", "0"][..], 0)] {
        let line = run(args);
        assert_eq!(line["schema_version"], 1);
        assert_eq!(line["judged_verdict"], "FAIL");
        let counts = &line["counts"];
        assert_eq!(counts["messages"], texts);
        assert_eq!(counts["messages_judged"], records + 1);
        assert_eq!((counts["messages_warn"].as_u64(), counts["messages_fail"].as_u64()), (Some(0), Some(1)));
        assert_eq!(
            (counts["conversations"].as_u64(), counts["conversations_fail"].as_u64()),
            (Some(records as u64 + 1), Some(1))
        );
        let messages = line["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 1 + others, "{args:?}");
        assert_eq!(messages[0]["verdict"], "FAIL");
        assert!(messages[1..].iter().all(|m| m["verdict"] == "PASS" && m["judged"] == true));
        assert_eq!(line["messages_not_listed"], texts - 1 - others);
        // The flagged conversation, and each one a listed message is in.
        let conversations = line["conversations"].as_array().unwrap();
        assert_eq!(conversations[conversations.len() - 1]["verdict"], "FAIL");
        assert_eq!(conversations.len() + line["conversations_not_listed"].as_u64().unwrap() as usize, records + 1);
        for m in messages {
            assert!(conversations.iter().any(|c| c["conversation"] == m["conversation"]), "{m}");
        }
    }
    let all = run(&["--all-messages"]);
    assert_eq!(all["messages"].as_array().unwrap().len(), texts);
    assert_eq!(all["conversations"].as_array().unwrap().len(), records + 1);
    assert_eq!((all["messages_not_listed"].as_u64(), all["conversations_not_listed"].as_u64()), (Some(0), Some(0)));

    // The text report's table lists the same messages, and counts the rest in a last line.
    let text = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_coherency")).arg("analyze").args(args).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "the looping reply FAILs");
        let text = String::from_utf8(out.stdout).unwrap();
        let table: Vec<String> =
            text.lines().skip_while(|l| !l.contains("messages, worst first")).skip(1).map(String::from).collect();
        table
    };
    for (args, others) in [(&[][..], 10), (&["--worst", "3"][..], 3)] {
        let table = text(args);
        let rows: Vec<&String> = table.iter().filter(|l| l.contains(" conv ")).collect();
        assert_eq!(rows.len(), 1 + others, "{args:?}: {table:?}");
        assert!(rows[0].trim_start().starts_with("FAIL"), "{}", rows[0]);
        let more = thousands(texts - 1 - others);
        assert!(table.iter().any(|l| l.contains(&format!("… and {more} more messages, all PASS"))), "{table:?}");
    }
    let table = text(&["--all-messages"]);
    assert_eq!(table.iter().filter(|l| l.contains(" conv ")).count(), texts);
    assert!(!table.iter().any(|l| l.contains("more messages")));
    fs::remove_file(&path).unwrap();
}

/// `n` with thousands separated by commas, as the reports write counts.
fn thousands(n: usize) -> String {
    coherency_core::wording::thousands(n)
}
