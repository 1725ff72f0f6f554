//! The soak run's state and its one transition, [`reduce`], as the live panel's
//! (`panel_state.rs`): the generations finished so far (each with its response body), how many
//! of the run's streams are still going (the run is going while one is), a word when the run
//! could not start or a comparison could not be made, and the comparison shown. Pure and
//! unit-tested natively; the soak's component (`soak.rs`) starts the streams, which dispatch
//! each finished generation and their own end, and runs the comparisons.

use std::rc::Rc;

use yew::Reducible;

use coherency_core::live::soak::Generation;
use coherency_worker_wire::compare::CompareView;

/// A finished generation and its response body (empty when the request failed).
#[derive(Debug, PartialEq)]
pub struct Row {
    pub generation: Generation,
    pub capture: Rc<[u8]>,
}

/// The run's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SoakRunState {
    /// In the order they finished.
    pub rows: Vec<Rc<Row>>,
    /// The run's streams that have not ended yet.
    pub streams_left: usize,
    /// Why the run could not start, or a comparison or a golden file could not be made.
    pub note: Option<String>,
    /// The comparison last made of this run.
    pub compared: Option<Rc<CompareView>>,
}

impl SoakRunState {
    /// Whether the run is going: one of its streams has not ended.
    pub fn running(&self) -> bool {
        self.streams_left > 0
    }

    /// The generations finished, in the order they finished.
    pub fn generations(&self) -> impl Iterator<Item = &Generation> {
        self.rows.iter().map(|r| &r.generation)
    }

    /// Whether a generation of `config` ("A", "B", "R", or "" without B) finished.
    pub fn has(&self, config: &str) -> bool {
        self.generations().any(|g| g.config == config)
    }
}

/// Everything that changes the run's state.
pub enum SoakRunAction {
    /// A word for the reader: the run could not start, or a comparison could not be made.
    Note(String),
    /// A run started with this many streams: the last run's rows, word and comparison go.
    Started { streams: usize },
    /// A stream finished a generation (or gave up on it: see its `error`).
    Finished(Rc<Row>),
    /// A stream ended: nothing left to take, or Stop.
    StreamEnded,
    /// A comparison of the run's captures was made.
    Compared(Rc<CompareView>),
}

/// The one transition: `state` after `action`.
pub fn reduce(mut state: SoakRunState, action: SoakRunAction) -> SoakRunState {
    match action {
        SoakRunAction::Note(text) => state.note = Some(text),
        SoakRunAction::Started { streams } => {
            state.rows.clear();
            state.streams_left = streams;
            state.note = None;
            state.compared = None;
        }
        SoakRunAction::Finished(row) => state.rows.push(row),
        SoakRunAction::StreamEnded => state.streams_left = state.streams_left.saturating_sub(1),
        SoakRunAction::Compared(view) => state.compared = Some(view),
    }
    state
}

impl Reducible for SoakRunState {
    type Action = SoakRunAction;

    fn reduce(self: Rc<Self>, action: SoakRunAction) -> Rc<Self> {
        Rc::new(reduce((*self).clone(), action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::soak_form::{SoakEdit, SoakForm};
    use coherency_core::live::RequestForm;

    /// A finished row for each of an A/B run's first four generations (A, B, A, B), failed
    /// requests: the reducer only keeps them.
    fn rows() -> Vec<Rc<Row>> {
        let form = RequestForm {
            base_url: "http://127.0.0.1:30000/v1".into(),
            model: "qwen3".into(),
            prompt: "Tell me a story.".into(),
            max_tokens: "200".into(),
            temperature: "0.6".into(),
            extra_json: String::new(),
        };
        let ab = Reducible::reduce(Rc::new(SoakForm::default()), SoakEdit::Toggle(|f| &mut f.ab));
        let plan = ab.plan(&form, "").expect("a plan");
        plan.planned
            .iter()
            .take(4)
            .map(|p| {
                Rc::new(Row {
                    generation: Generation::of(p, "qwen3", Err(format!("refused {}", p.index))),
                    capture: Rc::from(&b""[..]),
                })
            })
            .collect()
    }

    fn run(actions: impl IntoIterator<Item = SoakRunAction>) -> SoakRunState {
        actions.into_iter().fold(SoakRunState::default(), reduce)
    }

    #[test]
    fn four_streams_in_any_order_keep_every_row_and_end_the_run_with_the_last_stream() {
        // Every order in which the four streams finish (stream s finishes row s, then ends).
        let mut orders = vec![vec![]];
        for _ in 0..4 {
            orders = orders
                .into_iter()
                .flat_map(|o: Vec<usize>| {
                    (0..4).filter(|s| !o.contains(s)).map(|s| [o.clone(), vec![s]].concat()).collect::<Vec<_>>()
                })
                .collect();
        }
        assert_eq!(orders.len(), 24);
        for order in orders {
            let mut s = run([SoakRunAction::Started { streams: 4 }]);
            let mut made = rows().into_iter().map(Some).collect::<Vec<_>>();
            for (ended, &stream) in order.iter().enumerate() {
                assert!(s.running(), "{order:?}: running until the fourth stream ends");
                s = reduce(s, SoakRunAction::Finished(made[stream].take().expect("once")));
                s = reduce(s, SoakRunAction::StreamEnded);
                assert_eq!(s.running(), ended < 3, "{order:?}");
            }
            let finished: Vec<usize> = s.generations().map(|g| g.index).collect();
            assert_eq!(finished, order, "rows in the order they finished");
            assert!(s.has("A") && s.has("B") && !s.has("R") && !s.has(""));
        }
    }

    #[test]
    fn stop_keeps_what_finished_and_a_new_run_starts_afresh() {
        let [a, b, ..] = <[Rc<Row>; 4]>::try_from(rows()).expect("four rows");
        let view = Rc::new(CompareView::default());
        let s = run([
            SoakRunAction::Started { streams: 2 },
            SoakRunAction::Finished(a),
            SoakRunAction::Compared(Rc::clone(&view)),
            SoakRunAction::Note("The comparison could not be made: no.".into()),
            // Stop: both streams end, the second before its generation finished.
            SoakRunAction::StreamEnded,
            SoakRunAction::StreamEnded,
        ]);
        assert!(!s.running());
        assert_eq!(s.generations().map(|g| g.config.as_str()).collect::<Vec<_>>(), ["A"]);
        assert_eq!(
            (s.compared.as_ref(), s.note.as_deref()),
            (Some(&view), Some("The comparison could not be made: no."))
        );
        let again = reduce(s, SoakRunAction::Started { streams: 1 });
        assert!(again.running() && again.rows.is_empty() && again.note.is_none() && again.compared.is_none());
        let again = reduce(again, SoakRunAction::Finished(b));
        assert!(again.has("B") && !again.has("A"));
    }

    #[test]
    fn a_run_that_could_not_start_says_why_and_keeps_the_last_runs_rows() {
        let [a, ..] = <[Rc<Row>; 4]>::try_from(rows()).expect("four rows");
        let s = run([SoakRunAction::Started { streams: 1 }, SoakRunAction::Finished(a), SoakRunAction::StreamEnded]);
        let s = reduce(s, SoakRunAction::Note("Run 1 to 4 streams at once (got 5).".into()));
        assert!(!s.running() && s.has("A"));
        assert_eq!(s.note.as_deref(), Some("Run 1 to 4 streams at once (got 5)."));
        // An extra end (none is sent, but it must not wrap) leaves the run stopped.
        assert_eq!(reduce(s, SoakRunAction::StreamEnded).streams_left, 0);
    }
}
