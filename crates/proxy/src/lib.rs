//! `coherency proxy`: an HTTP proxy between agents and an OpenAI-compatible server that scores
//! every generation as it passes, with the core's [`LiveSession`](coherency_core::live::LiveSession)
//! (the page's live mode), logs one line per generation in the live-captures format the page
//! and `coherency analyze` read, serves `/metrics` (Prometheus), and with `--cut-on fail` ends a
//! looping stream early and cleanly.
//!
//! ```text
//! coherency proxy --listen 127.0.0.1:8090 --upstream http://127.0.0.1:8080/v1 --cut-on fail --log proxy.jsonl
//! OPENAI_BASE_URL=http://127.0.0.1:8090/v1 your-agent
//! ```
//!
//! Pure parts, tested without sockets: [`upstream`] (where a request goes), [`dialect`] (which
//! requests are generations, in which API: chat, Responses, Anthropic Messages, Ollama),
//! [`request_facts`] (what they ask, their keys), [`event_bounds`] (where SSE events or NDJSON
//! lines end), [`watch`] (one generation: pass, hold, score, cut), [`cut`] (the ending of a cut
//! stream in its API's shape, the tokens saved), [`decode`] (a compressed reply decoded to be
//! scored), [`tls`] (what an https upstream is trusted by), [`tool_calls`] (the tool-call check
//! across turns), [`log_line`], [`metrics`]. I/O: [`server`] (hyper), [`scorers`] (the threads
//! that judge replies in flight), [`log_file`] (the log thread), and [`Proxy::serve_until`] /
//! [`Stopping`] (SIGTERM, Ctrl-C: every reply in flight logged, the log closed).

pub mod cut;
pub mod decode;
pub mod dialect;
pub mod event_bounds;
pub mod log_file;
pub mod log_line;
pub mod metrics;
pub mod request_facts;
pub mod scorers;
pub mod server;
pub mod tls;
pub mod tool_calls;
pub mod upstream;
pub mod watch;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use coherency_core::analyze::Verdict;
use tokio::net::TcpListener;

pub use upstream::Upstream;

/// What `coherency proxy` is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    pub upstream: Upstream,
    /// Cut a stream whose verdict reaches this level (`--cut-on fail`); `None`: never cut.
    pub cut_on: Option<Verdict>,
    /// A PEM file of CA certificates to trust for an https upstream, beside the system's.
    pub upstream_ca: Option<PathBuf>,
    /// The log file (one line per generation), if any.
    pub log: Option<PathBuf>,
    /// Rotate the log when it would pass this many bytes.
    pub log_max_bytes: Option<u64>,
    /// No line per generation on standard error.
    pub quiet: bool,
}

/// A proxy bound to its address, ready to serve.
pub struct Proxy {
    listener: TcpListener,
    shared: Arc<server::Shared>,
    log_thread: Option<JoinHandle<()>>,
}

