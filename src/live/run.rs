//! The one run driver: a streamed chat-completion request sent, and its body handed read by
//! read to a [`Scorer`] (the run's session in the analysis worker) until it ends. The live run
//! (`panel.rs`), probe F (`probes.rs`), the needle probe and the soak all stream through it.

use std::rc::Rc;

use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

use super::fetch;
use super::scorer::Scorer;
use crate::dom;
use crate::model::limit_param;
use coherency_core::live::ReportPacer;
use coherency_core::live::{capture_full, Ending, LiveSnapshot, MAX_CAPTURE_BYTES, REPORT_EVERY_MS, REPORT_SHARE};

/// Milliseconds on the page's clock.
pub fn now() -> f64 {
    dom::now_ms().unwrap_or(0.0)
}

/// Why a streamed request gave no stream to read.
pub enum NoStream {
    /// The request failed (or was aborted) before any response: the browser's error.
    Unanswered(JsValue),
    /// The server answered an error status, with this body.
    Refused { status: u16, body: String },
    /// The analysis worker, which scores the run, failed or could not start (in words).
    Unscored(String),
}

impl NoStream {
    /// What went wrong, in words, for `url`.
    pub fn text(&self, url: &str) -> String {
        use coherency_core::live::{explain_fetch_failure, http_error_text};
        match self {
            NoStream::Unanswered(e) => explain_fetch_failure(url, &fetch::page_origin(), &fetch::error_text(e)),
            NoStream::Refused { status, body } => http_error_text(*status, body),
            NoStream::Unscored(why) => format!("The run could not be scored: {why}."),
        }
    }
}

/// A streamed request read to its end (or cut, or stopped): its session's last snapshot and
/// the body as received.
pub struct Streamed {
    pub snapshot: LiveSnapshot,
    pub capture: Rc<[u8]>,
    pub status: u16,
    /// When the request was sent and when the session ended, on the page's clock.
    pub started_ms: f64,
    pub ended_ms: f64,
}

/// Sends `body` to `url` (POST; `key`, if any, only as an `Authorization` header), then hands
/// each read of the response body to a new [`Scorer`]; with `on_report`, asks it for a snapshot
/// whenever a [`ReportPacer`] says one is due and gives it to `on_report`. The session ends
/// `Closed` at the body's end; on a read error `Stopped` when `stopped()` says the user stopped
/// the run, else `Cut`; `Cut` too, in [`capture_full`]'s words, when the body passes
/// [`MAX_CAPTURE_BYTES`] (or the page URL's lower `capture-limit=BYTES`, for tests): the page
/// stops reading it.
pub async fn stream(
    url: &str,
    body: &str,
    key: &str,
    signal: Option<&AbortSignal>,
    stopped: &dyn Fn() -> bool,
    mut on_report: Option<&mut dyn FnMut(LiveSnapshot)>,
) -> Result<Streamed, NoStream> {
    let (scorer, started_ms) = Scorer::start(&now, body).await.map_err(NoStream::Unscored)?;
    let limit = limit_param(&dom::location_search(), "capture-limit=", MAX_CAPTURE_BYTES);
    let mut pacer = ReportPacer::new(REPORT_EVERY_MS, REPORT_SHARE);
    let response = fetch::send("POST", url, Some(body), key, signal).await.map_err(NoStream::Unanswered)?;
    scorer.headers(now());
    if !response.ok() {
        let body = fetch::text(&response).await.unwrap_or_else(|e| fetch::error_text(&e));
        return Err(NoStream::Refused { status: response.status(), body });
    }
    let mut received = 0;
    let ending = match fetch::reader(&response) {
        None => Ending::Closed,
        Some(reader) => loop {
            match fetch::read_array(&reader).await {
                Ok(Some(bytes)) => {
                    let t = now();
                    let (n, room) = (bytes.length() as usize, limit.saturating_sub(received));
                    let kept = if n > room { bytes.subarray(0, room as u32) } else { bytes };
                    received += kept.length() as usize;
                    if kept.length() > 0 {
                        scorer.feed(&kept, t);
                    }
                    if let Some(on_report) = on_report.as_mut().filter(|_| pacer.due(t)) {
                        let snapshot = scorer.snapshot().await.map_err(NoStream::Unscored)?;
                        let done = now();
                        pacer.reported(done, done - t);
                        on_report(snapshot);
                    }
                    if n >= room {
                        let _ = reader.cancel();
                        break Ending::Cut(capture_full(limit));
                    }
                }
                Ok(None) => break Ending::Closed,
                Err(e) => break if stopped() { Ending::Stopped } else { Ending::Cut(fetch::error_text(&e)) },
            }
        },
    };
    let ended_ms = now();
    let (snapshot, capture) = scorer.end(&ending, ended_ms).await.map_err(NoStream::Unscored)?;
    Ok(Streamed { snapshot, capture, status: response.status(), started_ms, ended_ms })
}
