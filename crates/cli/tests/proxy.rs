//! `coherency proxy` as a user runs it: its flags checked, and one run in front of the mock
//! endpoint — a looping stream cut, its log read back by `coherency analyze`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn coherency(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_coherency")).args(args).output().unwrap()
}

#[test]
fn bad_upstreams_and_flags_are_usage_errors_that_say_why() {
    let ftp = coherency(&["proxy", "--upstream", "ftp://files.example.com/v1"]);
    assert_eq!(ftp.status.code(), Some(64));
    let said = String::from_utf8_lossy(&ftp.stderr);
    assert!(said.contains("must be an http:// or https:// URL"), "{said}");
    // A CA file for a plain http upstream, or one that cannot be read: the proxy does not start.
    for (upstream, want) in [
        ("http://127.0.0.1:9/v1", "--upstream-ca is for an https:// upstream"),
        ("https://127.0.0.1:9/v1", "the CA file cannot be read"),
    ] {
        let out = coherency(&[
            "proxy",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            upstream,
            "--upstream-ca",
            "/no/such/ca.pem",
        ]);
        assert_eq!(out.status.code(), Some(1), "{upstream}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(want), "{upstream}: {said}");
    }
    for args in [
        &["proxy"][..],
        &["proxy", "--upstream", "localhost:8080"][..],
        &["proxy", "--upstream", "http://h/v1", "--cut-on", "sometimes"][..],
        &["proxy", "--upstream", "http://h/v1", "--log-max-bytes", "100"][..],
        &["proxy", "--upstream", "http://h/v1", "--listen", "nowhere"][..],
    ] {
        assert_eq!(coherency(args).status.code(), Some(64), "{args:?}");
    }
    let help = coherency(&["proxy", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("OPENAI_BASE_URL=http://127.0.0.1:8090/v1") && help.contains("--cut-on"), "{help}");
}

#[test]
fn a_log_the_proxy_cannot_open_stops_it_with_the_reason() {
    let out = coherency(&[
        "proxy",
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "http://127.0.0.1:9/v1",
        "--log",
        "/nonexistent-dir/p.jsonl",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the log cannot be opened"));
}

/// The proxy's process, killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn in_front_of_the_mock_a_loop_is_cut_and_the_log_reads_back_as_a_fail() {
    let mock = coherency_mock_endpoint::Server::bind(coherency_mock_endpoint::Config {
        port: 0,
        quiet: true,
        ..Default::default()
    })
    .unwrap()
    .spawn();
    let dir = std::env::temp_dir().join(format!("coherency-cli-proxy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("proxy.jsonl");
    let _ = std::fs::remove_file(&log);
    let mut child = Command::new(env!("CARGO_BIN_EXE_coherency"))
        .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", &mock.base_url(), "--cut-on", "fail", "--log"])
        .arg(&log)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let proxy = Running(child);
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    // "coherency proxy: listening on http://127.0.0.1:PORT/v1 → …"
    let addr = first.split("http://").nth(1).and_then(|s| s.split('/').next()).expect(&first).to_string();

    let body =
        r#"{"model":"mock-line-loop","stream":true,"max_tokens":3000,"messages":[{"role":"user","content":"hi"}]}"#;
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk-cli-proxy-secret\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    assert!(reply.contains("\"finish_reason\":\"length\"") && reply.contains("data: [DONE]"), "{reply}");

    // The proxy says each generation on standard error, after its log line is written.
    let mut said = String::new();
    stderr.read_line(&mut said).unwrap();
    assert!(said.starts_with("#1 FAIL mock-line-loop /v1/chat/completions cut-by-proxy"), "{said}");
    assert!(said.contains("tokens saved (estimated)"), "{said}");
    drop(proxy);

    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains("sk-cli-proxy-secret"));
    let analyzed = coherency(&["analyze", "--json", log.to_str().unwrap()]);
    assert_eq!(analyzed.status.code(), Some(2), "{}", String::from_utf8_lossy(&analyzed.stdout));
    let line: serde_json::Value =
        serde_json::from_slice(analyzed.stdout.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(line["verdict"], "FAIL", "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}
