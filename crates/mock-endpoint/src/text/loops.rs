//! The loops a collapsing model falls into (a word, a line, prose that turns into a line
//! loop), cut at an exact number of words.

use super::prose::coherent;

/// The first `n` words of `text` with the whitespace between them (none after the last).
pub fn take_words(text: &str, n: usize) -> &str {
    if n == 0 {
        return "";
    }
    let mut seen = 0;
    let mut in_word = false;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if in_word {
                seen += 1;
                if seen == n {
                    return &text[..i];
                }
            }
            in_word = false;
        } else {
            in_word = true;
        }
    }
    text
}

/// `words` words of a word loop: a coherent lead-in, then one word over and over.
pub fn word_loop(seed: u64, words: usize) -> String {
    let lead = coherent(seed, words.min(80));
    let text = format!("{lead} and then the reclaim thread evicts {}", "evicted ".repeat(words));
    take_words(&text, words).to_string()
}

/// A line a model gets stuck on; `n` words of: one short line, then that line repeated.
pub fn line_loop(words: usize) -> String {
    line_loop_of("Let me check the reclaim counters again before answering.", words)
}

/// `line` repeated, one per line, cut at `words` words.
pub fn line_loop_of(line: &str, words: usize) -> String {
    let per = line.split_whitespace().count().max(1);
    let text = format!("{line}\n").repeat(words / per + 1);
    take_words(&text, words).to_string()
}

/// Coherent prose for the first half of `words`, then a line loop.
pub fn late_loop(seed: u64, words: usize) -> String {
    let half = words / 2;
    let lead = coherent(seed, half);
    let tail =
        line_loop_of("The reclaim thread scans the inactive list and evicts the oldest pages first.", words - half);
    format!("{lead}\n\n{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::{analyze, Verdict};

    #[test]
    fn loops_fail() {
        for text in [word_loop(0, 2_000), line_loop(2_000), late_loop(0, 4_000)] {
            assert_eq!(analyze(&text).verdict, Verdict::Fail);
        }
        assert_eq!(late_loop(0, 4_000).split_whitespace().count(), 4_000);
        assert_eq!(word_loop(0, 2_000).split_whitespace().count(), 2_000);
        assert_eq!(line_loop(2_000).split_whitespace().count(), 2_000);
    }

    #[test]
    fn take_words_keeps_inner_whitespace() {
        assert_eq!(take_words("a  b\nc d", 3), "a  b\nc");
        assert_eq!(take_words("a b", 5), "a b");
        assert_eq!(take_words("a b", 0), "");
    }
}
