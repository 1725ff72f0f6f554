//! A report the CLI saved (`coherency analyze --json`), opened in the page: the files it holds as
//! the core read them back ([`coherency_core::render::saved_report`]), and what the page says
//! about them as a whole. Pure: unit-tested natively.

use std::rc::Rc;

use coherency_core::analyze::Verdict;
use coherency_core::render::saved_report::{read_saved_reports, SavedReports};
use coherency_core::wording::plural;

/// A saved report on show.
#[derive(Debug)]
pub struct SavedView {
    /// Like a document's: two views are equal when their `seq` is.
    pub seq: u64,
    /// The file's name, or "pasted text".
    pub name: Rc<str>,
    pub reports: SavedReports,
}

impl PartialEq for SavedView {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

impl SavedView {
    pub fn read(seq: u64, name: Rc<str>, bytes: &[u8]) -> SavedView {
        SavedView { seq, name, reports: read_saved_reports(bytes) }
    }

    /// "A report saved by the CLI: 3 files — 1 FAIL, 2 PASS; 1 could not be read".
    pub fn summary(&self) -> String {
        let files = &self.reports.files;
        let count = |v: Verdict| {
            let n = files.iter().filter(|f| f.outcome.as_ref().is_ok_and(|a| a.judged_verdict == v)).count();
            (n > 0).then(|| format!("{n} {}", v.as_str()))
        };
        let mut parts: Vec<String> =
            [Verdict::Fail, Verdict::Warn, Verdict::Pass].into_iter().filter_map(count).collect();
        let unread = files.iter().filter(|f| f.outcome.is_err()).count();
        if unread > 0 {
            parts.push(format!("{unread} the CLI could not read"));
        }
        let mut out = format!("A report saved by the CLI: {}", plural(files.len(), "file", "files"));
        if !parts.is_empty() {
            out += &format!(" — {}", parts.join(", "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(file: &str, verdict: &str) -> String {
        let report = coherency_core::analyze::analyze("Hello there, this is a short but judged reply of a few words.");
        let mut v = serde_json::to_value(&report).unwrap();
        let o = v.as_object_mut().unwrap();
        for (k, x) in [
            ("schema_version", serde_json::json!(1)),
            ("file", file.into()),
            ("format", "text".into()),
            ("input_bytes", 61.into()),
            ("judged_verdict", verdict.into()),
            ("judged", true.into()),
            ("why", "model output".into()),
            ("messages", serde_json::json!([])),
            ("conversations", serde_json::json!([])),
            ("diagnostics", serde_json::json!([])),
        ] {
            o.insert(k.to_string(), x);
        }
        v.to_string()
    }

    #[test]
    fn the_summary_counts_the_files_by_verdict() {
        let input = [
            line("a.txt", "FAIL"),
            line("b.txt", "PASS"),
            line("c.txt", "PASS"),
            r#"{"schema_version":1,"file":"d.bin","error":"not text"}"#.to_string(),
        ]
        .join("\n");
        let view = SavedView::read(1, "all.jsonl".into(), input.as_bytes());
        assert!(view.reports.problems.is_empty(), "{:?}", view.reports.problems);
        assert_eq!(view.summary(), "A report saved by the CLI: 4 files — 1 FAIL, 2 PASS, 1 the CLI could not read");
        let view = SavedView::read(2, "x".into(), b"{\"schema_version\": 1}");
        assert_eq!(view.summary(), "A report saved by the CLI: 0 files");
        assert_eq!(view.reports.problems.len(), 1);
    }
}
