//! Just enough HTTP/1.1 over a `TcpStream`: read one request (head and `Content-Length` body),
//! write a whole response, or stream a body in chunked transfer encoding, flushed per chunk.
//! Every response says `Connection: close`; one request per connection keeps it simple.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// Requests larger than this are refused: the mock never needs more.
const MAX_HEAD: usize = 64 * 1024;
const MAX_BODY: usize = 16 * 1024 * 1024;

/// One request as read from the socket.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    /// The path without its query string.
    pub path: String,
    /// Header names in lower case, in the order sent.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Why a request could not be read; `Bad` deserves a 400 answer, the others none.
#[derive(Debug)]
pub enum ReadError {
    /// The socket failed or timed out (browsers open connections they never use).
    Io,
    Closed,
    Bad(String),
    /// The request did not arrive whole in time (a client trickling bytes holds no thread).
    TooSlow,
}

impl From<io::Error> for ReadError {
    fn from(_: io::Error) -> Self {
        ReadError::Io
    }
}

/// Reads `stream` into `chunk` before `deadline`: `TooSlow` once it has passed.
fn read_before(stream: &mut TcpStream, chunk: &mut [u8], deadline: Instant) -> Result<usize, ReadError> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(ReadError::TooSlow);
    }
    stream.set_read_timeout(Some(left.max(Duration::from_millis(1))))?;
    match stream.read(chunk) {
        Ok(n) => Ok(n),
        Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => Err(ReadError::TooSlow),
        Err(_) => Err(ReadError::Io),
    }
}

/// Reads one request, whole within `timeout` however its bytes arrive. Answers
/// `Expect: 100-continue` so curl does not wait.
pub fn read_request(stream: &mut TcpStream, timeout: Duration) -> Result<Request, ReadError> {
    let deadline = Instant::now() + timeout;
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEAD {
            return Err(ReadError::Bad("request head too large".into()));
        }
        let n = read_before(stream, &mut chunk, deadline)?;
        if n == 0 {
            return Err(if buf.is_empty() { ReadError::Closed } else { ReadError::Bad("incomplete request".into()) });
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let (method, target) = match (first.next(), first.next()) {
        (Some(m), Some(t)) if !m.is_empty() => (m.to_string(), t),
        _ => return Err(ReadError::Bad("bad request line".into())),
    };
    let path = target.split('?').next().unwrap_or(target).to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut req = Request { method, path, headers, body: buf[head_end + 4..].to_vec() };
    if req.header("transfer-encoding").is_some() {
        return Err(ReadError::Bad("chunked request bodies are not supported; send Content-Length".into()));
    }
    let length: usize = match req.header("content-length") {
        Some(v) => v.parse().map_err(|_| ReadError::Bad("bad Content-Length".into()))?,
        None => 0,
    };
    if length > MAX_BODY {
        return Err(ReadError::Bad("request body too large".into()));
    }
    if req.header("expect").is_some_and(|v| v.eq_ignore_ascii_case("100-continue")) && req.body.len() < length {
        stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
    }
    while req.body.len() < length {
        let n = read_before(stream, &mut chunk, deadline)?;
        if n == 0 {
            return Err(ReadError::Bad("request body cut short".into()));
        }
        req.body.extend_from_slice(&chunk[..n]);
    }
    req.body.truncate(length);
    Ok(req)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

pub type Headers = Vec<(&'static str, String)>;

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        307 => "Temporary Redirect",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        500 => "Internal Server Error",
        _ => "",
    }
}

fn head(status: u16, headers: &Headers) -> String {
    let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        // A value never ends the line it is on: control characters (a CR or LF from a request)
        // are dropped.
        let value: String = value.chars().filter(|c| !c.is_control()).collect();
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("Connection: close\r\n");
    out
}

/// Writes a complete response with `Content-Length`.
pub fn respond(stream: &mut TcpStream, status: u16, headers: &Headers, body: &[u8]) -> io::Result<()> {
    let mut out = head(status, headers);
    out.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(out.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

/// Writes the head with `Content-Length` for all of `body` but only its first `sent` bytes,
/// then closes the socket: a reply cut by the network.
pub fn respond_cut(stream: &mut TcpStream, status: u16, headers: &Headers, body: &[u8], sent: usize) -> io::Result<()> {
    let mut out = head(status, headers);
    out.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(out.as_bytes())?;
    stream.write_all(&body[..sent.min(body.len())])?;
    stream.flush()?;
    stream.shutdown(Shutdown::Both)
}

/// A response body sent as it is made: chunked transfer encoding, each piece flushed.
pub struct ChunkedBody<'a> {
    stream: &'a mut TcpStream,
}

impl<'a> ChunkedBody<'a> {
    pub fn start(stream: &'a mut TcpStream, status: u16, headers: &Headers) -> io::Result<Self> {
        let mut out = head(status, headers);
        out.push_str("Transfer-Encoding: chunked\r\n\r\n");
        stream.write_all(out.as_bytes())?;
        stream.flush()?;
        Ok(ChunkedBody { stream })
    }

    /// Sends `bytes` as one chunk, now.
    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(()); // An empty chunk would end the body.
        }
        let mut out = format!("{:x}\r\n", bytes.len()).into_bytes();
        out.extend_from_slice(bytes);
        out.extend_from_slice(b"\r\n");
        self.stream.write_all(&out)?;
        self.stream.flush()
    }

    /// Ends the body properly.
    pub fn finish(self) -> io::Result<()> {
        self.stream.write_all(b"0\r\n\r\n")?;
        self.stream.flush()
    }

    /// Closes the connection without ending the body: what a client sees when the network
    /// or the server dies mid-stream.
    pub fn cut(self) -> io::Result<()> {
        self.stream.shutdown(Shutdown::Both)
    }
}
