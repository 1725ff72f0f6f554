//! The turns of a conversation as the conversation view shows them ([`TurnView`]: messages,
//! author, judged or not, the reports a click opens, the verdict, loop, poll and onset marks),
//! made from a transcript's reports ([`turns`]). Every judgement comes from the core's
//! [`TranscriptReport`] and its [`ConversationReport`](coherency_core::judge::ConversationReport);
//! this only groups them by turn.

use std::collections::HashMap;

use coherency_core::analyze::Verdict;
use coherency_core::ingest::Transcript;
use coherency_core::judge::{Author, TranscriptReport};

/// One turn as the conversation view shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnView {
    /// The turn (`Message::turn`).
    pub index: usize,
    /// Its messages, indices into [`Transcript::messages`], in order.
    pub messages: Vec<usize>,
    /// The model wrote (some of) it; else it is the model's input.
    pub author: Author,
    /// Its texts count towards the verdict.
    pub judged: bool,
    /// Indices into [`TranscriptReport::reports`] of its own texts (each message, and the
    /// reply's reasoning and content together): what a click opens.
    pub reports: Vec<usize>,
    /// The worst verdict of its own texts, judged or not (`None`: nothing analysed).
    pub verdict: Option<Verdict>,
    /// Part of a loop across turns, at this level.
    pub in_loop: Option<Verdict>,
    /// It polls (left out of the streams).
    pub poll: bool,
    /// It moves on: says again only a formula while the work moved on (left out of the streams).
    pub moved_on: bool,
    /// The conversation's onset turn.
    pub onset: bool,
}

/// The turns of conversation `conversation` as the conversation view shows them, in order
/// (empty for a conversation the transcript does not have). `t` must be the transcript
/// `report` was made from.
pub fn turns(report: &TranscriptReport, t: &Transcript, conversation: usize) -> Vec<TurnView> {
    let judgement = report.conversation(conversation);
    let mut out: Vec<TurnView> = Vec::new();
    let mut turn_at: HashMap<usize, usize> = HashMap::new();
    for (k, m) in t.messages.iter().enumerate().filter(|(_, m)| m.conversation == conversation) {
        let at = match out.last() {
            Some(last) if last.index == m.turn => out.len() - 1,
            _ => {
                let in_loop = judgement.and_then(|j| j.loop_turns.iter().find(|l| l.turn == m.turn)).map(|l| l.level);
                out.push(TurnView {
                    index: m.turn,
                    messages: Vec::new(),
                    author: Author::Input,
                    judged: false,
                    reports: Vec::new(),
                    verdict: None,
                    in_loop,
                    poll: judgement.is_some_and(|j| j.polls.contains(&m.turn)),
                    moved_on: judgement.is_some_and(|j| j.moved_on.contains(&m.turn)),
                    onset: judgement.and_then(|j| j.onset_turn) == Some(m.turn),
                });
                out.len() - 1
            }
        };
        turn_at.insert(k, at);
        let view = &mut out[at];
        view.messages.push(k);
        view.author = view.author.min(Author::of(m));
    }
    for (i, r) in report.reports.iter().enumerate().filter(|(_, r)| r.stream.is_none()) {
        let Some(&at) = r.messages.first().and_then(|m| turn_at.get(m)) else { continue };
        let view = &mut out[at];
        view.reports.push(i);
        view.verdict = view.verdict.max(Some(r.report.verdict()));
        view.judged |= r.judged;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::ingest::{Channel, Format, Message};
    use coherency_core::judge::judge_transcript;

    fn message(turn: usize, role: &str, channel: Channel, text: &str, call: Option<&str>) -> Message {
        Message {
            conversation: 0,
            turn,
            role: role.into(),
            channel,
            name: call.map(|_| "Read".to_string()),
            call_id: call.map(str::to_string),
            text: text.to_string().into(),
            is_error: false,
            source: 0..0,
            line: None,
        }
    }

    /// A user request, then five assistant turns each saying the same and calling `Read` on the
    /// same file, each answered with the same result.
    fn session() -> Transcript {
        let mut t = Transcript::new(Format::SessionJsonl);
        t.messages.push(message(0, "user", Channel::Content, "The leap year test fails; please fix it.", None));
        for k in 0..5 {
            let (turn, id) = (2 * k + 1, format!("call_{k}"));
            let say = format!("Let me read the helper file to check the February logic ({k})");
            t.messages.push(message(turn, "assistant", Channel::Content, &say, None));
            t.messages.push(message(turn, "assistant", Channel::Tool, r#"{"file_path": "src/date.rs"}"#, Some(&id)));
            t.messages.push(message(turn + 1, "tool", Channel::Tool, "fn feb() {}", Some(&id)));
        }
        t
    }

    #[test]
    fn the_turns_as_the_conversation_view_shows_them() {
        let t = session();
        let r = judge_transcript(&t);
        let view = turns(&r, &t, 0);
        assert_eq!(view.len(), 11);
        let first = &view[1];
        assert_eq!(
            (first.index, first.messages.as_slice(), first.author, first.judged),
            (1, &[1, 2][..], Author::Model, true)
        );
        assert_eq!((first.in_loop, first.onset, first.poll), (Some(Verdict::Fail), true, false));
        assert_eq!(first.reports.len(), 2, "its content and its call");
        let result = &view[2];
        assert_eq!(
            (result.author, result.judged, result.verdict, result.onset),
            (Author::Input, false, Some(Verdict::Pass), false)
        );
        assert_eq!(view[0].in_loop, None, "the request is no part of the loop");
        assert!(turns(&r, &t, 7).is_empty());
    }
}
