//! End-to-end: the built page (dist/, from scripts/build-page) served on 127.0.0.1, driven in
//! real headless Chromium through chromedriver (fantoccini): paste → Analyze → verdict and spans;
//! every fixture format uploaded through the real file input (and dropped) → the format, message
//! table and verdict the core gives natively.
//!
//! Run: `scripts/build-page && cargo test --test e2e -- --ignored --test-threads=1`
//! Env: CHROMEDRIVER (default /usr/bin/chromedriver), CHROME_BIN (default /usr/bin/chromium).
//! Each test starts its own file server, chromedriver and browser profile, and stops them even
//! when it fails.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// Tests

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn pasted_line_loop_fails_with_one_span_per_line() {
    let page = Page::open().await;
    let text = format!("I will look into it.\n{}", "Let me check the config file again.\n".repeat(20));
    page.set_input(&text).await;
    page.click("#analyze").await;

    page.expect_verdict("FAIL").await;
    let badge = page.text("#verdict").await;
    assert!(badge.contains("FAIL"), "the badge says FAIL in words, got {badge:?}");
    assert_eq!(page.text("#span-count").await, "20 highlighted spans");
    assert_eq!(page.count(".span").await, 20, "one .span element per highlighted span");
    assert_eq!(page.count(".span[data-kind=\"repeated_line\"]").await, 20);
    let reasons = page.text(".reasons").await;
    assert!(reasons.contains("maxline 20 ≥ 12"), "reasons name the tripped heuristic: {reasons}");
    // The text box keeps what the user pasted.
    assert_eq!(page.input_value().await, text);
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn ctrl_enter_analyses_and_coherent_text_passes() {
    let page = Page::open().await;
    let input = page.client.find(Locator::Css("#input")).await.expect("the text box");
    input.click().await.expect("focus the text box");
    input
        .send_keys(
            "Reclaim starts when free memory falls below the low watermark. The kernel then scans \
             the inactive list, writes back dirty pages, and frees clean ones until the high \
             watermark is reached again.",
        )
        .await
        .expect("type into the text box");
    let chord: String = [Key::Control, Key::Enter, Key::Null].into_iter().map(char::from).collect();
    input.send_keys(&chord).await.expect("press Ctrl+Enter");

    page.expect_verdict("PASS").await;
    assert_eq!(page.text("#span-count").await, "0 highlighted spans");
    assert_eq!(page.count(".span").await, 0);
    assert!(page.text(".reasons").await.contains("No heuristic reached its WARN threshold"));
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn empty_blank_and_short_inputs_get_a_message_not_a_verdict() {
    let page = Page::open().await;
    for (input, message) in [
        ("", "The text box is empty"),
        ("   \n\t  \n", "The text box holds only whitespace"),
        ("hi there", "Too short to judge: 8 bytes"),
    ] {
        page.set_input(input).await;
        page.click("#analyze").await;
        page.wait_for_js(
            &format!(
                "const e = document.querySelector('#too-short'); return !!e && e.textContent.includes({message:?});"
            ),
            &format!("a too-short message {message:?}"),
        )
        .await;
        assert_eq!(page.count("#verdict").await, 0, "no verdict badge for {input:?}");
        assert_eq!(page.input_value().await, input, "the text box keeps {input:?}");
    }
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn line_loop_sample_fails_and_the_users_text_can_be_restored() {
    let page = Page::open().await;
    let mine = "My own draft transcript, not to be lost.";
    page.set_input(mine).await;
    page.click("[data-sample=\"line-loop\"]").await;

    page.expect_verdict("FAIL").await;
    page.wait_for_js("return document.querySelector('#span-count')?.dataset.count === '200';", "200 spans").await;
    assert_eq!(page.count(".span").await, 200);
    assert!(page.input_value().await.starts_with("I will check the reclaim counters"));

    page.click("#restore").await;
    page.wait_for_js(&format!("return document.querySelector('#input').value === {mine:?};"), "the user's text back")
        .await;
    page.expect_verdict("PASS").await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_metric_row_scrolls_to_its_first_span_by_click_and_by_keyboard() {
    let page = Page::open().await;
    let preamble: String =
        (1..=150).map(|i| format!("Line {i} of the preamble says something new about topic number {i}.\n")).collect();
    page.set_input(&format!("{preamble}{}", "This line repeats itself.\n".repeat(20))).await;
    page.click("#analyze").await;
    page.expect_verdict("FAIL").await;

    let first = "document.querySelector('.span[data-kind=\"repeated_line\"]')";
    let visible = format!(
        "const r = {first}.getBoundingClientRect(); \
         const box = document.getElementById('analysed-text').getBoundingClientRect(); \
         return r.height > 0 && r.top >= Math.max(0, box.top) - 1 && r.bottom <= Math.min(innerHeight, box.bottom) + 1;"
    );
    page.settle_scrolling().await;
    assert_eq!(page.js(&visible).await, json!(false), "the first repeated line starts out of view");

    page.click("tr[data-metric=\"maxline\"]").await;
    page.wait_for_js(&visible, "the first repeated line scrolled into view").await;
    assert_eq!(page.js(&format!("return {first}.classList.contains('flash');")).await, json!(true));

    // Back to the top, then the same with the keyboard.
    page.js("window.scrollTo({top: 0, behavior: 'instant'}); \
         document.getElementById('analysed-text').scrollTo({top: 0, behavior: 'instant'}); return null;")
        .await;
    page.wait_for_js(&format!("return !(() => {{ {visible} }})();"), "scrolled back to the top").await;
    let row = page.client.find(Locator::Css("tr[data-metric=\"maxline\"]")).await.expect("the maxline row");
    page.js("document.querySelector('tr[data-metric=\"maxline\"]').focus(); return null;").await;
    row.send_keys(&char::from(Key::Enter).to_string()).await.expect("press Enter on the row");
    page.wait_for_js(&visible, "the first repeated line scrolled into view by keyboard").await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_theme_toggle_switches_and_is_remembered() {
    let page = Page::open().await;
    let pressed = || page.js("return document.getElementById('theme-toggle').getAttribute('aria-pressed');");
    let theme = || page.js("return document.documentElement.dataset.theme ?? null;");
    let before = pressed().await;
    page.click("#theme-toggle").await;
    let want = if before == json!("true") { "light" } else { "dark" };
    page.wait_for_js(&format!("return document.documentElement.dataset.theme === {want:?};"), "the theme switched")
        .await;
    assert_ne!(pressed().await, before);

    page.client.refresh().await.expect("reload");
    page.client.wait().for_element(Locator::Css("#theme-toggle")).await.expect("the app mounted again");
    assert_eq!(theme().await, json!(want), "the choice survives a reload");
    assert_eq!(pressed().await, json!((want == "dark").to_string()));
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_one_megabyte_paste_is_analysed_and_highlighted() {
    let page = Page::open().await;
    let prose: String =
        (0..11_000).map(|i| format!("Note {i}: the scan of zone {} found {} pages.\n", i % 97, i * 7)).collect();
    let text = format!("{prose}{}", "The same line, once again.\n".repeat(20_000));
    assert!(text.len() > 1_000_000);
    let want = coherency::analyze::analyze(&text).spans.len();

    let started = Instant::now();
    page.set_input(&text).await;
    page.click("#analyze").await;
    page.wait_for_js(
        &format!("return document.querySelector('#span-count')?.dataset.count === '{want}';"),
        "the span count of the 1 MB paste",
    )
    .await;
    page.expect_verdict("FAIL").await;
    let measured = page.text("#verdict-card .measured").await;
    eprintln!("1 MB paste: {want} spans shown {:?} after the paste; the page says: {measured}", started.elapsed());
    assert_eq!(page.count(".span").await, want);
    let shown = page.js("return document.getElementById('analysed-text').textContent.length;").await;
    assert_eq!(shown, json!(text.len()), "the whole (ASCII) text is rendered");
    page.close().await;
}

/// What the core says about a fixture, to hold the page to: the CLI's `format`, `verdict` and
/// `messages` (`coherency analyze --json`) come from the same calls.
struct Expected {
    format: &'static str,
    rows: usize,
    /// The worst message's verdict; `None` when nothing could be analysed.
    verdict: Option<&'static str>,
    all_too_short: bool,
    first_channel: Option<&'static str>,
    /// Every row, worst first: `[verdict, channel]`.
    table: Value,
    /// For a stream: `[chunks, saw_done]`.
    stream: Option<(usize, bool)>,
}

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats").join(name)
}

fn expected(name: &str) -> Expected {
    use coherency::ingest;
    let bytes = std::fs::read(fixture_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let t = ingest::read(&bytes);
    let r = ingest::analyze_transcript(&t);
    let rows = r.rows(&t);
    Expected {
        format: t.format.name(),
        rows: rows.len(),
        verdict: r.verdict.map(|v| v.as_str()),
        all_too_short: !r.reports.is_empty() && r.reports.iter().all(|m| m.report.too_short),
        first_channel: rows.first().map(|row| row.channel),
        table: rows.iter().map(|row| json!([row.verdict.as_str(), row.channel])).collect(),
        stream: t.stream.as_ref().map(|s| (s.chunks, s.saw_done)),
    }
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn every_fixture_format_uploaded_shows_the_cores_format_rows_and_verdict() {
    let page = Page::open().await;
    // Every fixture under tests/data/formats (the goldens aside), in name order.
    let mut fixtures: Vec<String> = std::fs::read_dir(fixture_path(""))
        .expect("tests/data/formats")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| !name.ends_with(".expected.json"))
        .collect();
    fixtures.sort();
    for required in ["vllm.sse", "deepseek_reasoning_loop.sse", "ollama.ndjson", "claude_session.jsonl", "binary.bin"] {
        assert!(fixtures.iter().any(|f| f == required), "fixture {required} is missing");
    }
    for name in &fixtures {
        let name = name.as_str();
        let want = expected(name);
        page.upload(&fixture_path(name)).await;
        let detected = page.js("return document.getElementById('detected-format')?.dataset.format ?? null;").await;
        assert_eq!(detected, json!(want.format), "{name}: detected format");
        match want.format {
            "binary" => {
                let msg = page.text("#not-text").await;
                assert!(msg.contains("Not a text file: this is a PNG image"), "{name}: {msg}");
                assert_eq!(page.count("#verdict, #overall-verdict, #message-table").await, 0, "{name}: no verdict");
            }
            "text" => {
                page.expect_verdict(want.verdict.unwrap_or("?")).await;
                assert_eq!(page.count("#message-table, #document").await, 0, "{name}: plain text has no table");
                let raw = std::fs::read_to_string(fixture_path(name)).expect("UTF-8 fixture");
                let shown = page.js("return document.getElementById('analysed-text').textContent;").await;
                assert_eq!(shown, json!(raw.trim_start_matches('\u{feff}')), "{name}: the text, BOM dropped");
            }
            _ => {
                let rows = page.count("#message-table tbody tr").await;
                assert_eq!(rows, want.rows, "{name}: message rows");
                let overall = page.js("return document.getElementById('document').dataset.overall;").await;
                match want.verdict {
                    _ if want.all_too_short => assert_eq!(overall, json!("too-short"), "{name}"),
                    Some(v) => {
                        let shown = page.js("return document.getElementById('overall-verdict').dataset.verdict;").await;
                        assert_eq!(shown, json!(v), "{name}: overall verdict");
                    }
                    None => assert_eq!(overall, json!("nothing"), "{name}"),
                }
                let table = page
                    .js("return [...document.querySelectorAll('#message-table tbody tr')] \
                         .map(r => [r.dataset.verdict, r.dataset.channel]);")
                    .await;
                assert_eq!(table, want.table, "{name}: every row, worst first");
                let stream = page
                    .js("const s = document.getElementById('stream-info'); \
                         return s ? [Number(s.dataset.chunks), s.dataset.done === 'true'] : null;")
                    .await;
                assert_eq!(stream, json!(want.stream.map(|(c, d)| json!([c, d]))), "{name}: stream facts");
                if let Some(channel) = want.first_channel {
                    let first =
                        page.js("return document.querySelector('#message-table tbody tr').dataset.channel;").await;
                    assert_eq!(first, json!(channel), "{name}: first row");
                }
            }
        }
    }
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_reasoning_loop_behind_a_clean_answer_fails_and_rows_show_their_text() {
    let page = Page::open().await;
    page.upload(&fixture_path("deepseek_reasoning_loop.sse")).await;
    let overall = "return document.getElementById('overall-verdict')?.dataset.verdict ?? null;";
    assert_eq!(page.js(overall).await, json!("FAIL"));
    let first = "#message-table tbody tr:first-child";
    assert_eq!(
        page.js(&format!("return document.querySelector('{first}').dataset.channel;")).await,
        json!("reasoning")
    );
    let current = format!("return document.querySelector('{first}').getAttribute('aria-current');");
    assert_eq!(page.js(&current).await, json!("true"));
    // The worst row is shown in full: the reasoning, its 36 repeated lines highlighted.
    page.expect_verdict("FAIL").await;
    assert_eq!(page.count(".span").await, 36);
    assert!(page.text("#analysed-text").await.starts_with("The invoices are 120, 80 and 45 euros."));
    let stream = page.text("#stream-info").await;
    assert!(stream.contains("cleanly, with data: [DONE]") && stream.contains("stop"), "{stream}");

    // Click the answer: its own, clean analysis.
    page.click("#message-table tr[data-channel=\"content\"]").await;
    page.expect_verdict("PASS").await;
    let content = page.text("#analysed-text").await;
    assert_eq!(content, "The three invoices total 245 euros (120 + 80 + 45).");
    assert!(page.text("#detail-heading").await.contains("assistant content"));
    assert_eq!(page.js(overall).await, json!("FAIL"), "the overall verdict stays the worst message's");

    // Arrow keys move between rows; Enter on the reasoning row brings the loop back.
    page.js("document.querySelector('#message-table tr[data-channel=\"combined\"]').focus(); return null;").await;
    let row = page.client.find(Locator::Css("#message-table tr[data-channel=\"combined\"]")).await.expect("row");
    row.send_keys(&char::from(Key::Up).to_string()).await.expect("press Up on the row");
    let focused = page.js("return document.activeElement.dataset.channel ?? null;").await;
    assert_eq!(focused, json!("reasoning"), "Up moves to the row above");
    let row = page.client.find(Locator::Css("#message-table tr[data-channel=\"reasoning\"]")).await.expect("row");
    row.send_keys(&char::from(Key::Enter).to_string()).await.expect("press Enter on the row");
    page.expect_verdict("FAIL").await;
    page.wait_for_js("return document.querySelectorAll('.span').length === 36;", "the reasoning's 36 spans").await;

    // From the analysis back up to the table.
    page.js("document.getElementById('analysed-text').scrollIntoView({behavior: 'instant'}); return null;").await;
    page.click("#back-to-messages").await;
    page.wait_for_js(
        "const t = document.getElementById('messages').getBoundingClientRect().top; return t >= -1 && t < innerHeight / 2;",
        "the message table in view",
    )
    .await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_file_dropped_anywhere_is_read_and_the_overlay_shows_while_dragging() {
    let page = Page::open().await;
    let bytes = std::fs::read(fixture_path("ollama.ndjson")).expect("fixture");
    let text = String::from_utf8(bytes).expect("UTF-8 fixture");
    page.client
        .execute(
            "window.__dt = new DataTransfer(); \
             window.__dt.items.add(new File([arguments[0]], 'ollama.ndjson', {type: 'application/x-ndjson'})); \
             window.__dt.items.add(new File(['second'], 'second.txt', {type: 'text/plain'})); \
             document.querySelector('.footer').dispatchEvent(new DragEvent('dragenter', {bubbles: true, cancelable: true, dataTransfer: window.__dt})); \
             return null;",
            vec![json!(text)],
        )
        .await
        .expect("drag a file over the page");
    page.wait_for_js("return document.getElementById('drop-overlay').classList.contains('shown');", "the drop overlay")
        .await;
    page.js("document.getElementById('drop-overlay').dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: window.__dt})); return null;")
        .await;
    page.wait_for_js(
        "return document.getElementById('detected-format')?.dataset.format === 'ollama-ndjson';",
        "the dropped file read",
    )
    .await;
    assert_eq!(
        page.js("return document.getElementById('drop-overlay').classList.contains('shown');").await,
        json!(false)
    );
    assert_eq!(page.count("#message-table tbody tr").await, expected("ollama.ndjson").rows);
    assert!(page.text("#format-bar").await.contains("file ollama.ndjson"));
    let status = page.text("#status").await;
    assert!(status.contains("2 files were dropped; this is the first, ollama.ndjson."), "{status}");
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_format_menu_rereads_the_same_bytes() {
    let page = Page::open().await;
    // The upload control is a real, labelled file input that the keyboard reaches.
    let input = "const i = document.querySelector('input[type=file]'); \
                 return i.tabIndex === 0 && !i.disabled && document.querySelector(`label[for=\"${i.id}\"]`) !== null;";
    assert_eq!(page.js(input).await, json!(true));
    page.upload(&fixture_path("vllm.sse")).await;
    assert_eq!(page.count("#message-table tbody tr").await, expected("vllm.sse").rows);
    let select = page.client.find(Locator::Css("#format-select")).await.expect("the format menu");
    select.select_by_value("text").await.expect("read as plain text");
    page.wait_for_js(
        "return !document.getElementById('message-table') && !!document.getElementById('verdict');",
        "plain text view",
    )
    .await;
    let raw = std::fs::read_to_string(fixture_path("vllm.sse")).expect("fixture");
    let shown = page.js("return document.getElementById('analysed-text').textContent;").await;
    assert_eq!(shown, json!(raw), "the same bytes, now as text");
    assert_eq!(page.js("return document.getElementById('detected-format').dataset.format;").await, json!("sse"));

    let select = page.client.find(Locator::Css("#format-select")).await.expect("the format menu");
    select.select_by_value("auto").await.expect("back to Auto");
    page.wait_for_js("return !!document.getElementById('message-table');", "the table back").await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_pasted_capture_is_detected_and_the_stream_sample_fails_in_its_reasoning() {
    let page = Page::open().await;
    let capture = std::fs::read_to_string(fixture_path("requests.jsonl")).expect("fixture");
    page.set_input(&capture).await;
    page.click("#analyze").await;
    page.wait_for_js(
        "return document.getElementById('detected-format')?.dataset.format === 'jsonl';",
        "JSONL detected",
    )
    .await;
    assert_eq!(page.count("#message-table tbody tr").await, expected("requests.jsonl").rows);
    // The unreadable line is listed with its number; the rest was analysed.
    assert_eq!(page.count("#diagnostics li[data-line=\"3\"]").await, 1);
    assert_eq!(page.input_value().await, capture, "the text box keeps the paste");

    // Hundreds of bad lines: the core's first ones by line, then how many more; the rest read.
    let bad = format!(
        "{}\n{}",
        r#"{"request":{"messages":[{"role":"user","content":"hello there, how are you today, my friend?"}]}}"#,
        "not json at all\n".repeat(300)
    );
    page.set_input(&bad).await;
    page.click("#analyze").await;
    page.wait_for_js("return document.querySelectorAll('#diagnostics li').length > 10;", "the diagnostics").await;
    let listed = coherency::ingest::read(bad.as_bytes()).diagnostics;
    assert_eq!(page.count("#diagnostics li").await, listed.len());
    assert_eq!(page.count("#diagnostics li[data-line=\"2\"]").await, 1);
    let last = page.js("return document.querySelector('#diagnostics li:last-child').textContent;").await;
    assert_eq!(last, json!(listed.last().map(|d| d.message.clone())));
    assert_eq!(page.count("#message-table tbody tr").await, 1, "the good line is still analysed");

    page.click("[data-sample=\"reasoning-loop-sse\"]").await;
    page.wait_for_js("return document.getElementById('detected-format')?.dataset.format === 'sse';", "SSE detected")
        .await;
    assert_eq!(page.js("return document.getElementById('overall-verdict').dataset.verdict;").await, json!("FAIL"));
    let first = page.js("return document.querySelector('#message-table tbody tr').dataset.channel;").await;
    assert_eq!(first, json!("reasoning"));
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn screenshots_of_a_multi_message_file_in_light_and_dark() {
    // Saved only when SCREENSHOT_DIR is set; otherwise this just checks both themes render.
    let page = Page::open().await;
    page.client.set_window_size(1280, 2000).await.expect("resize");
    let shots = [
        ("requests.jsonl", "light"),
        ("requests.jsonl", "dark"),
        ("deepseek_reasoning_loop.sse", "dark"),
        ("anthropic.sse", "light"),
        ("curl_i_401.http", "light"),
        ("binary.bin", "dark"),
    ];
    for (file, theme) in shots {
        page.js(&format!("document.documentElement.dataset.theme = '{theme}'; return null;")).await;
        page.upload(&fixture_path(file)).await;
        page.js("window.scrollTo({top: 0, behavior: 'instant'}); return null;").await;
        page.settle_scrolling().await;
        if let Ok(dir) = std::env::var("SCREENSHOT_DIR") {
            let png = page.client.screenshot().await.expect("screenshot");
            let path = Path::new(&dir).join(format!("{}-{theme}.png", file.replace('.', "_")));
            std::fs::write(&path, png).expect("write the screenshot");
            eprintln!("saved {}", path.display());
        }
    }
    // The drop overlay, while a file is dragged over the page.
    page.js("const dt = new DataTransfer(); dt.items.add(new File(['x'], 'x.txt')); \
         document.body.dispatchEvent(new DragEvent('dragenter', {bubbles: true, cancelable: true, dataTransfer: dt})); \
         return null;")
        .await;
    page.wait_for_js("return document.getElementById('drop-overlay').classList.contains('shown');", "the overlay")
        .await;
    if let Ok(dir) = std::env::var("SCREENSHOT_DIR") {
        let png = page.client.screenshot().await.expect("screenshot");
        std::fs::write(Path::new(&dir).join("drop-overlay.png"), png).expect("write the screenshot");
    }
    page.close().await;
}

// ---------------------------------------------------------------------------------------------
// Harness

/// A browser session on the served page, with everything it started.
struct Page {
    client: Client,
    // Dropped after `client`, in this order: browser session, driver, profile dir, file server.
    _driver: Driver,
    _profile: TempDir,
    _server: FileServer,
}

impl Page {
    async fn open() -> Page {
        let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
        assert!(
            dist.join("index.html").is_file() && dist.join("pkg").is_dir(),
            "{} has no built page: run scripts/build-page first",
            dist.display()
        );
        let server = FileServer::start(dist);
        let profile = TempDir::new("coherency-e2e-profile");
        let driver = Driver::start();

        let chrome = std::env::var("CHROME_BIN").unwrap_or_else(|_| "/usr/bin/chromium".to_string());
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--disable-quic".to_string(),
            "--no-first-run".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            "--window-size=1280,900".to_string(),
            format!("--user-data-dir={}", profile.0.display()),
        ];
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".to_string(), json!({ "binary": chrome, "args": args }));
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
            .unwrap_or_else(|e| panic!("could not start a Chromium session through chromedriver: {e}"));

        let page = Page { client, _driver: driver, _profile: profile, _server: server };
        page.client.goto(&format!("http://127.0.0.1:{}/", page._server.port)).await.expect("load the page");
        page.client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css("#analyze"))
            .await
            .expect("the app mounted (wasm loaded)");
        page
    }

    async fn close(self) {
        let Page { client, _driver, _profile, _server } = self;
        let _ = client.close().await;
    }

    async fn js(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Polls `script` (which returns a boolean) until it is true, for up to 10 s.
    async fn wait_for_js(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if self.client.execute(script, vec![]).await.ok() == Some(json!(true)) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the page has stopped (smooth-)scrolling, for up to 5 s.
    async fn settle_scrolling(&self) {
        let mut last = Value::Null;
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(150)).await;
            let now = self.js("return window.scrollY;").await;
            if now == last {
                return;
            }
            last = now;
        }
    }

    /// Puts `text` in the text box as a paste would (value + input event).
    async fn set_input(&self, text: &str) {
        self.client
            .execute(
                "const t = document.getElementById('input'); t.value = arguments[0]; \
                 t.dispatchEvent(new Event('input', {bubbles: true}));",
                vec![json!(text)],
            )
            .await
            .expect("set the text box");
    }

    async fn input_value(&self) -> String {
        self.js("return document.getElementById('input').value;").await.as_str().unwrap_or_default().to_string()
    }

    async fn click(&self, css: &str) {
        // In view first, at once (the page scrolls smoothly, and a moving target is missed).
        self.client
            .execute(
                "document.querySelector(arguments[0])?.scrollIntoView({block: 'center', behavior: 'instant'}); return null;",
                vec![json!(css)],
            )
            .await
            .unwrap_or_else(|e| panic!("scroll to {css}: {e}"));
        let el = self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.click().await.unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    async fn text(&self, css: &str) -> String {
        let el = self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.text().await.unwrap_or_else(|e| panic!("text of {css}: {e}"))
    }

    async fn count(&self, css: &str) -> usize {
        self.client.find_all(Locator::Css(css)).await.map(|v| v.len()).unwrap_or_else(|e| panic!("find {css}: {e}"))
    }

    /// Chooses `path` in the page's real file input (as a user would in the file dialog) and
    /// waits until the page shows that file.
    async fn upload(&self, path: &Path) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let input = self.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
        input.send_keys(&path.display().to_string()).await.expect("choose the file");
        self.wait_for_js(
            &format!(
                "const bar = document.querySelector('#format-bar .detected'); \
                 const status = document.getElementById('status')?.textContent ?? ''; \
                 return !status.startsWith('Reading') && !!bar && bar.textContent.includes({:?});",
                format!("file {name} ")
            ),
            &format!("the page to show {name}"),
        )
        .await;
    }

    /// Waits up to 10 s for the verdict badge to say `want` (its `data-verdict`).
    async fn expect_verdict(&self, want: &str) {
        let script = format!("return document.querySelector('#verdict')?.dataset.verdict === {want:?};");
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.client.execute(&script, vec![]).await.ok() != Some(json!(true)) {
            if Instant::now() > deadline {
                let got = self.js("return document.querySelector('#verdict')?.dataset.verdict ?? null;").await;
                panic!("expected verdict {want}, the page shows {got}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// chromedriver on a free loopback port, in its own process group so that the browsers it
/// starts go with it.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        use std::os::unix::process::CommandExt;
        let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".to_string());
        let port = free_port();
        let child = Command::new(&bin)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("could not start chromedriver at {bin} (set CHROMEDRIVER): {e}"));
        let driver = Driver { child, port };
        let deadline = Instant::now() + Duration::from_secs(15);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen on port {port} within 15 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole group: chromedriver and any browser a failed test left behind.
        signal_group(self.child.id(), libc::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        signal_group(self.child.id(), libc::SIGKILL);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `signal` to the process group led by `pid` (a child started with `process_group(0)`).
fn signal_group(pid: u32, signal: libc::c_int) {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return };
    if pid > 1 {
        // SAFETY: kill(2) takes plain integers; a negative pid names the group this test created.
        unsafe {
            libc::kill(-pid, signal);
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free loopback port")
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(prefix: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let name = format!("{prefix}-{}-{}-{nanos}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
        let dir = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A tiny static file server for `root` on 127.0.0.1 (GET only, one thread per connection).
struct FileServer {
    port: u16,
    stop: Arc<AtomicBool>,
}

impl FileServer {
    fn start(root: PathBuf) -> FileServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the file server");
        let port = listener.local_addr().expect("file server address").port();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let root = root.clone();
                std::thread::spawn(move || serve(stream, &root));
            }
        });
        FileServer { port, stop }
    }
}

impl Drop for FileServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn serve(mut stream: TcpStream, root: &Path) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 64 * 1024 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&request);
    let mut parts = head.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let path = if path.ends_with('/') { format!("{path}index.html") } else { path.to_string() };
    let rel = Path::new(path.trim_start_matches('/'));
    let safe = rel.components().all(|c| matches!(c, Component::Normal(_)));
    let body = if method == "GET" && safe { std::fs::read(root.join(rel)).ok() } else { None };
    let response = match body {
        Some(body) => {
            let mut head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                mime(rel),
                body.len()
            )
            .into_bytes();
            head.extend_from_slice(&body);
            head
        }
        None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
    };
    let _ = stream.write_all(&response);
}

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
