//! A transcript's conversations, each as its turns in order: the messages that share a
//! conversation and a turn index (`Message::index`), and whether the model wrote any of them.
//! What the cross-turn checks walk (the model stream, the tool calls) and what the conversation
//! view shows.

use std::ops::Range;

use super::authorship::Author;
use crate::ingest::Transcript;

/// One conversation's messages grouped into turns.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Conversation {
    /// Its number (`Message::conversation`).
    pub id: usize,
    /// Its messages, indices into [`Transcript::messages`], in order.
    pub messages: Vec<usize>,
    /// Its turns in order.
    pub turns: Vec<Turn>,
}

/// One turn: a run of a conversation's messages with the same turn index.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Turn {
    /// `Message::index`.
    pub index: usize,
    /// Positions in [`Conversation::messages`].
    pub at: Range<usize>,
    /// The model wrote at least one of its messages.
    pub model: bool,
}

impl Conversation {
    /// The messages of turn `k`, indices into [`Transcript::messages`].
    pub fn turn_messages(&self, k: usize) -> &[usize] {
        &self.messages[self.turns[k].at.clone()]
    }
}

/// Every conversation of `t`, in order of their numbers (conversations without messages are
/// left out).
pub(super) fn conversations(t: &Transcript) -> Vec<Conversation> {
    let mut by_id: Vec<Conversation> = Vec::new();
    for (k, m) in t.messages.iter().enumerate() {
        if by_id.len() <= m.conversation {
            by_id.resize_with(m.conversation + 1, Conversation::default);
        }
        let c = &mut by_id[m.conversation];
        c.id = m.conversation;
        let at = c.messages.len();
        c.messages.push(k);
        let model = Author::of(m) == Author::Model;
        match c.turns.last_mut() {
            Some(turn) if turn.index == m.turn => {
                turn.at.end = at + 1;
                turn.model |= model;
            }
            _ => c.turns.push(Turn { index: m.turn, at: at..at + 1, model }),
        }
    }
    by_id.retain(|c| !c.messages.is_empty());
    by_id
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::message;
    use super::*;
    use crate::ingest::{Channel, Format, Message};

    fn in_conversation(conversation: usize, m: Message) -> Message {
        Message { conversation, ..m }
    }

    #[test]
    fn messages_group_into_turns_per_conversation() {
        let mut t = Transcript::new(Format::Jsonl);
        for (c, i, role, channel) in [
            (0, 0, "user", Channel::Content),
            (1, 0, "user", Channel::Content),
            (0, 1, "assistant", Channel::Reasoning),
            (0, 1, "assistant", Channel::Content),
            (0, 2, "tool", Channel::Tool),
            (1, 1, "assistant", Channel::Content),
        ] {
            t.messages.push(in_conversation(c, message(i, role, channel, "x")));
        }
        let cs = conversations(&t);
        assert_eq!(cs.len(), 2);
        assert_eq!(cs[0].messages, [0, 2, 3, 4]);
        let turns: Vec<(usize, Range<usize>, bool)> =
            cs[0].turns.iter().map(|u| (u.index, u.at.clone(), u.model)).collect();
        assert_eq!(turns, [(0, 0..1, false), (1, 1..3, true), (2, 3..4, false)]);
        assert_eq!(cs[0].turn_messages(1), [2, 3]);
        assert_eq!((cs[1].id, cs[1].messages.as_slice()), (1, &[1, 5][..]));
    }
}
