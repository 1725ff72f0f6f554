//! The core's black-box tests, one module a file beside this one, in one test binary (linked
//! once, not once a file). `cargo test --test integration golden::` runs one file's tests.
//! The wasm build's parity test is a binary of its own (`tests/wasm_parity.rs`).

mod agent_evidence;
mod golden;
mod harnesses;
mod histories;
mod incoherence_evidence;
mod ingest;
mod layers;
mod links;
mod progress_across_turns;
mod prompt_drift_evidence;
mod python_reference;
mod real_server_captures;
mod rules_in_docs;
mod scorer_evidence;
mod sse_split;
mod support;
