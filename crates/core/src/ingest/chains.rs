//! Conversations rebuilt from exchanges that repeat their history. A client sends the whole
//! conversation with every request, so a log of a 40-turn session holds its first turn 40
//! times. Here an exchange whose request extends the request of an earlier exchange (the
//! longest such: the earlier turns are a prefix of its turns) continues that exchange's
//! conversation: only its turns not seen there are added, in order, each with the bytes and
//! line of the exchange where it first appeared. An exchange that extends none starts a
//! conversation of its own, so unrelated requests stay apart even when they share a system
//! prompt.
//!
//! A conversation is a tree of turns: each reply hangs after the request it answers (several
//! choices, or the same request sent again with another reply, are siblings), and the next
//! request walks down it, matching turn by turn. Turns match on what was said apart from the
//! reasoning (clients drop a reply's reasoning from the history they send back), identified by
//! a 64-bit hash of their roles, channels, names, call ids and texts.
//!
//! The state is small (a node per distinct turn, an entry per request) and takes exchanges one
//! at a time, so a log read in pieces gives the same conversations as the whole. Messages are
//! added as their turns first appear, so conversations may interleave: the readers group them
//! at the end ([`Builder::group_conversations`]).

use super::builder::{Builder, Origin, Part};
use super::history::HistoryTurn;
use super::transcript::Channel;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// No node: the root of a conversation.
const ROOT: u32 = u32::MAX;

struct Node {
    parent: u32,
    conversation: u32,
    turn: u64,
}

#[derive(Default)]
pub struct Chains {
    nodes: Vec<Node>,
    /// The node after `parent` whose turn hashes to the key's second half.
    children: HashMap<(u32, u64), u32>,
    /// Each request seen, by the hash of its turns' hashes: the node of its last turn.
    requests: HashMap<u64, u32>,
    /// Per conversation, the next turn's index.
    next_turn: Vec<usize>,
}

impl Chains {
    /// Conversations so far (the next one's number).
    pub fn conversations(&self) -> usize {
        self.next_turn.len()
    }

    /// Adds one exchange read from `at`: the turns of its request (empty ones are skipped),
    /// then its replies, each after the request. Returns whether it held any turn.
    pub fn add(&mut self, b: &mut Builder, request: Vec<HistoryTurn>, replies: Vec<HistoryTurn>, at: &Origin) -> bool {
        let request: Vec<HistoryTurn> = request.into_iter().filter(|t| !t.parts.is_empty()).collect();
        let hashes: Vec<u64> = request.iter().map(|t| turn_hash(&t.parts)).collect();
        let mut prefixes = Vec::with_capacity(hashes.len());
        let mut h = 0u64;
        for &t in &hashes {
            h = hash_of(&(h, t));
            prefixes.push(h);
        }
        // The longest earlier request that this one extends.
        let found = (1..=hashes.len()).rev().find_map(|len| {
            let &node = self.requests.get(&prefixes[len - 1])?;
            self.path_is(node, &hashes[..len]).then_some((len, node))
        });
        let (mut conversation, mut node, skip) = match found {
            Some((len, node)) => (Some(self.nodes[node as usize].conversation as usize), node, len),
            None => (None, ROOT, 0),
        };
        let any = !request.is_empty() || replies.iter().any(|r| !r.parts.is_empty());
        for (turn, hash) in request.into_iter().zip(hashes).skip(skip) {
            node = self.step(b, &mut conversation, node, turn, hash, at);
        }
        if let Some(&last) = prefixes.last() {
            self.requests.insert(last, node);
        }
        // Replies hang after the request; with no request, they follow one another.
        let asked = node;
        for reply in replies.into_iter().filter(|r| !r.parts.is_empty()) {
            let hash = turn_hash(&reply.parts);
            let after = if asked == ROOT { node } else { asked };
            node = self.step(b, &mut conversation, after, reply, hash, at);
        }
        any
    }

    /// Adds a turn as a conversation of its own (a reply with no request, where each reply is
    /// one: the choices of a bare completion).
    pub fn alone(&mut self, b: &mut Builder, turn: HistoryTurn, at: &Origin) {
        if !turn.parts.is_empty() {
            let hash = turn_hash(&turn.parts);
            self.step(b, &mut None, ROOT, turn, hash, at);
        }
    }

    /// Whether the turns from the root to `node` hash to `hashes`.
    fn path_is(&self, mut node: u32, hashes: &[u64]) -> bool {
        for &h in hashes.iter().rev() {
            let Some(n) = self.nodes.get(node as usize) else { return false };
            if n.turn != h {
                return false;
            }
            node = n.parent;
        }
        node == ROOT
    }

