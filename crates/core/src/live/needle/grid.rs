//! The needle probe's answers judged and summed up: each answer found (it holds the needle,
//! exactly), missed or an error, with its evidence (its first words, the prompt tokens the
//! server reported against the estimate); the grid of lengths × depths; and what lies behind
//! context loss — a server that cut the prompt (silent truncation), a greedy request that
//! answered differently the second time (cache nondeterminism), an answer that repeats an
//! earlier turn — and the sentence a team quotes. Pure: the page hands in each answer.

use super::plan::{length_label, Ask, Cell, Depth, Probe};
use crate::live::session::{Ending, LiveSession};
use crate::wording::{quote, thousands};

/// A reported prompt count under this share of the estimate says the prompt was cut.
pub const FAR_BELOW: f64 = 0.5;
/// A reported count that is a multiple of this, below the estimate by [`ROUND_BELOW`], is a
/// server's context cap (2,048, 4,096, 8,192…).
pub const ROUND: u64 = 512;
pub const ROUND_BELOW: f64 = 0.9;
/// One reported count for two lengths whose estimates differ by more than this factor: the
/// count stopped growing with the prompt.
pub const SAME_COUNT_GROWTH: f64 = 1.1;
/// Words in a run an answer must share with an earlier turn, and the share of its runs, for
/// the answer to repeat that turn.
pub const ECHO_WORDS: usize = 6;
pub const ECHO_SHARE: f64 = 0.5;

/// How the estimate is made and when a count says the prompt was cut, in words.
pub fn estimate_rule() -> String {
    format!(
        "Lengths are estimated prompt tokens: each message's bytes ÷ 4. A real tokenizer and the chat template count \
otherwise, so only a reported count under {:.0} % of the estimate, a multiple of {ROUND} under {:.0} % of it, or one \
count for two lengths is read as a cut prompt.",
        FAR_BELOW * 100.0,
        ROUND_BELOW * 100.0
    )
}

