//! Agent histories read back (issue 12): every generated agent session, written in each shape
//! users paste — a session log, an OpenAI chat request body, an Anthropic request body, a
//! Responses request body, a JSONL log repeating the history in every request — reads as one
//! conversation whose turns say the same thing in the same order: role, channel, tool name,
//! whether a call id links it, and text. The verdict relies on this; a system prompt (which
//! a session log does not hold) is left out of the comparison.

use coherency_core::ingest::{self, Channel, Format, Transcript};
use coherency_test_support::agent_sessions::{self, Session};
use std::collections::BTreeSet;

/// What the verdict sees of a message.
type Seen = (String, Channel, Option<String>, bool, String);

fn seen(t: &Transcript) -> Vec<Seen> {
    let said = t.messages.iter().filter(|m| m.role != "system");
    said.map(|m| (m.role.clone(), m.channel, m.name.clone(), m.call_id.is_some(), m.text.to_string())).collect()
}

fn shapes(s: &Session) -> [(&'static str, Vec<u8>, Format); 5] {
    [
        ("session log", s.to_session_jsonl(), Format::SessionJsonl),
        ("OpenAI request", s.to_openai_request(), Format::OpenaiJson),
        ("Anthropic request", s.to_anthropic_request(), Format::AnthropicJson),
        ("Responses request", s.to_responses_request(), Format::ResponsesJson),
        ("JSONL log", s.to_jsonl_log(), Format::Jsonl),
    ]
}

/// The turns of a session compared in every shape.
const MAX_TURNS: usize = 120;

#[test]
fn every_shape_of_every_session_reads_as_the_same_conversation() {
    for s in agent_sessions::corpus(2) {
        // The furniture of a noisy session log (a sidechain, a compaction summary, reminders)
        // is the session log's own: the shapes are compared without it.
        // Shapes do not change with length, and a JSONL log repeats the history in every request
        // (its size grows as the square of the turns): the first turns of a long session do.
        let mut s = Session { noisy: false, ..s };
        s.turns.truncate(MAX_TURNS);
        let want = {
            let t = ingest::read(&s.to_session_jsonl());
            seen(&t)
        };
        // Each call and each result, linked: as many as the session made.
        let calls: usize = s.turns.iter().map(|t| t.calls.len()).sum();
        let linked = want.iter().filter(|m| m.1 == Channel::Tool && m.3).count();
        assert_eq!(linked, 2 * calls, "{}: calls and results carry their ids", s.kind);
        for (shape, bytes, format) in shapes(&s) {
            let t = ingest::read(&bytes);
            assert_eq!(t.format, format, "{} as {shape}: detected", s.kind);
            let conversations: BTreeSet<usize> = t.messages.iter().map(|m| m.conversation).collect();
            assert_eq!(conversations.len(), 1, "{} as {shape}: one conversation", s.kind);
            let got = seen(&t);
            if let Some(k) = (0..got.len().max(want.len())).find(|&k| got.get(k) != want.get(k)) {
                panic!(
                    "{} as {shape}: message {k} differs\n  got:  {:?}\n  want: {:?}",
                    s.kind,
                    got.get(k),
                    want.get(k)
                );
            }
            // Turns in order, each once.
            let turns: Vec<usize> = t.messages.iter().map(|m| m.turn).collect();
            assert!(turns.windows(2).all(|w| w[0] <= w[1] && w[1] <= w[0] + 1), "{} as {shape}: {turns:?}", s.kind);
        }
    }
}

/// The log of a long session: each turn once, from the record where it first appeared, and
/// the whole session in the line of the first record that held it.
#[test]
fn a_jsonl_log_of_a_long_session_judges_each_turn_once() {
    let s = agent_sessions::generate("late_loop", 0);
    let log = s.to_jsonl_log();
    let t = ingest::read(&log);
    let records = log.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
    assert_eq!(records, s.turns.len() + 1);
    assert_eq!(seen(&t), seen(&ingest::read(&s.to_session_jsonl())));
    // Every assistant reply is found in the record that answered with it: record k (line k + 1).
    let replies: Vec<usize> = t
        .messages
        .iter()
        .filter(|m| m.role == "assistant" && m.channel == Channel::Content)
        .map(|m| m.line.unwrap())
        .collect();
    assert_eq!(replies, (1..=s.turns.len()).collect::<Vec<_>>());
    // The overflow at the end is said, on its line.
    let said: Vec<(Option<usize>, &str)> = t.diagnostics.iter().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(said, [(Some(records), "the reply is an error: This model's maximum context length is 128000 tokens.")]);
    // Read in pieces, as the page does, it is the same.
    for piece in [1, 7, 4096] {
        let mut r = ingest::Reader::new(None, log.len());
        for p in log.chunks(piece) {
            r.feed(p).expect("memory");
        }
        assert_eq!(r.finish(), (Format::Jsonl, t.clone()), "pieces of {piece}");
    }
}
