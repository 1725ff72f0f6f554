//! The tool-call check, a conversation's seventh check: its calls in order (each its tool's name
//! and canonical arguments, with its result), searched for identical calls back to back and for
//! cycles of a few calls said again and again, each repeat with the same result as the call it
//! repeats. Its rule is [`ToolRules`] (in [`Thresholds`](crate::analyze::Thresholds)), in words
//! by `Metric::ToolLoop.rule`. Identical calls that get a new result each time (polling a job,
//! running the tests after each edit) are listed, but are no loop; nor is a call that answers
//! the same instruction the user sent again (`Call::asked_again`): the user asked for it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::tool_calls::Call;
use crate::analyze::{Check, Direction, Metric, ToolRules, Verdict};
use crate::ingest::Transcript;
use crate::wording::thousands;

/// A repetition among a conversation's tool calls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolLoop {
    /// 1: the same call again and again; 2 to 4: a cycle of that many calls.
    pub period: usize,
    /// Calls in a row (period 1), or whole copies of the cycle.
    pub count: usize,
    /// One copy's calls in words (`Read {file_path: src/date.rs}`).
    pub calls: Vec<String>,
    /// Each repeat got the same result as the call it repeats. False only for identical calls
    /// that got a new result each time (polling): listed, never above PASS.
    pub same_result: bool,
    /// The repeated result reads as an error (see `ToolRules::error_starts`).
    pub error: bool,
    /// The turns (`Message::index`) of its first and last call.
    pub first_turn: usize,
    pub last_turn: usize,
    /// The messages of its calls and of their results, in order (indices into
    /// `Transcript::messages`).
    pub messages: Vec<usize>,
    pub level: Verdict,
}

/// The tool-call check of one conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCheck {
    /// The calls the conversation made.
    pub calls: usize,
    /// The most identical calls in a row with the same result (1 with any call).
    pub longest_repeat: usize,
    /// The most whole copies of a cycle back to back, each call with the same result (0 when no
    /// cycle is said twice).
    pub most_cycle_copies: usize,
    /// The check as every check is shown: `value` is the decisive loop's count (calls in a row,
    /// or copies of a cycle) against that kind's thresholds; not judged without calls.
    pub check: Check,
    /// Every loop at WARN or above and every run of polling calls, in order of their first call.
    pub loops: Vec<ToolLoop>,
    /// The check's sentence: the decisive loop in words, or what was measured.
    pub reason: String,
}

impl ToolCheck {
    pub fn level(&self) -> Verdict {
        self.check.level
    }

    /// The loop that set the level (the earliest of that level), if any is above PASS.
    pub fn decisive(&self) -> Option<&ToolLoop> {
        let level = self.level();
        (level > Verdict::Pass).then(|| self.loops.iter().find(|l| l.level == level)).flatten()
    }
}

/// Judges `calls` (one conversation's, in order) against `rules`.
pub(super) fn check_tool_calls(t: &Transcript, calls: &[Call], rules: &ToolRules) -> ToolCheck {
    // Each call, and each call with its result, as a number: equal numbers, equal texts.
    let mut call_ids: HashMap<&str, u32> = HashMap::new();
    let mut pair_ids: HashMap<(u32, Option<&str>), u32> = HashMap::new();
    let mut ids = Vec::with_capacity(calls.len());
    // A call that answers an instruction the user sent again starts afresh: numbers of its own.
    let mut fresh = u32::MAX;
    for c in calls {
        if c.asked_again {
            ids.push((fresh, fresh));
            fresh -= 1;
            continue;
        }
        let n = call_ids.len() as u32;
        let call = *call_ids.entry(c.canonical.as_str()).or_insert(n);
        let n = pair_ids.len() as u32;
        let pair = *pair_ids.entry((call, c.result_text(t))).or_insert(n);
        ids.push((call, pair));
    }
    let mut loops = repeats(t, calls, &ids, rules);
    let (cycles, most_cycle_copies) = cycles(t, calls, &ids, rules);
    loops.extend(cycles);
    let longest_repeat = longest_repeat(&ids);
    loops.sort_by_key(|l| (l.first_turn, std::cmp::Reverse(l.level)));

    let level = loops.iter().map(|l| l.level).max().unwrap_or(Verdict::Pass);
    let decisive = (level > Verdict::Pass).then(|| loops.iter().find(|l| l.level == level)).flatten();
    let (value, warn_at, fail_at) = match decisive {
        Some(l) if l.period > 1 => (l.count, rules.cycle_warn, rules.cycle_fail),
        Some(l) if l.error => (l.count, rules.same_warn, rules.error_fail),
        Some(l) => (l.count, rules.same_warn, rules.same_fail),
        None => (longest_repeat, rules.same_warn, rules.same_fail),
    };
    let check = Check {
        metric: Metric::ToolLoop,
        value: value as f64,
        warn_at: warn_at as f64,
        fail_at: fail_at as f64,
        direction: Direction::AtLeast,
        level,
        judged: !calls.is_empty(),
        data: false,
    };
    let reason = match decisive {
        Some(l) => loop_sentence(l),
        None if calls.is_empty() => "No tool calls.".to_string(),
        None => format!(
            "No tool call repeated with the same result: {}, at most {} identical with the same result in a row.",
            plural_calls(calls.len()),
            thousands(value)
        ),
    };
    ToolCheck { calls: calls.len(), longest_repeat, most_cycle_copies, check, loops, reason }
}

