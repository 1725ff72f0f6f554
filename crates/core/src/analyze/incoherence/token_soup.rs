//! Token soup: words no language writes — scripts mixed inside one word (`ashчниircraft`,
//! `вfor`, `for她`), a byte-level tokenizer's pieces shown raw (`Ġthe`, `Ċ`, `âĢĻ`), text
//! decoded in the wrong encoding (`Ã©`, `â€™`, `Ð¿Ñ€Ð¸`), runs of U+FFFD, byte-fallback
//! tokens (`<0xE3>`). A broken model (a bad cast, a wrong tokenizer, random weights) writes
//! them densely; healthy text almost never, so the check counts odd words in a window of
//! words.
//!
//! Look-alikes that stay clean: real multilingual text and translations (each word in one
//! script), Latin loanwords inside Chinese, Japanese or Korean text (`使用Python编写`,
//! `API를`), an acronym glued to a word of another script (`PDFка`), Greek letters in maths
//! and units (`μs`, `Δx`), code, identifiers, hashes, base64, URLs (one script), emoji.

use std::ops::Range;

/// Scripts told apart inside a word. Chinese, Japanese and Korean are one (they mix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    /// An Indic block (Devanagari, Bengali, …, Sinhala), by its index.
    Indic(u8),
    Thai,
    Georgian,
    Cjk,
}

/// The script of a letter, if it is one told apart.
pub(super) fn script_of(c: char) -> Option<Script> {
    script(c)
}

fn script(c: char) -> Option<Script> {
    let u = c as u32;
    Some(match u {
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        0x530..=0x58F => Script::Armenian,
        0x590..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0x8A0..=0x8FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => Script::Arabic,
        0x900..=0xDFF => Script::Indic(((u - 0x900) / 0x80) as u8),
        0xE00..=0xE7F => Script::Thai,
        0x10A0..=0x10FF => Script::Georgian,
        0x1100..=0x11FF
        | 0x3040..=0x30FF
        | 0x3130..=0x318F
        | 0x31F0..=0x31FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF
        | 0xF900..=0xFAFF
        | 0xFF10..=0xFF9F
        | 0x20000..=0x2FFFF => Script::Cjk,
        _ => return None,
    })
}

/// Why a word is odd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oddity {
    /// Letters of two scripts inside one word.
    MixedScripts,
    /// A byte-level BPE tokenizer's pieces shown raw (`Ġ`, `Ċ` inside words, `âĢ`).
    TokenizerJunk,
    /// UTF-8 read as Latin-1 or Windows-1252 (`Ã©`, `â€™`).
    Mojibake,
    /// A run of U+FFFD, the replacement character: bytes that were not UTF-8 (a lone one is
    /// not counted: a Latin-1 file read as UTF-8 shows one per accented letter, and the reader
    /// says so).
    Replacement,
    /// A byte-fallback token written out (`<0xE3>`).
    ByteToken,
    /// A word of a stretch of running text in no language: almost none of its words are
    /// function words (see `no_language`).
    NoLanguage,
}

impl Oddity {
    pub fn words(self) -> &'static str {
        match self {
            Oddity::MixedScripts => "scripts mixed inside a word",
            Oddity::TokenizerJunk => "a tokenizer's byte pieces",
            Oddity::Mojibake => "mojibake",
            Oddity::Replacement => "replacement characters",
            Oddity::ByteToken => "byte tokens",
            Oddity::NoLanguage => "running text with almost no function words: words of no language",
        }
    }
}

/// An odd word: its bytes, its index among the text's words, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OddWord {
    pub range: Range<usize>,
    pub index: usize,
    pub why: Oddity,
}