/// What an answer came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
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
    pub outcome: Outcome,
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
        let outcome = if text.contains(&cell.needle) { Outcome::Found } else { Outcome::Missed };
        let echoes = if outcome == Outcome::Found { None } else { echoed_turn(cell, text) };
        Answer { cell: cell_index, repeat, outcome, text: text.to_string(), prompt_tokens, echoes }
    }

    /// The answer to `ask` as its ended `session` streamed it, or, with no session, the
    /// request's failure in words.
    pub fn of(probe: &Probe, ask: &Ask, session: Result<&LiveSession, String>) -> Answer {
        let error = |why: String| Answer {
            cell: ask.cell,
            repeat: ask.repeat,
            outcome: Outcome::Error(why),
            text: String::new(),
            prompt_tokens: None,
            echoes: None,
        };
        let session = match session {
            Ok(s) => s,
            Err(why) => return error(why),
        };
        let stats = session.stats();
        let text = match session.content_text().trim() {
            "" => session.reasoning_text(),
            content => content,
        };
        if text.trim().is_empty() {
            let why = match session.ending() {
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

/// Why a reported prompt count says the server cut the prompt.
#[derive(Clone, Debug, PartialEq)]
pub enum CutSign {
    /// A round number (a multiple of [`ROUND`]) well below the estimate: a context cap.
    RoundCap,
    /// The same count as at this shorter length, though the prompt grew.
    SameCount(usize),
    /// Under [`FAR_BELOW`] of the estimate.
    FarBelow,
}

/// The first sign of a cut prompt: at which length and depth, the estimate, the count.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    pub length: usize,
    pub depth: Depth,
    pub estimated: usize,
    pub reported: u64,
    pub sign: CutSign,
}

/// Whether `reported` prompt tokens for a prompt of `estimated` says it was cut (one count
/// alone; [`truncation`] also compares the lengths).
pub fn cut_sign(estimated: usize, reported: u64) -> Option<CutSign> {
    let estimated = estimated as f64;
    if reported > 0 && reported.is_multiple_of(ROUND) && (reported as f64) < ROUND_BELOW * estimated {
        Some(CutSign::RoundCap)
    } else if (reported as f64) < FAR_BELOW * estimated {
        Some(CutSign::FarBelow)
    } else {
        None
    }
}

/// The shortest length whose prompt the server cut, judged from the first asks only (a
/// repeated request may be counted without the part a cache held).
pub fn truncation(probe: &Probe, answers: &[Answer]) -> Option<Cut> {
    let counted: Vec<(&Cell, u64)> =
        answers.iter().filter(|a| !a.repeat).filter_map(|a| Some((&probe.cells[a.cell], a.prompt_tokens?))).collect();
    let cuts = counted.iter().filter_map(|&(cell, reported)| {
        let same = counted.iter().find(|&&(other, count)| {
            count == reported
                && other.length < cell.length
                && cell.estimated_tokens as f64 > SAME_COUNT_GROWTH * other.estimated_tokens as f64
        });
        let sign = cut_sign(cell.estimated_tokens, reported).or(same.map(|(o, _)| CutSign::SameCount(o.length)))?;
        Some(Cut { length: cell.length, depth: cell.depth, estimated: cell.estimated_tokens, reported, sign })
    });
    cuts.min_by_key(|c| c.length)
}

/// What one cell of the grid shows.
#[derive(Clone, Debug, PartialEq)]
pub struct CellShown {
    /// "found", "missed", "error" or "waiting": the cell's word and its class.
    pub state: &'static str,
    /// The answer's first words, the prompt tokens reported against the estimate, and what
    /// the repeat and the echo check saw.
    pub evidence: String,
}

/// The grid's cell `index` as `answers` (so far) have it: its first ask decides.
pub fn cell_shown(probe: &Probe, answers: &[Answer], index: usize) -> CellShown {
    let cell = &probe.cells[index];
    let Some(first) = answers.iter().find(|a| a.cell == index && !a.repeat) else {
        return CellShown { state: "waiting", evidence: format!("≈{} tokens", thousands(cell.estimated_tokens)) };
    };
    let counted = match first.prompt_tokens {
        Some(n) => format!("{} of ≈{} prompt tokens", thousands(n as usize), thousands(cell.estimated_tokens)),
        None => format!("≈{} prompt tokens (none reported)", thousands(cell.estimated_tokens)),
    };
    let (state, mut evidence) = match &first.outcome {
        Outcome::Found => ("found", format!("“{}” · {counted}", quote(&first.text))),
        Outcome::Missed => ("missed", format!("“{}” · {counted}", quote(&first.text))),
        Outcome::Error(why) => ("error", why.clone()),
    };
    if let Some(turn) = first.echoes {
        evidence += &format!(" · repeats assistant turn {turn}");
    }
    if let Some(again) = answers.iter().find(|a| a.cell == index && a.repeat) {
        evidence +=
            if differs(first, again) { " · answered differently the second time" } else { " · the same again" };
    }
    CellShown { state, evidence }
}

/// What the probe says when Stop ended it: how many requests finished, and that their cells
/// are kept while the cells still waiting were not asked.
pub fn stopped_text(probe: &Probe, answers: &[Answer]) -> String {
    format!(
        "Stopped after {} of {} requests: the cells that finished are kept; those still waiting were not asked.",
        answers.len(),
        probe.asks.len()
    )
}

/// Two answers to one greedy request that differ (errors do not count).
fn differs(a: &Answer, b: &Answer) -> bool {
    let answered = |x: &Answer| !matches!(x.outcome, Outcome::Error(_));
    answered(a) && answered(b) && a.text != b.text
}

/// A finding beside the sentence: `kind` is "truncation", "nondeterminism" or "echo".
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub kind: &'static str,
    pub text: String,
}

/// The probe summed up: one sentence and the findings behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub sentence: String,
    pub notes: Vec<Note>,
}

/// "4k, start" for a cell.
fn place(cell: &Cell) -> String {
    format!("{}, {}", length_label(cell.length), cell.depth.word())
}