fn plural_calls(n: usize) -> String {
    if n == 1 {
        "1 call".into()
    } else {
        format!("{} calls", thousands(n))
    }
}

/// The longest run of identical calls with identical results.
fn longest_repeat(ids: &[(u32, u32)]) -> usize {
    let mut best = usize::from(!ids.is_empty());
    let mut run = 1;
    for w in ids.windows(2) {
        run = if w[1].1 == w[0].1 { run + 1 } else { 1 };
        best = best.max(run);
    }
    best
}

/// The messages of calls `range` and of their results, in order.
fn messages_of(calls: &[Call]) -> Vec<usize> {
    let mut out: Vec<usize> = calls.iter().flat_map(|c| std::iter::once(c.message).chain(c.result)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn finding(
    t: &Transcript,
    calls: &[Call],
    period: usize,
    count: usize,
    same: bool,
    error: bool,
    level: Verdict,
) -> ToolLoop {
    let turn = |c: &Call| t.messages[c.message].turn;
    ToolLoop {
        period,
        count,
        calls: calls[..period.min(calls.len())].iter().map(|c| c.in_words(t)).collect(),
        same_result: same,
        error,
        first_turn: calls.first().map_or(0, turn),
        last_turn: calls.last().map_or(0, turn),
        messages: messages_of(calls),
        level,
    }
}

/// Runs of identical calls: those whose results repeat too (judged), and those that got a new
/// result each time (polling, listed at PASS).
fn repeats(t: &Transcript, calls: &[Call], ids: &[(u32, u32)], rules: &ToolRules) -> Vec<ToolLoop> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i + 1;
        while j < ids.len() && ids[j].0 == ids[i].0 {
            j += 1;
        }
        // i..j: the same call. Split it where the result changes.
        let mut judged = false;
        let mut a = i;
        while a < j {
            let mut b = a + 1;
            while b < j && ids[b].1 == ids[a].1 {
                b += 1;
            }
            let n = b - a;
            let error = calls[a].result.is_some_and(|r| t.messages[r].is_error)
                || calls[a].result_text(t).is_some_and(|r| rules.is_error(r));
            let level = if n >= rules.same_fail || (error && n >= rules.error_fail) {
                Verdict::Fail
            } else if n >= rules.same_warn {
                Verdict::Warn
            } else {
                Verdict::Pass
            };
            if level > Verdict::Pass {
                out.push(finding(t, &calls[a..b], 1, n, true, error, level));
                judged = true;
            }
            a = b;
        }
        if !judged && j - i >= rules.same_warn {
            out.push(finding(t, &calls[i..j], 1, j - i, false, false, Verdict::Pass));
        }
        i = j;
    }
    out
}

