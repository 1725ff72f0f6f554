//! The conversation view's model: which conversations a document has and which one is shown
//! first, each turn as a row of the view (who wrote it, its texts folded to a few one-line
//! previews, whether it is part of a loop across turns, the onset turn), what a click on a turn
//! opens, and the steps of Next / Previous through the flagged turns. Every judgement comes
//! from the core ([`TranscriptReport`], [`ConversationReport`]; grouped by turn in
//! [`super::turn_view`]); this only shapes it.

use coherency_core::analyze::{Breakdown, Verdict};
use coherency_core::ingest::{Channel, Message, Transcript};
use coherency_core::judge::{call_in_words, is_call, is_result, Author, ConversationReport, TranscriptReport};
use coherency_core::wording::{lowercase_first, plural, thousands};

use super::turn_view::TurnView;

/// Text lines a turn row shows; more are counted ("+ 2 more").
pub const PREVIEW_LINES: usize = 2;
/// Characters a preview line keeps before "…".
pub const PREVIEW_CHARS: usize = 160;
/// The height of a turn row in px: every row is as tall, so the view renders only the rows on
/// screen from the scroll position alone (the style sheet leaves the height to this).
pub const TURN_ROW_PX: f64 = 74.0;
/// The most conversations the picker lists (worst first); any other is reached by its number.
pub const PICKER_MAX: usize = 200;

/// Whether the document gets a conversation view: some conversation has two turns or more.
pub fn has_conversation_view(report: &TranscriptReport) -> bool {
    report.conversations.iter().any(|c| c.turns >= 2)
}

/// The conversations the picker offers, worst first (then in order), at most [`PICKER_MAX`]:
/// `(number, verdict, turns)`. One-turn conversations are offered too: in a log of requests, the
/// worst may be a single reply, and the view opens on the worst.
pub fn picker_choices(report: &TranscriptReport) -> Vec<(usize, Verdict, usize)> {
    let mut out: Vec<(usize, Verdict, usize)> =
        report.conversations.iter().filter(|c| c.turns >= 1).map(|c| (c.conversation, c.verdict, c.turns)).collect();
    out.sort_by_key(|&(n, v, _)| (std::cmp::Reverse(v), n));
    out.truncate(PICKER_MAX);
    out
}

/// "Conversation 3 · FAIL · 42 turns": a picker entry.
pub fn choice_label(&(n, v, turns): &(usize, Verdict, usize)) -> String {
    format!("Conversation {} · {} · {}", thousands(n), v.as_str(), plural(turns, "turn", "turns"))
}

/// The conversation shown first: the worst (see [`picker_choices`]).
pub fn first_conversation(report: &TranscriptReport) -> Option<usize> {
    picker_choices(report).first().map(|c| c.0)
}

/// What a turn row says about one of its messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewLine {
    /// "reasoning", "reply", "call", "result of Read", "user", "system"…
    pub label: String,
    /// Its first non-blank line (a call: the call in words), cut at [`PREVIEW_CHARS`].
    pub text: String,
    /// How big the whole text is: "1,204 bytes · 40 lines" (empty for a call).
    pub size: String,
    /// A style hook: `reasoning`, `content`, `call`, `result`, `input`.
    pub kind: &'static str,
}

/// The one-line previews of a turn's messages (at most [`PREVIEW_LINES`]) and how many more
/// messages it has.
pub fn preview(t: &Transcript, turn: &TurnView) -> (Vec<PreviewLine>, usize) {
    let lines: Vec<PreviewLine> =
        turn.messages.iter().take(PREVIEW_LINES).filter_map(|&m| t.messages.get(m)).map(preview_line).collect();
    (lines, turn.messages.len().saturating_sub(PREVIEW_LINES))
}

fn preview_line(m: &Message) -> PreviewLine {
    let name = m.name.as_deref().unwrap_or("a tool");
    let (label, kind) = if is_call(m) {
        ("call".to_string(), "call")
    } else if is_result(m) {
        (format!("result of {name}"), "result")
    } else {
        match (Author::of(m), m.channel) {
            (Author::Model, Channel::Reasoning) => ("reasoning".to_string(), "reasoning"),
            (Author::Model, _) => ("reply".to_string(), "content"),
            (Author::Input, Channel::Reasoning) => (format!("{} reasoning", m.role), "input"),
            (Author::Input, _) => (m.role.clone(), "input"),
        }
    };
    if kind == "call" {
        return PreviewLine { label, text: cut(&call_in_words(name, &m.text)), size: String::new(), kind };
    }
    let first = m.text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("(empty)");
    let lines = m.text.lines().count();
    let size = if lines > 1 {
        format!("{} · {}", plural(m.text.len(), "byte", "bytes"), plural(lines, "line", "lines"))
    } else {
        plural(m.text.len(), "byte", "bytes")
    };
    PreviewLine { label, text: cut(first), size, kind }
}

