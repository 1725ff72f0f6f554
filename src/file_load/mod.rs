//! Reading a file off the main thread: a file comes from the upload button or a drop anywhere
//! on the page ([`upload_button`], [`drop_overlay`]); [`loader`] starts a Web Worker for it,
//! which runs the analysis worker's wasm (`crates/analysis-worker`: the file read, parsed and
//! analysed with the core); the result comes back through `coherency_worker_wire::wire` in
//! pieces the page takes in between frames. [`load_view`] words the progress and holds the
//! size limit, [`load_progress`] shows it; [`jobs`] runs the page's worker jobs for the shell
//! (reads, re-reads, comparisons, result links, cancelling) and hands what comes of them to the
//! reducer. A long text's DEFLATE passes, or half of a big log's
//! texts, goes to a second worker meanwhile. `load_view` is pure and unit-tested natively; the
//! rest needs a browser (the end-to-end tests read files through it). [`ReadAs`] is how an
//! input is read: the format chosen (or detected) and the thresholds it is judged against.

pub mod drop_overlay;
pub mod jobs;
pub mod load_progress;
pub mod load_view;
pub mod loader;
pub mod upload_button;

use coherency_core::analyze::Thresholds;
use coherency_core::ingest::Format;

/// How an input is read: as `format` (`None`: the detected one), judged against `thresholds`.
/// Every read, re-read and report job of the page takes one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadAs {
    pub format: Option<Format>,
    pub thresholds: Thresholds,
}
