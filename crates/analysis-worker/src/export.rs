//! The reports the page offers of what it shows — Markdown, one HTML file, the CLI's `--json`
//! line — made in the analysis worker from the input again (read in the same format and judged
//! against the same thresholds: the same document as shown). They hold the whole report of the
//! worst text and, in the JSON, of every text, and a short text that passed keeps only a
//! summary, whose whole report is made again as it is written: scorers the page's wasm does not
//! link. Pure but for the wasm export: unit-tested natively.

use wasm_bindgen::prelude::*;

use coherency_core::analyze::Thresholds;
use coherency_core::ingest::Format;
use coherency_core::judge::{JudgeOptions, JudgedDocument};
use coherency_core::render::{html, json, markdown, DocumentSummary};

/// The report `what` (`markdown`, `html` or `json`) of `bytes` read as `chosen` (`None`: the
/// detected format) and judged against `thresholds`, under the name `name`; an error in words
/// for anything else, or a JSON line when nothing was analysed.
pub fn export(
    bytes: &[u8],
    chosen: Option<Format>,
    thresholds: Thresholds,
    name: &str,
    what: &str,
) -> Result<Vec<u8>, String> {
    let doc = JudgedDocument::read_with(bytes, chosen, &JudgeOptions { thresholds, ..JudgeOptions::default() });
    let summary = || DocumentSummary::new(name, &doc.transcript, &doc.report);
    match what {
        "markdown" => Ok(markdown::markdown(&summary()).into_bytes()),
        "html" => Ok(html::html(&summary()).into_bytes()),
        "json" => {
            let worst = doc.report.worst().ok_or("nothing was analysed")?;
            let worst_report = worst.full_report(&doc.transcript);
            // The count of invalid UTF-8 sequences replaced, as the CLI counts it.
            let replaced = bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
            let (t, r) = (&doc.transcript, &doc.report);
            // As the CLI's --json: every flagged message and the worst healthy ones, the rest
            // counted (a healthy log of 300,000 records downloads a few kilobytes).
            let line = json::FileReport::new(name, bytes.len(), replaced, t, r, worst, &worst_report)
                .listing(json::Listing::DEFAULT);
            let mut out = serde_json::to_vec(&line).map_err(|e| e.to_string())?;
            out.push(b'\n');
            Ok(out)
        }
        other => Err(format!("the page asked for a report as '{other}'")),
    }
}

/// [`export`] for the page (`www/worker.js`'s `export` job): `format` a [`Format`] name (any
/// other: the detected format), `thresholds` [`Thresholds::compact`] (none: the defaults).
#[wasm_bindgen(js_name = exportInWorker)]
pub fn export_in_worker(
    bytes: &[u8],
    format: Option<String>,
    thresholds: Option<String>,
    name: &str,
    what: &str,
) -> Result<Vec<u8>, JsValue> {
    let thresholds = Thresholds::from_compact(thresholds.as_deref().unwrap_or_default())
        .map_err(|e| JsValue::from_str(&format!("the thresholds sent to the worker did not read back ({e})")))?;
    let chosen = format.as_deref().and_then(Format::from_name);
    export(bytes, chosen, thresholds, name, what).map_err(|e| JsValue::from_str(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reports_of_a_text_say_its_verdict() {
        let text = "Let me check again.\n".repeat(40);
        let md = export(text.as_bytes(), None, Thresholds::SEED, "pasted text", "markdown").unwrap();
        let md = String::from_utf8(md).unwrap();
        assert!(
            md.starts_with("### Coherency Analyzer: **FAIL** (Repetition collapse: the text loops) · pasted text"),
            "{md}"
        );
        let page = export(text.as_bytes(), None, Thresholds::SEED, "pasted text", "html").unwrap();
        assert!(String::from_utf8(page).unwrap().contains("<strong id=\"verdict\">FAIL</strong>"));
        assert!(export(b"x", None, Thresholds::SEED, "x", "pdf").unwrap_err().contains("'pdf'"));
    }

    #[test]
    fn the_json_report_is_the_clis_line() {
        let mut bytes = "Let me check again.\n".repeat(40).into_bytes();
        bytes.extend_from_slice(b"\xff tail");
        let line = export(&bytes, None, Thresholds::SEED, "loop.txt", "json").expect("a report");
        assert!(line.starts_with(b"{\"schema_version\":1,\"file\":\"loop.txt\",\"format\":\"text\""));
        assert!(line.ends_with(b"\n"));
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(v["input_bytes"], bytes.len());
        assert_eq!(v["replaced_invalid_utf8"], 1);
        // Read as another format, against other thresholds: as the page asked.
        let mut loose = Thresholds::SEED;
        loose.assign("loop.fail=1000").unwrap();
        let line = export(&bytes, Some(Format::Text), loose, "loop.txt", "json").unwrap();
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(v["thresholds_changed"][0]["name"], "loop.fail", "{v}");
        assert_eq!(v["thresholds"]["loop_fail"], 1000.0);
    }

    #[test]
    fn the_json_report_lists_the_flagged_and_the_worst_healthy_messages() {
        // A log of 30 healthy records and one looping one.
        let mut log = String::new();
        for i in 0..30 {
            let reply = format!("Record {i} is fine: the server answered the request and wrote the report.");
            log.push_str(&serde_json::json!({"messages": [{"role": "user", "content": "Status?"}, {"role": "assistant", "content": reply}]}).to_string());
            log.push('\n');
        }
        let looping = "I will check the file again.\n".repeat(30);
        log.push_str(&serde_json::json!({"messages": [{"role": "user", "content": "Go"}, {"role": "assistant", "content": looping}]}).to_string());
        log.push('\n');
        let line = export(log.as_bytes(), None, Thresholds::SEED, "log.jsonl", "json").expect("a report");
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        let rows = v["messages"].as_array().unwrap();
        assert_eq!(v["verdict"], "FAIL");
        assert_eq!(rows.len(), 1 + json::Listing::WORST, "{v}");
        assert_eq!(
            v["messages_not_listed"].as_u64().unwrap() as usize,
            v["counts"]["messages"].as_u64().unwrap() as usize - rows.len()
        );
        assert!(v["messages_not_listed"].as_u64().unwrap() > 0);
        assert!(rows.iter().any(|r| r["verdict"] == "FAIL"));
    }
}
