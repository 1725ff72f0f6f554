//! Windowed compression profile: the DEFLATE ratio in fixed windows along the text, and the
//! onset, the first byte from which the text turns degenerate and stays so.
//!
//! The text is cut into windows of [`WINDOW`] bytes (on character boundaries; a last window
//! shorter than a quarter window joins the one before). Each window is compressed on its own
//! (raw DEFLATE at [`LEVEL`], no framing), and its ratio is compressed / raw bytes, in
//! 0..≈1.01. Generated prose keeps 4 KiB windows around 0.35–0.6, logs and tables 0.15–0.4;
//! a window that is one short unit repeated falls under 0.05, a paragraph repeated with small
//! edits to 0.06–0.13. A window below [`DEGENERATE_BELOW`] is *degenerate*.
//!
//! The onset is the start of the longest degenerate suffix of windows, refined by a binary
//! search on where a window-sized stretch first becomes degenerate; `None` when the last window
//! is not degenerate. It is window-precise (within about one window), so a text shorter than
//! one window has an onset of 0 or none: short loops are the tandem scorer's business. Unlike
//! the whole-text gzip ratio, a coherent start does not hide a loop that follows, because each
//! window is judged alone; a unit longer than the window is not seen (copy coverage sees it).
//!
//! Cost: one DEFLATE pass over the text at a fast level plus about log₂(WINDOW) windows for the
//! refinement. Windows are independent, so a streamed text can be profiled window by window.

use super::gzip_ratio::counted_size;
use super::text_units::{ceil_boundary, floor_boundary};
use miniz_oxide::deflate::core::CompressionStrategy;

/// Bytes per window.
pub const WINDOW: usize = 4096;
/// DEFLATE level of the windows (fast: the ratio of a loop is tiny at any level).
pub const LEVEL: u32 = 1;
/// A window whose ratio is below this is degenerate.
pub const DEGENERATE_BELOW: f64 = 0.08;

/// One window: bytes `start..end`, compressed to `ratio` of its size.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    pub start: usize,
    pub end: usize,
    pub ratio: f64,
}

/// The ratio along the text, and the onset of a degenerate end.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    pub window: usize,
    pub windows: Vec<Window>,
    pub onset: Option<usize>,
    pub min_ratio: f64,
}

/// The profile of `text` with the default window and threshold.
pub fn profile(text: &str) -> Profile {
    profile_with(text, WINDOW, DEGENERATE_BELOW)
}

/// The profile of `text` with windows of `window` bytes, degenerate below `below`.
pub fn profile_with(text: &str, window: usize, below: f64) -> Profile {
    let mut bounds = Vec::new();
    let mut s = 0;
    while s < text.len() {
        let mut e = floor_boundary(text, (s + window).min(text.len()));
        if e <= s {
            e = ceil_boundary(text, s + 1);
        }
        if text.len() - e < window / 4 {
            e = text.len();
        }
        bounds.push((s, e));
        s = e;
    }
    let windows: Vec<Window> = bounds
        .into_iter()
        .map(|(start, end)| Window { start, end, ratio: window_ratio(&text.as_bytes()[start..end]) })
        .collect();
    let min_ratio = windows.iter().map(|w| w.ratio).fold(1.0, f64::min);
    let first_bad = windows.iter().rposition(|w| w.ratio >= below).map_or(0, |i| i + 1);
    let onset = (first_bad < windows.len()).then(|| {
        let hi = windows[first_bad].start;
        if first_bad == 0 {
            return 0;
        }
        // Smallest start in the good window before whose window-sized stretch is degenerate.
        let (mut lo, mut hi) = (windows[first_bad - 1].start, hi);
        while hi - lo > window / 64 {
            let mid = floor_boundary(text, lo + (hi - lo) / 2);
            if mid <= lo {
                break;
            }
            let end = floor_boundary(text, (mid + window).min(text.len()));
            if window_ratio(&text.as_bytes()[mid..end]) < below {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    });
    Profile { window, windows, onset, min_ratio }
}

/// A window's raw-DEFLATE ratio at [`LEVEL`], from this thread's reused counter (see
/// `gzip_ratio::counted_size`); 1.0 for no bytes.
fn window_ratio(bytes: &[u8]) -> f64 {
    if bytes.is_empty() {
        return 1.0;
    }
    counted_size(LEVEL as u8, CompressionStrategy::Default, bytes) as f64 / bytes.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prose(len: usize) -> String {
        let words = ["kernel", "page", "the", "of", "scheduler", "memory", "latency", "a", "thread", "cache", "disk"];
        let mut s = String::new();
        let mut x: u64 = 7;
        while s.len() < len {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s.push_str(words[(x >> 33) as usize % words.len()]);
            s.push(if (x >> 20).is_multiple_of(11) { '\n' } else { ' ' });
        }
        s
    }

    #[test]
    fn a_loop_after_prose_has_an_onset_within_a_window() {
        let head = prose(20_000);
        let text = format!("{head}{}", "Let me check the file again. ".repeat(1000));
        let p = profile(&text);
        let onset = p.onset.unwrap();
        assert!(onset.abs_diff(head.len()) < WINDOW, "onset {onset}, loop from {}", head.len());
        assert!(p.windows.first().unwrap().ratio > 0.2 && p.min_ratio < 0.05, "{p:?}");
    }

    #[test]
    fn prose_has_no_onset_and_a_loop_from_the_start_has_onset_0() {
        assert_eq!(profile(&prose(30_000)).onset, None);
        assert_eq!(profile(&"ab".repeat(10_000)).onset, Some(0));
        assert_eq!(profile("").onset, None);
        let w = profile(&"é".repeat(5000)).windows;
        assert!(w.iter().all(|w| w.start < w.end && w.end - w.start <= WINDOW + WINDOW / 4));
    }
}
