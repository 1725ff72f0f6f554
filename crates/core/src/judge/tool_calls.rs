//! A conversation's tool calls in order, each made canonical and paired with its result: the
//! next tool result with the call's id, else the next tool result not taken by an earlier call.

use std::collections::HashMap;

use super::authorship::Author;
use super::canonical::{call_in_words, canonical_call};
use super::free_results::FreeResults;
use super::turns::Conversation;
use crate::ingest::{Channel, Message, Transcript};

/// One tool call of a conversation.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Call {
    /// The call's message (index into [`Transcript::messages`]).
    pub message: usize,
    /// Its turn's position in [`Conversation::turns`].
    pub turn: usize,
    /// `name(canonical args)`: what is compared, and what the model stream shows.
    pub canonical: String,
    /// The result's message, if one came.
    pub result: Option<usize>,
    /// The user sent the same message again since the call before, the one that message asked
    /// for: this call answers the instruction sent again (a repeat the user asked for is not the
    /// model's loop).
    pub asked_again: bool,
}

impl Call {
    /// The call in words, for a reason: `Read {file_path: src/date.rs}`.
    pub fn in_words(&self, t: &Transcript) -> String {
        let m = &t.messages[self.message];
        call_in_words(m.name.as_deref().unwrap_or("tool"), &m.text)
    }

    /// The result's text (`None`: no result came).
    pub fn result_text<'t>(&self, t: &'t Transcript) -> Option<&'t str> {
        self.result.map(|r| t.messages[r].text.as_str())
    }
}

/// A tool call: a tool-channel message by the model.
pub fn is_call(m: &Message) -> bool {
    m.channel == Channel::Tool && Author::of(m) == Author::Model
}

/// A tool's result: a tool-channel input, or a `tool` / `function` message.
pub fn is_result(m: &Message) -> bool {
    Author::of(m) == Author::Input
        && (m.channel == Channel::Tool
            || m.role.eq_ignore_ascii_case("tool")
            || m.role.eq_ignore_ascii_case("function"))
}

/// Whether `m` is a message a person (or a harness in their place: an auto-continue) sent: a
/// user's, not a tool's result.
pub fn is_user_message(m: &Message) -> bool {
    Author::of(m) == Author::Input && m.role.eq_ignore_ascii_case("user") && !is_result(m)
}

/// The tool calls of `c`, in order, with their results.
pub(super) fn calls(t: &Transcript, c: &Conversation) -> Vec<Call> {
    let msgs = &t.messages;
    // Results, by position in the conversation (increasing): those not taken yet; and by id.
    let mut results: Vec<usize> = Vec::new();
    let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
    for (at, &k) in c.messages.iter().enumerate() {
        if is_result(&msgs[k]) {
            results.push(at);
            if let Some(id) = msgs[k].call_id.as_deref() {
                by_id.entry(id).or_default().push(at);
            }
        }
    }
    let mut free = FreeResults::new(results);
    let mut out = Vec::new();
    // The user's last message, the one in force at the call before, and whether one came since.
    let (mut user, mut user_at_call, mut since): (Option<&str>, Option<&str>, bool) = (None, None, false);
    for (turn, u) in c.turns.iter().enumerate() {
        for at in u.at.clone() {
            let m = &msgs[c.messages[at]];
            if is_user_message(m) {
                (user, since) = (Some(m.text.as_str()), true);
                continue;
            }
            if !is_call(m) {
                continue;
            }
            let asked_again = since && user.is_some() && user == user_at_call;
            (user_at_call, since) = (user, false);
            let with_id = m.call_id.as_deref().and_then(|id| {
                let ids = by_id.get(id)?;
                ids.get(ids.partition_point(|&r| r < at)).copied()
            });
            let result = with_id.filter(|&r| free.is_free(r)).or_else(|| free.first_from(at));
            if let Some(r) = result {
                free.take(r);
            }
            out.push(Call {
                message: c.messages[at],
                turn,
                canonical: canonical_call(m.name.as_deref().unwrap_or("tool"), &m.text),
                result: result.map(|r| c.messages[r]),
                asked_again,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::{message, tool};
    use super::super::turns::conversations;
    use super::*;
    use crate::ingest::Format;

    #[test]
    fn a_call_gets_the_result_with_its_id_else_the_next_free_one() {
        let mut t = Transcript::new(Format::SessionJsonl);
        t.messages = vec![
            message(0, "user", Channel::Content, "go"),
            tool(1, "assistant", Some("Read"), Some("a"), r#"{"path": "x"}"#),
            tool(1, "assistant", Some("Read"), Some("b"), r#"{"path": "y"}"#),
            tool(2, "tool", None, Some("b"), "y's text"),
            tool(2, "tool", None, Some("a"), "x's text"),
            tool(3, "assistant", Some("ls"), None, "{}"),
            tool(3, "assistant", Some("pwd"), None, ""),
            tool(4, "tool", None, None, "a b c"),
        ];
        let c = &conversations(&t)[0];
        let got: Vec<(String, Option<usize>, usize)> =
            calls(&t, c).into_iter().map(|k| (k.canonical, k.result, k.turn)).collect();
        assert_eq!(
            got,
            [
                (r#"Read({"path":"x"})"#.to_string(), Some(4), 1),
                (r#"Read({"path":"y"})"#.to_string(), Some(3), 1),
                ("ls({})".to_string(), Some(7), 3),
                ("pwd()".to_string(), None, 3),
            ]
        );
    }
}
