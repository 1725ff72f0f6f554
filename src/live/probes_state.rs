//! Probes A–G's state and its one transition, [`reduce`], as the live panel's
//! (`panel_state.rs`): the results so far, whether the probes are running, a word when they could
//! not start, and the probes' own completion and stream as probe D reads them. Pure and
//! unit-tested natively; the probes' component (`probes.rs`) sends the requests and dispatches
//! what comes of them.

use std::rc::Rc;

use yew::Reducible;

use coherency_core::live::probes::ProbeResult;
use coherency_core::live::reasoning_probe::ReasoningEvidence;

/// The probes' state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbesState {
    /// The results so far, in the order they came.
    pub results: Rc<Vec<ProbeResult>>,
    pub running: bool,
    /// Why the probes could not start.
    pub note: Option<String>,
    /// The probes' own completion and stream, as probe D reads them.
    pub own: ReasoningEvidence,
}

/// Everything that changes the probes' state.
pub enum ProbesAction {
    /// The probes could not start, for this reason.
    Refused(String),
    /// The probes started: what the last run found is cleared.
    Started,
    /// More results came.
    Found(Vec<ProbeResult>),
    /// What the probes' own requests showed of the reasoning so far.
    Own(ReasoningEvidence),
    /// The probes ended.
    Ended,
}

/// The one transition: `state` after `action`.
pub fn reduce(mut state: ProbesState, action: ProbesAction) -> ProbesState {
    match action {
        ProbesAction::Refused(why) => state.note = Some(why),
        ProbesAction::Started => {
            state.note = None;
            state.running = true;
            state.results = Rc::new(Vec::new());
            state.own = ReasoningEvidence::default();
        }
        ProbesAction::Found(new) => {
            let mut results = (*state.results).clone();
            results.extend(new);
            state.results = Rc::new(results);
        }
        ProbesAction::Own(evidence) => state.own = evidence,
        ProbesAction::Ended => state.running = false,
    }
    state
}

impl Reducible for ProbesState {
    type Action = ProbesAction;

    fn reduce(self: Rc<Self>, action: ProbesAction) -> Rc<Self> {
        Rc::new(reduce((*self).clone(), action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::live::probes::{unreachable, ProbeOutcome};
    use coherency_core::stream::ReasoningPlacement;

    #[test]
    fn a_run_clears_the_last_one_and_gathers_its_results_in_order() {
        let s = reduce(ProbesState::default(), ProbesAction::Refused("Choose a model first.".into()));
        assert_eq!(s.note.as_deref(), Some("Choose a model first."));
        let s = reduce(s, ProbesAction::Found(vec![unreachable('A', "no response")]));
        let seen = ReasoningEvidence { probe_stream: Some(ReasoningPlacement::default()), ..Default::default() };
        let s = reduce(s, ProbesAction::Own(seen));
        let s = reduce(s, ProbesAction::Started);
        assert!(s.running && s.note.is_none() && s.results.is_empty());
        assert_eq!(s.own, ReasoningEvidence::default());
        let s = reduce(s, ProbesAction::Found(vec![unreachable('A', "no response")]));
        let s = reduce(s, ProbesAction::Found(vec![unreachable('B', "x"), unreachable('C', "y")]));
        assert_eq!(s.results.iter().map(|r| r.id).collect::<String>(), "ABC");
        assert!(s.results.iter().all(|r| r.outcome == ProbeOutcome::Fail));
        let own = ReasoningEvidence { probe_stream: Some(ReasoningPlacement::default()), ..Default::default() };
        let s = reduce(reduce(s, ProbesAction::Own(own.clone())), ProbesAction::Ended);
        assert!(!s.running);
        assert_eq!((s.own, s.results.len()), (own, 3));
    }
}
