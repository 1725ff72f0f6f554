//! `coherency analyze --markdown` and `--html` on every fixture (the formats' and the plain
//! texts'), held to golden files under `tests/golden/`: what a user pastes into an issue or
//! attaches to a CI job. To refresh after an intended change: `UPDATE_GOLDEN=1 cargo test -p
//! coherency-cli --test reports`, then review the diff.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

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
        let golden = golden_path(fixture, ext);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            fs::create_dir_all(golden.parent().unwrap()).unwrap();
            fs::write(&golden, &got).unwrap();
            continue;
        }
        let want = fs::read_to_string(&golden)
            .unwrap_or_else(|_| panic!("{} is missing: run with UPDATE_GOLDEN=1", golden.display()));
        if got != want {
            differ.push(fixture.clone());
        }
    }
    assert!(differ.is_empty(), "{flag} differs from its golden file for: {differ:?}");
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
