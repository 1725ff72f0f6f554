//! The browser harness shared by the end-to-end tests (`tests/e2e*.rs`): the built page served
//! from dist/ on 127.0.0.1 by a tiny file server, in a window of the Chromium the test binary
//! shares (or a browser of its own, with its own chromedriver process group and fresh profile,
//! for a page that needs switches or opens from disk), and helpers that wait, click and read
//! through fantoccini.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

/// The Chromium binary (`CHROME_BIN`, default Debian's `/usr/bin/chromium`).
pub fn chrome_bin() -> String {
    std::env::var("CHROME_BIN").unwrap_or_else(|_| "/usr/bin/chromium".to_string())
}

/// Chromium's switches for a test: headless, as root, nothing fetched in the background, the
/// fresh profile `profile`.
pub fn chromium_args(profile: &TempDir) -> Vec<String> {
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .map(String::from)
    .into();
    args.push(format!("--user-data-dir={}", profile.0.display()));
    args
}

/// Starts recording the page's Content-Security-Policy violations (installed as soon as a page
/// has loaded; its own shell's scripts and styles, which load before, are what the app needs to
/// start at all).
const WATCH_CSP: &str = "window.__cspViolations = []; \
  document.addEventListener('securitypolicyviolation', (e) => \
    window.__cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`)); return null;";

/// The built page's directory (dist/, or `COHERENCY_DIST` to time another build), checked to
/// hold a build.
pub fn built_page() -> PathBuf {
    let dist = std::env::var_os("COHERENCY_DIST").map_or_else(|| crate::workspace_root().join("dist"), PathBuf::from);
    assert!(
        dist.join("index.html").is_file() && dist.join("pkg").is_dir(),
        "{} has no built page: run scripts/build-page first",
        dist.display()
    );
    dist
}

/// A browser session on the served page, with everything it started.
pub struct Page {
    pub client: Client,
    // Dropped after `client`, in this order: browser session, its own browser (none for a
    // window in the shared browser), file server.
    _own: Option<OwnBrowser>,
    /// `None` for a page opened from disk.
    _server: Option<FileServer>,
}

/// A browser of a page's own: chromedriver (which started it) and its profile.
struct OwnBrowser {
    driver: Driver,
    _profile: TempDir,
}

impl Page {
    pub async fn open() -> Page {
        Page::open_with_args(&[]).await
    }

    /// [`Page::open`] with extra Chromium command-line switches.
    pub async fn open_with_args(extra: &[&str]) -> Page {
        Page::open_served(built_page(), "/", extra).await
    }

    /// The page served from `root`, opened at `path` (e.g. `/sub/dir/`: a static host's
    /// sub-path).
    pub async fn open_served(root: PathBuf, path: &str, extra: &[&str]) -> Page {
        let server = FileServer::start(root);
        let url = format!("http://127.0.0.1:{}{path}", server.port);
        Page::open_url(Some(server), &url, extra).await
    }

    /// A page file opened from disk (`file://`), as a user double-clicks it.
    pub async fn open_from_disk(file: &Path, query: &str) -> Page {
        Page::open_url(None, &format!("file://{}{query}", file.display()), &[]).await
    }

