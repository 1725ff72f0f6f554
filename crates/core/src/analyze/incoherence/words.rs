//! The text cut into words, 64 bytes at a time: the bytes of a block that are in a word make
//! the bits of a `u64` (a loop the compiler turns into vector compares), and the words' starts
//! and ends are the bits where that mask changes, taken lowest first — no branch per byte (the
//! checks cut texts of tens of megabytes into words several times, and a branch at every
//! word's start and end was most of what that cost).
//!
//! Two cuts: the whitespace-separated words (what
//! `text.split(char::is_whitespace).filter(|w| !w.is_empty())` gives), and the runs of ASCII
//! letters and apostrophes (what drift reads as words). A byte below 0x80 is whitespace when it
//! is one of `\t \n \x0B \x0C \r` or a space (as `char::is_whitespace` says); the other
//! whitespace characters (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
//! U+205F, U+3000) start with the bytes 0xC2, 0xE1, 0xE2 or 0xE3, and only a character that
//! starts so is decoded.

/// The words of `text` (as `text.split(char::is_whitespace).filter(|w| !w.is_empty())`), each
/// with its start.
pub fn words(text: &str) -> Runs<'_> {
    Runs::new(text, 0, text.len(), Cut::Whitespace)
}

/// The words of `text` as `text.split_ascii_whitespace()` gives them (the vertical tab is not
/// a separator there), each with its start.
pub fn ascii_words(text: &str) -> Runs<'_> {
    Runs::new(text, 0, text.len(), Cut::AsciiWhitespace)
}

/// How many words `text.split_ascii_whitespace()` gives: the bytes where a word starts, counted
/// a block at a time.
pub fn count_ascii_words(text: &str) -> usize {
    let mut count = 0;
    let mut last_in = false;
    for block in text.as_bytes().chunks(BLOCK) {
        let mut inside = not_ascii_whitespace(text, 0, block, &mut 0);
        if block.len() < BLOCK {
            inside &= (1u64 << block.len()) - 1;
        }
        count += (inside & !(inside << 1 | u64::from(last_in))).count_ones() as usize;
        last_in = inside >> 63 == 1;
    }
    count
}

/// The runs of `text[from..to]` of ASCII letters and apostrophes (as
/// `text[from..to].split(|c: char| !c.is_ascii_alphabetic() && c != '\'')` gives them, without the
/// empty ones), each with its start. `from` and `to` are character boundaries.
pub fn letter_runs(text: &str, from: usize, to: usize) -> Runs<'_> {
    debug_assert!(from <= to && text.is_char_boundary(from) && text.is_char_boundary(to));
    Runs::new(text, from, to, Cut::Letters)
}

use super::swar::{eq, gather, low_bits_in, HIGH, ONES};

/// Bytes looked at together: a bit of a `u64` each.
const BLOCK: usize = 64;

/// Which bytes make runs: not whitespace, not ASCII whitespace, ASCII letters and apostrophes.
#[derive(Clone, Copy)]
enum Cut {
    Whitespace,
    AsciiWhitespace,
    Letters,
}

impl Cut {
    /// The bytes of a block that belong to runs: bit `i` for `block[i]`, and bits for the block
    /// after it (the rest of a whitespace character that starts in this one) in `carry`.
    #[inline(always)]
    fn mask(self, text: &str, at: usize, block: &[u8], carry: &mut u64) -> u64 {
        match self {
            Cut::Whitespace => not_whitespace(text, at, block, carry),
            Cut::AsciiWhitespace => not_ascii_whitespace(text, at, block, carry),
            Cut::Letters => ascii_letters(text, at, block, carry),
        }
    }
}

/// A block's bytes as `u64`s (a short block padded with `pad`), applying `f` to each and
/// gathering its high bits.
#[inline]
fn block_mask(block: &[u8], pad: u8, f: impl Fn(u64) -> u64) -> u64 {
    let mut mask = 0u64;
    let mut chunks = block.chunks_exact(8);
    let mut k = 0;
    for c in &mut chunks {
        let x = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        mask |= gather(f(x)) << (8 * k);
        k += 1;
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut last = [pad; 8];
        last[..rest.len()].copy_from_slice(rest);
        mask |= gather(f(u64::from_le_bytes(last))) << (8 * k);
    }
    mask
}

