//! End-to-end: agent transcripts in the built page, in real headless Chromium. A looping agent
//! session (the same tool call with the same result, turn after turn) → FAIL, the tool-call
//! check tripped, its turns banded in the conversation view and the onset turn brought into view
//! by "Show the onset"; a healthy session whose tool printed a repetitive log → PASS, the log
//! shown as "input — not judged"; a session of thousands of turns renders only the turns on
//! screen. Sessions come from the labelled generator (`coherency_test_support::agent_sessions`),
//! written to a temp dir and chosen in the page's real file input.
//!
//! Run: `scripts/build-page && cargo test --test e2e_agent -- --ignored --test-threads=1`

use std::path::PathBuf;

use coherency_e2e_harness::browser::{self, Page};
use coherency_test_support::agent_sessions::{generate, Session};
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::{json, Value};

use coherency_core::judge::JudgedDocument;

/// `session` written as a session log (JSONL) named `name` in `dir`.
fn write(dir: &browser::TempDir, name: &str, session: &Session) -> PathBuf {
    let path = dir.0.join(name);
    std::fs::write(&path, session.to_session_jsonl()).expect("write the session");
    path
}

/// Saves a screenshot as `file` in SCREENSHOT_DIR, when that is set.
async fn screenshot(page: &Page, file: &str) {
    if let Ok(dir) = std::env::var("SCREENSHOT_DIR") {
        let png = page.client.screenshot().await.expect("screenshot");
        std::fs::write(std::path::Path::new(&dir).join(file), png).expect("write the screenshot");
    }
}

