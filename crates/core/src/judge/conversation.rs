//! A conversation judged across its turns: its model stream (and each channel's, when a loop
//! could hide in one behind varied text in the others), its tool-call check, and what they and
//! its judged texts say together — the verdict, the turn where it turns degenerate (the onset
//! turn), the turns that are part of a loop, the reasons in words.
//!
//! What the judgement comes to, [`ConversationReport`], is in `conversation_report.rs`; the page
//! groups its turns for the conversation view itself (its `model/turn_view.rs`).
//!
//! Turns that *poll* are left out of the streams: those whose calls all repeat the call before
//! them in a run the tool-call check finds polling (the same call, at least
//! `ToolRules::same_warn` times in a row, a new result each time) — asking again while something
//! changes is waiting, not looping, whatever the turn says while it waits. So are turns that
//! *move on* ([`super::moves_on`]): those that say again only a formula ("Done.") while the work
//! moved on since (new arguments, a new result, a user's message). The streams hold the model's
//! reasoning and replies, never its calls: a call's arguments are not prose to be searched for
//! copies (the same edit on four files differs only in a path), calls are the tool-call check's.
//! A stream is analysed only when it has two turns or more and one of them says again something
//! an earlier one said ([`super::says_again`]).

use std::collections::HashSet;
use std::ops::Range;

use super::authorship::Author;
use super::conversation_report::{ConversationReport, LoopTurn};
use super::model_stream::{StreamKind, StreamLayout};
use super::moves_on::{moves_on, MovesOn};
use super::report::MessageReport;
use super::says_again::{hashes, says_again};
use super::tool_calls::{self, calls, is_call, Call};
use super::tool_loop::{check_tool_calls, loop_sentence, ToolCheck};
use super::turns::Conversation;
use crate::analyze::{Metric, Report, Span, SpanKind, Thresholds, Verdict};
use crate::ingest::{Channel, Message, Transcript};

/// What is known of a conversation before any text is analysed.
pub(super) struct Plan {
    pub conversation: Conversation,
    pub tool_calls: ToolCheck,
    pub polls: Vec<usize>,
    /// Its calls, and its turns that move on.
    pub calls: Vec<Call>,
    pub moves_on: MovesOn,
    pub model_turns: usize,
    /// The streams to analyse: their kinds and messages.
    pub streams: Vec<(StreamKind, Vec<usize>)>,
}

/// Plans the judgement of `c`: its calls checked, its polls found, its streams chosen.
pub(super) fn plan(t: &Transcript, c: Conversation, thresholds: &Thresholds) -> Plan {
    let calls = calls(t, &c);
    let tool_calls = check_tool_calls(t, &calls, thresholds.tools);
    let polling = polling_turns(t, &c, &tool_calls);
    let moving = moves_on(t, &c, &calls, &polling, thresholds.tools);
    let model_turns = c.turns.iter().filter(|u| u.model).count();
    let mut stream: Vec<usize> = Vec::new();
    let mut turns = 0;
    for (k, turn) in c.turns.iter().enumerate() {
        if !turn.model || polling[k] || moving.left_out[k] {
            continue;
        }
        let before = stream.len();
        let said = |m: &&usize| Author::of(&t.messages[**m]) == Author::Model && !is_call(&t.messages[**m]);
        stream.extend(c.turn_messages(k).iter().filter(said));
        turns += usize::from(stream.len() > before);
    }
    let mut streams = Vec::new();
    if turns >= 2 {
        for kind in says_again(t, &stream) {
            let messages: Vec<usize> = match kind {
                StreamKind::Model => stream.clone(),
                _ => stream.iter().copied().filter(|&m| kind.takes(t.messages[m].channel)).collect(),
            };
            // A channel's stream is worth its own report when other texts were left out of it.
            let distinct = kind == StreamKind::Model || messages.len() < stream.len();
            if distinct {
                streams.push((kind, messages));
            }
        }
    }
    let polls = c.turns.iter().zip(&polling).filter(|(_, p)| **p).map(|(u, _)| u.index).collect();
    Plan { conversation: c, tool_calls, polls, calls, moves_on: moving, model_turns, streams }
}

