//! The mock OpenAI-compatible server (`coherency-mock-server`) as a client sees it: each
//! behaviour over real HTTP, decoded by the crate's own SSE decoder and assembler and judged by
//! the analyzer; CORS, key auth, tool calls, response shapes, pacing, and that it exits by
//! itself and listens on loopback only.

use coherency_core::analyze::{analyze, Verdict};
use coherency_core::ingest::{self, Channel, Format, Transcript};
use coherency_core::judge::judge_transcript;
use coherency_core::stream::{ChatAssembler, SseDecoder, SseEvent, SsePump};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, UdpSocket};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server, killed when dropped (it would also exit by itself).
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts the server on a free port with `args`, no pause between chunks unless asked.
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_coherency-mock-server"))
            .args(["--port", "0", "--exit-after", "120", "--stdin-lifeline", "--quiet", "--delay-ms", "0"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix("/v1"))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .parse()
            .unwrap();
        Server { child, port }
    }

    fn get(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        request(self.port, "GET", path, headers, None)
    }

    fn chat(&self, body: &str, headers: &[(&str, &str)]) -> Response {
        request(self.port, "POST", "/v1/chat/completions", headers, Some(body))
    }

    /// A streamed chat completion for `model`, with usage asked for.
    fn stream(&self, model: &str, extra: &str) -> Response {
        let body = format!(
            r#"{{"model":"{model}","messages":[{{"role":"user","content":"Write a long treatise on kernels."}}],
                "stream":true,"stream_options":{{"include_usage":true}}{extra}}}"#
        );
        self.chat(&body, &[])
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    /// The body, de-chunked.
    body: Vec<u8>,
    /// A chunked body ended with its terminating chunk (false: the connection was cut).
    complete: bool,
    /// When each read of the raw response arrived, with the raw bytes read so far.
    arrivals: Vec<(Instant, usize)>,
    raw: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&self.body)))
    }

    fn transcript(&self) -> Transcript {
        ingest::parse(&self.body, Format::Sse)
    }
}

/// One HTTP/1.1 request over a fresh connection; reads until the server closes it.
fn request(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: Option<&str>) -> Response {
    let mut conn = TcpStream::connect(("127.0.0.1", port)).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if let Some(b) = body {
        head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", b.len()));
    }
    head.push_str("\r\n");
    conn.write_all(head.as_bytes()).unwrap();
    conn.write_all(body.unwrap_or("").as_bytes()).unwrap();
    let (mut raw, mut arrivals, mut buf) = (Vec::new(), Vec::new(), [0u8; 16384]);
    loop {
        match conn.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                raw.extend_from_slice(&buf[..n]);
                arrivals.push((Instant::now(), raw.len()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("read: {e}"),
        }
    }
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head") + 4;
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let status = head[9..12].parse().unwrap();
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let chunked = headers.iter().any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v == "chunked");
    let (body, complete) = if chunked { dechunk(&raw[end..]) } else { (raw[end..].to_vec(), true) };
    Response { status, headers, body, complete, arrivals, raw }
}

