//! maxrun: the longest run of identical consecutive words (the seed's first heuristic).
//!
//! Value: a count of words, 0 for a text without words. A run of `k` identical words means the
//! same whitespace-separated token came `k` times in a row ("the the the …" has one run as long
//! as the loop). Coherent prose stays at 1 or 2. The seed WARNs at 6 and FAILs at 12.
//! Every run at or above the WARN threshold is reported as a span from its first word to its
//! last, so the page can highlight it.
//!
//! The scan is incremental: [`RunScanner::scan`] takes the next complete stretch of words and
//! keeps the open run across calls, so a streamed text is never rescanned.

use super::text_units::{end_of_last, is_py_whitespace, words};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Flagged runs kept at most; the rest are counted (`Report::spans_not_listed`).
pub const MAX_WORD_RUNS: usize = 2_000;

/// What the word scan has seen of a text: the scanner, the runs it flagged (at most
/// [`MAX_WORD_RUNS`], the rest counted) and where it stopped, just after the last whitespace
/// character (serde: the page's second worker scans a long text's words, see
/// [`super::side_passes`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordScan {
    pub runs: RunScanner,
    pub flagged: Vec<WordRun>,
    pub not_listed: usize,
    pub done: usize,
}

impl WordScan {
    /// The words of a whole text scanned, runs of `min_flag` words or more flagged.
    pub fn of(text: &str, min_flag: usize) -> WordScan {
        let mut scan = WordScan::default();
        scan.scan(text, 0, min_flag);
        scan
    }

    /// Whether this could be a scan of `text`: every place it holds is a character boundary
    /// in it (a scan read back from elsewhere is checked before it is trusted).
    pub fn fits(&self, text: &str) -> bool {
        let r = &self.runs;
        let at = |i: usize| text.is_char_boundary(i);
        let range = |a: usize, b: usize| a <= b && at(a) && at(b);
        let runs = self.flagged.iter().all(|w| range(w.start, w.end) && range(w.word.start, w.word.end));
        runs && at(self.done)
            && r.prev.is_none_or(|(a, b)| range(a, b))
            && at(r.run_start)
            && range(r.best_start, r.best_end)
            && range(r.best_word.0, r.best_word.1)
    }

    /// Scans every word that `text[from..]` completes (the text before `from` was scanned
    /// already).
    pub fn scan(&mut self, text: &str, from: usize, min_flag: usize) {
        if let Some(end) = end_of_last(text, from..text.len(), is_py_whitespace) {
            self.runs.scan(text, self.done..end, min_flag, &mut self.flagged);
            cap_runs(&mut self.flagged, &mut self.not_listed);
            self.done = end;
        }
    }
}

/// Keeps at most [`MAX_WORD_RUNS`] of `flagged`, adding how many it drops to `not_listed`.
pub fn cap_runs(flagged: &mut Vec<WordRun>, not_listed: &mut usize) {
    if flagged.len() > MAX_WORD_RUNS {
        *not_listed += flagged.len() - MAX_WORD_RUNS;
        flagged.truncate(MAX_WORD_RUNS);
    }
}

/// A run of identical consecutive words: bytes `start..end` of the text, `count` words long,
/// each word equal to `text[word]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordRun {
    pub start: usize,
    pub end: usize,
    pub count: usize,
    pub word: Range<usize>,
}

/// Scanning state between calls. Small and `Copy`, so a report can finish a copy of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunScanner {
    prev: Option<(usize, usize)>,
    run_start: usize,
    run_len: usize,
    best_len: usize,
    best_start: usize,
    best_end: usize,
    best_word: (usize, usize),
}

impl RunScanner {
    /// Scans the words of `text[range]`; `range` must start where a word may start (at the
    /// start of the text or after whitespace) and must not cut a word. Runs that close with
    /// `min_flag` words or more are appended to `flagged`.
    pub fn scan(&mut self, text: &str, range: Range<usize>, min_flag: usize, flagged: &mut Vec<WordRun>) {
        let b = text.as_bytes();
        for w in words(text, range) {
            match self.prev {
                Some((ps, pe)) if b[ps..pe] == b[w.clone()] => self.run_len += 1,
                _ => {
                    self.close(min_flag, flagged);
                    self.run_start = w.start;
                    self.run_len = 1;
                }
            }
            self.prev = Some((w.start, w.end));
            if self.run_len > self.best_len {
                self.best_len = self.run_len;
                self.best_start = self.run_start;
                self.best_end = w.end;
                self.best_word = (w.start, w.end);
            }
        }
    }

    /// Ends the text: reports the open run if it is long enough.
    pub fn finish(mut self, min_flag: usize, flagged: &mut Vec<WordRun>) -> Option<WordRun> {
        self.close(min_flag, flagged);
        self.longest()
    }

    fn close(&mut self, min_flag: usize, flagged: &mut Vec<WordRun>) {
        if let Some((ps, pe)) = self.prev {
            if self.run_len >= min_flag {
                flagged.push(WordRun { start: self.run_start, end: pe, count: self.run_len, word: ps..pe });
            }
        }
        self.run_len = 0;
        self.prev = None;
    }

    /// The longest run so far (the first one, on a tie), or `None` before the first word.
    pub fn longest(&self) -> Option<WordRun> {
        (self.best_len > 0).then_some(WordRun {
            start: self.best_start,
            end: self.best_end,
            count: self.best_len,
            word: self.best_word.0..self.best_word.1,
        })
    }
}

/// One-shot maxrun over a whole text (0 when it has no words).
pub fn maxrun(text: &str) -> usize {
    let mut s = RunScanner::default();
    s.scan(text, 0..text.len(), usize::MAX, &mut Vec::new());
    s.longest().map_or(0, |r| r.count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(text: &str, min: usize) -> (usize, Vec<(usize, usize, usize)>) {
        let mut s = RunScanner::default();
        let mut f = Vec::new();
        s.scan(text, 0..text.len(), min, &mut f);
        let best = s.finish(min, &mut f).map_or(0, |r| r.count);
        (best, f.into_iter().map(|r| (r.start, r.end, r.count)).collect())
    }

    #[test]
    fn counts_the_longest_run() {
        assert_eq!(maxrun(""), 0);
        assert_eq!(maxrun("a"), 1);
        assert_eq!(maxrun("a b a b"), 1);
        assert_eq!(maxrun("x a a a y a a"), 3);
        assert_eq!(maxrun(&"the ".repeat(4000)), 4000);
    }

    #[test]
    fn flags_each_long_run_with_its_span() {
        let t = "go go go stop go go";
        assert_eq!(runs(t, 2), (3, vec![(0, 8, 3), (14, 19, 2)]));
        assert_eq!(runs(t, 3), (3, vec![(0, 8, 3)]));
    }

    #[test]
    fn a_run_continues_across_scans() {
        let t = "a a a a b";
        let mut s = RunScanner::default();
        let mut f = Vec::new();
        s.scan(t, 0..4, 3, &mut f);
        s.scan(t, 4..t.len(), 3, &mut f);
        assert_eq!(s.finish(3, &mut f).unwrap().count, 4);
        assert_eq!(f, vec![WordRun { start: 0, end: 7, count: 4, word: 6..7 }]);
    }
}
