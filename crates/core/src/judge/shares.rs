//! The texts judging analyses on their own — each distinct message text once, each reply's
//! reasoning and content together — named by a [`TextKey`] and split in two shares of about
//! equal bytes ([`split_in_two`]), so that they can be analysed elsewhere and handed to the
//! judge as made before ([`AnalyzedBefore`]): the same reports as judging alone. The CLI analyses
//! them on every core ([`JudgedDocument::read_analyzing`](super::JudgedDocument::read_analyzing)),
//! the page's analysis worker shares them with a second worker (a wasm worker has one thread;
//! each share analysed there, only the texts travel). A conversation's stream (planned across its
//! turns) is left to the judge.

use std::borrow::Cow;
use std::collections::HashMap;

use super::judged_text::{judged_texts, JudgedText};
use super::reply_text::join_reply;
use super::text_table::TextTable;
use crate::analyze::Report;
use crate::ingest::Transcript;

/// A text judging analyses, by where it comes from in the transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextKey {
    /// A message's text (the first message with that text: the judge analyses each text once).
    Message(usize),
    /// A reply's reasoning and content together, by the reply's first message.
    Reply(usize),
}

/// Reports of texts analysed before judging began, by text.
pub type AnalyzedBefore = HashMap<TextKey, Report>;

/// The texts of a transcript in two shares of about equal bytes, each in the judge's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shares {
    pub shares: [Vec<TextKey>; 2],
    /// Texts and bytes in both shares together.
    pub texts: usize,
    pub bytes: usize,
}

/// Splits the texts judging `t` analyses on their own into two shares: each text, in the
/// judge's order, goes to the share with fewer bytes so far (the first on a tie).
pub fn split_in_two(t: &Transcript) -> Shares {
    let mut out = Shares::default();
    let mut bytes = [0usize; 2];
    // The judge's own kind of table of texts met.
    let mut seen: TextTable<usize> = TextTable::default();
    for judged in judged_texts(t) {
        let key = match &judged {
            JudgedText::Message(k) if seen.insert(t.messages[*k].text.as_str(), *k).is_none() => TextKey::Message(*k),
            JudgedText::Reply(parts) => TextKey::Reply(parts[0]),
            _ => continue,
        };
        let len = judged.len(t);
        let share = usize::from(bytes[1] < bytes[0]);
        bytes[share] += len;
        out.shares[share].push(key);
        out.texts += 1;
        out.bytes += len;
    }
    out
}

/// The text `key` names in `t` (a reply's joined, as the judge joins it); `None` for a key
/// that names nothing there.
pub fn text_of(t: &Transcript, key: TextKey) -> Option<Cow<'_, str>> {
    let msgs = &t.messages;
    match key {
        TextKey::Message(k) => Some(Cow::Borrowed(msgs.get(k)?.text.as_str())),
        TextKey::Reply(first) => {
            let at = msgs.get(first)?;
            let parts = msgs[first..]
                .iter()
                .take_while(|m| (m.conversation, m.turn) == (at.conversation, at.turn))
                .filter(|m| m.channel != crate::ingest::Channel::Tool)
                .map(|m| m.text.as_str());
            Some(Cow::Owned(join_reply(parts)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::message;
    use super::*;
    use crate::ingest::{Channel, Format};

    fn log() -> Transcript {
        let mut t = Transcript::new(Format::Jsonl);
        let loop_text = "Wait, let me re-check the total.\n".repeat(40);
        for turn in 0..12 {
            let mut m = message(2 * turn, "user", Channel::Content, "What is the total of the invoice lines?");
            m.conversation = turn / 4;
            t.messages.push(m);
            let mut r = message(2 * turn + 1, "assistant", Channel::Reasoning, &format!("{turn}: {loop_text}"));
            r.conversation = turn / 4;
            t.messages.push(r);
            let mut c = message(2 * turn + 1, "assistant", Channel::Content, "The total is 42.");
            c.conversation = turn / 4;
            t.messages.push(c);
        }
        t
    }

    #[test]
    fn both_shares_together_are_every_text_the_judge_analyses_once_split_by_bytes() {
        let t = log();
        let s = split_in_two(&t);
        // Distinct message texts: one question, twelve reasonings, one answer; twelve replies.
        assert_eq!(s.texts, 1 + 12 + 1 + 12);
        assert_eq!(s.shares[0].len() + s.shares[1].len(), s.texts);
        let bytes = |keys: &[TextKey]| keys.iter().map(|&k| text_of(&t, k).unwrap().len()).sum::<usize>();
        let (a, b) = (bytes(&s.shares[0]), bytes(&s.shares[1]));
        assert_eq!(a + b, s.bytes);
        assert!(a.abs_diff(b) <= 1400, "about equal: {a} and {b}");
        assert!(s.shares[1].contains(&TextKey::Reply(1)) || s.shares[0].contains(&TextKey::Reply(1)));
    }

    #[test]
    fn a_key_that_names_nothing_has_no_text() {
        let t = log();
        assert_eq!(text_of(&t, TextKey::Message(999)), None);
        assert_eq!(text_of(&t, TextKey::Reply(999)), None);
        assert_eq!(text_of(&t, TextKey::Message(2)).as_deref(), Some("The total is 42."));
    }
}
