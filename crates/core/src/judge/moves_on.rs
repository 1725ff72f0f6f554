//! Turns that move on: the rhythm of ordinary agent work, told from a loop across turns. A model
//! turn that says again *only a formula* — at most `ToolRules::formula_words` words an earlier
//! turn said ("Done.", "Running the tests again.", a summary's fixed headings) — while the work
//! moved on since that turn is left out of the conversation's streams, as a poll is. The work
//! moved on when, after the earlier turn and up to this one, a call got a pair of arguments and
//! result never seen before in the conversation (another file read, the tests giving a new
//! count, a job's new status) or the user (or a harness's auto-continue) asked again what they had
//! asked before (the repetition was asked for; the same words said back to new questions are not
//! progress). A turn
//! that says again more than a formula is kept whatever it did: the same reasoning or reply
//! behind new calls is a loop in the text, and the streams judge it.
//!
//! What is said again is counted in words, from the lines and the runs of
//! [`SHINGLE`](super::says_again::SHINGLE) words earlier turns said (each turn's reasoning and
//! content; tool calls are the tool-call check's business, never text). The turns left out are
//! named with what changed, in words: "the same call on 4 different files (Edit)".

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::authorship::Author;
use super::says_again::SHINGLE;
use super::tool_calls::{is_call, is_user_message, Call};
use super::turns::Conversation;
use crate::analyze::tokens::hash_bytes;
use crate::analyze::ToolRules;
use crate::ingest::{Message, Transcript};
use crate::splitmix::mix;
use crate::wording::{quote, thousands};

/// The turns of a conversation that move on, and why.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct MovesOn {
    /// For each turn of the conversation (positions in `Conversation::turns`): left out of the
    /// streams because it says again only a formula while the work moved on.
    pub left_out: Vec<bool>,
    /// The formulas said again, each with the turns (`Message::index`) left out for it and what
    /// changed meanwhile, in order of their first such turn.
    pub formulas: Vec<Formula>,
}

/// A formula said again by turns that moved on.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Formula {
    /// The words said again (the first turn's), quoted short.
    pub said: String,
    /// The turns (`Message::index`) left out for it.
    pub turns: Vec<usize>,
    /// The calls made meanwhile (indices into `calls`).
    calls: Vec<usize>,
    /// How many of its turns had a user's message come meanwhile.
    asked: usize,
}

/// The model's texts of a message: reasoning and content (not its calls).
fn is_model_text(m: &Message) -> bool {
    Author::of(m) == Author::Model && !is_call(m)
}

