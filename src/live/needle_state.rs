//! The context fidelity probe's state and its one transition, [`reduce`], as the live panel's
//! (`panel_state.rs`): the boxes ticked, a word when the probe could not start, whether it is
//! running, the probe planned and its answers so far, and whether Stop ended it. Pure and
//! unit-tested natively; the probe's component (`needle.rs`) sends the asks and dispatches
//! what comes of them.

use std::rc::Rc;

use yew::Reducible;

use coherency_core::live::needle::{Answer, Depth, NeedleKind, Probe, DEFAULT_LENGTHS, LENGTHS};

/// The boxes ticked are bits of one number: the lengths of `LENGTHS` from bit 0, the depths
/// of `Depth::ALL` from this bit, then a UUID as the needle, then asking each twice.
pub const DEPTHS_FROM: usize = LENGTHS.len();
pub const UUID: u32 = 1 << (DEPTHS_FROM + Depth::ALL.len());
pub const TWICE: u32 = UUID << 1;

/// The probe's state.
#[derive(Clone, Debug, PartialEq)]
pub struct NeedleState {
    /// The boxes ticked (see [`DEPTHS_FROM`]).
    pub ticked: u32,
    /// Why the probe could not start.
    pub note: Option<String>,
    pub running: bool,
    /// The probe last started, and its answers so far.
    pub probe: Option<Rc<Probe>>,
    pub answers: Vec<Answer>,
    /// The last run was ended by Stop, not by its last answer.
    pub stopped: bool,
}

impl Default for NeedleState {
    /// The default lengths, every depth, a number as the needle, each asked twice.
    fn default() -> Self {
        let lengths = (0..LENGTHS.len()).filter(|&i| DEFAULT_LENGTHS.contains(&LENGTHS[i]));
        let ticked = lengths.fold(TWICE | ((1 << Depth::ALL.len()) - 1) << DEPTHS_FROM, |bits, i| bits | 1 << i);
        NeedleState { ticked, note: None, running: false, probe: None, answers: Vec::new(), stopped: false }
    }
}

impl NeedleState {
    /// What the boxes ask for: the lengths, the depths, the needle's kind, and whether each is
    /// asked twice.
    pub fn asked(&self) -> (Vec<usize>, Vec<Depth>, NeedleKind, bool) {
        let bits = self.ticked;
        let lengths = (0..LENGTHS.len()).filter(|&i| bits & 1 << i != 0).map(|i| LENGTHS[i]).collect();
        let depths =
            (0..Depth::ALL.len()).filter(|&i| bits & 1 << (DEPTHS_FROM + i) != 0).map(|i| Depth::ALL[i]).collect();
        let kind = if bits & UUID != 0 { NeedleKind::Uuid } else { NeedleKind::Number };
        (lengths, depths, kind, bits & TWICE != 0)
    }

    /// Whether `bit`'s box is ticked.
    pub fn is_ticked(&self, bit: u32) -> bool {
        self.ticked & bit != 0
    }
}

/// Everything that changes the probe's state.
pub enum NeedleAction {
    /// A box ticked or unticked.
    Toggle(u32),
    /// The probe could not start, for this reason.
    Refused(String),
    /// The probe started: its answers so far are none.
    Started(Rc<Probe>),
    /// One more answer came.
    Answered(Answer),
    /// The probe ended; `stopped`: by Stop.
    Ended { stopped: bool },
}

/// The one transition: `state` after `action`.
pub fn reduce(mut state: NeedleState, action: NeedleAction) -> NeedleState {
    match action {
        NeedleAction::Toggle(bit) => state.ticked ^= bit,
        NeedleAction::Refused(why) => state.note = Some(why),
        NeedleAction::Started(probe) => {
            state.note = None;
            state.running = true;
            state.probe = Some(probe);
            state.answers.clear();
            state.stopped = false;
        }
        NeedleAction::Answered(answer) => state.answers.push(answer),
        NeedleAction::Ended { stopped } => {
            state.running = false;
            state.stopped = stopped;
        }
    }
    state
}

impl Reducible for NeedleState {
    type Action = NeedleAction;

    fn reduce(self: Rc<Self>, action: NeedleAction) -> Rc<Self> {
        Rc::new(reduce((*self).clone(), action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::live::needle::{plan, SEED};
    use coherency_core::live::RequestForm;

    fn probe(s: &NeedleState) -> Rc<Probe> {
        let form = RequestForm {
            base_url: "http://127.0.0.1:30000/v1".into(),
            model: "qwen3".into(),
            prompt: String::new(),
            max_tokens: "200".into(),
            temperature: "0.6".into(),
            extra_json: String::new(),
        };
        let (lengths, depths, kind, twice) = s.asked();
        Rc::new(plan(&form, &lengths, &depths, kind, SEED, twice).expect("a probe"))
    }

    #[test]
    fn the_boxes_start_at_the_default_lengths_every_depth_a_number_asked_twice() {
        let s = NeedleState::default();
        let (lengths, depths, kind, twice) = s.asked();
        assert_eq!(lengths, DEFAULT_LENGTHS);
        assert_eq!(depths, Depth::ALL);
        assert_eq!((kind, twice), (NeedleKind::Number, true));
        let s = reduce(reduce(s, NeedleAction::Toggle(UUID)), NeedleAction::Toggle(TWICE));
        assert_eq!(s.asked().2, NeedleKind::Uuid);
        assert!(!s.asked().3 && !s.is_ticked(TWICE));
        let fewer = reduce(s, NeedleAction::Toggle(1 << DEPTHS_FROM));
        assert_eq!(fewer.asked().1, &Depth::ALL[1..]);
    }

    #[test]
    fn a_run_starts_afresh_gathers_its_answers_and_says_whether_stop_ended_it() {
        let s = reduce(NeedleState::default(), NeedleAction::Refused("Choose a model first.".into()));
        assert_eq!(s.note.as_deref(), Some("Choose a model first."));
        let p = probe(&s);
        let s = reduce(s, NeedleAction::Started(Rc::clone(&p)));
        assert!(s.running && s.note.is_none() && s.answers.is_empty() && !s.stopped);
        let ask = &p.asks[0];
        let s = reduce(s, NeedleAction::Answered(Answer::of(&p, ask, Err("no response".into()))));
        assert_eq!(s.answers.len(), 1);
        let s = reduce(s, NeedleAction::Ended { stopped: true });
        assert!(!s.running && s.stopped);
        let again = reduce(s, NeedleAction::Started(p));
        assert!(again.answers.is_empty() && !again.stopped, "a new run forgets the last one's answers");
    }
}
