//! End-to-end: the HTML reports (`coherency analyze --html`, `render::html`) as a browser reads
//! them — every fixture's report opened from disk in headless Chromium with JavaScript off shows
//! the verdict and its marked spans; a transcript full of script, SVG and `javascript:`
//! payloads (in the text, a message name, a tool name) gives a report in which, with JavaScript
//! on, nothing runs and no element of the input's appears.
//!
//! With JavaScript off, the reports are read through chromedriver (Chromium's content setting
//! blocks the page's scripts, not the driver's); with it on, Chromium prints the DOM it built
//! (`--dump-dom`). Either way what is asserted is the browser's own parse.
//! Run: `cargo test -p coherency-page --test e2e_reports -- --ignored`.

use std::path::Path;
use std::process::Command;

use coherency_core::judge::JudgedDocument;
use coherency_core::render::{html, DocumentSummary};
use coherency_e2e_harness::browser::{chrome_bin, chromium_args, Driver, TempDir};
use coherency_test_support::{fixture, input_fixtures};
use fantoccini::{ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

/// A Chromium session through chromedriver with JavaScript blocked for every page.
async fn session_without_javascript(profile: &TempDir, driver: &Driver) -> fantoccini::Client {
    let (chrome, args) = (chrome_bin(), chromium_args(profile));
    let prefs = json!({"profile.managed_default_content_settings.javascript": 2});
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".to_string(), json!({ "binary": chrome, "args": args, "prefs": prefs }));
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .unwrap_or_else(|e| panic!("could not start a Chromium session through chromedriver: {e}"))
}

/// The DOM Chromium builds from `file`, scripts on.
fn dump_dom(file: &Path) -> String {
    let chrome = chrome_bin();
    let profile = TempDir::new("coherency-e2e-report-profile");
    let mut cmd = Command::new(&chrome);
    cmd.args(chromium_args(&profile));
    let out = cmd
        .arg("--dump-dom")
        .arg(format!("file://{}", file.display()))
        .output()
        .unwrap_or_else(|e| panic!("could not run {chrome} (set CHROME_BIN): {e}"));
    assert!(out.status.success(), "chromium failed on {}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("the DOM as UTF-8")
}

fn report_file(dir: &Path, name: &str, bytes: &[u8]) -> (std::path::PathBuf, JudgedDocument) {
    let doc = JudgedDocument::read(bytes, None);
    let page = html::html(&DocumentSummary::new(name, &doc.transcript, &doc.report));
    let path = dir.join(format!("{}.html", name.replace(['/', '.'], "_")));
    std::fs::write(&path, page).unwrap();
    (path, doc)
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; run by scripts/test"]
async fn every_fixtures_report_shows_its_verdict_and_spans_with_javascript_off() {
    let dir = TempDir::new("coherency-e2e-reports");
    let (profile, driver) = (TempDir::new("coherency-e2e-report-profile"), Driver::start());
    let client = session_without_javascript(&profile, &driver).await;
    // JavaScript is off: a page's script does not run.
    let probe = dir.0.join("probe.html");
    std::fs::write(&probe, "<title>before</title><script>document.title = 'ran'</script>").unwrap();
    client.goto(&format!("file://{}", probe.display())).await.expect("open the probe");
    assert_eq!(client.title().await.unwrap(), "before", "JavaScript is not off");

    let mut checked = 0;
    for name in input_fixtures() {
        let bytes = std::fs::read(fixture(&name)).unwrap();
        let (path, doc) = report_file(&dir.0, &name, &bytes);
        if doc.no_text().is_some() {
            continue;
        }
        client.goto(&format!("file://{}", path.display())).await.expect("open the report");
        let summary = DocumentSummary::new(&name, &doc.transcript, &doc.report);
        let verdict = client.find(Locator::Css("#verdict")).await.expect("a verdict").text().await.unwrap();
        assert_eq!(verdict, summary.verdict_label, "{name}");
        // A stream of errors only has no text: its verdict is said, there is nothing to mark.
        let Some((_, report, _)) = summary.worst.as_ref() else { continue };
        // Every span of the worst text (they all lie in the bytes shown) is at least one mark.
        let marks = client.find_all(Locator::Css("#text mark")).await.unwrap().len();
        assert!(marks >= report.spans.len(), "{name}: {marks} marks for {} spans", report.spans.len());
        let onset = client.find_all(Locator::Css("#onset")).await.unwrap().len();
        assert_eq!(onset, usize::from(report.onset.is_some()), "{name}: the onset marker");
        let reasons = client.find_all(Locator::Css("#reasons li")).await.unwrap().len();
        assert_eq!(reasons, report.reasons.len(), "{name}: the reasons");
        checked += 1;
    }
    assert!(checked >= 40, "{checked} reports checked");
    client.close().await.expect("close the session");
}

#[test]
#[ignore = "needs Chromium; run by scripts/test"]
fn hostile_payloads_in_a_report_stay_inert_with_javascript_on() {
    let dir = TempDir::new("coherency-e2e-xss");
    let payload = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\">\
                   <svg onload=\"document.title='pwned'\"></svg><a href=\"javascript:document.title='pwned'\">x</a>\
                   <iframe srcdoc=\"<script>parent.document.title='pwned'</script>\"></iframe>";
    let log = serde_json::json!({"messages": [
        {"role": "user", "content": payload},
        {"role": "assistant", "name": payload, "content": format!("{payload}\n{}", format!("{payload} again\n").repeat(40)),
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": payload, "arguments": "{}"}}]},
        {"role": "tool", "name": payload, "tool_call_id": "c1", "content": payload}]})
    .to_string();
    let (path, doc) = report_file(&dir.0, "<img src=x onerror=alert(1)>.json", log.as_bytes());
    assert_eq!(doc.report.verdict.map(|v| v.as_str()), Some("FAIL"), "the loop of payloads FAILs");
    let dom = dump_dom(&path);
    assert!(dom.contains("<title>FAIL · "), "the title is the report's, not the payload's");
    assert!(!dom.contains("pwned</title>"), "a payload ran");
    for element in ["<script", "<img", "<svg", "<iframe", "<a href=\"javascript"] {
        assert!(!dom.contains(element), "{element} from the input is in the DOM");
    }
    assert!(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"), "the payload shows as text");
}
