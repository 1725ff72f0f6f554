//! The analysis worker's wasm: what `www/worker.js` runs in a Web Worker — every input the page
//! is given (a file, a pasted text, a sample, a result link, a capture replayed) read, parsed,
//! analysed and judged by the core off the main thread (`worker`), the result handed back
//! through `coherency_worker_wire`; and the live mode's streams, each scored as it arrives by a
//! session held here (`live`); and the reports the page offers to copy or download
//! (`export`), and outputs compared with a reference (`compare`), and result links' DEFLATE
//! (`link`); and the warm-up the page runs once at load, so that V8 optimizes the analysis
//! before the first big file comes (`warm_up`). A big input's work is shared with a second worker running
//! the same module (`share`: this worker's half of a big log; `share_wire` carries what they exchange). Built for speed (the
//! `wasm-speed` profile), apart from the page's wasm, which is built for size and never links
//! the analysis.

mod compare;
mod export;
mod live;
mod result_link;
mod share;
mod share_wire;
mod warm_up;
mod worker;

/// A panic in the worker is logged with its message (the page reports the worker's failure).
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
