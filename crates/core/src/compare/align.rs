//! Two token streams of the same prompt lined up: identical, one a prefix of the other, or
//! parting at a byte — and at which token of each. Tokens are compared by their bytes, so two
//! tokenisations of the same text are the same text: where the tokens differ but the bytes do
//! not, the streams have not parted, and only tokens covering the same bytes in both are paired
//! for the logprob comparison (the others are counted as retokenised).

use super::output::Output;

/// How two outputs of one prompt relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The same bytes (the same tokens, or a different tokenisation of the same text).
    Identical,
    /// The reference's output is a prefix of the candidate's (the reference stopped first).
    ReferenceShorter,
    /// The candidate's output is a prefix of the reference's (the candidate stopped first).
    CandidateShorter,
    /// They differ from a byte that both have.
    Parted,
}

/// Where two outputs part, and which of their tokens cover the same bytes before that.
#[derive(Clone, Debug, PartialEq)]
pub struct Alignment {
    pub outcome: Relation,
    /// The length of their common byte prefix: the first byte that differs (or the shorter's
    /// length).
    pub at_byte: usize,
    /// The reference's token holding `at_byte` (its token count when it has ended there).
    pub reference_token: usize,
    /// The candidate's token holding `at_byte`.
    pub candidate_token: usize,
    /// Where those two tokens start (bytes of each side; `at_byte` when a side has no token
    /// there): the continuations are shown from there.
    pub reference_token_start: usize,
    pub candidate_token_start: usize,
    /// Pairs `(reference token, candidate token)` covering the same bytes, wholly inside the
    /// common prefix, in order.
    pub pairs: Vec<(usize, usize)>,
    /// Tokens of the reference inside the common prefix that have no such partner (the two
    /// tokenised those bytes differently).
    pub retokenised: usize,
    /// Bytes of each side.
    pub reference_bytes: usize,
    pub candidate_bytes: usize,
}

impl Alignment {
    /// The parting point as a share of the reference's output (1 when they do not part).
    pub fn share(&self) -> f64 {
        if self.outcome == Relation::Identical || self.reference_bytes == 0 {
            1.0
        } else {
            self.at_byte as f64 / self.reference_bytes as f64
        }
    }
}

/// Each token's end offset in the joined bytes (one "token" covering the whole text when
/// there are no tokens).
fn token_ends(output: &Output, total: usize) -> Vec<usize> {
    if output.tokens.is_empty() {
        return if total == 0 { Vec::new() } else { vec![total] };
    }
    let mut end = 0;
    output
        .tokens
        .iter()
        .map(|t| {
            end += t.token_bytes().len();
            end
        })
        .collect()
}

/// The index of the token holding byte `at` (the count when `at` is past the end).
fn token_at(ends: &[usize], at: usize) -> usize {
    ends.partition_point(|&e| e <= at)
}

