//! The needle probe summed up: the sentence a team quotes (where the needle was found, from
//! where it was missed, and why when a count tells) and the findings behind it.

use super::answer::{Answer, Retrieval};
use super::diagnosis::{differs, truncation, Cut, CutSign, FAR_BELOW, ROUND};
use crate::live::needle::plan::{length_label, Cell, Depth, Probe};
use crate::wording::{quote, thousands};

/// A finding beside the sentence: `kind` is "truncation", "nondeterminism" or "echo".
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub kind: &'static str,
    pub text: String,
}

/// The probe summed up: one sentence and the findings behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeSummary {
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
pub fn summarize(probe: &Probe, answers: &[Answer]) -> ProbeSummary {
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
    ProbeSummary { sentence: sentence(probe, answers, cut.as_ref()), notes }
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
        let outcomes: Vec<(Depth, &Retrieval)> =
            cells.iter().filter_map(|&i| first(i).map(|a| (probe.cells[i].depth, &a.outcome))).collect();
        answered += outcomes.len();
        errors += outcomes.iter().filter(|(_, o)| matches!(o, Retrieval::Error(_))).count();
        let lost: Vec<Depth> = outcomes.iter().filter(|(_, o)| **o == Retrieval::Missed).map(|(d, _)| *d).collect();
        let all_found = outcomes.len() == cells.len() && outcomes.iter().all(|(_, o)| **o == Retrieval::Found);
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
    use super::*;
    use crate::live::needle::grid::test_probes::{probe, windowed};
    use crate::live::needle::grid::{cell_shown, estimate_rule, stopped_text};

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
        answers[0] = Answer { outcome: Retrieval::Error("HTTP 500".into()), ..answers[0].clone() };
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