/// Cycles of `rules.cycle_periods` calls said again back to back, each call with the result it
/// got in the copy before: whole copies counted; a cycle of one call said again is a repeat,
/// not a cycle, and a cycle of 4 that is a cycle of 2 twice is the cycle of 2.
/// Returns them (those at WARN or above) and the most copies of any.
fn cycles(t: &Transcript, calls: &[Call], ids: &[(u32, u32)], rules: &ToolRules) -> (Vec<ToolLoop>, usize) {
    let mut out = Vec::new();
    let mut most = 0;
    let [shortest, longest] = rules.cycle_periods;
    for p in shortest.max(2)..=longest {
        let mut i = p;
        while i < ids.len() {
            if ids[i].1 != ids[i - p].1 {
                i += 1;
                continue;
            }
            let start = i - p;
            let mut end = i + 1;
            while end < ids.len() && ids[end].1 == ids[end - p].1 {
                end += 1;
            }
            i = end;
            let unit = &ids[start..start + p];
            let primitive = (1..p).filter(|q| p % q == 0).all(|q| (q..p).any(|k| unit[k].1 != unit[k - q].1));
            let count = (end - start) / p;
            let level = if count >= rules.cycle_fail {
                Verdict::Fail
            } else if count >= rules.cycle_warn {
                Verdict::Warn
            } else {
                Verdict::Pass
            };
            if primitive && count >= 2 {
                most = most.max(count);
                if level > Verdict::Pass {
                    out.push(finding(t, &calls[start..start + count * p], p, count, true, false, level));
                }
            }
        }
    }
    (out, most)
}

