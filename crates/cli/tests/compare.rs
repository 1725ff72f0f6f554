//! `coherency compare` as a user runs it: a golden file saved from captures, captures compared
//! with it (identical, drifting, parting), each report form, the exit statuses, and clear
//! errors for files that cannot be read.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_coherency")).args(args).output().unwrap()
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("coherency-compare-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A streamed capture of `tokens` (each with logprob `base − drift·k`), with usage.
fn capture(tokens: &[String], drift: f64, context: u64) -> String {
    let mut out =
        String::from("data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n");
    for (k, t) in tokens.iter().enumerate() {
        let lp = -0.5 - drift * k as f64;
        let chunk = serde_json::json!({"choices": [{"index": 0, "delta": {"content": t},
            "logprobs": {"content": [{"token": t, "logprob": lp, "bytes": null,
                "top_logprobs": [{"token": t, "logprob": lp}, {"token": " zz", "logprob": lp - 1.0}]}]}}]});
        out += &format!("data: {chunk}\n\n");
    }
    out += &format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{}},\"finish_reason\":\"length\"}}],\"usage\":{{\"prompt_tokens\":{context}}}}}\n\ndata: [DONE]\n\n");
    out
}

fn words(n: usize, salt: &str) -> Vec<String> {
    (0..n).map(|k| format!(" {salt}{}", k % 13)).collect()
}

/// Writes prompt files p1…pN under `name/`: `part(k)` the token where prompt k parts (if any).
fn captures(name: &str, n: usize, drift: f64, part: impl Fn(usize) -> Option<usize>) -> Vec<String> {
    let d = dir(name);
    (1..=n)
        .map(|k| {
            let mut t = words(60, "w");
            if let Some(at) = part(k) {
                t[at] = " different".into();
            }
            let path = d.join(format!("p{k}.sse"));
            std::fs::write(&path, capture(&t, drift * k as f64, 10 * k as u64)).unwrap();
            path.to_string_lossy().into_owned()
        })
        .collect()
}

fn golden(name: &str) -> String {
    let refs = captures(&format!("{name}-ref"), 8, 0.0, |_| None);
    let out = dir(name).join("golden.jsonl").to_string_lossy().into_owned();
    let saved =
        run(&[&["compare", "--save-golden", &out][..], &refs.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    assert_eq!(saved.status.code(), Some(0), "{}", String::from_utf8_lossy(&saved.stderr));
    assert!(String::from_utf8_lossy(&saved.stderr).contains("wrote 8 outputs (8 with logprobs)"));
    out
}

fn compare(golden: &str, files: &[String], extra: &[&str]) -> Output {
    run(&[&["compare"][..], extra, &[golden], &files.iter().map(String::as_str).collect::<Vec<_>>()].concat())
}

#[test]
fn the_reference_again_passes_and_a_parting_kernel_fails() {
    let g = golden("pass-fail");
    let same = captures("pass-fail-same", 8, 0.0, |_| None);
    let out = compare(&g, &same, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("PASS — Identical: every one of the 8 prompts"), "{text}");

    // Parting earlier as the context grows, with drift: FAIL, read as a numerical fault.
    let bad = captures("pass-fail-bad", 8, 0.0005, |k| Some(50 - 5 * k));
    let out = compare(&g, &bad, &["--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["schema_version"].as_u64(), v["verdict"].as_str()), (Some(1), Some("FAIL")));
    assert_eq!(v["reading"], "numerical_fault");
    assert_eq!(v["figures"]["parted"], 8);
    assert_eq!(v["figures"]["parting_unit"], "token");
    let first = v["prompts"].as_array().unwrap().iter().find(|p| p["id"] == "p1.sse").unwrap();
    assert_eq!((first["reference_token"].as_u64(), first["outcome"].as_str()), (Some(45), Some("parted")));
    assert!(v["figures"]["parting_with_context"]["value"].as_f64().unwrap() < -0.9);

    // Tiny drift without partings: a WARN only from the rule on drift, here under it: PASS.
    let drift = captures("pass-fail-drift", 8, 0.00001, |_| None);
    assert_eq!(compare(&g, &drift, &[]).status.code(), Some(0));
    // Drift beyond drift_warn (0.01 nats on average), tokens the same: WARN.
    let warn = captures("pass-fail-warn", 8, 0.0001, |_| None);
    let out = compare(&g, &warn, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("WARN — 8 of 8 prompts identical; drift that grows with context"), "{text}");
    assert!(text.contains("and 6 more"), "the title names a few files: {text}");
}

#[test]
fn markdown_and_html_reports_escape_what_they_quote() {
    let g = golden("reports");
    let hostile = dir("reports-hostile");
    let mut t = words(60, "w");
    t[20] = " <script>alert(1)</script> [x](javascript:y)".into();
    let path = hostile.join("p1.sse");
    std::fs::write(&path, capture(&t, 0.0, 10)).unwrap();
    let files = vec![path.to_string_lossy().into_owned()];
    let md = compare(&g, &files, &["--markdown"]);
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.contains("## Comparison:") && md.contains("parts at token 20"), "{md}");
    let html = compare(&g, &files, &["--html"]);
    let html = String::from_utf8_lossy(&html.stdout);
    assert!(html.starts_with("<!doctype html>") && !html.contains("<script>") && html.contains("&lt;script&gt;"));
}

#[test]
fn bad_inputs_are_clear_errors_never_a_panic() {
    let g = golden("errors");
    let out = run(&["compare", &g]);
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a GOLDEN file and at least one CAPTURES file"));
    let out = run(&["compare", &g, "/nonexistent/captures.jsonl"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/captures.jsonl"));
    let junk = dir("errors").join("junk.bin");
    std::fs::write(&junk, b"\x00\x01 not a capture").unwrap();
    let out = run(&["compare", &g, &junk.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no output to compare"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let newer = dir("errors").join("newer.jsonl");
    std::fs::write(&newer, b"{\"coherency_golden\":7,\"id\":\"a\"}\n").unwrap();
    let out = run(&["compare", &newer.to_string_lossy(), &g]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("golden schema 7"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["compare", "--save-golden", "-", &junk.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the golden file was not written"));
}
