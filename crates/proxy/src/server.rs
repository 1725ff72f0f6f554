//! The proxy's I/O, kept thin: hyper 1's HTTP/1 server takes the clients' requests, hyper-util's
//! client sends them upstream, and the replies flow back through bodies that only move bytes
//! between the two and the pure [`Watch`]. Backpressure is hyper's: a reply is read from the
//! upstream only as fast as the client takes it, so a slow client holds one read (and, in cut
//! mode, at most [`crate::watch::MAX_HELD`]) in memory, never its whole reply.
//!
//! What passes untouched: the method, the path and query (mapped by [`Upstream::target`]),
//! every request header but `Host`, the request body as received (streamed; a generation's
//! first [`MAX_FACTS_BODY`] bytes are also read on the side), the status, every response
//! header (but `content-length` of a stream that may be cut) and the body. When the
//! upstream fails mid-body the client's connection is ended the same way (no clean end);
//! when it cannot be reached the client gets `502 Bad Gateway` saying so.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use coherency_core::analyze::Verdict;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper::header::{HeaderValue, ACCEPT_ENCODING, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use std::future::Future;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::dialect::Dialect;
use crate::log_file::{Finisher, Job};
use crate::log_line::Asked;
use crate::metrics::Metrics;
use crate::request_facts::{keys_in, RequestFacts, MAX_FACTS_BODY};
use crate::scorers::Scorers;
use crate::upstream::Upstream;
use crate::watch::{Checked, End, Shape, Step, Watch};

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
pub type ProxyBody = BoxBody<Bytes, BoxError>;

/// A request's head must arrive within this (a client that never finishes it is dropped).
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// What every connection shares.
pub struct Shared {
    pub upstream: Upstream,
    pub cut_on: Option<Verdict>,
    pub metrics: Arc<Mutex<Metrics>>,
    pub finisher: Finisher,
    scorers: Scorers,
    client: Client<HttpsConnector<HttpConnector>, ProxyBody>,
    next_index: AtomicUsize,
    /// The proxy is stopping: a reply dropped now was ended by the stop, not by its client.
    pub stopping: AtomicBool,
}

impl Shared {
    pub fn new(
        upstream: Upstream,
        tls: rustls::ClientConfig,
        cut_on: Option<Verdict>,
        metrics: Arc<Mutex<Metrics>>,
        finisher: Finisher,
        scorers: Scorers,
    ) -> Shared {
        let mut http = HttpConnector::new();
        http.set_nodelay(true);
        http.enforce_http(false);
        let connector =
            HttpsConnectorBuilder::new().with_tls_config(tls).https_or_http().enable_http1().wrap_connector(http);
        // Header names go upstream in the case the client wrote them (hyper keeps it in the
        // request's extensions), and come back in the upstream's.
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .http1_preserve_header_case(true)
            .build(connector);
        Shared {
            upstream,
            cut_on,
            metrics,
            finisher,
            scorers,
            client,
            next_index: AtomicUsize::new(0),
            stopping: AtomicBool::new(false),
        }
    }

