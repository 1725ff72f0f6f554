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

/// Sends `signal` (`TERM`, `INT`) to a process.
fn send(signal: &str, pid: u32) {
    let status = Command::new("kill").args([&format!("-{signal}"), &pid.to_string()]).status().unwrap();
    assert!(status.success(), "kill -{signal} {pid}");
}

#[cfg(unix)]
#[test]
fn sigterm_and_sigint_flush_the_log_with_a_line_for_each_reply_in_flight() {
    let mock = coherency_mock_endpoint::Server::bind(coherency_mock_endpoint::Config {
        port: 0,
        quiet: true,
        ..Default::default()
    })
    .unwrap()
    .spawn();
    for signal in ["TERM", "INT"] {
        let dir = std::env::temp_dir().join(format!("coherency-cli-proxy-{signal}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("proxy.jsonl");
        let _ = std::fs::remove_file(&log);
        let mut child = Command::new(env!("CARGO_BIN_EXE_coherency"))
            .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", &mock.base_url(), "--log"])
            .arg(&log)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut proxy = Running(child);
        let mut first = String::new();
        stderr.read_line(&mut first).unwrap();
        let addr = first.split("http://").nth(1).and_then(|s| s.split('/').next()).expect(&first).to_string();
        let ask = |model: &str| {
            let body = format!(
                r#"{{"model":"{model}","stream":true,"max_tokens":400,"messages":[{{"role":"user","content":"hi"}}]}}"#
            );
            let mut s = TcpStream::connect(&addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
            write!(
                s,
                "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            s
        };
        // One generation done, then one in flight (200 ms between chunks) when the signal comes.
        let mut done = String::new();
        ask("mock-coherent").read_to_string(&mut done).unwrap();
        assert!(done.contains("data: [DONE]"));
        let mut said = String::new();
        stderr.read_line(&mut said).unwrap();
        assert!(said.starts_with("#1 PASS"), "{said}");
        let mut slow = ask("mock-slow");
        let mut buf = [0u8; 4096];
        let mut got = 0;
        while got < 600 {
            got += slow.read(&mut buf).unwrap();
        }
        send(signal, pid);
        let deadline = std::time::Instant::now() + Duration::from_secs(15);
        let status = loop {
            if let Some(status) = proxy.0.try_wait().unwrap() {
                break status;
            }
            assert!(std::time::Instant::now() < deadline, "the proxy did not stop on SIG{signal}");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "SIG{signal}: {status:?}");
        let mut rest = String::new();
        stderr.read_to_string(&mut rest).unwrap();
        assert!(rest.contains("proxy-stopped"), "the reply in flight is said: {rest}");
        assert!(rest.contains(&format!("stopped by SIG{signal}: 2 generations (")), "{rest}");
        assert!(rest.contains("written and closed"), "{rest}");
        // The client's stream ended (the proxy closed it).
        let mut tail = Vec::new();
        let _ = slow.read_to_end(&mut tail);

        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<serde_json::Value> =
            text.lines().map(|l| serde_json::from_slice(l.as_bytes()).unwrap()).collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert_eq!(lines[0]["proxy"]["ending"], "done");
        assert_eq!(lines[1]["proxy"]["ending"], "proxy-stopped", "{}", lines[1]["proxy"]);
        assert_eq!(lines[1]["generation"]["error"], "cut: the proxy was stopped");
        assert!(!lines[1]["sse"].as_str().unwrap().is_empty(), "what came before the stop is kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
