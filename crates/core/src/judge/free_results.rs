//! The tool results of a conversation not taken by a call yet, by position: which is the first
//! free one from a position on, and is one free. What a `BTreeSet` of positions answers, in
//! near-constant time whatever the order results are taken in — in a fraction of its wasm (each
//! `BTreeSet` type is a few KB of the page's code). A union-find's "next free": a taken result
//! points past itself, and pointers are halved as they are followed.

/// Results by position (increasing), and which are free.
pub(super) struct FreeResults {
    at: Vec<usize>,
    /// `next[i] == i`: result `i` is free; else results `i..next[i]` are all taken. `next[n]`
    /// (`n` results) stands for "none".
    next: Vec<usize>,
}

impl FreeResults {
    /// All free: the results at positions `at`, increasing.
    pub fn new(at: Vec<usize>) -> FreeResults {
        let next = (0..=at.len()).collect();
        FreeResults { at, next }
    }

    /// The index of the first free result from index `i` on (`at.len()`: none).
    fn first_free(&mut self, mut i: usize) -> usize {
        while self.next[i] != i {
            self.next[i] = self.next[self.next[i]];
            i = self.next[i];
        }
        i
    }

    /// The position of the first free result at or after position `from`.
    pub fn first_from(&mut self, from: usize) -> Option<usize> {
        let i = self.first_free(self.at.partition_point(|&a| a < from));
        self.at.get(i).copied()
    }

    /// Whether a result at position `at` is free.
    pub fn is_free(&self, at: usize) -> bool {
        self.at.binary_search(&at).is_ok_and(|i| self.next[i] == i)
    }

    /// Takes the result at position `at` (if there is one).
    pub fn take(&mut self, at: usize) {
        if let Ok(i) = self.at.binary_search(&at) {
            self.next[i] = i + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any order of asking and taking answers as a `BTreeSet` of the free positions does.
        #[test]
        fn answers_as_a_set_of_the_free_positions(
            at in prop::collection::btree_set(0usize..60, 0..30),
            ops in prop::collection::vec((0u8..3, 0usize..64), 0..80),
        ) {
            let mut set = at.clone();
            let mut ours = FreeResults::new(at.into_iter().collect());
            for (op, pos) in ops {
                match op {
                    0 => prop_assert_eq!(ours.first_from(pos), set.range(pos..).next().copied()),
                    1 => prop_assert_eq!(ours.is_free(pos), set.contains(&pos)),
                    _ => {
                        ours.take(pos);
                        set.remove(&pos);
                    }
                }
            }
        }
    }
}
