//! The proxy scores and cuts the other APIs agents speak, over real loopback HTTP against a
//! scripted upstream that answers each as its servers do: the OpenAI Responses API
//! (`/v1/responses`, Codex CLI's), Anthropic Messages (`/v1/messages`, Claude Code's) and
//! Ollama's native API (`/api/chat`, `/api/generate`, NDJSON). For each: a healthy stream
//! reaches the client byte for byte and is logged PASS; a looping stream is cut with the end
//! its clients know (and the upstream closed, the tokens saved counted); a whole looping reply
//! is logged FAIL, never cut; the log reads back through the core to the verdicts counted.

mod support;

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use coherency_core::analyze::Verdict;
use coherency_core::ingest::{self, Format};
use coherency_core::judge::judge_transcript;
use coherency_proxy::dialect::Dialect;
use serde_json::{json, Value};
use support::*;

const DIALECTS: [(Dialect, &str); 4] = [
    (Dialect::Responses, "/v1/responses"),
    (Dialect::Anthropic, "/v1/messages"),
    (Dialect::Ollama, "/api/chat"),
    (Dialect::Ollama, "/api/generate"),
];

/// The pieces of a healthy reply (the sample prose) or of a loop, in words.
fn pieces(looping: bool) -> Vec<String> {
    if looping {
        let mut p = vec!["Let me see. ".to_string()];
        p.extend(std::iter::repeat_n("The lock is held, so I check the lock again.\n".to_string(), 3000));
        p
    } else {
        coherency_core::samples::PROSE.split_inclusive(' ').map(str::to_string).collect()
    }
}

/// The stream's opening events, one event per text piece, and its ending, in `path`'s dialect.
fn stream(path: &str, looping: bool) -> (String, Vec<String>, String) {
    let texts = pieces(looping);
    match path {
        "/v1/responses" => {
            let created = json!({"type": "response.created", "sequence_number": 0,
                "response": {"id": "resp_1", "object": "response", "created_at": 1790000000, "model": "gpt-x", "status": "in_progress"}});
            let reasoning = json!({"type": "response.reasoning_text.delta", "item_id": "rs_1", "output_index": 0, "content_index": 0,
                "delta": "The user asks about page reclaim; I will explain the watermarks."});
            let head = format!("event: response.created\ndata: {created}\n\nevent: response.reasoning_text.delta\ndata: {reasoning}\n\n");
            let events = texts
                .iter()
                .map(|t| {
                    let d = json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 1, "content_index": 0, "delta": t});
                    format!("event: response.output_text.delta\ndata: {d}\n\n")
                })
                .collect();
            let done = json!({"type": "response.completed", "response": {"id": "resp_1", "object": "response", "status": "completed",
                "model": "gpt-x", "usage": {"input_tokens": 20, "output_tokens": 400, "total_tokens": 420}}});
            (head, events, format!("event: response.completed\ndata: {done}\n\n"))
        }
        "/v1/messages" => {
            let start = json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [],
                "model": "claude-x", "usage": {"input_tokens": 30, "output_tokens": 1}}});
            let block =
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}});
            let head = format!(
                "event: message_start\ndata: {start}\n\nevent: ping\ndata: {{\"type\":\"ping\"}}\n\nevent: content_block_start\ndata: {block}\n\n"
            );
            let events = texts
                .iter()
                .map(|t| {
                    let d =
                        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": t}});
                    format!("event: content_block_delta\ndata: {d}\n\n")
                })
                .collect();
            let end = "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":400}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
            (head, events, end.to_string())
        }
        _ => {
            let generate = path == "/api/generate";
            let line = |text: &str, done: bool| {
                let mut l = json!({"model": "qwen-x", "created_at": "2026-12-07T12:00:00.000Z", "done": done});
                if generate {
                    l["response"] = json!(text);
                } else {
                    l["message"] = json!({"role": "assistant", "content": text});
                }
                if done {
                    l["done_reason"] = json!("stop");
                    l["eval_count"] = json!(400);
                }
                format!("{l}\n")
            };
            let events = texts.iter().map(|t| line(t, false)).collect();
            (String::new(), events, line("", true))
        }
    }
}