/// A text of a turn in words: "the assistant's reasoning", "the result of bash".
fn text_in_words(m: &Message, combined: bool) -> String {
    let name = m.name.as_deref().unwrap_or("a tool");
    match (Author::of(m), m.channel) {
        _ if combined => format!("the {}'s reasoning and reply", m.role),
        (Author::Model, Channel::Reasoning) => format!("the {}'s reasoning", m.role),
        (Author::Model, Channel::Content) => format!("the {}'s reply", m.role),
        (Author::Model, Channel::Tool) => format!("the {}'s call to {name}", m.role),
        (Author::Input, Channel::Tool) => format!("the result of {name}"),
        (Author::Input, _) if tool_calls::is_result(m) => format!("the result of {name}"),
        (Author::Input, channel) => format!("the {}'s {}", m.role, channel.as_str()),
    }
}

/// The message of the turn where a stream's repetition begins. From the turn of its report's
/// onset ([`turn_from`]), moved back while a loop or copy that began earlier covers most of
/// that turn (a copy whose source is itself a copy of earlier text: the repetition began
/// there), then back by whole turns while the turn before says mostly what the turn does (a
/// copy's edits can start it a few tokens into the first turn of a plan re-stated each turn).
fn onset_message(t: &Transcript, layout: &StreamLayout, r: &Report) -> Option<usize> {
    let turns = stream_turns(t, layout);
    let bytes = |k: usize| layout.pieces[turns[k].start].at.start..layout.pieces[turns[k].end - 1].at.end;
    let held: Vec<(usize, Range<usize>)> = r
        .spans
        .iter()
        .filter(|s| matches!(s.kind, SpanKind::Loop | SpanKind::Copy))
        .map(|s| (s.source.unwrap_or(s.start).min(s.start), s.start..s.end))
        .collect();
    let mut at = r.onset.unwrap_or(0);
    let mut k = loop {
        let k = turn_from(&turns, layout, at)?;
        let turn = bytes(k);
        let covers =
            |copy: &Range<usize>| 2 * copy.end.min(turn.end).saturating_sub(copy.start.max(turn.start)) >= turn.len();
        match held.iter().filter(|(from, copy)| *from < at && covers(copy)).map(|(from, _)| *from).min() {
            Some(from) => at = from,
            None => break k,
        }
    };
    let said = |k: usize| {
        let mut out = Vec::new();
        for p in &layout.pieces[turns[k].clone()] {
            hashes(&layout.text[p.at.clone()], 1, &mut out);
        }
        out
    };
    let mut now = said(k);
    while k > 0 {
        let before = said(k - 1);
        let again = before.iter().filter(|h| now.contains(h)).count();
        if before.is_empty() || 2 * again < before.len() {
            break;
        }
        (k, now) = (k - 1, before);
    }
    Some(layout.pieces[turns[k].start].message)
}