/// Decodes a chunked body; tolerates a cut one (then `complete` is false).
fn dechunk(mut rest: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    loop {
        let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") else { return (out, false) };
        let size = usize::from_str_radix(std::str::from_utf8(&rest[..eol]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return (out, true);
        }
        let data = &rest[eol + 2..];
        if data.len() < size + 2 {
            out.extend_from_slice(&data[..size.min(data.len())]);
            return (out, false);
        }
        out.extend_from_slice(&data[..size]);
        rest = &data[size + 2..];
    }
}

/// The JSON of every `data:` event, decoded with the crate's SSE decoder fed in small pieces.
fn events(body: &[u8]) -> Vec<Value> {
    let mut d = SseDecoder::new();
    let mut out = Vec::new();
    for piece in body.chunks(7) {
        for e in d.feed(piece) {
            if let SseEvent::Message(m) = e {
                if m.data != "[DONE]" {
                    out.push(serde_json::from_slice(m.data.as_bytes()).unwrap());
                }
            }
        }
    }
    out
}

/// Feeds the body in pieces through the pump the page uses (decoder + chat assembler); the
/// mock's streams hold nothing it cannot read.
fn assemble(body: &[u8]) -> SsePump<ChatAssembler> {
    let mut pump = SsePump::new(ChatAssembler::new());
    for piece in body.chunks(13) {
        assert_eq!(pump.feed(piece), []);
    }
    assert_eq!(pump.end_input(), []);
    pump
}

fn verdict_of(t: &Transcript, channel: Channel) -> Verdict {
    let m = t.messages.iter().find(|m| m.channel == channel).unwrap_or_else(|| panic!("no {channel:?} message"));
    analyze(&m.text).verdict
}

fn overall(t: &Transcript) -> Option<Verdict> {
    judge_transcript(t).verdict
}

#[test]
fn coherent_stream_passes_and_is_well_formed() {
    let server = Server::start(&[]);
    let r = server.stream("mock-coherent", "");
    assert_eq!(r.status, 200);
    assert!(r.complete);
    assert!(r.header("content-type").unwrap().starts_with("text/event-stream"));
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let t = r.transcript();
    assert_eq!(overall(&t), Some(Verdict::Pass));
    let content = &t.messages.iter().find(|m| m.channel == Channel::Content).unwrap().text;
    let words = content.split_whitespace().count();
    assert!(words >= 5_000, "{words} words");
    let info = t.stream.unwrap();
    assert!(info.saw_done && info.errors.is_empty());
    assert_eq!(info.finish_reason.as_deref(), Some("stop"));
    assert_eq!(info.model.as_deref(), Some("mock-coherent"));
    let usage = info.usage.unwrap();
    assert_eq!(usage.completion_tokens, Some(words as u64));
    assert_eq!(usage.total_tokens, Some(usage.prompt_tokens.unwrap() + words as u64));

    // Chunk shape as FORMATS.md shows it, small deltas, usage chunk with `choices: []`.
    let evs = events(&r.body);
    for e in &evs {
        assert_eq!(e["object"], "chat.completion.chunk");
        assert!(e["id"].is_string() && e["created"].is_u64() && e["model"] == "mock-coherent");
    }
    assert_eq!(evs[0]["choices"][0]["delta"]["role"], "assistant");
    let deltas: Vec<&str> = evs.iter().filter_map(|e| e["choices"][0]["delta"]["content"].as_str()).collect();
    assert!(deltas.len() > words / 3);
    assert!(deltas.iter().skip(1).all(|d| (1..=3).contains(&d.split_whitespace().count())));
    let last = evs.last().unwrap();
    assert_eq!(last["choices"], serde_json::json!([]));
    assert!(last["usage"]["prompt_tokens"].is_u64());
    let text = String::from_utf8_lossy(&r.body);
    assert!(text.ends_with("data: [DONE]\n\n"));
    // Fields in the order servers send them.
    let first_line = text.lines().next().unwrap();
    let at = |k: &str| first_line.find(&format!("\"{k}\":")).unwrap();
    assert!(at("id") < at("object") && at("object") < at("created") && at("created") < at("model"));
    assert!(at("model") < at("choices"));

    // The page's path: the pump fed in pieces.
    let chat = assemble(&r.body);
    assert_eq!(chat.turns()[0].content.as_str(), content.as_str());
    assert!(chat.info().saw_done);
}

#[test]
fn loops_fail() {
    let server = Server::start(&[]);
    for model in ["mock-word-loop", "mock-line-loop", "mock-late-loop"] {
        let r = server.stream(model, r#","max_tokens":3000"#);
        let t = r.transcript();
        assert_eq!(overall(&t), Some(Verdict::Fail), "{model}");
        let info = t.stream.as_ref().unwrap();
        assert!(info.saw_done);
        assert_eq!(info.finish_reason.as_deref(), Some("length"), "{model}: a loop runs to the limit");
        assert_eq!(info.usage.as_ref().unwrap().completion_tokens, Some(3000));
    }
    // The late loop starts late: its first part alone passes.
    let t = server.stream("mock-late-loop", r#","max_tokens":3000"#).transcript();
    let content = &t.messages[0].text;
    assert_eq!(analyze(&content[..content.len() / 3]).verdict, Verdict::Pass);
}

#[test]
fn a_loop_in_reasoning_fails_behind_a_clean_answer() {
    let server = Server::start(&[]);
    let t = server.stream("mock-reasoning-loop", "").transcript();
    assert_eq!(verdict_of(&t, Channel::Reasoning), Verdict::Fail);
    assert_eq!(verdict_of(&t, Channel::Content), Verdict::Pass);
    assert_eq!(overall(&t), Some(Verdict::Fail));
    assert!(String::from_utf8_lossy(&server.stream("mock-reasoning-loop", "").body).contains("\"reasoning_content\""));

    let t = server.stream("mock-reasoning", "").transcript();
    assert_eq!(overall(&t), Some(Verdict::Pass));
    assert!(t.messages.iter().any(|m| m.channel == Channel::Reasoning));
}

#[test]
fn reasoning_can_come_as_reasoning() {
    let server = Server::start(&["--reasoning-field", "reasoning"]);
    let r = server.stream("mock-reasoning", r#","max_tokens":200"#);
    let body = String::from_utf8_lossy(&r.body).into_owned();
    assert!(body.contains("\"reasoning\":") && !body.contains("reasoning_content"));
    let t = r.transcript();
    assert!(t.messages.iter().any(|m| m.channel == Channel::Reasoning && !m.text.is_empty()));
    let v = server.chat(r#"{"model":"mock-reasoning","messages":[],"max_tokens":50}"#, &[]).json();
    assert!(v["choices"][0]["message"]["reasoning"].is_string());
}

#[test]
fn each_mock_reasoning_in_model_places_its_reasoning_there_streamed_or_not() {
    let server = Server::start(&[]);
    for (model, field) in [
        ("mock-reasoning-in-reasoning_content", Some("reasoning_content")),
        ("mock-reasoning-in-reasoning", Some("reasoning")),
        ("mock-reasoning-in-reasoning_details", Some("reasoning_details")),
        ("mock-reasoning-in-think", None),
    ] {
        let streamed = server.stream(model, r#","max_tokens":600"#);
        let mut pump = SsePump::new(ChatAssembler::new());
        assert!(pump.feed(&streamed.body).is_empty(), "{model}");
        let placement = pump.assembler().reasoning_placement();
        let t = streamed.transcript();
        let reasoning = t.messages.iter().find(|m| m.channel == Channel::Reasoning).expect("reasoning");
        let content = t.messages.iter().find(|m| m.channel == Channel::Content).expect("an answer");
        assert!(!content.text.contains("think>"), "{model}: the think block split out of the answer");
        match field {
            Some(field) => {
                assert_eq!(placement.fields.len(), 1, "{model}: {placement:?}");
                assert_eq!(placement.fields[0].0, field, "{model}");
                assert_eq!(placement.fields[0].1.bytes, reasoning.text.len(), "{model}");
                assert!(placement.fields[0].1.chunks > 10, "{model}: streamed in many chunks");
                assert_eq!(placement.inline, None, "{model}");
            }
            None => {
                assert!(placement.fields.is_empty(), "{model}: {placement:?}");
                assert_eq!(placement.inline.map(|t| t.bytes), Some(reasoning.text.len()), "{model}");
            }
        }
        let body = format!(r#"{{"model":"{model}","messages":[],"max_tokens":50}}"#);
        let v = server.chat(&body, &[]).json();
        let message = &v["choices"][0]["message"];
        match field {
            Some("reasoning_details") => assert!(message["reasoning_details"][0]["text"].is_string(), "{v}"),
            Some(field) => assert!(message[field].is_string(), "{v}"),
            None => assert!(message["content"].as_str().is_some_and(|c| c.starts_with("<think>\n")), "{v}"),
        }
    }
}

#[test]
fn slow_chunks_arrive_spread_over_time() {
    let server = Server::start(&[]);
    let r = server.stream("mock-slow", r#","max_tokens":10"#);
    let t = r.transcript();
    assert_eq!(t.stream.as_ref().unwrap().comments, 1, "a keep-alive comment first");
    let content_events = events(&r.body).iter().filter(|e| e["choices"][0]["delta"]["content"].is_string()).count();
    // Each event is its own read: the first token is there well before [DONE].
    assert!(r.arrivals.len() >= content_events, "{} reads for {content_events} events", r.arrivals.len());
    let first_token = r.arrivals.iter().find(|(_, n)| r.raw[..*n].windows(9).any(|w| w == b"\"content\"")).unwrap();
    let last = r.arrivals.last().unwrap();
    assert!(last.0.duration_since(first_token.0) >= Duration::from_millis(200 * (content_events as u64 - 2)));
    assert!(t.stream.unwrap().saw_done);
}

#[test]
fn a_mid_stream_error_is_reported() {
    let server = Server::start(&[]);
    let r = server.stream("mock-error", "");
    assert!(r.complete);
    let t = r.transcript();
    let info = t.stream.as_ref().unwrap();
    assert!(!info.errors.is_empty(), "{info:?}");
    assert_eq!(info.finish_reason, None);
    assert!(!t.messages[0].text.is_empty());
    let plain = server.chat(r#"{"model":"mock-error","messages":[]}"#, &[]);
    assert_eq!(plain.status, 500);
    assert!(plain.json()["error"]["message"].is_string());
}

#[test]
fn a_dropped_connection_has_no_done() {
    let server = Server::start(&[]);
    let r = server.stream("mock-dropped", "");
    assert!(!r.complete, "the chunked body must be cut, not ended");
    let t = r.transcript();
    let info = t.stream.as_ref().unwrap();
    assert!(!info.saw_done);
    assert_eq!(info.finish_reason, None);
    assert_eq!(overall(&t), Some(Verdict::Pass), "what arrived is still scored");
    assert!(!assemble(&r.body).info().saw_done);

    // Not streamed: the JSON body stops short of its Content-Length.
    let plain = server.chat(r#"{"model":"mock-dropped","messages":[]}"#, &[]);
    let promised: usize = plain.header("content-length").unwrap().parse().unwrap();
    assert!(plain.body.len() < promised);
    assert!(serde_json::from_slice::<Value>(&plain.body).is_err());
}

#[test]
fn usage_only_when_asked() {
    let server = Server::start(&[]);
    let body = r#"{"model":"mock-coherent","messages":[],"stream":true,"max_tokens":30}"#;
    let r = server.chat(body, &[]);
    let info = r.transcript().stream.unwrap();
    assert!(info.saw_done && info.usage.is_none());
    assert_eq!(info.finish_reason.as_deref(), Some("length"));
    assert!(events(&r.body).iter().all(|e| e.get("usage").is_none()));
}

#[test]
fn cors_headers_and_preflight() {
    let origin = [("Origin", "http://localhost:8080")];
    let star = Server::start(&[]);
    let pre = request(star.port, "OPTIONS", "/v1/chat/completions", &origin, None);
    assert_eq!(pre.status, 204);
    assert_eq!(pre.header("access-control-allow-origin"), Some("*"));
    let allowed = pre.header("access-control-allow-headers").unwrap().to_ascii_lowercase();
    assert!(allowed.contains("authorization") && allowed.contains("content-type"));
    assert!(pre.header("access-control-allow-methods").unwrap().contains("POST"));
    assert_eq!(star.get("/v1/models", &origin).header("access-control-allow-origin"), Some("*"));
    // A model that answers without CORS headers, behind a preflight that passes.
    let r = star.chat(r#"{"model":"mock-no-cors","messages":[],"max_tokens":20}"#, &origin);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), None);

    let echo = Server::start(&["--cors", "echo"]);
    assert_eq!(echo.get("/v1/models", &origin).header("access-control-allow-origin"), Some("http://localhost:8080"));

    let none = Server::start(&["--no-cors"]);
    let pre = request(none.port, "OPTIONS", "/v1/chat/completions", &origin, None);
    assert_ne!(pre.status / 100, 2);
    assert_eq!(pre.header("access-control-allow-origin"), None);
    let r = none.stream("mock-coherent", r#","max_tokens":20"#);
    assert_eq!((r.status, r.header("access-control-allow-origin")), (200, None));
}

#[test]
fn key_auth() {
    let server = Server::start(&["--api-key", "sekrit"]);
    for headers in [&[][..], &[("Authorization", "Bearer wrong")][..]] {
        for r in [server.get("/v1/models", headers), server.chat(r#"{"messages":[]}"#, headers)] {
            assert_eq!(r.status, 401);
            assert!(r.json()["error"]["message"].is_string());
            assert_eq!(r.header("access-control-allow-origin"), Some("*"), "a page must be able to read the 401");
        }
    }
    let good = [("Authorization", "Bearer sekrit")];
    assert_eq!(server.get("/v1/models", &good).status, 200);
    assert_eq!(server.get("/v1/models", &[("Authorization", "bearer sekrit")]).status, 200);
    assert_eq!(server.chat(r#"{"messages":[],"max_tokens":5}"#, &good).status, 200);
    // The browser's preflight carries no key.
    assert_eq!(request(server.port, "OPTIONS", "/v1/models", &[], None).status, 204);

    // Without --api-key any key is taken (check G: SKIP).
    let open = Server::start(&[]);
    assert_eq!(open.get("/v1/models", &[("Authorization", "Bearer anything")]).status, 200);

    // 401 for everything, by flag or by model.
    let locked = Server::start(&["--behaviour", "unauthorized"]);
    assert_eq!(locked.get("/v1/models", &good).status, 401);
    assert_eq!(open.chat(r#"{"model":"mock-unauthorized","messages":[]}"#, &good).status, 401);
}

#[test]
fn tool_calls_streamed_and_not() {
    let server = Server::start(&[]);
    let tools = r#","tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",
        "properties":{"city":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]},
        "days":{"type":"integer"}},"required":["city","unit"]}}}],"tool_choice":"required""#;
    let r = server.stream("mock-coherent", tools);
    let chat = assemble(&r.body);
    let turn = &chat.turns()[0];
    assert_eq!(turn.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(turn.tool_calls.len(), 1);
    assert_eq!(turn.tool_calls[0].name, "get_weather");
    let args: Value = serde_json::from_slice(turn.tool_calls[0].arguments.as_bytes()).unwrap();
    assert!(args["city"].is_string() && args["unit"] == "celsius");
    let fragments = events(&r.body).iter().filter(|e| e["choices"][0]["delta"]["tool_calls"].is_array()).count();
    assert!(fragments > 2, "arguments arrive in fragments");

    let body = format!(r#"{{"model":"mock-coherent","messages":[{{"role":"user","content":"weather?"}}]{tools}}}"#);
    let v = server.chat(&body, &[]).json();
    assert_eq!(v["choices"][0]["finish_reason"], "tool_calls");
    let call = &v["choices"][0]["message"]["tool_calls"][0];
    assert_eq!((call["type"].as_str(), call["function"]["name"].as_str()), (Some("function"), Some("get_weather")));
    let args: Value = serde_json::from_slice(call["function"]["arguments"].as_str().unwrap().as_bytes()).unwrap();
    assert!(args.get("city").is_some() && args.get("unit").is_some());
}

#[test]
fn non_streamed_completion_has_the_right_types() {
    let server = Server::start(&[]);
    let r = server
        .chat(r#"{"model":"mock-coherent","messages":[{"role":"user","content":"Say hi"}],"max_tokens":16}"#, &[]);
    assert_eq!((r.status, r.header("content-type")), (200, Some("application/json")));
    let v = r.json();
    assert!(v["id"].is_string() && v["created"].is_u64());
    assert_eq!((v["object"].as_str(), v["model"].as_str()), (Some("chat.completion"), Some("mock-coherent")));
    let choice = &v["choices"][0];
    assert_eq!(choice["message"]["role"], "assistant");
    assert_eq!(choice["message"]["content"].as_str().unwrap().split_whitespace().count(), 16);
    assert_eq!(choice["finish_reason"], "length");
    let u = &v["usage"];
    assert_eq!(u["completion_tokens"], 16);
    assert_eq!(u["total_tokens"].as_u64(), Some(u["prompt_tokens"].as_u64().unwrap() + 16));
    // Unknown model names are echoed and served with the default behaviour.
    let v = server.chat(r#"{"model":"my-model","messages":[],"max_tokens":8}"#, &[]).json();
    assert_eq!(v["model"], "my-model");
    // The whole answer reads back through the ingest path.
    let t = ingest::read(&r.body);
    assert_eq!(t.format, Format::OpenaiJson);
    assert_eq!(t.messages.iter().filter(|m| m.channel == Channel::Content).count(), 1);
}

#[test]
fn models_list_and_path_ids() {
    let server = Server::start(&[]);
    let v = server.get("/v1/models", &[]).json();
    assert_eq!(v["object"], "list");
    let ids: Vec<&str> = v["data"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    for id in ["mock-coherent", "mock-word-loop", "mock-line-loop", "mock-late-loop", "mock-reasoning-loop"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    let paths = Server::start(&["--path-ids"]);
    let v = paths.get("/v1/models", &[]).json();
    let first = v["data"][0]["id"].as_str().unwrap().to_string();
    assert!(first.starts_with('/') && first.ends_with(".gguf"), "{first}");
    let body = format!(r#"{{"model":"{first}","messages":[],"max_tokens":8}}"#);
    assert_eq!(paths.chat(&body, &[]).json()["model"], first.as_str());
}

#[test]
fn bad_requests_get_openai_style_errors() {
    let server = Server::start(&[]);
    let r = server.get("/v1/nothing", &[]);
    assert_eq!(r.status, 404);
    assert!(r.json()["error"]["message"].is_string());
    assert_eq!(server.chat("not json", &[]).status, 400);
    assert_eq!(server.chat(r#"{"model":"mock-coherent"}"#, &[]).status, 400);
}

#[test]
fn exits_by_itself() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_coherency-mock-server"))
        .args(["--port", "0", "--exit-after", "1", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(30), "still running after --exit-after 1");
        std::thread::sleep(Duration::from_millis(50));
    }

    let mut server = Server::start(&["--exit-after", "0"]);
    drop(server.child.stdin.take()); // EOF on the lifeline
    let start = Instant::now();
    while server.child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(30), "still running after stdin closed");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn listens_on_loopback_only() {
    let server = Server::start(&[]);
    // This machine's address on its default route, if it has one (no packet is sent).
    let Some(ip) = UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("192.0.2.1:9").map(|_| s))
        .and_then(|s| s.local_addr())
        .ok()
        .map(|a| a.ip())
        .filter(|ip| !ip.is_loopback() && !ip.is_unspecified())
    else {
        return; // No other interface: nothing to reach it from.
    };
    assert!(TcpStream::connect_timeout(&(ip, server.port).into(), Duration::from_secs(2)).is_err());
    assert!(TcpStream::connect(("127.0.0.1", server.port)).is_ok());
}

#[test]
fn a_model_with_a_2048_token_window_finds_the_needle_only_where_it_sees_it() {
    use coherency_core::live::needle::{self, grid, Depth, NeedleKind};
    use coherency_core::live::{Ending, LiveSession, RequestForm};
    let server = Server::start(&[]);
    let form = RequestForm {
        base_url: format!("http://127.0.0.1:{}/v1", server.port),
        model: "mock-context-2048".into(),
        ..RequestForm::default()
    };
    let probe =
        needle::plan(&form, &[1024, 2048, 4096, 8192], &Depth::ALL, NeedleKind::Number, 1, true).expect("a plan");
    let answers: Vec<grid::Answer> = probe
        .asks
        .iter()
        .map(|ask| {
            let response = server.chat(&ask.request.body, &[]);
            assert_eq!(response.status, 200);
            let mut session = LiveSession::new(0.0);
            session.feed(&response.body, 1.0);
            session.end(Ending::Closed, 2.0);
            grid::Answer::of(&probe, ask, Ok(&session.snapshot()))
        })
        .collect();
    let states: Vec<&str> = (0..probe.cells.len()).map(|i| needle::cell_shown(&probe, &answers, i).state).collect();
    // The needle is seen when it lies in the prompt's last 2,048 tokens: every depth up to 2k,
    // from 4k on only the end (the middle of 4k lies just beyond the window).
    assert_eq!(
        states,
        [
            "found", "found", "found", "found", "found", "found", "missed", "missed", "found", "missed", "missed",
            "found"
        ]
    );
    for (a, cell) in answers.iter().map(|a| (a, &probe.cells[a.cell])) {
        let expected = cell.estimated_tokens.min(2048) as u64;
        assert_eq!(a.prompt_tokens, Some(expected), "the count is capped at the window, estimated as the page does");
    }
    let summary = needle::summarize(&probe, &answers);
    assert!(
        summary.sentence.starts_with(
            "Found at every depth up to 2k tokens; missed from 4k on, at the start and middle (the server reported \
2,048 prompt tokens for an estimated 4,"
        ),
        "{}",
        summary.sentence
    );
    assert_eq!(
        summary.notes.iter().map(|n| n.kind).collect::<Vec<_>>(),
        ["truncation"],
        "deterministic: no other note"
    );
    // Without a needle question it writes prose, as a coherent model does.
    let prose = server.stream("mock-context-2048", r#","max_tokens":50"#);
    assert_eq!(overall(&prose.transcript()), Some(Verdict::Pass));
}

/// The raw answer to `request` sent as it is on a new connection.
fn raw_exchange(port: u16, request: &[u8]) -> String {
    let mut conn = TcpStream::connect(("127.0.0.1", port)).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    conn.write_all(request).unwrap();
    let mut out = Vec::new();
    let _ = conn.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn an_echoed_origin_cannot_write_a_header_line_of_its_own() {
    let echo = Server::start(&["--cors", "echo"]);
    let request = b"GET /v1/models HTTP/1.1\r\nHost: x\r\nOrigin: http://evil.test\nSet-Cookie: pwned=1\r\n\r\n";
    let answer = raw_exchange(echo.port, request);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let head = &answer[..answer.find("\r\n\r\n").unwrap()];
    assert!(!head.to_ascii_lowercase().contains("set-cookie"), "an injected header line: {head}");
    assert!(!head.contains("Access-Control-Allow-Origin"), "not an origin, not echoed: {head}");
    // A real origin is still echoed.
    let fine = raw_exchange(echo.port, b"GET /v1/models HTTP/1.1\r\nHost: x\r\nOrigin: http://127.0.0.1:8080\r\n\r\n");
    assert!(fine.contains("Access-Control-Allow-Origin: http://127.0.0.1:8080\r\n"), "{fine}");
}

#[test]
fn a_request_trickling_in_is_cut_off_at_its_deadline() {
    let server = Server::start(&["--request-timeout-ms", "800"]);
    let mut conn = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let started = Instant::now();
    // One byte every 150 ms: each read is quick, the whole request never comes.
    for b in b"GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Slow: ".iter().cycle() {
        if conn.write_all(&[*b]).is_err() || started.elapsed() > Duration::from_secs(5) {
            break;
        }
        std::thread::sleep(Duration::from_millis(150));
        let mut peek = [0u8; 1];
        conn.set_nonblocking(true).unwrap();
        let answered = matches!(conn.peek(&mut peek), Ok(n) if n > 0);
        conn.set_nonblocking(false).unwrap();
        if answered {
            break;
        }
    }
    let mut answer = String::new();
    let _ = conn.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(started.elapsed() < Duration::from_secs(3), "cut off after {:?}", started.elapsed());
}

#[test]
fn connections_over_the_bound_are_answered_busy_at_once() {
    let server = Server::start(&["--max-connections", "2", "--request-timeout-ms", "5000"]);
    // Two connections that say nothing hold both places.
    let _idle: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(("127.0.0.1", server.port)).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let third = raw_exchange(server.port, b"GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(third.starts_with("HTTP/1.1 503"), "{third}");
    assert!(started.elapsed() < Duration::from_secs(2));
    drop(_idle);
    // Once they are gone (their reads fail), requests are served again.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let again = raw_exchange(server.port, b"GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
        if again.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "still busy: {again}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_request_log_shows_control_characters_escaped() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_coherency-mock-server"))
        .args(["--port", "0", "--exit-after", "30", "--stdin-lifeline"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port: u16 =
        line.trim().trim_start_matches("listening on http://127.0.0.1:").trim_end_matches("/v1").parse().unwrap();
    // A path with an escape sequence that would set the terminal's title.
    let answer = raw_exchange(port, b"GET /v1/\x1b]0;pwned\x07 HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    drop(child.stdin.take()); // The lifeline: it exits.
    let mut log = String::new();
    child.stderr.take().unwrap().read_to_string(&mut log).unwrap();
    let _ = child.wait();
    assert!(log.contains("GET /v1/\\x1b]0;pwned\\x07 -> 404"), "{log:?}");
    assert!(!log.contains('\x1b'), "a raw escape in the log: {log:?}");
}