/// A whole (not streamed) reply in `path`'s dialect.
fn whole(path: &str, looping: bool) -> String {
    let all = pieces(looping);
    let text = all[..all.len().min(60)].concat();
    let body = match path {
        "/v1/responses" => json!({"id": "resp_2", "object": "response", "status": "completed", "model": "gpt-x",
            "output": [{"type": "message", "id": "msg_2", "role": "assistant", "content": [{"type": "output_text", "text": text, "annotations": []}]}],
            "usage": {"input_tokens": 20, "output_tokens": 300, "total_tokens": 320}}),
        "/v1/messages" => json!({"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-x",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "usage": {"input_tokens": 30, "output_tokens": 300}}),
        "/api/generate" => {
            json!({"model": "qwen-x", "created_at": "2026-12-07T12:00:00Z", "response": text, "done": true, "done_reason": "stop"})
        }
        _ => {
            json!({"model": "qwen-x", "created_at": "2026-12-07T12:00:00Z", "message": {"role": "assistant", "content": text},
            "done": true, "done_reason": "stop"})
        }
    };
    serde_json::to_string_pretty(&body).unwrap()
}

/// An upstream answering every dialect: streamed when the request says `"stream": true`
/// (Ollama's default too), a loop when its model's name says so; a looping stream is written
/// slowly, as a server generates, until the proxy hangs up.
fn upstream() -> Scripted {
    Scripted::start(|conn, received| {
        let path = received.head.split(' ').nth(1).unwrap_or_default().to_string();
        let body: Value = serde_json::from_slice(&received.body).unwrap_or_default();
        let looping = body["model"].as_str().unwrap_or_default().contains("loop");
        let ollama = path.starts_with("/api/");
        let streamed = body["stream"].as_bool().unwrap_or(ollama);
        if !streamed {
            let reply = whole(&path, looping);
            return conn.write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{reply}",
                    reply.len()
                )
                .as_bytes(),
            );
        }
        if body["model"].as_str() == Some("tool-caller") {
            // A Responses stream that calls read_file once more.
            let added = json!({"type": "response.output_item.added", "output_index": 0,
                "item": {"type": "function_call", "id": "fc_9", "call_id": "call_9", "name": "read_file"}});
            let args = json!({"type": "response.function_call_arguments.delta", "item_id": "fc_9", "output_index": 0,
                "delta": "{\"path\":\"src/date.py\"}"});
            let done = json!({"type": "response.completed", "response": {"id": "resp_9", "status": "completed", "model": "tool-caller"}});
            let events = format!(
                "event: response.output_item.added\ndata: {added}\n\nevent: response.function_call_arguments.delta\ndata: {args}\n\nevent: response.completed\ndata: {done}\n\n"
            );
            return conn.write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: {}\r\n\r\n{events}",
                    events.len()
                )
                .as_bytes(),
            );
        }
        let mime = if ollama { "application/x-ndjson" } else { "text/event-stream" };
        conn.write_all(
            format!("HTTP/1.1 200 OK\r\nContent-Type: {mime}\r\nTransfer-Encoding: chunked\r\n\r\n").as_bytes(),
        )?;
        let (head, events, end) = stream(&path, looping);
        if !head.is_empty() {
            chunk(conn, head.as_bytes())?;
        }
        for event in &events {
            // Split events across reads, as networks do.
            let (a, b) = event.split_at(event.len() / 2);
            chunk(conn, a.as_bytes())?;
            chunk(conn, b.as_bytes())?;
            // As slowly as a server generates (a cut comes long before the end, even on a
            // loaded machine).
            if looping {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        chunk(conn, end.as_bytes())?;
        conn.write_all(b"0\r\n\r\n")
    })
}

