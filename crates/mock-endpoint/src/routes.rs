//! One connection: read the request, then answer it — preflight, key check, `/v1/models`,
//! `/v1/chat/completions` (streamed or not), or an OpenAI-style error.

use crate::behaviour::Behaviour;
use crate::completion;
use crate::config::{Config, Cors};
use crate::cors;
use crate::http::{self, ChunkedBody, Headers, ReadError, Request};
use crate::reply::{self, Ending};
use crate::request;
use crate::stream::{self, Stream};
use coherency_core::render::terminal::safe_value;
use serde_json::{json, Value};
use std::io::{self, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Serves one connection (one request) and logs it unless quiet (its method and path with
/// control characters escaped: a request cannot write to the terminal the log is on).
pub fn handle(mut conn: TcpStream, config: &Config) {
    let req = match http::read_request(&mut conn, Duration::from_millis(config.request_timeout_ms)) {
        Ok(r) => r,
        Err(ReadError::Bad(why)) => {
            let _ = error(&mut conn, config, None, 400, &why, "invalid_request_error", Value::Null);
            return;
        }
        Err(ReadError::TooSlow) => {
            let why = format!("the request did not arrive within {} ms", config.request_timeout_ms);
            let _ = error(&mut conn, config, None, 408, &why, "invalid_request_error", Value::Null);
            return;
        }
        Err(ReadError::Io | ReadError::Closed) => return,
    };
    let outcome = route(&mut conn, config, &req);
    if !config.quiet {
        let status = match &outcome {
            Ok(s) => s.to_string(),
            Err(e) => format!("connection error: {e}"),
        };
        let _ = writeln!(io::stderr(), "{}", log_line(&req, &status));
    }
}

/// The log's line for `req`, answered with `status`.
fn log_line(req: &Request, status: &str) -> String {
    format!("{} {} -> {}", safe_value(&req.method), safe_value(&req.path), safe_value(status))
}

/// Answers `req`; returns what was answered, for the log.
fn route(conn: &mut TcpStream, config: &Config, req: &Request) -> io::Result<String> {
    let origin = req.header("origin");
    if req.method == "OPTIONS" {
        if config.cors == Cors::None {
            let h = vec![("Allow", "GET, POST".to_string())];
            http::respond(conn, 405, &h, b"")?;
            return Ok("405 (no CORS)".into());
        }
        http::respond(conn, 204, &cors::preflight(config.cors, origin), b"")?;
        return Ok("204 preflight".into());
    }
    if config.behaviour == Behaviour::Unauthorized {
        return unauthorized(conn, config, origin, "this server rejects every key (behaviour `unauthorized`)");
    }
    if let Some(key) = &config.api_key {
        let sent = req.header("authorization").and_then(bearer);
        match sent {
            None => return unauthorized(conn, config, origin, "Missing API key: send `Authorization: Bearer KEY`."),
            Some(k) if k != key => return unauthorized(conn, config, origin, "Incorrect API key provided."),
            Some(_) => {}
        }
    }
    // A server that moved: everything under /moved/ answers 307 to the same path without it.
    if let Some(rest) = req.path.strip_prefix("/moved/") {
        let mut h = cors::headers(config.cors, origin);
        h.push(("Location", format!("/{rest}")));
        http::respond(conn, 307, &h, b"")?;
        return Ok("307 moved".into());
    }
    match (req.method.as_str(), req.path.trim_end_matches('/')) {
        ("GET", "/v1/models") => {
            let body = models(config);
            http::respond(conn, 200, &json_headers(config.cors, origin), body.to_string().as_bytes())?;
            Ok("200 models".into())
        }
        ("POST", "/v1/chat/completions") => chat(conn, config, req, origin),
        (_, "/v1/models" | "/v1/chat/completions") => {
            error(conn, config, origin, 405, "method not allowed", "invalid_request_error", Value::Null)?;
            Ok("405".into())
        }
        (_, path) => {
            let message = format!("no route {path}: this server has /v1/models and /v1/chat/completions");
            error(conn, config, origin, 404, &message, "not_found_error", Value::Null)?;
            Ok("404".into())
        }
    }
}

/// The key of an `Authorization: Bearer KEY` header (the scheme in any case).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, key) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(key.trim())
}

fn models(config: &Config) -> Value {
    let data: Vec<Value> = Behaviour::ALL
        .iter()
        .map(|b| json!({"id": listed_id(config, *b), "object": "model", "created": 1_790_000_000, "owned_by": "coherency-mock"}))
        .collect();
    json!({"object": "list", "data": data})
}

/// A behaviour's id in `/v1/models`: `mock-NAME`, or a file path with `--path-ids`.
fn listed_id(config: &Config, b: Behaviour) -> String {
    if config.path_ids {
        format!("/models/{}.gguf", b.model_id())
    } else {
        b.model_id()
    }
}

fn chat(conn: &mut TcpStream, config: &Config, req: &Request, origin: Option<&str>) -> io::Result<String> {
    let chat = match request::parse(&req.body) {
        Ok(c) => c,
        Err(why) => {
            error(conn, config, origin, 400, &why, "invalid_request_error", Value::Null)?;
            return Ok("400".into());
        }
    };
    let behaviour = chat.model.as_deref().and_then(Behaviour::from_model).unwrap_or(config.behaviour);
    if behaviour == Behaviour::Unauthorized {
        return unauthorized(conn, config, origin, "this model rejects every key (behaviour `unauthorized`)");
    }
    if behaviour == Behaviour::HugeError {
        let message = format!("a 5 MiB error body: {}", "x".repeat(5 << 20));
        error(conn, config, origin, 500, &message, "server_error", json!(500))?;
        return Ok("500 huge-error".into());
    }
    let model = chat.model.clone().unwrap_or_else(|| listed_id(config, config.behaviour));
    let reply = reply::plan(behaviour, &chat);
    let reasoning_field = behaviour.reasoning_field().unwrap_or(config.reasoning_field);
    let id = format!("chatcmpl-mock-{}", NEXT_ID.fetch_add(1, Ordering::Relaxed));
    let created = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let cors_mode = if behaviour == Behaviour::NoCors { Cors::None } else { config.cors };
    let what = format!("model={model} behaviour={} stream={}", behaviour.name(), chat.stream);
    if !chat.stream {
        let body = completion::body(&reply, &id, created, &model, reasoning_field);
        let headers = json_headers(cors_mode, origin);
        return match &reply.ending {
            Ending::Clean => {
                std::thread::sleep(Duration::from_millis(config.delay_ms.max(behaviour.min_delay_ms())));
                http::respond(conn, 200, &headers, body.as_bytes())?;
                Ok(format!("200 {what}"))
            }
            Ending::Error(message) => {
                error(conn, config, origin, 500, message, "server_error", json!(500))?;
                Ok(format!("500 {what}"))
            }
            Ending::Cut => {
                http::respond_cut(conn, 200, &headers, body.as_bytes(), body.len() / 2)?;
                Ok(format!("200 cut {what}"))
            }
        };
    }
    let mut headers = cors::headers(cors_mode, origin);
    headers.push(("Content-Type", "text/event-stream; charset=utf-8".into()));
    headers.push(("Cache-Control", "no-cache".into()));
    let mut body = ChunkedBody::start(conn, 200, &headers)?;
    let s = Stream {
        id: &id,
        created,
        model: &model,
        reasoning_field,
        include_usage: chat.include_usage,
        delay: Duration::from_millis(config.delay_ms.max(behaviour.min_delay_ms())),
        keep_alive: behaviour == Behaviour::Slow,
    };
    if stream::send_reply(&s, &reply, |bytes| body.send(bytes))? {
        body.cut()?;
        return Ok(format!("200 cut mid-stream {what}"));
    }
    body.finish()?;
    Ok(format!("200 {what}"))
}

fn json_headers(cors_mode: Cors, origin: Option<&str>) -> Headers {
    let mut h = cors::headers(cors_mode, origin);
    h.push(("Content-Type", "application/json".into()));
    h
}

fn unauthorized(conn: &mut TcpStream, config: &Config, origin: Option<&str>, message: &str) -> io::Result<String> {
    error(conn, config, origin, 401, message, "invalid_request_error", json!("invalid_api_key"))?;
    Ok("401".into())
}

/// An OpenAI-style error body, with CORS headers so a page can read it.
fn error(
    conn: &mut TcpStream,
    config: &Config,
    origin: Option<&str>,
    status: u16,
    message: &str,
    kind: &str,
    code: Value,
) -> io::Result<()> {
    let body = json!({"error": {"message": message, "type": kind, "param": null, "code": code}});
    let mut headers = json_headers(config.cors, origin);
    if status == 401 {
        headers.push(("WWW-Authenticate", "Bearer".into()));
    }
    http::respond(conn, status, &headers, body.to_string().as_bytes())
}
