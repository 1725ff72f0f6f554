//! Words of no language: running text whose words, each made of letters of one script, are
//! nearly never the function words every language is built on (`pitchtail meetchick
//! dividequotientred rise believemolecule …`). A model with random or broken weights samples
//! its vocabulary — whole words, sub-word pieces glued into non-words — with the function
//! words at the rate of chance, a few percent; every language's running text spends a quarter
//! to a half of its words on them (see [`super::function_words`]).
//!
//! Judged only in running text, a window of words at a time: nearly all of the window's
//! words are words of letters (no code, numbers, hashes, URLs, identifiers, tables, markup),
//! and sentences, clauses and lines hardly end (a stop, a comma or semicolon, or a line
//! break after at most one word in 32: not a list, a poem, headlines or notes one per line or
//! in a line with commas, not prose of any language, whose sentences and clauses end every 5
//! to 30 words). A model sampling its vocabulary at random writes one run-on line: stops,
//! commas and line breaks are a few of its thousands of tokens. Scripts that do
//! not space their words (Chinese, Japanese, Thai) are not judged.

use super::char_set::CharSet;
use super::function_words::is_function_word;
use super::swar::{all_bytes, eq, letter, low_bits_in, ONES};
use super::token_soup::{script_of, Script};
use std::ops::Range;

/// A word of a stretch of words of no language: its bytes and its index among the text's
/// words (whitespace-separated, counted as `token_soup::odd_words` counts them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonLanguageWord {
    pub range: Range<usize>,
    pub index: usize,
}

/// The shortest text judged, in words: a text shorter than the window is judged whole from
/// this many.
pub const MIN_WORDS: usize = 16;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Not a word of letters: code, a number, a hash, markup, CJK.
    Other,
    Function,
    Content,
}

#[derive(Clone)]
struct Token {
    range: Range<usize>,
    index: usize,
    kind: Kind,
    /// The line it is on (counted from the text's start).
    line: usize,
    comma: bool,
    /// It ends a sentence (`.`, `!`, `?`, `。`, `؟`, `।` at its end).
    stop: bool,
}

