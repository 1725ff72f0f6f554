//! The proxy over real loopback HTTP: against the mock endpoint (pass-through, a looping stream
//! cut, the log read back by the core, `/metrics`) and against scripted upstreams (the bytes
//! both ways, faults: an upstream that dies mid-stream, a client that goes away, a body that is
//! not SSE, a malformed chunk, an upstream that cannot be reached, a huge request body).

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use coherency_core::analyze::Verdict;
use coherency_core::ingest::{self, Format};
use coherency_core::judge::judge_transcript;
use coherency_core::stream::{ChatAssembler, SsePump};
use serde_json::Value;
use support::*;

fn chat(model: &str, stream: bool, max_tokens: u32) -> String {
    serde_json::json!({"model": model, "stream": stream, "max_tokens": max_tokens, "seed": 1,
        "stream_options": {"include_usage": true},
        "messages": [{"role": "user", "content": "Tell me about page reclaim."}]})
    .to_string()
}

fn log_lines(path: &std::path::Path) -> Vec<Value> {
    read_log(path).lines().map(|l| serde_json::from_slice(l.as_bytes()).unwrap()).collect()
}

#[test]
fn with_nothing_cut_the_mock_answers_through_the_proxy_as_it_answers_directly() {
    let mock = mock();
    let dir = temp_dir("pass");
    let log = dir.join("proxy.jsonl");
    // Cut mode on: a healthy stream still passes whole (only held back to event ends).
    let proxy = proxy(&mock.base_url(), Some(Verdict::Fail), Some(log.clone()));
    let mock_addr = format!("127.0.0.1:{}", mock.port()).parse().unwrap();
    let requests = [
        request("POST", "/v1/chat/completions", Some(&chat("mock-coherent", true, 400))),
        request("POST", "/v1/chat/completions", Some(&chat("mock-coherent", false, 400))),
        request("POST", "/v1/chat/completions", Some(&chat("mock-reasoning", true, 300))),
        request("GET", "/v1/models", None),
        request("GET", "/v1/no/such/path?x=1", None),
        request("GET", "/elsewhere", None),
        request("POST", "/v1/chat/completions", Some(&chat("mock-unauthorized", true, 10))),
        // HTTP 500 with a 5 MiB error body.
        request("POST", "/v1/chat/completions", Some(&chat("mock-huge-error", true, 10))),
    ];
    for req in &requests {
        let direct = exchange(mock_addr, req);
        let proxied = exchange(proxy.addr, req);
        let what = String::from_utf8_lossy(&req[..req.iter().position(|&b| b == b'\r').unwrap()]).into_owned();
        assert_eq!(proxied.status_line, direct.status_line, "{what}");
        assert_eq!(proxied.headers, direct.headers, "{what}: the headers, their case and order");
        assert_eq!(normalise(&proxied.body), normalise(&direct.body), "{what}: the body");
        assert!(proxied.complete && direct.complete, "{what}");
    }
    let statuses: Vec<String> = requests.iter().map(|r| exchange(proxy.addr, r).status_line).collect();
    assert!(statuses[4].contains("404") && statuses[6].contains("401") && statuses[7].contains("500"), "{statuses:?}");

    // Generations only are logged: 5 chat requests through the proxy, twice.
    proxy.wait_for_generations(10);
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[4]["generation"]["error"], "HTTP 500");
    let verdicts: Vec<Value> = lines.iter().take(4).map(|l| l["generation"]["verdict"].clone()).collect();
    assert_eq!(verdicts, [Value::from("PASS"), "PASS".into(), "PASS".into(), Value::Null], "{lines:?}");
    assert_eq!(lines[3]["generation"]["error"], "HTTP 401");
    assert_eq!(lines[1]["proxy"]["streamed"], false);
    assert_eq!(lines[0]["proxy"]["ending"], "done");
    assert_eq!(lines[1]["proxy"]["ending"], "done", "a body of known length ends when its last byte is read");
    assert!(!read_log(&log).contains(KEY), "the key reached the log");
}

