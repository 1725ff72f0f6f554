//! The live endpoint mode's wing of the page: the form and the run (`panel.rs`; its state and pure reducer in `panel_state.rs`), the endpoint
//! health probes (`probes.rs`; their state and reducer in `probes_state.rs`), the soak (`soak.rs`; its form and the run it plans in `soak_form.rs`, the run's state and reducer in `soak_run_state.rs`), the context fidelity probe (`needle.rs`; its state and reducer in `needle_state.rs`), a run's result and its growing texts (`result.rs`, `channel_text.rs`)
//! and their pure view model (`view.rs`, tested natively); under them the one run driver
//! (`run.rs`: a streamed request's body handed, read by read, to a `LiveSession` held in the
//! analysis worker — `scorer.rs` —, which sends back its snapshots) over gloo-net (`fetch.rs`).
//!
//! What the bytes mean is `coherency_core::live`'s business (the request, the session, the
//! probes' judges, the words for failures): this wing only pumps bytes and timestamps into it
//! and shows what it reports; the scoring runs in the analysis worker's wasm, not the page's.

mod channel_text;
mod fetch;
mod needle;
mod needle_state;
mod panel;
mod panel_state;
mod probes;
mod probes_state;
mod result;
mod run;
mod scorer;
mod soak;
mod soak_form;
mod soak_run_state;
pub mod view;

pub use panel::LivePanel;