    fn metrics(&self) -> std::sync::MutexGuard<'_, Metrics> {
        self.metrics.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Serves connections from `listener` until the task is dropped.
pub async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors and the like: wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let service = service_fn(move |req| handle(Arc::clone(&shared), req));
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                // The reply's headers as the upstream sent them: their names' case, no `Date` added.
                .preserve_header_case(true)
                .auto_date_header(false)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The address a listener is bound to, for messages.
pub fn listening(addr: SocketAddr) -> String {
    format!("http://{addr}/v1")
}

fn full(status: StatusCode, content_type: &'static str, text: String) -> Response<ProxyBody> {
    let mut r = Response::new(Full::new(Bytes::from(text)).map_err(|e| match e {}).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

async fn handle(shared: Arc<Shared>, req: Request<Incoming>) -> Result<Response<ProxyBody>, Infallible> {
    let (parts, body) = req.into_parts();
    if parts.method == Method::GET && parts.uri.path() == "/metrics" {
        let text = shared.metrics().render();
        return Ok(full(StatusCode::OK, "text/plain; version=0.0.4; charset=utf-8", text));
    }
    let path_and_query = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let target = shared.upstream.target(path_and_query);
    let Ok(uri) = target.parse::<Uri>() else {
        return Ok(full(
            StatusCode::BAD_REQUEST,
            "text/plain; charset=utf-8",
            "coherency proxy: this path cannot be forwarded\n".into(),
        ));
    };
    let path = parts.uri.path().to_string();
    let dialect = Dialect::of(parts.method.as_str(), &path);
    let generation = dialect.is_some();
    let facts_slot = Arc::new(Mutex::new(None));
    let keys = if generation {
        keys_in(parts.headers.iter().map(|(name, value)| (name.as_str(), value.as_bytes())))
    } else {
        Vec::new()
    };
    let body: ProxyBody = if generation {
        TeeBody { inner: body, kept: Vec::new(), over: false, slot: Arc::clone(&facts_slot) }.boxed()
    } else {
        body.map_err(BoxError::from).boxed()
    };
    let mut up = Request::new(body);
    *up.method_mut() = parts.method;
    *up.uri_mut() = uri;
    *up.headers_mut() = parts.headers;
    *up.extensions_mut() = parts.extensions;
    up.headers_mut().remove(HOST);
    if generation {
        // A generation is asked for uncompressed, so that it can be scored and cut as it
        // streams (the one request header the proxy changes; identity is always acceptable
        // to a client, RFC 9110 §12.5.3).
        up.headers_mut().insert(ACCEPT_ENCODING, HeaderValue::from_static("identity"));
    }

    let index = generation.then(|| shared.next_index.fetch_add(1, Ordering::Relaxed));
    let unix_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    let started = Instant::now();
    let upstream_url = target.split('?').next().unwrap_or_default().to_string();
    // A generation whose upstream has not answered when the proxy stops still gets its line.
    let mut waiting = index.map(|index| Waiting {
        shared: Arc::clone(&shared),
        asked: Some(Asked { index, unix_ms, path: path.clone(), upstream_url: upstream_url.clone(), status: 0 }),
        started,
    });
    let response = shared.client.request(up).await;
    if let Some(w) = waiting.as_mut() {
        w.asked = None;
    }
    shared.metrics().requests += 1;
    let response = match response {
        Ok(r) => r,
        Err(e) => {
            shared.metrics().upstream_unreachable += 1;
            let why = format!("the upstream {} did not answer: {}", shared.upstream.base_url(), error_chain(&e));
            if let Some(index) = index {
                // A generation that never reached the server is a log line too.
                let unanswered = Watch::new(0.0, Shape::Unscored(why.clone()), RequestFacts::default(), None);
                let finished = unanswered.finish(End::Closed, ms_since(started));
                let asked = Asked { index, unix_ms, path, upstream_url, status: StatusCode::BAD_GATEWAY.as_u16() };
                shared.finisher.send(Job { finished, asked, keys: Vec::new(), history: None });
            }
            return Ok(full(StatusCode::BAD_GATEWAY, "text/plain; charset=utf-8", format!("coherency proxy: {why}\n")));
        }
    };
    let (Some(index), Some(dialect)) = (index, dialect) else {
        return Ok(response.map(|b| b.map_err(BoxError::from).boxed()));
    };
    let (mut parts, body) = response.into_parts();
    let header = |name| parts.headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok());
    let shape = Shape::of(dialect, parts.status.as_u16(), header(CONTENT_TYPE), header(CONTENT_ENCODING));
    let (request, history) = facts_slot.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
    let mut watch = Watch::of(dialect, 0.0, shape, request, shared.cut_on);
    watch.decode(header(CONTENT_ENCODING));
    watch.headers(ms_since(started));
    if watch.may_cut() {
        parts.headers.remove(CONTENT_LENGTH);
    }
    let asked = Asked { index, unix_ms, path, upstream_url, status: parts.status.as_u16() };
    shared.metrics().in_flight += 1;
    let body = WatchedBody {
        upstream: Some(body),
        watch: Some(watch),
        check: None,
        failed: None,
        started,
        shared,
        asked: Some(asked),
        keys,
        history,
    };
    Ok(Response::from_parts(parts, body.boxed()))
}

/// A generation sent upstream and not yet answered: dropped before the answer (the proxy
/// stopping, or the client going away), it is logged as such.
struct Waiting {
    shared: Arc<Shared>,
    /// `None` once answered.
    asked: Option<Asked>,
    started: Instant,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let Some(asked) = self.asked.take() else { return };
        let (why, end) = if self.shared.stopping.load(Ordering::Acquire) {
            ("the proxy was stopped before the upstream answered", End::Stopped)
        } else {
            ("the client went away before the upstream answered", End::ClientGone)
        };
        let unanswered = Watch::new(0.0, Shape::Unscored(why.to_string()), RequestFacts::default(), None);
        let finished = unanswered.finish(end, ms_since(self.started));
        self.shared.finisher.send(Job { finished, asked, keys: Vec::new(), history: None });
    }
}

/// An error and its sources, in one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text += &format!(": {s}");
        source = s.source();
    }
    text
}

