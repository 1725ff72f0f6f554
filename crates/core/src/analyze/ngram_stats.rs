//! distinct-n and rep-n for n = 1..4: how varied the text's token n-grams are (shown, not gating).
//!
//! Tokens ([`tokens`]): a run of letters and digits outside the CJK blocks is one token; every
//! other non-whitespace character (a CJK ideograph, kana, hangul, punctuation, an emoji) is a
//! token of its own, so texts without spaces still have tokens. Each token's id is the index
//! of the first token with the same bytes ([`token_ids`]: exact, 4 bytes); an n-gram's id is a
//! 64-bit hash of its token ids ([`ngram_id`]; two different n-grams of m share one with odds
//! of about m²/2⁶⁴).
//!
//! Values, both in 0..=1: distinct-n = unique n-grams / n-grams (1.0 when the text has fewer
//! than n tokens) and rep-n = 1 − distinct-n (Welleck et al., 2019). Coherent prose keeps
//! distinct-4 near 1 at any length while distinct-1 falls as the vocabulary saturates; a loop
//! drives every distinct-n towards 0 (a text that is the same 4-gram 1000 times: distinct-4 =
//! 0.001). They are figures to show beside the verdict: long legit texts (tables, logs) also
//! have a low distinct-1, so no threshold on them would mean "the model is looping".
//!
//! Cost: one pass to tokenise, one table insertion per token and n (a [`FirstSeen`] table of
//! first positions: n-grams are counted distinct by their token ids, exactly). Beyond
//! [`EXACT_UP_TO`] n-grams the sets stop fitting in cache; distinct counts are then estimated
//! from a fixed hash sample (the n-grams whose id is 0 modulo `sample`, a power of two, the
//! count multiplied back; for such counts the standard error is about 1/√(sampled count),
//! well under 1 %). [`NgramStats::sample`] says which: 1 is exact.

use super::first_seen::{FirstSeen, MAX_ITEMS};
use super::text_units::{floor_boundary, is_py_whitespace};
use crate::splitmix::{mix, GOLDEN};
use std::ops::Range;

/// A token: its bytes in the text, `start..end` (u32: 8 bytes a token on every target; the
/// token-level scorers read the first 2 GiB of a text, [`tokens`] stops there). Its id is in the
/// separate vector [`token_ids`] makes, which the scorers share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    start: u32,
    end: u32,
}

impl Token {
    #[inline(always)]
    pub fn new(range: Range<usize>) -> Self {
        Self { start: range.start as u32, end: range.end as u32 }
    }
    #[inline(always)]
    pub fn start(&self) -> usize {
        self.start as usize
    }
    #[inline(always)]
    pub fn end(&self) -> usize {
        self.end as usize
    }
    #[inline(always)]
    pub fn range(&self) -> Range<usize> {
        self.start()..self.end()
    }
}

/// The id of each token of `text`: the index of the first token with the same bytes. Equal
/// tokens have equal ids and different ones different ids, exactly (the bytes are compared),
/// in 4 bytes a token.
pub fn token_ids(text: &str, toks: &[Token]) -> Vec<u32> {
    let bytes_of = |k: u32| &text.as_bytes()[toks[k as usize].range()];
    let mut vocabulary = FirstSeen::default();
    let mut ids = Vec::with_capacity(toks.len());
    for (k, t) in toks.iter().enumerate() {
        let own = &text.as_bytes()[t.range()];
        let k = k as u32;
        let first = vocabulary.find_or_insert(hash_bytes(own), k, |j| bytes_of(j) == own, |j| hash_bytes(bytes_of(j)));
        ids.push(first.unwrap_or(k));
    }
    ids
}

/// Ideographs, kana, hangul, full-width forms: scripts written without spaces between words.
#[inline(always)]
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{2e80}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{f900}'..='\u{faff}' | '\u{ff00}'..='\u{ffef}'
            | '\u{20000}'..='\u{2ffff}')
}