/// Finds the turns of `c` that move on (see the module's header). `calls` are the
/// conversation's calls with their results, `polling` its turns that poll (already left out).
pub(super) fn moves_on(
    t: &Transcript,
    c: &Conversation,
    calls: &[Call],
    polling: &[bool],
    rules: &ToolRules,
) -> MovesOn {
    let mut out = MovesOn { left_out: vec![false; c.turns.len()], formulas: Vec::new() };
    // Every line and shingle said so far, with the last turn (position) that said it.
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut pairs: HashSet<(&str, Option<&str>)> = HashSet::new();
    // The positions of the turns where the work moved on (a new call + result, a user's message).
    let mut news: Vec<usize> = Vec::new();
    let mut calls_of_turn: Vec<Vec<usize>> = vec![Vec::new(); c.turns.len()];
    for (i, call) in calls.iter().enumerate() {
        calls_of_turn[call.turn].push(i);
    }
    let mut asked_at: Vec<bool> = vec![false; c.turns.len()];
    // What the user has asked so far.
    let mut asked: HashSet<&str> = HashSet::new();
    // Each formula by its words' hash: its position in `out.formulas`.
    let mut by_words: HashMap<u64, usize> = HashMap::new();
    // For each turn, the model turn with text before it (positions): a formula's first work is
    // what its source turn reported on, the calls since the text before it.
    let mut text_before: Vec<Option<usize>> = vec![None; c.turns.len()];
    let mut last_text: Option<usize> = None;
    // The last turn that reads `seen`: what later turns say is never looked up (a plain text's one
    // turn, 50 MB of it, spent seconds in wasm hashing pieces no turn looked up).
    let last_reader = (0..c.turns.len()).rev().find(|&k| c.turns[k].model && !polling[k]);
    for (k, turn) in c.turns.iter().enumerate() {
        let messages = c.turn_messages(k);
        // A user's message is news when it asks again what the user asked before (the same
        // instruction sent again, a harness's "Continue."): the repetition was asked for. The
        // same words said back to different questions, with no work between, are not progress.
        let mut asked_again = false;
        for &m in messages.iter().filter(|&&m| is_user_message(&t.messages[m])) {
            asked_at[k] = true;
            asked_again |= !asked.insert(t.messages[m].text.trim());
        }
        if asked_again {
            news.push(k);
        }
        let mut new_pair = false;
        for &i in &calls_of_turn[k] {
            new_pair |= pairs.insert((calls[i].canonical.as_str(), calls[i].result_text(t)));
        }
        if new_pair {
            news.push(k);
        }
        if !turn.model || polling[k] {
            continue;
        }
        let texts: Vec<&str> =
            messages.iter().map(|&m| &t.messages[m]).filter(|m| is_model_text(m)).map(|m| m.text.as_str()).collect();
        text_before[k] = last_text;
        if texts.iter().any(|t| !t.trim().is_empty()) {
            last_text = Some(k);
        }
        // Nothing seen yet: nothing said again.
        let said = if seen.is_empty() { None } else { said_again(&texts, &seen) };
        if Some(k) != last_reader {
            for text in &texts {
                for h in pieces(text).into_iter().map(|(h, _)| h) {
                    seen.insert(h, k);
                }
            }
        }
        let Some(said) = said else { continue };
        if said.words == 0 || said.words > rules.formula_words {
            continue;
        }
        // Moved on: news after the latest turn it repeats, up to this one.
        let from = news.partition_point(|&n| n <= said.source);
        if from == news.len() {
            continue;
        }
        out.left_out[k] = true;
        let mut meanwhile = said.source + 1..k + 1;
        let at = *by_words.entry(said.hash).or_insert_with(|| {
            out.formulas.push(Formula { said: quote(&said.text), turns: Vec::new(), calls: Vec::new(), asked: 0 });
            meanwhile.start = text_before[said.source].map_or(0, |u| u + 1);
            out.formulas.len() - 1
        });
        let f = &mut out.formulas[at];
        f.turns.push(turn.index);
        f.calls.extend(meanwhile.clone().flat_map(|u| calls_of_turn[u].iter().copied()));
        f.asked += usize::from(meanwhile.into_iter().any(|u| asked_at[u]));
    }
    for f in &mut out.formulas {
        f.calls.sort_unstable();
        f.calls.dedup();
    }
    out
}

/// What a turn says again of earlier turns: how many of its words, the latest turn (position)
/// that said any of them, and the words themselves (the first run of them, for the reason).
struct SaidAgain {
    words: usize,
    source: usize,
    text: String,
    hash: u64,
}

/// The lines (trimmed, non-blank) and the runs of [`SHINGLE`] words of `text`, each as its hash
/// and the range of word positions it covers.
fn pieces(text: &str) -> Vec<(u64, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut words = 0;
    for line in text.lines() {
        let n = line.split_ascii_whitespace().count();
        let trimmed = line.trim();
        if !trimmed.is_empty() {
            out.push((mix(hash_bytes(trimmed.as_bytes()) ^ 1), words..words + n));
        }
        words += n;
    }
    let hashes: Vec<u64> = text.split_ascii_whitespace().map(|w| hash_bytes(w.as_bytes())).collect();
    for (end, window) in hashes.windows(SHINGLE).enumerate().map(|(i, w)| (i + SHINGLE, w)) {
        let h = window.iter().fold(0x5348_494e_474c_4531u64, |h, &w| mix(h ^ w));
        out.push((h, end - SHINGLE..end));
    }
    out
}