/// The odd words of `text` found word by word, and the number of words in it
/// (whitespace-separated). Words of no language are `no_language`'s, merged in `mod.rs`.
pub fn odd_words(text: &str) -> (Vec<OddWord>, usize) {
    let mut out = Vec::new();
    let mut index = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let line_start = at;
        at += line.len();
        if line.is_ascii() {
            if line.contains("<0x") {
                for (at, word) in super::words::ascii_words(line) {
                    if byte_token(word) {
                        let start = line_start + at;
                        out.push(OddWord { range: start..start + word.len(), index, why: Oddity::ByteToken });
                    }
                    index += 1;
                }
            } else {
                index += super::words::count_ascii_words(line);
            }
            continue;
        }
        // Latin glued to CJK is normal in CJK text: weigh the line's CJK characters (a word
        // each, about) against its Latin letters.
        let (mut cjk, mut latin) = (0usize, 0usize);
        for c in line.chars() {
            match script(c) {
                Some(Script::Cjk) => cjk += 1,
                Some(Script::Latin) => latin += 1,
                _ => {}
            }
        }
        let cjk_line = cjk >= 2 && cjk * 3 >= latin;
        // Inside `inline code` on this line: a word quoted as code (a text about gibberish
        // quoting `ashчниircraft`) is not the text's own.
        let mut in_code = false;
        for word in line.split(char::is_whitespace).filter(|w| !w.is_empty()) {
            let quoted = in_code || word.contains('`');
            in_code ^= word.matches('`').count() % 2 == 1;
            let Some(why) = oddity(word, cjk_line).filter(|_| !quoted) else {
                index += 1;
                continue;
            };
            let start = line_start + (word.as_ptr() as usize - line.as_ptr() as usize);
            // GPT-2's Ġ and Ċ stand for the spaces and line breaks between words: each counts as
            // a word (a byte-level text is one long word).
            let units = match why {
                Oddity::TokenizerJunk => word.chars().filter(|c| matches!(c, 'Ġ' | 'Ċ')).count(),
                _ => 1,
            };
            for _ in 0..units.max(1) {
                out.push(OddWord { range: start..start + word.len(), index, why });
                index += 1;
            }
        }
    }
    (out, index)
}

/// Why `word` is odd, if it is. `cjk_line`: its line is CJK text.
fn oddity(word: &str, cjk_line: bool) -> Option<Oddity> {
    if word.is_ascii() {
        return byte_token(word).then_some(Oddity::ByteToken);
    }
    if word.contains("\u{FFFD}\u{FFFD}") {
        return Some(Oddity::Replacement);
    }
    let mut prev: Option<char> = None;
    let mut current: Option<Script> = None;
    let mut mixed = false;
    // Every Latin letter of the word is an upper-case ASCII letter (an acronym: "PDFка").
    let mut latin_acronyms = true;
    for c in word.chars() {
        if let Some(p) = prev {
            if is_mojibake_pair(p, c) {
                return Some(Oddity::Mojibake);
            }
            // Ġ and Ċ start Maltese words; after a small letter, a digit or a sentence's
            // punctuation they are GPT-2's space and line break.
            // (`is_alphabetic() && !is_uppercase()`: the tables the core links already, not the
            // lower-case one.)
            let small = p.is_alphabetic() && !p.is_uppercase();
            let after_word = small || p.is_ascii_digit() || matches!(p, ',' | '.' | ';' | ':' | '!' | '?');
            if matches!(c, 'Ġ' | 'Ċ') && (after_word || matches!(p, 'Ġ' | 'Ċ')) {
                return Some(Oddity::TokenizerJunk);
            }
        }
        prev = Some(c);
        if !c.is_alphanumeric() {
            // Punctuation ends a word part: "Python-скрипт" is two.
            current = None;
            continue;
        }
        let Some(s) = script(c) else { continue };
        if s == Script::Latin && !c.is_ascii_uppercase() {
            latin_acronyms = false;
        }
        if let Some(a) = current.filter(|&a| a != s) {
            mixed |= !tolerated(a, s, cjk_line);
        }
        current = Some(s);
    }
    (mixed && !latin_acronyms).then_some(Oddity::MixedScripts)
}

/// Two scripts met inside a word that healthy text writes together: Latin with Greek (maths,
/// units), Latin inside CJK text (a loanword, a particle after it).
fn tolerated(a: Script, b: Script, cjk_line: bool) -> bool {
    let pair = |x, y| (a == x && b == y) || (a == y && b == x);
    pair(Script::Latin, Script::Greek) || (pair(Script::Latin, Script::Cjk) && cjk_line)
}

