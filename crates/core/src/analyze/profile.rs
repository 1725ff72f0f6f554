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
use miniz_oxide::deflate::core::CompressionStrategy;
use serde::{Deserialize, Serialize};

/// Bytes per window.
pub const WINDOW: usize = 4096;
/// DEFLATE level of the windows (fast: the ratio of a loop is tiny at any level).
pub const LEVEL: u32 = 1;
/// A window whose ratio is below this is degenerate.
pub const DEGENERATE_BELOW: f64 = 0.08;

/// One window: bytes `start..end`, compressed to `ratio` of its size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Window {
    pub start: usize,
    pub end: usize,
    pub ratio: f64,
}

/// The ratio along the text, and the onset of a degenerate end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    let mut builder = ProfileBuilder::with(text.len(), window, below);
    builder.feed(text.as_bytes());
    builder.finish().expect("the whole text was fed")
}

/// The profile of a text fed in pieces, for a text read from a file beside its analysis (the
/// page's second worker): [`ProfileBuilder::finish`] gives what [`profile_with`] gives for the
/// pieces joined, wherever they are cut. It needs the text's length in advance (the last
/// window joins the one before when it would be short) and holds about two windows of it.
#[derive(Clone, Debug)]
pub struct ProfileBuilder {
    len: usize,
    window: usize,
    below: f64,
    fed: usize,
    /// Where the next window starts (bytes before it are profiled).
    at: usize,
    /// The bytes from `at` that arrived in pieces too short to profile yet.
    pending: Vec<u8>,
    windows: Vec<Window>,
    /// The last window's bytes while it is not degenerate.
    last_good: Vec<u8>,
    /// The last turn from a window that is not degenerate to one that is: the bytes of both
    /// (from the first's start), for placing the onset within them if the text stays degenerate.
    turn: Option<Vec<u8>>,
}

impl ProfileBuilder {
    /// A builder for a text of `len` bytes, with the default window and threshold.
    pub fn new(len: usize) -> Self {
        Self::with(len, WINDOW, DEGENERATE_BELOW)
    }

    /// A builder for a text of `len` bytes, windows of `window` bytes, degenerate below `below`.
    pub fn with(len: usize, window: usize, below: f64) -> Self {
        let window = window.max(1);
        Self {
            len,
            window,
            below,
            fed: 0,
            at: 0,
            pending: Vec::new(),
            windows: Vec::with_capacity(len.div_ceil(window)),
            last_good: Vec::new(),
            turn: None,
        }
    }

    /// Profiles the next piece of the text (bytes past its announced length are counted, not
    /// profiled: [`ProfileBuilder::finish`] then says the text was not the one announced).
    pub fn feed(&mut self, piece: &[u8]) {
        self.fed += piece.len();
        let room = self.len.saturating_sub(self.at + self.pending.len());
        let mut piece = &piece[..piece.len().min(room)];
        while !self.pending.is_empty() && !piece.is_empty() {
            // Top the held bytes up to what their next window needs, then profile them.
            let take = self.needed().saturating_sub(self.pending.len()).min(piece.len());
            self.pending.extend_from_slice(&piece[..take]);
            let mut pending = std::mem::take(&mut self.pending);
            let used = self.profile_from(&pending);
            let left = pending.len() - used;
            if left <= take {
                // What is left came from this piece: go on from there in the piece itself.
                piece = &piece[take - left..];
                pending.clear();
            } else {
                pending.drain(..used);
                piece = &piece[take..];
            }
            self.pending = pending;
        }
        if self.pending.is_empty() {
            let used = self.profile_from(piece);
            self.pending.extend_from_slice(&piece[used..]);
        }
    }

    /// Bytes fed so far.
    pub fn bytes(&self) -> usize {
        self.fed
    }

