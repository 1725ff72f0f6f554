//! The two DEFLATE passes over a text's bytes: the seed's gzip-9 size and the windowed profile.
//!
//! Both need nothing but the text's bytes in order, so a long text's passes can be counted from
//! its file in pieces while the rest of its analysis runs elsewhere (the page's second worker
//! reads the file again for them, the first analyses the text: see
//! [`analyze_without_deflate`](super::analyze_without_deflate)). They are two fifths of a prose
//! text's analysis.

use super::gzip_ratio::{gzip_size, GzipSizeCounter};
use super::profile::{profile, Profile, ProfileBuilder};
use serde::{Deserialize, Serialize};

/// A text's gzip-9 size and windowed profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeflatePasses {
    pub gzip_bytes: usize,
    pub profile: Profile,
}

/// Both passes over a whole text.
pub fn deflate_passes(text: &str) -> DeflatePasses {
    DeflatePasses { gzip_bytes: gzip_size(text.as_bytes()), profile: profile(text) }
}

/// Both passes over a text fed in pieces: [`DeflatePassCounter::finish`] gives what
/// [`deflate_passes`] gives for the pieces joined, for a text longer than
/// [`DUAL_ENCODING_LIMIT`](super::gzip_ratio::DUAL_ENCODING_LIMIT) (see [`GzipSizeCounter`]).
pub struct DeflatePassCounter {
    gzip: GzipSizeCounter,
    profile: ProfileBuilder,
}

impl DeflatePassCounter {
    /// A counter for a text of `len` bytes.
    pub fn new(len: usize) -> Self {
        Self { gzip: GzipSizeCounter::new(), profile: ProfileBuilder::new(len) }
    }

    /// Counts the next piece.
    pub fn feed(&mut self, piece: &[u8]) {
        self.gzip.feed(piece);
        self.profile.feed(piece);
    }

    /// Bytes fed so far.
    pub fn bytes(&self) -> usize {
        self.gzip.bytes()
    }

    /// Both passes over what was fed; `None` when it was not the length announced.
    pub fn finish(self) -> Option<DeflatePasses> {
        let profile = self.profile.finish()?;
        Some(DeflatePasses { gzip_bytes: self.gzip.finish(), profile })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_counted_in_pieces_has_the_passes_of_the_whole() {
        let prose = crate::samples::PROSE;
        let text = format!("{}{}", prose.repeat(40), "Let me check the configuration once more.\n".repeat(2_000));
        let whole = deflate_passes(&text);
        assert!(whole.profile.onset.is_some(), "the loop at its end is seen");
        for piece in [1, 4095, 65_536, text.len()] {
            let mut counter = DeflatePassCounter::new(text.len());
            for chunk in text.as_bytes().chunks(piece) {
                counter.feed(chunk);
            }
            assert_eq!(counter.bytes(), text.len());
            assert_eq!(counter.finish().as_ref(), Some(&whole), "pieces of {piece} bytes");
        }
        let mut short = DeflatePassCounter::new(text.len() + 1);
        short.feed(text.as_bytes());
        assert_eq!(short.finish(), None, "a text shorter than announced");
    }
}
