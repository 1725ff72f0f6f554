//! `coherency-mock-endpoint`: a small OpenAI-compatible server for tests and for trying the
//! page's live mode. It listens on 127.0.0.1 only, streams real SSE (chunked, flushed per
//! event) with CORS headers and optional key auth, and answers as a healthy model or as one
//! of the ways models and servers fail — picked by the requested model id
//! (see [`behaviour::Behaviour`]). It exits by itself (`--exit-after`, `--stdin-lifeline`).
//!
//! ```text
//! coherency-mock-server --port 30000        # then point the page at http://127.0.0.1:30000/v1
//! ```
//!
//! Plain `std::net`, a thread per connection, one request per connection: the mock needs
//! byte-level control (flush every event, close a socket mid-body) more than a framework.
//!
//! The binary `coherency-mock-server` parses flags into a [`Config`] and calls [`Server::run`];
//! tests start one in-process with [`Server::spawn`] (stopped when dropped).

mod behaviour;
pub mod client;
mod completion;
mod config;
mod context;
mod cors;
mod http;
mod lifeline;
mod reasoning_field;
mod reply;
mod request;
mod routes;
mod stream;
mod text;
mod token_logprobs;
mod tools;
mod wire;

pub use behaviour::Behaviour;
pub use config::{parse_args, Command, Config, Cors, USAGE};
pub use lifeline::start as start_lifeline;
pub use reasoning_field::ReasoningField;

use std::io::{self, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A bound listener on 127.0.0.1 (loopback only: the mock is never reachable from another
/// machine), ready to serve.
pub struct Server {
    listener: TcpListener,
    config: Arc<Config>,
    port: u16,
}

impl Server {
    /// Binds `127.0.0.1:{config.port}` (port 0 picks a free one).
    pub fn bind(config: Config) -> io::Result<Server> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, config.port))?;
        let port = listener.local_addr()?.port();
        Ok(Server { listener, config: Arc::new(config), port })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The base URL a client is given: `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        base_url(self.port)
    }

    /// Serves connections, a thread each, until the process ends.
    pub fn run(self) {
        self.serve_until(&AtomicBool::new(false));
    }

    /// Serves on a thread of its own until the returned handle is dropped.
    pub fn spawn(self) -> Running {
        let stop = Arc::new(AtomicBool::new(false));
        let port = self.port;
        let thread = std::thread::spawn({
            let stop = Arc::clone(&stop);
            move || self.serve_until(&stop)
        });
        Running { port, stop, thread: Some(thread) }
    }

    fn serve_until(self, stop: &AtomicBool) {
        let open = Arc::new(AtomicUsize::new(0));
        for conn in self.listener.incoming() {
            if stop.load(Ordering::Acquire) {
                return;
            }
            let Ok(mut conn) = conn else { continue };
            // A thread per connection, up to a bound: more get 503 at once and are closed.
            if open.load(Ordering::Acquire) >= self.config.max_connections {
                let _ = conn.set_write_timeout(Some(Duration::from_millis(200)));
                let _ = conn.write_all(BUSY);
                continue;
            }
            open.fetch_add(1, Ordering::AcqRel);
            let (config, open) = (Arc::clone(&self.config), Arc::clone(&open));
            std::thread::spawn(move || {
                let _ = conn.set_nodelay(true);
                let _ = conn.set_write_timeout(Some(Duration::from_secs(60)));
                routes::handle(conn, &config);
                open.fetch_sub(1, Ordering::AcqRel);
            });
        }
    }
}

/// A server serving on its own thread ([`Server::spawn`]); dropping it stops the listener
/// (connections under way finish on their own threads).
pub struct Running {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        base_url(self.port)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The answer to a connection over [`Config::max_connections`](config::Config::max_connections).
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

fn base_url(port: u16) -> String {
    format!("http://127.0.0.1:{port}/v1")
}
