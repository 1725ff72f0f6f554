//! A live run's session, held in the analysis worker (`www/worker.js` runs one per stream the
//! page reads): the page posts it each read of the response body with its time, asks for
//! snapshots when its pacer says one is due, and at the end says how the run ended and takes
//! the last snapshot and the capture. Every score is computed here; the page's wasm links no
//! scorer.

use wasm_bindgen::prelude::*;

use coherency_core::live::LiveSession;
use coherency_worker_wire::live::{encode_snapshot, ending_from};

/// One live run (a chat-completions stream, as the page sends it).
#[wasm_bindgen]
pub struct LiveRun {
    session: LiveSession,
}

#[wasm_bindgen]
impl LiveRun {
    /// A run whose request was sent at `started_ms` (the page's clock, as every time below).
    #[wasm_bindgen(constructor)]
    pub fn new(started_ms: f64) -> LiveRun {
        LiveRun { session: LiveSession::new(started_ms) }
    }

    /// The request the run streams (its JSON body): the content's drift is measured against
    /// its prompt ([`LiveSession::set_request`]).
    pub fn set_request(&mut self, body: &str) {
        self.session.set_request(body);
    }

    /// The response headers arrived at `now_ms`.
    pub fn headers(&mut self, now_ms: f64) {
        self.session.headers(now_ms);
    }

    /// One read of the body, which arrived at `now_ms` (the page keeps to the capture limit).
    pub fn feed(&mut self, bytes: &[u8], now_ms: f64) {
        self.session.feed(bytes, now_ms);
    }

    /// The run as it is now ([`coherency_worker_wire::live::decode_snapshot`] reads it).
    pub fn snapshot(&self) -> Vec<u8> {
        encode_snapshot(&self.session.snapshot())
    }

    /// Ends the run at `now_ms` as `kind` says (`closed`, `stopped`, `cut` with `why`).
    pub fn end(&mut self, kind: &str, why: Option<String>, now_ms: f64) {
        self.session.end(ending_from(kind, why), now_ms);
    }

    /// The body as received.
    pub fn capture(&self) -> Vec<u8> {
        self.session.capture().to_vec()
    }
}