fn body(path: &str, model: &str, stream: bool, max_tokens: u64) -> String {
    let mut b = json!({"model": model, "stream": stream});
    match path {
        "/v1/responses" => {
            b["input"] = json!([{"role": "user", "content": "Explain page reclaim."}]);
            b["max_output_tokens"] = json!(max_tokens);
        }
        "/api/generate" => {
            b["prompt"] = json!("Explain page reclaim.");
            b["options"] = json!({"num_predict": max_tokens});
        }
        "/api/chat" => {
            b["messages"] = json!([{"role": "user", "content": "Explain page reclaim."}]);
            b["options"] = json!({"num_predict": max_tokens});
        }
        _ => {
            b["messages"] = json!([{"role": "user", "content": "Explain page reclaim."}]);
            b["max_tokens"] = json!(max_tokens);
        }
    }
    b.to_string()
}

fn log_lines(path: &std::path::Path) -> Vec<Value> {
    read_log(path).lines().map(|l| serde_json::from_slice(l.as_bytes()).unwrap()).collect()
}

#[test]
fn responses_anthropic_and_ollama_generations_are_scored_cut_and_logged() {
    let upstream = upstream();
    let dir = temp_dir("dialects");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&format!("http://127.0.0.1:{}", upstream.port), Some(Verdict::Fail), Some(log.clone()));
    let mut expected = Vec::new();
    for (dialect, path) in DIALECTS {
        // A healthy stream: byte for byte.
        let healthy = exchange(proxy.addr, &request("POST", path, Some(&body(path, "healthy", true, 2000))));
        let (head, events, end) = stream(path, false);
        assert_eq!(healthy.text(), format!("{head}{}{end}", events.concat()), "{path}: the healthy stream as sent");
        assert!(healthy.complete);
        expected.push(("PASS", "done"));

        // A looping stream: cut between events with the dialect's own end; the upstream closed.
        let started = Instant::now();
        let cut = exchange(proxy.addr, &request("POST", path, Some(&body(path, "mock-loop", true, 30_000))));
        assert!(cut.complete, "{path}: a clean end of the body");
        let text = cut.text();
        let (head, events, _) = stream(path, true);
        let at = match dialect {
            // NDJSON has no comments: the last line is the proxy's.
            Dialect::Ollama => text.trim_end().rfind('\n').map(|i| i + 1),
            _ => text.find(": coherency proxy: generation cut: FAIL"),
        };
        let before = &text[..at.unwrap_or_else(|| panic!("{path}: not cut: {} bytes", text.len()))];
        let all = format!("{head}{}", events.concat());
        assert!(
            all.starts_with(before) && before.len() < all.len() / 2,
            "{path}: whole events of upstream, then the end"
        );
        let ending = &text[before.len()..];
        match dialect {
            Dialect::Responses => {
                let event =
                    ending.split("\nevent: response.incomplete\ndata: ").nth(1).unwrap_or_else(|| panic!("{ending}"));
                let event: Value = serde_json::from_slice(event.trim_end().as_bytes()).unwrap();
                assert_eq!(event["response"]["incomplete_details"]["reason"], "max_output_tokens");
                assert_eq!(
                    (event["response"]["id"].as_str(), event["response"]["model"].as_str()),
                    (Some("resp_1"), Some("gpt-x"))
                );
            }
            Dialect::Anthropic => {
                assert!(ending.contains("\nevent: content_block_stop\n"), "the open block is stopped: {ending}");
                assert!(ending.contains("\"stop_reason\":\"max_tokens\""), "{ending}");
                assert!(ending.ends_with("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"), "{ending}");
            }
            _ => {
                let last: Value = serde_json::from_slice(ending.trim_end().as_bytes()).unwrap();
                assert_eq!((last["done"].as_bool(), last["model"].as_str()), (Some(true), Some("qwen-x")), "{ending}");
                assert_eq!(last.get("response").is_some(), path == "/api/generate", "{ending}");
            }
        }
        assert!(upstream.closed.recv_timeout(Duration::from_secs(10)).is_ok(), "{path}: the upstream kept streaming");
        assert!(started.elapsed() < Duration::from_secs(20));
        expected.push(("FAIL", "cut-by-proxy"));

        // A whole looping reply: scored when it ends, passed whole.
        let reply = exchange(proxy.addr, &request("POST", path, Some(&body(path, "mock-loop", false, 2000))));
        assert_eq!(reply.text(), whole(path, true), "{path}");
        expected.push(("FAIL", "done"));
    }
    proxy.wait_for_generations(expected.len() as u64);
    let lines = log_lines(&log);
    let got: Vec<(String, String)> = lines
        .iter()
        .map(|l| {
            (
                l["generation"]["verdict"].as_str().unwrap_or("none").to_string(),
                l["proxy"]["ending"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = expected.iter().map(|(v, e)| (v.to_string(), e.to_string())).collect();
    assert_eq!(got, want);
    for (i, l) in lines.iter().enumerate() {
        let (dialect, _) = DIALECTS[i / 3];
        assert_eq!(l["format"].as_str(), dialect.format(), "line {i}");
        if i % 3 == 1 {
            let cut = &l["proxy"]["cut"];
            assert!(cut["tokens_saved"].as_u64().unwrap() > 20_000, "{cut}");
            assert_eq!(cut["tokens_saved_estimated"], true, "{cut}");
            let generated = cut["tokens_generated"].as_u64().unwrap();
            assert!(generated > 100, "{cut}");
            assert_eq!(l["generation"]["tokens"].as_u64(), Some(generated), "the row counts what the cut counted");
        }
    }
    // Read back by the core (as `coherency analyze` and the page read it): the same verdicts.
    let t = ingest::read(read_log(&log).as_bytes());
    assert_eq!(t.format, Format::LiveCaptures);
    let judged = judge_transcript(&t);
    let verdicts: Vec<&str> = judged.conversations.iter().map(|c| c.verdict.as_str()).collect();
    assert_eq!(verdicts, expected.iter().map(|(v, _)| *v).collect::<Vec<_>>());
    let m = proxy.metrics.lock().unwrap().render();
    assert!(m.contains("coherency_proxy_cuts_total{model=\"gpt-x\"} 1"), "{m}");
    assert!(m.contains("coherency_proxy_cuts_total{model=\"claude-x\"} 1"), "{m}");
    assert!(m.contains("coherency_proxy_cuts_total{model=\"qwen-x\"} 2"), "{m}");
}

#[test]
fn a_count_tokens_request_and_a_stored_response_pass_unlogged() {
    let upstream = Scripted::start(|conn, _| {
        conn.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 19\r\n\r\n{\"input_tokens\":12}",
        )
    });
    let dir = temp_dir("dialects-other");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&upstream.url(), Some(Verdict::Fail), Some(log.clone()));
    let counted = exchange(proxy.addr, &request("POST", "/v1/messages/count_tokens", Some("{\"model\":\"c\"}")));
    assert_eq!(counted.text(), "{\"input_tokens\":12}");
    let got = exchange(proxy.addr, &request("GET", "/v1/responses/resp_1", None));
    assert!(got.complete);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(proxy.generations(), 0);
    assert!(read_log(&log).is_empty());
    let _ = TcpStream::connect(proxy.addr);
}

#[test]
fn a_codex_style_responses_history_that_repeats_a_call_gets_the_tool_call_check() {
    let upstream = upstream();
    let dir = temp_dir("dialects-tools");
    let log = dir.join("proxy.jsonl");
    let proxy = proxy(&format!("http://127.0.0.1:{}", upstream.port), Some(Verdict::Fail), Some(log.clone()));
    let mut input = vec![json!({"role": "user", "content": "Why does the date test fail?"})];
    for i in 0..8 {
        input.push(json!({"type": "function_call", "call_id": format!("call_{i}"), "name": "read_file",
            "arguments": "{\"path\":\"src/date.py\"}"}));
        input.push(json!({"type": "function_call_output", "call_id": format!("call_{i}"), "output": "def parse(s):\n    return s\n"}));
    }
    let body = json!({"model": "tool-caller", "stream": true, "input": input, "max_output_tokens": 500});
    let reply = exchange(proxy.addr, &request("POST", "/v1/responses", Some(&body.to_string())));
    assert!(reply.text().contains("function_call_arguments"), "{}", reply.text());
    proxy.wait_for_generations(1);
    let line = &log_lines(&log)[0];
    assert_eq!(line["proxy"]["tool_calls"]["verdict"], "FAIL", "{}", line["proxy"]);
    assert_eq!(line["proxy"]["tool_calls"]["calls"], 9);
}
