//! Tokens, what the token-level scorers count in: a run of letters and digits outside the CJK
//! blocks is one token; every other non-whitespace character (a CJK ideograph, kana, hangul,
//! punctuation, an emoji) is a token of its own, so texts without spaces still have tokens.
//! Each token's id is the index of the first token with the same bytes ([`token_ids`]: exact,
//! 4 bytes); its class tells numbers from words ([`token_classes`]); [`hash_bytes`] is the
//! scorers' 64-bit hash of a token's (or a line's) bytes.

use super::first_seen::{FirstSeen, MAX_ITEMS};
use super::text_units::{floor_boundary, is_py_whitespace};
use crate::splitmix::mix;
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

/// A text cut into tokens once for every scorer that compares tokens: their byte ranges, ids
/// ([`token_ids`]) and classes ([`token_classes`]). A long text's analysis frees the ranges (8
/// bytes a token) once the scorers that walk them are done ([`Self::drop_ranges`]); a scorer
/// that needs a few ranges after that finds them in one more pass ([`Self::ranges_at`]).
#[derive(Clone, Debug)]
pub struct Tokenized<'a> {
    text: &'a str,
    tokens: Option<Vec<Token>>,
    ids: Vec<u32>,
    classes: Vec<TokenClass>,
}

impl<'a> Tokenized<'a> {
    /// `text` cut into tokens, with their ids and classes.
    pub fn new(text: &'a str) -> Self {
        let toks = tokens(text);
        let ids = token_ids(text, &toks);
        let classes = token_classes(text, &toks);
        Self { text, tokens: Some(toks), ids, classes }
    }

    /// The text cut.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The tokens' byte ranges; `None` once [`Self::drop_ranges`] has freed them.
    pub fn tokens(&self) -> Option<&[Token]> {
        self.tokens.as_deref()
    }

    /// Each token's id (see [`token_ids`]).
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// Each token's class (see [`token_classes`]).
    pub fn classes(&self) -> &[TokenClass] {
        &self.classes
    }

    /// Frees the tokens' byte ranges (8 bytes a token), keeping their ids and classes.
    pub fn drop_ranges(&mut self) {
        self.tokens = None;
    }

    /// The bytes of the tokens numbered `wanted` (sorted, no repeats), in that order: from the
    /// tokens when they are at hand, else found by one more tokenising pass.
    pub fn ranges_at(&self, wanted: &[usize]) -> Vec<Range<usize>> {
        match &self.tokens {
            Some(toks) => wanted.iter().map(|&k| toks[k].range()).collect(),
            None => token_ranges_at(self.text, wanted),
        }
    }
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

/// [`hash_bytes`] of `bytes` with ASCII capitals lower-cased, without a copy of them.
#[inline(always)]
pub fn hash_ascii_lowercase(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ b.to_ascii_lowercase() as u64).wrapping_mul(0x0100_0000_01b3);
    }
    mix(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lower_case_hash_is_the_hash_of_the_lower_case() {
        for w in ["", "a", "The", "KERNEL", "mIxEd-Case's", "é É", "\u{0}Z\u{7F}"] {
            assert_eq!(hash_ascii_lowercase(w.as_bytes()), hash_bytes(w.to_ascii_lowercase().as_bytes()), "{w:?}");
        }
    }

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
}