    /// The profile of the text fed; `None` when the bytes fed were not the announced length.
    pub fn finish(mut self) -> Option<Profile> {
        if self.fed != self.len {
            return None;
        }
        let pending = std::mem::take(&mut self.pending);
        let used = self.profile_from(&pending);
        debug_assert_eq!(used, pending.len(), "the last window takes the rest");
        let below = self.below;
        let windows = self.windows;
        let min_ratio = windows.iter().map(|w| w.ratio).fold(1.0, f64::min);
        let first_bad = windows.iter().rposition(|w| w.ratio >= below).map_or(0, |i| i + 1);
        let onset = (first_bad < windows.len()).then(|| {
            if first_bad == 0 {
                return 0;
            }
            let (before, bad) = (&windows[first_bad - 1], &windows[first_bad]);
            // The turn kept is the last one, which is this one: the text stayed degenerate.
            let bytes = self.turn.as_deref().unwrap_or_default();
            let base = before.start;
            let at = |i: usize| bytes.get(i - base).copied();
            let boundary = |i: usize| i == self.len || i == bad.end || at(i).is_some_and(is_char_start);
            let floor = |i: usize| {
                let mut i = i;
                while i > base && !boundary(i) {
                    i -= 1;
                }
                i
            };
            // Smallest start in the good window before whose window-sized stretch is degenerate.
            let (mut lo, mut hi) = (base, bad.start);
            while hi - lo > self.window / 64 {
                let mid = floor(lo + (hi - lo) / 2);
                if mid <= lo {
                    break;
                }
                let end = floor((mid + self.window).min(self.len)).min(bad.end);
                let stretch = bytes.get(mid - base..end - base).unwrap_or_default();
                if window_ratio(stretch) < below {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            hi
        });
        Some(Profile { window: self.window, windows, onset, min_ratio })
    }

    /// Bytes from `at` the next window needs before it can be cut: a window and a few bytes
    /// past it (to find a character boundary), or the rest of the text when the next window
    /// may be the last.
    fn needed(&self) -> usize {
        let rest = self.len - self.at;
        let enough = self.window + self.window / 4 + 8;
        if rest <= enough {
            rest
        } else {
            self.window + 5
        }
    }

    /// Profiles the whole windows at the start of `bytes` (the text from `at`); returns how
    /// many bytes they took.
    fn profile_from(&mut self, bytes: &[u8]) -> usize {
        let mut used = 0;
        while self.at < self.len {
            let rest = &bytes[used..];
            if rest.len() < self.needed() {
                break;
            }
            let s = self.at;
            let boundary = |i: usize| i == self.len || rest.get(i - s).copied().is_some_and(is_char_start);
            let mut e = (s + self.window).min(self.len);
            while e > s && !boundary(e) {
                e -= 1;
            }
            if e <= s {
                e = s + 1;
                while !boundary(e) {
                    e += 1;
                }
            }
            if self.len - e < self.window / 4 {
                e = self.len;
            }
            let own = &rest[..e - s];
            let ratio = window_ratio(own);
            if ratio < self.below {
                if self.windows.last().is_none_or(|w| w.ratio >= self.below) {
                    let mut turn = std::mem::take(&mut self.last_good);
                    turn.extend_from_slice(own);
                    self.turn = Some(turn);
                }
            } else {
                self.turn = None;
                self.last_good.clear();
                self.last_good.extend_from_slice(own);
            }
            self.windows.push(Window { start: s, end: e, ratio });
            used += e - s;
            self.at = e;
        }
        used
    }
}

/// Whether a byte starts a character (in UTF-8: not a continuation byte).
fn is_char_start(b: u8) -> bool {
    (b as i8) >= -0x40
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
    use std::collections::BTreeSet;

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

    /// The profile as it was made before it could be fed in pieces: the whole text at once,
    /// every boundary found in the text itself. The oracle of the builder.
    fn naive_profile(text: &str, window: usize, below: f64) -> Profile {
        let mut bounds = Vec::new();
        let mut s = 0;
        while s < text.len() {
            let mut e = crate::analyze::text_units::floor_boundary(text, (s + window).min(text.len()));
            if e <= s {
                e = crate::analyze::text_units::ceil_boundary(text, s + 1);
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
                let mid = crate::analyze::text_units::floor_boundary(text, lo + (hi - lo) / 2);
                if mid <= lo {
                    break;
                }
                let end = crate::analyze::text_units::floor_boundary(text, (mid + window).min(text.len()));
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

    /// Texts that exercise the windows: prose, prose turning into a loop (an onset inside a
    /// window), multi-byte characters at window edges, a loop from the start, short ends.
    fn shapes() -> Vec<String> {
        let head = prose(9_000);
        vec![
            String::new(),
            "x".into(),
            prose(5_000),
            format!("{head}{}", "Let me check the file again. ".repeat(300)),
            format!("{}{}", prose(3_000).replace('e', "é"), "模型在重复。".repeat(800)),
            "ab".repeat(4_000),
            format!("{}{}", "abc".repeat(900), prose(2_000)),
            "😂".repeat(700),
            // Degenerate, then not, then degenerate again: the onset is in the second turn.
            format!("{}{}{}", "ab".repeat(2_500), prose(5_000), "xy z".repeat(1_200)),
        ]
    }

    fn fed_in(text: &str, window: usize, below: f64, cuts: &[usize]) -> Option<Profile> {
        let mut b = ProfileBuilder::with(text.len(), window, below);
        let mut from = 0;
        for &cut in cuts.iter().chain([&text.len()]) {
            b.feed(&text.as_bytes()[from..cut]);
            from = cut;
        }
        b.finish()
    }

    #[test]
    fn a_text_fed_in_two_pieces_has_the_profile_of_the_whole_wherever_it_is_cut() {
        for (window, below) in [(WINDOW, DEGENERATE_BELOW), (512, 0.2), (3, 0.5), (1, 0.9)] {
            for text in shapes() {
                let text =
                    &text[..crate::analyze::text_units::floor_boundary(&text, if window < 16 { 160 } else { 12_000 })];
                let whole = naive_profile(text, window, below);
                assert_eq!(profile_with(text, window, below), whole, "window {window}");
                // Every offset near a window's edge (where a piece may end a window or not),
                // and a spread of the others.
                let near_edges =
                    (0..=text.len().min(3 * window + 7)).filter(|c| (c % window).min(window - c % window) <= 5);
                let n = text.len();
                let last_edges = [n.saturating_sub(window + window / 4 + 8), n.saturating_sub(window / 4), n]
                    .into_iter()
                    .flat_map(|c| c.saturating_sub(5)..=(c + 5).min(n));
                let cuts: BTreeSet<usize> = near_edges.chain(last_edges).chain((0..=text.len()).step_by(211)).collect();
                for cut in cuts {
                    assert_eq!(
                        fed_in(text, window, below, &[cut]).as_ref(),
                        Some(&whole),
                        "window {window}, cut at {cut}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_text_fed_in_many_pieces_has_the_profile_of_the_whole() {
        for text in shapes() {
            let whole = naive_profile(&text, 512, 0.2);
            for piece in [1, 2, 5, 511, 512, 513, 517, 640, 1_000, 4_099] {
                let cuts: Vec<usize> = (piece..text.len()).step_by(piece).collect();
                assert_eq!(fed_in(&text, 512, 0.2, &cuts), Some(whole.clone()), "pieces of {piece}");
            }
        }
    }

    #[test]
    fn a_text_shorter_or_longer_than_announced_has_no_profile() {
        let text = prose(10_000);
        let mut short = ProfileBuilder::new(text.len() + 1);
        short.feed(text.as_bytes());
        assert_eq!(short.bytes(), text.len());
        assert_eq!(short.finish(), None);
        let mut long = ProfileBuilder::new(text.len() - 1);
        long.feed(text.as_bytes());
        assert_eq!(long.finish(), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]
        #[test]
        fn any_text_in_any_pieces_has_the_profile_of_the_whole(
            unit in "[a-cé模 ]{1,9}", repeats in 1usize..900, head in 0usize..3_000,
            window in 16usize..700, cuts in proptest::collection::vec(0usize..12_000, 0..12),
        ) {
            let text = format!("{}{}", prose(head), unit.repeat(repeats));
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(text.len())).collect();
            cuts.sort_unstable();
            let whole = naive_profile(&text, window, 0.2);
            proptest::prop_assert_eq!(fed_in(&text, window, 0.2, &cuts), Some(whole));
        }
    }
}
