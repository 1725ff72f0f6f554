//! A blocking one-request client for tests and benches that talk to a server over loopback
//! HTTP: the mock, or `coherency proxy` in front of it (std only, no HTTP crate).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// One blocking POST of `body` to `127.0.0.1:port`'s `/v1/chat/completions`; the response's
/// body, de-chunked. Panics when the server does not answer 200: it is for tests.
pub fn post_chat(port: u16, body: &str) -> Vec<u8> {
    let mut conn = TcpStream::connect(("127.0.0.1", port)).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    conn.write_all(head.as_bytes()).unwrap();
    conn.write_all(body.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = conn.read_to_end(&mut raw);
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head") + 4;
    let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    if !head.contains("transfer-encoding: chunked") {
        return raw[end..].to_vec();
    }
    let (mut rest, mut out) = (&raw[end..], Vec::new());
    loop {
        let eol = rest.windows(2).position(|w| w == b"\r\n").expect("a chunk size");
        let size = usize::from_str_radix(std::str::from_utf8(&rest[..eol]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&rest[eol + 2..eol + 2 + size]);
        rest = &rest[eol + 4 + size..];
    }
}