impl Proxy {
    /// Binds `config.listen`, opens the log and starts its thread (inside a Tokio runtime).
    pub async fn bind(config: &Config) -> Result<Proxy, String> {
        let log = match &config.log {
            Some(path) => Some(
                log_file::LogFile::open(path, config.log_max_bytes)
                    .map_err(|e| format!("{}: the log cannot be opened: {e}", path.display()))?,
            ),
            None => None,
        };
        let listener = TcpListener::bind(config.listen)
            .await
            .map_err(|e| format!("{}: cannot listen there: {e}", config.listen))?;
        let metrics = Arc::new(Mutex::new(metrics::Metrics::default()));
        let (finisher, log_thread) = log_file::Finisher::start(log, Arc::clone(&metrics), config.quiet)
            .map_err(|e| format!("the log's thread could not start: {e}"))?;
        let scorers = scorers::Scorers::start(scorers::Scorers::default_threads())
            .map_err(|e| format!("the scorers' threads could not start: {e}"))?;
        if config.upstream_ca.is_some() && !config.upstream.tls {
            return Err("--upstream-ca is for an https:// upstream".to_string());
        }
        let tls = tls::client_config(config.upstream.tls, config.upstream_ca.as_deref())?;
        let shared =
            Arc::new(server::Shared::new(config.upstream.clone(), tls, config.cut_on, metrics, finisher, scorers));
        Ok(Proxy { listener, shared, log_thread: Some(log_thread) })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// The counters `/metrics` shows.
    pub fn metrics(&self) -> Arc<Mutex<metrics::Metrics>> {
        Arc::clone(&self.shared.metrics)
    }

    /// Serves until the task is dropped (or the process ends).
    pub async fn serve(self) {
        server::serve(self.listener, self.shared).await
    }

    /// Serves until `stop` resolves; then [`Stopping::finish`] (outside the runtime's tasks)
    /// ends the replies in flight and closes the log.
    pub async fn serve_until(mut self, stop: impl std::future::Future<Output = ()>) -> Stopping {
        let stopping = Stopping { shared: Arc::clone(&self.shared), log_thread: self.log_thread.take() };
        tokio::select! {
            () = server::serve(self.listener, self.shared) => {}
            () = stop => {}
        }
        stopping.shared.stopping.store(true, Ordering::Release);
        stopping
    }
}

/// How long a stop waits for the log's thread to write the lines queued, at most.
pub const LOG_FLUSH_WAIT: Duration = Duration::from_secs(30);

/// A proxy that stopped serving: what is left to do once its runtime is shut down.
pub struct Stopping {
    shared: Arc<server::Shared>,
    log_thread: Option<JoinHandle<()>>,
}

impl Stopping {
    /// After the runtime was shut down (dropping every connection: each reply in flight was
    /// ended there and sent to the log as `proxy-stopped`): waits for the log thread to
    /// write every line and close the file (at most [`LOG_FLUSH_WAIT`]); returns the counts
    /// and whether it did.
    pub fn finish(mut self) -> (metrics::Metrics, bool) {
        let metrics = Arc::clone(&self.shared.metrics);
        let thread = self.log_thread.take();
        // The last sender of the log's queue (the connections held the others): its thread
        // writes what is queued, then ends, closing the file.
        drop(self);
        let mut closed = true;
        if let Some(thread) = thread {
            // A log that cannot be written (a stalled disk) does not hold the stop for ever.
            let deadline = std::time::Instant::now() + LOG_FLUSH_WAIT;
            while !thread.is_finished() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if thread.is_finished() {
                let _ = thread.join();
            } else {
                closed = false;
                eprintln!(
                    "coherency proxy: the log was still being written after {} s; stopping without the lines queued",
                    LOG_FLUSH_WAIT.as_secs()
                );
            }
        }
        let m = metrics.lock().unwrap_or_else(|e| e.into_inner()).clone();
        (m, closed)
    }
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C), with the signal's name; never when neither can be
/// listened for.
pub async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = int.recv() => "SIGINT",
        }
    }
    #[cfg(not(unix))]
    {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "Ctrl-C",
            Err(_) => std::future::pending().await,
        }
    }
}

/// Runs the proxy until the process is stopped: `coherency proxy`'s body.
pub fn run(config: &Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("the proxy could not start its runtime: {e}"))?;
    let stopping = runtime.block_on(async {
        let proxy = Proxy::bind(config).await?;
        let cut = match config.cut_on {
            Some(level) => format!("streams that reach {} are cut", level.as_str()),
            None => "nothing is cut".to_string(),
        };
        let log = config.log.as_ref().map_or("no log file".to_string(), |p| format!("log {}", p.display()));
        eprintln!(
            "coherency proxy: listening on {} → {} ({cut}; {log}; metrics at http://{}/metrics)",
            server::listening(proxy.local_addr()),
            config.upstream.base_url(),
            proxy.local_addr()
        );
        let signal = Arc::new(Mutex::new(""));
        let said = Arc::clone(&signal);
        let stopping = proxy
            .serve_until(async move {
                let name = stop_signal().await;
                *said.lock().unwrap_or_else(|e| e.into_inner()) = name;
            })
            .await;
        Ok::<_, String>((stopping, signal))
    });
    let (stopping, signal) = stopping?;
    // Dropping the runtime's tasks ends every connection; each reply in flight is logged.
    runtime.shutdown_timeout(Duration::from_secs(2));
    let (metrics, closed) = stopping.finish();
    let signal = *signal.lock().unwrap_or_else(|e| e.into_inner());
    eprintln!("coherency proxy: stopped by {signal}: {}", metrics.summary());
    if let Some(path) = config.log.as_ref().filter(|_| closed) {
        eprintln!("coherency proxy: log {} written and closed", path.display());
    }
    Ok(())
}
