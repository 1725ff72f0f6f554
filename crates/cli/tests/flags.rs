//! Issue 18: the command line as scripts and CI use it — help with examples, version,
//! completions, a bad flag named with a suggestion, `--fail-on`, directories (`--recursive`,
//! binaries skipped, the summary line, a stable order), thresholds from flags and from a file,
//! colour on a terminal and off with `NO_COLOR` or a pipe, and no progress bar off a terminal.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use coherency_core::analyze::SETTINGS;

const BIN: &str = env!("CARGO_BIN_EXE_coherency");

/// Runs `coherency` in the core's crate directory (fixtures are `tests/data/…`), output piped.
fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(core_dir())
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn core_dir() -> PathBuf {
    coherency_test_support::workspace_root().join("crates/core")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// A fresh directory for one test.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("coherency-flags-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(core_dir().join(path)).unwrap()
}

/// A poem of distinct lines whose refrain is sung twice after every stanza, six times: the
/// seed's maxline is 12; the product counts the copies said with no new line since the one
/// before (both after the first stanza, then the second of each pair), 7, which WARNs by default
/// (≥ 5) and nothing else trips. (A refrain said once after each stanza comes after new lines
/// every time: a template's field, which passes.)
fn refrain() -> String {
    let adj = [
        "quiet", "golden", "restless", "distant", "silver", "hollow", "tender", "ancient", "crimson", "weary",
        "bright", "secret", "patient", "broken", "gentle", "wild", "sleepy", "frozen", "humble", "open", "narrow",
        "sudden", "velvet", "bitter",
    ];
    let noun = [
        "river",
        "harbour",
        "orchard",
        "lantern",
        "meadow",
        "village",
        "sparrow",
        "mountain",
        "garden",
        "window",
        "candle",
        "forest",
        "bridge",
        "shadow",
        "market",
        "island",
        "valley",
        "chapel",
        "kettle",
        "ribbon",
        "anchor",
        "thistle",
        "compass",
        "meadowlark",
    ];
    let verb = [
        "remembers",
        "carries",
        "forgets",
        "awaits",
        "follows",
        "gathers",
        "echoes",
        "shelters",
        "outlasts",
        "welcomes",
        "answers",
        "guards",
    ];
    let place = [
        "morning",
        "harvest moon",
        "evening bells",
        "autumn rain",
        "winter sky",
        "summer dust",
        "northern wind",
        "open sea",
    ];
    let mut lines = Vec::new();
    let mut k = 0;
    for _stanza in 0..6 {
        for _line in 0..4 {
            lines.push(format!(
                "The {} {} {} the {}, and {} {} {} it too.",
                adj[k % 24],
                noun[(k * 7) % 24],
                verb[k % 12],
                place[(k * 3) % 8],
                adj[(k * 5 + 3) % 24],
                noun[(k * 11 + 2) % 24],
                verb[(k + 5) % 12]
            ));
            k += 1;
        }
        lines.push("And still we sing of home.".to_string());
        lines.push("And still we sing of home.".to_string());
        lines.push(String::new());
    }
    lines.join("\n")
}

#[test]
fn help_shows_examples_exit_statuses_and_every_threshold_name() {
    let top = run(&["--help"]);
    assert_eq!(top.status.code(), Some(0));
    assert!(stdout(&top).contains("Examples:\n  coherency analyze answer.txt"), "{}", stdout(&top));
    let help = stdout(&run(&["analyze", "--help"]));
    for wanted in [
        "Examples:",
        "coherency analyze --json logs/ > report.jsonl",
        "--fail-on <LEVEL>",
        "--recursive",
        "--threshold <NAME=VALUE>",
        "--config <FILE>",
        "Exit status:",
        "64  the command line is wrong",
    ] {
        assert!(help.contains(wanted), "{wanted:?} in\n{help}");
    }
    for s in &SETTINGS {
        assert!(help.contains(s.name), "{} in the help", s.name);
    }
    let version = run(&["--version"]);
    assert_eq!(
        (version.status.code(), stdout(&version)),
        (Some(0), format!("coherency {}\n", env!("CARGO_PKG_VERSION")))
    );
}

