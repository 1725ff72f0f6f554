//! The boundary between the page (the root package, its wasm built for size) and the analysis
//! worker (`crates/analysis-worker`, its wasm built for speed): both link this crate, so each
//! side reads exactly what the other wrote.
//! - [`wire`] — a judged document in postcard pieces, encoded by the worker and taken in by the
//!   page between frames;
//! - [`progress`] — the worker's progress reports;
//! - [`live`] — a live run's snapshots, its session held by the worker;
//! - [`analyze`] — texts to analyse and their full reports;
//! - [`compare`] — a comparison of outputs with a reference, in the words the page shows;
//! - [`result_link`] — a result link's fragment, made by the worker (the page's wasm has no DEFLATE);
//! - [`blob_reader`] (wasm32) — a `Blob`'s bytes read a few megabytes at a time: the worker
//!   reads its input through it, the page a plain text back from the file.
//!
//! Pure but for `blob_reader`: the round trips are unit-tested natively.

pub mod analyze;
pub mod blob_reader;
pub mod compare;
pub mod live;
pub mod progress;
pub mod result_link;
pub mod wire;
