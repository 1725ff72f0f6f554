//! Whether a stream's turns say again what an earlier turn said — a non-blank line, or a run of
//! [`SHINGLE`] words — before it is analysed. A stream whose turns share nothing can show no
//! loop across turns (a loop inside one message is its own report's): it is then not analysed,
//! which spares a log of thousands of unrelated replies a second pass over its text. What a
//! turn says more than once is its own loop, judged in its own report: it does not count as
//! said again in a later turn (a model falling into the same loop line in two replies FAILs on
//! each reply). A hash match is enough to analyse; the analysis decides. To stay cheap beside the analysis, the gate
//! looks at 1 run of words in [`SAMPLE`], chosen by its hash (so the same runs wherever they
//! are): text said again over a dozen words or more is all but surely seen, and a short turn
//! said again is a line said again.

use super::model_stream::{shown, StreamKind};
use crate::analyze::tokens::hash_bytes;
use crate::ingest::{Channel, Transcript};
use crate::splitmix::mix;

/// Words in a shingle.
pub(super) const SHINGLE: usize = 6;
/// The gate looks at 1 shingle in this many.
pub(super) const SAMPLE: u64 = 4;

/// The hashes are already mixed: a set of them needs no second hash.
type Seen = crate::analyze::hashed_set::HashedSet;

/// Ends a turn: whether it said again what an earlier turn of each stream said (of what the
/// turn says once); then what it said is seen. `once` and `twice` are scratch sets (sets of
/// the same type as `seen`: no sort and no other set type in the wasm).
fn flush(turn: &mut [Vec<u64>; 3], seen: &mut [Seen; 3], found: &mut [bool; 3], [once, twice]: &mut [Seen; 2]) {
    for i in 0..3 {
        once.clear();
        twice.clear();
        for &k in &turn[i] {
            if !once.insert(k) {
                twice.insert(k);
            }
        }
        found[i] |= once.iter().any(|k| !twice.contains(k) && seen[i].contains(k));
        seen[i].extend(turn[i].drain(..));
    }
}

/// The hashes of `text`'s trimmed non-blank lines and of 1 in `sample` of its runs of
/// [`SHINGLE`] words (split at ASCII whitespace), chosen by their hash.
pub(super) fn hashes(text: &str, sample: u64, out: &mut Vec<u64>) {
    out.extend(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| mix(hash_bytes(l.as_bytes()) ^ 1)));
    // A rolling hash of the last SHINGLE words' hashes: Σ w_i · B^(SHINGLE − 1 − i).
    const B: u64 = 0x0100_0000_01b3;
    let top = (1..SHINGLE).fold(1u64, |p, _| p.wrapping_mul(B));
    let mut ring = [0u64; SHINGLE];
    let mut h = 0u64;
    for (n, word) in text.split_ascii_whitespace().enumerate() {
        let w = hash_bytes(word.as_bytes());
        let slot = n % SHINGLE;
        if n >= SHINGLE {
            h = h.wrapping_sub(ring[slot].wrapping_mul(top));
        }
        h = h.wrapping_mul(B).wrapping_add(w);
        ring[slot] = w;
        if n + 1 >= SHINGLE {
            let m = mix(h);
            if m.is_multiple_of(sample) {
                out.push(m);
            }
        }
    }
}

/// For the model stream of `messages` (indices into `t.messages`, in order): which streams — of
/// every channel, of the reasoning alone, of the content alone — have a turn that says again a
/// line or shingle an earlier turn of the same stream said. Reads each text as the stream shows
/// it, without laying the stream out.
pub(super) fn says_again(t: &Transcript, messages: &[usize]) -> Vec<StreamKind> {
    let mut seen: [Seen; 3] = Default::default();
    let mut found = [false; 3];
    let mut turn: [Vec<u64>; 3] = Default::default();
    let mut place = None;
    let mut scratch = Vec::new();
    let mut sets: [Seen; 2] = Default::default();
    for &k in messages {
        let m = &t.messages[k];
        if place.is_some_and(|q| q != (m.conversation, m.turn)) {
            flush(&mut turn, &mut seen, &mut found, &mut sets);
            if found == [true; 3] {
                break;
            }
        }
        place = Some((m.conversation, m.turn));
        scratch.clear();
        hashes(&shown(m), SAMPLE, &mut scratch);
        turn[0].extend_from_slice(&scratch);
        match m.channel {
            Channel::Reasoning => turn[1].extend_from_slice(&scratch),
            Channel::Content => turn[2].extend_from_slice(&scratch),
            Channel::Tool => {}
        }
    }
    flush(&mut turn, &mut seen, &mut found, &mut sets);
    StreamKind::ALL.into_iter().zip(found).filter(|(_, f)| *f).map(|(k, _)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::message;
    use super::*;
    use crate::ingest::Format;

    fn transcript(turns: &[&[(Channel, &str)]]) -> (Transcript, Vec<usize>) {
        let mut t = Transcript::new(Format::SessionJsonl);
        for (i, parts) in turns.iter().enumerate() {
            for (channel, text) in parts.iter() {
                t.messages.push(message(i, "assistant", *channel, text));
            }
        }
        let all: Vec<usize> = (0..t.messages.len()).collect();
        (t, all)
    }

    #[test]
    fn a_line_or_eight_tokens_said_again_in_a_later_turn_count() {
        use Channel::{Content as C, Reasoning as R};
        let plan = "First I check the helper, then the leap year rule, then the test.";
        let (t, s) = transcript(&[
            &[(R, plan), (C, "One.")],
            &[(R, "Other thoughts entirely."), (C, "Two.")],
            &[(R, &format!("So: {plan}"))],
        ]);
        assert_eq!(says_again(&t, &s), [StreamKind::Model, StreamKind::Reasoning]);
        let (t, s) = transcript(&[&[(C, "Done.")], &[(R, "hmm"), (C, "Done.")]]);
        assert_eq!(says_again(&t, &s), [StreamKind::Model, StreamKind::Content], "a line said again");
        let (t, s) = transcript(&[&[(R, "Done."), (C, "Done.")], &[(C, "Something else, said once.")]]);
        assert!(says_again(&t, &s).is_empty(), "within one turn is the turn's own business");
        let (t, s) = transcript(&[&[(R, "Done.")], &[(C, "Done.")]]);
        assert_eq!(says_again(&t, &s), [StreamKind::Model], "across channels: the model stream only");
        let looping = "The reclaim thread scans the inactive list again.\n".repeat(5);
        let (t, s) = transcript(&[&[(R, &looping)], &[(R, "Something else.")], &[(R, &looping)]]);
        assert!(says_again(&t, &s).is_empty(), "the same loop in two turns is each turn's own");
    }
}