    /// Opens `url` in a window of the shared browser (a served page without switches of its
    /// own), or else in a browser of its own.
    async fn open_url(server: Option<FileServer>, url: &str, extra: &[&str]) -> Page {
        let page = if server.is_some() && extra.is_empty() {
            let (driver_port, debugger_port) = shared::ports();
            let mut caps = serde_json::Map::new();
            caps.insert(
                "goog:chromeOptions".to_string(),
                json!({ "debuggerAddress": format!("127.0.0.1:{debugger_port}") }),
            );
            let client = connect(caps, driver_port).await;
            let window = client.new_window(false).await.expect("open a window in the shared browser").handle;
            client.switch_to_window(window).await.expect("switch to the new window");
            client.set_window_size(1280, 900).await.expect("size the window");
            Page { client, _own: None, _server: server }
        } else {
            let profile = TempDir::new("coherency-e2e-profile");
            let driver = Driver::start();
            let mut args = chromium_args(&profile);
            args.push("--window-size=1280,900".to_string());
            args.extend(extra.iter().map(|a| a.to_string()));
            let mut caps = serde_json::Map::new();
            caps.insert("goog:chromeOptions".to_string(), json!({ "binary": chrome_bin(), "args": args }));
            let client = connect(caps, driver.port).await;
            Page { client, _own: Some(OwnBrowser { driver, _profile: profile }), _server: server }
        };
        page.client.goto(url).await.expect("load the page");
        page.js(WATCH_CSP).await;
        page.client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css("#analyze"))
            .await
            .expect("the app mounted (wasm loaded)");
        page
    }

    /// Opens the page again with `query` (e.g. `?file-limit=1000`) and waits for the app.
    pub async fn goto_query(&self, query: &str) {
        let port = self._server.as_ref().expect("a served page").port;
        self.client.goto(&format!("http://127.0.0.1:{port}/{query}")).await.expect("load the page");
        self.js(WATCH_CSP).await;
        self.client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css("#analyze"))
            .await
            .expect("the app mounted (wasm loaded)");
    }

    /// The process group of chromedriver and the browser it started (for memory readings): a
    /// page opened with switches of its own has a browser of its own.
    pub fn process_group(&self) -> u32 {
        let own = self._own.as_ref().expect("a browser of the page's own: open it with switches (open_with_args)");
        own.driver.child.id()
    }

    /// Closes the page's window (and its own browser, if it has one), after checking that the
    /// page broke no rule of its Content-Security-Policy (every test that closes its page checks
    /// it).
    pub async fn close(self) {
        let violations = self.csp_violations().await;
        let Page { client, _own, _server } = self;
        if _own.is_none() {
            let _ = client.close_window().await;
        }
        let _ = client.close().await;
        assert!(violations.is_empty(), "the page broke its Content-Security-Policy: {violations:?}");
    }

    /// What the page's Content-Security-Policy refused since it loaded, one "directive
    /// blocked-URL" each (none recorded after the page navigated by itself).
    pub async fn csp_violations(&self) -> Vec<String> {
        let reports = self.js("return window.__cspViolations ?? [];").await;
        reports
            .as_array()
            .map(|r| r.iter().map(|v| v.as_str().unwrap_or("?").to_string()).collect())
            .unwrap_or_default()
    }

    pub async fn js(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Polls `script` (which returns a boolean) until it is true, for up to 10 s.
    pub async fn wait_for_js(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if self.client.execute(script, vec![]).await.ok() == Some(json!(true)) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the page has stopped (smooth-)scrolling, for up to 5 s.
    pub async fn settle_scrolling(&self) {
        let mut last = Value::Null;
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(150)).await;
            let now = self.js("return window.scrollY;").await;
            if now == last {
                return;
            }
            last = now;
        }
    }

    /// Puts `text` in the text box as a paste would (value + input event).
    pub async fn set_input(&self, text: &str) {
        self.client
            .execute(
                "const t = document.getElementById('input'); t.value = arguments[0]; \
                 t.dispatchEvent(new Event('input', {bubbles: true}));",
                vec![json!(text)],
            )
            .await
            .expect("set the text box");
    }

    pub async fn input_value(&self) -> String {
        self.js("return document.getElementById('input').value;").await.as_str().unwrap_or_default().to_string()
    }

    pub async fn click(&self, css: &str) {
        // In view first, at once (the page scrolls smoothly, and a moving target is missed).
        self.client
            .execute(
                "document.querySelector(arguments[0])?.scrollIntoView({block: 'center', behavior: 'instant'}); return null;",
                vec![json!(css)],
            )
            .await
            .unwrap_or_else(|e| panic!("scroll to {css}: {e}"));
        let el = self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.click().await.unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// The text of the first element `css` finds. A result comes in pieces between frames, so
    /// the element found may be rendered anew before its text is read (a stale element): it is
    /// then found again.
    pub async fn text(&self, css: &str) -> String {
        let mut tries = 0;
        loop {
            let el = self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
            match el.text().await {
                Ok(text) => return text,
                Err(e) if tries < 20 && e.to_string().contains("stale element") => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => panic!("text of {css}: {e}"),
            }
        }
    }

    pub async fn count(&self, css: &str) -> usize {
        self.client.find_all(Locator::Css(css)).await.map(|v| v.len()).unwrap_or_else(|e| panic!("find {css}: {e}"))
    }

    /// Chooses `path` in the page's real file input (as a user would in the file dialog) and
    /// waits until the page shows that file (and the text it opens first is analysed: the
    /// results are not `aria-busy`).
    pub async fn upload(&self, path: &Path) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let input = self.client.find(Locator::Css("input[type=file]")).await.expect("the file input");
        input.send_keys(&path.display().to_string()).await.expect("choose the file");
        self.wait_for_js(
            &format!(
                "const bar = document.querySelector('#format-bar .detected'); \
                 const status = document.getElementById('status')?.textContent ?? ''; \
                 return !status.startsWith('Reading') && !document.querySelector('.results[aria-busy]') \
                 && !!bar && bar.textContent.includes({:?});",
                format!("file {name} ")
            ),
            &format!("the page to show {name}"),
        )
        .await;
    }

    /// Waits up to 10 s for the verdict badge to say `want` (its `data-verdict`), once the
    /// analysis of the last input is in (the results are not `aria-busy`).
    pub async fn expect_verdict(&self, want: &str) {
        let script = format!(
            "return !document.querySelector('.results[aria-busy]') && \
             document.querySelector('#verdict')?.dataset.verdict === {want:?};"
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.client.execute(&script, vec![]).await.ok() != Some(json!(true)) {
            if Instant::now() > deadline {
                let got = self.js("return document.querySelector('#verdict')?.dataset.verdict ?? null;").await;
                panic!("expected verdict {want}, the page shows {got}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// A WebDriver session through the chromedriver on `port`, with `caps`.
async fn connect(caps: serde_json::Map<String, Value>, port: u16) -> Client {
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .unwrap_or_else(|e| panic!("could not start a Chromium session through chromedriver: {e}"))
}

/// The Chromium the pages of one test binary share. Starting a browser and its chromedriver
/// costs about a second a test; here each test gets a window of its own in one browser
/// instead, its page on a port of its own — its own origin, so storage, workers and caches are
/// apart from every other test's. Started by the first page that needs it, again if it died;
/// stopped when the test binary exits.
mod shared {
    use super::{chrome_bin, chromium_args, signal_group, Driver, TempDir};
    use std::process::{Child, Command, Stdio};
    use std::sync::{Mutex, Once};
    use std::time::{Duration, Instant};

    struct Shared {
        _chromium: Child,
        chromium_group: u32,
        driver: Driver,
        debugger_port: u16,
        _profile: TempDir,
    }

    static SHARED: Mutex<Option<Shared>> = Mutex::new(None);

    /// The shared chromedriver's port and the shared browser's DevTools port, the two started
    /// if need be.
    pub(super) fn ports() -> (u16, u16) {
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        if shared.as_mut().is_none_or(|s| !matches!(s._chromium.try_wait(), Ok(None))) {
            *shared = None;
            *shared = Some(start());
        }
        let s = shared.as_ref().expect("started");
        (s.driver.port, s.debugger_port)
    }

    fn start() -> Shared {
        use std::os::unix::process::CommandExt;
        static STOP_AT_EXIT: Once = Once::new();
        STOP_AT_EXIT.call_once(stop_at_exit);
        let profile = TempDir::new("coherency-e2e-shared-profile");
        let mut args = chromium_args(&profile);
        args.extend(["--window-size=1280,900", "--remote-debugging-port=0", "about:blank"].map(String::from));
        let chromium = Command::new(chrome_bin())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {} (set CHROME_BIN): {e}", chrome_bin()));
        let chromium_group = chromium.id();
        // Chromium writes the port it chose to DevToolsActivePort in its profile.
        let active_port = profile.0.join("DevToolsActivePort");
        let deadline = Instant::now() + Duration::from_secs(20);
        let debugger_port = loop {
            let port = std::fs::read_to_string(&active_port).ok().and_then(|s| s.lines().next()?.trim().parse().ok());
            if let Some(port) = port {
                break port;
            }
            assert!(Instant::now() < deadline, "the shared Chromium wrote no DevToolsActivePort within 20 s");
            std::thread::sleep(Duration::from_millis(50));
        };
        Shared { _chromium: chromium, chromium_group, driver: Driver::start(), debugger_port, _profile: profile }
    }

    /// Stops the shared browser and chromedriver when the test binary exits (statics are not
    /// dropped).
    #[allow(unsafe_code)] // std has no at-exit hook; atexit(3) is the one way.
    fn stop_at_exit() {
        extern "C" fn stop() {
            let shared = SHARED.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(s) = shared {
                signal_group(s.chromium_group, libc::SIGTERM);
                drop(s); // chromedriver's group, then the profile.
            }
        }
        // SAFETY: `stop` is a plain function without arguments; it only signals, waits and
        // removes a directory.
        unsafe {
            libc::atexit(stop);
        }
    }
}

/// chromedriver on a free loopback port, in its own process group so that the browsers it
/// starts go with it.
pub struct Driver {
    child: Child,
    pub port: u16,
}

impl Driver {
    pub fn start() -> Driver {
        use std::os::unix::process::CommandExt;
        let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".to_string());
        let port = free_port();
        let child = Command::new(&bin)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("could not start chromedriver at {bin} (set CHROMEDRIVER): {e}"));
        let driver = Driver { child, port };
        let deadline = Instant::now() + Duration::from_secs(15);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen on port {port} within 15 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole group: chromedriver and any browser a failed test left behind.
        signal_group(self.child.id(), libc::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        signal_group(self.child.id(), libc::SIGKILL);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `signal` to the process group led by `pid` (a child started with `process_group(0)`).
#[allow(unsafe_code)] // std has no call that signals a process group; kill(2) is the one way.
pub fn signal_group(pid: u32, signal: libc::c_int) {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return };
    if pid > 1 {
        // SAFETY: kill(2) takes plain integers; a negative pid names the group this test created.
        unsafe {
            libc::kill(-pid, signal);
        }
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free loopback port")
}

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(prefix: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let name = format!("{prefix}-{}-{}-{nanos}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
        let dir = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A tiny static file server for `root` on 127.0.0.1 (GET only, one thread per connection).
pub struct FileServer {
    pub port: u16,
    stop: Arc<AtomicBool>,
}

impl FileServer {
    pub fn start(root: PathBuf) -> FileServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the file server");
        let port = listener.local_addr().expect("file server address").port();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let root = root.clone();
                std::thread::spawn(move || serve(stream, &root));
            }
        });
        FileServer { port, stop }
    }
}

impl Drop for FileServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

pub fn serve(mut stream: TcpStream, root: &Path) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 64 * 1024 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&request);
    let mut parts = head.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let path = if path.ends_with('/') { format!("{path}index.html") } else { path.to_string() };
    let rel = Path::new(path.trim_start_matches('/'));
    let safe = rel.components().all(|c| matches!(c, Component::Normal(_)));
    let body = if method == "GET" && safe { std::fs::read(root.join(rel)).ok() } else { None };
    let response = match body {
        Some(body) => {
            let mut head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                mime(rel),
                body.len()
            )
            .into_bytes();
            head.extend_from_slice(&body);
            head
        }
        None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
    };
    let _ = stream.write_all(&response);
}

pub fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
