//! The local OpenAI-compatible mock endpoint (`coherency-mock-endpoint`) served in-process for a
//! test: a free loopback port, stopped when dropped (and with the test process in any case).

use coherency_mock_endpoint::{parse_args, Command, Running, Server};

pub struct MockServer {
    running: Running,
    pub port: u16,
}

impl MockServer {
    /// Starts the server with `args` (the `coherency-mock-server` flags) after the defaults
    /// (a free port, no request log).
    pub fn start(args: &[&str]) -> MockServer {
        let flags: Vec<String> = ["--port", "0", "--quiet"].iter().chain(args).map(|a| a.to_string()).collect();
        let config = match parse_args(&flags) {
            Ok(Command::Serve(config)) => config,
            other => panic!("bad mock server flags {args:?}: {:?}", other.err()),
        };
        let running = Server::bind(config).expect("bind the mock server on 127.0.0.1").spawn();
        MockServer { port: running.port(), running }
    }

    /// The base URL a client is given, e.g. `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        self.running.base_url()
    }
}