/// Whether element `css` lies inside the scrolled turn box's visible part.
fn turn_in_view(css: &str) -> String {
    format!(
        "const box = document.getElementById('conversation-turns').getBoundingClientRect(); \
         const el = document.querySelector({css:?}); if (!el) return false; \
         const r = el.getBoundingClientRect(); \
         return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.top >= 0 && r.bottom <= innerHeight;"
    )
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_looping_session_fails_with_its_loop_turns_banded_and_the_onset_in_view() {
    let dir = browser::TempDir::new("coherency-e2e-agent");
    // A healthy start, then the same Read with the same result turn after turn.
    let session = generate("late_loop", 0);
    let path = write(&dir, "late-loop.jsonl", &session);
    let doc = JudgedDocument::read(&std::fs::read(&path).expect("the session"), None);
    let c = doc.report.conversations.iter().find(|c| c.turns >= 2).expect("a conversation of turns");
    let onset = c.onset_turn.expect("the core finds the onset");
    let looped: Vec<usize> = c.loop_turns.iter().map(|l| l.turn).collect();
    assert!(!looped.is_empty());

    let page = Page::open().await;
    page.client.set_window_size(1280, 1400).await.expect("resize");
    page.upload(&path).await;
    let overall = page.js("return document.getElementById('overall-verdict')?.dataset.verdict ?? null;").await;
    assert_eq!(overall, json!("FAIL"));
    let worst = page.text("#worst").await;
    assert!(worst.contains(&format!("from turn {onset}")), "the summary names the onset turn: {worst}");

    // The conversation's checks: the tool-call check tripped, with its rule in words.
    let verdict = page.js("return document.getElementById('conversation-verdict').dataset.verdict;").await;
    assert_eq!(verdict, json!(c.verdict.as_str()));
    let tool = page
        .js("return document.querySelector('#conversation-checks tr[data-metric=tool_loop]')?.dataset.level ?? null;")
        .await;
    assert_eq!(tool, json!(c.tool_calls.level().as_str()), "the tool-call check's level");
    let rule = page.text("#conversation-checks tr[data-metric=tool_loop] .rule").await;
    assert!(rule.contains("FAIL"), "its rule in words: {rule}");
    let reasons = page.text("#conversation-reasons").await;
    assert!(reasons.contains(&c.reasons[0]), "{reasons}");

    // Only the turns on screen are rendered; the onset is not among the first ones.
    let rendered = page.count("#conversation-turns .turn").await;
    assert!(rendered < c.turns, "{rendered} of {} turns rendered", c.turns);
    page.click("#show-onset-turn").await;
    let onset_css = format!("#conversation-turns .turn[data-turn=\"{onset}\"]");
    page.wait_for_js(&turn_in_view(&onset_css), "the onset turn in view").await;
    let marked = page.js(&format!("return document.querySelector({onset_css:?}).dataset.onset;")).await;
    assert_eq!(marked, json!("true"));
    let focused = page.js("return document.activeElement?.dataset.turn ?? null;").await;
    assert_eq!(focused, json!(onset.to_string()), "the onset turn has the focus");
    page.js("document.getElementById('conversation').scrollIntoView({behavior: 'instant'}); return null;").await;
    screenshot(&page, "agent-loop-onset.png").await;
    page.js("document.documentElement.dataset.theme = 'dark'; return null;").await;
    screenshot(&page, "agent-loop-onset-dark.png").await;
    page.js("document.documentElement.dataset.theme = 'light'; return null;").await;

    // The turns in view that the core puts in the loop are banded, and only those.
    let shown: Value = page
        .js("return [...document.querySelectorAll('#conversation-turns .turn')] \
             .map(t => [Number(t.dataset.turn), t.dataset.loop, t.classList.contains('band-even') || t.classList.contains('band-odd')]);")
        .await;
    let shown = shown.as_array().cloned().unwrap_or_default();
    assert!(!shown.is_empty());
    for t in &shown {
        let turn = t[0].as_u64().unwrap_or(u64::MAX) as usize;
        let want = c.loop_turns.iter().find(|l| l.turn == turn).map(|l| l.level.as_str()).unwrap_or("");
        assert_eq!((t[1].as_str(), t[2].as_bool()), (Some(want), Some(!want.is_empty())), "turn {turn}");
    }
    assert!(shown.iter().any(|t| t[1] == json!("FAIL")), "loop turns around the onset: {shown:?}");

    // Next steps through the flagged turns; Enter on a turn opens its analysis below.
    page.click("#next-flagged").await;
    let position = page.text("#flagged-position").await;
    assert!(position.starts_with("Flagged turn "), "{position}");
    let turn = page.js("return document.activeElement.dataset.turn;").await;
    let turn: usize = turn.as_str().and_then(|t| t.parse().ok()).expect("a focused turn");
    assert!(turn > onset, "Next goes on from the onset: {turn}");
    let el = page.client.find(Locator::Css(&format!(".turn[data-turn=\"{turn}\"]"))).await.expect("the turn");
    el.send_keys(&char::from(Key::Enter).to_string()).await.expect("Enter on the turn");
    page.wait_for_js("return !!document.getElementById('detail-heading');", "the detail").await;
    page.wait_for_js(
        &format!("return document.getElementById('detail-heading').textContent.includes('turn {turn}');"),
        "the turn's analysis",
    )
    .await;
    // A turn row is short: more of them fit.
    let height =
        page.js("return document.querySelector('#conversation-turns .turn').getBoundingClientRect().height;").await;
    assert!(height.as_f64().is_some_and(|h| h <= 80.0), "{height}");
    // Arrow keys move between turns.
    let el = page.client.find(Locator::Css(&format!(".turn[data-turn=\"{turn}\"]"))).await.expect("the turn");
    el.send_keys(&char::from(Key::Down).to_string()).await.expect("Down on the turn");
    page.wait_for_js(
        &format!("return Number(document.activeElement?.dataset.turn) === {};", turn + 1),
        "the next turn focused",
    )
    .await;
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_tool_log_session_passes_and_the_log_is_an_input_not_judged() {
    let dir = browser::TempDir::new("coherency-e2e-agent-log");
    let session = generate("long_tool_log", 0);
    let path = write(&dir, "tool-log.jsonl", &session);
    let doc = JudgedDocument::read(&std::fs::read(&path).expect("the session"), None);
    assert_eq!(doc.report.verdict.map(|v| v.as_str()), Some("PASS"));
    let log = doc
        .report
        .reports
        .iter()
        .position(|r| !r.judged && r.report.verdict() > coherency_core::analyze::Verdict::Pass)
        .expect("the tool's log trips a check on its own");

    let page = Page::open().await;
    page.upload(&path).await;
    let overall = page.js("return document.getElementById('overall-verdict')?.dataset.verdict ?? null;").await;
    assert_eq!(overall, json!("PASS"), "the model did not loop: a tool printed that");
    assert!(page.text("#document .measured").await.contains("not judged"));
    assert_eq!(page.js("return document.getElementById('conversation-verdict').dataset.verdict;").await, json!("PASS"));
    assert_eq!(page.text("#flagged-position").await, "0 flagged turns");

    // The log's row is marked, and the filter narrows the table to inputs or to the model.
    let row = format!("#message-table tr[data-report=\"{log}\"]");
    page.click("#message-filter [data-filter=inputs]").await;
    assert!(page.text(&row).await.contains("input — not judged"));
    let authors = page.js("return [...new Set([...document.querySelectorAll('#message-table tbody tr')].map(r => r.dataset.author))];").await;
    assert_eq!(authors, json!(["input"]));
    page.click(&row).await;
    page.wait_for_js("return !!document.getElementById('detail-not-judged');", "the detail says not judged").await;
    screenshot(&page, "agent-tool-log-input.png").await;
    assert!(page.text("#detail-not-judged").await.starts_with("input — not judged"));
    page.click("#message-filter [data-filter=model]").await;
    let authors = page.js("return [...new Set([...document.querySelectorAll('#message-table tbody tr')].map(r => r.dataset.author))];").await;
    assert_eq!(authors, json!(["model"]));

    // In the conversation view, the log's turn is an input, not judged and not banded.
    let m = &doc.transcript.messages[doc.report.reports[log].messages[0]];
    let (turn, row) = (m.turn, turn_row(&doc, m.conversation, m.turn));
    let row = row.expect("the log's turn is a row");
    let css = format!("#conversation-turns .turn[data-turn=\"{turn}\"]");
    page.js(&format!(
        "const box = document.getElementById('conversation-turns'); \
         box.scrollTop = {row} * document.querySelector('#conversation-turns .turn').offsetHeight; return null;"
    ))
    .await;
    page.wait_for_js(&format!("return !!document.querySelector({css:?});"), "the log's turn rendered").await;
    let (author, judged, band) = (
        page.js(&format!("return document.querySelector({css:?}).dataset.author;")).await,
        page.js(&format!("return document.querySelector({css:?}).dataset.judged;")).await,
        page.js(&format!("return document.querySelector({css:?}).dataset.loop;")).await,
    );
    assert_eq!((author, judged, band), (json!("input"), json!("false"), json!("")));
    assert!(page.text(&css).await.contains("input — not judged"));
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_session_of_thousands_of_turns_renders_only_the_turns_on_screen() {
    let dir = browser::TempDir::new("coherency-e2e-agent-big");
    // Many healthy sessions' turns, one after the other, then a loop at the end.
    let mut session = generate("varied_work", 0);
    for seed in 1..400 {
        session.turns.extend(generate("varied_work", seed).turns);
    }
    session.turns.extend(generate("same_call_same_result", 0).turns);
    let path = write(&dir, "big-session.jsonl", &session);
    let doc = JudgedDocument::read(&std::fs::read(&path).expect("the session"), None);
    let c = doc.report.conversations.iter().max_by_key(|c| c.turns).expect("a conversation");
    assert!(c.turns > 4_000, "{} turns", c.turns);

    let page = Page::open().await;
    page.upload(&path).await;
    page.wait_for_js("return !!document.getElementById('conversation-turns');", "the conversation view").await;
    let rendered = page.count("#conversation-turns .turn").await;
    assert!(rendered > 3 && rendered < 40, "{rendered} turns rendered of {}", c.turns);
    // The last turn is reached with End, and still only a screenful is rendered.
    let first = page.client.find(Locator::Css("#conversation-turns .turn")).await.expect("a turn");
    first.send_keys(&char::from(Key::End).to_string()).await.expect("End");
    let last = c.turns - 1;
    page.wait_for_js(&turn_in_view(&format!(".turn[data-row=\"{last}\"]")), "the last turn in view").await;
    let rendered = page.count("#conversation-turns .turn").await;
    assert!(rendered < 40, "{rendered} turns rendered at the end");
    if c.onset_turn.is_some() {
        page.click("#show-onset-turn").await;
        let onset = c.onset_turn.unwrap_or_default();
        page.wait_for_js(&turn_in_view(&format!(".turn[data-turn=\"{onset}\"]")), "the onset in view").await;
    }
    page.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_looping_session_of_each_harness_fails_with_its_loop_turns_banded() {
    let page = Page::open().await;
    page.client.set_window_size(1280, 1400).await.expect("resize");
    let dir = coherency_test_support::fixture("formats");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the fixtures")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with("harness_") && name.contains("_loop.") && !name.ends_with(".expected.json")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 7, "one looping fixture per harness");
    for path in files {
        let doc = JudgedDocument::read(&std::fs::read(&path).expect("the fixture"), None);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        page.upload(&path).await;
        let detected = page.js("return document.getElementById('detected-format')?.dataset.format ?? null;").await;
        assert_eq!(detected, json!(doc.detected.name()), "{name}");
        let overall = page.js("return document.getElementById('overall-verdict')?.dataset.verdict ?? null;").await;
        assert_eq!(overall, json!("FAIL"), "{name}");
        let c = doc.report.conversations.iter().max_by_key(|c| c.verdict).expect("a conversation");
        let onset = c.onset_turn.expect("an onset");
        page.settle_scrolling().await;
        page.click("#show-onset-turn").await;
        let css = format!("#conversation-turns .turn[data-turn=\"{onset}\"]");
        page.wait_for_js(&turn_in_view(&css), &format!("{name}: the onset turn in view")).await;
        let marked = page.js(&format!("return document.querySelector({css:?}).dataset.onset;")).await;
        assert_eq!(marked, json!("true"), "{name}");
        let banded = page
            .js("return [...document.querySelectorAll('#conversation-turns .turn')].filter(t => t.dataset.loop === 'FAIL').length;")
            .await;
        assert!(banded.as_u64().unwrap_or(0) >= 2, "{name}: loop turns banded ({banded})");
        screenshot(&page, &format!("{}.png", name.replace('.', "_"))).await;
    }
    page.close().await;
}

/// The analysis's heading (which turn it is) and where it sits: its top on the page, the
/// message table's top, and the turn list's bottom (page coordinates).
const DETAIL: &str = "const y = e => e ? Math.round(e.getBoundingClientRect().top + scrollY) : null; \
    return { heading: document.getElementById('detail-heading')?.textContent ?? '', \
             detail: y(document.getElementById('message-detail')), table: y(document.getElementById('messages')), \
             list_bottom: Math.round(document.getElementById('conversation-turns').getBoundingClientRect().bottom + scrollY), \
             scroll: Math.round(scrollY), back: document.getElementById('back-to-messages')?.textContent ?? '' };";

/// Whether the analysis shown is turn `turn`'s (its heading names it).
fn opened(turn: usize) -> String {
    format!("return /turn {turn}( |$)/.test(document.getElementById('detail-heading')?.textContent ?? '');")
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn stepping_through_turns_opens_each_below_the_list_and_back_returns_to_the_turn() {
    let dir = browser::TempDir::new("coherency-e2e-agent-steps");
    let session = generate("late_loop", 0);
    let path = write(&dir, "late-loop.jsonl", &session);
    let doc = JudgedDocument::read(&std::fs::read(&path).expect("the session"), None);
    let c = doc.report.conversations.iter().find(|c| c.turns >= 2).expect("a conversation of turns");
    let onset = c.onset_turn.expect("the core finds the onset");

    let page = Page::open().await;
    page.client.set_window_size(1280, 900).await.expect("resize");
    page.upload(&path).await;
    page.settle_scrolling().await;

    // Show the onset: the onset turn focused and in view, and its analysis opened below.
    page.click("#show-onset-turn").await;
    let onset_css = format!("#conversation-turns .turn[data-turn=\"{onset}\"]");
    page.wait_for_js(&turn_in_view(&onset_css), "the onset turn in view").await;
    page.wait_for_js(&opened(onset), "the onset turn's analysis").await;
    page.settle_scrolling().await;
    assert!(page.js(&turn_in_view(&onset_css)).await == json!(true), "the page stays on the list");
    assert_eq!(page.js("return document.activeElement?.dataset.turn ?? null;").await, json!(onset.to_string()));

    // Next: the next flagged turn focused and opened, the list still where the eye is.
    page.click("#next-flagged").await;
    page.settle_scrolling().await;
    let next = page.js("return document.activeElement?.dataset.turn ?? null;").await;
    let next: usize = next.as_str().and_then(|t| t.parse().ok()).expect("a focused turn");
    assert!(next > onset, "Next goes on from the onset: {next}");
    let has_text = |turn: usize| {
        let msgs = &doc.transcript.messages;
        doc.report.reports.iter().filter(|r| r.stream.is_none()).any(|r| {
            r.messages.first().is_some_and(|&k| (msgs[k].conversation, msgs[k].turn) == (c.conversation, turn))
        })
    };
    if has_text(next) {
        page.wait_for_js(&opened(next), &format!("Next opens turn {next}")).await;
    }
    assert!(page.js(&turn_in_view(&format!(".turn[data-turn=\"{next}\"]"))).await == json!(true));
    // Previous goes back to the onset and opens it again.
    page.click("#prev-flagged").await;
    page.wait_for_js(&opened(onset), "Previous opens the onset turn again").await;

    // A click on a turn opens it right below the list, not past the table of every message.
    let other = page
        .js("return [...document.querySelectorAll('#conversation-turns .turn')] \
             .map(t => t.dataset.turn).find(t => t !== document.activeElement?.dataset.turn) ?? null;")
        .await;
    let other: usize = other.as_str().and_then(|t| t.parse().ok()).expect("another turn rendered");
    page.click(&format!("#conversation-turns .turn[data-turn=\"{other}\"]")).await;
    page.wait_for_js(&opened(other), "the clicked turn's analysis").await;
    page.settle_scrolling().await;
    let at = page.js(DETAIL).await;
    let (detail, table, list_bottom, scroll) =
        (at["detail"].as_i64(), at["table"].as_i64(), at["list_bottom"].as_i64(), at["scroll"].as_i64());
    let (detail, table, list_bottom, scroll) = (detail.unwrap(), table.unwrap(), list_bottom.unwrap(), scroll.unwrap());
    assert!(detail < table, "the analysis comes before the message table: {at}");
    assert!(detail - list_bottom < 400, "the analysis is right below the turn list: {at}");
    assert!((scroll - detail).abs() < 200, "the page went to the analysis, no farther: {at}");
    assert_eq!(at["back"], json!(format!("↑ Back to turn {other}")));
    screenshot(&page, "agent-turn-opened.png").await;

    // Back: that turn focused and in view again.
    page.click("#back-to-messages").await;
    page.wait_for_js(&format!("return document.activeElement?.dataset.turn === '{other}';"), "the turn focused again")
        .await;
    page.settle_scrolling().await;
    page.wait_for_js(&turn_in_view(&format!(".turn[data-turn=\"{other}\"]")), "the turn in view again").await;

    // From the table: the analysis below the table, and back returns to that row.
    let row = "#message-table tbody tr:nth-child(2)";
    page.click(row).await;
    page.wait_for_js(
        "return document.getElementById('back-to-messages')?.dataset.back === 'messages';",
        "from the table",
    )
    .await;
    let at = page.js(DETAIL).await;
    assert!(at["detail"].as_i64() > at["table"].as_i64(), "below the table: {at}");
    let report = page.js(&format!("return document.querySelector('{row}').dataset.report;")).await;
    page.click("#back-to-messages").await;
    page.wait_for_js(
        &format!("return document.activeElement?.dataset.report === {report};"),
        "the table's row focused again",
    )
    .await;

    // On a narrow screen a turn's preview keeps most of the row: a long label ("result of
    // replace_in_file") gives way to the text.
    page.client.set_window_size(400, 900).await.expect("resize");
    page.wait_for_js("return innerWidth <= 640;", "a narrow window").await;
    let shares = page
        .js("return [...document.querySelectorAll('#conversation-turns .turn-line')].map(l => \
             l.querySelector('.line-text').getBoundingClientRect().width / l.getBoundingClientRect().width);")
        .await;
    let shares: Vec<f64> = shares.as_array().cloned().unwrap_or_default().iter().filter_map(Value::as_f64).collect();
    assert!(!shares.is_empty());
    assert!(shares.iter().all(|&s| s >= 0.55), "previews squeezed at a narrow width: {shares:?}");
    page.close().await;
}

/// The row of `turn` in conversation `conversation`'s turn list: the conversation view lists
/// its turns in order, one row a turn.
fn turn_row(doc: &JudgedDocument, conversation: usize, turn: usize) -> Option<usize> {
    let mut turns: Vec<usize> =
        doc.transcript.messages.iter().filter(|m| m.conversation == conversation).map(|m| m.turn).collect();
    turns.dedup();
    turns.iter().position(|&t| t == turn)
}