/// "start", "start and middle", "start, middle and end".
fn depths_text(depths: &[Depth]) -> String {
    let words: Vec<&str> = depths.iter().map(|d| d.word()).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The probe as `answers` (so far) have it. See the module doc.
pub fn summarize(probe: &Probe, answers: &[Answer]) -> Summary {
    let cut = truncation(probe, answers);
    let mut notes = Vec::new();
    if let Some(c) = &cut {
        let sign = match c.sign {
            CutSign::RoundCap => format!("a round cap (a multiple of {ROUND}) below the estimate"),
            CutSign::SameCount(shorter) => {
                format!("the same count as at {}, though the prompt grew", length_label(shorter))
            }
            CutSign::FarBelow => format!("under {:.0} % of the estimate", FAR_BELOW * 100.0),
        };
        notes.push(Note {
            kind: "truncation",
            text: format!(
                "Silent truncation: at {} the server reported {} prompt tokens for an estimated {} — {sign}. A server that \
cuts a long prompt keeps its end and drops the rest without an error. Ollama's OpenAI-compatible endpoint ignores \
num_ctx: set OLLAMA_CONTEXT_LENGTH on the server or PARAMETER num_ctx in a Modelfile; llama.cpp's server takes -c.",
                length_label(c.length),
                thousands(c.reported as usize),
                thousands(c.estimated)
            ),
        });
    }
    let twice: Vec<String> = (0..probe.cells.len())
        .filter_map(|i| {
            let first = answers.iter().find(|a| a.cell == i && !a.repeat)?;
            let again = answers.iter().find(|a| a.cell == i && a.repeat)?;
            differs(first, again).then(|| {
                format!("at {}: “{}” then “{}”", place(&probe.cells[i]), quote(&first.text), quote(&again.text))
            })
        })
        .collect();
    if !twice.is_empty() {
        notes.push(Note {
            kind: "nondeterminism",
            text: format!(
                "Cache nondeterminism: the same greedy request (temperature 0, seed {}) was answered differently the \
second time {}. A prefix cache (or batching) changed what a deterministic request returns.",
                probe.seed,
                twice.join("; ")
            ),
        });
    }
    let echoes: Vec<String> = answers
        .iter()
        .filter(|a| !a.repeat)
        .filter_map(|a| Some(format!("at {} it repeats assistant turn {}", place(&probe.cells[a.cell]), a.echoes?)))
        .collect();
    if !echoes.is_empty() {
        notes.push(Note {
            kind: "echo",
            text: format!(
                "An answer repeats an earlier turn instead of answering the last question: {}.",
                echoes.join("; ")
            ),
        });
    }
    Summary { sentence: sentence(probe, answers, cut.as_ref()), notes }
}

/// The sentence: where the needle was found, from where it was missed, and why when a count
/// tells.
fn sentence(probe: &Probe, answers: &[Answer], cut: Option<&Cut>) -> String {
    let first = |i: usize| answers.iter().find(|a| a.cell == i && !a.repeat);
    // Per length with an answer: its depths missed, and whether every depth was found.
    let mut found_up_to = None;
    let mut broken = false;
    let mut missed: Vec<(usize, Vec<Depth>)> = Vec::new();
    let mut errors = 0;
    let mut answered = 0;
    for &length in &probe.lengths {
        let cells: Vec<usize> = (0..probe.cells.len()).filter(|&i| probe.cells[i].length == length).collect();
        let outcomes: Vec<(Depth, &Outcome)> =
            cells.iter().filter_map(|&i| first(i).map(|a| (probe.cells[i].depth, &a.outcome))).collect();
        answered += outcomes.len();
        errors += outcomes.iter().filter(|(_, o)| matches!(o, Outcome::Error(_))).count();
        let lost: Vec<Depth> = outcomes.iter().filter(|(_, o)| **o == Outcome::Missed).map(|(d, _)| *d).collect();
        let all_found = outcomes.len() == cells.len() && outcomes.iter().all(|(_, o)| **o == Outcome::Found);
        if all_found && !broken {
            found_up_to = Some(length);
        } else {
            broken = true;
        }
        if !lost.is_empty() {
            missed.push((length, lost));
        }
    }
    if answered == 0 {
        return "Not run yet.".to_string();
    }
    let said = |c: &Cut| {
        format!(
            "the server reported {} prompt tokens for an estimated {}: it cut the prompt",
            thousands(c.reported as usize),
            thousands(c.estimated)
        )
    };
    let mut out = match found_up_to {
        Some(l) => format!("Found at every depth up to {} tokens", length_label(l)),
        None => String::new(),
    };
    if let Some((from, _)) = missed.first() {
        let every_later = probe.lengths.iter().filter(|&&l| l >= *from).all(|l| missed.iter().any(|(m, _)| m == l));
        let same_depths = missed.iter().all(|(_, d)| *d == missed[0].1);
        let lead = if out.is_empty() { "Missed" } else { "; missed" };
        out += &if every_later && missed.len() > 1 {
            format!("{lead} from {} on", length_label(*from))
        } else {
            let at: Vec<String> = missed.iter().map(|(l, _)| length_label(*l)).collect();
            format!("{lead} at {}", at.join(", "))
        };
        out += &if same_depths {
            let all = missed[0].1.len() == probe.depths.len();
            if all {
                ", at every depth".to_string()
            } else {
                format!(", at the {}", depths_text(&missed[0].1))
            }
        } else {
            let each: Vec<String> =
                missed.iter().map(|(l, d)| format!("{}: {}", length_label(*l), depths_text(d))).collect();
            format!(" ({})", each.join("; "))
        };
        let counts_given = missed.iter().all(|(l, _)| {
            (0..probe.cells.len())
                .filter(|&i| probe.cells[i].length == *l)
                .all(|i| first(i).is_none_or(|a| a.prompt_tokens.is_some()))
        });
        out += &match cut {
            Some(c) => format!(" ({})", said(c)),
            None if counts_given => {
                " (the server counted the whole prompt: the model lost the needle itself)".to_string()
            }
            None => " (the server sent no prompt token count, so a cut prompt cannot be told from a lost needle)"
                .to_string(),
        };
    } else if let Some(c) = cut {
        out += &format!(", though {} (what it kept held the needle)", said(c));
    }
    if errors > 0 {
        let lead = if out.is_empty() { "" } else { "; " };
        out += &format!("{lead}{errors} of {answered} asks got no answer (see the grid)");
    }
    // Every lead above is ASCII: "Found", "missed", a count.
    match out.get(..1) {
        Some(first) => format!("{}{}.", first.to_ascii_uppercase(), &out[1..]),
        None => "Not run yet.".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::plan::{plan, NeedleKind};
    use super::*;
    use crate::live::request::RequestForm;

    fn probe(lengths: &[usize], twice: bool) -> Probe {
        let form = RequestForm {
            base_url: "http://h/v1".into(),
            model: "m".into(),
            max_tokens: "1".into(),
            temperature: "1".into(),
            ..RequestForm::default()
        };
        plan(&form, lengths, &Depth::ALL, NeedleKind::Number, 4, twice).unwrap()
    }

    /// Answers as a server with a window of `window` tokens would give them: the needle when
    /// it lies within the prompt's last `window` estimated tokens, the count capped.
    fn windowed(p: &Probe, window: usize) -> Vec<Answer> {
        p.asks
            .iter()
            .map(|ask| {
                let cell = &p.cells[ask.cell];
                let from_end = (1.0 - cell.needle_at) * cell.estimated_tokens as f64;
                let text = if from_end < window as f64 {
                    format!("The special magic number for {} is {}.", cell.key, cell.needle)
                } else {
                    "I do not see one.".to_string()
                };
                Answer::scored(ask.cell, cell, ask.repeat, &text, Some(cell.estimated_tokens.min(window) as u64))
            })
            .collect()
    }

    #[test]
    fn a_failed_request_or_an_empty_reply_is_an_error_with_its_reason() {
        let p = probe(&[1024], false);
        let refused = Answer::of(&p, &p.asks[0], Err("HTTP 500: overloaded".into()));
        assert_eq!((refused.outcome, refused.prompt_tokens), (Outcome::Error("HTTP 500: overloaded".into()), None));
        let mut empty = LiveSession::new(0.0);
        empty.feed(b"data: {\"error\":{\"message\":\"context length exceeded\"}}\n\n", 1.0);
        empty.end(Ending::Closed, 2.0);
        assert_eq!(Answer::of(&p, &p.asks[1], Ok(&empty)).outcome, Outcome::Error("context length exceeded".into()));
        let mut cut = LiveSession::new(0.0);
        cut.end(Ending::Cut("network error".into()), 1.0);
        assert_eq!(Answer::of(&p, &p.asks[2], Ok(&cut)).outcome, Outcome::Error("cut: network error".into()));
        let mut reasoning = LiveSession::new(0.0);
        let said = format!(
            "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"reasoning_content\":\"It was {}.\"}}}}]}}\n\n",
            p.cells[0].needle
        );
        reasoning.feed(said.as_bytes(), 1.0);
        reasoning.end(Ending::Closed, 2.0);
        assert_eq!(
            Answer::of(&p, &p.asks[0], Ok(&reasoning)).outcome,
            Outcome::Found,
            "no content: the reasoning is read"
        );
    }

    #[test]
    fn an_answer_is_found_only_with_the_exact_needle() {
        let p = probe(&[1024], false);
        let cell = &p.cells[0];
        let found = Answer::scored(0, cell, false, &format!("It is {}.", cell.needle), Some(1000));
        assert_eq!(found.outcome, Outcome::Found);
        let near = format!("It is {}.", &cell.needle[..6]);
        assert_eq!(Answer::scored(0, cell, false, &near, None).outcome, Outcome::Missed);
        assert_eq!(Answer::scored(0, cell, false, "", None).outcome, Outcome::Missed);
    }

    #[test]
    fn an_answer_that_says_an_earlier_turn_again_is_an_echo() {
        let p = probe(&[2048], false);
        let cell = &p.cells[1];
        let turns: Vec<&str> = cell.turns.iter().filter(|t| t.role == "assistant").map(|t| t.text.as_str()).collect();
        let echo = Answer::scored(1, cell, false, &format!("Sure. {}", turns[2]), None);
        assert_eq!((echo.outcome.clone(), echo.echoes), (Outcome::Missed, Some(3)));
        let own = Answer::scored(1, cell, false, "I am not sure which number you mean, sorry about that.", None);
        assert_eq!(own.echoes, None);
    }

    #[test]
    fn a_count_says_a_cut_when_far_below_or_at_a_round_cap() {
        assert_eq!(cut_sign(8200, 4096), Some(CutSign::RoundCap));
        assert_eq!(cut_sign(8200, 3000), Some(CutSign::FarBelow));
        assert_eq!(cut_sign(4090, 4096), None, "a count above the estimate is the template's");
        assert_eq!(cut_sign(4090, 3700), None, "a tokenizer that counts 10 % fewer");
        assert_eq!(cut_sign(4090, 3584), Some(CutSign::RoundCap), "7 × 512, 12 % under");
        assert_eq!(cut_sign(1000, 0), Some(CutSign::FarBelow));
    }

    #[test]
    fn a_window_of_2048_tokens_is_found_up_to_2k_and_named_as_a_cut() {
        let p = probe(&[1024, 2048, 4096, 8192], true);
        let answers = windowed(&p, 2048);
        let shown: Vec<&str> = (0..p.cells.len()).map(|i| cell_shown(&p, &answers, i).state).collect();
        assert_eq!(
            shown,
            [
                "found", "found", "found", "found", "found", "found", "missed", "missed", "found", "missed", "missed",
                "found"
            ]
        );
        let cut = truncation(&p, &answers).unwrap();
        assert_eq!((cut.length, cut.reported, cut.sign.clone()), (4096, 2048, CutSign::RoundCap));
        let s = summarize(&p, &answers);
        assert_eq!(
            s.sentence,
            format!(
                "Found at every depth up to 2k tokens; missed from 4k on, at the start and middle (the server \
reported 2,048 prompt tokens for an estimated {}: it cut the prompt).",
                thousands(cut.estimated)
            )
        );
        assert_eq!(s.notes.len(), 1);
        assert!(s.notes[0].text.starts_with("Silent truncation: at 4k the server reported 2,048 prompt tokens"));
        assert!(s.notes[0].text.contains("a round cap") && s.notes[0].text.contains("num_ctx"));
        let evidence = cell_shown(&p, &answers, 6).evidence;
        assert!(evidence.starts_with("“I do not see one.” · 2,048 of ≈4,0"), "{evidence}");
        assert!(evidence.ends_with(" · the same again"), "{evidence}");
    }

    #[test]
    fn the_sentence_says_every_depth_from_a_length_on_and_a_loss_without_a_cut() {
        let p = probe(&[1024, 2048, 4096], false);
        let mut answers = windowed(&p, 1_000_000);
        assert_eq!(summarize(&p, &answers).sentence, "Found at every depth up to 4k tokens.");
        for a in answers.iter_mut().filter(|a| p.cells[a.cell].length >= 2048) {
            *a = Answer::scored(a.cell, &p.cells[a.cell], false, "No idea.", a.prompt_tokens);
        }
        assert_eq!(
            summarize(&p, &answers).sentence,
            "Found at every depth up to 1k tokens; missed from 2k on, at every depth (the server counted the whole \
prompt: the model lost the needle itself)."
        );
        for a in &mut answers {
            a.prompt_tokens = None;
        }
        answers[0] = Answer { outcome: Outcome::Error("HTTP 500".into()), ..answers[0].clone() };
        let said = summarize(&p, &answers).sentence;
        assert_eq!(
            said,
            "Missed from 2k on, at every depth (the server sent no prompt token count, so a cut prompt cannot be told \
from a lost needle); 1 of 9 asks got no answer (see the grid)."
        );
        assert_eq!(summarize(&p, &[]).sentence, "Not run yet.");
        assert_eq!(
            stopped_text(&p, &answers[..2]),
            "Stopped after 2 of 9 requests: the cells that finished are kept; those still waiting were not asked."
        );
        assert_eq!(cell_shown(&p, &[], 0).state, "waiting");
        assert_eq!(cell_shown(&p, &answers, 0).state, "error");
    }

    #[test]
    fn a_count_that_stops_growing_is_a_cut_and_found_needles_are_said_to_be_kept() {
        let p = probe(&[2048, 3072], false);
        let answers: Vec<Answer> = p
            .asks
            .iter()
            .map(|ask| {
                let cell = &p.cells[ask.cell];
                Answer::scored(ask.cell, cell, false, &cell.needle, Some(cell.estimated_tokens.min(1900) as u64))
            })
            .collect();
        let cut = truncation(&p, &answers).unwrap();
        assert_eq!((cut.length, cut.reported, cut.sign), (3072, 1900, CutSign::SameCount(2048)));
        let s = summarize(&p, &answers);
        let said =
            "Found at every depth up to 3k tokens, though the server reported 1,900 prompt tokens for an estimated 3,";
        assert!(s.sentence.starts_with(said), "{}", s.sentence);
        assert!(s.sentence.ends_with(": it cut the prompt (what it kept held the needle)."), "{}", s.sentence);
        assert!(s.notes[0].text.contains("the same count as at 2k"), "{}", s.notes[0].text);
    }

    #[test]
    fn two_answers_to_one_greedy_request_that_differ_are_noted() {
        let p = probe(&[1024], true);
        let mut answers = windowed(&p, 100_000);
        answers[3].text = format!("{} (I think)", answers[3].text);
        let s = summarize(&p, &answers);
        let note = s.notes.iter().find(|n| n.kind == "nondeterminism").unwrap();
        assert!(
            note.text.contains("seed 4") && note.text.contains("at 1k, middle: “The special magic number"),
            "{}",
            note.text
        );
        assert!(cell_shown(&p, &answers, 1).evidence.ends_with("answered differently the second time"));
        let cell = &p.cells[2];
        let echo = cell.turns.iter().find(|t| t.role == "assistant").unwrap().text.clone();
        answers[4] = Answer::scored(2, cell, false, &echo, Some(900));
        let s = summarize(&p, &answers);
        let note = s.notes.iter().find(|n| n.kind == "echo").unwrap();
        assert_eq!(note.text, "An answer repeats an earlier turn instead of answering the last question: at 1k, end it repeats assistant turn 1.");
        assert!(estimate_rule().contains("under 50 % of the estimate, a multiple of 512 under 90 %"));
    }
}