/// The turns of a stream, as ranges of its pieces.
fn stream_turns(t: &Transcript, layout: &StreamLayout) -> Vec<Range<usize>> {
    let index = |i: usize| t.messages[layout.pieces[i].message].turn;
    let mut out: Vec<Range<usize>> = Vec::new();
    for i in 0..layout.pieces.len() {
        match out.last_mut() {
            Some(turn) if index(turn.start) == index(i) => turn.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// The first of `turns` (of a stream), from byte `at` on, that is mostly at or after it: a
/// repetition found from the last few bytes of a turn (a copy's edits reach a token or two
/// back) begins in the next one. The last turn when `at` is past them all.
fn turn_from(turns: &[Range<usize>], layout: &StreamLayout, at: usize) -> Option<usize> {
    let bytes = |k: usize| layout.pieces[turns[k].start].at.start..layout.pieces[turns[k].end - 1].at.end;
    let first = turns.partition_point(|k| layout.pieces[k.end - 1].at.end <= at);
    let mostly_after = |&k: &usize| {
        let b = bytes(k);
        b.end.saturating_sub(at.max(b.start)) >= b.len().div_ceil(2)
    };
    (first..turns.len()).find(mostly_after).or(turns.len().checked_sub(1))
}

/// For each turn of `c`: whether it polls — it has calls, and each repeats the call before it in
/// a polling run (not the run's first call).
fn polling_turns(t: &Transcript, c: &Conversation, tool_calls: &ToolCheck) -> Vec<bool> {
    let mut again: HashSet<usize> = HashSet::new();
    for l in tool_calls.loops.iter().filter(|l| !l.same_result) {
        again.extend(l.messages.iter().copied().filter(|&m| is_call(&t.messages[m])).skip(1));
    }
    (0..c.turns.len())
        .map(|k| {
            let mut calls = c.turn_messages(k).iter().filter(|&&m| is_call(&t.messages[m])).peekable();
            calls.peek().is_some() && calls.all(|m| again.contains(m))
        })
        .collect()
}

/// The judgement of planned conversation `p`, once every text is analysed: `reports` are the
/// transcript's, and `mine` the indices of those of this conversation (its streams among them).
pub(super) fn judge_conversation(
    t: &Transcript,
    p: Plan,
    reports: &[MessageReport],
    mine: &[usize],
) -> ConversationReport {
    let turn_of = |m: usize| t.messages[m].turn;
    let judged: Vec<usize> = mine.iter().copied().filter(|&i| reports[i].judged).collect();
    let tool_level = p.tool_calls.level();
    let verdict =
        judged.iter().map(|&i| reports[i].report.verdict()).chain([tool_level]).max().unwrap_or(Verdict::Pass);

    // Streams: where they turn degenerate, and the turns their flagged spans cover.
    // Each turn a loop covers, with the loop's level (a turn may come more than once).
    let mut loop_turns: Vec<LoopTurn> = Vec::new();
    let mut stream_onsets: Vec<(usize, usize)> = Vec::new();
    let streams: Vec<usize> = mine.iter().copied().filter(|&i| reports[i].stream.is_some()).collect();
    for &i in &streams {
        let r = &reports[i];
        // A report that found something is always kept whole.
        let Some(report) = r.report.whole().filter(|w| w.verdict > Verdict::Pass) else { continue };
        let layout = r.layout(t);
        if let Some(m) = onset_message(t, &layout, report) {
            stream_onsets.push((i, turn_of(m)));
        }
        let repetition = |s: &Span| matches!(s.kind, SpanKind::Loop | SpanKind::Copy);
        for span in report.spans.iter().filter(|s| repetition(s) || s.level >= report.verdict) {
            for (m, _) in layout.locate(t, span.start..span.end) {
                loop_turns.push(LoopTurn { turn: turn_of(m), level: report.verdict });
            }
        }
    }
    for l in p.tool_calls.loops.iter().filter(|l| l.level > Verdict::Pass) {
        for &m in &l.messages {
            loop_turns.push(LoopTurn { turn: turn_of(m), level: l.level });
        }
    }

    // Where each finding at the verdict's level says the conversation turns degenerate, the most
    // precise first (as a text's onset comes from its most precise check): a tool loop's first
    // call, a stream's loop's first copy, a text that fails on its own; then a copy's source, a
    // channel's stream before the model stream (which mixes channels: its rendered calls look
    // alike from turn to turn, and a copy's edits there reach into unrelated turns); then a
    // count (a line's first occurrence) or a ratio.
    let precision = |r: &MessageReport| match (r.report.tripped(), r.stream) {
        (Some(Metric::Loop), _) => 0,
        (Some(Metric::Copies), Some(StreamKind::Reasoning | StreamKind::Content)) => 1,
        (Some(Metric::Copies), _) => 2,
        _ => 3,
    };
    let onset_turn = (verdict > Verdict::Pass)
        .then(|| {
            let texts = judged
                .iter()
                .filter(|&&i| reports[i].stream.is_none() && reports[i].report.verdict() == verdict)
                .filter_map(|&i| reports[i].messages.first().map(|&m| (0, turn_of(m))));
            let streams = stream_onsets
                .iter()
                .filter(|(i, _)| reports[*i].report.verdict() == verdict)
                .map(|&(i, u)| (precision(&reports[i]), u));
            let tools = p.tool_calls.decisive().filter(|l| l.level == verdict).map(|l| (0, l.first_turn));
            texts.chain(streams).chain(tools).min().map(|(_, turn)| turn)
        })
        .flatten();

    // Each finding with its level.
    let mut ranked: Vec<(Verdict, String)> = Vec::new();
    if let Some(l) = p.tool_calls.decisive() {
        ranked.push((l.level, p.tool_calls.reason.clone()));
    }
    for &(i, turn) in &stream_onsets {
        let r = &reports[i];
        let kind = r.stream.unwrap_or(StreamKind::Model);
        let why = r.report.first_reason().unwrap_or("");
        let sentence = format!(
            "{} {}: from turn {turn} the assistant repeats itself across turns ({}) — {why}",
            kind.label(),
            r.report.verdict().as_str(),
            kind.of_what()
        );
        ranked.push((r.report.verdict(), sentence));
    }
    let worst_text = judged
        .iter()
        .copied()
        .filter(|&i| reports[i].stream.is_none() && reports[i].report.verdict() > Verdict::Pass)
        .max_by_key(|&i| (reports[i].report.verdict(), std::cmp::Reverse(i)));
    if let Some(i) = worst_text {
        let r = &reports[i];
        let first = &t.messages[r.messages[0]];
        let why = r.report.first_reason().unwrap_or("");
        let (what, verdict) = (text_in_words(first, r.combined), r.report.verdict().as_str());
        let sentence = format!("turn {}: {what} {verdict}s on its own — {why}", first.turn);
        ranked.push((r.report.verdict(), sentence));
    }
    // Worst first, in the order found within a level.
    let mut reasons: Vec<String> = Vec::with_capacity(ranked.len());
    for level in [Verdict::Fail, Verdict::Warn] {
        reasons.extend(ranked.iter().filter(|(l, _)| *l == level).map(|(_, sentence)| sentence.clone()));
    }
    for l in p.tool_calls.loops.iter().filter(|l| !l.same_result) {
        reasons.push(loop_sentence(l));
    }
    if !p.polls.is_empty() {
        reasons.push(format!(
            "{} left out of the stream: each makes the same tool calls as the turn before and got a new result (polling)",
            if p.polls.len() == 1 { "1 turn".to_string() } else { format!("{} turns", p.polls.len()) }
        ));
    }
    for f in &p.moves_on.formulas {
        reasons.push(f.sentence(t, &p.calls));
    }
    if verdict == Verdict::Pass {
        let across = if streams.is_empty() && p.moves_on.formulas.is_empty() && p.model_turns >= 2 {
            ", no turn says again what an earlier one said"
        } else {
            ""
        };
        reasons.insert(
            0,
            format!(
                "No loop across turns: {} of the model's{across}. {}",
                if p.model_turns == 1 { "1 turn".to_string() } else { format!("{} turns", p.model_turns) },
                p.tool_calls.reason
            ),
        );
    }

    let mut moved_on: Vec<usize> = p.moves_on.formulas.iter().flat_map(|f| f.turns.iter().copied()).collect();
    moved_on.sort_unstable();
    ConversationReport {
        conversation: p.conversation.id,
        turns: p.conversation.turns.len(),
        model_turns: p.model_turns,
        polls: p.polls,
        moved_on,
        streams,
        tool_calls: p.tool_calls,
        verdict,
        onset_turn,
        loop_turns: each_turn_once(loop_turns),
        reasons,
    }
}

/// The turns in loops in turn order, each once at the worst level it was found at. Sorted, not
/// gathered in a `BTreeMap`: each map type is its own few KB of wasm.
fn each_turn_once(mut turns: Vec<LoopTurn>) -> Vec<LoopTurn> {
    turns.sort_by_key(|l| l.turn);
    turns.dedup_by(|later, kept| {
        let same = later.turn == kept.turn;
        if same {
            kept.level = kept.level.max(later.level);
        }
        same
    });
    turns
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::message;
    use super::super::test_messages::session;
    use super::*;
    use crate::analyze::Verdict;
    use crate::judge::{judge_transcript, JudgeOptions, Judging};

    #[test]
    fn a_tool_loop_fails_the_conversation_from_its_first_call() {
        let t = session(6, "Let me read the helper file to check the February logic", |_| "fn feb() {}".into());
        let r = judge_transcript(&t);
        let c = &r.conversations[0];
        assert_eq!((c.verdict, c.onset_turn, r.verdict), (Verdict::Fail, Some(1), Some(Verdict::Fail)));
        assert_eq!(c.tool_calls.level(), Verdict::Fail);
        assert_eq!(
            c.reasons[0],
            "tool loop: `Read {file_path: src/date.rs}` called 6 times in a row from turn 1, the same result each time"
        );
        let looped: Vec<usize> = c.loop_turns.iter().map(|l| l.turn).collect();
        assert_eq!(looped, (1..=12).collect::<Vec<_>>(), "every call's turn and its result's");
        // The calls are not in the streams: the tool-call check is the one that finds them.
        let streams: Vec<String> = c.streams.iter().map(|&i| r.reports[i].text(&t).into_owned()).collect();
        assert!(streams.iter().all(|s| !s.contains("src/date.rs")), "{streams:?}");
    }

    #[test]
    fn polling_is_no_loop_and_is_left_out_of_the_stream() {
        let t = session(6, "Checking on the job", |k| format!("job 4711: running, {}% done", 10 * k));
        let r = judge_transcript(&t);
        let c = &r.conversations[0];
        assert_eq!((c.verdict, c.onset_turn), (Verdict::Pass, None));
        assert_eq!(c.polls, [3, 5, 7, 9, 11], "every call after the first repeats it and got news");
        assert!(c.streams.is_empty(), "one turn left: no stream");
        assert_eq!(c.tool_calls.loops.len(), 1);
        assert!(
            c.reasons.iter().any(|r| r.ends_with("a new result each time (polling, not a loop)")),
            "{:?}",
            c.reasons
        );
    }

    #[test]
    fn inputs_are_analysed_and_shown_but_judged_only_on_request() {
        let log = "Epoch 1: 10%|##  | 60/600 [00:06<00:54, 9.9it/s]\n".repeat(40);
        let mut t = session(1, "Training for one epoch", |_| log.clone());
        t.messages.push(message(3, "assistant", Channel::Content, "The training finished; the loss went down."));
        let r = judge_transcript(&t);
        let input = r.reports.iter().find(|m| m.messages == [3]).unwrap();
        assert_eq!(
            (input.report.verdict(), input.judged, input.author, input.why()),
            (Verdict::Fail, false, Author::Input, "input — not judged")
        );
        assert_eq!(r.verdict, Some(Verdict::Pass), "the model did not loop");
        assert!(r.worst().unwrap().judged, "the worst judged text comes first");
        assert!(r.worst_first().iter().take_while(|m| m.judged).all(|m| m.report.verdict() == Verdict::Pass));
        let asked = Judging::new(JudgeOptions { judge_inputs: true, ..JudgeOptions::default() }).judge(&t);
        assert_eq!(asked.verdict, Some(Verdict::Fail));
        let c = &asked.conversations[0];
        assert_eq!(c.onset_turn, Some(2));
        assert!(c.reasons[0].starts_with("turn 2: the result of Read FAILs on its own — "), "{:?}", c.reasons);
    }
}
