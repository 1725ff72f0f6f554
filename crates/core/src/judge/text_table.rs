//! Tables keyed by whole texts — the judge's texts met (an identical message is analysed once:
//! a request log repeats its history), the shares' texts — hashed eight bytes at a time.
//!
//! The standard table's hasher (SipHash) reads a byte string at about a byte a cycle; a plain
//! text of 50 MB is one key, and looking it up and adding it cost the page's worker 74 ms after
//! its analysis (timed in Chromium, 2026-12-08). [`TextHasher`] folds four 64-bit words at a time
//! into four lanes (a multiply and a rotation each, independent of the other lanes), then mixes
//! them with splitmix's finaliser: the whole text still decides the hash, so texts that differ
//! anywhere — the same tool output with another number in its middle — rarely collide. Not
//! meant to resist crafted collisions (nor is anything else the judge hashes).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::splitmix::{mix, GOLDEN};

/// A table from texts to `V`, hashed by [`TextHasher`].
pub type TextTable<'t, V> = HashMap<&'t str, V, BuildHasherDefault<TextHasher>>;

/// A hasher for long byte strings (see the module's header).
#[derive(Clone, Copy, Default)]
pub struct TextHasher {
    lanes: [u64; 4],
    len: u64,
}

/// One word folded into a lane.
#[inline(always)]
fn fold(lane: u64, word: u64) -> u64 {
    (lane ^ word).wrapping_mul(GOLDEN).rotate_left(31)
}

fn word(bytes: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(w)
}

impl Hasher for TextHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.len = self.len.wrapping_add(bytes.len() as u64);
        let mut blocks = bytes.chunks_exact(32);
        for block in &mut blocks {
            for (lane, w) in self.lanes.iter_mut().zip(block.chunks_exact(8)) {
                *lane = fold(*lane, word(w));
            }
        }
        for (k, w) in blocks.remainder().chunks(8).enumerate() {
            self.lanes[k] = fold(self.lanes[k], word(w));
        }
    }

    fn write_u8(&mut self, b: u8) {
        self.lanes[0] = fold(self.lanes[0], u64::from(b) | 1 << 63);
    }

    fn finish(&self) -> u64 {
        let [a, b, c, d] = self.lanes;
        mix(mix(a ^ self.len) ^ b.rotate_left(16) ^ mix(c).rotate_left(32) ^ d.rotate_left(48))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash(text: &str) -> u64 {
        BuildHasherDefault::<TextHasher>::default().hash_one(text)
    }

    #[test]
    fn texts_that_differ_anywhere_hash_apart() {
        // Every length around the block and word edges, changed at every byte, and cut short.
        let base: String = (0..100).map(|i| char::from(b'a' + (i * 7 % 26) as u8)).collect();
        let mut hashes = std::collections::HashSet::new();
        let mut made = 0;
        for len in 0..=base.len() {
            let text = &base[..len];
            hashes.insert(hash(text));
            made += 1;
            for at in 0..len {
                let mut changed = text.as_bytes().to_vec();
                changed[at] = b'Z';
                hashes.insert(hash(std::str::from_utf8(&changed).expect("ASCII")));
                made += 1;
            }
        }
        assert_eq!(hashes.len(), made, "no two of {made} texts share a hash");
    }

    #[test]
    fn trailing_zero_bytes_change_the_hash() {
        let texts = ["", "\0", "\0\0", "\0\0\0\0\0\0\0\0", &"\0".repeat(32), &"\0".repeat(33)];
        let hashes: std::collections::HashSet<u64> = texts.iter().map(|t| hash(t)).collect();
        assert_eq!(hashes.len(), texts.len());
    }

    #[test]
    fn a_table_finds_equal_texts_by_content() {
        let long = "a tool's output, the same but for one number: 41\n".repeat(2_000);
        let other = long.replacen("41", "42", 1);
        let mut table: TextTable<usize> = TextTable::default();
        assert_eq!(table.insert(&long, 1), None);
        assert_eq!(table.insert(&other, 2), None);
        let copy = long.clone();
        assert_eq!(table.get(copy.as_str()), Some(&1));
        assert_eq!(table.len(), 2);
        let mut h = TextHasher::default();
        "x".hash(&mut h);
        assert_ne!(h.finish(), TextHasher::default().finish());
    }
}
