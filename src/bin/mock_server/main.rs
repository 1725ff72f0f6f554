//! `coherency-mock-server`: a small OpenAI-compatible server for tests and for trying the
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
//! Native only: on wasm32 the binary is an empty `main`.

#[cfg(not(target_arch = "wasm32"))]
mod behaviour;
#[cfg(not(target_arch = "wasm32"))]
mod completion;
#[cfg(not(target_arch = "wasm32"))]
mod config;
#[cfg(not(target_arch = "wasm32"))]
mod cors;
#[cfg(not(target_arch = "wasm32"))]
mod http;
#[cfg(not(target_arch = "wasm32"))]
mod lifeline;
#[cfg(not(target_arch = "wasm32"))]
mod reply;
#[cfg(not(target_arch = "wasm32"))]
mod request;
#[cfg(not(target_arch = "wasm32"))]
mod rng;
#[cfg(not(target_arch = "wasm32"))]
mod routes;
#[cfg(not(target_arch = "wasm32"))]
mod stream;
#[cfg(not(target_arch = "wasm32"))]
mod text;
#[cfg(not(target_arch = "wasm32"))]
mod tools;
#[cfg(not(target_arch = "wasm32"))]
mod wire;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use std::io::Write;
    use std::net::{Ipv4Addr, TcpListener};
    use std::process::ExitCode;
    use std::sync::Arc;
    use std::time::Duration;

    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match config::parse(&args) {
        Ok(config::Command::Serve(c)) => c,
        Ok(config::Command::Help) => {
            println!("{}", config::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(why) => {
            eprintln!("coherency-mock-server: {why}\n(--help lists the options)");
            return ExitCode::from(64);
        }
    };
    // Loopback only: the mock is never reachable from another machine.
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, config.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("coherency-mock-server: cannot listen on 127.0.0.1:{}: {e}", config.port);
            return ExitCode::from(1);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(config.port);
    println!("listening on http://127.0.0.1:{port}/v1");
    let _ = std::io::stdout().flush();
    lifeline::start(config.exit_after, config.stdin_lifeline);
    if !config.quiet {
        let exits = match config.exit_after {
            0 => "runs until stopped".to_string(),
            s => format!("exits after {s} s (--exit-after 0 to keep running)"),
        };
        let auth = if config.api_key.is_some() { "needs the --api-key key" } else { "takes any key" };
        eprintln!("models: mock-coherent, mock-word-loop, mock-line-loop, … (GET /v1/models); {auth}; {exits}");
    }
    let config = Arc::new(config);
    for conn in listener.incoming() {
        let Ok(conn) = conn else { continue };
        let config = Arc::clone(&config);
        std::thread::spawn(move || {
            let _ = conn.set_nodelay(true);
            let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
            let _ = conn.set_write_timeout(Some(Duration::from_secs(60)));
            routes::handle(conn, &config);
        });
    }
    ExitCode::SUCCESS
}

/// The mock is a native program; the wasm build (`clippy --target wasm32-unknown-unknown
/// --all-targets`) compiles this stand-in.
#[cfg(target_arch = "wasm32")]
fn main() {}
