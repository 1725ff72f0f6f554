//! The proxy under load, on loopback: 100 concurrent streams, bounded in count and time.
//!
//! 1. Against the mock endpoint (`mock-coherent`, 2 ms between chunks), through a proxy with
//!    `--cut-on fail` (every event held to its end and every stream scored): each stream's body
//!    through the proxy equals the same request's body straight from the mock (ids and times
//!    aside) — nothing lost, reordered or cut — and the proxy's CPU (its runtime's threads and
//!    its log thread, from `/proc/self/task/*/schedstat`) per 1,000 completion tokens.
//! 2. Added latency per chunk, end to end: an upstream that notes when it writes each event
//!    (5 ms apart), read by clients that note when each arrives; 100 streams straight to it,
//!    then 100 through the proxy: p50 and p99 of (arrival − write), and their differences.
//!
//! `cargo bench -p coherency-proxy --bench load` (Linux: the CPU figure reads /proc).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use coherency_core::analyze::Verdict;
use coherency_proxy::{Config, Proxy, Upstream};

const STREAMS: usize = 100;
const EVENTS: usize = 300;
const EVENT_GAP: Duration = Duration::from_millis(5);
const CHAT: &str = "/v1/chat/completions";

fn main() {
    let prose = coherency_core::samples::PROSE;
    for kb in [2usize, 8, 32] {
        let text: String = prose.chars().cycle().take(kb * 1024).collect();
        let t = Instant::now();
        let rounds = 20;
        for _ in 0..rounds {
            std::hint::black_box(coherency_core::analyze::analyze(&text));
        }
        println!("  a full report of {kb} KB of prose: {:.3} ms", t.elapsed().as_secs_f64() * 1000.0 / rounds as f64);
    }
    let mock = coherency_mock_endpoint::Server::bind(coherency_mock_endpoint::Config {
        port: 0,
        quiet: true,
        max_connections: 4 * STREAMS,
        ..Default::default()
    })
    .expect("the mock binds")
    .spawn();
    let mock_addr: SocketAddr = format!("127.0.0.1:{}", mock.port()).parse().unwrap();
    let (proxy_addr, runtime) = start_proxy(&mock.base_url(), Some(Verdict::Fail));

    // 1. The mock, straight and through the proxy.
    let bodies: Vec<String> = (0..STREAMS)
        .map(|i| {
            format!(
                "{{\"model\":\"mock-coherent\",\"stream\":true,\"max_tokens\":600,\"seed\":{i},\"stream_options\":{{\"include_usage\":true}},\"messages\":[{{\"role\":\"user\",\"content\":\"Tell me about page reclaim, part {i}.\"}}]}}"
            )
        })
        .collect();
    let direct = run_all(mock_addr, CHAT, &bodies);
    let cpu_before = proxy_cpu_ns();
    let started = Instant::now();
    let proxied = run_all(proxy_addr, CHAT, &bodies);
    let wall = started.elapsed();
    let cpu = proxy_cpu_ns() - cpu_before;
    let mut tokens = 0u64;
    let mut same = 0;
    for (i, (d, p)) in direct.iter().zip(&proxied).enumerate() {
        let (d, p) = (normalise(&d.body), normalise(&p.body));
        if d == p {
            same += 1;
        } else {
            eprintln!("stream {i}: the body through the proxy differs ({} bytes, {} straight)", p.len(), d.len());
        }
        tokens += completion_tokens(&p);
    }
    println!("proxy load bench — {STREAMS} concurrent streams on loopback (mock-coherent, --cut-on fail)");
    println!(
        "  bodies identical to the mock's own: {same} of {STREAMS} (nothing lost, reordered or cut); {} bytes, {tokens} completion tokens in {:.2} s",
        proxied.iter().map(|r| r.body.len()).sum::<usize>(),
        wall.as_secs_f64()
    );
    println!(
        "  proxy CPU: {:.1} ms in all = {:.2} ms per 1,000 tokens (its runtime's 2 threads, its scorer and log threads)",
        cpu as f64 / 1e6,
        cpu as f64 / 1e6 / (tokens.max(1) as f64 / 1000.0)
    );
    drop(runtime);

    // 2. Latency per chunk, end to end: scoring only, then with the cut policy.
    let stamps = Stamps::start();
    let straight = latencies(stamps.addr, &stamps, CHAT);
    let (s50, s99) = (percentile(&straight, 50.0), percentile(&straight, 99.0));
    println!("  per chunk, write → arrival, straight ({} chunks): p50 {s50:.3} ms, p99 {s99:.3} ms", straight.len());
    let modes = [
        ("passed only (a path that is not a generation's)", "/v1/events", None),
        ("scoring only", CHAT, None),
        ("--cut-on fail", CHAT, Some(Verdict::Fail)),
    ];
    for (what, path, cut_on) in modes {
        let (proxy_addr, runtime) = start_proxy(&format!("http://{}/v1", stamps.addr), cut_on);
        let cpu_before = proxy_cpu_ns();
        let through = latencies(proxy_addr, &stamps, path);
        let cpu = proxy_cpu_ns() - cpu_before;
        let (t50, t99) = (percentile(&through, 50.0), percentile(&through, 99.0));
        println!(
            "  through the proxy, {what} ({} chunks): p50 {t50:.3} ms, p99 {t99:.3} ms — added p50 {:.3} ms, p99 {:.3} ms; proxy CPU {:.2} ms per 1,000 chunks",
            through.len(),
            t50 - s50,
            t99 - s99,
            cpu as f64 / 1e6 / (through.len().max(1) as f64 / 1000.0)
        );
        assert_eq!(through.len(), STREAMS * EVENTS, "a chunk was lost through the proxy");
        drop(runtime);
    }
    assert_eq!(same, STREAMS, "a stream through the proxy differs from the mock's");
}

