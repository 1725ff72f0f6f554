//! A whole comparison as the reports show it: what was compared with what (file names, models
//! as reported), the comparison, the noise floor (the reference against a second run of
//! itself) when given, the judgement, and what could not be read. The CLI and the page make one
//! and hand it to `render`.

use super::comparison::{compare, Comparison};
use super::judgement::{judge, Judgement};
use super::output::Output;
use crate::analyze::CompareRules;

/// Everything a comparison report says. See the module doc.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareReport {
    /// The reference's file name and the candidates'.
    pub reference: String,
    pub candidates: Vec<String>,
    /// The models as reported (the first output's of each side), when known.
    pub reference_model: Option<String>,
    pub candidate_model: Option<String>,
    pub comparison: Comparison,
    /// The reference compared with a second run of itself, and its file names.
    pub noise: Option<(Vec<String>, Comparison)>,
    pub judgement: Judgement,
    pub rules: CompareRules,
    /// What could not be read, "file: line 3: why".
    pub problems: Vec<String>,
}

impl CompareReport {
    /// Compares `candidates` (and `noise`, a second run of the reference, when given) with
    /// `reference` by `rules`.
    pub fn new(
        reference: (&str, &[Output]),
        candidates: (Vec<String>, &[Output]),
        noise: Option<(Vec<String>, &[Output])>,
        rules: CompareRules,
        problems: Vec<String>,
    ) -> CompareReport {
        let comparison = compare(reference.1, candidates.1, rules.early_share);
        let noise = noise.map(|(names, outputs)| (names, compare(reference.1, outputs, rules.early_share)));
        let judgement = judge(&comparison, noise.as_ref().map(|(_, c)| c), &rules);
        let model = |o: &[Output]| o.iter().find_map(|o| o.model.clone());
        CompareReport {
            reference: reference.0.to_string(),
            reference_model: model(reference.1),
            candidate_model: model(candidates.1),
            candidates: candidates.0,
            comparison,
            noise,
            judgement,
            rules,
            problems,
        }
    }
}
