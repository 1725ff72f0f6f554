//! distinct-n and rep-n for n = 1..4: how varied the text's token n-grams are (shown, not gating).
//!
//! Over the tokens and token ids of [`super::tokens`]; an n-gram's id is a 64-bit hash of its
//! token ids ([`ngram_id`]; two different n-grams of m share one with odds of about m²/2⁶⁴).
//!
//! Values, both in 0..=1: distinct-n = unique n-grams / n-grams (1.0 when the text has fewer
//! than n tokens) and rep-n = 1 − distinct-n (Welleck et al., 2019). Coherent prose keeps
//! distinct-4 near 1 at any length while distinct-1 falls as the vocabulary saturates; a loop
//! drives every distinct-n towards 0 (a text that is the same 4-gram 1000 times: distinct-4 =
//! 0.001). They are figures to show beside the verdict: long legit texts (tables, logs) also
//! have a low distinct-1, so no threshold on them would mean "the model is looping".
//!
//! Cost: one pass to tokenise, one table insertion per token and n (a [`FirstSeen`] table of
//! first positions: n-grams are counted distinct by their token ids, exactly). Beyond
//! [`EXACT_UP_TO`] n-grams the sets stop fitting in cache; distinct counts are then estimated
//! from a fixed hash sample (the n-grams whose id is 0 modulo `sample`, a power of two, the
//! count multiplied back; for such counts the standard error is about 1/√(sampled count),
//! well under 1 %). [`NgramStats::sample`] says which: 1 is exact.

use super::first_seen::FirstSeen;
use super::tokens::{token_ids, tokens};
use crate::splitmix::{mix, GOLDEN};

/// The id of the n-gram of `ids` (order matters): a 64-bit hash.
#[inline(always)]
pub fn ngram_id(ids: &[u32]) -> u64 {
    let mut h = GOLDEN;
    for &id in ids {
        h = mix(h.rotate_left(17) ^ u64::from(id));
    }
    h
}

/// distinct-n and rep-n for n = 1..=4 (index n − 1).
#[derive(Clone, Debug, PartialEq)]
pub struct NgramStats {
    pub tokens: usize,
    /// 1: every n-gram counted; k > 1: distinct counts estimated from 1 n-gram id in k.
    pub sample: usize,
    pub distinct: [f64; 4],
    pub rep: [f64; 4],
    /// Distinct n-grams (estimated from the sample), n = 1..=4: with them the other scorers'
    /// tables of n-grams are sized for what a text holds, not for every position (a loop of
    /// 20 million tokens has a handful of distinct 8-grams).
    pub distinct_count: [usize; 4],
}

/// The n-gram figures of `text`.
pub fn ngram_stats(text: &str) -> NgramStats {
    let ids = token_ids(text, &tokens(text));
    ngram_stats_of(&ids)
}

/// Exact distinct counts up to this many n-grams; sampled beyond.
pub const EXACT_UP_TO: usize = 1 << 20;

/// The n-gram figures of a token-id sequence.
pub fn ngram_stats_of(ids: &[u32]) -> NgramStats {
    ngram_stats_sampled(ids, ids.len().div_ceil(EXACT_UP_TO).next_power_of_two())
}

