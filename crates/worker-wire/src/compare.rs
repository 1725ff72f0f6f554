//! A comparison of outputs with a reference (`coherency_core::compare`), as the page shows it:
//! the analysis worker reads the files, compares them and words every figure with the same
//! functions the CLI's reports use (`render::compare_figures`); the page gets only the words
//! ([`CompareView`], a postcard buffer) and lays them out as text. So the page's wasm links no
//! comparison and no statistics, and the page and the reports cannot say different things.
//! Pure: the round trip is unit-tested natively.

use serde::{Deserialize, Serialize};

use coherency_core::compare::{CompareReport, Relation};
use coherency_core::render::compare_figures::{drift, figures, listed, outcome, position_rows, title};

/// One prompt as the view lists it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PromptRow {
    pub id: String,
    /// "identical", "parts at token 12, byte 40 (31 % of the output)", …
    pub outcome: String,
    pub parted: bool,
    /// The prompt's drift in words, when both sides had logprobs.
    pub drift: Option<String>,
    /// Both continuations from the parting point, when the outputs differ.
    pub continuations: Option<(String, String)>,
}

/// One figure: its name, the candidate's value, the noise floor's when there is one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FigureRow {
    pub name: String,
    pub candidate: String,
    pub noise: Option<String>,
}

/// Everything the page's comparison view says, in words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompareView {
    /// "model (files) against the reference model (file)".
    pub title: String,
    /// "PASS", "WARN", "FAIL".
    pub verdict: String,
    /// The reading in one sentence (benign nondeterminism, a numerical fault, …).
    pub sentence: String,
    /// The reading's key (`Reading::key`): "identical", "numerical_fault", …
    pub reading: String,
    pub reasons: Vec<String>,
    /// No prompt id in common: the outputs were paired in the order of the files.
    pub by_order: bool,
    pub figures: Vec<FigureRow>,
    /// Drift by position: (positions, tokens, mean |Δ logprob|).
    pub positions: Vec<(String, String, String)>,
    /// The prompts listed (parted first), and how many more were left out.
    pub prompts: Vec<PromptRow>,
    pub left_out: usize,
    /// The reference's prompts with no candidate output, and candidate outputs with no prompt.
    pub missing: Vec<String>,
    pub unmatched: Vec<String>,
    /// What could not be read, "file: line 3: why".
    pub problems: Vec<String>,
}

impl CompareView {
    /// The view of `r`, worded by the reports' own functions.
    pub fn of(r: &CompareReport) -> CompareView {
        let (prompts, left_out) = listed(&r.comparison);
        let j = &r.judgement;
        CompareView {
            title: title(r),
            verdict: j.verdict.as_str().to_string(),
            sentence: j.sentence.clone(),
            reading: j.reading.key().to_string(),
            reasons: j.reasons.clone(),
            by_order: r.comparison.pairing.by_order,
            figures: figures(r)
                .into_iter()
                .map(|f| FigureRow { name: f.name.to_string(), candidate: f.candidate, noise: f.noise })
                .collect(),
            positions: position_rows(&r.comparison),
            prompts: prompts
                .into_iter()
                .map(|p| PromptRow {
                    id: p.id.clone(),
                    outcome: outcome(p),
                    parted: p.parted,
                    drift: p.mean_delta.is_some().then(|| drift(p)),
                    continuations: (p.alignment.outcome != Relation::Identical)
                        .then(|| (p.reference_continuation.clone(), p.candidate_continuation.clone())),
                })
                .collect(),
            left_out,
            missing: r.comparison.pairing.missing.clone(),
            unmatched: r.comparison.pairing.unmatched.clone(),
            problems: r.problems.clone(),
        }
    }
}

/// `view` as a postcard buffer.
pub fn encode_view(view: &CompareView) -> Vec<u8> {
    postcard::to_allocvec(view).unwrap_or_default()
}

/// The view [`encode_view`] wrote, or an error in words.
pub fn decode_view(bytes: &[u8]) -> Result<CompareView, String> {
    postcard::from_bytes(bytes).map_err(|_| "the analysis worker's comparison did not read back".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::Thresholds;
    use coherency_core::compare::read_outputs;

    fn sse(text: &str) -> String {
        format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{text:?}}},\"finish_reason\":\"stop\"}}]}}\n\ndata: [DONE]\n\n")
    }

    #[test]
    fn a_parted_pair_reads_back_in_the_reports_words() {
        let reference = read_outputs("a.sse", sse("The answer is 42, as computed.").as_bytes()).outputs;
        let candidate = read_outputs("b.sse", sse("The answer is 41, as computed.").as_bytes()).outputs;
        let r = CompareReport::new(
            ("a.sse", &reference),
            (vec!["b.sse".into()], &candidate),
            None,
            Thresholds::SEED.compare,
            Vec::new(),
        );
        let view = CompareView::of(&r);
        assert_eq!(view.verdict, r.judgement.verdict.as_str());
        assert_eq!(view.prompts.len(), 1);
        let p = &view.prompts[0];
        assert!(p.parted && p.outcome.starts_with("parts at token"), "{p:?}");
        let (a, b) = p.continuations.clone().unwrap();
        assert!(a.contains("42") && !a.contains("41"), "{a}");
        assert!(b.contains("41") && !b.contains("42"), "{b}");
        assert!(view.by_order, "no id in common: paired in order");
        let back = decode_view(&encode_view(&view)).unwrap();
        assert_eq!(back, view);
        assert!(decode_view(&encode_view(&view)[..10]).is_err());
    }
}