#[test]
fn a_scripted_upstream_gets_the_request_as_sent_and_the_client_its_reply_byte_for_byte() {
    // An SSE reply split at odd places, CRLF and LF line ends, comments, a mixed-case header.
    let events = [
        ": ping - 2026-12-02 16:30:01\r\n\r\n".to_string(),
        sse_chunk("Hel"),
        sse_chunk("lo \u{e9}\u{1f600}"),
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\r\n\r\n".into(),
        "data: [DONE]\n\n".into(),
    ];
    let body: Vec<u8> = events.concat().into_bytes();
    let sent = body.clone();
    let upstream = Scripted::start(move |conn, _| {
        conn.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Request-ID: Abc-1\r\ncache-control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n",
        )?;
        for piece in sent.chunks(23) {
            chunk(conn, piece)?;
        }
        conn.write_all(b"0\r\n\r\n")
    });
    let proxy = proxy(&upstream.url(), Some(Verdict::Fail), None);
    let request_body =
        "{\"model\":\"scripted\",\"stream\":true,  \"messages\":[{\"role\":\"user\",\"content\":\"h\u{e9}\"}]}\n";
    let mut req = request("POST", "/v1/chat/completions?api-version=2", Some(request_body));
    // A header in odd case, after the others.
    let at = find(&req, b"\r\n\r\n").unwrap();
    req.splice(at..at, b"\r\nX-Trace-ID: t-77".iter().copied());
    let reply = exchange(proxy.addr, &req);
    assert_eq!(reply.status_line, "HTTP/1.1 200 OK");
    assert_eq!(reply.body, body, "the reply's bytes");
    assert!(reply.complete);
    // As the upstream sent them; `Connection` is per hop (RFC 9110 §7.6.1): this client asked to
    // close, so the proxy's reply says it will.
    assert_eq!(
        reply.headers,
        [
            "Content-Type: text/event-stream",
            "X-Request-ID: Abc-1",
            "cache-control: no-cache",
            "Transfer-Encoding: chunked",
            "connection: close"
        ]
    );

    let got = upstream.requests.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(got.body, request_body.as_bytes(), "the request body as sent");
    assert!(got.head.starts_with("POST /v1/chat/completions?api-version=2 HTTP/1.1\r\n"), "{}", got.head);
    for header in
        [format!("Authorization: Bearer {KEY}"), "X-Trace-ID: t-77".into(), "Content-Type: application/json".into()]
    {
        assert!(got.head.contains(&header), "{header} missing in {}", got.head);
    }
}

#[test]
fn a_looping_stream_is_cut_cleanly_counted_and_logged_and_the_log_reads_back() {
    let mock = mock();
    let dir = temp_dir("cut");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&mock.base_url(), Some(Verdict::Fail), Some(log.clone()));
    let max_tokens = 4000;
    let started = Instant::now();
    let reply =
        exchange(proxy.addr, &request("POST", "/v1/chat/completions", Some(&chat("mock-line-loop", true, max_tokens))));
    let took = started.elapsed();
    assert!(reply.complete, "a clean end of the HTTP body");
    let text = reply.text();
    assert!(text.ends_with("data: [DONE]\n\n"), "{}", &text[text.len().saturating_sub(300)..]);
    assert!(text.contains(": coherency proxy: generation cut: FAIL"));
    // The client's SSE reader sees a whole reply with a finish reason and [DONE], no problem.
    let mut pump = SsePump::new(ChatAssembler::new());
    assert!(pump.feed(&reply.body).is_empty());
    assert!(pump.end_input().is_empty());
    assert_eq!(pump.turns()[0].finish_reason.as_deref(), Some("length"));
    assert!(pump.info().saw_done);

    proxy.wait_for_generations(1);
    let lines = log_lines(&log);
    let cut = &lines[0]["proxy"]["cut"];
    assert_eq!(lines[0]["proxy"]["ending"], "cut-by-proxy");
    assert_eq!(cut["verdict"], "FAIL");
    let generated = cut["tokens_generated"].as_u64().unwrap();
    let saved = cut["tokens_saved"].as_u64().unwrap();
    assert!(generated < u64::from(max_tokens) / 2, "cut early: {generated} tokens of {max_tokens} ({took:?})");
    assert_eq!(saved + generated, u64::from(max_tokens));
    assert_eq!(cut["tokens_saved_estimated"], true, "the mock sends usage only at the end: estimated");

    // The log is a live-captures file: the core reads it back to the verdict the proxy counted.
    let t = ingest::read(read_log(&log).as_bytes());
    assert_eq!(t.format, Format::LiveCaptures);
    let judged = judge_transcript(&t);
    assert_eq!(judged.conversations.len(), 1);
    assert_eq!(judged.conversations[0].verdict, Verdict::Fail);
    assert!(!read_log(&log).contains(KEY));

    // /metrics says it too.
    let metrics = exchange(proxy.addr, &request("GET", "/metrics", None));
    assert_eq!(metrics.header("content-type"), Some("text/plain; version=0.0.4; charset=utf-8"));
    let m = metrics.text();
    for want in [
        "coherency_proxy_generations_total{model=\"mock-line-loop\",verdict=\"FAIL\"} 1\n".to_string(),
        "coherency_proxy_cuts_total{model=\"mock-line-loop\"} 1\n".to_string(),
        format!("coherency_proxy_tokens_saved_total{{model=\"mock-line-loop\",estimated=\"true\"}} {saved}\n"),
        "coherency_proxy_requests_total 1\n".to_string(),
        "coherency_proxy_generations_in_flight 0\n".to_string(),
    ] {
        assert!(m.contains(&want), "missing {want:?} in\n{m}");
    }
    let count = m.lines().find_map(|l| l.strip_prefix("coherency_proxy_added_latency_seconds_count ")).unwrap();
    assert!(count.parse::<u64>().unwrap() > 10, "{m}");
}

