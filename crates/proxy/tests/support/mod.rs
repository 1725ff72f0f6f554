//! What the proxy's black-box tests share: a proxy on its own runtime, a raw HTTP/1.1 client
//! (to see the bytes as sent), scripted upstreams that record what reaches them, and the mock
//! endpoint. Every server listens on 127.0.0.1, port 0, and stops when its handle is dropped.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use coherency_core::analyze::Verdict;
use coherency_proxy::metrics::Metrics;
use coherency_proxy::{Config, Proxy, Upstream};

pub const KEY: &str = "sk-proxy-test-key-4242";

/// A proxy serving on a runtime of its own; dropping it stops it.
pub struct Running {
    pub addr: SocketAddr,
    pub metrics: Arc<Mutex<Metrics>>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(Duration::from_secs(2));
        }
    }
}

impl Running {
    /// Generations counted so far.
    pub fn generations(&self) -> u64 {
        self.metrics.lock().unwrap().generations()
    }

    /// Waits until `n` generations are counted (their log lines are written first).
    pub fn wait_for_generations(&self, n: u64) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.generations() < n {
            assert!(Instant::now() < deadline, "{} of {n} generations counted", self.generations());
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

pub fn proxy(upstream: &str, cut_on: Option<Verdict>, log: Option<PathBuf>) -> Running {
    start_proxy(upstream, None, cut_on, log).unwrap()
}

/// A proxy with `--upstream-ca`; `Err`: it would not start, and why.
pub fn start_proxy(
    upstream: &str,
    upstream_ca: Option<PathBuf>,
    cut_on: Option<Verdict>,
    log: Option<PathBuf>,
) -> Result<Running, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let config = Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        upstream: Upstream::parse(upstream).unwrap(),
        upstream_ca,
        cut_on,
        log,
        log_max_bytes: None,
        quiet: true,
    };
    let proxy = runtime.block_on(Proxy::bind(&config))?;
    let (addr, metrics) = (proxy.local_addr(), proxy.metrics());
    runtime.spawn(proxy.serve());
    Ok(Running { addr, metrics, runtime: Some(runtime) })
}

/// An https server in front of a plain one (TLS ended here, the bytes piped to `backend_port`),
/// with a self-signed certificate for `127.0.0.1` and `localhost`, whose PEM is in `ca_file`.
pub struct TlsFront {
    pub port: u16,
    pub ca_file: PathBuf,
    runtime: Option<tokio::runtime::Runtime>,
}

impl TlsFront {
    pub fn start(backend_port: u16, dir: &Path) -> TlsFront {
        use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
        let certified =
            rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string(), "localhost".to_string()]).unwrap();
        let ca_file = dir.join("upstream-ca.pem");
        std::fs::write(&ca_file, certified.cert.pem()).unwrap();
        let chain = vec![CertificateDer::from(certified.cert.der().to_vec())];
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(certified.key_pair.serialize_der()));
        let config = rustls::ServerConfig::builder_with_provider(coherency_proxy::tls::crypto_provider())
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
        let port = listener.local_addr().unwrap().port();
        runtime.spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                    let Ok(mut backend) = tokio::net::TcpStream::connect(("127.0.0.1", backend_port)).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut backend).await;
                });
            }
        });
        TlsFront { port, ca_file, runtime: Some(runtime) }
    }

    pub fn url(&self) -> String {
        format!("https://127.0.0.1:{}/v1", self.port)
    }
}

impl Drop for TlsFront {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(Duration::from_secs(1));
        }
    }
}

/// The mock endpoint, in process.
pub fn mock() -> coherency_mock_endpoint::Running {
    let config = coherency_mock_endpoint::Config { port: 0, quiet: true, ..Default::default() };
    coherency_mock_endpoint::Server::bind(config).unwrap().spawn()
}

/// A request as bytes: `Connection: close`, the test key, a JSON body when given.
pub fn request(method: &str, path: &str, body: Option<&str>) -> Vec<u8> {
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {KEY}\r\nConnection: close\r\n");
    if let Some(body) = body {
        head += &format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len());
    }
    head += "\r\n";
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.unwrap_or("").as_bytes());
    bytes
}

/// Sends `request` to `addr` and reads the whole reply (to the connection's end).
pub fn exchange(addr: SocketAddr, request: &[u8]) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(request).unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    Reply::parse(&raw)
}

/// A reply as the client saw it.
#[derive(Debug)]
pub struct Reply {
    pub status_line: String,
    /// Header lines as sent (name case kept), in order.
    pub headers: Vec<String>,
    /// The body, chunked transfer decoded.
    pub body: Vec<u8>,
    /// A chunked body ended with its last chunk (a body of known length: all of it came).
    pub complete: bool,
}

