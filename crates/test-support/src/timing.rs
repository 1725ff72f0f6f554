//! Timing helper shared by the benches.

use std::time::{Duration, Instant};

/// The shortest of `runs` timed calls of `f` (the least disturbed by the noisy machine).
pub fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}