#[test]
fn a_cut_closes_the_upstream_connection() {
    // An upstream that loops forever, until its writes fail.
    let upstream = Scripted::start(|conn, _| {
        conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")?;
        chunk(conn, sse_chunk("Let me check.").as_bytes())?;
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            chunk(conn, sse_chunk("I will check the lock again.\n").as_bytes())?;
            std::thread::sleep(Duration::from_millis(2));
        }
        Ok(())
    });
    let proxy = proxy(&upstream.url(), Some(Verdict::Fail), None);
    let reply = exchange(proxy.addr, &request("POST", "/v1/chat/completions", Some("{\"stream\":true}")));
    assert!(reply.complete && reply.text().ends_with("data: [DONE]\n\n"));
    let closed = upstream.closed.recv_timeout(Duration::from_secs(10));
    assert!(closed.is_ok(), "the upstream kept streaming after the cut");
    proxy.wait_for_generations(1);
    let m = proxy.metrics.lock().unwrap().render();
    assert!(m.contains("coherency_proxy_cuts_saving_unknown_total 1"), "no max_tokens: the saving is unknown\n{m}");
}

#[test]
fn an_upstream_that_dies_mid_stream_ends_the_clients_stream_the_same_way() {
    let mock = mock();
    let dir = temp_dir("dies");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&mock.base_url(), None, Some(log.clone()));
    let req = request("POST", "/v1/chat/completions", Some(&chat("mock-dropped", true, 300)));
    let direct = exchange(format!("127.0.0.1:{}", mock.port()).parse().unwrap(), &req);
    let proxied = exchange(proxy.addr, &req);
    assert!(!direct.complete, "the mock drops the connection mid-body");
    assert!(!proxied.complete, "the client sees the body end early, as without the proxy");
    assert_eq!(normalise(&proxied.body), normalise(&direct.body));
    proxy.wait_for_generations(1);
    let line = &log_lines(&log)[0];
    assert_eq!(line["proxy"]["ending"], "upstream-failed", "{line}");
    assert!(line["generation"]["error"].as_str().unwrap().starts_with("cut: the upstream failed"));
}

