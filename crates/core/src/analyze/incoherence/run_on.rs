//! Sentences that never end: a model whose attention is broken strings clause after clause —
//! `and`, `which`, `so that`, `because` — without ever writing a stop, on and on in one line.
//! People's longest sentences stop far sooner: 147 words at most in 365,000 words of Python's
//! docstrings, 123 in the GNU licences, 67 in the READMEs of this workspace's dependencies
//! (counted in paragraphs, wrapped lines joined); a model writing Markdown ends a line, a list
//! item or a heading long before that.
//!
//! A *run-on* is a stretch of words with no sentence end: no word ending with `.`, `!`, `?`,
//! `;`, `:` or `…` (quotes and brackets after it aside), and no line break — a line break ends
//! it too, so that wrapped prose, lists, headings, tables and poems written without stops are
//! never one. Judged in English text, outside code blocks and inline code, and only where
//! function words are at least [`MIN_FUNCTION_SHARE`] of its words: a line of keywords,
//! identifiers or names is not a sentence (and words of no language are `no_language`'s).

use super::char_set::CharSet;
use super::function_words::is_function_word;
use super::swar::{all_bytes, any_bytes, eq, letter};
use super::word_salad::{head, is_english};
use super::words::words;
use std::ops::Range;

/// A run-on: its bytes, its first word's index among the text's words (whitespace-separated)
/// and its length in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOn {
    pub range: Range<usize>,
    pub index: usize,
    pub words: usize,
}

/// The least share of function words in a run-on: English prose spends 30 to 50 % of its words
/// on them; a line of keywords or names, a few.
pub const MIN_FUNCTION_SHARE: f64 = 0.25;

/// A token without the characters that are not letters at its ends (as
/// `token.trim_matches(|c: char| !c.is_alphabetic())`), its ASCII ends trimmed byte by byte.
fn letters(token: &str) -> &str {
    let b = token.as_bytes();
    let not_letter = |c: u8| c < 0x80 && !c.is_ascii_alphabetic();
    let mut from = 0;
    while from < b.len() && not_letter(b[from]) {
        from += 1;
    }
    let mut to = b.len();
    while to > from && not_letter(b[to - 1]) {
        to -= 1;
    }
    // Both ends are character boundaries (next to ASCII bytes, or the token's ends); ASCII
    // bytes left at both ends are letters, and nothing more is trimmed.
    let core = &token[from..to];
    if from == to || (b[from] < 0x80 && b[to - 1] < 0x80) {
        return core;
    }
    core.trim_matches(|c: char| !c.is_alphabetic())
}

/// What may follow a sentence's end in its last token…
const AFTER_STOP: CharSet = CharSet::new(&['"', '\'', ')', ']', '”', '’', '»', '*', '_']);
/// …and what ends a sentence.
const STOPS: CharSet = CharSet::new(&['.', '!', '?', ';', ':', '…', '。', '！', '？']);

/// Whether a whitespace-separated token ends a sentence.
fn ends_sentence(token: &str) -> bool {
    STOPS.ends(AFTER_STOP.trim_end(token))
}

/// Whether a run says little: under [`MIN_DISTINCT`] of its first [`DISTINCT_WORDS`] words are
/// distinct (a phrase said again and again with no stop is a loop, the loop check's to judge).
fn says_little(run: &str) -> bool {
    let words: Vec<&str> = run.split_whitespace().take(DISTINCT_WORDS).collect();
    let mut distinct = words.clone();
    distinct.sort_unstable();
    distinct.dedup();
    (distinct.len() as f64) < MIN_DISTINCT * words.len() as f64
}

/// A run's distinct words are counted among its first this many…
pub const DISTINCT_WORDS: usize = 256;
/// …and at least this share of them are distinct (English prose: about half; a loop of a
/// ten-word phrase: a few percent).
pub const MIN_DISTINCT: f64 = 0.25;