/// A block's bytes that are not whitespace.
fn not_whitespace(text: &str, at: usize, block: &[u8], carry: &mut u64) -> u64 {
    // ASCII whitespace: a space, or \t \n \x0B \x0C \r (9 to 13).
    let mut space = block_mask(block, b' ', |x| (eq(x, b' ') | low_bits_in(x, 9, 13)) & !(x & HIGH));
    // 0xC2, 0xE1 to 0xE3: the first bytes of the other whitespace characters (none in a block
    // of ASCII).
    let mut decode = if block.is_ascii() {
        0
    } else {
        block_mask(block, b' ', |x| eq(x, 0xC2) | (low_bits_in(x, 0x61, 0x63) & x & HIGH))
    };
    space |= std::mem::take(carry);
    while decode != 0 {
        let i = decode.trailing_zeros() as usize;
        decode &= decode - 1;
        let Some(c) = text[at + i..].chars().next() else { break };
        if c.is_whitespace() {
            let end = i + c.len_utf8();
            space |= (u64::MAX >> (BLOCK - (end - i))) << i;
            if end > BLOCK {
                *carry = (1u64 << (end - BLOCK)) - 1;
            }
        }
    }
    !space
}

/// A block's bytes that are not ASCII whitespace as `u8::is_ascii_whitespace` says (a space,
/// `\t \n \x0C \r`).
fn not_ascii_whitespace(_: &str, _: usize, block: &[u8], _: &mut u64) -> u64 {
    !block_mask(block, b' ', |x| eq(x, b' ') | eq(x, b'\t') | eq(x, b'\n') | eq(x, 0x0C) | eq(x, b'\r'))
}

/// A block's bytes that are ASCII letters or apostrophes.
fn ascii_letters(_: &str, _: usize, block: &[u8], _: &mut u64) -> u64 {
    // A letter of either case is one of 0x61 to 0x7A with 0x20 set (and no high bit).
    block_mask(block, b' ', |x| (low_bits_in(x | (ONES * 0x20), 0x61, 0x7A) & !(x & HIGH)) | eq(x, b'\''))
}

/// See [`words`] and [`letter_runs`]: the runs found a block of bytes at a time, a bit each.
pub struct Runs<'a> {
    text: &'a str,
    to: usize,
    cut: Cut,
    /// The next block's start.
    next: usize,
    /// The current block's start, and the bits of its bytes where a run starts and where one
    /// ends (the first byte after it), not taken yet.
    block: usize,
    starts: u64,
    ends: u64,
    /// Whether the last byte of the block before was in a run.
    last_in: bool,
    carry: u64,
    /// The start of the run being read.
    open: Option<usize>,
}

impl<'a> Runs<'a> {
    fn new(text: &'a str, from: usize, to: usize, cut: Cut) -> Self {
        Self { text, to, cut, next: from, block: from, starts: 0, ends: 0, last_in: false, carry: 0, open: None }
    }

    /// Reads the next block; false at the end.
    #[inline]
    fn advance(&mut self) -> bool {
        if self.next >= self.to {
            return false;
        }
        let at = self.next;
        let end = (at + BLOCK).min(self.to);
        let block = &self.text.as_bytes()[at..end];
        let mut inside = self.cut.mask(self.text, at, block, &mut self.carry);
        if block.len() < BLOCK {
            inside &= (1u64 << block.len()) - 1;
        }
        let before = inside << 1 | u64::from(self.last_in);
        self.starts = inside & !before;
        self.ends = !inside & before;
        if block.len() < BLOCK {
            // The range's end closes a run that reaches it.
            self.ends &= u64::MAX >> (BLOCK - 1 - block.len());
        }
        self.last_in = inside >> 63 == 1;
        self.block = at;
        self.next = end;
        true
    }
}

