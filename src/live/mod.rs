//! The live endpoint mode's wing of the page: the form and the run (`panel.rs`), the endpoint
//! health checks (`checks.rs`), the context fidelity probe (`needle.rs`), a run's result and its growing texts (`result.rs`, `text.rs`)
//! and their pure view model (`view.rs`, tested natively); under them the one run driver
//! (`run.rs`: a streamed request's body fed into a `LiveSession`, read by read) over the
//! hand-written web-sys fetch (`fetch.rs`).
//!
//! What the bytes mean is `coherency_core::live`'s business (the request, the session, the
//! checks' judges, the words for failures): this wing only pumps bytes and timestamps into it
//! and shows what it reports.

mod checks;
mod fetch;
mod needle;
mod panel;
mod result;
mod run;
mod soak;
mod text;
pub mod view;

pub use panel::LivePanel;