/// What `texts` (one turn's) say again of what `seen` holds; `None` when nothing.
fn said_again(texts: &[&str], seen: &HashMap<u64, usize>) -> Option<SaidAgain> {
    let mut words = 0;
    let mut source = None;
    let mut first: Option<(String, u64)> = None;
    for text in texts {
        let all: Vec<&str> = text.split_ascii_whitespace().collect();
        let mut again = vec![false; all.len()];
        for (h, at) in pieces(text) {
            if let Some(&k) = seen.get(&h) {
                again[at].iter_mut().for_each(|w| *w = true);
                source = source.max(Some(k));
            }
        }
        words += again.iter().filter(|&&a| a).count();
        if first.is_none() {
            // The first run of words said again, as the formula's name.
            if let Some(start) = again.iter().position(|&a| a) {
                let end = again[start..].iter().position(|&a| !a).map_or(all.len(), |n| start + n);
                let said = all[start..end].join(" ");
                let hash = hash_bytes(said.as_bytes());
                first = Some((said, hash));
            }
        }
    }
    let (text, hash) = first?;
    Some(SaidAgain { words, source: source?, text, hash })
}

impl Formula {
    /// Why these turns are no loop, in words: "3 turns say again only 'Done.' while the work
    /// moved on: the same call on 4 different files (Edit)".
    pub fn sentence(&self, t: &Transcript, calls: &[Call]) -> String {
        let turns = if self.turns.len() == 1 {
            "1 turn says".to_string()
        } else {
            format!("{} turns say", thousands(self.turns.len()))
        };
        let mut changed: Vec<String> = Vec::new();
        if let Some(work) = work_in_words(t, self.calls.iter().map(|&i| &calls[i])) {
            changed.push(work);
        }
        if self.asked == self.turns.len() {
            changed.push("the user's message before each".into());
        } else if self.asked > 0 {
            changed.push(format!("the user's message before {}", thousands(self.asked)));
        }
        format!(
            "{turns} again only '{}' while the work moved on ({}): progress, not a loop",
            self.said,
            if changed.is_empty() { "new results".to_string() } else { changed.join("; ") }
        )
    }
}

/// The calls made while a formula was said again, in words, tool by tool in order of their
/// first call: "the same call on 4 different files (Edit)", "the same call with 3 different
/// results (Bash {command: cargo test})", "3 different calls to Edit".
fn work_in_words<'a>(t: &Transcript, calls: impl Iterator<Item = &'a Call>) -> Option<String> {
    let name = |c: &Call| t.messages[c.message].name.clone().unwrap_or_else(|| "a tool".into());
    let mut tools: Vec<(String, Vec<&Call>)> = Vec::new();
    for c in calls {
        let tool = name(c);
        match tools.iter_mut().find(|(n, _)| *n == tool) {
            Some((_, group)) => group.push(c),
            None => tools.push((tool, vec![c])),
        }
    }
    let phrases: Vec<String> = tools.iter().map(|(tool, group)| calls_in_words(t, tool, group)).collect();
    (!phrases.is_empty()).then(|| phrases.join(", "))
}