fn ms_since(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1000.0
}

/// What a request's body asks, and the body itself when it carries tool calls or results.
type ReadRequest = (RequestFacts, Option<Vec<u8>>);

/// A generation's request body on its way upstream, as received; its first
/// [`MAX_FACTS_BODY`] bytes are kept and read when it ends.
struct TeeBody {
    inner: Incoming,
    kept: Vec<u8>,
    over: bool,
    /// What the body asks, and the body itself when it carries tool calls or results.
    slot: Arc<Mutex<Option<ReadRequest>>>,
}

impl TeeBody {
    /// The body has ended: what it asks, read once.
    fn read_facts(&mut self) {
        if !self.over && !self.kept.is_empty() {
            let facts = RequestFacts::read(&self.kept);
            let history = facts.tool_history.then(|| std::mem::take(&mut self.kept));
            *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = Some((facts, history));
        }
        self.kept = Vec::new();
        self.over = true;
    }
}

impl Body for TeeBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    let room = MAX_FACTS_BODY.saturating_sub(this.kept.len());
                    this.kept.extend_from_slice(&data[..data.len().min(room)]);
                    this.over |= data.len() > room;
                }
                // A body of known length is not polled past its last byte.
                if this.inner.is_end_stream() {
                    this.read_facts();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(None) => {
                this.read_facts();
                Poll::Ready(None)
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(e.into()))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A generation's reply on its way to the client, through its [`Watch`].
struct WatchedBody {
    /// `None` once it ended (or was cut: dropping it closes the upstream connection).
    upstream: Option<Incoming>,
    watch: Option<Watch>,
    /// The answer of a check out with the scorers.
    check: Option<oneshot::Receiver<Checked>>,
    /// An upstream failure to pass on after the bytes held before it.
    failed: Option<BoxError>,
    started: Instant,
    shared: Arc<Shared>,
    asked: Option<Asked>,
    keys: Vec<String>,
    /// The request's body, when it carries tool calls or results.
    history: Option<Vec<u8>>,
}

impl WatchedBody {
    fn finish(&mut self, end: End) {
        // While the proxy stops, its runtime drops the connections in no set order: an upstream
        // connection dropped first fails this body's read. The stop ended it.
        let stopping = self.shared.stopping.load(Ordering::Acquire);
        let end = match end {
            End::UpstreamFailed(_) | End::ClientGone if stopping => End::Stopped,
            end => end,
        };
        if let (Some(watch), Some(asked)) = (self.watch.take(), self.asked.take()) {
            let finished = watch.finish(end, ms_since(self.started));
            {
                let mut metrics = self.shared.metrics();
                metrics.in_flight = metrics.in_flight.saturating_sub(1);
            }
            let (keys, history) = (std::mem::take(&mut self.keys), self.history.take());
            self.shared.finisher.send(Job { finished, asked, keys, history });
        }
    }
}

impl WatchedBody {
    /// Reads a check's answer when it has come: the bytes that end the stream when it says to
    /// cut now.
    fn poll_check(&mut self, cx: &mut Context<'_>) -> Option<Bytes> {
        let answer = match Pin::new(self.check.as_mut()?).poll(cx) {
            Poll::Pending => return None,
            Poll::Ready(answer) => answer,
        };
        self.check = None;
        let watch = self.watch.as_mut()?;
        let Ok(answer) = answer else {
            watch.check_lost();
            return None;
        };
        match watch.checked(answer, ms_since(self.started)) {
            Step::Cut(bytes) => {
                self.upstream = None;
                self.finish(End::Cut);
                Some(Bytes::from(bytes))
            }
            _ => None,
        }
    }
}

impl Body for WatchedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        if let Some(e) = this.failed.take() {
            return Poll::Ready(Some(Err(e)));
        }
        loop {
            if let Some(out) = this.poll_check(cx) {
                return Poll::Ready(Some(Ok(Frame::data(out))));
            }
            let Some(upstream) = this.upstream.as_mut() else { return Poll::Ready(None) };
            let frame = match Pin::new(upstream).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(frame))) => frame,
                Poll::Ready(end) => {
                    // The end of the body, or its failure: what was held goes first.
                    this.upstream = None;
                    let now = ms_since(this.started);
                    let held = this.watch.as_mut().map(|w| w.take_held(now)).unwrap_or_default();
                    let failure = match end {
                        Some(Err(e)) => {
                            this.finish(End::UpstreamFailed(error_chain(&e)));
                            Some(BoxError::from(e))
                        }
                        _ => {
                            this.finish(End::Closed);
                            None
                        }
                    };
                    if held.is_empty() {
                        return Poll::Ready(failure.map(Err));
                    }
                    this.failed = failure;
                    return Poll::Ready(Some(Ok(Frame::data(Bytes::from(held)))));
                }
            };
            let data = match frame.into_data() {
                Ok(data) => data,
                Err(trailers) => return Poll::Ready(Some(Ok(trailers))),
            };
            let Some(watch) = this.watch.as_mut() else { return Poll::Ready(Some(Ok(Frame::data(data)))) };
            let arrived = Instant::now();
            let now = ms_since(this.started);
            let step = watch.on_data(&data, now);
            if let Some(check) = watch.check(now) {
                match this.shared.scorers.ask(check) {
                    Some(answer) => this.check = Some(answer),
                    None => watch.check_lost(),
                }
            }
            let added = arrived.elapsed().as_secs_f64();
            watch.added(added * 1000.0);
            this.shared.metrics().added(added);
            let mut out = match step {
                Step::PassOn => data,
                Step::Send(bytes) => Bytes::from(bytes),
                Step::Cut(bytes) => {
                    // Dropping the upstream body closes its connection: the server stops.
                    this.upstream = None;
                    this.finish(End::Cut);
                    return Poll::Ready(Some(Ok(Frame::data(Bytes::from(bytes)))));
                }
            };
            // A body of known length is not polled past its last byte: it ends here.
            if this.upstream.as_ref().is_some_and(Body::is_end_stream) {
                this.upstream = None;
                let held = this.watch.as_mut().map(|w| w.take_held(ms_since(this.started))).unwrap_or_default();
                if !held.is_empty() {
                    out = Bytes::from([&out[..], &held].concat());
                }
                this.finish(End::Closed);
            }
            if out.is_empty() {
                if this.upstream.is_none() {
                    return Poll::Ready(None);
                }
                continue;
            }
            return Poll::Ready(Some(Ok(Frame::data(out))));
        }
    }

    fn is_end_stream(&self) -> bool {
        self.upstream.is_none() && self.failed.is_none()
    }
}

impl Drop for WatchedBody {
    fn drop(&mut self) {
        // Dropped before its end: the client went away, or the proxy is stopping (see finish).
        self.finish(End::ClientGone);
    }
}