/// A proxy in cut mode on a runtime of 2 threads named `proxy-rt` (the machine's cores).
fn start_proxy(upstream: &str, cut_on: Option<Verdict>) -> (SocketAddr, tokio::runtime::Runtime) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("proxy-rt")
        .enable_all()
        .build()
        .unwrap();
    let config = Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        upstream: Upstream::parse(upstream).unwrap(),
        upstream_ca: None,
        cut_on,
        log: None,
        log_max_bytes: None,
        quiet: true,
    };
    let proxy = runtime.block_on(Proxy::bind(&config)).unwrap();
    let addr = proxy.local_addr();
    runtime.spawn(proxy.serve());
    (addr, runtime)
}

/// CPU time of the proxy's threads so far, in ns (Linux; 0 elsewhere).
fn proxy_cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    let mut total = 0;
    for task in tasks.flatten() {
        let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if name.starts_with("proxy-") {
            let stat = std::fs::read_to_string(task.path().join("schedstat")).unwrap_or_default();
            total += stat.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
        }
    }
    total
}

/// A reply as read: the body (chunked transfer decoded) and when each piece of it arrived.
struct Received {
    body: Vec<u8>,
    /// (arrival, body length after it), one per read.
    arrivals: Vec<(Instant, usize)>,
}

fn run_all(addr: SocketAddr, path: &str, bodies: &[String]) -> Vec<Received> {
    let threads: Vec<_> = bodies
        .iter()
        .map(|body| {
            let (body, path) = (body.clone(), path.to_string());
            std::thread::spawn(move || post(addr, &path, &body))
        })
        .collect();
    threads.into_iter().map(|t| t.join().expect("a client thread")).collect()
}

fn post(addr: SocketAddr, path: &str, body: &str) -> Received {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk-bench\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let mut dechunk = Dechunk::default();
    let mut arrivals = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let now = Instant::now();
        if dechunk.head_done {
            dechunk.feed(&buf[..n]);
        } else {
            raw.extend_from_slice(&buf[..n]);
            if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                dechunk.head_done = true;
                let rest = raw.split_off(end + 4);
                dechunk.feed(&rest);
            }
        }
        arrivals.push((now, dechunk.body.len()));
    }
    Received { body: dechunk.body, arrivals }
}

/// An incremental decoder of a chunked body.
#[derive(Default)]
struct Dechunk {
    head_done: bool,
    pending: Vec<u8>,
    state: Chunked,
    body: Vec<u8>,
}

#[derive(Default)]
enum Chunked {
    /// Reading a chunk's size line.
    #[default]
    Size,
    /// Bytes of the chunk's data still to come.
    Data(usize),
    /// Bytes of the CRLF after a chunk's data still to come.
    Crlf(usize),
    Done,
}

impl Dechunk {
    fn feed(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
        loop {
            match self.state {
                Chunked::Size => {
                    let Some(eol) = self.pending.windows(2).position(|w| w == b"\r\n") else { return };
                    let size =
                        usize::from_str_radix(String::from_utf8_lossy(&self.pending[..eol]).trim(), 16).unwrap_or(0);
                    self.pending.drain(..eol + 2);
                    self.state = if size == 0 { Chunked::Done } else { Chunked::Data(size) };
                }
                Chunked::Data(left) => {
                    let take = left.min(self.pending.len());
                    self.body.extend(self.pending.drain(..take));
                    if take < left {
                        self.state = Chunked::Data(left - take);
                        return;
                    }
                    self.state = Chunked::Crlf(2);
                }
                Chunked::Crlf(left) => {
                    let take = left.min(self.pending.len());
                    self.pending.drain(..take);
                    if take < left {
                        self.state = Chunked::Crlf(left - take);
                        return;
                    }
                    self.state = Chunked::Size;
                }
                Chunked::Done => return,
            }
        }
    }
}