#[test]
fn a_client_that_goes_away_is_logged_and_the_upstream_closed() {
    let upstream = Scripted::start(|conn, _| {
        conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")?;
        let prose = coherency_core::samples::PROSE;
        let deadline = Instant::now() + Duration::from_secs(30);
        for word in prose.split_inclusive(' ').cycle() {
            if Instant::now() > deadline {
                break;
            }
            chunk(conn, sse_chunk(word).as_bytes())?;
            std::thread::sleep(Duration::from_millis(2));
        }
        Ok(())
    });
    let dir = temp_dir("gone");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&upstream.url(), Some(Verdict::Fail), Some(log.clone()));
    {
        let mut s = TcpStream::connect(proxy.addr).unwrap();
        s.write_all(&request("POST", "/v1/chat/completions", Some("{\"model\":\"m\",\"stream\":true}"))).unwrap();
        let mut buf = [0u8; 4096];
        let mut got = 0;
        while got < 2000 {
            got += s.read(&mut buf).unwrap();
        }
    } // The client hangs up mid-stream.
    assert!(upstream.closed.recv_timeout(Duration::from_secs(10)).is_ok(), "the upstream was not closed");
    proxy.wait_for_generations(1);
    let line = &log_lines(&log)[0];
    assert_eq!(line["proxy"]["ending"], "client-gone");
    assert!(line["generation"]["verdict"].is_string(), "what came is scored: {line}");
}

#[test]
fn a_body_that_is_not_sse_and_a_malformed_chunk_pass_as_sent_and_are_logged() {
    let upstream = Scripted::start(|conn, received| {
        if String::from_utf8_lossy(&received.body).contains("plain") {
            return conn
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\noops not sse");
        }
        conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 60\r\n\r\n")?;
        conn.write_all(b"data: {not json at all\n\ndata: {\"choices\":[]}\n\ndata: [DONE]\n\n")
    });
    let dir = temp_dir("malformed");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&upstream.url(), None, Some(log.clone()));
    let plain = exchange(proxy.addr, &request("POST", "/v1/chat/completions", Some("{\"model\":\"plain\"}")));
    assert_eq!((plain.header("content-length"), plain.text().as_str()), (Some("12"), "oops not sse"));
    let bad = exchange(proxy.addr, &request("POST", "/v1/completions", Some("{\"model\":\"bad\"}")));
    assert_eq!(bad.header("content-length"), Some("60"), "without a cut policy the length stays");
    assert_eq!(bad.text(), "data: {not json at all\n\ndata: {\"choices\":[]}\n\ndata: [DONE]\n\n");
    proxy.wait_for_generations(2);
    let text = read_log(&log);
    let t = ingest::read(text.as_bytes());
    assert_eq!(t.format, Format::LiveCaptures);
    let said: Vec<&str> = t.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(said.iter().any(|m| m.contains("not scored: the reply is text/plain")), "{said:?}");
    assert!(said.iter().any(|m| m.contains("not a chat-completion chunk")), "{said:?}");
}

#[test]
fn an_upstream_that_cannot_be_reached_is_a_502_saying_so() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let dir = temp_dir("unreachable");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&format!("http://127.0.0.1:{port}/v1"), None, Some(log.clone()));
    let reply = exchange(proxy.addr, &request("GET", "/v1/models", None));
    assert!(reply.status_line.contains("502"), "{}", reply.status_line);
    assert!(reply.text().contains("did not answer"), "{}", reply.text());
    assert!(!reply.text().contains(KEY));
    // A generation that never reached the server is logged.
    let generation = exchange(proxy.addr, &request("POST", "/v1/chat/completions", Some(&chat("m", true, 10))));
    assert!(generation.status_line.contains("502"));
    proxy.wait_for_generations(1);
    let line = &log_lines(&log)[0];
    assert_eq!(line["proxy"]["status"], 502);
    assert!(line["generation"]["error"].as_str().unwrap().contains("did not answer"), "{line}");
    let m = proxy.metrics.lock().unwrap().render();
    assert!(m.contains("coherency_proxy_upstream_unreachable_total 2"), "{m}");
}

