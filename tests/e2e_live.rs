//! End-to-end for live endpoint mode: the built page (dist/) in headless Chromium streams from
//! the local mock server (`coherency-mock-server`, started per test) and shows the live verdict,
//! speed and how the stream ended for each behaviour; Stop, 401, a mid-stream error, a dropped
//! connection, a server that sends no CORS headers, soak runs (and their captures read back as
//! a file) and the needle grid (and Stop in the middle of it); and a run in the single-file
//! page opened from disk, scored in its classic worker.
//!
//! Run: `scripts/build-page && cargo test --test e2e_live -- --ignored --test-threads=1`
//! Env: CHROMEDRIVER (default /usr/bin/chromedriver), CHROME_BIN (default /usr/bin/chromium).

use coherency_e2e_harness::browser;
use coherency_e2e_harness::mock;

use std::time::{Duration, Instant};

use browser::Page;
use mock::MockServer;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------------------------
// Tests

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn coherent_prose_passes_live_with_speed_usage_and_done() {
    let live = Live::open(&[]).await;
    live.run("mock-coherent", 600).await;
    live.expect_verdict("PASS", "answer").await;
    assert_eq!(live.attr("#live-card", "data-ending").await, "done");
    assert_eq!(live.attr("#live-stats", "data-done").await, "true");
    assert_eq!(live.attr("#live-stats", "data-finish").await, "length");
    let speed = live.page.text("#live-speed").await;
    assert!(speed.contains("tokens/s") && speed.contains("server's usage"), "speed beside the verdict: {speed}");
    let stats = live.page.text("#live-stats").await;
    for fact in ["Time to first byte", "Time to first token", "Usage", "prompt", "received"] {
        assert!(stats.contains(fact), "{fact} in {stats}");
    }
    assert!(live.chunks().await > 10, "many chunks");
    assert_eq!(live.page.count("#live-reasoning").await, 0, "no reasoning section without reasoning");

    // The tabs: arrow keys move between them; the text view is as it was.
    let tab = live.page.client.find(fantoccini::Locator::Css("#tab-live")).await.expect("the live tab");
    tab.send_keys(&char::from(fantoccini::key::Key::Left).to_string()).await.expect("press Left");
    live.page
        .wait_for_js(
            "return document.activeElement.id === 'tab-text' && !document.getElementById('text-mode').hidden \
             && document.getElementById('live-mode').hidden;",
            "the text tab shown and focused",
        )
        .await;
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn word_line_and_late_loops_fail_live_with_highlights() {
    let live = Live::open(&[]).await;
    // Each run to its end: the late loop's start lies far down its text.
    live.page.click("#live-stop-at-fail").await;
    for model in ["mock-word-loop", "mock-line-loop", "mock-late-loop"] {
        live.run(model, 1500).await;
        live.expect_verdict("FAIL", "answer").await;
        let spans = live.page.count("#live-answer .span").await;
        assert!(spans > 0, "{model}: highlighted spans in the answer");
        let headline = live.page.text("#live-heading").await;
        assert_eq!(headline, "Repetition collapse in the answer", "{model}");
    }
    // The late loop's first span is out of view until "Show the first" brings its start in (its
    // lines said back to back are one span, taller than the box).
    let visible = "const r = document.getElementById('live-answer-span-0').getBoundingClientRect(); \
                   const box = document.querySelector('#live-answer pre').getBoundingClientRect(); \
                   return r.top >= box.top - 1 && r.top < box.bottom - 8 && r.top < innerHeight - 8;";
    live.page.js("document.querySelector('#live-answer pre').scrollTop = 0; scrollTo(0, 0); return null;").await;
    assert_eq!(live.page.js(visible).await, json!(false), "the late loop starts out of view");
    live.page.click("#live-answer .show-first").await;
    live.page.wait_for_js(visible, "the first span in view").await;
    live.page.js("document.documentElement.dataset.theme = 'dark'; return null;").await;
    live.screenshot("live-late-loop-dark").await;
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_single_file_page_opened_from_disk_scores_a_live_run_in_its_worker() {
    let single = browser::built_page().join("coherency-analyzer.html");
    let live = Live::in_page(Page::open_from_disk(&single, "").await, &[]).await;
    live.run("mock-line-loop", 1500).await;
    live.expect_verdict("FAIL", "answer").await;
    assert!(live.page.count("#live-answer .span").await > 0, "highlighted spans in the answer");
    assert_eq!(live.page.text("#live-heading").await, "Repetition collapse in the answer");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_reasoning_loop_behind_a_clean_answer_fails_in_the_reasoning() {
    let live = Live::open(&[]).await;
    // The whole run: the clean answer comes after the looping reasoning.
    live.page.click("#live-stop-at-fail").await;
    live.run("mock-reasoning-loop", 1500).await;
    live.expect_verdict("FAIL", "reasoning").await;
    assert_eq!(live.attr("#live-reasoning", "data-verdict").await, "FAIL");
    assert_eq!(live.attr("#live-answer", "data-verdict").await, "PASS");
    // Each channel with its own verdict: reasoning, answer, and both joined.
    let channels = live
        .page
        .js("return [...document.querySelectorAll('#live-channels .channel')].map(c => c.dataset.channel + ' ' + c.dataset.verdict);")
        .await;
    assert_eq!(channels, json!(["reasoning FAIL", "answer PASS", "combined FAIL"]));
    assert!(live.page.count("#live-reasoning .span").await > 0);
    live.screenshot("live-reasoning-loop").await;

    // Saving the capture offers a file (a Blob link) and leaves the page working.
    live.page.click("#live-download").await;
    assert_eq!(live.page.count(".fatal").await, 0);
    // The capture read through the file path gives the same verdict, in the same channel.
    live.page.click("#live-replay").await;
    live.page
        .wait_for_js("return document.getElementById('detected-format')?.dataset.format === 'sse';", "SSE detected")
        .await;
    assert_eq!(live.page.js("return document.getElementById('overall-verdict').dataset.verdict;").await, json!("FAIL"));
    let first = live.page.js("return document.querySelector('#message-table tbody tr').dataset.channel;").await;
    assert_eq!(first, json!("reasoning"));
    assert_eq!(live.attr("#tab-text", "aria-selected").await, "true");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_mid_stream_error_and_a_dropped_connection_are_kept_and_said() {
    let live = Live::open(&[]).await;
    live.run("mock-error", 800).await;
    let errors = live.page.text("#live-errors").await;
    assert!(errors.contains("The server sent an error mid-stream"), "{errors}");
    assert_ne!(live.attr("#live-answer", "data-bytes").await, "0", "the text before the error is kept");
    // A run the server crashed is not a PASS: the failure first, then what the text shows.
    assert_eq!(live.attr("#live-verdict", "data-verdict").await, "ERROR");
    assert_eq!(live.attr("#live-verdict", "data-text-verdict").await, "PASS");
    assert_eq!(live.attr("#live-card", "data-broken").await, "error");
    let headline = live.page.text("#live-heading").await;
    assert!(headline.starts_with("The run failed: the server sent an error after"), "{headline}");
    assert!(headline.contains("crashed mid-stream"), "{headline}");
    assert_eq!(live.page.text("#live-so-far").await, "What came: no repetition or incoherence found.");
    let ending = live.page.text("#live-ending").await;
    assert!(!ending.contains("Complete"), "{ending}");
    assert!(live.page.text("#live-status").await.starts_with("ERROR: Ended with an error"));
    assert_eq!(live.page.count("#live-card .badge.pass").await, 0, "no green badge");

    live.run("mock-dropped", 800).await;
    let ending = live.attr("#live-card", "data-ending").await;
    assert!(ending == "cut" || ending == "no-done", "a dropped stream ends cut, got {ending}");
    let said = live.page.text("#live-ending").await;
    assert!(said.contains("without [DONE]") && said.contains("kept and scored"), "{said}");
    assert_eq!(live.attr("#live-stats", "data-done").await, "false");
    assert_eq!(live.attr("#live-verdict", "data-verdict").await, "CUT", "a cut run is not a PASS");
    assert_eq!(live.attr("#live-verdict", "data-text-verdict").await, "PASS", "the cut text is scored");
    assert!(live.page.text("#live-heading").await.starts_with("The run was cut"));
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_runs_status_errors_and_result_show_where_start_was_pressed() {
    let live = Live::open(&[]).await;
    // No model: the error is said right under the Start button, not under the soak and checks.
    live.set("#live-model", "").await;
    live.page.click("#live-start").await;
    live.page.wait_for_js("return !!document.querySelector('#live-failure');", "a failure message").await;
    assert_eq!(live.attr("#live-failure", "data-kind").await, "form");
    let below_start = "const s = document.getElementById('live-start').getBoundingClientRect(); \
                       const e = document.querySelector(arguments[0]).getBoundingClientRect(); \
                       return e.top - s.bottom;";
    let gap = |css: &'static str| {
        let page = &live.page;
        async move { page.client.execute(below_start, vec![json!(css)]).await.expect("a gap").as_f64().expect("a number") }
    };
    let failure_gap = gap("#live-failure").await;
    assert!((0.0..120.0).contains(&failure_gap), "the error {failure_gap} px under Start");

    // A run: its status beside the button as it streams, the result right under the form,
    // above the soak, the needle probe and the checks.
    live.start("mock-slow", 400).await;
    live.page
        .wait_for_js(
            "return document.getElementById('live-status').textContent.includes('Streaming…');",
            "the status beside Start",
        )
        .await;
    live.page.click("#live-stop").await;
    live.wait_finished().await;
    let status = live.page.text("#live-status").await;
    assert!(status.contains(": Stopped by you"), "{status}");
    assert!((0.0..80.0).contains(&gap("#live-status").await), "the status beside Start");
    let card_gap = gap("#live-card").await;
    assert!((0.0..240.0).contains(&card_gap), "the result {card_gap} px under Start");
    assert!(gap("#soak").await > card_gap, "the result before the soak");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_looping_generation_stops_at_its_first_fail_and_says_what_it_saved() {
    let live = Live::open(&[]).await;
    assert_eq!(live.page.js("return document.getElementById('live-stop-at-fail').checked;").await, json!(true));
    live.run("mock-line-loop", 8000).await;
    live.expect_verdict("FAIL", "answer").await;
    assert_eq!(live.attr("#live-card", "data-ending").await, "stopped-at-fail");
    let said = live.page.text("#live-ending").await;
    assert!(
        said.starts_with("Stopped at the first FAIL after") && said.contains("of max_tokens 8,000 not generated"),
        "{said}"
    );
    assert!(live.chunks().await < 4000, "stopped well before 8,000 tokens");
    assert_eq!(live.attr("#live-stats", "data-done").await, "false");

    // Unticked, the run goes on to its end.
    live.page.click("#live-stop-at-fail").await;
    live.run("mock-line-loop", 1200).await;
    live.expect_verdict("FAIL", "answer").await;
    assert_eq!(live.attr("#live-card", "data-ending").await, "done");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn stop_ends_a_slow_stream_and_keeps_what_came() {
    let live = Live::open(&[]).await;
    live.start("mock-slow", 400).await;
    // The verdict card shows while the stream is still running, and grows.
    live.page
        .wait_for_js(
            "const c = document.querySelector('#live-card'); return c?.dataset.running === 'true' \
             && Number(document.querySelector('#live-stats').dataset.chunks) >= 3;",
            "a running card with chunks",
        )
        .await;
    live.page.click("#live-stop").await;
    live.wait_finished().await;
    assert_eq!(live.attr("#live-card", "data-ending").await, "stopped");
    assert!(live.page.text("#live-ending").await.contains("Stopped by you"));
    assert!(live.chunks().await < 100, "stopped early");
    live.screenshot("live-stopped").await;
    assert_eq!(live.page.js("return document.querySelector('#live-start').disabled;").await, json!(false));
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn stop_with_a_reason_that_is_not_an_error_ends_the_run_and_the_page_lives_on() {
    // A fetch rejects with its signal's reason, which can be anything: here Stop aborts with a
    // string (an extension or a polyfill may), and the endpoint never answers. gloo-net would
    // panic on a rejection that is not an Error (the page's wasm ends); the page's own signal
    // turns it into one first (src/live/fetch.rs).
    let live = Live::open(&[]).await;
    live.page
        .js("const abort = AbortController.prototype.abort; \
             AbortController.prototype.abort = function (...reason) { \
               return abort.call(this, ...(reason.length ? reason : ['stopped, said as a string'])); }; \
             window.realFetch = window.fetch; \
             window.fetch = (request) => new Promise((_, reject) => \
               request.signal.addEventListener('abort', () => reject(request.signal.reason))); \
             return null;")
        .await;
    live.start("mock-slow", 400).await;
    live.page.wait_for_js("return document.querySelector('#live-start').disabled;", "the run to start").await;
    live.page.click("#live-stop").await;
    live.wait_finished().await;
    assert_eq!(live.page.count(".fatal").await, 0, "no internal error: {}", live.page.text("body").await);
    assert_eq!(live.page.js("return document.querySelector('#live-start').disabled;").await, json!(false));
    // The page still answers: the next run streams from the real endpoint.
    live.page.js("window.fetch = window.realFetch; return null;").await;
    live.run("mock-coherent", 40).await;
    assert_eq!(live.page.count(".fatal").await, 0);
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_401_is_shown_as_such_and_the_key_stays_out_of_the_page() {
    let live = Live::open(&["--api-key", "sekrit-key-123"]).await;
    live.set("#live-key", "wrong-key-456").await;
    live.start("mock-coherent", 100).await;
    live.page.wait_for_js("return !!document.querySelector('#live-failure');", "a failure message").await;
    assert_eq!(live.attr("#live-failure", "data-kind").await, "http");
    let said = live.page.text("#live-failure").await;
    assert!(said.contains("HTTP 401") && said.contains("key"), "{said}");

    // The right key works; it appears nowhere in the URL, the stored data or the page's text.
    live.set("#live-key", "sekrit-key-123").await;
    live.run("mock-coherent", 300).await;
    live.expect_verdict("PASS", "answer").await;
    let leaks = live
        .page
        .js("return [location.href, document.body.innerText, JSON.stringify(localStorage)].some(s => s.includes('sekrit'));")
        .await;
    assert_eq!(leaks, json!(false));
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn no_cors_headers_get_an_explanation_naming_the_server_flags() {
    let live = Live::open(&["--cors", "none"]).await;
    live.start("mock-coherent", 100).await;
    live.page.wait_for_js("return !!document.querySelector('#live-failure');", "a failure message").await;
    assert_eq!(live.attr("#live-failure", "data-kind").await, "no-response");
    let said = live.page.text("#live-failure").await;
    for flag in ["CORS", "--allowed-origins", "OLLAMA_ORIGINS", "llama.cpp"] {
        assert!(said.contains(flag), "{flag} in {said}");
    }
    assert!(!said.starts_with("TypeError"));

    // The checks say the same, each with the explanation as evidence.
    live.set("#live-model", "mock-coherent").await;
    assert_eq!(live.run_checks().await, "A FAIL B FAIL C FAIL D FAIL E FAIL F FAIL G FAIL");
    assert!(live.page.text("[data-check=A]").await.contains("No response"));
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn load_models_fills_the_list_and_bad_json_sends_nothing() {
    let live = Live::open(&[]).await;
    // The default prompt is the first preset's, and the menu says so; another preset replaces it.
    let shown = "const s = document.querySelector('#live-preset'); return s.options[s.selectedIndex].text;";
    assert_eq!(live.page.js(shown).await, json!("Kernel internals treatise (long)"));
    assert!(live.page.js("return document.querySelector('#live-prompt').value;").await.to_string().contains("6,000"));
    live.page
        .js("const s = document.querySelector('#live-preset'); s.value = '3'; \
             s.dispatchEvent(new Event('change', {bubbles: true})); return null;")
        .await;
    live.page
        .wait_for_js("return document.querySelector('#live-prompt').value.includes('page fault');", "the preset prompt")
        .await;
    live.set("#live-model", "").await;
    live.page.click("#live-load-models").await;
    live.page
        .wait_for_js("return document.querySelectorAll('#live-model-list option').length > 5;", "the model list")
        .await;
    let model = live.page.js("return document.querySelector('#live-model').value;").await;
    assert!(model.as_str().is_some_and(|m| m.starts_with("mock-")), "the first listed model is chosen: {model}");

    live.set("#live-extra", "{not json").await;
    live.start("mock-coherent", 100).await;
    live.page.wait_for_js("return !!document.querySelector('#live-failure');", "a failure message").await;
    assert_eq!(live.attr("#live-failure", "data-kind").await, "form");
    assert!(live.page.text("#live-failure").await.contains("not valid JSON"));
    assert_eq!(live.page.count("#live-card").await, 0, "no request was made");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn checks_a_to_g_pass_on_a_good_endpoint_and_skip_g_when_any_key_works() {
    let live = Live::open(&[]).await;
    live.set("#live-model", "mock-reasoning").await;
    let got = live.run_checks().await;
    assert_eq!(got, "A PASS B PASS C PASS D PASS E PASS F PASS G SKIP", "{}", live.page.text("#live-checks").await);
    assert!(live.page.text("[data-check=G]").await.contains("does not check keys"));
    assert!(live.page.text("[data-check=E]").await.contains("get_weather("));
    live.screenshot("live-checks").await;
    // A phone-width window: the form stacks into one column and nothing overflows sideways.
    live.page.client.set_window_size(400, 1600).await.expect("resize");
    live.page
        .wait_for_js("return document.documentElement.scrollWidth <= window.innerWidth;", "no sideways overflow")
        .await;
    if let Ok(dir) = std::env::var("SCREENSHOT_DIR") {
        let png = live.page.client.screenshot().await.expect("screenshot");
        std::fs::write(std::path::Path::new(&dir).join("live-narrow.png"), png).expect("write the screenshot");
    }
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn check_d_is_judged_from_streamed_reasoning_too() {
    let live = Live::open(&[]).await;
    // OpenRouter's reasoning_details, streamed in check F and not streamed in B–D.
    live.set("#live-model", "mock-reasoning-in-reasoning_details").await;
    let got = live.run_checks().await;
    assert_eq!(got, "A PASS B PASS C PASS D PASS E PASS F PASS G SKIP", "{}", live.page.text("#live-checks").await);
    let d = live.page.text("[data-check=D] .evidence").await;
    assert!(d.contains("Reasoning in \"reasoning_details\" ("), "the non-streamed reply: {d}");
    assert!(
        d.contains("Reasoning streamed in \"reasoning_details\" (") && d.contains("chunks) in check F's stream."),
        "{d}"
    );

    // A soak's generations add their streams (vLLM's "reasoning" field here).
    live.set("#live-model", "mock-reasoning-in-reasoning").await;
    live.set("#live-max-tokens", "200").await;
    live.set("#soak-count", "3").await;
    live.page.click("#soak-start").await;
    live.page
        .wait_for_js("return document.querySelectorAll('#soak-table tbody tr').length === 3 && document.getElementById('soak-start').disabled === false;", "3 generations")
        .await;
    let d = live.page.text("[data-check=D] .evidence").await;
    assert!(d.contains("Reasoning streamed in \"reasoning\" (") && d.contains("in 3 soak generations."), "{d}");
    assert_eq!(live.attr("[data-check=D]", "data-outcome").await, "PASS");

    // The long run of a server that leaves <think>…</think> in the content fails D, and says where.
    live.run("mock-reasoning-in-think", 600).await;
    assert_eq!(live.attr("[data-check=D]", "data-outcome").await, "FAIL");
    let d = live.page.text("[data-check=D] .evidence").await;
    assert!(d.starts_with("Reasoning streamed inline in the content (<think>…</think>, "), "{d}");
    assert!(d.contains("not in a reasoning field, in the long run."), "{d}");
    assert!(d.contains("in 3 soak generations."), "the other evidence still named: {d}");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn checks_fail_a_on_path_ids_and_pass_g_when_a_key_is_required() {
    let live = Live::open(&["--path-ids", "--api-key", "right-key"]).await;
    live.set("#live-key", "right-key").await;
    live.set("#live-model", "mock-coherent").await;
    let got = live.run_checks().await;
    assert_eq!(got, "A FAIL B PASS C PASS D SKIP E PASS F PASS G PASS", "{}", live.page.text("#live-checks").await);
    assert!(live.page.text("[data-check=A]").await.contains("file paths"));
    assert!(live.page.text("[data-check=G]").await.contains("401"));
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_request_with_a_key_does_not_follow_a_redirect() {
    // The mock answers 307 under /moved/: with a key, the page stops there and says why.
    let live = Live::open(&[]).await;
    let moved = live._server.base_url().replacen("/v1", "/moved/v1", 1);
    live.set("#live-base", &moved).await;
    live.set("#live-key", "a-key").await;
    live.set("#live-model", "mock-coherent").await;
    let got = live.run_checks().await;
    assert!(got.starts_with("A FAIL B FAIL"), "{got}");
    let said = live.page.text("[data-check=A]").await;
    assert!(said.contains("answered with a redirect") && !said.contains("CORS"), "{said}");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_key_is_stored_only_while_remember_is_ticked() {
    let live = Live::open(&[]).await;
    let stored = "return localStorage.getItem('coherency-api-key');";
    live.set("#live-key", "my-key").await;
    assert_eq!(live.page.js(stored).await, Value::Null, "not stored unless asked");
    live.page.click("#live-remember").await;
    // Stored with the origin it was given for.
    let origin = live._server.base_url().trim_end_matches("/v1").to_string();
    let want = format!("return localStorage.getItem('coherency-api-key') === '{origin}\\nmy-key';");
    live.page.wait_for_js(&want, "the key stored").await;
    assert!(live.page.text("#live-remember-warning").await.contains("plain text"));
    live.page.click("#live-remember").await;
    live.page.wait_for_js("return localStorage.getItem('coherency-api-key') === null;", "the key forgotten").await;
    // A key given for plain http:// off this machine is warned about; the mock on loopback is not.
    assert_eq!(live.page.count("#live-http-warning").await, 0, "loopback: no warning");
    live.set("#live-base", "http://gpu-box.example:8000/v1").await;
    live.set("#live-key", "my-key").await;
    live.page.wait_for_js("return !!document.getElementById('live-http-warning');", "the plain-http warning").await;
    assert!(live.page.text("#live-http-warning").await.contains("unencrypted to gpu-box.example:8000"));
    live.set("#live-base", "https://gpu-box.example/v1").await;
    live.page.wait_for_js("return !document.getElementById('live-http-warning');", "no warning for https").await;
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_key_is_sent_only_to_the_endpoint_it_was_given_for_even_when_remembered() {
    // One server, two origins (127.0.0.1 and localhost): the key given for one is not sent to
    // the other — the server says 401 — until it is given again there.
    let live = Live::open(&["--api-key", "sekrit-key-123"]).await;
    live.set("#live-key", "sekrit-key-123").await;
    live.page.click("#live-remember").await;
    live.page.click("#live-load-models").await;
    live.page
        .wait_for_js(
            "return /model\\(s\\) listed/.test(document.getElementById('live-models-note')?.textContent ?? '');",
            "models listed",
        )
        .await;
    let elsewhere = live._server.base_url().replacen("127.0.0.1", "localhost", 1);
    live.set("#live-base", &elsewhere).await;
    live.page.wait_for_js("return !!document.getElementById('live-key-not-sent');", "the key not sent").await;
    let said = live.page.text("#live-key-not-sent").await;
    assert!(
        said.starts_with("This key was given for http://127.0.0.1:") && said.contains("not sent to http://localhost:"),
        "{said}"
    );
    live.page.click("#live-load-models").await;
    live.page
        .wait_for_js(
            "return (document.getElementById('live-models-note')?.textContent ?? '').includes('HTTP 401');",
            "a 401 without the key",
        )
        .await;

    // A reload remembers the key for its own origin only.
    live.page.goto_query("?mode=live").await;
    live.set("#live-base", &elsewhere).await;
    live.page
        .wait_for_js("return !!document.getElementById('live-key-not-sent');", "still not sent after a reload")
        .await;
    live.set("#live-base", &live._server.base_url()).await;
    live.page.wait_for_js("return !document.getElementById('live-key-not-sent');", "sent to its own origin").await;
    live.page.click("#live-load-models").await;
    live.page
        .wait_for_js(
            "return /model\\(s\\) listed/.test(document.getElementById('live-models-note')?.textContent ?? '');",
            "models listed again",
        )
        .await;
    // Given again for the other origin, it is sent there.
    live.set("#live-base", &elsewhere).await;
    live.set("#live-key", "sekrit-key-123").await;
    live.page.wait_for_js("return !document.getElementById('live-key-not-sent');", "given for this origin").await;
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn bodies_read_whole_are_capped_and_a_stream_past_its_limit_is_cut_with_a_message() {
    // A 5 MiB error body: read to 4 MiB, then the run says why it stopped.
    let live = Live::open(&[]).await;
    live.start("mock-huge-error", 100).await;
    live.page.wait_for_js("return !!document.querySelector('#live-failure');", "a failure message").await;
    let said = live.page.text("#live-failure").await;
    assert!(said.starts_with("HTTP 500: The server's answer passed 4 MiB; the page stopped reading it"), "{said}");
    live.close().await;

    // A stream past the capture limit (lowered for the test) ends there, and says so.
    let live = Live::open(&[]).await;
    live.page.goto_query("?mode=live&capture-limit=20000").await;
    live.set("#live-base", &live._server.base_url()).await;
    live.run("mock-coherent", 8000).await;
    let ending = live.page.text("#live-ending").await;
    assert!(ending.contains("the stream passed 20000 bytes and the page stopped reading it"), "{ending}");
    assert_eq!(live.attr("#live-ending", "data-ending").await, "cut");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_full_length_run_keeps_up_with_the_stream() {
    // The mock sends about 900 tokens/s (a chunk every 2 ms); the page reads, decodes, scores
    // and redraws as it goes. Had live scoring lagged, reads would bunch up and the speed the
    // page measures from their arrival times would fall well below the server's pace.
    let live = Live::open(&[]).await;
    let started = Instant::now();
    live.run("mock-coherent", 8000).await;
    live.expect_verdict("PASS", "answer").await;
    let speed = live.page.text("#live-speed").await;
    eprintln!("the default 8,000-token run in {:?}: {speed}", started.elapsed());
    let tps: f64 = speed.split(" tokens/s").next().and_then(|n| n.parse().ok()).unwrap_or(0.0);
    assert!(tps > 300.0, "the page kept up with the stream: {speed}");
    live.close().await;
}

// ---------------------------------------------------------------------------------------------
// Harness

/// The page in live mode pointed at a fresh mock server.
#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn a_soak_of_20_generations_finds_a_25_percent_loop_rate_and_stop_keeps_what_finished() {
    let live = Live::open(&["--api-key", "soak-secret-key"]).await;
    live.set("#live-key", "soak-secret-key").await;
    live.set("#live-model", "mock-loops-25").await;
    live.set("#live-max-tokens", "400").await;
    live.set("#soak-count", "20").await;
    live.set("#soak-streams", "4").await;
    live.set("#soak-seed", "100").await;
    live.page.click("#soak-start").await;
    live.page
        .wait_for_js("return document.querySelectorAll('#soak-table tbody tr').length === 20 && document.getElementById('soak-start').disabled === false;", "20 generations")
        .await;
    // Seeds 100–119 of a model that loops on 25 % of seeds: 5 of the 20 FAIL.
    assert_eq!(live.attr("#soak-summary", "data-fails").await, "5");
    let summary = live.page.text("#soak-summary").await;
    assert!(summary.contains("Loop rate (FAIL): 5/20 (25 %, 95 % interval 11–47 %)"), "{summary}");
    assert!(
        summary.contains("Coherent generations: median") && summary.contains("Looping generations: median"),
        "{summary}"
    );
    assert_eq!(live.page.count("#soak-table tbody tr[data-verdict=FAIL]").await, 5);
    live.screenshot("live-soak").await;
    // The export holds every generation, its seed and verdict, and never the key.
    live.page.js("window.blobs = []; const made = URL.createObjectURL; URL.createObjectURL = b => { window.blobs.push(b); return made.call(URL, b); }; return null;").await;
    live.page.click("#soak-export").await;
    let jsonl = live.page.js("return window.blobs[0].text();").await;
    let jsonl = jsonl.as_str().unwrap_or_default().to_string();
    assert_eq!(jsonl.lines().count(), 20);
    assert!(!jsonl.contains("soak-secret-key"), "the key is in the export");
    assert_eq!(jsonl.matches("\"verdict\":\"FAIL\"").count(), 5);
    // A row opens its generation in the full analysis view.
    live.page.click("#soak-table tbody tr[data-verdict=FAIL]").await;
    live.page
        .wait_for_js("return document.getElementById('detected-format')?.dataset.format === 'sse';", "SSE detected")
        .await;
    assert_eq!(live.page.js("return document.getElementById('overall-verdict').dataset.verdict;").await, json!("FAIL"));

    // Stop mid-soak keeps the finished rows, and only those.
    live.page.click("#tab-live").await;
    live.set("#live-model", "mock-slow").await;
    live.set("#live-max-tokens", "20").await;
    live.set("#soak-count", "10").await;
    live.set("#soak-streams", "1").await;
    live.page.click("#soak-start").await;
    live.page
        .wait_for_js("return document.querySelectorAll('#soak-table tbody tr').length >= 1;", "a first slow generation")
        .await;
    live.page.click("#soak-stop").await;
    live.page.wait_for_js("return document.getElementById('soak-start').disabled === false;", "the soak to stop").await;
    let kept = live.page.count("#soak-table tbody tr").await;
    assert!((1..10).contains(&kept), "{kept} rows kept");
    assert_eq!(live.page.count("#soak-table tbody tr[data-verdict='—']").await, 0, "a cut generation was kept");
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn an_a_b_soak_says_which_endpoint_loops_more() {
    let live = Live::open(&[]).await;
    live.set("#live-model", "mock-loops-0").await;
    live.set("#live-max-tokens", "300").await;
    live.set("#soak-count", "20").await;
    live.set("#soak-streams", "4").await;
    live.page.click("#soak-ab").await;
    live.set("#soak-b-model", "mock-loops-50").await;
    live.page.click("#soak-start").await;
    live.page
        .wait_for_js("return document.querySelectorAll('#soak-table tbody tr').length === 40 && document.getElementById('soak-start').disabled === false;", "40 generations")
        .await;
    assert_eq!(
        (live.attr("#soak-summary-a", "data-fails").await, live.attr("#soak-summary-b", "data-fails").await),
        ("0".into(), "10".into())
    );
    let said = live.page.text("#soak-compare").await;
    assert_eq!(said, "B loops more: 10/20 vs 0/20 (A's and B's 95 % intervals do not overlap).");
    live.screenshot("live-soak-ab").await;
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn the_needle_grid_shows_where_a_2048_token_window_forgets_and_names_the_cut() {
    let live = Live::open(&["--api-key", "needle-secret-key"]).await;
    live.set("#live-key", "needle-secret-key").await;
    live.set("#live-model", "mock-context-2048").await;
    // The defaults: 1k, 2k, 4k, 8k × start, middle, end, each asked twice. Keyboard: Space
    // ticks 16k and unticks it again.
    let sixteen = live.page.client.find(fantoccini::Locator::Css("#needle-length-16384")).await.expect("16k");
    sixteen.send_keys(" ").await.expect("press Space");
    assert_eq!(live.page.js("return document.getElementById('needle-length-16384').checked;").await, json!(true));
    sixteen.send_keys(" ").await.expect("press Space");
    live.page.click("#needle-start").await;
    live.page
        .wait_for_js(
            "return document.querySelectorAll('#needle-grid td[data-state=waiting]').length === 0 \
             && document.querySelectorAll('#needle-grid td').length === 12 \
             && document.getElementById('needle-start').disabled === false;",
            "the grid filled in",
        )
        .await;
    let grid = live
        .page
        .js("return [...document.querySelectorAll('#needle-grid tbody tr')].map(r => r.dataset.length + ' ' \
             + [...r.querySelectorAll('td')].map(c => c.dataset.state).join(' '));")
        .await;
    // The mock sees the prompt's last 2,048 tokens: every depth up to 2k; from 4k on only the end.
    assert_eq!(
        grid,
        json!([
            "1024 found found found",
            "2048 found found found",
            "4096 missed missed found",
            "8192 missed missed found"
        ])
    );
    let said = live.page.text("#needle-summary").await;
    assert!(
        said.starts_with(
            "Found at every depth up to 2k tokens; missed from 4k on, at the start and middle (the server reported \
2,048 prompt tokens for an estimated 4,"
        ) && said.ends_with(": it cut the prompt)."),
        "{said}"
    );
    let notes = live.page.text("#needle-notes").await;
    assert!(notes.starts_with("Silent truncation: at 4k the server reported 2,048 prompt tokens"), "{notes}");
    assert_eq!(live.page.count("#needle-notes li").await, 1, "the mock is deterministic: no other note");
    let evidence = live.page.text("#needle-grid tr[data-length='4096'] td[data-depth=start]").await;
    assert!(
        evidence.contains("missed") && evidence.contains("2,048 of ≈4,0") && evidence.contains("the same again"),
        "{evidence}"
    );
    let page = live.page.js("return document.documentElement.outerHTML;").await;
    assert!(!page.as_str().unwrap_or_default().contains("needle-secret-key"), "the key is in the page");
    live.screenshot("live-needle").await;
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn an_a_b_soaks_captures_saved_as_one_file_open_in_the_page_with_the_same_verdicts() {
    let live = Live::open(&["--api-key", "captures-secret-key"]).await;
    live.set("#live-key", "captures-secret-key").await;
    live.set("#live-model", "mock-loops-0").await;
    live.set("#live-max-tokens", "300").await;
    live.set("#soak-count", "4").await;
    live.set("#soak-streams", "2").await;
    live.page.click("#soak-ab").await;
    live.set("#soak-b-model", "mock-loops-50").await;
    live.page.click("#soak-start").await;
    live.page
        .wait_for_js("return document.querySelectorAll('#soak-table tbody tr').length === 8 && document.getElementById('soak-start').disabled === false;", "8 generations")
        .await;
    // The rows' verdicts, in the order they finished (the file's order).
    let shown = live
        .page
        .js("return [...document.querySelectorAll('#soak-table tbody tr')].map(r => r.dataset.verdict);")
        .await;
    let shown = strings(&shown);
    assert!(shown.contains(&"FAIL".to_string()) && shown.contains(&"PASS".to_string()), "{shown:?}");

    // The button is reached from the JSONL one with Tab, and Enter saves the file.
    live.page.js("window.blobs = []; const made = URL.createObjectURL; URL.createObjectURL = b => { window.blobs.push(b); return made.call(URL, b); }; document.getElementById('soak-export').focus(); return null;").await;
    live.page.client.active_element().await.expect("focus").send_keys("\u{E004}").await.expect("Tab");
    assert_eq!(live.page.js("return document.activeElement.id;").await, json!("soak-export-captures"));
    live.page.client.active_element().await.expect("focus").send_keys("\u{E007}").await.expect("Enter");
    live.page.wait_for_js("return window.blobs.length === 1;", "the captures file").await;
    let file = live.page.js("return window.blobs[0].text();").await;
    let file = file.as_str().unwrap_or_default().to_string();
    assert_eq!(file.lines().count(), 8);
    assert!(!file.contains("captures-secret-key"), "the key is in the captures file");
    let dir = browser::TempDir::new("coherency-captures");
    let path = dir.0.join("coherency-captures.jsonl");
    std::fs::write(&path, &file).expect("write the captures file");

    // Opened as a file: one conversation per generation, each with the verdict its row showed.
    live.page.click("#tab-text").await;
    live.page.upload(&path).await;
    live.page
        .wait_for_js(
            "return document.getElementById('detected-format')?.dataset.format === 'live-captures';",
            "live-captures detected",
        )
        .await;
    let read = live
        .page
        .js("const worst = {}; const rank = {PASS: 0, WARN: 1, FAIL: 2}; \
             for (const r of document.querySelectorAll('#message-table tbody tr[data-judged=true]')) { \
               const c = Number(r.cells[1].textContent); const v = r.dataset.verdict; \
               if (!(c in worst) || rank[v] > rank[worst[c]]) worst[c] = v; } \
             return Object.keys(worst).sort((a, b) => a - b).map(c => worst[c]);")
        .await;
    assert_eq!(read, json!(shown), "the file's verdicts, conversation by conversation");
    let overall = if shown.iter().any(|v| v == "FAIL") { "FAIL" } else { "PASS" };
    assert_eq!(
        live.page.js("return document.getElementById('overall-verdict').dataset.verdict;").await,
        json!(overall)
    );
    live.close().await;
}

#[tokio::test]
#[ignore = "needs the built page (scripts/build-page) and chromedriver; run by scripts/test"]
async fn stop_mid_needle_run_keeps_the_finished_cells_and_says_it_stopped() {
    // Slow chunks: each ask takes a while, so Stop lands mid-run.
    let live = Live::open(&["--delay-ms", "80"]).await;
    live.set("#live-model", "mock-context-2048").await;
    live.page.click("#needle-start").await;
    live.page
        .wait_for_js(
            "return document.querySelectorAll('#needle-grid td:not([data-state=waiting])').length >= 2;",
            "two cells answered",
        )
        .await;
    live.page.click("#needle-stop").await;
    live.page
        .wait_for_js("return document.getElementById('needle-start').disabled === false;", "the probe to stop")
        .await;
    let states =
        live.page.js("return [...document.querySelectorAll('#needle-grid td')].map(c => c.dataset.state);").await;
    let states = strings(&states);
    let finished = states.iter().filter(|s| *s != "waiting").count();
    assert_eq!(states.len(), 12, "the grid keeps every cell");
    assert!((2..12).contains(&finished), "{states:?}");
    // What finished first is 1k at the start: a 1k prompt fits the window.
    assert_eq!(live.page.js("return document.querySelector('#needle-grid tr[data-length=\"1024\"] td[data-depth=start]').dataset.state;").await, json!("found"));
    let said = live.page.text("#needle-stopped").await;
    assert!(
        said.starts_with("Stopped after ") && said.contains(" of 24 requests: the cells that finished are kept"),
        "{said}"
    );
    // A second look a moment later: nothing more arrived after Stop.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let later = live.page.count("#needle-grid td:not([data-state=waiting])").await;
    assert_eq!(later, finished, "a cell filled in after Stop");
    live.close().await;
}

struct Live {
    page: Page,
    _server: MockServer,
}

impl Live {
    async fn open(server_args: &[&str]) -> Live {
        Live::in_page(Page::open().await, server_args).await
    }

    /// Live mode in `page`, against a mock server started with `server_args`.
    async fn in_page(page: Page, server_args: &[&str]) -> Live {
        let server = MockServer::start(server_args);
        page.click("#tab-live").await;
        let live = Live { page, _server: server };
        live.set("#live-base", &live._server.base_url()).await;
        live
    }

    async fn close(self) {
        self.page.close().await;
    }

    /// Sets a form field as typing would (value + input event).
    async fn set(&self, css: &str, value: &str) {
        self.page
            .client
            .execute(
                "const e = document.querySelector(arguments[0]); e.value = arguments[1]; \
                 e.dispatchEvent(new Event('input', {bubbles: true}));",
                vec![json!(css), json!(value)],
            )
            .await
            .unwrap_or_else(|e| panic!("set {css}: {e}"));
    }

    async fn attr(&self, css: &str, name: &str) -> String {
        let v = self
            .page
            .client
            .execute(
                "return document.querySelector(arguments[0])?.getAttribute(arguments[1]) ?? null;",
                vec![json!(css), json!(name)],
            )
            .await
            .unwrap_or_else(|e| panic!("{css}[{name}]: {e}"));
        match v {
            Value::String(s) => s,
            other => panic!("no attribute {name} on {css}: {other}"),
        }
    }

    /// Saves a full-page screenshot as `SCREENSHOT_DIR/NAME.png` when that variable is set.
    async fn screenshot(&self, name: &str) {
        let Ok(dir) = std::env::var("SCREENSHOT_DIR") else { return };
        self.page.client.set_window_size(1280, 2400).await.expect("resize");
        let png = self.page.client.screenshot().await.expect("screenshot");
        let path = std::path::Path::new(&dir).join(format!("{name}.png"));
        std::fs::write(&path, png).expect("write the screenshot");
        eprintln!("saved {}", path.display());
    }

    /// Presses Run checks and waits for all seven; "A PASS B FAIL …".
    async fn run_checks(&self) -> String {
        self.page.click("#live-run-checks").await;
        let deadline = Instant::now() + Duration::from_secs(30);
        let script = "const items = [...document.querySelectorAll('#live-checks [data-check]')]; \
                      return document.querySelector('#live-checks').dataset.running === 'false' \
                      && items.every(i => ['PASS', 'FAIL', 'SKIP'].includes(i.dataset.outcome));";
        while self.page.client.execute(script, vec![]).await.ok() != Some(json!(true)) {
            assert!(Instant::now() < deadline, "the checks did not finish within 30 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let v = self
            .page
            .js("return [...document.querySelectorAll('#live-checks [data-check]')] \
                 .map(i => i.dataset.check + ' ' + i.dataset.outcome).join(' ');")
            .await;
        v.as_str().unwrap_or_default().to_string()
    }

    async fn chunks(&self) -> usize {
        self.attr("#live-stats", "data-chunks").await.parse().unwrap_or(0)
    }

    /// Fills model and max_tokens and presses Start (the previous run's result is cleared).
    async fn start(&self, model: &str, max_tokens: u32) {
        self.set("#live-model", model).await;
        self.set("#live-max-tokens", &max_tokens.to_string()).await;
        self.page.click("#live-start").await;
    }

    /// Starts a run and waits until it has ended.
    async fn run(&self, model: &str, max_tokens: u32) {
        self.start(model, max_tokens).await;
        self.wait_finished().await;
    }

    async fn wait_finished(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let script = "return document.querySelector('#live-card')?.dataset.running === 'false' \
                      || !!document.querySelector('#live-failure');";
        while self.page.client.execute(script, vec![]).await.ok() != Some(json!(true)) {
            assert!(Instant::now() < deadline, "the live run did not end within 30 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn expect_verdict(&self, verdict: &str, channel: &str) {
        let got = (self.attr("#live-verdict", "data-verdict").await, self.attr("#live-verdict", "data-channel").await);
        assert_eq!(got, (verdict.to_string(), channel.to_string()), "{}", self.page.text("#live-card").await);
    }
}

/// A JSON array of strings that the page returned, as strings.
fn strings(array: &Value) -> Vec<String> {
    let items = array.as_array().unwrap_or_else(|| panic!("an array of strings: {array}"));
    items.iter().map(|v| v.as_str().unwrap_or_else(|| panic!("a string: {v}")).to_string()).collect()
}
