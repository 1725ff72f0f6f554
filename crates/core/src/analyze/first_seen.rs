//! [`FirstSeen`]: which earlier item equals this one? A hash table that stores only item
//! numbers (4 bytes a slot), for the scorers' big per-token tables.
//!
//! Items are numbered by the caller (token k, shingle k, line entry k) and kept by it; the
//! table stores the number of the first item of each kind and asks the caller, through a
//! `same(j)` closure, whether item `j` equals the one looked up. So nothing is copied (a line
//! is not stored again as a key) and equality is exact (no two different shingles are taken
//! for one because their hashes agree). A `HashSet<u64>` of hashes costs 9 bytes a slot plus
//! the power-of-two rounding; this table 4 bytes a slot, at most half full, and it answers
//! with the first occurrence itself, which the copy scorer wants as the copy's source.
//!
//! Open addressing with linear probing; a hash picks its first slot by multiply-shift (so a
//! table sized for n items has exactly 2n slots, not the next power of two). It doubles when
//! half full (rehashing each stored item through `hash_of(j)`). Item numbers must be below
//! 2³¹ ([`MAX_ITEMS`]).

/// Item numbers must be below this (so that a table has at most 2³² slots, whose index the
/// multiply-shift computes in 64 bits; `u32::MAX` marks an empty slot).
pub const MAX_ITEMS: usize = (1 << 31) - 1;
const EMPTY: u32 = u32::MAX;
/// Items looked up together by [`FirstSeen::find_or_insert_all`].
const BATCH: usize = 16;

/// The first item of each kind seen so far, by hash (see the module header).
#[derive(Clone, Debug, Default)]
pub struct FirstSeen {
    slots: Vec<u32>,
    len: usize,
}

impl FirstSeen {
    /// A table that holds `n` items without growing.
    pub fn with_capacity(n: usize) -> Self {
        Self { slots: vec![EMPTY; slots_for(n)], len: 0 }
    }

    /// How many kinds of item it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first slot to look at for `hash`: its high 32 bits scaled to the number of slots.
    #[inline(always)]
    fn start(&self, hash: u64) -> usize {
        (((hash >> 32) * self.slots.len() as u64) >> 32) as usize
    }

    #[inline(always)]
    fn next(&self, at: usize) -> usize {
        if at + 1 == self.slots.len() {
            0
        } else {
            at + 1
        }
    }

    /// The first stored item with hash `hash` for which `same` holds.
    #[inline(always)]
    pub fn find(&self, hash: u64, same: impl Fn(u32) -> bool) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mut at = self.start(hash);
        loop {
            match self.slots[at] {
                EMPTY => return None,
                j if same(j) => return Some(j),
                _ => at = self.next(at),
            }
        }
    }

    /// The stored item equal to `item` (by `same`), or `None` after storing `item` as the
    /// first of its kind. `hash` is `item`'s hash; `hash_of(j)` gives a stored item's (for
    /// growing).
    pub fn find_or_insert(
        &mut self,
        hash: u64,
        item: u32,
        same: impl Fn(u32) -> bool,
        hash_of: impl Fn(u32) -> u64,
    ) -> Option<u32> {
        debug_assert!((item as usize) < MAX_ITEMS, "item numbers must be below MAX_ITEMS");
        if self.len >= self.slots.len() / 2 {
            self.grow(&hash_of);
        }
        let mut at = self.start(hash);
        loop {
            match self.slots[at] {
                EMPTY => {
                    self.slots[at] = item;
                    self.len += 1;
                    return None;
                }
                j if same(j) => return Some(j),
                _ => at = self.next(at),
            }
        }
    }

    /// [`Self::find_or_insert`] for each of `items` (item number, hash) in turn, answering
    /// `visit(item, found)` in the same order and with the same answers. `same(j, i)`: stored item
    /// `j` equals item `i`; `hash_of(j)`: a stored item's hash; `touch(j)`: reads the start of
    /// stored item `j` (its first token id, say), for warming.
    ///
    /// On a long text the table and the items are far bigger than the caches, and one lookup
    /// after another waits for each of its memory reads in turn. So the items come in batches:
    /// the slots each of a batch starts at, then the stored items they hold, are read first —
    /// independent reads the processor overlaps — and the lookups that follow find them in cache.
    pub fn find_or_insert_all(
        &mut self,
        items: impl Iterator<Item = (u32, u64)>,
        same: impl Fn(u32, u32) -> bool,
        hash_of: impl Fn(u32) -> u64,
        touch: impl Fn(u32) -> u32,
        mut visit: impl FnMut(u32, Option<u32>),
    ) {
        let mut items = items.peekable();
        let mut batch = [(0u32, 0u64); BATCH];
        while items.peek().is_some() {
            let mut len = 0;
            for (slot, item) in batch.iter_mut().zip(items.by_ref()) {
                *slot = item;
                len += 1;
            }
            let batch = &batch[..len];
            self.warm(batch, &touch);
            for &(i, hash) in batch {
                let found = self.find_or_insert(hash, i, |j| same(j, i), &hash_of);
                visit(i, found);
            }
        }
    }

    /// Reads the slot each of `batch` starts at and the stored item it holds (see
    /// [`Self::find_or_insert_all`]).
    fn warm(&self, batch: &[(u32, u64)], touch: impl Fn(u32) -> u32) {
        if self.slots.is_empty() {
            return;
        }
        let mut firsts = [EMPTY; BATCH];
        for (first, &(_, hash)) in firsts.iter_mut().zip(batch) {
            *first = self.slots[self.start(hash)];
        }
        let sink = firsts[..batch.len()].iter().filter(|&&j| j != EMPTY).fold(0, |x, &j| x ^ touch(j));
        std::hint::black_box(sink);
    }

    #[cold]
    fn grow(&mut self, hash_of: &dyn Fn(u32) -> u64) {
        let slots = (self.slots.len() * 2).max(16);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; slots]);
        for j in old.into_iter().filter(|&j| j != EMPTY) {
            let mut at = self.start(hash_of(j));
            while self.slots[at] != EMPTY {
                at = self.next(at);
            }
            self.slots[at] = j;
        }
    }
}