#[test]
fn a_huge_request_body_is_forwarded_whole() {
    let upstream = Scripted::start(|conn, received| {
        let answer = format!("{{\"received\":{}}}", received.body.len());
        conn.write_all(
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{answer}",
                answer.len()
            )
            .as_bytes(),
        )
    });
    let proxy = proxy(&upstream.url(), Some(Verdict::Fail), None);
    // Past what the proxy reads of a request (8 MiB): still forwarded byte for byte.
    let filler = "x".repeat(12 << 20);
    let body = format!("{{\"model\":\"m\",\"messages\":[{{\"role\":\"user\",\"content\":\"{filler}\"}}]}}");
    let reply = exchange(proxy.addr, &request("POST", "/v1/chat/completions", Some(&body)));
    assert_eq!(reply.text(), format!("{{\"received\":{}}}", body.len()));
    let got = upstream.requests.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(got.body == body.as_bytes());
}

#[test]
fn a_slow_client_gets_every_byte_in_order() {
    // 2 MB of events as fast as the upstream can write them; the client reads 16 KB at a time.
    // (No cut policy: the text is a few paragraphs said again and again, a loop.)
    let words: Vec<&str> = coherency_core::samples::PROSE.split_inclusive(' ').collect();
    let events: String = (0..12_000).map(|i| sse_chunk(words[i % words.len()])).collect();
    let sent = events.clone();
    let upstream = Scripted::start(move |conn, _| {
        conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")?;
        for piece in sent.as_bytes().chunks(4000) {
            chunk(conn, piece)?;
        }
        conn.write_all(b"0\r\n\r\n")
    });
    let proxy = proxy(&upstream.url(), None, None);
    let mut s = TcpStream::connect(proxy.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(&request("POST", "/v1/chat/completions", Some("{\"stream\":true}"))).unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    let reply = Reply::parse(&raw);
    assert!(reply.complete);
    assert!(
        reply.body == events.as_bytes(),
        "the slow client's bytes differ ({} of {})",
        reply.body.len(),
        events.len()
    );
}

#[test]
fn a_request_carrying_a_looping_tool_history_gets_the_tool_call_check_across_turns() {
    let mock = mock();
    let dir = temp_dir("tools");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&mock.base_url(), Some(Verdict::Fail), Some(log.clone()));
    let mut messages = vec![serde_json::json!({"role": "user", "content": "Why does the date test fail?"})];
    for i in 0..8 {
        messages
            .push(serde_json::json!({"role": "assistant", "content": null, "tool_calls": [{"id": format!("call_{i}"),
            "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/date.py\"}"}}]}));
        messages.push(serde_json::json!({"role": "tool", "tool_call_id": format!("call_{i}"), "content": "def parse(s):\n    return s\n"}));
    }
    let body = serde_json::json!({"model": "mock-coherent", "stream": true, "max_tokens": 200, "messages": messages,
        "tools": [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]});
    let reply = exchange(proxy.addr, &request("POST", "/v1/chat/completions", Some(&body.to_string())));
    assert!(reply.text().contains("tool_calls"), "the mock answers with a call: {}", reply.text());
    proxy.wait_for_generations(1);
    let line = &log_lines(&log)[0];
    assert_eq!(line["proxy"]["tool_calls"]["verdict"], "FAIL", "{}", line["proxy"]);
    assert!(line["proxy"]["tool_calls"]["calls"].as_u64().unwrap() >= 8);
    let m = proxy.metrics.lock().unwrap().render();
    assert!(m.contains("coherency_proxy_tool_call_checks_total{model=\"mock-coherent\",verdict=\"FAIL\"} 1"), "{m}");
}