/// A loop in words: "tool loop: `Read {file_path: src/date.rs}` called 15 times in a row from
/// turn 1, the same result each time".
pub fn loop_sentence(l: &ToolLoop) -> String {
    let head = match l.level {
        Verdict::Fail => "tool loop: ",
        Verdict::Warn => "tool loop (WARN): ",
        Verdict::Pass => "",
    };
    let what = if l.period == 1 {
        format!("`{}` called {} times in a row", l.calls.first().map_or("", String::as_str), thousands(l.count))
    } else {
        let cycle: Vec<String> = l.calls.iter().map(|c| format!("`{c}`")).collect();
        format!("the cycle {} said {} times in a row", cycle.join(" → "), thousands(l.count))
    };
    let results = match (l.same_result, l.error, l.period) {
        (false, _, _) => "a new result each time (polling, not a loop)",
        (true, true, _) => "the same error each time",
        (true, false, 1) => "the same result each time",
        (true, false, _) => "the same results each time",
    };
    format!("{head}{what} from turn {}, {results}", l.first_turn)
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::tool as message;
    use super::super::tool_calls::calls;
    use super::super::turns::conversations;
    use super::*;
    use crate::ingest::Format;

    /// A session of `(tool, args, result)` calls, each in its own turn with its result after it.
    fn session(steps: &[(&str, &str, &str)]) -> Transcript {
        let mut t = Transcript::new(Format::SessionJsonl);
        for (k, (tool, args, result)) in steps.iter().enumerate() {
            t.messages.push(message(2 * k + 1, "assistant", Some(tool), None, args));
            t.messages.push(message(2 * k + 2, "tool", None, None, result));
        }
        t
    }

    fn check(steps: &[(&str, &str, &str)]) -> ToolCheck {
        let t = session(steps);
        let calls = conversations(&t).first().map(|c| calls(&t, c)).unwrap_or_default();
        check_tool_calls(&t, &calls, &ToolRules::SEED)
    }

    const READ: (&str, &str, &str) = ("Read", r#"{"file_path": "src/date.rs"}"#, "fn days_in_feb() {}");
    const TEST: (&str, &str, &str) = ("bash", r#"{"cmd": "cargo test"}"#, "1 failed");

    #[test]
    fn identical_calls_with_the_same_result_warn_at_3_and_fail_at_5() {
        for (n, level) in [(2, Verdict::Pass), (3, Verdict::Warn), (4, Verdict::Warn), (5, Verdict::Fail)] {
            let c = check(&vec![READ; n]);
            assert_eq!((c.level(), c.check.value as usize, c.calls), (level, n, n), "{n} calls");
        }
        let c = check(&[READ; 15]);
        assert_eq!(
            c.reason,
            "tool loop: `Read {file_path: src/date.rs}` called 15 times in a row from turn 1, the same result each time"
        );
        let l = c.decisive().unwrap();
        assert_eq!((l.first_turn, l.last_turn, l.messages.len()), (1, 29, 30));
        assert_eq!(c.check.fail_at, 5.0);
    }

    #[test]
    fn the_same_error_three_times_fails() {
        let err = ("Read", r#"{"file_path": "src/dates.rs"}"#, "Error: no such file");
        let c = check(&[err; 3]);
        assert_eq!((c.level(), c.check.fail_at), (Verdict::Fail, 3.0));
        assert!(c.reason.ends_with("the same error each time"), "{}", c.reason);
        assert_eq!(check(&[err; 2]).level(), Verdict::Pass);
    }

    #[test]
    fn identical_calls_with_new_results_are_polling_not_a_loop() {
        let steps: Vec<(&str, &str, String)> =
            (0..9).map(|i| ("bash", r#"{"cmd":"ci status 4711"}"#, format!("running, {}% done", i * 10))).collect();
        let steps: Vec<(&str, &str, &str)> = steps.iter().map(|(a, b, c)| (*a, *b, c.as_str())).collect();
        let c = check(&steps);
        assert_eq!((c.level(), c.check.value), (Verdict::Pass, 1.0));
        assert_eq!(c.loops.len(), 1);
        assert_eq!(
            loop_sentence(&c.loops[0]),
            "`bash {cmd: ci status 4711}` called 9 times in a row from turn 1, a new result each time (polling, not a loop)"
        );
    }

    #[test]
    fn cycles_warn_at_3_copies_and_fail_at_4() {
        assert_eq!(check(&[READ, TEST, READ, TEST]).level(), Verdict::Pass);
        let c = check(&[READ, TEST, READ, TEST, READ, TEST]);
        assert_eq!((c.level(), c.check.value, c.check.warn_at), (Verdict::Warn, 3.0, 3.0));
        assert_eq!((c.longest_repeat, c.most_cycle_copies), (1, 3));
        assert_eq!(check(&[READ, READ, TEST, READ]).most_cycle_copies, 0);
        assert_eq!(check(&[READ, READ, TEST, READ]).longest_repeat, 2);
        let c = check(&[TEST, READ, TEST, READ, TEST, READ, TEST, READ, TEST]);
        assert_eq!((c.level(), c.check.value), (Verdict::Fail, 4.0));
        assert_eq!(
            c.reason,
            "tool loop: the cycle `bash {cmd: cargo test}` → `Read {file_path: src/date.rs}` said 4 times in a row \
             from turn 1, the same results each time"
        );
        let edit = ("Edit", r#"{"old":"a","new":"b"}"#, "updated");
        let revert = ("Edit", r#"{"old":"b","new":"a"}"#, "updated");
        let c = check(&[
            edit, revert, edit, revert, READ, edit, revert, TEST, edit, revert, edit, revert, edit, revert, edit,
            revert,
        ]);
        assert_eq!((c.level(), c.decisive().unwrap().period, c.decisive().unwrap().first_turn), (Verdict::Fail, 2, 17));
        let three = check(&[READ, TEST, READ, READ, TEST, READ, READ, TEST, READ]);
        assert_eq!((three.level(), three.decisive().unwrap().period), (Verdict::Warn, 3));
    }

    #[test]
    fn a_cycle_whose_results_change_is_no_cycle() {
        let a = |r: &'static str| ("bash", r#"{"cmd":"sleep 5"}"#, r);
        let b = |r: &'static str| ("bash", r#"{"cmd":"status"}"#, r);
        let c = check(&[a(""), b("10%"), a(""), b("20%"), a(""), b("30%"), a(""), b("40%")]);
        assert_eq!(c.level(), Verdict::Pass);
        assert_eq!(check(&[]).reason, "No tool calls.");
        assert!(!check(&[]).check.judged);
        assert_eq!(
            check(&[READ, TEST]).reason,
            "No tool call repeated with the same result: 2 calls, at most 1 identical with the same result in a row."
        );
    }
}
