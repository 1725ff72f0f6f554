//! A set of 64-bit hashes that are already mixed (`tokens::hash_bytes`): it needs no
//! second hash. One set type for every such set in the core (the gate's turns, the incoherence
//! checks' words): each other key or hasher type would add its own copy of the table's code to
//! the page's wasm.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher of a key that is a mixed hash already: the key itself.
#[derive(Default)]
pub struct AsIs(u64);

impl Hasher for AsIs {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A set of mixed 64-bit hashes.
pub type HashedSet = HashSet<u64, BuildHasherDefault<AsIs>>;
