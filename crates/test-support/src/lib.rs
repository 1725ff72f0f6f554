//! What Coherency Analyzer's tests and benches share (never shipped): deterministic text
//! generators ([`textgen`]), labelled loops and legitimate look-alikes ([`labelled`]), labelled agent sessions
//! ([`agent_sessions`], written as each coding-agent harness writes them: [`agent_harnesses`]), big
//! generated logs ([`biglog`]), labelled incoherent texts and their look-alikes ([`incoherent`]), the yardstick gzip pass and best-of timing of the benches
//! ([`gzip_pass`], [`timing`]), independent pieces of a test on every core ([`parallel`]), the memory benches' counting allocator ([`counting_alloc`]), and
//! where the fixtures are ([`fixture`]).

pub mod agent_harnesses;
pub mod agent_sessions;
pub mod biglog;
pub mod counting_alloc;
pub mod golden;
pub mod grammar;
pub mod gzip_pass;
pub mod incoherent;
pub mod labelled;
pub mod parallel;
pub mod prompted;
pub mod textgen;
pub mod timing;

use std::path::{Path, PathBuf};

/// The workspace's root directory.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root")
}

/// The fixtures directory, `crates/core/tests/data` (golden reports, and one capture per
/// format under `formats/`), shared by the core's, the CLI's, the page's and the e2e tests.
pub fn fixtures_dir() -> PathBuf {
    workspace_root().join("crates/core/tests/data")
}

/// Every input fixture a user could hand the tool — the plain texts under [`fixtures_dir`] and
/// one capture per format under `formats/` (not their `*.expected.json` reports), as paths
/// relative to [`fixtures_dir`] (`line_x400.txt`, `formats/vllm.sse`), sorted.
pub fn input_fixtures() -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["", "formats"] {
        for entry in std::fs::read_dir(fixtures_dir().join(sub)).expect("the fixtures directory") {
            let path = entry.expect("a fixture").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
            if path.is_file() && !name.ends_with(".expected.json") {
                out.push(if sub.is_empty() { name } else { format!("{sub}/{name}") });
            }
        }
    }
    out.sort();
    out
}

/// A fixture by its path under [`fixtures_dir`], e.g. `formats/vllm.sse`.
pub fn fixture(relative: &str) -> PathBuf {
    fixtures_dir().join(relative)
}