/// The words of the stretches of `text` that are running text with fewer than
/// `function_share` of function words in a window of `window` words (or, in a text of fewer
/// words than that but at least [`MIN_WORDS`], in the whole text). Function words themselves
/// are not listed.
pub fn words(text: &str, window: usize, function_share: f64) -> Vec<NonLanguageWord> {
    let mut out: Vec<NonLanguageWord> = Vec::new();
    let window = window.max(MIN_WORDS);
    let mut ring: std::collections::VecDeque<Token> = std::collections::VecDeque::with_capacity(window + 1);
    let (mut letters, mut functions, mut commas, mut stops) = (0usize, 0usize, 0usize, 0usize);
    let mut index = 0;
    let mut at = 0;
    let mut marked_to = 0; // words before this index are listed already
    let judge = |ring: &std::collections::VecDeque<Token>,
                 counts: [usize; 4],
                 out: &mut Vec<NonLanguageWord>,
                 marked_to: &mut usize| {
        let (Some(first), Some(last)) = (ring.front(), ring.back()) else { return };
        let qualifies = |n: usize, first_line: usize, [letters, functions, commas, stops]: [usize; 4]| {
            // Sentences and lines end at a stop or a line's end (the window's last line may go
            // on); commas and semicolons break a text too (a list written on one line).
            let breaks = stops + commas + (last.line - first_line);
            n >= MIN_WORDS
                && letters * 8 >= n * 7
                && breaks * 32 <= n
                && (functions as f64) < function_share * letters as f64
        };
        let whole = qualifies(ring.len(), first.line, counts);
        let from = if first.index < *marked_to {
            // A stretch goes on.
            if !whole {
                return;
            }
            *marked_to
        } else {
            // A new stretch starts where the window changes from language to none: the window
            // may hold the end of healthy text before it. A text shorter than the window is
            // judged without that healthy text when it is the lesser part (judging any part
            // alone would find, somewhere, a stretch poor in function words by chance).
            if !whole && (ring.len() >= window || counts[1] as f64 >= 2.0 * function_share * counts[0] as f64) {
                return;
            }
            let cut = change_point(ring);
            if !whole {
                let mut tail = [0usize; 4];
                for t in ring.iter().skip(cut) {
                    tail[0] += (t.kind != Kind::Other) as usize;
                    tail[1] += (t.kind == Kind::Function) as usize;
                    tail[2] += t.comma as usize;
                    tail[3] += t.stop as usize;
                }
                let rest = ring.len() - cut;
                if rest * 2 < ring.len() || !qualifies(rest, ring[cut].line, tail) {
                    return;
                }
            }
            first.index + cut
        };
        for t in ring.iter().filter(|t| t.index >= from && t.kind == Kind::Content) {
            out.push(NonLanguageWord { range: t.range.clone(), index: t.index });
        }
        *marked_to = last.index + 1;
    };
    for (line_no, line) in text.split_inclusive('\n').enumerate() {
        let line_start = at;
        at += line.len();
        // An ASCII line is cut at ASCII whitespace (not at a vertical tab), another at any.
        let tokens = if line.is_ascii() { super::words::ascii_words(line) } else { super::words::words(line) };
        for (at, word) in tokens {
            let start = line_start + at;
            let kind = kind_of(word);
            // A word that ends with an ASCII letter or digit (most) ends no clause: none of the
            // sets holds one.
            let plain_end = word.as_bytes()[word.len() - 1].is_ascii_alphanumeric();
            let comma = !plain_end && COMMAS.ends(word);
            let stop = !plain_end && STOPS.ends(CLOSING_QUOTES.trim_end(word));
            let t = Token { range: start..start + word.len(), index, kind, line: line_no, comma, stop };
            index += 1;
            letters += (kind != Kind::Other) as usize;
            functions += (kind == Kind::Function) as usize;
            commas += comma as usize;
            stops += stop as usize;
            ring.push_back(t);
            if ring.len() > window {
                let old = ring.pop_front().expect("a full window");
                letters -= (old.kind != Kind::Other) as usize;
                functions -= (old.kind == Kind::Function) as usize;
                commas -= old.comma as usize;
                stops -= old.stop as usize;
            }
            if ring.len() == window {
                judge(&ring, [letters, functions, commas, stops], &mut out, &mut marked_to);
            }
        }
    }
    if index < window && index >= MIN_WORDS {
        judge(&ring, [letters, functions, commas, stops], &mut out, &mut marked_to);
    }
    out
}

/// Where the window's tokens change most from a language (function words, stops, commas) to
/// none, as the number of tokens before it: the cut that best explains the window as two
/// runs of such signs at different rates (two Bernoulli segments, by likelihood), if the
/// first runs at the higher rate; 0 otherwise.
fn change_point(ring: &std::collections::VecDeque<Token>) -> usize {
    let signs: Vec<bool> = ring.iter().map(|t| t.kind == Kind::Function || t.comma || t.stop).collect();
    let total = signs.iter().filter(|&&s| s).count();
    let ll = |s: usize, m: usize| -> f64 {
        if m == 0 || s == 0 || s == m {
            return 0.0;
        }
        let p = s as f64 / m as f64;
        s as f64 * p.ln() + (m - s) as f64 * (1.0 - p).ln()
    };
    let n = signs.len();
    let (mut best, mut best_ll) = (0, ll(total, n));
    let mut before = 0;
    for k in 1..n {
        before += signs[k - 1] as usize;
        let after = total - before;
        // Only a first part richer in signs than the rest is healthy text before the stretch.
        if before * (n - k) <= after * k {
            continue;
        }
        let l = ll(before, k) + ll(after, n - k);
        if l > best_ll + 2.0 {
            (best, best_ll) = (k, l);
        }
    }
    best
}

