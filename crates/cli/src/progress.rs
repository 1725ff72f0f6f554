//! The progress bar on standard error (indicatif): files analysed of all, with the time taken
//! (over one input, its texts analysed of all; with `--per-record`, each input's bytes or rows
//! read of all, or its records judged when its size is not known).
//! It appears only when standard error is a terminal, the output is not `--json`, and the run
//! has taken over a second; it is cleared before a report is written over it.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before the bar appears.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// What [`Progress::count_read`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Bytes,
    Rows,
}

/// A progress bar that may never be drawn.
pub struct Progress {
    bar: ProgressBar,
    /// Set when the run is over: the bar is never shown after.
    done: Arc<Mutex<bool>>,
}

impl Progress {
    /// A bar over `total` inputs, shown after [`SHOW_AFTER`] when `allowed` (standard error is a
    /// terminal and the output is not JSON); never shown otherwise.
    pub fn new(total: usize, allowed: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {pos}/{len} files analysed, {elapsed} {wide_bar}") {
            bar.set_style(style);
        }
        let done = Arc::new(Mutex::new(false));
        if allowed {
            let (bar, done) = (bar.clone(), Arc::clone(&done));
            std::thread::spawn(move || {
                std::thread::sleep(SHOW_AFTER);
                let done = done.lock().unwrap_or_else(PoisonError::into_inner);
                if !*done {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(100));
                }
            });
        }
        Progress { bar, done }
    }

    /// Counts one input's `total` texts instead of files (a run over one input).
    pub fn count_texts(&self, total: usize) {
        if let Ok(style) = ProgressStyle::with_template("{spinner} {pos}/{len} texts analysed, {elapsed} {wide_bar}") {
            self.bar.set_style(style);
        }
        self.bar.set_length(total as u64);
        self.bar.set_position(0);
    }

    /// Counts one input's records by what is read of it: `total` bytes (a log), or rows (a
    /// Parquet dataset), or — when the size is not known (standard input) — records, with no
    /// total (`--per-record`).
    pub fn count_read(&self, total: Option<u64>, unit: Unit) {
        let template = match (total, unit) {
            (Some(_), Unit::Bytes) => "{spinner} {bytes}/{total_bytes} read, {bytes_per_sec}, {elapsed} {wide_bar}",
            (Some(_), Unit::Rows) => "{spinner} {human_pos}/{human_len} rows judged, {per_sec}, {elapsed} {wide_bar}",
            (None, _) => "{spinner} {human_pos} records judged, {per_sec}, {elapsed}",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            self.bar.set_style(style);
        }
        self.bar.set_length(total.unwrap_or(u64::MAX));
        if total.is_none() {
            self.bar.unset_length();
        }
        self.bar.set_position(0);
    }

    /// `n` more bytes, rows or records read (see [`Self::count_read`]).
    pub fn advance_by(&self, n: u64) {
        self.bar.inc(n);
    }

    /// One more input (or text) done.
    pub fn advance(&self) {
        self.bar.inc(1);
    }

    /// Runs `f` with the bar out of the way (for writing to the terminal).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clears the bar for good.
    pub fn finish(&self) {
        let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        if !*done {
            *done = true;
            self.bar.finish_and_clear();
        }
    }
}