/// `s` cut at [`PREVIEW_CHARS`] characters, with "…" when cut.
fn cut(s: &str) -> String {
    match s.char_indices().nth(PREVIEW_CHARS) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// The report a click on `turn` opens: its worst text, judged ones first (a reply's reasoning
/// and content together before each alone, at equal verdicts, since that is what was said).
pub fn report_to_open(report: &TranscriptReport, turn: &TurnView) -> Option<usize> {
    turn.reports.iter().copied().filter(|&i| i < report.reports.len()).min_by_key(|&i| {
        let r = &report.reports[i];
        (!r.judged, std::cmp::Reverse(r.report.verdict()), r.report.too_short(), !r.combined)
    })
}

/// The rows (positions in the turn list) the view steps through with Next / Previous: turns
/// that are part of a loop across turns, and judged turns whose own texts are flagged.
pub fn flagged_rows(turns: &[TurnView]) -> Vec<usize> {
    let flagged =
        |t: &TurnView| t.in_loop.is_some() || t.onset || (t.judged && t.verdict.is_some_and(|v| v > Verdict::Pass));
    turns.iter().enumerate().filter(|(_, t)| flagged(t)).map(|(k, _)| k).collect()
}

/// The flagged row after (`forward`) or before `current` (from the start, or the end, when
/// there is no current row); it wraps around.
pub fn step_flagged(flagged: &[usize], current: Option<usize>, forward: bool) -> Option<usize> {
    let (first, last) = (*flagged.first()?, *flagged.last()?);
    Some(match (current, forward) {
        (None, true) => first,
        (None, false) => last,
        (Some(c), true) => flagged.iter().copied().find(|&r| r > c).unwrap_or(first),
        (Some(c), false) => flagged.iter().rev().copied().find(|&r| r < c).unwrap_or(last),
    })
}

/// "Flagged turn 3 of 14" (or "14 flagged turns" when none is current).
pub fn flagged_position(flagged: &[usize], current: Option<usize>) -> String {
    match current.and_then(|c| flagged.iter().position(|&r| r == c)) {
        Some(k) => format!("Flagged turn {} of {}", thousands(k + 1), thousands(flagged.len())),
        None => plural(flagged.len(), "flagged turn", "flagged turns"),
    }
}

/// The row of the onset turn, if the conversation has one.
pub fn onset_row(turns: &[TurnView]) -> Option<usize> {
    turns.iter().position(|t| t.onset)
}

/// A turn's summary for a screen reader: "turn 4, assistant, model output — judged, part of a
/// FAIL loop, where the loop starts".
pub fn turn_label(t: &Transcript, turn: &TurnView) -> String {
    let role = turn.messages.first().and_then(|&m| t.messages.get(m)).map_or("?", |m| m.role.as_str());
    let mut out = format!("turn {}, {role}, {}", thousands(turn.index), turn.author.why(turn.judged));
    if let Some(level) = turn.in_loop {
        out += &format!(", part of a {} loop across turns", level.as_str());
    }
    if turn.onset {
        out += ", where the loop starts";
    }
    if turn.poll {
        out += ", polls (left out of the stream)";
    }
    if turn.moved_on {
        out += ", says again only a formula while the work moved on (left out of the stream)";
    }
    out + ": show its analysis"
}

/// The conversation's turns counted: "12 turns, 6 of them the model's, 2 polling, 4 moved on"
/// (the turns left out of its streams because the work moved forward there; its reasons say
/// what changed).
pub fn counts_sentence(c: &ConversationReport) -> String {
    let mut out = format!("{}, {} of them the model's", plural(c.turns, "turn", "turns"), thousands(c.model_turns));
    if !c.polls.is_empty() {
        out += &format!(", {} polling", thousands(c.polls.len()));
    }
    if !c.moved_on.is_empty() {
        out += &format!(", {} moved on", thousands(c.moved_on.len()));
    }
    out
}

/// The conversation's onset in words, by what set its verdict: "The conversation turns
/// degenerate at turn 3.", "The conversation turns to gibberish at turn 5." (`None` without one).
pub fn onset_sentence(transcript: &Transcript, report: &TranscriptReport, c: &ConversationReport) -> Option<String> {
    let tripped = coherency_core::render::conversation_check(transcript, report, c);
    let verb = Breakdown::of(tripped).onset_verb();
    c.onset_turn.map(|turn| format!("The conversation {} at turn {}.", lowercase_first(verb), thousands(turn)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::turn_view::turns;
    use coherency_core::judge::{judge_transcript, JudgedDocument};
    use coherency_test_support::agent_sessions::generate;

    fn judged(kind: &'static str) -> JudgedDocument {
        JudgedDocument::read(&generate(kind, 0).to_session_jsonl(), None)
    }

    #[test]
    fn the_onset_sentence_says_what_went_wrong_in_the_conversation() {
        let doc = judged("same_call_same_result");
        let c = doc.report.conversation(first_conversation(&doc.report).unwrap()).unwrap();
        let tool_loop = onset_sentence(&doc.transcript, &doc.report, c).expect("an onset");
        assert!(tool_loop.starts_with("The conversation turns degenerate at turn "), "{tool_loop}");
        // A reply that runs past its turn in the second exchange of a chat.
        let leak = "The capital of Spain is Madrid.<|im_end|>\n<|im_start|>user\nAnd Italy? Tell me about it too.\
                    <|im_end|>\n<|im_start|>assistant\nThe capital of Italy is Rome, on the Tiber.";
        let session = serde_json::json!({"messages": [
            {"role": "user", "content": "What is the capital of France?"},
            {"role": "assistant", "content": "The capital of France is Paris, a city on the Seine."},
            {"role": "user", "content": "And Spain?"},
            {"role": "assistant", "content": leak},
        ]});
        let doc = JudgedDocument::read(session.to_string().as_bytes(), None);
        let c = doc.report.conversations.iter().find(|c| c.verdict == Verdict::Fail).expect("a failing conversation");
        let sentence = onset_sentence(&doc.transcript, &doc.report, c).expect("an onset");
        assert!(sentence.starts_with("The conversation writes past its turn at turn "), "{sentence}");
    }

    #[test]
    fn a_looping_session_has_its_loop_turns_flagged_and_its_onset_marked() {
        let doc = judged("same_call_same_result");
        let (t, r) = (&doc.transcript, &doc.report);
        assert!(has_conversation_view(r));
        let c = first_conversation(r).expect("a conversation");
        let judgement = r.conversation(c).expect("judged");
        assert_eq!(judgement.verdict, Verdict::Fail);
        let turns = turns(r, t, c);
        let flagged = flagged_rows(&turns);
        let onset = onset_row(&turns).expect("an onset");
        assert!(flagged.contains(&onset));
        assert_eq!(Some(turns[onset].index), judgement.onset_turn);
        assert!(flagged.iter().all(|&k| turns[k].in_loop.is_some() || turns[k].verdict > Some(Verdict::Pass)));
        // Stepping visits every flagged row once, in order, and wraps.
        let mut at = None;
        let mut seen = Vec::new();
        for _ in 0..flagged.len() {
            at = step_flagged(&flagged, at, true);
            seen.push(at.expect("a step"));
        }
        assert_eq!(seen, flagged);
        assert_eq!(step_flagged(&flagged, at, true), flagged.first().copied(), "wraps to the first");
        assert_eq!(step_flagged(&flagged, flagged.first().copied(), false), flagged.last().copied());
        assert_eq!(step_flagged(&[], None, true), None);
        assert_eq!(flagged_position(&flagged, Some(flagged[1])), format!("Flagged turn 2 of {}", flagged.len()));
        // A call reads as the reason quotes it; its result names the tool.
        let (lines, more) = preview(t, &turns[onset]);
        assert_eq!(more, 0);
        let call = lines.iter().find(|l| l.kind == "call").expect("a call line");
        assert!(judgement.reasons[0].contains(&call.text), "{:?} in {:?}", call.text, judgement.reasons[0]);
        let result = turns.iter().find(|u| u.author == Author::Input && u.index > 0).expect("a result turn");
        let (lines, _) = preview(t, result);
        assert!(lines[0].label.starts_with("result of "), "{:?}", lines[0]);
        assert!(turn_label(t, result).contains("input — not judged"), "{}", turn_label(t, result));
    }

    /// Issue 35: a stretch that repeats while the work moves on is no loop, and the view says
    /// why — its reasons name what changed, its turns are marked, its counts say how many.
    #[test]
    fn a_session_that_repeats_while_moving_on_passes_and_says_what_changed() {
        let doc = judged("next_file_please");
        let (t, r) = (&doc.transcript, &doc.report);
        let c = first_conversation(r).expect("a conversation");
        let judgement = r.conversation(c).expect("judged");
        assert_eq!(judgement.verdict, Verdict::Pass);
        assert!(!judgement.moved_on.is_empty());
        let files = format!("the same call on {} different files (Edit)", judgement.moved_on.len() + 1);
        assert!(judgement.reasons.iter().any(|s| s.contains(&files)), "{files:?} in {:?}", judgement.reasons);
        assert!(counts_sentence(judgement).ends_with(&format!(", {} moved on", judgement.moved_on.len())));
        let turns = turns(r, t, c);
        assert_eq!(flagged_rows(&turns), Vec::<usize>::new());
        let marked: Vec<usize> = turns.iter().filter(|u| u.moved_on).map(|u| u.index).collect();
        assert_eq!(marked, judgement.moved_on);
        for u in turns.iter().filter(|u| u.moved_on) {
            assert!(turn_label(t, u).contains("says again only a formula while the work moved on"));
        }
    }

    #[test]
    fn a_healthy_session_with_a_tool_log_flags_nothing_and_opens_judged_texts() {
        let doc = judged("long_tool_log");
        let (t, r) = (&doc.transcript, &doc.report);
        let c = first_conversation(r).expect("a conversation");
        assert_eq!(r.conversation(c).map(|j| j.verdict), Some(Verdict::Pass));
        let turns = turns(r, t, c);
        assert_eq!(flagged_rows(&turns), Vec::<usize>::new(), "an input's findings flag no turn");
        assert_eq!(onset_row(&turns), None);
        for turn in &turns {
            if let Some(i) = report_to_open(r, turn) {
                assert!(turn.reports.contains(&i));
                assert_eq!(r.reports[i].judged, turn.judged, "a turn opens its own texts");
            }
        }
    }

    #[test]
    fn the_picker_lists_multi_turn_conversations_worst_first() {
        let mut t = Transcript::new(coherency_core::ingest::Format::Jsonl);
        let say = |conversation, index, text: &str| Message {
            conversation,
            turn: index,
            role: if index % 2 == 0 { "user" } else { "assistant" }.to_string(),
            channel: Channel::Content,
            name: None,
            call_id: None,
            text: std::rc::Rc::new(text.to_string()),
            is_error: false,
            source: 0..0,
            line: None,
        };
        t.messages.push(say(0, 0, "One question only, with nothing after it at all."));
        for k in 0..8 {
            t.messages.push(say(1, 2 * k, &format!("Question {k}: what is the date today, please?")));
            t.messages.push(say(1, 2 * k + 1, "I will check the calendar and the leap year rule again now."));
        }
        t.messages.push(say(2, 0, "Hello there, how are you doing this fine morning?"));
        t.messages.push(say(2, 1, "Very well, thank you for asking; and how are you?"));
        let r = judge_transcript(&t);
        let choices = picker_choices(&r);
        assert_eq!(choices.iter().map(|c| c.0).collect::<Vec<_>>(), [1, 0, 2], "worst first, then in order");
        assert!(choices[0].1 > Verdict::Pass, "the same reply every turn: {:?}", r.conversation(1));
        assert_eq!(first_conversation(&r), Some(1));
        assert_eq!(choice_label(&choices[2]), "Conversation 2 · PASS · 2 turns");
        assert_eq!(choice_label(&choices[1]), "Conversation 0 · PASS · 1 turn");
    }

    #[test]
    fn previews_cut_long_lines_and_count_the_rest() {
        assert_eq!(cut(&"é".repeat(PREVIEW_CHARS)), "é".repeat(PREVIEW_CHARS));
        assert_eq!(cut(&"é".repeat(PREVIEW_CHARS + 1)), format!("{}…", "é".repeat(PREVIEW_CHARS)));
        let m = Message {
            conversation: 0,
            turn: 0,
            role: "tool".into(),
            channel: Channel::Tool,
            name: Some("bash".into()),
            call_id: None,
            text: std::rc::Rc::new("\n\n  line one  \nline two\n".into()),
            is_error: false,
            source: 0..0,
            line: None,
        };
        let line = preview_line(&m);
        assert_eq!(
            (line.label.as_str(), line.text.as_str(), line.size.as_str(), line.kind),
            ("result of bash", "line one", "24 bytes · 4 lines", "result")
        );
    }
}