    /// The node after `parent` for `turn`: the one already there, or a new one whose parts are
    /// added to the transcript (in `conversation`, started if need be).
    fn step(
        &mut self,
        b: &mut Builder,
        conversation: &mut Option<usize>,
        parent: u32,
        turn: HistoryTurn,
        hash: u64,
        at: &Origin,
    ) -> u32 {
        if parent != ROOT {
            if let Some(&n) = self.children.get(&(parent, hash)) {
                return n;
            }
        }
        let c = *conversation.get_or_insert_with(|| {
            self.next_turn.push(0);
            self.next_turn.len() - 1
        });
        let index = self.next_turn[c];
        self.next_turn[c] += 1;
        let origin = match turn.source {
            Some(r) => Origin::new(r, None),
            None => at.clone(),
        };
        for part in turn.parts {
            b.message((c, index), part, origin.clone());
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node { parent, conversation: c as u32, turn: hash });
        if parent != ROOT {
            self.children.insert((parent, hash), id);
        }
        id
    }
}

/// A turn's identity: its parts apart from the reasoning (all of them when it holds only
/// reasoning).
fn turn_hash(parts: &[Part]) -> u64 {
    let said = parts.iter().any(|p| p.channel != Channel::Reasoning);
    let mut h = DefaultHasher::new();
    for p in parts.iter().filter(|p| !said || p.channel != Channel::Reasoning) {
        (p.role.as_str(), p.channel, &p.name, &p.call_id, p.text.as_str()).hash(&mut h);
    }
    h.finish()
}