/// A comma or semicolon ends a token that is one clause's end.
const COMMAS: CharSet = CharSet::new(&[',', ';', '،', '，']);
/// Closing quotes and brackets after a sentence's stop…
const CLOSING_QUOTES: CharSet = CharSet::new(&['"', '\'', ')', ']', '”', '’', '»', '*']);
/// …and the stops.
const STOPS: CharSet = CharSet::new(&['.', '!', '?', '。', '！', '？', '؟', '।']);
/// What a word of letters may have before it…
const BEFORE: CharSet = CharSet::new(&['"', '\'', '(', '[', '“', '‘', '«', '¿', '¡', '*']);
/// …and after it.
const AFTER: CharSet =
    CharSet::new(&['.', ',', ';', ':', '!', '?', '"', '\'', ')', ']', '”', '’', '»', '*', '…', '،', '؟']);

/// What a whitespace-separated token is: a word of letters of one spaced script (with quotes,
/// brackets and sentence punctuation around it, apostrophes and hyphens inside), a function
/// word among those, or something else.
fn kind_of(token: &str) -> Kind {
    // A word of ASCII letters (most) is its own core: nothing to trim, letters only.
    if !token.is_empty() && token.len() <= 64 && all_bytes(token.as_bytes(), letter) {
        return if is_function_word(token) { Kind::Function } else { Kind::Content };
    }
    let w = AFTER.trim_end(BEFORE.trim_start(token));
    if w.is_empty() || w.len() > 64 {
        return Kind::Other;
    }
    if w.is_ascii() {
        let b = w.as_bytes();
        // Letters, apostrophes and hyphens, eight bytes at a time.
        let letters = b[0].is_ascii_alphabetic()
            && all_bytes(b, |x| low_bits_in(x | (ONES * 0x20), 0x61, 0x7A) | eq(x, b'\'') | eq(x, b'-'));
        return match (letters, letters && is_function_word(w)) {
            (false, _) => Kind::Other,
            (true, true) => Kind::Function,
            (true, false) => Kind::Content,
        };
    }
    let mut first: Option<Script> = None;
    for (i, c) in w.char_indices() {
        if matches!(c, '\'' | '’' | '-') && i > 0 {
            continue;
        }
        let mark = matches!(c as u32, 0x300..=0x36F | 0x610..=0x61A | 0x64B..=0x65F | 0x670);
        if mark && i > 0 {
            continue;
        }
        if !c.is_alphabetic() {
            return Kind::Other;
        }
        let Some(s) = script_of(c) else { return Kind::Other };
        if matches!(s, Script::Cjk | Script::Thai) || first.is_some_and(|f| f != s) {
            return Kind::Other;
        }
        first = Some(s);
    }
    if is_function_word(w) {
        Kind::Function
    } else {
        Kind::Content
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> usize {
        words(text, 128, 0.1).len()
    }

    #[test]
    fn words_of_no_language_are_found() {
        let gibberish = "twenty weight dividequotientred rise believemoleculeroommean appear miss gave black book \
                         shape five dog wentu such with dark wood problem decimalride possible enough travel \
                         developsent substance silent mountainstick appear few feet right speed tryN gave main, we \
                         sharplist finalmean captain burngovern molecule girl problem day straightfriend know might \
                         personsolutionhair check hunt went been shell yard save hole full meathundredwideresultlost";
        assert!(found(gibberish) > 40, "{}", found(gibberish));
    }

    #[test]
    fn languages_and_lists_are_not() {
        let english = "The reclaim thread scans the inactive list again and evicts the oldest pages. ".repeat(8);
        let french = "Le serveur répond à la requête et le modèle écrit sa réponse dans le flux. ".repeat(8);
        let russian = "Сервер отвечает на запрос, и модель пишет ответ в поток без ошибок. ".repeat(8);
        let list = "apples\npears\nplums\ncherries\n".repeat(20);
        let commas = "apples, pears, plums, cherries, grapes, lemons, limes, melons, ".repeat(8);
        let code = "let x = foo(bar); if x > 3 { return y.baz() } else { z += 1 } ".repeat(8);
        for t in [english, french, russian, list, commas, code] {
            assert_eq!(found(&t), 0, "{t}");
        }
    }
}