impl Reply {
    pub fn parse(raw: &[u8]) -> Reply {
        let end = find(raw, b"\r\n\r\n").expect("a whole response head");
        let head = String::from_utf8_lossy(&raw[..end]).into_owned();
        let mut lines = head.split("\r\n");
        let status_line = lines.next().unwrap().to_string();
        let headers: Vec<String> = lines.map(str::to_string).collect();
        let rest = &raw[end + 4..];
        let header = |name: &str| {
            headers.iter().find_map(|h| {
                let (n, v) = h.split_once(':')?;
                n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
            })
        };
        if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
            let (body, complete) = dechunk(rest);
            return Reply { status_line, headers, body, complete };
        }
        if let Some(len) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
            return Reply {
                status_line,
                headers,
                body: rest[..len.min(rest.len())].to_vec(),
                complete: rest.len() >= len,
            };
        }
        Reply { status_line, headers, body: rest.to_vec(), complete: true }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find_map(|h| {
            let (n, v) = h.split_once(':')?;
            n.eq_ignore_ascii_case(name).then_some(v.trim())
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

fn dechunk(mut rest: &[u8]) -> (Vec<u8>, bool) {
    let mut body = Vec::new();
    loop {
        let Some(eol) = find(rest, b"\r\n") else { return (body, false) };
        let size_text = String::from_utf8_lossy(&rest[..eol]);
        let Ok(size) = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16) else {
            return (body, false);
        };
        rest = &rest[eol + 2..];
        if size == 0 {
            return (body, true);
        }
        if rest.len() < size + 2 {
            body.extend_from_slice(&rest[..size.min(rest.len())]);
            return (body, false);
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The mock's per-request values made equal: `chatcmpl-mock-N` ids and `created` times.
pub fn normalise(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out = String::with_capacity(text.len());
    let mut rest: &str = &text;
    loop {
        let next = [("chatcmpl-mock-", "chatcmpl-mock-N"), ("\"created\":", "\"created\":0")]
            .iter()
            .filter_map(|(pat, with)| rest.find(pat).map(|i| (i, *pat, *with)))
            .min_by_key(|(i, _, _)| *i);
        let Some((i, pat, with)) = next else {
            out += rest;
            return out;
        };
        out += &rest[..i];
        out += with;
        rest = rest[i + pat.len()..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
}

/// One request as a scripted upstream received it.
#[derive(Debug)]
pub struct Received {
    pub head: String,
    pub body: Vec<u8>,
}

/// An upstream that answers each connection with `respond` (after reading its request whole:
/// head and `Content-Length` body) and reports each request, and whether its last write
/// failed (the proxy closed the connection), on the channels.
pub struct Scripted {
    pub port: u16,
    pub requests: Receiver<Received>,
    pub closed: Receiver<Instant>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl Scripted {
    pub fn start(
        respond: impl Fn(&mut TcpStream, &Received) -> std::io::Result<()> + Send + Sync + 'static,
    ) -> Scripted {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let (tx, requests) = channel();
        let (closed_tx, closed) = channel();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let respond = Arc::new(respond);
        let stopping = Arc::clone(&stop);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stopping.load(std::sync::atomic::Ordering::Acquire) {
                    return;
                }
                let Ok(mut conn) = conn else { continue };
                let (tx, closed_tx, respond): (Sender<Received>, Sender<Instant>, _) =
                    (tx.clone(), closed_tx.clone(), Arc::clone(&respond));
                std::thread::spawn(move || {
                    let Some(received) = read_request(&mut conn) else { return };
                    let result = respond(&mut conn, &received);
                    let _ = tx.send(received);
                    if result.is_err() {
                        let _ = closed_tx.send(Instant::now());
                    }
                });
            }
        });
        Scripted { port, requests, closed, stop }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

impl Drop for Scripted {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Release);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn read_request(conn: &mut TcpStream) -> Option<Received> {
    conn.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let end = loop {
        if let Some(end) = find(&raw, b"\r\n\r\n") {
            break end;
        }
        let n = conn.read(&mut buf).ok().filter(|&n| n > 0)?;
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let len = head
        .split("\r\n")
        .find_map(|h| h.split_once(':').filter(|(n, _)| n.eq_ignore_ascii_case("content-length")))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = raw[end + 4..].to_vec();
    while body.len() < len {
        let n = conn.read(&mut buf).ok().filter(|&n| n > 0)?;
        body.extend_from_slice(&buf[..n]);
    }
    Some(Received { head, body })
}

/// Writes one chunk of a chunked body.
pub fn chunk(conn: &mut TcpStream, bytes: &[u8]) -> std::io::Result<()> {
    conn.write_all(format!("{:x}\r\n", bytes.len()).as_bytes())?;
    conn.write_all(bytes)?;
    conn.write_all(b"\r\n")?;
    conn.flush()
}

/// A chat chunk's SSE event with `content`.
pub fn sse_chunk(content: &str) -> String {
    let c = serde_json::json!({"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 7, "model": "scripted",
        "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": null}]});
    format!("data: {c}\n\n")
}

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("coherency-proxy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn read_log(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}