#[test]
fn an_https_upstream_is_reached_over_tls_passed_through_scored_and_cut() {
    let mock = mock();
    let dir = temp_dir("tls");
    let front = TlsFront::start(mock.port(), &dir);
    let log = dir.join("proxy.jsonl");
    let proxy = start_proxy(&front.url(), Some(front.ca_file.clone()), Some(Verdict::Fail), Some(log.clone())).unwrap();
    let mock_addr = format!("127.0.0.1:{}", mock.port()).parse().unwrap();
    for req in [
        request("GET", "/v1/models", None),
        request("POST", "/v1/chat/completions", Some(&chat("mock-coherent", true, 300))),
    ] {
        let direct = exchange(mock_addr, &req);
        let proxied = exchange(proxy.addr, &req);
        assert_eq!(proxied.status_line, direct.status_line);
        assert_eq!(normalise(&proxied.body), normalise(&direct.body), "the body, over TLS");
    }
    let cut = exchange(proxy.addr, &request("POST", "/v1/chat/completions", Some(&chat("mock-line-loop", true, 4000))));
    assert!(cut.complete && cut.text().ends_with("data: [DONE]\n\n"));
    assert!(cut.text().contains(": coherency proxy: generation cut: FAIL"));
    proxy.wait_for_generations(2);
    let lines = log_lines(&log);
    assert_eq!(lines[0]["generation"]["verdict"], "PASS");
    assert_eq!(lines[1]["proxy"]["ending"], "cut-by-proxy");
    assert!(lines[1]["generation"]["url"].as_str().unwrap().starts_with("https://127.0.0.1:"), "{}", lines[1]);

    // Without the test CA the certificate is not trusted: a 502 that says why (or, on a machine
    // with no system certificates at all, a proxy that will not start and says so).
    match start_proxy(&front.url(), None, None, None) {
        Ok(untrusting) => {
            let reply = exchange(untrusting.addr, &request("GET", "/v1/models", None));
            assert!(reply.status_line.contains("502"), "{}", reply.status_line);
            assert!(reply.text().to_lowercase().contains("certificate"), "{}", reply.text());
        }
        Err(why) => assert!(why.contains("--upstream-ca"), "{why}"),
    }
    // A CA file for a plain http upstream is a mistake said at start.
    let http = start_proxy(&mock.base_url(), Some(front.ca_file.clone()), None, None).err().unwrap();
    assert!(http.contains("--upstream-ca is for an https:// upstream"), "{http}");
}

/// A looping chat stream, compressed with gzip.
fn gzipped_loop() -> (String, Vec<u8>) {
    use std::io::Write as _;
    let events: String =
        (0..600).map(|i| sse_chunk(if i < 2 { "Let me see. " } else { "The lock is held.\n" })).collect();
    let events = events + "data: [DONE]\n\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(events.as_bytes()).unwrap();
    (events, gz.finish().unwrap())
}

#[test]
fn generations_are_asked_uncompressed_and_a_server_that_compresses_anyway_is_decoded_to_score() {
    // The upstream compresses when asked to (and, for the model "always-gzip", always; for
    // "always-br" it says br).
    let upstream = Scripted::start(|conn, received| {
        let head = received.head.to_ascii_lowercase();
        let asked_gzip = head.lines().any(|l| l.starts_with("accept-encoding:") && l.contains("gzip"));
        let model = String::from_utf8_lossy(&received.body).into_owned();
        let (events, gz) = gzipped_loop();
        let (encoding, body) = if model.contains("always-br") {
            ("br", b"\x1b\x00 not really brotli".to_vec())
        } else if asked_gzip || model.contains("always-gzip") {
            ("gzip", gz)
        } else {
            ("identity", events.into_bytes())
        };
        conn.write_all(
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: {encoding}\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            .as_bytes(),
        )?;
        for piece in body.chunks(700) {
            chunk(conn, piece)?;
            std::thread::sleep(Duration::from_millis(2));
        }
        conn.write_all(b"0\r\n\r\n")
    });
    let dir = temp_dir("encoding");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&upstream.url(), Some(Verdict::Fail), Some(log.clone()));
    let ask = |model: &str| {
        let body = format!("{{\"model\":\"{model}\",\"stream\":true,\"max_tokens\":4000}}");
        let mut req = request("POST", "/v1/chat/completions", Some(&body));
        let at = find(&req, b"\r\n\r\n").unwrap();
        req.splice(at..at, b"\r\nAccept-Encoding: gzip, deflate, br".iter().copied());
        exchange(proxy.addr, &req)
    };
    // Asked for identity: scored and cut as any stream.
    let cut = ask("polite");
    let got = upstream.requests.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(got.head.to_ascii_lowercase().contains("accept-encoding: identity"), "{}", got.head);
    assert!(cut.text().contains(": coherency proxy: generation cut: FAIL"), "{}", cut.text());
    // Compressed anyway: passed on as sent, decoded to be scored, not cut.
    let (_, gz) = gzipped_loop();
    let compressed = ask("always-gzip");
    assert_eq!(compressed.header("content-encoding"), Some("gzip"));
    assert!(compressed.body == gz, "the compressed bytes as sent");
    let br = ask("always-br");
    assert_eq!(br.body, b"\x1b\x00 not really brotli");
    proxy.wait_for_generations(3);
    let lines = log_lines(&log);
    assert_eq!(lines[0]["proxy"]["ending"], "cut-by-proxy");
    assert_eq!(
        (lines[1]["generation"]["verdict"].as_str(), lines[1]["proxy"]["ending"].as_str()),
        (Some("FAIL"), Some("done"))
    );
    assert!(lines[1]["proxy"]["note"].as_str().unwrap().contains("decoding its gzip body"), "{}", lines[1]["proxy"]);
    assert!(lines[1]["sse"].as_str().unwrap().starts_with("data: {"), "the log holds the decoded stream");
    assert!(lines[2]["generation"]["error"].as_str().unwrap().contains("compressed (br)"), "{}", lines[2]);
    let t = ingest::read(read_log(&log).as_bytes());
    let verdicts: Vec<&str> = judge_transcript(&t).conversations.iter().map(|c| c.verdict.as_str()).collect();
    assert_eq!(verdicts, ["FAIL", "FAIL"]);
}

