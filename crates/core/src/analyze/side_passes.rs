//! A text's side passes: the parts of its analysis that read nothing but its bytes and none of
//! the token scorers' work — the seed's gzip-9 size and word scan (maxrun), and the
//! incoherence checks.
//!
//! The page analyses a long text in two workers (wasm has one thread per worker): the first
//! runs the token scorers, the seed's line scan and the windowed profile
//! ([`analyze_without_side_passes`](super::analyze_without_side_passes)), the second reads the
//! file again and counts these ([`SidePassCounter`]), so that both take about as long (timed
//! inside the workers in Chromium on 50 MB of prose; see docs/speed.md: with the word scan in
//! the first, its share ended later in most runs). Natively the same parts run on whichever
//! thread is free first (`analyze_with`).

use super::gzip_ratio::{gzip_size, GzipSizeCounter};
use super::incoherence::{self, IncoherenceFindings};
use super::thresholds::{IncoherenceRules, Thresholds};
use super::word_runs::WordScan;
use serde::{Deserialize, Serialize};

/// A text's gzip-9 size, word scan and incoherence findings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SidePasses {
    pub gzip_bytes: usize,
    pub words: WordScan,
    pub incoherent: IncoherenceFindings,
}

/// The side passes of a whole text against `t`.
pub fn side_passes(text: &str, t: &Thresholds) -> SidePasses {
    SidePasses {
        gzip_bytes: gzip_size(text.as_bytes()),
        words: WordScan::of(text, t.maxrun_warn),
        incoherent: incoherence::find(text, &t.incoherence_rules()),
    }
}

/// The side passes of a text fed in pieces: the gzip-9 size is counted as the pieces come, the
/// word scan and the incoherence checks run on the whole text at [`SidePassCounter::finish`], which gives what
/// [`side_passes`] gives for the pieces joined (for a text longer than
/// [`DUAL_ENCODING_LIMIT`](super::gzip_ratio::DUAL_ENCODING_LIMIT), as [`GzipSizeCounter`]).
pub struct SidePassCounter {
    gzip: GzipSizeCounter,
    len: usize,
    text: Vec<u8>,
    maxrun_warn: usize,
    rules: IncoherenceRules,
}

impl SidePassCounter {
    /// A counter for a text of `len` bytes judged against `t`; `None` when there is not memory
    /// for a copy of it.
    pub fn new(len: usize, t: &Thresholds) -> Option<Self> {
        let mut text = Vec::new();
        text.try_reserve_exact(len).ok()?;
        Some(Self { gzip: GzipSizeCounter::new(), len, text, maxrun_warn: t.maxrun_warn, rules: t.incoherence_rules() })
    }

    /// Counts the next piece.
    pub fn feed(&mut self, piece: &[u8]) {
        self.gzip.feed(piece);
        self.text.extend_from_slice(piece);
    }

    /// The side passes of what was fed; `None` when it was not the length announced or not
    /// UTF-8.
    pub fn finish(self) -> Option<SidePasses> {
        if self.text.len() != self.len {
            return None;
        }
        let text = String::from_utf8(self.text).ok()?;
        Some(SidePasses {
            gzip_bytes: self.gzip.finish(),
            words: WordScan::of(&text, self.maxrun_warn),
            incoherent: incoherence::find(&text, &self.rules),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{analyze_with, analyze_without_side_passes};
    use super::*;
    use crate::analyze::{Metric, Verdict};
    use crate::samples::PROSE;

    /// Long texts of several kinds, each over the dual-encoding limit where the pieces count.
    fn kinds() -> Vec<(&'static str, String)> {
        let loop_line = "Let me check the configuration once more.\n";
        let cjk = "我们在这里讨论缓存和页表的问题，然后检查内存的分配是否正确。这一段说明了原因和结果。";
        let drift = "The stock market opened higher today as investors weighed the central bank's rate path. ";
        vec![
            ("prose", PROSE.repeat(40)),
            ("prose into a loop", format!("{}{}", PROSE.repeat(40), loop_line.repeat(2_000))),
            ("loop", loop_line.repeat(5_000)),
            ("CJK", format!("{}{}", cjk.repeat(1_500), PROSE.repeat(5))),
            ("drift", format!("{}{}", PROSE.repeat(30), drift.repeat(1_500))),
            ("salad", PROSE.split_whitespace().rev().collect::<Vec<_>>().join(" ").repeat(30)),
            // More flagged word runs than are listed (the rest counted), one open at the end.
            (
                "word runs",
                format!("{}{}no no no no no no no", PROSE.repeat(30), "so so so so so so so. ".repeat(2_500)),
            ),
        ]
    }

    #[test]
    fn a_text_analysed_in_two_parts_gets_the_report_of_the_whole() {
        let mut tripped = Vec::new();
        let mut loose = Thresholds::SEED;
        loose.assign("maxline.fail=5000").expect("a setting");
        for (kind, text) in kinds() {
            for t in [Thresholds::default(), loose] {
                let whole = analyze_with(&text, &t);
                let side = side_passes(&text, &t);
                let incoherent = side.incoherent.checks.iter().filter(|c| c.level > Verdict::Pass);
                tripped.extend(incoherent.map(|c| c.metric));
                let split = analyze_without_side_passes(&text, &t).finish(&text, side.clone());
                assert_eq!(split, whole, "{kind}, {} bytes", text.len());
                if kind == "word runs" {
                    assert!(side.words.fits(&text) && side.words.not_listed > 0 && whole.metrics.maxrun >= 7);
                }
                for piece in [4095, 65_536, text.len()] {
                    let mut counter = SidePassCounter::new(text.len(), &t).expect("memory");
                    for chunk in text.as_bytes().chunks(piece) {
                        counter.feed(chunk);
                    }
                    assert_eq!(counter.finish().as_ref(), Some(&side), "{kind} in pieces of {piece} bytes");
                }
            }
        }
        for m in [Metric::Drift, Metric::WordSalad] {
            assert!(tripped.contains(&m), "the incoherence checks' findings travel too: {m:?}");
        }
    }

    #[test]
    fn a_counter_fed_other_bytes_than_announced_gives_nothing() {
        let text = PROSE.repeat(40);
        let t = Thresholds::default();
        let mut short = SidePassCounter::new(text.len() + 1, &t).expect("memory");
        short.feed(text.as_bytes());
        assert_eq!(short.finish(), None, "shorter than announced");
        let mut long = SidePassCounter::new(text.len() - 1, &t).expect("memory");
        long.feed(text.as_bytes());
        assert_eq!(long.finish(), None, "longer than announced");
        let mut broken = SidePassCounter::new(text.len(), &t).expect("memory");
        broken.feed(&text.as_bytes()[..text.len() - 1]);
        broken.feed(b"\xff");
        assert_eq!(broken.finish(), None, "not UTF-8");
    }
}
