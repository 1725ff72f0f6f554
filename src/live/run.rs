//! The one run driver: a streamed chat-completion request sent, and its body fed into a
//! [`LiveSession`] read by read until it ends. The live run (`panel.rs`) and check F
//! (`checks.rs`) both stream through it.

use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

use super::fetch;
use crate::dom;
use crate::model::limit_param;
use coherency_core::live::{capture_full, Ending, LiveSession, MAX_CAPTURE_BYTES};

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
}

/// A streamed request read to its end (or cut, or stopped): its session is ended.
pub struct Streamed {
    pub session: LiveSession,
    pub status: u16,
    /// When the request was sent and when the session ended, on the page's clock.
    pub started_ms: f64,
    pub ended_ms: f64,
}

/// Sends `body` to `url` (POST; `key`, if any, only as an `Authorization` header), then feeds
/// each read of the response body into a new [`LiveSession`], calling `after_read` with the
/// session and the read's time after each. The session ends `Closed` at the body's end; on a
/// read error `Stopped` when `stopped()` says the user stopped the run, else `Cut`; `Cut` too,
/// in [`capture_full`]'s words, when the body passes [`MAX_CAPTURE_BYTES`] (or the page URL's
/// lower `capture-limit=BYTES`, for tests): the page stops reading it.
pub async fn stream(
    url: &str,
    body: &str,
    key: &str,
    signal: Option<&AbortSignal>,
    stopped: &dyn Fn() -> bool,
    after_read: &mut dyn FnMut(&mut LiveSession, f64),
) -> Result<Streamed, NoStream> {
    let started_ms = now();
    let mut session = LiveSession::new(started_ms);
    let limit = limit_param(&dom::location_search(), "capture-limit=", MAX_CAPTURE_BYTES);
    let response = fetch::send("POST", url, Some(body), key, signal).await.map_err(NoStream::Unanswered)?;
    session.headers(now());
    if !response.ok() {
        let body = fetch::text(&response).await.unwrap_or_else(|e| fetch::error_text(&e));
        return Err(NoStream::Refused { status: response.status(), body });
    }
    let ending = match fetch::reader(&response) {
        None => Ending::Closed,
        Some(reader) => loop {
            match fetch::read(&reader).await {
                Ok(Some(bytes)) => {
                    let t = now();
                    session.feed_up_to(&bytes, t, limit);
                    after_read(&mut session, t);
                    if session.is_full() {
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
    session.end(ending, ended_ms);
    Ok(Streamed { session, status: response.status(), started_ms, ended_ms })
}