fn hash_of<T: Hash>(v: &T) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{Format, Transcript};

    fn turn(role: &str, channel: Channel, text: &str) -> HistoryTurn {
        HistoryTurn { parts: vec![Part::new(role, channel, text.into())], source: None }
    }

    fn said(turns: &[(&str, &str)]) -> Vec<HistoryTurn> {
        turns.iter().map(|(r, t)| turn(r, Channel::Content, t)).collect()
    }

    fn run(exchanges: Vec<(Vec<HistoryTurn>, Vec<HistoryTurn>)>) -> Transcript {
        let mut b = Builder::new(b"", Format::Jsonl);
        let mut chains = Chains::default();
        for (k, (request, replies)) in exchanges.into_iter().enumerate() {
            chains.add(&mut b, request, replies, &Origin::new(0..0, Some(k + 1)));
        }
        b.finish()
    }

    fn summary(t: &Transcript) -> Vec<String> {
        let show = |m: &crate::ingest::Message| {
            format!("{}.{} {} {} {} @{}", m.conversation, m.turn, m.role, m.channel.as_str(), m.text, m.line.unwrap())
        };
        t.messages.iter().map(show).collect()
    }

    #[test]
    fn a_growing_history_is_one_conversation_each_turn_once() {
        let reply =
            |text: &str| vec![turn("assistant", Channel::Reasoning, "hmm"), turn("assistant", Channel::Content, text)];
        // The reply's reasoning is not sent back; the history holds its content only.
        let r1 = vec![HistoryTurn { parts: reply("a1").into_iter().flat_map(|t| t.parts).collect(), source: None }];
        let t = run(vec![
            (said(&[("system", "s"), ("user", "u1")]), r1),
            (
                said(&[("system", "s"), ("user", "u1"), ("assistant", "a1"), ("user", "u2")]),
                said(&[("assistant", "a2")]),
            ),
            (said(&[("system", "s"), ("user", "other")]), said(&[("assistant", "b1")])),
            (
                said(&[
                    ("system", "s"),
                    ("user", "u1"),
                    ("assistant", "a1"),
                    ("user", "u2"),
                    ("assistant", "a2"),
                    ("user", "u3"),
                ]),
                said(&[("assistant", "a3")]),
            ),
            // The same request again, with another reply: a sibling of the first.
            (said(&[("system", "s"), ("user", "u1")]), said(&[("assistant", "a1'")])),
            // Logged twice: nothing new.
            (said(&[("system", "s"), ("user", "other")]), said(&[("assistant", "b1")])),
        ]);
        assert_eq!(
            summary(&t),
            vec![
                "0.0 system content s @1",
                "0.1 user content u1 @1",
                "0.2 assistant reasoning hmm @1",
                "0.2 assistant content a1 @1",
                "0.3 user content u2 @2",
                "0.4 assistant content a2 @2",
                "1.0 system content s @3",
                "1.1 user content other @3",
                "1.2 assistant content b1 @3",
                "0.5 user content u3 @4",
                "0.6 assistant content a3 @4",
                "0.7 assistant content a1' @5",
            ]
        );
    }

    #[test]
    fn replies_without_a_request_follow_one_another_and_stand_alone() {
        let t = run(vec![
            (Vec::new(), said(&[("assistant", "x"), ("assistant", "y")])),
            (Vec::new(), said(&[("assistant", "x")])),
        ]);
        assert_eq!(
            summary(&t),
            vec!["0.0 assistant content x @1", "0.1 assistant content y @1", "1.0 assistant content x @2"]
        );
    }

    /// The naive rule, stated with whole paths: an exchange joins the conversation of the
    /// earlier request that is the longest prefix of its request; a turn is added unless the
    /// same path of turns (reasoning aside) is already in that conversation.
    fn naive(exchanges: &[(Vec<HistoryTurn>, Vec<HistoryTurn>)]) -> Vec<String> {
        let key = |t: &HistoryTurn| {
            let said: Vec<_> = t.parts.iter().filter(|p| p.channel != Channel::Reasoning).collect();
            format!("{said:?}")
        };
        let mut requests: Vec<(Vec<String>, usize)> = Vec::new();
        let mut paths: Vec<(usize, Vec<String>)> = Vec::new();
        let mut next: Vec<usize> = Vec::new();
        let mut out = Vec::new();
        for (k, (request, replies)) in exchanges.iter().enumerate() {
            let q: Vec<String> = request.iter().map(key).collect();
            let found = requests.iter().filter(|(e, _)| !e.is_empty() && q.starts_with(e)).max_by_key(|(e, _)| e.len());
            let (mut c, from) = match found {
                Some((e, c)) => (Some(*c), e.len()),
                None => (None, 0),
            };
            let mut emit = |path: Vec<String>, turn: &HistoryTurn, out: &mut Vec<String>| {
                let c = *c.get_or_insert_with(|| {
                    next.push(0);
                    next.len() - 1
                });
                if !paths.contains(&(c, path.clone())) {
                    for p in &turn.parts {
                        out.push(format!("{c}.{} {} {} {} @{}", next[c], p.role, p.channel.as_str(), p.text, k + 1));
                    }
                    next[c] += 1;
                    paths.push((c, path));
                }
                c
            };
            let mut conversation = None;
            for i in from..q.len() {
                conversation = Some(emit(q[..=i].to_vec(), &request[i], &mut out));
            }
            let mut after = q.clone();
            for r in replies {
                let mut path = if q.is_empty() { after.clone() } else { q.clone() };
                path.push(key(r));
                conversation = Some(emit(path.clone(), r, &mut out));
                after = path;
            }
            if let (false, Some(c)) = (q.is_empty(), conversation.or(found.map(|(_, c)| *c))) {
                requests.push((q, c));
            }
        }
        out
    }

    /// Exchanges as a client makes them: each request is an earlier one, plus its first reply
    /// (sent back without its reasoning), plus some new turns, or new turns only.
    fn exchanges() -> impl Strategy<Value = Vec<(Vec<HistoryTurn>, Vec<HistoryTurn>)>> {
        let turn = (0..2usize, 0..3usize, any::<bool>()).prop_map(|(role, text, thinks)| {
            let role = ["user", "assistant"][role];
            let mut parts = vec![Part::new(role, Channel::Content, format!("{role} {text}"))];
            if thinks && role == "assistant" {
                parts.insert(0, Part::new(role, Channel::Reasoning, format!("thought {text}")));
            }
            HistoryTurn { parts, source: None }
        });
        let record = (
            prop::option::of(any::<prop::sample::Index>()),
            prop::collection::vec(turn.clone(), 0..3),
            prop::collection::vec(turn, 0..3),
        );
        prop::collection::vec(record, 0..12).prop_map(|records| {
            let mut out: Vec<(Vec<HistoryTurn>, Vec<HistoryTurn>)> = Vec::new();
            for (base, extra, replies) in records {
                let mut request = Vec::new();
                if let Some(i) = base.filter(|_| !out.is_empty()) {
                    let (q, r) = &out[i.index(out.len())];
                    request.extend(q.iter().cloned());
                    if let Some(first) = r.first() {
                        let said = first.parts.iter().filter(|p| p.channel != Channel::Reasoning).cloned().collect();
                        request.push(HistoryTurn { parts: said, source: None });
                    }
                }
                request.extend(extra);
                out.push((request, replies));
            }
            out
        })
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn chains_equal_the_naive_rule(exchanges in exchanges()) {
            let want = naive(&exchanges);
            let mut got = summary(&run(exchanges));
            got.sort_by_key(|m| m.split('.').next().and_then(|c| c.parse::<usize>().ok()));
            let mut want = want;
            want.sort_by_key(|m| m.split('.').next().and_then(|c| c.parse::<usize>().ok()));
            prop_assert_eq!(got, want);
        }
    }
}