/// One tool's calls in words (see [`work_in_words`]).
fn calls_in_words(t: &Transcript, tool: &str, calls: &[&Call]) -> String {
    let mut canonical: Vec<&str> = calls.iter().map(|c| c.canonical.as_str()).collect();
    canonical.sort_unstable();
    canonical.dedup();
    if canonical.len() == 1 {
        let mut results: Vec<Option<&str>> = calls.iter().map(|c| c.result_text(t)).collect();
        results.sort_unstable();
        results.dedup();
        let first = calls[0].in_words(t);
        return match results.len() {
            1 => format!("{} ({first})", if calls.len() == 1 { "a call" } else { "the same call" }),
            n => format!("the same call with {} different results ({first})", thousands(n)),
        };
    }
    // One argument changes from call to call: say which, and how many values it took.
    let objects: Option<Vec<serde_json::Map<String, Value>>> = calls
        .iter()
        .map(|c| match serde_json::from_slice::<Value>(t.messages[c.message].text.as_bytes()) {
            Ok(Value::Object(o)) => Some(o),
            _ => None,
        })
        .collect();
    if let Some(objects) = objects {
        let mut keys: Vec<&String> = objects.iter().flat_map(|o| o.keys()).collect();
        keys.sort_unstable();
        keys.dedup();
        let differs = |k: &String| objects.iter().any(|o| o.get(k) != objects[0].get(k));
        let changing: Vec<&String> = keys.into_iter().filter(|k| differs(k)).collect();
        if let [key] = changing.as_slice() {
            let mut values: Vec<String> =
                objects.iter().map(|o| o.get(*key).map(Value::to_string).unwrap_or_default()).collect();
            values.sort_unstable();
            values.dedup();
            let lower = key.to_ascii_lowercase();
            let what = if lower.contains("path") || lower.contains("file") {
                "files".to_string()
            } else {
                format!("values of {key}")
            };
            return format!("the same call on {} different {what} ({tool})", thousands(values.len()));
        }
    }
    format!("{} different calls to {tool}", thousands(canonical.len()))
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::{message, tool};
    use super::super::tool_calls::calls;
    use super::super::turns::conversations;
    use super::*;
    use crate::ingest::{Channel, Format};

    /// The issue's first case: "Next file, please." and the same edit on another file, "Done.".
    fn next_file(files: &[&str], reply: &str) -> Transcript {
        let mut t = Transcript::new(Format::SessionJsonl);
        t.messages.push(message(0, "user", Channel::Content, "Rename parse_date to read_date in every file."));
        let mut turn = 1;
        for (i, f) in files.iter().enumerate() {
            if i > 0 {
                t.messages.push(message(turn, "user", Channel::Content, "Next file, please."));
                turn += 1;
            }
            let id = format!("call_{i}");
            let args = format!(r#"{{"file_path": "{f}", "old_string": "parse_date(", "new_string": "read_date("}}"#);
            t.messages.push(tool(turn, "assistant", Some("Edit"), Some(&id), &args));
            t.messages.push(tool(
                turn + 1,
                "tool",
                Some("Edit"),
                Some(&id),
                &format!("The file {f} has been updated."),
            ));
            t.messages.push(message(turn + 2, "assistant", Channel::Content, reply));
            turn += 3;
        }
        t
    }

    fn judged(t: &Transcript) -> MovesOn {
        let c = &conversations(t)[0];
        let calls = calls(t, c);
        moves_on(t, c, &calls, &vec![false; c.turns.len()], &ToolRules::SEED)
    }

    #[test]
    fn a_formula_said_again_while_the_work_moves_on_is_left_out() {
        let files = ["src/a.rs", "src/b.rs", "src/c.rs", "src/d.rs"];
        let t = next_file(&files, "Done.");
        let m = judged(&t);
        assert_eq!(m.left_out.iter().filter(|&&l| l).count(), 3, "every Done. after the first");
        assert_eq!(m.formulas.len(), 1);
        let c = &conversations(&t)[0];
        let calls = calls(&t, c);
        assert_eq!(
            m.formulas[0].sentence(&t, &calls),
            "3 turns say again only 'Done.' while the work moved on (the same call on 4 different files (Edit); \
             the user's message before each): progress, not a loop"
        );
    }

    #[test]
    fn more_than_a_formula_is_kept_and_so_is_a_formula_without_news() {
        let long = "I have fixed the leap year rule in the helper so that years divisible by one hundred are not leap years unless divisible by four hundred.";
        let m = judged(&next_file(&["src/a.rs", "src/b.rs", "src/c.rs"], long));
        assert!(m.left_out.iter().all(|&l| !l), "the same long reply behind new calls is the streams' to judge");
        // "Done." again and again with nothing new between: kept.
        let mut t = Transcript::new(Format::SessionJsonl);
        for k in 0..5 {
            t.messages.push(message(k, "assistant", Channel::Content, "Done."));
        }
        assert!(judged(&t).left_out.iter().all(|&l| !l));
    }
}