/// The run-ons of `text` of at least `min_words` words, in order, and the number of its words.
pub fn run_ons(text: &str, min_words: usize) -> (Vec<RunOn>, usize) {
    let mut out = Vec::new();
    let mut n_words = 0;
    if !is_english(head(text, 1 << 18)) {
        return (out, words(text).count());
    }
    let blocks = super::super::code_blocks::fenced_blocks(text);
    let mut block = 0;
    // The run so far: its first word's start and index, its words and function words, its end.
    let mut run: Option<(usize, usize, usize, usize, usize)> = None;
    let close = |run: &mut Option<(usize, usize, usize, usize, usize)>, out: &mut Vec<RunOn>| {
        if let Some((start, index, n, functions, end)) = run.take() {
            if n >= min_words.max(1)
                && functions as f64 >= MIN_FUNCTION_SHARE * n as f64
                && !says_little(&text[start..end])
            {
                out.push(RunOn { range: start..end, index, words: n });
            }
        }
    };
    let mut in_code = false;
    let mut last_end = 0;
    for (start, t) in words(text) {
        // A line break ends a run too (and inline code).
        if text.as_bytes()[last_end..start].contains(&b'\n') {
            close(&mut run, &mut out);
            in_code = false;
        }
        let end = start + t.len();
        last_end = end;
        let index = n_words;
        n_words += 1;
        while blocks.get(block).is_some_and(|b| b.end <= start) {
            block += 1;
        }
        if blocks.get(block).is_some_and(|b| b.contains(&start)) {
            close(&mut run, &mut out);
            continue;
        }
        // Words inside inline code are quoted code, not the sentence's function words.
        // A token of ASCII letters (most) has no backtick, is its own letters and ends no
        // sentence.
        let plain = all_bytes(t.as_bytes(), letter);
        let ticks = if !plain && any_bytes(t.as_bytes(), |x| eq(x, b'`')) {
            t.bytes().filter(|&b| b == b'`').count()
        } else {
            0
        };
        let quoted = in_code || ticks > 0;
        in_code ^= ticks % 2 == 1;
        let function = !quoted && is_function_word(if plain { t } else { letters(t) });
        let r = run.get_or_insert((start, index, 0, 0, end));
        r.2 += 1;
        r.3 += function as usize;
        r.4 = end;
        if !plain && ends_sentence(t) {
            close(&mut run, &mut out);
        }
    }
    close(&mut run, &mut out);
    (out, n_words)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clause of 12 words, five of them new in every clause (a run of one clause said again
    /// is a loop, not a run-on).
    fn clause(i: usize) -> String {
        format!("the server{i} that handles request {i} writes answer{i} to the cache{i} and")
    }

    #[test]
    fn letters_trims_as_trim_matches_does() {
        for t in ["the", "xyzzy", "The", "API", "eXtra"] {
            assert_eq!(letters(t), t);
            assert!(!ends_sentence(t));
        }
        for t in ["", "'", "(the)", "don't", "«mot»", "«»", "“x”", "(é)", "é.", ".é", "1a2", "—and—", "a\u{301}", "’s"]
        {
            assert_eq!(letters(t), t.trim_matches(|c: char| !c.is_alphabetic()), "{t:?}");
        }
    }

    #[test]
    fn a_sentence_that_never_ends_is_found_from_its_first_word() {
        let run_on: String = (0..30).map(clause).collect::<Vec<_>>().join(" ");
        let text = format!("The first sentence ends. Then {run_on} so on\nA new line.");
        let (found, _) = run_ons(&text, 100);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].range.start, text.find("Then").unwrap());
        assert_eq!(&text[found[0].range.clone()].split_whitespace().last(), &Some("on"));
        assert_eq!(found[0].words, 3 + 30 * 12);
        assert_eq!(found[0].index, 4);
    }

    #[test]
    fn stops_line_breaks_code_and_keyword_lines_end_or_are_not_runs() {
        let clauses: Vec<String> = (0..30).map(clause).collect();
        // A stop, a colon, a semicolon in every few clauses.
        let stopped = clauses.chunks(3).map(|c| c.join(" ") + " done.").collect::<Vec<_>>().join(" ");
        // Wrapped: a line break every dozen words.
        let wrapped = clauses.join("\n");
        let code = format!("```\n{}\n```", clauses.join(" "));
        let inline = clauses.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" ");
        let keywords = (0..400).map(|i| format!("term{i}")).collect::<Vec<_>>().join(" ");
        for text in [stopped, wrapped, code, keywords] {
            assert_eq!(run_ons(&text, 100).0, Vec::new(), "{text}");
        }
        // Inline code does not end a sentence; its words are not function words.
        assert!(run_ons(&inline, 100).0.is_empty());
        assert!(run_ons("", 1).0.is_empty());
    }
}