#[test]
fn completions_are_generated_for_each_shell() {
    for (shell, marker) in [("bash", "complete -F"), ("zsh", "#compdef coherency"), ("fish", "complete -c coherency")] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = stdout(&out);
        assert!(script.contains(marker), "{shell}: {marker}");
        assert!(script.contains("fail-on") && script.contains("analyze"), "{shell} completes the flags");
    }
    let bash = stdout(&run(&["completions", "bash"]));
    let checked = Command::new("bash").args(["-n", "-c", &bash]).status().unwrap();
    assert!(checked.success(), "the bash script parses");
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(64));
}

#[test]
fn a_bad_flag_is_named_with_the_right_one_suggested() {
    let out = run(&["analyze", "--jsn", "tests/data/warn_list.txt"]);
    assert_eq!(out.status.code(), Some(64));
    let err = stderr(&out);
    assert!(
        err.contains("unexpected argument '--jsn'") && err.contains("a similar argument exists: '--json'"),
        "{err}"
    );
    let out = run(&["analyze", "--fail-on", "warning", "x"]);
    assert_eq!(out.status.code(), Some(64));
    assert!(stderr(&out).contains("invalid value 'warning' for '--fail-on <LEVEL>'"), "{}", stderr(&out));
    let out = run(&["analyse", "x"]);
    assert!(stderr(&out).contains("tip: a similar subcommand exists: 'analyze'"), "{}", stderr(&out));
}

#[test]
fn a_bad_argument_is_quoted_with_its_escape_sequences_shown_not_obeyed() {
    for (args, said) in [
        (vec!["analyze", "--\x1b]0;pwned\x07", "x"], r"unexpected argument '--\x1b]0;pwned\x07'"),
        (vec!["analyze", "--x\x1b]52;c;ZXZpbA\x07", "x"], r"unexpected argument '--x\x1b]52;c;ZXZpbA\x07'"),
        (vec!["analyze", "--\u{202e}txt.exe", "x"], r"unexpected argument '--\u{202e}txt.exe'"),
        (vec!["analyze", "--fail-on", "\x1b[2J", "x"], r"invalid value '\x1b[2J' for '--fail-on <LEVEL>'"),
        (vec!["anal\x1b[2Jyze", "x"], r"unrecognized subcommand 'anal\x1b[2Jyze'"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(64), "{said}");
        let err = stderr(&out);
        assert!(err.contains(said), "{err}");
        assert!(!err.contains(['\x1b', '\x07', '\u{202e}']), "nothing that acts on a terminal: {err:?}");
    }
}

#[test]
fn fail_on_sets_which_verdict_fails_and_the_default_is_unchanged() {
    let warn = "tests/data/warn_list.txt";
    let fail = "tests/data/line_x400.txt";
    for (args, status) in [
        (vec!["analyze", warn], 1),
        (vec!["analyze", "--fail-on", "warn", warn], 1),
        (vec!["analyze", "--fail-on", "fail", warn], 0),
        (vec!["analyze", fail], 2),
        (vec!["analyze", "--fail-on", "warn", fail], 2),
        (vec!["analyze", "--fail-on", "fail", fail], 2),
        (vec!["analyze", "--fail-on", "fail", warn, "tests/data/no-such-file.txt"], 3),
    ] {
        assert_eq!(run(&args).status.code(), Some(status), "{args:?}");
    }
}

/// logs/a.txt WARN, logs/c.bin a PNG, logs/d.txt PASS, logs/sub/b.txt FAIL.
fn logs(test: &str) -> PathBuf {
    let dir = temp_dir(test).join("logs");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.txt"), fixture("tests/data/warn_list.txt")).unwrap();
    std::fs::write(dir.join("c.bin"), fixture("tests/data/formats/binary.bin")).unwrap();
    std::fs::write(dir.join("d.txt"), fixture("src/samples/prose.txt")).unwrap();
    std::fs::write(dir.join("sub/b.txt"), fixture("tests/data/line_x400.txt")).unwrap();
    dir
}

fn headers(text: &str) -> Vec<String> {
    text.lines().filter(|l| !l.starts_with(' ') && l.ends_with(" bytes)")).map(str::to_string).collect()
}

