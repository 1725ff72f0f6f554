//! End-to-end: the built page (dist/, from scripts/build-page) served on 127.0.0.1, driven in
//! real headless Chromium through chromedriver (fantoccini): paste → Analyze → verdict and spans;
//! every fixture format uploaded through the real file input (and dropped) → the format, message
//! table and verdict the core gives natively; a generated 20 MB log read in the worker with
//! progress, Cancel, and the size limit's message.
//!
//! Run: `scripts/build-page && cargo test --test e2e -- --ignored --test-threads=1`
//! Env: CHROMEDRIVER (default /usr/bin/chromedriver), CHROME_BIN (default /usr/bin/chromium).
//! Each test starts its own file server, chromedriver and browser profile, and stops them even
//! when it fails.

use coherency_e2e_harness::browser;
use coherency_test_support::biglog;
use coherency_test_support::grammar;
use coherency_test_support::textgen;

use std::path::{Path, PathBuf};
use std::time::Instant;

use browser::Page;
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::{json, Value};

use coherency_core::analyze::SpanKind;
use coherency_core::wording::thousands;

// ---------------------------------------------------------------------------------------------
// Tests

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn pasted_line_loop_fails_with_its_repeated_lines_as_one_span() {
    let page = Page::open().await;
    let text = format!("I will look into it.\n{}", "Let me check the config file again.\n".repeat(20));
    page.set_input(&text).await;
    page.click("#analyze").await;

    page.expect_verdict("FAIL").await;
    let badge = page.text("#verdict").await;
    assert!(badge.contains("FAIL"), "the badge says FAIL in words, got {badge:?}");
    // 20 repeated lines back to back (one span) and the loop they make, all on screen.
    let want = coherency_core::analyze::analyze(&text).spans.len();
    assert_eq!(page.text("#span-count").await, format!("{want} highlighted spans"));
    assert_eq!(page.count(".span").await, want, "one .span element per highlighted span");
    assert_eq!(page.count(".span[data-kind=\"repeated_line\"]").await, 1);
    assert_eq!(page.count(".span[data-kind=\"loop\"]").await, 1, "and the loop");
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
    assert!(page.text(".reasons").await.contains("No check reached its WARN threshold"));
    // Nothing to step through: no Previous / Next; a check that did not run is neutral, not a PASS.
    assert_eq!(page.count("#prev-span, #next-span").await, 0);
    let gzip = page.text("table.checks tr[data-metric=\"gzip_ratio\"] .badge").await;
    assert_eq!(gzip, "not judged");
    assert_eq!(page.count("table.checks tr[data-metric=\"gzip_ratio\"] .badge.pass").await, 0);
    assert!(page.text(".reasons").await.contains("gzip ratio not judged (judged on texts of 1 KiB or more)"));
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
    let sample = coherency_core::samples::samples().into_iter().find(|s| s.id == "line-loop").expect("the sample");
    let want = coherency_core::analyze::analyze(&sample.text).spans.len();
    assert_eq!(want, 2, "200 repeated lines back to back as one span, and the loop");
    page.wait_for_js(
        &format!("return document.querySelector('#span-count')?.dataset.count === '{want}';"),
        "the spans",
    )
    .await;
    // The text view renders the rows on screen only (the sample has 201 lines), the first span
    // among them.
    let rows = page.count("#analysed-text .vrow").await;
    assert!(rows > 0 && rows < 201, "{rows} rows rendered");
    assert_eq!(page.count("#span-0").await, 1);
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
        "const e = {first}; if (!e) return false; const r = e.getBoundingClientRect(); \
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

/// The policy the served page states in its `<meta http-equiv="Content-Security-Policy">`.
fn served_policy() -> String {
    let html = std::fs::read_to_string(browser::built_page().join("index.html")).unwrap();
    let tag = "http-equiv=\"Content-Security-Policy\" content=\"";
    let at = html.find(tag).expect("a CSP meta tag") + tag.len();
    html[at..at + html[at..].find('"').unwrap()].to_string()
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_page_keeps_its_content_security_policy_and_refuses_what_it_forbids() {
    // The served page and the single file each state a policy that allows no inline script;
    // docs/security.md gives the served one, for hosts that send it as a header.
    let served = served_policy();
    for must in ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "base-uri 'none'", "object-src 'none'"] {
        assert!(served.contains(must), "{must} in {served}");
    }
    let security = std::fs::read_to_string(coherency_test_support::workspace_root().join("docs/security.md")).unwrap();
    assert!(security.contains(&served), "docs/security.md states the page's policy as it is: {served}");

    let page = Page::open().await;
    page.click("[data-sample=\"line-loop\"]").await;
    page.expect_verdict("FAIL").await;
    // The warm-up worker the page starts as it loads ran too (within the policy).
    page.wait_for_js("return globalThis.coherencyWorker.warmedUp > 100000;", "the analysis warmed up in a worker")
        .await;
    assert_eq!(page.csp_violations().await, Vec::<String>::new(), "the page itself breaks no rule");
    // What the policy is for: an injected inline script does not run, and it is reported.
    page.js("const s = document.createElement('script'); s.textContent = 'document.title = \"pwned\"'; document.head.append(s); return null;").await;
    assert_ne!(page.js("return document.title;").await, json!("pwned"));
    let refused = page.csp_violations().await;
    assert!(refused.iter().any(|v| v.starts_with("script-src")), "{refused:?}");
    drop(page); // Closing checks for violations: this one was made on purpose.

    let single = browser::built_page().join("coherency-analyzer.html");
    let html = std::fs::read_to_string(&single).unwrap();
    assert!(
        html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; script-src 'sha256-")
    );
    let page = Page::open_from_disk(&single, "").await;
    page.set_input(&format!("Here is my plan.\n{}", "Let me check the config file again.\n".repeat(30))).await;
    page.click("#analyze").await;
    page.expect_verdict("FAIL").await;
    page.close().await; // No violation from the single file's inline blocks, its worker or its icon.
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
async fn a_one_megabyte_paste_is_analysed_and_only_its_visible_rows_rendered() {
    let page = Page::open().await;
    let prose: String =
        (0..11_000).map(|i| format!("Note {i}: the scan of zone {} found {} pages.\n", i % 97, i * 7)).collect();
    let text = format!("{prose}{}", "The same line, once again.\n".repeat(20_000));
    assert!(text.len() > 1_000_000);
    let want = coherency_core::analyze::analyze(&text).spans.len();

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
    // The view starts at the top, 11,000 lines before the first span; "Show the first" goes there.
    page.click("#show-first").await;
    page.wait_for_js(&visible_in_text("#span-0"), "the first span in view").await;
    let rendered = page.count(".span").await;
    assert!(rendered > 0 && rendered < 100, "{rendered} of {want} spans rendered");
    let shown = page.js("return document.getElementById('analysed-text').textContent.length;").await;
    assert!(shown.as_u64().is_some_and(|n| n > 0 && n < 20_000), "only the visible rows are rendered: {shown}");
    assert_eq!(page.text("#span-position").await, format!("span 1 of {}", thousands(want)));
    page.close().await;
}

/// A script that says whether the element `css` is rendered and wholly inside the text box and
/// the window.
fn visible_in_text(css: &str) -> String {
    format!(
        "const e = document.querySelector({css:?}); if (!e) return false; const r = e.getBoundingClientRect(); \
         const box = document.getElementById('analysed-text').getBoundingClientRect(); \
         return r.height > 0 && r.top >= Math.max(0, box.top) - 1 && r.bottom <= Math.min(innerHeight, box.bottom) + 1;"
    )
}

/// The byte of the text where the onset marker stands: its row's first byte plus the UTF-8
/// length of the row's text before it.
const ONSET_MARKER_BYTE: &str = "const m = document.querySelector('#analysed-text .onset-mark'); if (!m) return null; \
     const row = m.closest('.vrow'); let before = ''; \
     for (const n of row.childNodes) { if (n === m) break; before += n.textContent; } \
     return Number(row.dataset.start) + new TextEncoder().encode(before).length;";

/// Pastes `text`, expects FAIL with a loop span banded copy by copy and the onset marked where
/// the core puts it.
async fn expect_banded_loop(page: &Page, text: &str, copies: usize) {
    let report = coherency_core::analyze::analyze(text);
    let onset = report.onset.expect("the core finds an onset");
    let lp = report.spans.iter().position(|s| s.kind == SpanKind::Loop).expect("the core finds a loop");
    assert_eq!(report.spans[lp].count, copies);
    page.set_input(text).await;
    page.click("#analyze").await;
    page.expect_verdict("FAIL").await;
    assert_eq!(page.count(&format!("#span-{lp}.span[data-kind=\"loop\"]")).await, 1, "the loop span is shown");
    // Copies are banded: consecutive copies alternate shading, and each says which copy it is.
    let bands = page
        .js("return [...document.querySelectorAll('#analysed-text mark[data-kind=\"loop\"]')] \
             .map(m => [m.dataset.band, getComputedStyle(m).backgroundColor, m.title]);")
        .await;
    let bands = bands.as_array().expect("loop pieces");
    assert!(bands.len() >= copies, "one piece per copy at least: {}", bands.len());
    let band = |i: usize| bands.iter().find(|b| b[0] == json!(i.to_string())).unwrap_or_else(|| panic!("band {i}"));
    assert_ne!(band(0)[1], band(1)[1], "copies 1 and 2 are shaded differently");
    assert_eq!(band(0)[1], band(2)[1], "copies 1 and 3 alike");
    let title = band(2)[2].as_str().unwrap_or_default();
    assert!(title.contains(&format!("copy 3 of {copies}")), "{title}");
    // The onset: a labelled marker exactly at the core's byte, and on the minimap.
    let label =
        page.js("return document.querySelector('#analysed-text .onset-mark')?.getAttribute('aria-label');").await;
    assert_eq!(label, json!(format!("onset: byte {onset}")));
    assert_eq!(page.js(ONSET_MARKER_BYTE).await, json!(onset));
    assert_eq!(page.count("#minimap .map-onset").await, 1);
    assert!(page.count("#minimap .map-mark.fail").await >= 1);
    // A short text: every row is rendered, the whole text is there.
    let shown = page.js("return document.getElementById('analysed-text').textContent;").await;
    assert_eq!(shown, json!(text));
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_one_line_phrase_loop_fails_banded_with_its_onset_marked() {
    let page = Page::open().await;
    let text = format!(
        "The build finished and the report is ready for review. {}",
        "Let me check the file again. ".repeat(60)
    );
    assert!(!text.contains('\n'));
    expect_banded_loop(&page, &text, 60).await;
    if let Ok(dir) = std::env::var("SCREENSHOT_DIR") {
        page.client.set_window_size(1280, 1400).await.expect("resize");
        for theme in ["light", "dark"] {
            page.js(&format!(
                "document.documentElement.dataset.theme = '{theme}'; \
                 document.getElementById('text-heading').scrollIntoView({{behavior: 'instant'}}); return null;"
            ))
            .await;
            page.settle_scrolling().await;
            let png = page.client.screenshot().await.expect("screenshot");
            std::fs::write(Path::new(&dir).join(format!("text-view-loop-{theme}.png")), png).expect("write");
        }
    }
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_cjk_loop_fails_with_its_loop_span() {
    let page = Page::open().await;
    let text = format!(
        "这是一个关于内存回收的简短说明，我们先看一下日志，然后再决定下一步。\n{}",
        "我需要再检查一下这个文件。".repeat(40)
    );
    expect_banded_loop(&page, &text, 40).await;
    // Wide characters are laid out two columns each: no row is wider than the box.
    let fits = page
        .js("const box = document.getElementById('analysed-text'); \
             return [...box.querySelectorAll('.vrow')].every(r => r.scrollWidth <= r.clientWidth + 1);")
        .await;
    assert_eq!(fits, json!(true));
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_multi_megabyte_single_line_renders_only_what_is_on_screen_and_every_span_is_reachable() {
    let page = Page::open().await;
    // Three megabytes on one line: grammatical prose with a run of one word every 100 KB (the
    // runs are its only spans: random words would be word salad, flagged all along).
    let mut rng = textgen::Rng::new(7);
    let mut text = String::new();
    while text.len() < 3_000_000 {
        text.push_str(&grammar::english(&mut rng, 100_000).replace('\n', " "));
        text.push(' ');
        text.push_str(&"again ".repeat(30));
    }
    assert!(!text.contains('\n'));
    let report = coherency_core::analyze::analyze(&text);
    let n = report.spans.len();
    assert!(n >= 20, "{n} spans");
    page.set_input(&text).await;
    page.click("#analyze").await;
    page.wait_for_js(&format!("return document.querySelector('#span-count')?.dataset.count === '{n}';"), "the spans")
        .await;
    page.expect_verdict(report.verdict.as_str()).await;

    let nodes = "const t = document.getElementById('analysed-text'); \
                 return [t.getElementsByTagName('*').length, t.textContent.length, Number(t.dataset.rows)];";
    let counts = page.js(nodes).await;
    eprintln!("3 MB line: [elements, characters, rows] in the text view = {counts}");
    assert!(counts[0].as_u64().is_some_and(|e| e < 1500), "a bounded number of elements: {counts}");
    assert!(counts[1].as_u64().is_some_and(|c| c < 30_000), "only the visible rows' text: {counts}");
    assert!(counts[2].as_u64().is_some_and(|r| r > 10_000), "the line is cut into rows: {counts}");

    // Next from the top goes to the first span, and it is in view.
    page.click("#next-span").await;
    page.wait_for_js(
        &format!("return document.getElementById('span-position').textContent === 'span 1 of {n}';"),
        "span 1",
    )
    .await;
    page.wait_for_js(&visible_in_text("#span-0"), "the first span in view").await;

    // The minimap's last mark goes to the last span.
    page.js("const marks = document.querySelectorAll('#minimap .map-mark'); marks[marks.length - 1].id = 'last-mark'; return null;")
        .await;
    page.click("#last-mark").await;
    page.wait_for_js(
        &format!("return document.getElementById('span-position').textContent === 'span {n} of {n}';"),
        "the last span",
    )
    .await;
    page.wait_for_js(&visible_in_text(&format!("#span-{}", n - 1)), "the last span in view").await;
    let counts = page.js(nodes).await;
    assert!(counts[0].as_u64().is_some_and(|e| e < 1500), "still bounded at the end: {counts}");

    // Previous, then the keys in the text: p back, n forward.
    page.click("#prev-span").await;
    page.wait_for_js(&visible_in_text(&format!("#span-{}", n - 2)), "the span before the last in view").await;
    assert_eq!(page.text("#span-position").await, format!("span {} of {n}", n - 1));
    page.js("document.getElementById('analysed-text').focus({preventScroll: true}); return null;").await;
    let textbox = page.client.find(Locator::Css("#analysed-text")).await.expect("the text view");
    textbox.send_keys("n").await.expect("press n");
    page.wait_for_js(
        &format!("return document.getElementById('span-position').textContent === 'span {n} of {n}';"),
        "n: the last span",
    )
    .await;
    textbox.send_keys("kk").await.expect("press k twice");
    page.wait_for_js(
        &format!("return document.getElementById('span-position').textContent === 'span {} of {n}';", n - 2),
        "k k",
    )
    .await;
    page.wait_for_js(&visible_in_text(&format!("#span-{}", n - 3)), "that span in view").await;
    // The checks table still jumps to the first word run, far up.
    page.click("tr[data-metric=\"maxrun\"]").await;
    page.wait_for_js(&visible_in_text("#span-0"), "the first word run in view").await;
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
    coherency_test_support::fixture("formats").join(name)
}

fn expected(name: &str) -> Expected {
    let bytes = std::fs::read(fixture_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let doc = coherency_core::judge::JudgedDocument::read(&bytes, None);
    let (t, r) = (&doc.transcript, &doc.report);
    let rows = r.rows(t);
    Expected {
        format: t.format.name(),
        rows: rows.len(),
        verdict: r.verdict.map(|v| v.as_str()),
        all_too_short: r.all_too_short(),
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
    // The worst row is shown in full: the reasoning, its 36 repeated lines (one span) and the loop highlighted.
    page.expect_verdict("FAIL").await;
    let t = coherency_core::ingest::read(&std::fs::read(fixture_path("deepseek_reasoning_loop.sse")).expect("fixture"));
    let reasoning =
        t.messages.iter().find(|m| m.channel == coherency_core::ingest::Channel::Reasoning).expect("reasoning");
    let spans = coherency_core::analyze::analyze(&reasoning.text).spans;
    assert_eq!(spans.iter().filter(|s| s.kind == SpanKind::RepeatedLine).map(|s| s.count).max(), Some(36));
    let count = format!("return document.getElementById('span-count').dataset.count === '{}';", spans.len());
    page.wait_for_js(&count, "the reasoning's spans").await;
    assert!(page.count(".span").await > 0);
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
    page.wait_for_js(&count, "the reasoning's spans again").await;

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
    // Two files are compared when they are outputs; these are not, so the first is read.
    assert!(status.contains("2 files were given but not compared ("), "{status}");
    assert!(status.ends_with("this is the first, ollama.ndjson."), "{status}");
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
    // The rows on screen (the text view renders no more) are the file's first bytes.
    let shown = page.js("return document.getElementById('analysed-text').textContent;").await;
    let shown = shown.as_str().unwrap_or_default();
    assert!(shown.len() > 500 && raw.starts_with(shown), "the same bytes, now as text: {shown:?}");
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
    let listed = coherency_core::ingest::read(bad.as_bytes()).diagnostics;
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

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn one_line_phrase_and_cjk_loops_fail_with_their_onset() {
    let page = Page::open().await;
    for (sample, unit) in [("phrase-loop", "Let me check the file again. "), ("cjk-loop", "我需要再检查一下这个文件。")]
    {
        page.click(&format!("[data-sample=\"{sample}\"]")).await;
        page.expect_verdict("FAIL").await;
        let text = page.input_value().await;
        let planted = text.find(unit).expect("the unit in the sample");
        page.wait_for_js("return !!document.getElementById('onset');", "the onset line").await;
        let onset: usize =
            page.js("return +document.getElementById('onset').dataset.onset;").await.as_u64().unwrap() as usize;
        assert!(onset.abs_diff(planted) < unit.len(), "{sample}: onset {onset}, loop planted at {planted}");
        assert!(page.text(".reasons li").await.starts_with("loop "), "{sample}: the loop check speaks first");
        let from = format!("from byte {} ", thousands(onset));
        assert!(page.text(".reasons li").await.contains(&from), "{sample}");
        assert_eq!(page.count(".span[data-kind=\"loop\"]").await, 1, "{sample}: one loop span");
    }
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn loops_with_edits_counting_and_restarts_show_where_they_start() {
    let page = Page::open().await;
    page.client.set_window_size(1280, 1600).await.expect("resize");
    for id in ["edited-loop", "counting-list", "restart"] {
        let sample = coherency_core::samples::samples().into_iter().find(|s| s.id == id).expect("the sample");
        let report = coherency_core::analyze::analyze(&sample.text);
        page.click(&format!("[data-sample=\"{id}\"]")).await;
        page.expect_verdict("FAIL").await;
        page.wait_for_js("return !!document.getElementById('onset');", "the onset line").await;
        let onset = page.js("return +document.getElementById('onset').dataset.onset;").await.as_u64().unwrap();
        assert_eq!(Some(onset as usize), report.onset, "{id}: the page's onset is the core's");
        // The first reason is the core's, word for word (rendered as text).
        assert_eq!(page.text(".reasons li").await, report.reasons[0], "{id}");
        // The onset button brings the row holding the onset into view.
        page.click("#show-onset").await;
        let at_onset = format!(
            "const e = [...document.querySelectorAll('#analysed-text .vrow')].filter(e => +e.dataset.start <= {onset}).pop(); \
             if (!e) return false; const r = e.getBoundingClientRect(); \
             const box = document.getElementById('analysed-text').getBoundingClientRect(); \
             return r.height > 0 && r.top < Math.min(innerHeight, box.bottom) && r.bottom > Math.max(0, box.top);"
        );
        page.wait_for_js(&at_onset, "the row holding the onset, in view").await;
        screenshot(&page, &format!("sample-{id}.png")).await;
    }
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_chart_and_the_onset_button_show_where_a_late_loop_starts() {
    let page = Page::open().await;
    let prose: String = (1..=300)
        .map(|i| format!("Paragraph {i} moves the argument on: queue {i} drains while cache {} refills. ", i * 7 % 31))
        .collect();
    let text = format!("{prose}\n{}", "The reclaim thread evicts the oldest pages again. ".repeat(500));
    page.set_input(&text).await;
    page.click("#analyze").await;
    page.expect_verdict("FAIL").await;
    page.wait_for_js("return !!document.getElementById('profile-chart');", "the chart").await;
    let windows = page.js("return +document.getElementById('profile-chart').dataset.windows;").await;
    assert!(windows.as_u64().unwrap() >= 8, "{windows}");
    let chart_onset = page.js("return +document.getElementById('profile-chart').dataset.onset;").await;
    assert!(chart_onset.as_u64().unwrap().abs_diff(prose.len() as u64) < 60, "{chart_onset}");
    assert_eq!(page.count("#profile-chart .chart-onset").await, 1);

    // The loop span is out of view; the onset button brings it into view.
    let in_view = "const e = document.querySelector('.span[data-kind=\"loop\"]'); if (!e) return false; \
                   const r = e.getBoundingClientRect(); \
                   const box = document.getElementById('analysed-text').getBoundingClientRect(); \
                   return r.height > 0 && r.top < Math.min(innerHeight, box.bottom) && r.bottom > Math.max(0, box.top);";
    page.settle_scrolling().await;
    assert_eq!(page.js(in_view).await, json!(false), "the loop starts out of view");
    page.click("#show-onset").await;
    page.wait_for_js(in_view, "the loop scrolled into view by the onset button").await;
    page.client.set_window_size(1280, 2400).await.expect("resize");
    for theme in ["light", "dark"] {
        page.js(&format!("document.documentElement.dataset.theme = '{theme}'; return null;")).await;
        screenshot(&page, &format!("late-loop-chart-{theme}.png")).await;
    }

    // A click on the chart's right end shows the loop too (after scrolling back up).
    page.js("document.getElementById('analysed-text').scrollTop = 0; window.scrollTo(0, 0); return null;").await;
    page.settle_scrolling().await;
    page.js(
        "const svg = document.querySelector('#profile-chart svg'); const r = svg.getBoundingClientRect(); \
         svg.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.right - 3, clientY: r.top + r.height / 2})); \
         return null;",
    )
    .await;
    page.wait_for_js(in_view, "the loop scrolled into view by the chart").await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_drift_chart_marks_where_a_drifting_text_leaves_its_topic_and_a_healthy_essay_has_no_onset() {
    use coherency_core::analyze::analyze;
    let page = Page::open().await;
    let sample =
        |id: &str| coherency_core::samples::samples().into_iter().find(|s| s.id == id).expect("the sample").text;
    let text = sample("drift");
    let report = analyze(&text);
    let tail = report.metrics.drift.as_ref().expect("judged").tail;
    page.set_input(&text).await;
    page.click("#analyze").await;
    page.expect_verdict("WARN").await;
    page.wait_for_js("return !!document.getElementById('drift-chart');", "the drift chart").await;
    let chart = |key: &str| format!("return document.getElementById('drift-chart').dataset.{key} ?? null;");
    assert_eq!(page.js(&chart("onset")).await, json!(tail.to_string()));
    assert_eq!(
        page.js(&chart("windows")).await,
        json!(report.metrics.drift.as_ref().unwrap().windows.len().to_string())
    );
    assert_eq!(page.count("#drift-chart .chart-onset").await, 1);
    assert_eq!(page.count("#drift-chart .chart-tail").await, 1);
    // Enter on the chart shows the drift onset: the drifted span comes into view.
    let in_view = "const e = document.querySelector('.span[data-kind=\"drift\"]'); if (!e) return false; \
                   const r = e.getBoundingClientRect(); \
                   const box = document.getElementById('analysed-text').getBoundingClientRect(); \
                   return r.height > 0 && r.top < Math.min(innerHeight, box.bottom) && r.bottom > Math.max(0, box.top);";
    let svg = page.client.find(Locator::Css("#drift-chart svg")).await.expect("the chart's SVG");
    svg.send_keys(&char::from(Key::Enter).to_string()).await.expect("press Enter on the chart");
    page.wait_for_js(in_view, "the drift scrolled into view by Enter on the chart").await;
    // A click on the chart's right end shows the drifted tail too (after scrolling back up).
    page.js("document.getElementById('analysed-text').scrollTop = 0; window.scrollTo(0, 0); return null;").await;
    page.settle_scrolling().await;
    assert_eq!(page.js(in_view).await, json!(false), "the drift starts out of view");
    page.js(
        "const svg = document.querySelector('#drift-chart svg'); const r = svg.getBoundingClientRect(); \
         svg.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.right - 3, clientY: r.top + r.height / 2})); \
         return null;",
    )
    .await;
    page.wait_for_js(in_view, "the drift scrolled into view by a click on the chart").await;
    for theme in ["light", "dark"] {
        page.js(&format!("document.documentElement.dataset.theme = '{theme}'; return null;")).await;
        screenshot(&page, &format!("drift-chart-{theme}.png")).await;
    }

    // A healthy essay: judged, so drawn, but no onset and no drift span.
    page.set_input(&sample("prose")).await;
    page.click("#analyze").await;
    page.expect_verdict("PASS").await;
    page.wait_for_js("return !!document.getElementById('drift-chart');", "the drift chart of the essay").await;
    assert_eq!(page.js(&chart("onset")).await, json!(null));
    assert_eq!(page.count("#drift-chart .chart-onset").await, 0);
    assert_eq!(page.count(".span[data-kind=\"drift\"]").await, 0);
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_verdict_card_says_what_went_wrong_drift_as_drift_and_a_loop_as_repetition() {
    use coherency_core::analyze::{analyze, onset_phrase, verdict_headline};
    let page = Page::open().await;
    let sample =
        |id: &str| coherency_core::samples::samples().into_iter().find(|s| s.id == id).expect("the sample").text;
    let report = analyze(&sample("drift"));
    page.click("[data-sample=\"drift\"]").await;
    page.expect_verdict("WARN").await;
    let heading = page.text("#verdict-heading").await;
    assert_eq!(heading, "Topic drift: the text leaves its topic");
    assert_eq!(heading, verdict_headline(report.verdict, report.tripped), "the core's words");
    let onset = page.text("#onset .onset-text").await;
    let want = onset_phrase(report.tripped, report.onset.expect("an onset"));
    assert!(onset.contains(&want) && want.starts_with("Leaves its topic at byte "), "{onset}");
    for words in [heading, onset] {
        assert!(!words.to_lowercase().contains("repetition") && !words.contains("degenerate"), "{words}");
    }
    // A loop still reads as one.
    page.click("[data-sample=\"line-loop\"]").await;
    page.expect_verdict("FAIL").await;
    assert_eq!(page.text("#verdict-heading").await, "Repetition collapse: the text loops");
    assert!(page.text("#onset .onset-text").await.contains("Turns degenerate at byte "));
    page.close().await;
}

/// Records, from before a file is chosen, every stage the progress panel shows and whether it
/// came before the verdict (a big file is over too fast to catch it by polling alone).
const PROGRESS_WATCH: &str = "
    const w = window.__watch = { stages: [], messages: null, soFar: [], tones: [], progressBeforeVerdict: null };
    new MutationObserver(() => {
      const p = document.getElementById('load-progress');
      if (p && !w.stages.includes(p.dataset.stage)) w.stages.push(p.dataset.stage);
      const m = document.getElementById('progress-messages')?.dataset.count;
      if (m) w.messages = Number(m);
      const e = document.getElementById('verdict-so-far');
      const s = e?.dataset.verdict;
      if (s && !w.soFar.includes(s)) w.soFar.push(s);
      const t = e && (s + ' ' + e.dataset.tone);
      if (t && !w.tones.includes(t)) w.tones.push(t);
      if (w.progressBeforeVerdict === null && document.getElementById('overall-verdict')) w.progressBeforeVerdict = w.stages.length > 0;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
    return null;";

/// Saves a screenshot as `file` in SCREENSHOT_DIR, when that is set.
async fn screenshot(page: &Page, file: &str) {
    if let Ok(dir) = std::env::var("SCREENSHOT_DIR") {
        let png = page.client.screenshot().await.expect("screenshot");
        std::fs::write(Path::new(&dir).join(file), png).expect("write the screenshot");
    }
}

/// A generated log of about `mb` MB in a temp dir, and the number of messages in it.
fn big_log(dir: &Path, mb: usize) -> (PathBuf, usize) {
    let (bytes, _records) = biglog::generate_log(mb * 1_000_000);
    let messages = coherency_core::ingest::read(&bytes).messages.len();
    let path = dir.join(format!("log-{mb}mb.jsonl"));
    std::fs::write(&path, &bytes).expect("write the generated log");
    (path, messages)
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_20_mb_log_is_read_in_the_worker_with_progress_then_its_verdict() {
    let dir = browser::TempDir::new("coherency-e2e-big");
    let (path, messages) = big_log(&dir.0, 20);
    let page = Page::open().await;
    page.js(PROGRESS_WATCH).await;
    let started = Instant::now();
    let input = page.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
    input.send_keys(&path.display().to_string()).await.expect("choose the file");

    // Progress shows at once; the page answers while the worker reads.
    page.wait_for_js("return !!document.getElementById('load-progress');", "the progress panel").await;
    let heading = page.text("#progress-heading").await;
    assert!(heading.starts_with("Reading log-20mb.jsonl · 20.0 MB"), "{heading}");
    assert_eq!(page.count("#cancel-load").await, 1, "a Cancel button");
    let answered = page.js("return new Promise(r => requestAnimationFrame(() => r(true)));").await;
    assert_eq!(answered, json!(true));
    page.wait_for_js("return !!document.querySelector('#load-progress[data-stage=\"analysing\"]');", "the analysis")
        .await;
    screenshot(&page, "big-log-progress.png").await;

    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while page.js("return !!document.getElementById('overall-verdict');").await != json!(true) {
        assert!(Instant::now() < deadline, "no verdict within 60 s");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    eprintln!("20 MB log: verdict shown {:?} after choosing the file", started.elapsed());
    let verdict = page.js("return document.getElementById('overall-verdict').dataset.verdict;").await;
    assert_eq!(verdict, json!("FAIL"), "one reply in ten loops");
    let watch = page.js("return window.__watch;").await;
    assert_eq!(watch["progressBeforeVerdict"], json!(true), "{watch}");
    let stages = watch["stages"].as_array().cloned().unwrap_or_default();
    for stage in ["analysing", "preparing"] {
        assert!(stages.contains(&json!(stage)), "stage {stage} shown: {watch}");
    }
    assert_eq!(watch["messages"], json!(messages), "the messages found, as the core counts them");
    let so_far = watch["soFar"].as_array().cloned().unwrap_or_default();
    assert!(so_far.contains(&json!("FAIL")), "the FAIL is said while the rest is analysed: {watch}");
    // A part's PASS is provisional: never the green verdict before the file's FAIL.
    let tones = watch["tones"].as_array().cloned().unwrap_or_default();
    assert!(!tones.contains(&json!("PASS pass")) && !tones.contains(&json!("WARN warn")), "{watch}");
    assert_eq!(page.count("#load-progress").await, 0, "the panel goes once the result shows");
    let bar = page.text("#format-bar .detected").await;
    assert!(bar.contains("file log-20mb.jsonl · 2"), "{bar}");
    assert!(page.count("#message-table tbody tr").await > 0);
    screenshot(&page, "big-log-result.png").await;

    // The worst message is shown in full; its last flagged span is reached from the minimap.
    let n: usize =
        page.js("return +document.getElementById('span-count').dataset.count;").await.as_u64().unwrap_or(0) as usize;
    assert!(n > 1, "the looping reply has spans: {n}");
    page.js("const marks = document.querySelectorAll('#minimap .map-mark'); marks[marks.length - 1].id = 'last-mark'; return null;")
        .await;
    page.click("#last-mark").await;
    // The last mark's slot may hold several spans: Next walks on to the very last one.
    let last = format!("return document.getElementById('span-position').textContent === 'span {n} of {n}';");
    page.wait_for_js("return document.getElementById('span-position').textContent.startsWith('span ');", "a span")
        .await;
    for _ in 0..n {
        if page.js(&last).await == json!(true) {
            break;
        }
        page.click("#next-span").await;
    }
    page.wait_for_js(&last, "the last span").await;
    page.wait_for_js(&visible_in_text(&format!("#span-{}", n - 1)), "the last span in view").await;
    page.close().await;
}

/// Counts the Web Workers the page starts (`window.__workers`), installed before a file is chosen.
const COUNT_WORKERS: &str = "window.__workers = 0; const W = window.Worker; \
     window.Worker = class extends W { constructor(...a) { super(...a); window.__workers++; } }; return null;";

/// The page's "⤓ JSON" of what it shows (the CLI's `--json` line).
async fn downloaded_json(page: &Page) -> String {
    page.js("window.blobs = []; const made = URL.createObjectURL; URL.createObjectURL = b => { window.blobs.push(b); return made.call(URL, b); }; return null;").await;
    page.click("#download-json").await;
    page.wait_for_js("return window.blobs.length === 1;", "the JSON download").await;
    page.js("return window.blobs[0].text();").await.as_str().unwrap_or_default().to_string()
}

/// What the CLI's `--json` says of `bytes` read as a file called `name` (the core's own line,
/// listing what the CLI lists by default: the flagged messages and the worst others).
fn native_json(name: &str, bytes: &[u8]) -> String {
    let doc = coherency_core::judge::JudgedDocument::read(bytes, None);
    let worst = doc.report.worst().expect("a text was analysed");
    let worst_report = worst.full_report(&doc.transcript);
    let replaced = bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
    let line = coherency_core::render::json::FileReport::new(
        name,
        bytes.len(),
        replaced,
        &doc.transcript,
        &doc.report,
        worst,
        &worst_report,
    )
    .listing(coherency_core::render::json::Listing::DEFAULT);
    serde_json::to_string(&line).unwrap() + "\n"
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn big_files_share_their_analysis_with_a_second_worker_to_the_same_numbers() {
    let dir = browser::TempDir::new("coherency-e2e-shared");
    // 6 MB of prose turning into a loop (its gzip pass counted by a second worker from 4 MiB),
    // 1 MB (all in the one worker), and an 8 MB log (half its texts analysed by a second worker).
    let text =
        |mb: usize| textgen::prose_then_loop(&mut textgen::Rng::new(11), mb * 1_000_000, mb * 700_000).into_bytes();
    // A long plain text with a byte that is not UTF-8 near its end: not the file's bytes
    // verbatim (the second worker counts its side passes from the file), so one worker does it all.
    let mut invalid = text(5);
    let at = invalid.len() - 1_000;
    invalid[at] = 0xFF;
    let cases = [
        ("prose-loop-6mb.txt", text(6), 2),
        ("prose-loop-1mb.txt", text(1), 1),
        ("log-8mb.jsonl", biglog::generate_log(8_000_000).0, 2),
        ("prose-invalid-5mb.txt", invalid, 1),
    ];
    for (name, bytes, workers) in cases {
        let path = dir.0.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let page = Page::open().await;
        page.js(COUNT_WORKERS).await;
        let input = page.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
        input.send_keys(&path.display().to_string()).await.expect("choose the file");
        let deadline = Instant::now() + std::time::Duration::from_secs(60);
        let shown = format!(
            "return !!(document.getElementById('verdict') || document.getElementById('overall-verdict')) && \
             (document.querySelector('#format-bar .detected')?.textContent ?? '').includes('file {name} ');"
        );
        while page.js(&shown).await != json!(true) {
            assert!(Instant::now() < deadline, "no verdict within 60 s");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(page.js("return window.__workers;").await, json!(workers), "{name}: workers started");
        let shown = downloaded_json(&page).await;
        assert_eq!(shown, native_json(name, &bytes), "{name}: the page's numbers are the core's");
        assert!(shown.contains("\"gzip_bytes\":"), "the gzip size is in the report");
        page.close().await;
    }
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn cancelling_a_big_file_keeps_the_document_shown_before() {
    let dir = browser::TempDir::new("coherency-e2e-cancel");
    let (path, _) = big_log(&dir.0, 20);
    let page = Page::open().await;
    page.click("[data-sample=\"line-loop\"]").await;
    page.expect_verdict("FAIL").await;
    let input = page.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
    input.send_keys(&path.display().to_string()).await.expect("choose the file");
    page.wait_for_js("return !!document.getElementById('cancel-load');", "the Cancel button").await;
    page.click("#cancel-load").await;
    page.wait_for_js("return !document.getElementById('load-progress');", "the panel to go").await;
    let status = page.text("#status").await;
    assert!(status.contains("Reading log-20mb.jsonl was cancelled"), "{status}");
    // Nothing arrives later: the worker is gone.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    page.expect_verdict("FAIL").await;
    assert_eq!(page.count("#overall-verdict, #message-table").await, 0, "the log never shows");
    let bar = page.text("#format-bar .detected").await;
    assert!(bar.contains("a built-in sample"), "{bar}");
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_file_over_the_limit_gets_a_message_naming_the_limit() {
    // The real limit is 100 MB; `?file-limit=` lowers it so a small fixture shows the message.
    let page = Page::open().await;
    page.goto_query("?file-limit=1000").await;
    page.click("[data-sample=\"prose\"]").await;
    page.expect_verdict("PASS").await;
    let input = page.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
    input.send_keys(&fixture_path("vllm.sse").display().to_string()).await.expect("choose the file");
    page.wait_for_js(
        "return (document.getElementById('status')?.textContent ?? '').includes('up to 1.0 KB');",
        "the message",
    )
    .await;
    let status = page.text("#status").await;
    assert!(status.starts_with("Could not read the file vllm.sse: it is 2."), "{status}");
    assert!(status.contains("coherency analyze FILE"), "{status}");
    assert_eq!(page.count("#load-progress").await, 0, "nothing is read");
    page.expect_verdict("PASS").await;
    // Under the limit, the same page reads files as usual.
    page.upload(&fixture_path("plain_bom.txt")).await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_result_link_opens_the_same_verdict_selection_and_highlights_in_a_fresh_browser() {
    // A pasted loop: the link goes in the address bar (and the clipboard, when allowed).
    let page = Page::open().await;
    let text = format!("A calm opening sentence first.\n{}", "Let me check the config file again.\n".repeat(30));
    page.set_input(&text).await;
    page.click("#analyze").await;
    page.expect_verdict("FAIL").await;
    let spans = page.text("#span-count").await;
    page.click("#copy-link").await;
    page.wait_for_js("return document.getElementById('share-status').textContent.length > 0;", "the link's status")
        .await;
    let status = page.text("#share-status").await;
    assert!(status.starts_with("Link copied (") || status.starts_with("The link is in the address bar ("), "{status}");
    let href = page.js("return location.href;").await;
    let fragment = href.as_str().and_then(|h| h.split_once('#')).map(|(_, f)| format!("#{f}")).expect("a fragment");
    assert!(fragment.starts_with("#v1;") && fragment.len() < 1_000, "{fragment}");
    assert!(status.contains(&thousands(href.as_str().unwrap().len())), "the status says the link's length: {status}");
    page.close().await;

    // Another browser profile opens it: the same text, verdict and highlights.
    let fresh = Page::open().await;
    fresh.goto_query(&format!("?{fragment}")).await;
    fresh.expect_verdict("FAIL").await;
    assert_eq!(fresh.input_value().await, text, "the text box holds the linked text");
    assert_eq!(fresh.text("#span-count").await, spans);
    assert!(fresh.text("#status").await.contains("result link"));
    // It says what it shows and where that came from, not "your text".
    let origin = fresh.text("#format-bar .detected").await;
    assert!(origin.starts_with("Showing the input a result link carried · "), "{origin}");
    fresh.close().await;

    // A file with another row selected: the link keeps the row.
    let page = Page::open().await;
    page.upload(&fixture_path("deepseek_reasoning_loop.sse")).await;
    page.expect_verdict("FAIL").await;
    page.click("#message-table tr[data-channel=\"content\"]").await;
    page.expect_verdict("PASS").await;
    page.click("#copy-link").await;
    page.wait_for_js("return location.hash.startsWith('#v1;');", "the link in the address bar").await;
    let fragment = page.js("return location.hash;").await.as_str().unwrap_or_default().to_string();
    page.close().await;
    let fresh = Page::open().await;
    fresh.goto_query(&format!("?{fragment}")).await;
    fresh.expect_verdict("PASS").await;
    assert_eq!(fresh.text("#analysed-text").await, "The three invoices total 245 euros (120 + 80 + 45).");
    let overall = "return document.getElementById('overall-verdict')?.dataset.verdict ?? null;";
    assert_eq!(fresh.js(overall).await, json!("FAIL"));

    // A damaged link says so and leaves the page usable.
    let cut = &fragment[..fragment.len() / 2];
    fresh.goto_query(&format!("?{cut}x")).await;
    fresh
        .wait_for_js(
            "return (document.getElementById('status')?.textContent ?? '').includes('Could not open the result link');",
            "the damaged link's message",
        )
        .await;
    assert!(fresh.text("#status").await.contains("cut off when it was copied"));
    fresh.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_page_works_under_a_sub_path_of_a_static_host() {
    // dist/ served at /sub/dir/, as a static host serves a tool under its own path: every URL
    // the page uses (styles, wasm, the worker) is relative.
    let root = browser::TempDir::new("coherency-e2e-subpath");
    std::fs::create_dir_all(root.0.join("sub")).unwrap();
    std::os::unix::fs::symlink(browser::built_page(), root.0.join("sub/dir")).unwrap();
    let page = Page::open_served(root.0.clone(), "/sub/dir/?sample=line-loop", &[]).await;
    page.expect_verdict("FAIL").await;
    let styled = page.js("return getComputedStyle(document.querySelector('#verdict')).borderRadius !== '0px';").await;
    assert_eq!(styled, json!(true), "the stylesheet loaded from the sub-path");
    // A file is read in the worker, loaded from the sub-path too.
    page.upload(&fixture_path("deepseek_reasoning_loop.sse")).await;
    let overall = "return document.getElementById('overall-verdict')?.dataset.verdict === 'FAIL';";
    page.wait_for_js(overall, "the file's verdict from the worker").await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_single_file_page_runs_from_disk_pasted_loops_and_a_20_mb_log_in_its_worker() {
    let file = browser::built_page().join("coherency-analyzer.html");
    assert!(file.is_file(), "{} is missing: scripts/build-page writes it", file.display());
    let page = Page::open_from_disk(&file, "").await;
    assert!(page.js("return location.protocol;").await == json!("file:"));
    // As it loads, the page has its worker warm the analysis up (V8 optimizes it before a big file).
    page.wait_for_js("return globalThis.coherencyWorker.warmedUp > 100000;", "the analysis warmed up in a worker")
        .await;
    // A pasted loop, analysed from the inlined wasm.
    let text = format!("Here is my plan.\n{}", "Let me check the config file again.\n".repeat(30));
    page.set_input(&text).await;
    page.click("#analyze").await;
    page.expect_verdict("FAIL").await;
    // Its link names a file on this disk: the page says only this computer opens it.
    page.click("#copy-link").await;
    page.wait_for_js("return document.getElementById('share-status').textContent.length > 0;", "the link's status")
        .await;
    let status = page.text("#share-status").await;
    assert!(status.contains("opens only on this computer"), "{status}");
    assert!(page.js("return location.hash.startsWith('#v1;');").await == json!(true), "{status}");
    // A 20 MB log, read in the worker the single file makes from a Blob URL.
    let dir = browser::TempDir::new("coherency-e2e-single-file");
    let (path, _) = big_log(&dir.0, 20);
    let input = page.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
    input.send_keys(&path.display().to_string()).await.expect("choose the file");
    page.wait_for_js("return !!document.getElementById('load-progress');", "the worker's progress").await;
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while page.js("return !!document.getElementById('overall-verdict');").await != json!(true) {
        let failed = page.js("return [document.querySelector('.load-error, #status')?.textContent, document.getElementById('load-progress')?.textContent].join(' / ');").await;
        assert!(Instant::now() < deadline, "no verdict within 60 s ({failed})");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let verdict = page.js("return document.getElementById('overall-verdict').dataset.verdict;").await;
    assert_eq!(verdict, json!("FAIL"), "one reply in ten loops");
    assert!(page.count("#message-table tbody tr").await > 0);
    // A long text: its gzip pass counted by a second worker from the same Blob URL.
    let text = textgen::prose_then_loop(&mut textgen::Rng::new(12), 6_000_000, 4_000_000);
    let path = dir.0.join("prose-loop-6mb.txt");
    std::fs::write(&path, &text).unwrap();
    page.js(COUNT_WORKERS).await;
    let input = page.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
    input.send_keys(&path.display().to_string()).await.expect("choose the file");
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    let shown = "return window.__workers === 2 && !!document.getElementById('verdict') && \
        (document.querySelector('#format-bar .detected')?.textContent ?? '').includes('file prose-loop-6mb.txt ');";
    while page.js(shown).await != json!(true) {
        assert!(Instant::now() < deadline, "no verdict from two workers within 60 s");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(downloaded_json(&page).await, native_json("prose-loop-6mb.txt", text.as_bytes()));
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_report_the_cli_saved_opens_again_and_its_text_stays_text() {
    let page = Page::open().await;
    // The CLI's own `--json` over five files (its golden file, kept by the CLI's tests).
    let saved = coherency_test_support::workspace_root().join("crates/cli/tests/golden/saved-report.jsonl");
    let input = page.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
    input.send_keys(&saved.display().to_string()).await.expect("choose the file");
    page.wait_for_js("return !!document.getElementById('saved-report');", "the saved report").await;
    let summary = page.text("#saved-summary").await;
    assert!(
        summary.starts_with("A report saved by the CLI: 5 files — 2 FAIL, 1 WARN, 1 PASS, 1 the CLI could not read (saved-report.jsonl)"),
        "{summary}"
    );
    let files = page
        .js("return [...document.querySelectorAll('.saved-file')].map(a => [a.dataset.file, a.querySelector('.badge-big')?.dataset.verdict ?? null]);")
        .await;
    assert_eq!(
        files,
        json!([
            ["tests/data/line_x400.txt", "FAIL"],
            ["tests/data/warn_list.txt", "WARN"],
            ["tests/data/formats/harness_cline_loop.json", "FAIL"],
            ["tests/data/formats/chat.json", "PASS"],
            ["tests/data/formats/binary.bin", null]
        ])
    );
    // The worst text's checks, as the CLI judged them; the agent's findings across turns.
    let loop_check =
        page.js("return document.querySelector('.saved-file tr[data-metric=\"loop\"]')?.dataset.level ?? null;").await;
    assert_eq!(loop_check, json!("FAIL"));
    let cline = page.text(".saved-file[data-file$=\"harness_cline_loop.json\"] .saved-findings").await;
    assert!(cline.contains("across turns"), "{cline}");
    assert!(page
        .text(".saved-file[data-file$=\"binary.bin\"]")
        .await
        .contains("The CLI could not read it: Not a text file"));

    // Pasted, with markup in its file name and reasons: shown as text, nothing injected.
    let payload = "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>";
    let line = std::fs::read_to_string(&saved).unwrap().lines().next().unwrap().to_string();
    // Edited as text: the CLI's order of keys (`schema_version` first) is what the page knows it by.
    let pasted = line
        .replacen("\"file\":\"tests/data/line_x400.txt\"", &format!("\"file\":{}", json!(payload)), 1)
        .replacen("\"reasons\":[", &format!("\"reasons\":[{},", json!(payload)), 1);
    page.set_input(&pasted).await;
    page.click("#analyze").await;
    page.wait_for_js(
        "return (document.getElementById('saved-summary')?.textContent ?? '').includes('1 file — 1 FAIL (pasted text)');",
        "the pasted report",
    )
    .await;
    let shown = page.text(".saved-file h2").await;
    assert_eq!(shown, payload);
    let injected = page
        .js("return document.title === 'pwned' || !!document.querySelector('#saved-report img, #saved-report script');")
        .await;
    assert_eq!(injected, json!(false));
    // Another input replaces the report; its "⤓ JSON" is the CLI's line, which opens again.
    page.set_input(&"All work and no play makes Jack a dull boy.\n".repeat(40)).await;
    page.click("#analyze").await;
    page.expect_verdict("FAIL").await;
    assert_eq!(page.count("#saved-report").await, 0);
    page.js("window.blobs = []; const made = URL.createObjectURL; URL.createObjectURL = b => { window.blobs.push(b); return made.call(URL, b); }; return null;").await;
    page.click("#download-json").await;
    page.wait_for_js("return window.blobs.length === 1;", "the JSON download").await;
    let json = page.js("return window.blobs[0].text();").await;
    let json = json.as_str().unwrap_or_default().to_string();
    assert!(json.starts_with("{\"schema_version\":1,\"file\":\"pasted text\",\"format\":\"text\""), "{json}");
    assert!(page.text("#share-status").await.starts_with("Downloaded coherency-report.json ("));
    page.set_input(&json).await;
    page.click("#analyze").await;
    page.wait_for_js(
        "return (document.getElementById('saved-summary')?.textContent ?? '').includes('1 file — 1 FAIL (pasted text)');",
        "the downloaded JSON opened again",
    )
    .await;
    page.close().await;
}

/// Types `value` into the thresholds panel's field for `name` and leaves it (a change event).
async fn set_threshold(page: &Page, name: &str, value: &str) {
    let script = format!(
        "const i = document.querySelector('#thresholds input[name=\"{name}\"]'); i.value = '{value}'; \
         i.dispatchEvent(new Event('change', {{ bubbles: true }})); return null;"
    );
    page.js(&script).await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_thresholds_panel_loosens_a_check_and_the_result_its_link_and_report_say_so() {
    let page = Page::open().await;
    let poem = textgen::refrain_poem();
    page.set_input(&poem).await;
    page.click("#analyze").await;
    page.expect_verdict("WARN").await;
    assert_eq!(page.count("#thresholds-note").await, 0, "nothing said under the defaults");
    page.click("#thresholds summary").await;
    assert!(page.text("#thresholds summary").await.contains("the defaults"));
    // Every setting the core has is listed, with its default.
    assert_eq!(page.count("#thresholds input").await, coherency_core::analyze::SETTINGS.len());

    // Loosened: the refrain passes, and the page says against what.
    set_threshold(&page, "maxline.warn", "7").await;
    page.expect_verdict("PASS").await;
    assert_eq!(
        page.text("#thresholds-note").await,
        "Judged against thresholds you changed: maxline.warn 7 (default 5)."
    );
    assert!(page.text("#thresholds summary").await.contains("1 threshold changed"));
    assert_eq!(page.count("#thresholds label.changed").await, 1);
    page.js("document.getElementById('thresholds').scrollIntoView(); return null;").await;
    screenshot(&page, "thresholds-panel.png").await;
    let json = downloaded_json(&page).await;
    assert!(
        json.contains("\"thresholds_changed\":[{\"name\":\"maxline.warn\",\"value\":7.0,\"default\":5.0}]"),
        "{json}"
    );

    // A bad value is said beside its field, in words; the value in effect goes back in the
    // field; nothing changes (and no browser bubble: the field is valid again).
    let said = "return (() => { const e = document.getElementById('threshold-error'); \
                return e ? [e.dataset.for, e.textContent] : null; })();";
    let field = "return document.querySelector('#thresholds input[name=\"maxline.fail\"]');";
    for (bad, why) in [
        ("3", "WARN must come before FAIL: maxline.warn 7 is past maxline.fail 3"),
        ("abc", "'abc' is not a value it takes"),
        ("0", "'0' is not a value it takes"),
        ("-2", "'-2' is not a value it takes"),
    ] {
        set_threshold(&page, "maxline.fail", bad).await;
        page.wait_for_js(
            &format!("return (document.getElementById('threshold-error')?.textContent ?? '').includes({why:?});"),
            &format!("the refusal of {bad}"),
        )
        .await;
        let shown = page.js(said).await;
        assert_eq!(shown[0], json!("maxline.fail"), "{shown}");
        assert!(shown[1].as_str().unwrap_or_default().ends_with("; 12 is kept."), "{shown}");
        let value = page.js(&field.replace(";", ".value;")).await;
        assert_eq!(value, json!("12"), "the value in effect is back in the field after {bad}");
        assert_eq!(page.js(&field.replace(";", ".validationMessage;")).await, json!(""));
        page.expect_verdict("PASS").await;
    }
    page.js("document.getElementById('threshold-error').scrollIntoView({block: 'center'}); return null;").await;
    screenshot(&page, "thresholds-refused.png").await;
    set_threshold(&page, "maxline.fail", "13").await;
    page.wait_for_js("return !document.getElementById('threshold-error');", "the refusal gone").await;
    // The re-read happens in a worker: the note comes with its result.
    page.wait_for_js(
        "return (document.getElementById('thresholds-note')?.textContent ?? '').includes('maxline.fail 13 (default 12)');",
        "the note of the changed threshold",
    )
    .await;
    set_threshold(&page, "maxline.fail", "12").await;
    page.wait_for_js(
        "return !(document.getElementById('thresholds-note')?.textContent ?? '').includes('maxline.fail');",
        "maxline.fail back at its default",
    )
    .await;

    // The link carries them: another browser opens the same verdict under the same thresholds.
    page.click("#copy-link").await;
    page.wait_for_js("return location.hash.startsWith('#v1;');", "the link in the address bar").await;
    let fragment = page.js("return location.hash;").await.as_str().unwrap_or_default().to_string();
    assert!(fragment.starts_with("#v1;t=maxline.warn:7;d="), "{fragment}");
    page.close().await;
    let fresh = Page::open().await;
    fresh.goto_query(&format!("?{fragment}")).await;
    fresh.expect_verdict("PASS").await;
    assert!(fresh.text("#thresholds-note").await.contains("maxline.warn 7 (default 5)"));
    let shown = fresh.js("return document.querySelector('#thresholds input[name=\"maxline.warn\"]').value;").await;
    assert_eq!(shown, json!("7"));

    // A file read in the worker is judged against them too; Reset brings the defaults back.
    let dir = browser::TempDir::new("thresholds");
    let file = dir.0.join("poem.txt");
    std::fs::write(&file, &poem).expect("a temp file");
    fresh.upload(&file).await;
    fresh
        .wait_for_js(
            "return (document.getElementById('format-bar')?.textContent ?? '').includes('poem.txt');",
            "the file",
        )
        .await;
    fresh.expect_verdict("PASS").await;
    fresh.click("#thresholds summary").await;
    fresh.click("#thresholds-reset").await;
    fresh.expect_verdict("WARN").await;
    assert_eq!(fresh.count("#thresholds-note").await, 0);

    // The loop check is set by name too: maxline loosened alone, a refrain said 8 times still
    // FAILs on it; loop.fail and loop.warn loosen it.
    let loop_level = "return document.querySelector('table.checks tr[data-metric=\"loop\"]')?.dataset.level;";
    fresh.set_input(&"We sail at dawn, we sail at dawn, the harbour calls us home.\n".repeat(8)).await;
    fresh.click("#analyze").await;
    fresh.expect_verdict("FAIL").await;
    set_threshold(&fresh, "maxline.fail", "100").await;
    set_threshold(&fresh, "maxline.warn", "100").await;
    fresh
        .wait_for_js(
            &format!("return {} === 'FAIL';", loop_level.trim_start_matches("return ").trim_end_matches(';')),
            "the loop check FAILs",
        )
        .await;
    set_threshold(&fresh, "loop.fail", "20").await;
    fresh
        .wait_for_js(
            &format!("return {} === 'WARN';", loop_level.trim_start_matches("return ").trim_end_matches(';')),
            "the loop check WARNs",
        )
        .await;
    assert!(fresh.text("#thresholds-note").await.contains("loop.fail 20 (default 3)"));
    fresh.close().await;
}

/// Rows of the text view wider than their box (their end hidden), and cells of the checks
/// table past the window's right edge.
const CLIPPED: &str = "return [[...document.querySelectorAll('#analysed-text .vrow')].filter(r => r.scrollWidth > r.clientWidth).length, \
     [...document.querySelectorAll('table.checks tbody td, table.checks tbody th')] \
       .filter(c => c.offsetParent && c.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length, \
     document.documentElement.scrollWidth > document.documentElement.clientWidth];";

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn long_lines_keep_their_ends_and_a_narrow_screen_keeps_the_checks_in_view() {
    let page = Page::open().await;
    // Long wrapped lines, enough of them for the box to scroll (its scrollbar came after the
    // view measured itself, and took the rows' last characters).
    let line =
        "The reclaim thread walks the inactive list and writes back the dirty pages that it finds there. ".repeat(5);
    let text: String = (0..80).map(|i| format!("{i}: {line}\n")).collect();
    page.set_input(&text).await;
    page.click("#analyze").await;
    page.wait_for_js("return !!document.querySelector('#verdict')?.dataset.verdict;", "a verdict").await;
    page.settle_scrolling().await;
    assert_eq!(page.js(CLIPPED).await, json!([0, 0, false]), "at the default width");
    for theme in ["light", "dark"] {
        page.client.set_window_size(400, 900).await.expect("resize");
        page.js(&format!("document.documentElement.dataset.theme = '{theme}'; return null;")).await;
        page.settle_scrolling().await;
        page.wait_for_js(
            &format!("{{ const c = (() => {{ {CLIPPED} }})(); return c[0] === 0; }}"),
            "rows re-cut to 400 px",
        )
        .await;
        assert_eq!(page.js(CLIPPED).await, json!([0, 0, false]), "at 400 px ({theme})");
        page.js("document.querySelector('table.checks').scrollIntoView(); return null;").await;
        screenshot(&page, &format!("narrow-checks-{theme}.png")).await;
    }
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_skip_link_leads_to_the_text_box() {
    let page = Page::open().await;
    page.goto_query("?sample=late-loop").await;
    page.expect_verdict("FAIL").await;
    // The first stop of Tab is the skip link; following it focuses the text box.
    let first = "return document.querySelector('a[href], button, input, select, textarea, [tabindex]').className;";
    assert_eq!(page.js(first).await, json!("skip-link"));
    // Tab from the top of the page, then Enter: as a keyboard user reaches it.
    page.js("document.activeElement?.blur(); return null;").await;
    page.client
        .find(Locator::Css("body"))
        .await
        .expect("the body")
        .send_keys(&char::from(Key::Tab).to_string())
        .await
        .expect("Tab");
    page.wait_for_js("return document.activeElement.className === 'skip-link';", "the skip link focused").await;
    let link = page.client.active_element().await.expect("the skip link");
    link.send_keys(&char::from(Key::Enter).to_string()).await.expect("Enter on the skip link");
    page.wait_for_js("return document.activeElement.id === 'input';", "the text box focused").await;
    assert!(!page.js("return location.hash;").await.as_str().unwrap_or("#").contains("input"), "the address kept");

    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn show_the_onset_takes_the_focus_into_the_text_there_so_its_keys_work_at_once() {
    let page = Page::open().await;
    page.goto_query("?sample=late-loop").await;
    page.expect_verdict("FAIL").await;
    page.settle_scrolling().await;
    // As a keyboard user: the onset button focused, then Enter.
    page.js("document.getElementById('show-onset').focus(); return null;").await;
    let button = page.client.active_element().await.expect("the onset button");
    button.send_keys(&char::from(Key::Enter).to_string()).await.expect("Enter on the onset button");
    page.wait_for_js("return document.activeElement?.id === 'analysed-text';", "the focus in the text").await;
    // The onset's mark is on screen, inside the text's box.
    let onset_in_view = "const m = document.querySelector('#analysed-text .onset-mark'); if (!m) return false; \
         const r = m.getBoundingClientRect(), box = document.getElementById('analysed-text').getBoundingClientRect(); \
         return r.top >= Math.max(0, box.top) - 1 && r.bottom <= Math.min(innerHeight, box.bottom) + 1;";
    page.settle_scrolling().await;
    page.wait_for_js(onset_in_view, "the onset in view").await;
    let onset: usize =
        page.js("return +document.getElementById('onset').dataset.onset;").await.as_u64().unwrap() as usize;
    // n, pressed at once where the focus is, goes to the next flagged span from there.
    let before = page.js("return document.getElementById('span-position').dataset.current ?? null;").await;
    let text = page.client.active_element().await.expect("the text");
    text.send_keys("n").await.expect("n in the text");
    page.wait_for_js(
        &format!(
            "return (document.getElementById('span-position').dataset.current ?? null) !== {};",
            serde_json::to_string(&before).unwrap()
        ),
        "n moves to a span",
    )
    .await;
    let current = page.js("return +document.getElementById('span-position').dataset.current;").await;
    let span = format!("#span-{}", current.as_u64().unwrap());
    page.wait_for_js(&format!("return !!document.querySelector('{span}');"), "the span rendered").await;
    let start = page.js(&format!("return +document.querySelector('{span}').closest('.vrow').dataset.start;")).await;
    assert!(
        start.as_u64().unwrap() as usize + 4096 >= onset,
        "n went on from the onset (byte {onset}), not from the top: row at byte {start}"
    );
    assert_eq!(page.js("return document.activeElement?.id;").await, json!("analysed-text"));
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_live_tab_is_in_the_address_and_the_address_opens_it() {
    let page = Page::open().await;
    let tab = "return [location.search, document.getElementById('live-mode').hidden, document.getElementById('text-mode').hidden];";
    assert_eq!(page.js(tab).await, json!(["", true, false]));
    let entries = page.js("return history.length;").await;
    page.click("#tab-live").await;
    page.wait_for_js("return location.search === '?mode=live';", "?mode=live in the address").await;
    assert_eq!(page.js(tab).await, json!(["?mode=live", false, true]));
    assert_eq!(page.js("return history.length;").await, entries, "no history entry added");
    // Opened with it: the live tab; back to the text: taken out, the rest of the address kept.
    page.goto_query("?file-limit=5000000&mode=live").await;
    assert_eq!(page.js(tab).await, json!(["?file-limit=5000000&mode=live", false, true]));
    page.click("#tab-text").await;
    page.wait_for_js("return location.search === '?file-limit=5000000';", "mode=live taken out").await;
    assert_eq!(page.js(tab).await, json!(["?file-limit=5000000", true, false]));
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn threshold_fields_in_a_row_and_ticks_that_wrap_line_up() {
    let page = Page::open().await;
    for width in [1400, 1280, 900] {
        page.client.set_window_size(width, 1000).await.expect("resize");
        page.js("document.getElementById('thresholds').open = true; return null;").await;
        // The fields of one row of the panel's grid sit at one height, whatever their help's length.
        let spread = page
            .js("const rows = new Map(); \
                 for (const l of document.querySelectorAll('#thresholds .threshold')) { \
                   const row = Math.round(l.getBoundingClientRect().top); \
                   if (!rows.has(row)) rows.set(row, []); \
                   rows.get(row).push(l.querySelector('input').getBoundingClientRect().top); } \
                 return [...rows.values()].filter(v => v.length > 1).map(v => Math.max(...v) - Math.min(...v));")
            .await;
        let spread = spread.as_array().cloned().unwrap_or_default();
        assert!(!spread.is_empty(), "rows of several fields at {width} px");
        assert!(
            spread.iter().all(|s| s.as_f64().is_some_and(|s| s < 1.0)),
            "fields out of line at {width} px: {spread:?}"
        );
    }
    // The probe's options: a tick that wraps starts where the first does.
    page.click("#tab-live").await;
    for width in [1400, 1280, 400] {
        page.client.set_window_size(width, 1000).await.expect("resize");
        let lefts = page
            .js("return ['needle-uuid', 'needle-twice'].map(id => \
                 Math.round(document.getElementById(id).getBoundingClientRect().left));")
            .await;
        let tops = page
            .js("return ['needle-uuid', 'needle-twice'].map(id => \
                 Math.round(document.getElementById(id).getBoundingClientRect().top));")
            .await;
        if tops[0] != tops[1] {
            assert_eq!(lefts[0], lefts[1], "the wrapped tick out of line at {width} px");
        }
    }
    page.close().await;
}