/// Slots for `n` items, at most half full.
fn slots_for(n: usize) -> usize {
    n.max(1) * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A poor hash (many collisions) so probing and growing are exercised.
    fn poor_hash(s: &str) -> u64 {
        s.len() as u64 % 3
    }

    #[test]
    fn answers_the_first_equal_item_like_a_map_of_first_positions() {
        let words: Vec<&str> = "b a b c a a d b e f g h i j k l m n o p a".split(' ').collect();
        let mut table = FirstSeen::default();
        let mut first: std::collections::HashMap<&str, u32> = Default::default();
        for (i, w) in words.iter().enumerate() {
            let i = i as u32;
            let got =
                table.find_or_insert(poor_hash(w), i, |j| words[j as usize] == *w, |j| poor_hash(words[j as usize]));
            let want = first.get(w).copied();
            first.entry(w).or_insert(i);
            assert_eq!(got, want, "item {i} ({w})");
        }
        assert_eq!(table.len(), first.len());
        assert_eq!(table.find(poor_hash("c"), |j| words[j as usize] == "c"), Some(3));
        assert_eq!(table.find(poor_hash("zz"), |j| words[j as usize] == "zz"), None);
        assert!(FirstSeen::default().find(0, |_| true).is_none());
    }

    #[test]
    fn looked_up_in_batches_it_answers_as_one_lookup_after_another() {
        // Growing mid-batch, colliding hashes, items skipped (as a sample skips them).
        let words: Vec<String> = (0..500).map(|i| format!("w{}", (i * 37) % 101)).collect();
        let items = || (0..words.len() as u32).filter(|i| i % 7 != 3).map(|i| (i, poor_hash(&words[i as usize])));
        let mut one_by_one = FirstSeen::default();
        let want: Vec<(u32, Option<u32>)> = items()
            .map(|(i, h)| {
                let same = |j: u32| words[j as usize] == words[i as usize];
                (i, one_by_one.find_or_insert(h, i, same, |j| poor_hash(&words[j as usize])))
            })
            .collect();
        let mut batched = FirstSeen::default();
        let mut got = Vec::new();
        batched.find_or_insert_all(
            items(),
            |j, i| words[j as usize] == words[i as usize],
            |j| poor_hash(&words[j as usize]),
            |j| j,
            |i, found| got.push((i, found)),
        );
        assert_eq!(got, want);
        assert_eq!(batched.len(), one_by_one.len());
    }

    #[test]
    fn a_sized_table_does_not_grow_and_stays_at_most_half_full() {
        let mut table = FirstSeen::with_capacity(1000);
        let slots = table.slots.len();
        for i in 0..1000u32 {
            let h = crate::splitmix::mix(i as u64);
            assert_eq!(table.find_or_insert(h, i, |j| j == i, |j| crate::splitmix::mix(j as u64)), None);
        }
        assert_eq!(table.slots.len(), slots);
        assert!(table.len() * 2 <= slots);
    }
}
