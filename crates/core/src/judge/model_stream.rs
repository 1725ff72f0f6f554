//! A conversation's model stream: the model's turns in order as one text, so that what it says
//! again turn after turn — a reply, its reasoning, a plan re-stated with small edits, the same
//! call — is a loop the text scorers see, as they see one inside a message. A turn is its
//! reasoning, its content, then each tool call as `name(canonical args)`, joined as a reply is
//! ([`REPLY_SEPARATOR`]); turns are joined by [`TURN_SEPARATOR`]. The stream of one channel
//! (every turn's reasoning alone, or its content alone) is built the same way, from fewer
//! messages: a loop in one channel behind varied text in the others is back to back there.
//!
//! Every piece of the stream points back to its message, so a span of the stream's report is a
//! (message, byte range) and an offset is a turn.

use std::borrow::Cow;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::canonical::canonical_call;
use super::reply_text::REPLY_SEPARATOR;
use crate::ingest::{Channel, Message, Transcript};

/// What stands between two turns of a stream: two blank lines. Only whitespace, so that it adds
/// nothing the scorers could count as said again (a marker line would be a line repeated once a
/// turn).
pub const TURN_SEPARATOR: &str = "\n\n\n";

/// Which of the model's texts a stream holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreamKind {
    /// Every turn's reasoning, content and tool calls.
    Model,
    /// Every turn's reasoning alone.
    Reasoning,
    /// Every turn's content alone.
    Content,
}

impl StreamKind {
    pub const ALL: [StreamKind; 3] = [StreamKind::Model, StreamKind::Reasoning, StreamKind::Content];

    /// As the message table names it: "model stream", "reasoning stream", "content stream".
    pub fn label(self) -> &'static str {
        match self {
            StreamKind::Model => "model stream",
            StreamKind::Reasoning => "reasoning stream",
            StreamKind::Content => "content stream",
        }
    }

    /// What the stream is of, in a sentence: "the model's output", "its reasoning", "its replies".
    pub fn of_what(self) -> &'static str {
        match self {
            StreamKind::Model => "the model's output",
            StreamKind::Reasoning => "its reasoning",
            StreamKind::Content => "its replies",
        }
    }

    /// Whether a model message of this channel belongs in the stream.
    pub fn takes(self, channel: Channel) -> bool {
        match self {
            StreamKind::Model => true,
            StreamKind::Reasoning => channel == Channel::Reasoning,
            StreamKind::Content => channel == Channel::Content,
        }
    }
}

/// Where one message is in a stream's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamPiece {
    /// Index into [`Transcript::messages`].
    pub message: usize,
    /// Its bytes in the stream's text.
    pub at: Range<usize>,
    /// The text is the message's own (a tool call is rendered: `name(canonical args)`).
    pub verbatim: bool,
}

/// A stream's text and where each message is in it. `messages` are the stream's messages in
/// order; consecutive messages with the same conversation and turn index form a turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamLayout {
    pub text: String,
    pub pieces: Vec<StreamPiece>,
}

/// A message as the stream shows it: a tool call as `name(canonical args)`, any other text as
/// it is.
pub fn shown(m: &Message) -> Cow<'_, str> {
    match rendered(m) {
        Some(call) => Cow::Owned(call),
        None => Cow::Borrowed(m.text.as_str()),
    }
}

fn rendered(m: &Message) -> Option<String> {
    (m.channel == Channel::Tool).then(|| canonical_call(m.name.as_deref().unwrap_or("tool"), &m.text))
}

impl StreamLayout {
    /// Lays out the stream of `messages` (indices into `t.messages`).
    pub fn new(t: &Transcript, messages: &[usize]) -> StreamLayout {
        let mut out = StreamLayout::default();
        let mut last: Option<(usize, usize)> = None;
        for &k in messages {
            let m = &t.messages[k];
            let place = (m.conversation, m.turn);
            match last {
                Some(p) if p == place => out.text.push_str(REPLY_SEPARATOR),
                Some(_) => out.text.push_str(TURN_SEPARATOR),
                None => {}
            }
            last = Some(place);
            let start = out.text.len();
            let own = rendered(m);
            out.text.push_str(own.as_deref().unwrap_or(&m.text));
            out.pieces.push(StreamPiece { message: k, at: start..out.text.len(), verbatim: own.is_none() });
        }
        out
    }

    /// The piece at byte `offset`, or the first one after it (an offset in a separator belongs
    /// to the next message); the last piece past the end.
    pub fn piece_at(&self, offset: usize) -> Option<&StreamPiece> {
        let i = self.pieces.partition_point(|p| p.at.end <= offset);
        self.pieces.get(i).or(self.pieces.last())
    }

    /// The messages and their byte ranges that `range` of the stream covers: a verbatim piece
    /// by the bytes it covers, a rendered call as its whole message.
    pub fn locate(&self, t: &Transcript, range: Range<usize>) -> Vec<(usize, Range<usize>)> {
        let first = self.pieces.partition_point(|p| p.at.end <= range.start);
        self.pieces[first..]
            .iter()
            .take_while(|p| p.at.start < range.end)
            .map(|p| {
                let local = if p.verbatim {
                    range.start.max(p.at.start) - p.at.start..range.end.min(p.at.end) - p.at.start
                } else {
                    0..t.messages[p.message].text.len()
                };
                (p.message, local)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::{message, tool};
    use super::*;
    use crate::ingest::Format;

    #[test]
    fn turns_are_laid_out_in_order_and_map_back_to_their_messages() {
        let mut t = Transcript::new(Format::SessionJsonl);
        t.messages = vec![
            message(1, "assistant", Channel::Reasoning, "Hmm."),
            message(1, "assistant", Channel::Content, "Reading."),
            tool(1, "assistant", Some("Read"), None, "{ \"path\": \"a\" }"),
            message(3, "assistant", Channel::Content, "Again."),
        ];
        let s = StreamLayout::new(&t, &[0, 1, 2, 3]);
        assert_eq!(s.text, "Hmm.\n\nReading.\n\nRead({\"path\":\"a\"})\n\n\nAgain.");
        let at: Vec<(usize, Range<usize>, bool)> =
            s.pieces.iter().map(|p| (p.message, p.at.clone(), p.verbatim)).collect();
        assert_eq!(at, [(0, 0..4, true), (1, 6..14, true), (2, 16..34, false), (3, 37..43, true)]);
        assert_eq!(s.piece_at(35).map(|p| p.message), Some(3), "a separator belongs to what follows");
        assert_eq!(s.piece_at(99).map(|p| p.message), Some(3));
        assert_eq!(s.locate(&t, 2..12), [(0, 2..4), (1, 0..6)]);
        assert_eq!(s.locate(&t, 20..40), [(2, 0..15), (3, 0..3)], "a rendered call: its whole message");
        let reasoning = StreamLayout::new(&t, &[0]);
        assert_eq!(reasoning.text, "Hmm.");
        assert!(StreamKind::Reasoning.takes(Channel::Reasoning) && !StreamKind::Content.takes(Channel::Tool));
    }
}