fn normalise(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut out = String::with_capacity(text.len());
    for piece in text.split("chatcmpl-mock-") {
        if out.is_empty() && !text.starts_with("chatcmpl-mock-") {
            out += piece;
            continue;
        }
        out += "chatcmpl-mock-N";
        out += piece.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let mut result = String::with_capacity(out.len());
    for (i, piece) in out.split("\"created\":").enumerate() {
        if i > 0 {
            result += "\"created\":0";
            result += piece.trim_start_matches(|c: char| c.is_ascii_digit());
        } else {
            result += piece;
        }
    }
    result
}

/// The stream's `usage.completion_tokens`.
fn completion_tokens(body: &str) -> u64 {
    let Some(at) = body.rfind("\"completion_tokens\":") else { return 0 };
    body[at + "\"completion_tokens\":".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or(0)
}

/// An upstream that streams `EVENTS` chat chunks per request, each holding a marker
/// `«stream/event»`, and notes when it wrote each one.
struct Stamps {
    addr: SocketAddr,
    /// (stream, event) → when it was written; filled by the server threads.
    written: Arc<Mutex<Vec<Vec<Option<Instant>>>>>,
}

impl Stamps {
    fn start() -> Stamps {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let written = Arc::new(Mutex::new(vec![vec![None; EVENTS]; STREAMS]));
        let w = Arc::clone(&written);
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let w = Arc::clone(&w);
                std::thread::spawn(move || stamp_stream(conn, &w));
            }
        });
        Stamps { addr, written }
    }
}

fn stamp_stream(mut conn: TcpStream, written: &Mutex<Vec<Vec<Option<Instant>>>>) {
    let _ = conn.set_nodelay(true);
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    let stream = loop {
        let Ok(n) = conn.read(&mut buf) else { return };
        if n == 0 {
            return;
        }
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw);
        if let Some(at) = text.find("\"stream_no\":") {
            let digits: String = text[at + 12..].chars().take_while(char::is_ascii_digit).collect();
            if text[at + 12 + digits.len()..].contains('}') {
                break digits.parse::<usize>().unwrap_or(0);
            }
        }
    };
    let _ = conn.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
    let words: Vec<&str> = coherency_core::samples::PROSE.split_whitespace().collect();
    for event in 0..EVENTS {
        std::thread::sleep(EVENT_GAP);
        let word = words[(stream * 7 + event) % words.len()];
        let data = format!(
            "data: {{\"id\":\"s\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"stamps\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"«{stream}/{event}» {word} \"}}}}]}}\n\n"
        );
        let chunk = format!("{:x}\r\n{data}\r\n", data.len());
        let now = Instant::now();
        if conn.write_all(chunk.as_bytes()).is_err() {
            return;
        }
        written.lock().unwrap()[stream][event] = Some(now);
    }
    let _ = conn.write_all(b"e\r\ndata: [DONE]\n\n\r\n0\r\n\r\n");
}

/// Every chunk's write → arrival time in ms, over `STREAMS` concurrent streams from `addr`.
fn latencies(addr: SocketAddr, stamps: &Stamps, path: &str) -> Vec<f64> {
    let bodies: Vec<String> = (0..STREAMS)
        .map(|i| format!("{{\"model\":\"stamps\",\"stream\":true,\"stream_no\":{i},\"messages\":[]}}"))
        .collect();
    let reads = run_all(addr, path, &bodies);
    let written = stamps.written.lock().unwrap();
    let mut out = Vec::new();
    for (stream, read) in reads.iter().enumerate() {
        let text = String::from_utf8_lossy(&read.body);
        let mut from = 0;
        for event in 0..EVENTS {
            let marker = format!("«{stream}/{event}»");
            let Some(at) = text[from..].find(&marker).map(|i| i + from) else { break };
            let end = at + marker.len();
            from = end;
            let arrived = read.arrivals.iter().find(|(_, len)| *len >= end).map(|(t, _)| *t);
            if let (Some(arrived), Some(sent)) = (arrived, written[stream][event]) {
                out.push(arrived.saturating_duration_since(sent).as_secs_f64() * 1000.0);
            }
        }
    }
    out
}

/// Nearest-rank percentile.
fn percentile(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * v.len() as f64).ceil().max(1.0) as usize;
    v[rank - 1]
}