/// UTF-8 read as Latin-1 / Windows-1252: a lead byte's letter followed by a continuation
/// byte's symbol (`Ã©`, `â€™`, `Ð¿`), or GPT-2's byte pieces of a curly quote (`âĢ`).
fn is_mojibake_pair(a: char, b: char) -> bool {
    let cp1252 = matches!(
        b,
        '€' | '‚'
            | 'ƒ'
            | '„'
            | '…'
            | '†'
            | '‡'
            | 'ˆ'
            | '‰'
            | 'Š'
            | '‹'
            | 'Œ'
            | 'Ž'
            | '‘'
            | '’'
            | '“'
            | '”'
            | '•'
            | '–'
            | '—'
            | '˜'
            | '™'
            | 'š'
            | '›'
            | 'œ'
            | 'ž'
            | 'Ÿ'
    );
    let high = matches!(b as u32, 0x80..=0xBF);
    match a {
        'Ã' | 'Â' | 'Ð' | 'Ñ' | 'Ø' | 'Ù' => high || cp1252,
        'â' => high || cp1252 || b == 'Ģ',
        // A CJK character's lead byte: only symbols no language writes glued after these
        // letters ("café—", "é»" are fine).
        'ã' | 'å' | 'ä' | 'æ' | 'ç' | 'è' | 'é' => {
            matches!(b as u32, 0xA1..=0xBF) && !matches!(b, '«' | '»' | '°' | '·')
        }
        _ => false,
    }
}

/// `<0xE3>`-style byte-fallback tokens: two or more in the word, or one alone.
fn byte_token(word: &str) -> bool {
    let b = word.as_bytes();
    let mut count = 0;
    let mut i = 0;
    while i + 6 <= b.len() {
        if &b[i..i + 3] == b"<0x" && b[i + 3].is_ascii_hexdigit() && b[i + 4].is_ascii_hexdigit() && b[i + 5] == b'>' {
            count += 1;
            i += 6;
        } else {
            i += 1;
        }
    }
    count >= 2 || (count == 1 && b.len() == 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odd(text: &str) -> Vec<&str> {
        odd_words(text).0.iter().map(|w| &text[w.range.clone()]).collect()
    }

    #[test]
    fn soup_from_broken_models_is_odd() {
        assert_eq!(
            odd("森 Ellibel HatĐ ashчниircrafthew Мексикуowania centro ra resizeellt Ш иExpression"),
            ["ashчниircrafthew", "Мексикуowania", "иExpression"]
        );
        assert_eq!(odd("and вfor her experience, for她 as before"), ["вfor", "for她"]);
        assert_eq!(odd("HelloĠworld,ĠhowĠare you"), ["HelloĠworld,ĠhowĠare"; 3]);
        assert_eq!(odd("It\u{2019}s cafÃ© time â€™ ok"), ["cafÃ©", "â€™"]);
        assert_eq!(odd("bad \u{FFFD}\u{FFFD} bytes <0xE3><0x81> here"), ["\u{FFFD}\u{FFFD}", "<0xE3><0x81>"]);
        assert_eq!(odd("caf\u{FFFD} au lait, se\u{FFFD}or"), Vec::<&str>::new(), "Latin-1 read as UTF-8");
    }

    #[test]
    fn healthy_multilingual_text_is_not() {
        for t in [
            "我们使用Python编写了一个data pipeline，然后用NumPy计算。",
            "PythonでWebアプリを作りました。",
            "이 API를 GPU에서 실행합니다.",
            "Установите пакет numpy через pip, затем PDFка готова.",
            "The latency is 40 μs and Δx = 3; the Māori word is whānau; Ġunju is Maltese.",
            "Hello (Привет), cat — кошка — 猫 — قطة — חתול.",
            "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 https://example.com/a?b=c",
            "Café, naïve, façade, São Paulo, Ærøskøbing, Ångström, Dvořák, Łódź, Đorđe.",
            // Soup quoted as code, as a text about broken models quotes it.
            "Token soup (`ashчниircraft`, `вfor`, `for 她 as`) is what a broken fine-tune writes.",
        ] {
            assert_eq!(odd(t), Vec::<&str>::new(), "{t}");
        }
    }
}