/// Lines up `candidate` against `reference`. See the module doc.
pub fn align(reference: &Output, candidate: &Output) -> Alignment {
    let a = reference.compared_bytes();
    let b = candidate.compared_bytes();
    let at_byte = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let outcome = match (at_byte == a.len(), at_byte == b.len()) {
        (true, true) => Relation::Identical,
        (true, false) => Relation::ReferenceShorter,
        (false, true) => Relation::CandidateShorter,
        (false, false) => Relation::Parted,
    };
    let ends_a = token_ends(reference, a.len());
    let ends_b = token_ends(candidate, b.len());
    // Pairs: tokens with the same start and end, wholly inside the common prefix.
    let (mut pairs, mut retokenised) = (Vec::new(), 0);
    let (mut i, mut j) = (0, 0);
    let (mut start_a, mut start_b) = (0, 0);
    // Only real tokens pair: a side without tokens is compared by its bytes alone.
    let tokens = !reference.tokens.is_empty() && !candidate.tokens.is_empty();
    while tokens && i < ends_a.len() && ends_a[i] <= at_byte {
        while j < ends_b.len() && start_b < start_a {
            start_b = ends_b[j];
            j += 1;
        }
        if j < ends_b.len() && start_b == start_a && ends_b[j] == ends_a[i] {
            pairs.push((i, j));
        } else {
            retokenised += 1;
        }
        start_a = ends_a[i];
        i += 1;
    }
    let (reference_token, candidate_token) = (token_at(&ends_a, at_byte), token_at(&ends_b, at_byte));
    let start_of =
        |ends: &[usize], k: usize| if k == 0 { 0 } else { ends.get(k - 1).copied().unwrap_or(at_byte).min(at_byte) };
    Alignment {
        outcome,
        at_byte,
        reference_token,
        candidate_token,
        reference_token_start: start_of(&ends_a, reference_token),
        candidate_token_start: start_of(&ends_b, candidate_token),
        pairs,
        retokenised,
        reference_bytes: a.len(),
        candidate_bytes: b.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::TokenLogprob;

    fn out(tokens: &[&str]) -> Output {
        Output {
            text: tokens.concat(),
            tokens: tokens.iter().map(|t| TokenLogprob { token: t.to_string(), ..TokenLogprob::default() }).collect(),
            ..Output::default()
        }
    }

    /// The oracle: pairs found by comparing every token's span with every other's.
    fn naive_pairs(a: &[&str], b: &[&str], prefix: usize) -> Vec<(usize, usize)> {
        let spans = |t: &[&str]| {
            let mut at = 0;
            t.iter()
                .map(|s| {
                    at += s.len();
                    (at - s.len(), at)
                })
                .collect::<Vec<_>>()
        };
        let (sa, sb) = (spans(a), spans(b));
        let mut out = Vec::new();
        for (i, x) in sa.iter().enumerate() {
            for (j, y) in sb.iter().enumerate() {
                if x == y && x.1 <= prefix {
                    out.push((i, j));
                }
            }
        }
        out
    }

    #[test]
    fn equal_streams_are_identical_with_every_token_paired() {
        let t = ["The", " cat", " sat", "."];
        let al = align(&out(&t), &out(&t));
        assert_eq!(al.outcome, Relation::Identical);
        assert_eq!(al.pairs, vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
        assert_eq!((al.retokenised, al.share()), (0, 1.0));
    }

    #[test]
    fn parting_at_the_first_token() {
        let al = align(&out(&["Hello", " there"]), &out(&["Yes", " there"]));
        assert_eq!((al.outcome, al.at_byte, al.reference_token, al.candidate_token), (Relation::Parted, 0, 0, 0));
        assert!(al.pairs.is_empty());
        assert_eq!(al.share(), 0.0);
    }

    #[test]
    fn parting_at_the_last_token_inside_a_shared_start() {
        // " they" and " then" share " the": the streams part at byte 8, inside token 2.
        let al = align(&out(&["And", " so", " they", " went"]), &out(&["And", " so", " then", " went"]));
        assert_eq!((al.outcome, al.at_byte, al.reference_token, al.candidate_token), (Relation::Parted, 10, 2, 2));
        assert_eq!(al.pairs, vec![(0, 0), (1, 1)]);
        assert_eq!((al.reference_token_start, al.candidate_token_start), (6, 6));
        let al = align(&out(&["a", "b", "c"]), &out(&["a", "b", "d"]));
        assert_eq!((al.at_byte, al.reference_token, al.pairs.len()), (2, 2, 2));
    }

    #[test]
    fn one_a_prefix_of_the_other() {
        let (long, short) = (out(&["a", "b", "c"]), out(&["a", "b"]));
        let al = align(&long, &short);
        assert_eq!(
            (al.outcome, al.at_byte, al.reference_token, al.candidate_token),
            (Relation::CandidateShorter, 2, 2, 2)
        );
        assert_eq!(al.pairs, vec![(0, 0), (1, 1)]);
        assert_eq!(align(&short, &long).outcome, Relation::ReferenceShorter);
        assert_eq!(align(&out(&[]), &out(&[])).outcome, Relation::Identical);
    }

    #[test]
    fn different_tokenisations_of_the_same_text_are_the_same_text() {
        let a = ["un", "believ", "able", " story"];
        let b = ["unbeliev", "able", " st", "ory"];
        let al = align(&out(&a), &out(&b));
        assert_eq!(al.outcome, Relation::Identical);
        assert_eq!(al.pairs, vec![(2, 1)], "only `able` covers the same bytes in both");
        assert_eq!(al.retokenised, 3);
        // Retokenised, then parted later: the parting point is in bytes, each side's token named.
        let al = align(&out(&["un", "believ", "able", " story"]), &out(&["unbeliev", "able", " tale"]));
        assert_eq!((al.outcome, al.at_byte, al.reference_token, al.candidate_token), (Relation::Parted, 13, 3, 2));
    }

    #[test]
    fn pairs_match_the_naive_oracle_on_many_tokenisations() {
        // Cut one text at pseudo-random places, twice, with a parting at several points.
        let text = "the quick brown fox jumps over the lazy dog again and again";
        let mut rng_state = 7u64;
        let mut next = || {
            rng_state = rng_state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (rng_state >> 33) as usize
        };
        for round in 0..300 {
            let cut = |next: &mut dyn FnMut() -> usize, s: &'static str| {
                let mut pieces = Vec::new();
                let mut at = 0;
                while at < s.len() {
                    let len = 1 + next() % 5;
                    let end = (at + len).min(s.len());
                    pieces.push(&s[at..end]);
                    at = end;
                }
                pieces
            };
            let a = cut(&mut next, text);
            let other: &'static str = if round % 3 == 0 { text } else { "the quick brown fox jumps over a lazy cat" };
            let b = cut(&mut next, other);
            let al = align(&out(&a), &out(&b));
            let prefix = text.bytes().zip(other.bytes()).take_while(|(x, y)| x == y).count();
            assert_eq!(al.at_byte, prefix);
            assert_eq!(al.pairs, naive_pairs(&a, &b, prefix), "{a:?} {b:?}");
        }
    }
}
