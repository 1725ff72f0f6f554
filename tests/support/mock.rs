//! The local OpenAI-compatible mock server (`coherency-mock-server`) started from a test: a free
//! loopback port, exits by itself after 120 s or when the test's end of its stdin closes, and is
//! killed when dropped.
// Each test crate that includes this file uses only part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct MockServer {
    child: Child,
    pub port: u16,
}

impl MockServer {
    /// Starts the server with `args` after the defaults (port 0, exit after 120 s, stdin lifeline).
    pub fn start(args: &[&str]) -> MockServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_coherency-mock-server"))
            .args(["--port", "0", "--exit-after", "120", "--stdin-lifeline", "--quiet"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start coherency-mock-server");
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let port = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix("/v1"))
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("unexpected first line from the mock server: {line:?}"));
        MockServer { child, port }
    }

    /// The base URL a client is given, e.g. `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
