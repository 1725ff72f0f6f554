//! What is judged: the texts of a transcript that each get a report. Every message on its own,
//! and for every reply with both, its reasoning and content together ([`super::reply`]), so
//! that a loop hidden in the reasoning behind a clean answer still shows. Tool calls and tool
//! results are judged on their own only. Then the conversations' streams that need it
//! ([`super::model_stream`], planned by the conversation judge), after every message.

use super::model_stream::StreamKind;
use super::reply_text::joined_len;
use crate::ingest::{Channel, Transcript};

/// One text to judge; the numbers are indices into [`Transcript::messages`].
pub(super) enum JudgedText {
    /// One message's text.
    Message(usize),
    /// A reply's reasoning and content messages, in order, judged together.
    Reply(Vec<usize>),
    /// A conversation's stream of these messages, `len` bytes long.
    Stream { kind: StreamKind, messages: Vec<usize>, len: usize },
}

impl JudgedText {
    /// The size of the text in bytes, without joining anything.
    pub fn len(&self, t: &Transcript) -> usize {
        let len = |&k: &usize| t.messages[k].text.len();
        match self {
            JudgedText::Message(k) => len(k),
            JudgedText::Reply(parts) => joined_len(parts.iter().map(len)),
            JudgedText::Stream { len, .. } => *len,
        }
    }
}

/// The texts of `t` to judge, in report order: each message of a reply, then the reply's
/// reasoning and content together when it has both.
pub(super) fn judged_texts(t: &Transcript) -> Vec<JudgedText> {
    let msgs = &t.messages;
    let mut out = Vec::new();
    let mut i = 0;
    while i < msgs.len() {
        // One reply: the run of messages sharing conversation and turn.
        let mut j = i + 1;
        while j < msgs.len() && (msgs[j].conversation, msgs[j].turn) == (msgs[i].conversation, msgs[i].turn) {
            j += 1;
        }
        out.extend((i..j).map(JudgedText::Message));
        let parts: Vec<usize> = (i..j).filter(|&k| msgs[k].channel != Channel::Tool).collect();
        let has = |c: Channel| parts.iter().any(|&k| msgs[k].channel == c);
        if has(Channel::Reasoning) && has(Channel::Content) {
            out.push(JudgedText::Reply(parts));
        }
        i = j;
    }
    out
}