#[inline(always)]
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// Calls `visit` with each token's byte range in `text`, in order, in its first 2 GiB
/// ([`MAX_ITEMS`] bytes: a token or shingle number fits a [`FirstSeen`] table). ASCII bytes
/// are classed without decoding a character (the same classes: an ASCII letter or digit is a
/// word character, Python's ASCII whitespace is whitespace).
#[inline(always)]
fn each_token(text: &str, mut visit: impl FnMut(Range<usize>)) {
    let text = &text[..floor_boundary(text, MAX_ITEMS - 1)];
    let bytes = text.as_bytes();
    let mut word_start: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (word, space, len) = if b.is_ascii() {
            (b.is_ascii_alphanumeric(), matches!(b, b'\t'..=b'\r' | 0x1c..=0x1f | b' '), 1)
        } else {
            let c = text[i..].chars().next().unwrap_or_default();
            (is_word_char(c), is_py_whitespace(c), c.len_utf8())
        };
        if word {
            word_start.get_or_insert(i);
        } else {
            if let Some(s) = word_start.take() {
                visit(s..i);
            }
            if !space {
                visit(i..i + len);
            }
        }
        i += len;
    }
    if let Some(s) = word_start {
        visit(s..text.len());
    }
}

/// The bytes of the tokens numbered `wanted` (sorted, no repeats), in that order: found by
/// one tokenising pass that does not keep the tokens.
pub fn token_ranges_at(text: &str, wanted: &[usize]) -> Vec<Range<usize>> {
    let mut ranges = Vec::with_capacity(wanted.len());
    let mut k = 0;
    each_token(text, |r| {
        if ranges.len() < wanted.len() && wanted[ranges.len()] == k {
            ranges.push(r);
        }
        k += 1;
    });
    ranges
}

/// The tokens of `text`, in order (see the module header), in a vector of exactly their number
/// (counted first: on a long text a vector grown by doubling would hold up to twice the room,
/// and three times while it moves).
pub fn tokens(text: &str) -> Vec<Token> {
    let mut count = 0;
    each_token(text, |_| count += 1);
    let mut out = Vec::with_capacity(count);
    each_token(text, |r| out.push(Token::new(r)));
    out
}

/// What a token is, for telling data from a loop: a number (it starts with a digit: "42",
/// "0x1F", "01T12", "3rd"), a word (two letters or more, or one CJK character), or anything
/// else (a single Latin letter, a punctuation mark, an emoji).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenClass {
    Number,
    Word,
    Other,
}

/// The class of one token's text.
pub fn token_class(token: &str) -> TokenClass {
    let mut chars = token.chars();
    match chars.next() {
        Some(c) if c.is_ascii_digit() => TokenClass::Number,
        Some(c) if is_cjk(c) && c.is_alphabetic() => TokenClass::Word,
        Some(c) if c.is_alphabetic() && chars.next().is_some() => TokenClass::Word,
        _ => TokenClass::Other,
    }
}

/// Each token's class, by token number (1 byte a token).
pub fn token_classes(text: &str, toks: &[Token]) -> Vec<TokenClass> {
    toks.iter().map(|t| token_class(&text[t.range()])).collect()
}

/// A 64-bit hash of `bytes` (FNV-1a, then a splitmix finaliser so every bit is mixed).
#[inline(always)]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    mix(h)
}

/// The id of the n-gram of `ids` (order matters): a 64-bit hash.
#[inline(always)]
pub fn ngram_id(ids: &[u32]) -> u64 {
    let mut h = GOLDEN;
    for &id in ids {
        h = mix(h.rotate_left(17) ^ u64::from(id));
    }
    h
}

/// distinct-n and rep-n for n = 1..=4 (index n − 1).
#[derive(Clone, Debug, PartialEq)]
pub struct NgramStats {
    pub tokens: usize,
    /// 1: every n-gram counted; k > 1: distinct counts estimated from 1 n-gram id in k.
    pub sample: usize,
    pub distinct: [f64; 4],
    pub rep: [f64; 4],
    /// Distinct n-grams (estimated from the sample), n = 1..=4: with them the other scorers'
    /// tables of n-grams are sized for what a text holds, not for every position (a loop of
    /// 20 million tokens has a handful of distinct 8-grams).
    pub distinct_count: [usize; 4],
}