#[test]
fn a_directory_is_walked_binaries_skipped_and_a_summary_ends_the_output() {
    let dir = logs("walk");
    let d = dir.to_str().unwrap();
    let flat = run(&["analyze", d]);
    assert_eq!(flat.status.code(), Some(1), "the WARN; the binary is skipped, not unreadable");
    let text = stdout(&flat);
    assert_eq!(headers(&text), [format!("{d}/a.txt: WARN (137 bytes)"), format!("{d}/d.txt: PASS (4,113 bytes)")]);
    assert!(text.ends_with("\n2 files: 1 PASS, 1 WARN, 0 FAIL; 1 skipped\n"), "{text}");
    let err = stderr(&flat);
    assert!(err.contains(&format!("coherency: skipped {d}/sub: a directory (--recursive walks it)")), "{err}");
    assert!(err.contains(&format!("coherency: skipped {d}/c.bin: Not a text file")), "{err}");

    let deep = run(&["analyze", "--recursive", d]);
    assert_eq!(deep.status.code(), Some(2));
    let text = stdout(&deep);
    assert_eq!(headers(&text)[2], format!("{d}/sub/b.txt: FAIL (17,599 bytes)"));
    assert!(text.ends_with("\n3 files: 1 PASS, 1 WARN, 1 FAIL; 1 skipped\n"), "{text}");
    assert!(!stderr(&deep).contains("a directory"));

    let json = run(&["analyze", "--json", "-r", d]);
    let files: Vec<String> = stdout(&json)
        .lines()
        .map(|l| {
            serde_json::from_slice::<serde_json::Value>(l.as_bytes()).unwrap()["file"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(files, [format!("{d}/a.txt"), format!("{d}/d.txt"), format!("{d}/sub/b.txt")]);
    // A binary file named on the command line is still an error.
    assert_eq!(run(&["analyze", &format!("{d}/c.bin")]).status.code(), Some(3));
}

#[test]
fn many_files_are_written_in_a_stable_order_as_given() {
    let dir = temp_dir("order");
    let mut names = Vec::new();
    for i in 0..24 {
        // Sizes that finish out of order: every third file a long loop.
        let text = if i % 3 == 0 {
            "Let me check the configuration once more before answering.\n".repeat(3_000)
        } else {
            format!("File {i} says one short and coherent thing about its own subject, once.")
        };
        let name = dir.join(format!("f{i:02}.txt"));
        std::fs::write(&name, text).unwrap();
        names.push(name.to_string_lossy().into_owned());
    }
    // Given in reverse: written in the order given.
    let given: Vec<&str> = names.iter().rev().map(String::as_str).collect();
    let args: Vec<&str> = ["analyze", "--json"].into_iter().chain(given.iter().copied()).collect();
    let first = run(&args);
    let files: Vec<String> = stdout(&first)
        .lines()
        .map(|l| {
            serde_json::from_slice::<serde_json::Value>(l.as_bytes()).unwrap()["file"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(files, given);
    assert_eq!(first.stdout, run(&args).stdout, "the same bytes each run");
    let text = stdout(&run(&["analyze", dir.to_str().unwrap()]));
    assert!(text.ends_with("24 files: 16 PASS, 0 WARN, 8 FAIL\n"), "{text}");
}

#[test]
fn a_refrain_that_warns_passes_with_maxline_loosened_by_flag_or_file() {
    let dir = temp_dir("thresholds");
    let poem = dir.join("poem.txt");
    std::fs::write(&poem, refrain()).unwrap();
    let p = poem.to_str().unwrap();
    let default = run(&["analyze", "--json", p]);
    assert_eq!(default.status.code(), Some(1));
    let line: serde_json::Value = serde_json::from_slice(&default.stdout).unwrap();
    assert_eq!((line["tripped"].as_str(), line["metrics"]["maxline"].as_u64()), (Some("maxline"), Some(12)));
    assert_eq!(line["metrics"]["content_maxline"].as_u64(), Some(7));
    assert_eq!(line["thresholds_changed"], serde_json::json!([]));

    let toml = dir.join("coherency.toml");
    std::fs::write(&toml, "# a poem's refrain is not a loop\n[thresholds]\nmaxline.warn = 10\n").unwrap();
    let json = dir.join("coherency.json");
    std::fs::write(&json, r#"{"thresholds": {"maxline": {"warn": 10}}}"#).unwrap();
    for args in [
        vec!["analyze", "--threshold", "maxline.warn=10"],
        vec!["analyze", "--config", toml.to_str().unwrap()],
        vec!["analyze", "--config", json.to_str().unwrap()],
        vec!["analyze", "--threshold", "maxline.warn=4", "--threshold", "maxline.warn=10"],
    ] {
        let loosened = run(&[&args[..], &["--json", p]].concat());
        assert_eq!(loosened.status.code(), Some(0), "{args:?}");
        let line: serde_json::Value = serde_json::from_slice(&loosened.stdout).unwrap();
        assert_eq!(line["verdict"], "PASS", "{args:?}");
        assert_eq!(line["thresholds"]["maxline_warn"], 10);
        assert_eq!(line["checks"][1]["warn_at"], 10.0, "the check is judged against it");
        assert_eq!(
            line["thresholds_changed"],
            serde_json::json!([{"name": "maxline.warn", "value": 10.0, "default": 5.0}])
        );
        // The page still opens such a report, with the CLI's verdict and the check's thresholds.
        let saved = coherency_core::render::saved_report::read_saved_reports(&loosened.stdout);
        assert!(saved.problems.is_empty(), "{:?}", saved.problems);
        let analysis = saved.files[0].outcome.as_ref().expect("read back");
        assert_eq!((analysis.verdict.as_str(), analysis.checks[1].warn_at), ("PASS", 10.0));
        let text = run(&[&args[..], &[p]].concat());
        assert!(
            stdout(&text).contains("\n  thresholds: not the defaults — maxline.warn 10 (default 5)\n"),
            "{}",
            stdout(&text)
        );
    }
    // A flag wins over the file.
    assert_eq!(
        run(&["analyze", "--config", toml.to_str().unwrap(), "--threshold", "maxline.warn=5", p]).status.code(),
        Some(1)
    );
}

#[test]
fn a_bad_threshold_is_a_usage_error_listing_the_names() {
    let names = SETTINGS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ");
    let out = run(&["analyze", "--threshold", "maxlines.warn=10", "tests/data/warn_list.txt"]);
    assert_eq!(out.status.code(), Some(64));
    assert!(
        stderr(&out).contains(&format!("unknown threshold 'maxlines.warn'; the names are: {names}")),
        "{}",
        stderr(&out)
    );
    let out = run(&["analyze", "--threshold", "maxline.warn=many", "x"]);
    assert_eq!(out.status.code(), Some(64));
    assert!(stderr(&out).contains("threshold maxline.warn: 'many' is not a value it takes"), "{}", stderr(&out));
    let dir = temp_dir("bad-config");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[thresholds]\nmaxline.wran = 10\n").unwrap();
    let out = run(&["analyze", "--config", bad.to_str().unwrap(), "tests/data/warn_list.txt"]);
    assert_eq!(out.status.code(), Some(64));
    assert!(
        stderr(&out).contains(&format!("unknown threshold 'maxline.wran'; the names are: {names}")),
        "{}",
        stderr(&out)
    );
    let out = run(&["analyze", "--threshold", "maxline.warn=20", "tests/data/warn_list.txt"]);
    assert_eq!(out.status.code(), Some(64), "a WARN past its FAIL");
    assert!(stderr(&out).contains("WARN must come before FAIL: maxline.warn"), "{}", stderr(&out));
}

/// Runs a shell command under `script` (util-linux), whose standard output and error are a
/// pseudo-terminal; returns what the terminal showed.
fn on_a_terminal(command: &str, no_color: bool) -> String {
    let mut cmd = Command::new("script");
    cmd.args(["-qec", command, "/dev/null"]).current_dir(core_dir()).env("TERM", "xterm").env_remove("CLICOLOR_FORCE");
    if no_color {
        cmd.env("NO_COLOR", "1");
    } else {
        cmd.env_remove("NO_COLOR");
    }
    let out = cmd.stdin(Stdio::null()).output().expect("script (util-linux) runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn colour_on_a_terminal_and_off_with_no_color_or_a_pipe() {
    let command = format!("{BIN} analyze tests/data/line_x400.txt");
    let shown = on_a_terminal(&command, false);
    assert!(shown.contains("tests/data/line_x400.txt: \x1b[1m\x1b[31mFAIL\x1b[0m"), "{shown:?}");
    let plain = on_a_terminal(&command, true);
    assert!(plain.contains("tests/data/line_x400.txt: FAIL (17,599 bytes)"), "{plain:?}");
    assert!(!plain.contains('\x1b'), "NO_COLOR: {plain:?}");
    let piped = run(&["analyze", "tests/data/line_x400.txt"]);
    assert!(!stdout(&piped).contains('\x1b'), "a pipe gets no colour");
    let forced = run(&["analyze", "--color", "always", "tests/data/line_x400.txt"]);
    assert!(stdout(&forced).contains("\x1b[31m"));
    let json = on_a_terminal(&format!("{BIN} analyze --json tests/data/line_x400.txt"), false);
    assert!(!json.contains("\x1b["), "JSON is never coloured: {json:?}");
}

/// Standard input that arrives after 1.5 s: the run takes over a second.
fn slow_stdin(args: &str) -> String {
    format!("(sleep 1.5; cat tests/data/warn_list.txt) | {BIN} analyze {args} -")
}

#[test]
fn a_progress_bar_only_on_a_terminal_and_never_with_json() {
    let on_terminal = on_a_terminal(&slow_stdin(""), true);
    assert!(on_terminal.contains("0/1 files analysed"), "{on_terminal:?}");
    assert!(on_terminal.contains("-: WARN (137 bytes)"));
    let json = on_a_terminal(&slow_stdin("--json"), true);
    assert!(!json.contains("files analysed"), "{json:?}");
    let piped = Command::new("sh").args(["-c", &slow_stdin("")]).current_dir(core_dir()).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&piped.stderr), "", "standard error is not a terminal");
    assert!(stdout(&piped).starts_with("-: WARN"));
}

#[test]
fn an_escape_in_a_file_name_is_shown_not_obeyed() {
    let dir = temp_dir("names");
    let name = dir.join("evil\x1b]0;pwned\x07.txt");
    std::fs::write(&name, fixture("tests/data/warn_list.txt")).unwrap();
    let out = run(&["analyze", name.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.contains("evil\\x1b]0;pwned\\x07.txt: WARN"), "{text}");
    assert!(!text.contains('\x1b') && !text.contains('\x07'));
    let missing = run(&["analyze", dir.join("gone\x1b[2J.txt").to_str().unwrap()]);
    assert!(stderr(&missing).contains("gone\\x1b[2J.txt"), "{}", stderr(&missing));
    assert!(!stderr(&missing).contains('\x1b'));
}

#[test]
fn an_escape_or_bidi_override_in_the_text_is_shown_not_obeyed() {
    let dir = temp_dir("escapes");
    for (name, line) in [
        ("title", "\x1b]0;pwned\x07 set the title"),
        ("clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07 wrote the clipboard"),
        ("clear", "\x1b[2J\x1b[H cleared the screen"),
        ("bidi", "the total is \u{202e}0001\u{202c} dollars"),
    ] {
        let path = dir.join(format!("{name}.txt"));
        std::fs::write(&path, format!("{line}\n").repeat(20)).unwrap();
        let out = run(&["analyze", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let text = stdout(&out);
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{name}: {text:?}");
        assert!(!text.contains('\u{202e}') && !text.contains('\u{202c}'), "{name}: {text:?}");
        let escaped = match name {
            "title" => "\\x1b]0;pwned\\x07 set the title",
            "clipboard" => "\\x1b]52;c;cm0gLXJmIH4=\\x07",
            "clear" => "\\x1b[2J\\x1b[H cleared",
            _ => "the total is \\u{202e}0001\\u{202c} dollars",
        };
        assert!(text.contains(escaped), "{name}: {text}");
    }
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read_and_shown_lossily() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = temp_dir("non-utf8");
    let name = dir.join(OsStr::from_bytes(b"caf\xe9.txt"));
    std::fs::write(&name, fixture("tests/data/warn_list.txt")).unwrap();
    let out = Command::new(BIN).arg("analyze").arg(&name).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "read and judged, not a panic (101)");
    let shown = format!("{}: WARN (137 bytes)", Path::new(&dir).join("caf\u{fffd}.txt").display());
    assert!(stdout(&out).starts_with(&shown), "{}", stdout(&out));
    let json = Command::new(BIN).args(["analyze", "--json"]).arg(&name).output().unwrap();
    let line: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(line["file"].as_str(), Some(shown.split(": WARN").next().unwrap()));
    // Also through a directory walk.
    assert!(stdout(&Command::new(BIN).arg("analyze").arg(&dir).output().unwrap()).contains("caf\u{fffd}.txt: WARN"));
}
