//! A set of characters to trim from a word's ends or to look for at its end, as
//! `str::trim_start_matches`, `str::trim_end_matches` and `str::ends_with` do with an array of
//! `char`s, with the ASCII members looked up in a bit mask (the checks trim every word of a text
//! of tens of megabytes several times; nearly every character they look at is ASCII).

/// A set of characters: the ASCII ones as a bit mask (two `u64` halves: wasm has no 128-bit
/// integers, and a `u128` shift is several instructions there), the others in a list.
pub struct CharSet {
    ascii: [u64; 2],
    chars: &'static [char],
}

impl CharSet {
    pub const fn new(chars: &'static [char]) -> Self {
        let mut ascii = [0u64; 2];
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_ascii() {
                let b = chars[i] as usize;
                ascii[b >> 6] |= 1 << (b & 63);
            }
            i += 1;
        }
        Self { ascii, chars }
    }

    /// Whether the ASCII byte `b` is in the set.
    #[inline(always)]
    fn has_ascii(&self, b: u8) -> bool {
        self.ascii[usize::from(b >> 6)] >> (b & 63) & 1 == 1
    }

    /// Whether the character whose UTF-8 starts at byte `at` of `s` (a boundary) is in the set,
    /// and its length in bytes.
    #[inline(always)]
    fn at_start(&self, s: &str, at: usize) -> Option<usize> {
        let b = s.as_bytes()[at];
        if b < 0x80 {
            return self.has_ascii(b).then_some(1);
        }
        let c = s[at..].chars().next()?;
        self.chars.contains(&c).then(|| c.len_utf8())
    }

    /// Whether the character that ends at byte `at` of `s` (a boundary, not 0) is in the set,
    /// and its length in bytes.
    #[inline(always)]
    fn at_end(&self, s: &str, at: usize) -> Option<usize> {
        let b = s.as_bytes()[at - 1];
        if b < 0x80 {
            return self.has_ascii(b).then_some(1);
        }
        let c = s[..at].chars().next_back()?;
        self.chars.contains(&c).then(|| c.len_utf8())
    }

    /// `s.trim_start_matches(chars)`.
    #[inline(always)]
    pub fn trim_start<'a>(&self, s: &'a str) -> &'a str {
        let mut at = 0;
        while at < s.len() {
            match self.at_start(s, at) {
                Some(n) => at += n,
                None => break,
            }
        }
        &s[at..]
    }

    /// `s.trim_end_matches(chars)`.
    #[inline(always)]
    pub fn trim_end<'a>(&self, s: &'a str) -> &'a str {
        let mut at = s.len();
        while at > 0 {
            match self.at_end(s, at) {
                Some(n) => at -= n,
                None => break,
            }
        }
        &s[..at]
    }

    /// `s.ends_with(chars)`.
    #[inline(always)]
    pub fn ends(&self, s: &str) -> bool {
        !s.is_empty() && self.at_end(s, s.len()).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SET: &[char] = &['.', ',', '"', '\'', ')', '”', '’', '»', '…', '،', '؟', '。'];

    #[test]
    fn trims_as_str_does() {
        let set = CharSet::new(SET);
        for s in [
            "",
            ".",
            "word",
            "word.",
            "word.\"",
            "“word”",
            "(word),",
            "’’a’’",
            "..…,,",
            "؟كلمة؟",
            "模型。",
            "é.",
            ".é",
            "a\u{301}.",
            "\u{FEFF}x\u{FEFF}",
        ] {
            assert_eq!(set.trim_start(s), s.trim_start_matches(SET), "{s:?}");
            assert_eq!(set.trim_end(s), s.trim_end_matches(SET), "{s:?}");
            assert_eq!(set.ends(s), s.ends_with(SET), "{s:?}");
        }
        for u in 0..0x3100u32 {
            let Some(c) = char::from_u32(u) else { continue };
            let s = format!("{c}a{c}");
            assert_eq!(set.trim_start(&s), s.trim_start_matches(SET), "{u:#x}");
            assert_eq!(set.trim_end(&s), s.trim_end_matches(SET), "{u:#x}");
            assert_eq!(set.ends(&s), s.ends_with(SET), "{u:#x}");
        }
    }
}
