//! Golden files: what a test's output must equal, byte for byte, kept in the repository and
//! refreshed on purpose (`UPDATE_GOLDEN=1` writes the output instead, for the change to be
//! reviewed in git). A difference fails with a unified diff of the lines that changed
//! (`similar`, the diff engine of insta), not two whole files to compare by eye.
//!
//! Not a snapshot library's own format: the golden files stay as they are (`*.expected.json`,
//! `*.md`, `*.html`), because the wasm build's test includes the same JSON files verbatim and
//! two of the reports hold carriage returns that must come out as they went in (expect-test
//! reads a file's "\r\n" as "\n"; insta keeps snapshots in files of its own, with a header).

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use similar::TextDiff;

/// At most this many lines of a diff are shown.
const DIFF_LINES: usize = 120;

/// Holds `got` equal to the file at `golden`, byte for byte; with `UPDATE_GOLDEN` set, writes
/// `got` there instead (creating its folder). A missing file reads as empty.
pub fn assert_golden(golden: &Path, got: &str) {
    if let Some(why) = golden_difference(golden, got) {
        panic!("{why}");
    }
}

/// [`assert_golden`] without the panic: how `got` differs from the file at `golden` (a unified
/// diff, in words), or `None` when it does not — or when `UPDATE_GOLDEN` is set and it was
/// written there.
pub fn golden_difference(golden: &Path, got: &str) -> Option<String> {
    let want = fs::read(golden).unwrap_or_default();
    if want == got.as_bytes() {
        return None;
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(folder) = golden.parent() {
            fs::create_dir_all(folder).expect("create the golden file's folder");
        }
        fs::write(golden, got).unwrap_or_else(|e| panic!("{}: {e}", golden.display()));
        return None;
    }
    Some(difference(golden, &String::from_utf8_lossy(&want), got))
}

/// Why `got` is not the golden file's `want`, in words and a unified diff.
fn difference(golden: &Path, want: &str, got: &str) -> String {
    let name = golden.display().to_string();
    let mut out = if want.is_empty() {
        format!("{name} is missing or empty: run with UPDATE_GOLDEN=1 to write it, then review it\n")
    } else {
        format!("the output differs from {name} (UPDATE_GOLDEN=1 rewrites it; review the diff):\n")
    };
    if want.replace("\r\n", "\n") == got.replace("\r\n", "\n") {
        out.push_str("only the line endings differ (\\r\\n against \\n)\n");
        return out;
    }
    let diff = TextDiff::from_lines(want, got);
    let text = diff.unified_diff().context_radius(2).header(&name, "output").to_string();
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(DIFF_LINES) {
        let _ = writeln!(out, "{line}");
    }
    if lines.len() > DIFF_LINES {
        let _ = writeln!(out, "… and {} more lines of diff", lines.len() - DIFF_LINES);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, content: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("coherency-golden-{}-{name}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("golden.txt");
        fs::write(&path, content).unwrap();
        path
    }

    #[test]
    fn the_same_bytes_pass() {
        assert_golden(&temp("same", "one\r\ntwo\n"), "one\r\ntwo\n");
    }

    #[test]
    fn a_changed_line_is_shown_as_a_diff() {
        let message = difference(Path::new("g.txt"), "one\ntwo\nthree\n", "one\n2\nthree\n");
        assert!(message.contains("differs from g.txt"), "{message}");
        assert!(message.contains("\n-two\n+2\n"), "{message}");
    }

    #[test]
    fn line_endings_alone_are_said() {
        let message = difference(Path::new("g.txt"), "one\ntwo\n", "one\r\ntwo\n");
        assert!(message.contains("only the line endings differ"), "{message}");
    }

    #[test]
    #[should_panic(expected = "differs")]
    fn a_difference_fails() {
        assert_golden(&temp("changed", "one\ntwo\n"), "one\nthree\n");
    }
}
