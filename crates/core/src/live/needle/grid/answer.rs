//! One answer of the needle probe scored: found (it holds the needle, exactly), missed or an
//! error, with its evidence (its first words, the prompt tokens the server reported), and
//! whether it says an earlier assistant turn again (an echo).

use crate::live::needle::plan::{Ask, Cell, Probe};
use crate::live::session::{Ending, LiveSnapshot};

/// Words in a run an answer must share with an earlier turn, and the share of its runs, for
/// the answer to repeat that turn.
pub const ECHO_WORDS: usize = 6;
pub const ECHO_SHARE: f64 = 0.5;

/// What an answer came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Retrieval {
    /// The answer holds the needle.
    Found,
    /// It does not.
    Missed,
    /// No answer: the request failed, or the reply held no text (the reason).
    Error(String),
}

/// One answer of the probe.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Which cell of [`Probe::cells`], and whether this is its repeated ask.
    pub cell: usize,
    pub repeat: bool,
    pub outcome: Retrieval,
    /// The answer (its content; the reasoning when there is no content).
    pub text: String,
    /// `usage.prompt_tokens` as the server reported it.
    pub prompt_tokens: Option<u64>,
    /// The earlier assistant turn (1-based) the answer repeats, if it does.
    pub echoes: Option<usize>,
}

impl Answer {
    /// `text` as the answer to `cell`: found when it holds the needle exactly.
    pub fn scored(cell_index: usize, cell: &Cell, repeat: bool, text: &str, prompt_tokens: Option<u64>) -> Answer {
        let text = text.trim();
        let outcome = if text.contains(&cell.needle) { Retrieval::Found } else { Retrieval::Missed };
        let echoes = if outcome == Retrieval::Found { None } else { echoed_turn(cell, text) };
        Answer { cell: cell_index, repeat, outcome, text: text.to_string(), prompt_tokens, echoes }
    }

    /// The answer to `ask` as its ended session streamed it (the session's last snapshot), or,
    /// with no session, the request's failure in words.
    pub fn of(probe: &Probe, ask: &Ask, session: Result<&LiveSnapshot, String>) -> Answer {
        let error = |why: String| Answer {
            cell: ask.cell,
            repeat: ask.repeat,
            outcome: Retrieval::Error(why),
            text: String::new(),
            prompt_tokens: None,
            echoes: None,
        };
        let session = match session {
            Ok(s) => s,
            Err(why) => return error(why),
        };
        let stats = &session.stats;
        let text = match session.content.trim() {
            "" => session.reasoning.as_str(),
            content => content,
        };
        if text.trim().is_empty() {
            let why = match &session.ending {
                Ending::Cut(why) => format!("cut: {why}"),
                _ => stats.errors().next().unwrap_or("the reply held no text").to_string(),
            };
            return error(why);
        }
        let prompt_tokens = stats.stream.usage.as_ref().and_then(|u| u.prompt_tokens);
        Answer::scored(ask.cell, &probe.cells[ask.cell], ask.repeat, text, prompt_tokens)
    }
}

/// The earlier assistant turn (1-based) that `answer` says again: at least half its runs of
/// [`ECHO_WORDS`] words are in that turn (words compared without ASCII case or punctuation).
pub fn echoed_turn(cell: &Cell, answer: &str) -> Option<usize> {
    let words = |text: &str| -> Vec<String> {
        text.split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_ascii_lowercase())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let said = words(answer);
    if said.len() < ECHO_WORDS {
        return None;
    }
    let runs: Vec<&[String]> = said.windows(ECHO_WORDS).collect();
    // Compared run by run: an answer is short (a few hundred words at most), and a hash set
    // would cost the page's wasm more than the time it saves here.
    cell.turns.iter().filter(|t| t.role == "assistant").enumerate().find_map(|(i, turn)| {
        let turn_words = words(&turn.text);
        let shared = runs.iter().filter(|r| turn_words.windows(ECHO_WORDS).any(|w| w == **r)).count();
        (shared as f64 >= ECHO_SHARE * runs.len() as f64).then_some(i + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::needle::grid::test_probes::probe;
    use crate::live::LiveSession;

    #[test]
    fn a_failed_request_or_an_empty_reply_is_an_error_with_its_reason() {
        let p = probe(&[1024], false);
        let refused = Answer::of(&p, &p.asks[0], Err("HTTP 500: overloaded".into()));
        assert_eq!((refused.outcome, refused.prompt_tokens), (Retrieval::Error("HTTP 500: overloaded".into()), None));
        let mut empty = LiveSession::new(0.0);
        empty.feed(b"data: {\"error\":{\"message\":\"context length exceeded\"}}\n\n", 1.0);
        empty.end(Ending::Closed, 2.0);
        assert_eq!(
            Answer::of(&p, &p.asks[1], Ok(&empty.snapshot())).outcome,
            Retrieval::Error("context length exceeded".into())
        );
        let mut cut = LiveSession::new(0.0);
        cut.end(Ending::Cut("network error".into()), 1.0);
        assert_eq!(
            Answer::of(&p, &p.asks[2], Ok(&cut.snapshot())).outcome,
            Retrieval::Error("cut: network error".into())
        );
        let mut reasoning = LiveSession::new(0.0);
        let said = format!(
            "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"reasoning_content\":\"It was {}.\"}}}}]}}\n\n",
            p.cells[0].needle
        );
        reasoning.feed(said.as_bytes(), 1.0);
        reasoning.end(Ending::Closed, 2.0);
        assert_eq!(
            Answer::of(&p, &p.asks[0], Ok(&reasoning.snapshot())).outcome,
            Retrieval::Found,
            "no content: the reasoning is read"
        );
    }

    #[test]
    fn an_answer_is_found_only_with_the_exact_needle() {
        let p = probe(&[1024], false);
        let cell = &p.cells[0];
        let found = Answer::scored(0, cell, false, &format!("It is {}.", cell.needle), Some(1000));
        assert_eq!(found.outcome, Retrieval::Found);
        let near = format!("It is {}.", &cell.needle[..6]);
        assert_eq!(Answer::scored(0, cell, false, &near, None).outcome, Retrieval::Missed);
        assert_eq!(Answer::scored(0, cell, false, "", None).outcome, Retrieval::Missed);
    }

    #[test]
    fn an_answer_that_says_an_earlier_turn_again_is_an_echo() {
        let p = probe(&[2048], false);
        let cell = &p.cells[1];
        let turns: Vec<&str> = cell.turns.iter().filter(|t| t.role == "assistant").map(|t| t.text.as_str()).collect();
        let echo = Answer::scored(1, cell, false, &format!("Sure. {}", turns[2]), None);
        assert_eq!((echo.outcome.clone(), echo.echoes), (Retrieval::Missed, Some(3)));
        let own = Answer::scored(1, cell, false, "I am not sure which number you mean, sorry about that.", None);
        assert_eq!(own.echoes, None);
    }
}