/// The n-gram figures counting only n-grams whose id is 0 modulo `sample` (a power of two).
pub fn ngram_stats_sampled(ids: &[u32], sample: usize) -> NgramStats {
    let mask = sample as u64 - 1;
    let mut distinct = [1.0; 4];
    let mut distinct_count = [0; 4];
    // Ids are numbered in order of first occurrence: the vocabulary is the largest one + 1, and
    // there are at most (distinct (n−1)-grams × vocabulary) distinct n-grams.
    let vocabulary = ids.iter().max().map_or(0, |&m| m as usize + 1);
    let mut bound = 1usize;
    for (k, d) in distinct.iter_mut().enumerate() {
        let n = k + 1;
        if ids.len() < n {
            break;
        }
        bound = bound.saturating_mul(vocabulary);
        // The distinct n-grams among the sampled ones: a table of each one's first position.
        let distinct_sampled = if n == 1 {
            // A token's id is its first occurrence: the distinct tokens are those at their own.
            ids.iter().enumerate().filter(|&(at, &id)| at == id as usize && ngram_id(&[id]) & mask == 0).count()
        } else {
            let capacity = (bound / sample + 16).min(ids.len() / sample + 16).min(ids.len());
            match n {
                2 => distinct_grams::<2>(ids, mask, capacity),
                3 => distinct_grams::<3>(ids, mask, capacity),
                _ => distinct_grams::<4>(ids, mask, capacity),
            }
        };
        let grams = (ids.len() + 1 - n) as f64;
        distinct_count[k] = distinct_sampled * sample;
        bound = bound.min(distinct_count[k]);
        *d = ((distinct_sampled * sample) as f64 / grams).min(1.0);
    }
    NgramStats { tokens: ids.len(), sample, distinct, rep: distinct.map(|d| 1.0 - d), distinct_count }
}

/// How many distinct `N`-grams of `ids` have an id that is 0 modulo `mask + 1` (a table sized
/// for `capacity` of them; the n-grams compared as arrays, so each comparison is inlined).
fn distinct_grams<const N: usize>(ids: &[u32], mask: u64, capacity: usize) -> usize {
    let gram = |at: u32| -> [u32; N] { ids[at as usize..at as usize + N].try_into().unwrap_or([0; N]) };
    let mut seen = FirstSeen::with_capacity(capacity);
    let sampled = ids.windows(N).enumerate().map(|(at, w)| (at as u32, ngram_id(w))).filter(|&(_, id)| id & mask == 0);
    seen.find_or_insert_all(
        sampled,
        |j, at| gram(j) == gram(at),
        |j| ngram_id(&gram(j)),
        |j| ids[j as usize],
        |_, _| {},
    );
    seen.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn sampled_distinct_tokens_are_counted_from_their_ids_as_a_table_would() {
        let text: String = (0..30_000).map(|i| format!("w{} ", (i * 7919) % 5_000)).collect();
        let ids = token_ids(&text, &tokens(&text));
        for sample in [1, 2, 16] {
            let mask = sample as u64 - 1;
            let table: HashSet<u32> = ids.iter().copied().filter(|&id| ngram_id(&[id]) & mask == 0).collect();
            let s = ngram_stats_sampled(&ids, sample);
            assert_eq!(s.distinct_count[0], table.len() * sample, "sample {sample}");
        }
    }

    #[test]
    fn a_loop_has_low_distinct_n_and_prose_high() {
        let s = ngram_stats(&"a b c d ".repeat(250));
        assert_eq!(s.tokens, 1000);
        assert!((s.distinct[3] - 4.0 / 997.0).abs() < 1e-12);
        assert!((s.rep[0] - (1.0 - 4.0 / 1000.0)).abs() < 1e-12);
        let p = ngram_stats("one two three four five six");
        assert_eq!(p.distinct, [1.0; 4]);
        assert_eq!(ngram_stats("").distinct, [1.0; 4]);
        assert_eq!(ngram_stats("x y").distinct, [1.0; 4]);
        assert_eq!(p.sample, 1);
    }

    #[test]
    fn a_sampled_count_is_close_to_the_exact_one() {
        let ids: Vec<u32> = (0..400_000u32).map(|i| i % 150_000).collect();
        let exact = ngram_stats_sampled(&ids, 1);
        let sampled = ngram_stats_sampled(&ids, 16);
        for n in 0..4 {
            let (e, s) = (exact.distinct[n], sampled.distinct[n]);
            assert!((s - e).abs() / e < 0.03, "distinct-{}: exact {e}, sampled {s}", n + 1);
        }
        assert_eq!(ngram_stats_of(&ids).sample, 1);
        assert_eq!(ngram_stats_of(&vec![1; EXACT_UP_TO + 1]).sample, 2);
    }
}