impl<'a> Iterator for Runs<'a> {
    type Item = (usize, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(usize, &'a str)> {
        loop {
            match self.open {
                None if self.starts != 0 => {
                    let i = self.starts.trailing_zeros() as usize;
                    self.starts &= self.starts - 1;
                    self.open = Some(self.block + i);
                }
                Some(start) if self.ends != 0 => {
                    let i = self.ends.trailing_zeros() as usize;
                    self.ends &= self.ends - 1;
                    self.open = None;
                    // A run's ends are next to bytes that are not its own: whitespace, ASCII,
                    // or the range's ends — character boundaries.
                    return Some((start, &self.text[start..self.block + i]));
                }
                _ => {
                    if !self.advance() {
                        // A run that reaches the end of a full last block.
                        let start = self.open.take()?;
                        return Some((start, &self.text[start..self.to]));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(text: &str) -> Vec<(usize, &str)> {
        text.split(char::is_whitespace)
            .filter(|w| !w.is_empty())
            .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
            .collect()
    }

    fn naive_runs(text: &str, from: usize, to: usize) -> Vec<(usize, &str)> {
        text[from..to]
            .split(|c: char| !c.is_ascii_alphabetic() && c != '\'')
            .filter(|w| !w.is_empty())
            .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
            .collect()
    }

    fn same(text: &str) {
        assert_eq!(words(text).collect::<Vec<_>>(), naive(text), "{text:?}");
        let ascii: Vec<(usize, &str)> =
            text.split_ascii_whitespace().map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w)).collect();
        assert_eq!(ascii_words(text).collect::<Vec<_>>(), ascii, "{text:?}");
        assert_eq!(count_ascii_words(text), ascii.len(), "{text:?}");
        assert_eq!(letter_runs(text, 0, text.len()).collect::<Vec<_>>(), naive_runs(text, 0, text.len()), "{text:?}");
        let mid = (0..=text.len() / 3).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        assert_eq!(letter_runs(text, mid, text.len()).collect::<Vec<_>>(), naive_runs(text, mid, text.len()));
        assert_eq!(letter_runs(text, 0, mid).collect::<Vec<_>>(), naive_runs(text, 0, mid));
    }

    #[test]
    fn the_words_are_those_of_split() {
        let every_space: String = (0..=0x3000u32).filter_map(char::from_u32).filter(|c| c.is_whitespace()).collect();
        for text in [
            "",
            " ",
            "a",
            " a ",
            "the cat\tsat\n\non\x0Bthe\x0Cmat\r\n",
            "caf\u{E9} na\u{EF}ve \u{A0}nbsp\u{85}nel\u{3000}ideo\u{2028}ls\u{2029}ps\u{1680}og\u{202F}x\u{205F}y",
            "\u{E2}\u{80}\u{99} ’quoted’ “x” ‚ — … ™ \u{200B}zwsp\u{200B} \u{FEFF}bom it's",
            "中文，模型 \u{3001}\u{3000}日本語 ｱｲｳ ạ ắ ờ \u{1E00}\u{1FFF}",
            &every_space,
            &format!("x{every_space}y{every_space}"),
        ] {
            same(text);
        }
        // Every character up to U+3100 between two letters, and alone.
        for u in 0..0x3100u32 {
            let Some(c) = char::from_u32(u) else { continue };
            same(&format!("a{c}b {c} {c}{c}"));
        }
    }

    #[test]
    fn words_across_blocks_are_those_of_split() {
        // Texts of every length around the blocks' edges, from pieces that put whitespace
        // characters of 1 to 3 bytes, letters and other characters at every offset.
        let pieces = [
            "a", "bc", "it's", " ", "\n", "\x0B", "\u{A0}", "\u{85}", "\u{3000}", "\u{2029}", "é", "模", "\u{E3}", "’",
            "-",
        ];
        let mut rng = crate::splitmix::Rng::new(34);
        for _ in 0..3000 {
            let mut text = String::new();
            let len = (rng.next_u64() % 300) as usize;
            while text.len() < len {
                text.push_str(pieces[(rng.next_u64() % pieces.len() as u64) as usize]);
            }
            same(&text);
        }
        for n in [63, 64, 65, 127, 128, 129] {
            same(&"a".repeat(n));
            same(&format!("{} b", "a".repeat(n)));
            same(&format!("{}\u{3000}b", "a".repeat(n - 1)));
            same(&format!("{}\u{3000}b", "a".repeat(n - 2)));
            same(&format!("{}\u{A0}", "a".repeat(n - 1)));
        }
    }
}