/// The n-gram figures of `text`.
pub fn ngram_stats(text: &str) -> NgramStats {
    let ids = token_ids(text, &tokens(text));
    ngram_stats_of(&ids)
}

/// Exact distinct counts up to this many n-grams; sampled beyond.
pub const EXACT_UP_TO: usize = 1 << 20;

/// The n-gram figures of a token-id sequence.
pub fn ngram_stats_of(ids: &[u32]) -> NgramStats {
    ngram_stats_sampled(ids, ids.len().div_ceil(EXACT_UP_TO).next_power_of_two())
}

/// The n-gram figures counting only n-grams whose id is 0 modulo `sample` (a power of two).
pub fn ngram_stats_sampled(ids: &[u32], sample: usize) -> NgramStats {
    let mask = sample as u64 - 1;
    let mut distinct = [1.0; 4];
    let mut distinct_count = [0; 4];
    // Ids are numbered in order of first occurrence: the vocabulary is the largest one + 1, and
    // there are at most (distinct (n−1)-grams × vocabulary) distinct n-grams.
    let vocabulary = ids.iter().max().map_or(0, |&m| m as usize + 1);
    let mut bound = 1usize;
    for (k, d) in distinct.iter_mut().enumerate() {
        let n = k + 1;
        if ids.len() < n {
            break;
        }
        bound = bound.saturating_mul(vocabulary);
        // The distinct n-grams among the sampled ones: a table of each one's first position.
        let distinct_sampled = if n == 1 {
            // A token's id is its first occurrence: the distinct tokens are those at their own.
            ids.iter().enumerate().filter(|&(at, &id)| at == id as usize && ngram_id(&[id]) & mask == 0).count()
        } else {
            let capacity = (bound / sample + 16).min(ids.len() / sample + 16).min(ids.len());
            match n {
                2 => distinct_grams::<2>(ids, mask, capacity),
                3 => distinct_grams::<3>(ids, mask, capacity),
                _ => distinct_grams::<4>(ids, mask, capacity),
            }
        };
        let grams = (ids.len() + 1 - n) as f64;
        distinct_count[k] = distinct_sampled * sample;
        bound = bound.min(distinct_count[k]);
        *d = ((distinct_sampled * sample) as f64 / grams).min(1.0);
    }
    NgramStats { tokens: ids.len(), sample, distinct, rep: distinct.map(|d| 1.0 - d), distinct_count }
}

