//! Whether a stream's turns say again what an earlier turn said — a non-blank line, or a run of
//! 8 tokens (the copies check's shingle) — before it is analysed. A stream whose turns share
//! nothing can show no loop across turns (a loop inside one message is its own report's): it is
//! then not analysed, which spares a log of thousands of unrelated replies a second pass over
//! its text. A hash match is enough to analyse; the analysis decides.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::model_stream::{StreamKind, StreamLayout};
use crate::analyze::ngram_stats::{hash_bytes, mix, tokens};
use crate::ingest::{Channel, Transcript};

/// Tokens in a shingle: a copy the copies check counts has at least this many.
const SHINGLE: usize = 8;

/// The hashes are already mixed: a set of them needs no second hash.
#[derive(Default)]
struct AsIs(u64);

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

type Seen = HashSet<u64, BuildHasherDefault<AsIs>>;

/// Ends a turn: whether it said again what an earlier turn of each stream said; then what it
/// said is seen.
fn flush(turn: &mut [Vec<u64>; 3], seen: &mut [Seen; 3], found: &mut [bool; 3]) {
    for i in 0..3 {
        found[i] |= turn[i].iter().any(|h| seen[i].contains(h));
        seen[i].extend(turn[i].drain(..));
    }
}

/// The hashes of `text`'s trimmed non-blank lines and of its runs of [`SHINGLE`] tokens.
pub(super) fn hashes(text: &str, out: &mut Vec<u64>) {
    out.extend(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| mix(hash_bytes(l.as_bytes()) ^ 1)));
    let toks: Vec<u64> = tokens(text).iter().map(|k| hash_bytes(&text.as_bytes()[k.range()])).collect();
    out.extend(
        toks.windows(SHINGLE).map(|w| w.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &x| mix(h.rotate_left(17) ^ x))),
    );
}

/// For the model stream laid out in `s`: which streams — of every channel, of the reasoning
/// alone, of the content alone — have a turn that says again a line or shingle an earlier turn
/// of the same stream said.
pub(super) fn says_again(t: &Transcript, s: &StreamLayout) -> Vec<StreamKind> {
    let channel_of = |k: usize| t.messages[k].channel;
    let mut seen: [Seen; 3] = Default::default();
    let mut found = [false; 3];
    let mut turn: [Vec<u64>; 3] = Default::default();
    let mut place = None;
    let mut scratch = Vec::new();
    for p in &s.pieces {
        let m = &t.messages[p.message];
        if place.is_some_and(|q| q != (m.conversation, m.index)) {
            flush(&mut turn, &mut seen, &mut found);
            if found == [true; 3] {
                break;
            }
        }
        place = Some((m.conversation, m.index));
        scratch.clear();
        hashes(&s.text[p.at.clone()], &mut scratch);
        turn[0].extend_from_slice(&scratch);
        match channel_of(p.message) {
            Channel::Reasoning => turn[1].extend_from_slice(&scratch),
            Channel::Content => turn[2].extend_from_slice(&scratch),
            Channel::Tool => {}
        }
    }
    flush(&mut turn, &mut seen, &mut found);
    StreamKind::ALL.into_iter().zip(found).filter(|(_, f)| *f).map(|(k, _)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{Format, Message};

    fn transcript(turns: &[&[(Channel, &str)]]) -> (Transcript, StreamLayout) {
        let mut t = Transcript::new(Format::SessionJsonl);
        for (i, parts) in turns.iter().enumerate() {
            for (channel, text) in parts.iter() {
                t.messages.push(Message {
                    conversation: 0,
                    index: i,
                    role: "assistant".into(),
                    channel: *channel,
                    name: None,
                    call_id: None,
                    text: text.to_string().into(),
                    source: 0..0,
                    line: None,
                });
            }
        }
        let all: Vec<usize> = (0..t.messages.len()).collect();
        let s = StreamLayout::new(&t, &all);
        (t, s)
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
    }
}