/// A chat chunk of choice `index`.
fn choice_chunk(index: u64, content: &str, finish: Option<&str>) -> String {
    let c = serde_json::json!({"id": "chatcmpl-n", "object": "chat.completion.chunk", "created": 7, "model": "scripted",
        "choices": [{"index": index, "delta": {"content": content}, "finish_reason": finish}]});
    format!("data: {c}\n\n")
}

#[test]
fn several_choices_are_judged_apart_and_a_stream_is_cut_only_when_every_open_choice_loops() {
    let prose: Vec<&str> = coherency_core::samples::PROSE.split_inclusive(' ').collect();
    let looped = "The lock is held, so I check the lock again.\n";
    // n = 2: choice 0 healthy prose (then done), choice 1 a loop that goes on; n = 3: all loop.
    let words = prose.clone();
    let upstream = Scripted::start(move |conn, received| {
        let prose = &words;
        let all_loop = String::from_utf8_lossy(&received.body).contains("\"n\":3");
        conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")?;
        let choices = if all_loop { 3 } else { 2 };
        for i in 0..3000 {
            for c in 0..choices {
                let event = if c == 0 && !all_loop {
                    match i.cmp(&prose.len()) {
                        std::cmp::Ordering::Less => choice_chunk(0, prose[i], None),
                        std::cmp::Ordering::Equal => choice_chunk(0, "", Some("stop")),
                        std::cmp::Ordering::Greater => continue,
                    }
                } else {
                    choice_chunk(c, looped, None)
                };
                chunk(conn, event.as_bytes())?;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        conn.write_all(b"0\r\n\r\n")
    });
    let dir = temp_dir("choices");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&upstream.url(), Some(Verdict::Fail), Some(log.clone()));
    let ask = |n: u32| {
        let body = format!("{{\"model\":\"m\",\"stream\":true,\"n\":{n},\"max_tokens\":40000}}");
        exchange(proxy.addr, &request("POST", "/v1/chat/completions", Some(&body)))
    };
    // The healthy choice reaches the client whole; the loop is cut once it is the only one left.
    let two = ask(2);
    let mut pump = SsePump::new(ChatAssembler::new());
    assert!(pump.feed(&two.body).is_empty());
    let (_, turns, info) = pump.finish();
    assert_eq!(turns[0].content, prose.concat(), "choice 0 whole");
    assert_eq!(turns[0].finish_reason.as_deref(), Some("stop"));
    assert_eq!(turns[1].finish_reason.as_deref(), Some("length"), "choice 1 cut");
    assert!(info.saw_done && two.text().contains(": coherency proxy: generation cut: FAIL — choice 1:"));
    assert!(two.body.len() < 3000 * 2 * 150, "cut before the end");
    upstream.closed.recv_timeout(Duration::from_secs(10)).expect("the upstream was not closed");
    // Every choice loops: cut early, each choice ended.
    let three = ask(3);
    let text = three.text();
    let last = text.lines().rev().find(|l| l.starts_with("data: {")).unwrap();
    let last: Value = serde_json::from_slice(&last.as_bytes()["data: ".len()..]).unwrap();
    let ended: Vec<(u64, &str)> = last["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["index"].as_u64().unwrap(), c["finish_reason"].as_str().unwrap()))
        .collect();
    assert_eq!(ended, [(0, "length"), (1, "length"), (2, "length")]);

    proxy.wait_for_generations(2);
    let lines = log_lines(&log);
    let choices = |l: &Value| -> Vec<String> {
        l["proxy"]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["verdict"].as_str().unwrap_or("none").to_string())
            .collect()
    };
    assert_eq!(choices(&lines[0]), ["PASS", "FAIL"], "{}", lines[0]["proxy"]);
    assert_eq!(choices(&lines[1]), ["FAIL", "FAIL", "FAIL"]);
    for l in &lines {
        assert_eq!(
            (l["generation"]["verdict"].as_str(), l["proxy"]["ending"].as_str()),
            (Some("FAIL"), Some("cut-by-proxy"))
        );
    }
    // Read back: each choice its own conversation, with the verdict the proxy gave it.
    let t = ingest::read(read_log(&log).as_bytes());
    let verdicts: Vec<&str> = judge_transcript(&t).conversations.iter().map(|c| c.verdict.as_str()).collect();
    assert_eq!(verdicts, ["PASS", "FAIL", "FAIL", "FAIL", "FAIL"]);
}

#[test]
fn stopping_logs_each_generation_in_flight_even_one_whose_upstream_has_not_answered() {
    // The upstream answers "slow" only after 30 s; "stream" streams prose slowly.
    let upstream = Scripted::start(|conn, received| {
        if String::from_utf8_lossy(&received.body).contains("slow") {
            std::thread::sleep(Duration::from_secs(30));
            return Ok(());
        }
        conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")?;
        for word in coherency_core::samples::PROSE.split_inclusive(' ') {
            chunk(conn, sse_chunk(word).as_bytes())?;
            std::thread::sleep(Duration::from_millis(20));
        }
        conn.write_all(b"0\r\n\r\n")
    });
    let dir = temp_dir("stopping");
    let log = dir.join("proxy.jsonl");
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let config = coherency_proxy::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        upstream: coherency_proxy::Upstream::parse(&upstream.url()).unwrap(),
        upstream_ca: None,
        cut_on: Some(Verdict::Fail),
        log: Some(log.clone()),
        log_max_bytes: None,
        quiet: true,
    };
    let proxy = runtime.block_on(coherency_proxy::Proxy::bind(&config)).unwrap();
    let addr = proxy.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = runtime.spawn(proxy.serve_until(async move {
        let _ = stopped.await;
    }));
    let open = |model: &str| {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(&request(
            "POST",
            "/v1/chat/completions",
            Some(&format!("{{\"model\":\"{model}\",\"stream\":true}}")),
        ))
        .unwrap();
        s
    };
    let _waiting = open("slow");
    let mut streaming = open("stream");
    let mut buf = [0u8; 4096];
    let mut got = 0;
    while got < 800 {
        got += streaming.read(&mut buf).unwrap();
    }
    stop.send(()).unwrap();
    let stopping = runtime.block_on(serving).unwrap();
    runtime.shutdown_timeout(Duration::from_secs(2));
    let (metrics, closed) = stopping.finish();
    assert!(closed, "the log's thread wrote every line and ended");
    assert_eq!(metrics.generations(), 2);
    assert!(metrics.summary().starts_with("2 generations ("), "{}", metrics.summary());
    let lines = log_lines(&log);
    let mut said: Vec<(String, String)> = lines
        .iter()
        .map(|l| {
            (
                l["proxy"]["ending"].as_str().unwrap().to_string(),
                l["generation"]["error"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    said.sort();
    assert_eq!(said[0].0, "proxy-stopped");
    assert_eq!(said[0].1, "cut: the proxy was stopped", "the stream in flight: {lines:?}");
    assert_eq!(
        said[1],
        ("proxy-stopped".to_string(), "the proxy was stopped before the upstream answered".to_string())
    );
}
