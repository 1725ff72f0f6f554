//! Probes and answers the grid's tests share: a probe of the given lengths, and the answers a
//! server with a context window of so many tokens would give.

use super::Answer;
use crate::live::needle::plan::{plan, Depth, NeedleKind, Probe};
use crate::live::request::RequestForm;

pub(super) fn probe(lengths: &[usize], twice: bool) -> Probe {
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
pub(super) fn windowed(p: &Probe, window: usize) -> Vec<Answer> {
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
