//! The WARN and FAIL thresholds of each heuristic (the seed's values by default).

use serde::{Deserialize, Serialize};

/// Where each heuristic starts to WARN and to FAIL. Counts trip at or above their threshold;
/// the gzip ratio trips below its threshold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    pub maxrun_warn: usize,
    pub maxrun_fail: usize,
    pub maxline_warn: usize,
    pub maxline_fail: usize,
    pub gzip_ratio_warn: f64,
    pub gzip_ratio_fail: f64,
    /// Texts shorter than this many bytes (or only whitespace) are too short to judge.
    pub min_bytes: usize,
    /// The gzip ratio is judged only from this many bytes of text.
    #[serde(default = "gzip_min_bytes")]
    pub gzip_min_bytes: usize,
}

fn gzip_min_bytes() -> usize {
    Thresholds::SEED.gzip_min_bytes
}

impl Thresholds {
    /// The seed script's thresholds (section H of the original diagnostic).
    pub const SEED: Thresholds = Thresholds {
        maxrun_warn: 6,
        maxrun_fail: 12,
        maxline_warn: 5,
        maxline_fail: 12,
        gzip_ratio_warn: 0.15,
        gzip_ratio_fail: 0.10,
        min_bytes: 20,
        gzip_min_bytes: 1024,
    };
}

impl Default for Thresholds {
    fn default() -> Self {
        Self::SEED
    }
}
