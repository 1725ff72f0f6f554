//! The harness of the end-to-end tests and the page bench: the built page (`dist/`, from
//! `scripts/build-page`) served on 127.0.0.1 and driven in headless Chromium through
//! chromedriver ([`browser`]), and the mock endpoint served in-process ([`mock`]).
//! The tests are the page's, in the repository's `tests/` (`e2e.rs`: the page; `e2e_live.rs`:
//! live endpoint mode; `e2e_agent.rs`, `e2e_reports.rs`), the bench in `benches/page.rs`.

pub mod browser;
pub mod mock;

pub use browser::Page;
pub use mock::MockServer;

use std::path::{Path, PathBuf};

/// The workspace's root directory (where `dist/` is built).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root")
}