/// How many distinct `N`-grams of `ids` have an id that is 0 modulo `mask + 1` (a table sized
/// for `capacity` of them; the n-grams compared as arrays, so each comparison is inlined).
fn distinct_grams<const N: usize>(ids: &[u32], mask: u64, capacity: usize) -> usize {
    let gram = |at: u32| -> [u32; N] { ids[at as usize..at as usize + N].try_into().unwrap_or([0; N]) };
    let mut seen = FirstSeen::with_capacity(capacity);
    let sampled = ids.windows(N).enumerate().map(|(at, w)| (at as u32, ngram_id(w))).filter(|&(_, id)| id & mask == 0);
    seen.find_or_insert_all(
        sampled,
        |j, at| gram(j) == gram(at),
        |j| ngram_id(&gram(j)),
        |j| ids[j as usize],
        |_, _| {},
    );
    seen.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn texts(text: &str) -> Vec<&str> {
        tokens(text).into_iter().map(|t| &text[t.range()]).collect()
    }

    #[test]
    fn words_are_tokens_and_cjk_characters_and_punctuation_stand_alone() {
        assert_eq!(texts("Hello, wörld 42x!"), ["Hello", ",", "wörld", "42x", "!"]);
        assert_eq!(texts("模型，内存😂😂"), ["模", "型", "，", "内", "存", "😂", "😂"]);
        assert_eq!(texts(" \u{3000}\n"), Vec::<&str>::new());
    }

    #[test]
    fn token_classes_tell_numbers_from_words() {
        use TokenClass::*;
        let text = "Step 12: 0x1F U+0041 模型 é ok , 3rd 😂";
        let got: Vec<TokenClass> = token_classes(text, &tokens(text));
        assert_eq!(
            got,
            [Word, Number, Other, Number, Other, Other, Number, Word, Word, Other, Word, Other, Number, Other]
        );
    }

    /// The tokeniser before its ASCII fast path: every character decoded.
    fn tokens_char_by_char(text: &str) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut word_start: Option<usize> = None;
        for (i, c) in text.char_indices() {
            if is_word_char(c) {
                word_start.get_or_insert(i);
                continue;
            }
            out.extend(word_start.take().map(|s| s..i));
            if !is_py_whitespace(c) {
                out.push(i..i + c.len_utf8());
            }
        }
        out.extend(word_start.map(|s| s..text.len()));
        out
    }

    proptest::proptest! {
        #[test]
        fn the_ascii_fast_path_cuts_tokens_as_decoding_every_character_does(
            text in "([a-z0-9 ,.!\t\n\r\x0b\x0c\x1c-\x1f\x7f]|\\PC|\u{85}|\u{a0}|\u{3000}|模|é){0,60}"
        ) {
            let got: Vec<Range<usize>> = tokens(&text).iter().map(Token::range).collect();
            proptest::prop_assert_eq!(got, tokens_char_by_char(&text));
        }
    }

    #[test]
    fn every_ascii_byte_is_classed_as_its_character() {
        for b in 0u8..0x80 {
            let text = format!("a{}b", b as char);
            let got: Vec<Range<usize>> = tokens(&text).iter().map(Token::range).collect();
            assert_eq!(got, tokens_char_by_char(&text), "byte {b:#x}");
        }
    }

    #[test]
    fn sampled_distinct_tokens_are_counted_from_their_ids_as_a_table_would() {
        let text: String = (0..30_000).map(|i| format!("w{} ", (i * 7919) % 5_000)).collect();
        let ids = token_ids(&text, &tokens(&text));
        for sample in [1, 2, 16] {
            let mask = sample as u64 - 1;
            let table: HashSet<u32> = ids.iter().copied().filter(|&id| ngram_id(&[id]) & mask == 0).collect();
            let s = ngram_stats_sampled(&ids, sample);
            assert_eq!(s.distinct_count[0], table.len() * sample, "sample {sample}");
        }
    }

    #[test]
    fn a_loop_has_low_distinct_n_and_prose_high() {
        let s = ngram_stats(&"a b c d ".repeat(250));
        assert_eq!(s.tokens, 1000);
        assert!((s.distinct[3] - 4.0 / 997.0).abs() < 1e-12);
        assert!((s.rep[0] - (1.0 - 4.0 / 1000.0)).abs() < 1e-12);
        let p = ngram_stats("one two three four five six");
        assert_eq!(p.distinct, [1.0; 4]);
        assert_eq!(ngram_stats("").distinct, [1.0; 4]);
        assert_eq!(ngram_stats("x y").distinct, [1.0; 4]);
        assert_eq!(p.sample, 1);
    }

    #[test]
    fn a_sampled_count_is_close_to_the_exact_one() {
        let ids: Vec<u32> = (0..400_000u32).map(|i| i % 150_000).collect();
        let exact = ngram_stats_sampled(&ids, 1);
        let sampled = ngram_stats_sampled(&ids, 16);
        for n in 0..4 {
            let (e, s) = (exact.distinct[n], sampled.distinct[n]);
            assert!((s - e).abs() / e < 0.03, "distinct-{}: exact {e}, sampled {s}", n + 1);
        }
        assert_eq!(ngram_stats_of(&ids).sample, 1);
        assert_eq!(ngram_stats_of(&vec![1; EXACT_UP_TO + 1]).sample, 2);
    }
}
