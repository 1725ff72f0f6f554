//! The live panel's state and its one transition, [`reduce`]: state + action → new state, as
//! the page's own reducer (`crate::state`) is. Pure (no fetch, no DOM, no clock), so every
//! transition is unit-tested natively; the panel (`panel.rs`) runs what a transition leads to —
//! listing the models, streaming a run, stopping it — and dispatches what comes of it.
//!
//! The state holds the form (the request's fields and the key bound to its origin), the models
//! the server listed and a word about them, the run's latest snapshot or why there is none,
//! whether a run is going and whether it stops at its first FAIL, and what the long run and the
//! soak showed of the reasoning (probe D's streamed evidence).

use std::rc::Rc;

use yew::Reducible;

use super::probes::ReasoningSeen;
use super::view::LiveView;
use coherency_core::live::reasoning_probe::ReasoningEvidence;
use coherency_core::live::{BoundKey, RequestForm, PRESETS};

/// The base URL the form starts with.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:30000/v1";

/// The form: the request's fields, the API key bound to the origin it was typed for, and
/// whether the key is remembered on this device.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub req: RequestForm,
    pub key: BoundKey,
    pub remember: bool,
}

impl Form {
    /// The form as the page opens it, with the key remembered on this device (if any).
    pub fn new(stored: Option<BoundKey>) -> Self {
        Form {
            req: RequestForm {
                base_url: DEFAULT_BASE.to_string(),
                model: String::new(),
                prompt: PRESETS.first().map(|p| p.1.to_string()).unwrap_or_default(),
                max_tokens: "8000".to_string(),
                temperature: "0.6".to_string(),
                extra_json: String::new(),
            },
            remember: stored.is_some(),
            key: stored.unwrap_or_default(),
        }
    }

    /// The key to send to the base URL: none when it was given for another endpoint.
    pub fn sent_key(&self) -> String {
        self.key.for_endpoint(&self.req.base_url).unwrap_or_default().to_string()
    }
}

/// Why there is no stream to show: `kind` is `form`, `no-response`, `http`, `unscored` or
/// `stopped`.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub kind: &'static str,
    pub text: String,
}

/// The live panel's state.
#[derive(Clone, Debug)]
pub struct PanelState {
    pub form: Form,
    /// The models the server listed (Load models).
    pub models: Vec<String>,
    /// A word about them: loading, how many, or why not.
    pub models_note: Option<String>,
    /// The run's latest snapshot (the last one once it has ended).
    pub view: Option<Rc<LiveView>>,
    /// Why the run shows no stream.
    pub failure: Option<Failure>,
    /// A run is going (Start is off, Stop on).
    pub running: bool,
    /// "Stop when it FAILs": on by default for the long run (a loop rarely ends by itself).
    pub stop_at_fail: bool,
    /// Where the long run and the soak put their reasoning: probe D's streamed evidence.
    pub streamed: ReasoningEvidence,
}

impl PanelState {
    /// The panel as the page opens it (the key remembered on this device, if any).
    pub fn new(stored: Option<BoundKey>) -> Self {
        PanelState {
            form: Form::new(stored),
            models: Vec::new(),
            models_note: None,
            view: None,
            failure: None,
            running: false,
            stop_at_fail: true,
            streamed: ReasoningEvidence::default(),
        }
    }
}

/// Everything that changes the live panel's state.
pub enum PanelAction {
    /// One edit of the form: a setter and the new value.
    Edit(fn(&mut Form, String), String),
    /// Load models was pressed.
    ModelsLoading,
    /// The server listed `ids` at `url`; `fill`: the model field was empty when asked, so the
    /// first listed goes in it.
    ModelsListed { ids: Vec<String>, url: String, fill: bool },
    /// Listing the models failed, for this reason.
    ModelsFailed(String),
    /// "Stop when it FAILs" ticked or not.
    StopAtFail(bool),
    /// A run started: what the last one showed is cleared.
    Started,
    /// The run's session sent a snapshot.
    Snapshot(Rc<LiveView>),
    /// The run shows no stream (or the form's request could not be built), for this reason.
    Failed(Failure),
    /// The run ended, however.
    Ended,
    /// The long run or the soak showed this of the reasoning.
    Reasoning(ReasoningSeen),
}

/// The one transition: `state` after `action`.
pub fn reduce(mut state: PanelState, action: PanelAction) -> PanelState {
    match action {
        PanelAction::Edit(set, value) => set(&mut state.form, value),
        PanelAction::ModelsLoading => state.models_note = Some("Loading models…".to_string()),
        PanelAction::ModelsListed { ids, url, fill } => {
            if let (true, Some(first)) = (fill, ids.first()) {
                state.form.req.model = first.clone();
            }
            state.models_note = Some(format!("{} model(s) listed by {url}.", ids.len()));
            state.models = ids;
        }
        PanelAction::ModelsFailed(why) => state.models_note = Some(why),
        PanelAction::StopAtFail(on) => state.stop_at_fail = on,
        PanelAction::Started => {
            state.failure = None;
            state.view = None;
            state.running = true;
        }
        PanelAction::Snapshot(view) => state.view = Some(view),
        PanelAction::Failed(failure) => state.failure = Some(failure),
        PanelAction::Ended => state.running = false,
        PanelAction::Reasoning(seen) => seen.add_to(&mut state.streamed),
    }
    state
}

impl Reducible for PanelState {
    type Action = PanelAction;

    fn reduce(self: Rc<Self>, action: PanelAction) -> Rc<Self> {
        Rc::new(reduce((*self).clone(), action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::live::LiveSession;
    use coherency_core::stream::ReasoningPlacement;

    fn state() -> PanelState {
        PanelState::new(None)
    }

    fn view() -> Rc<LiveView> {
        Rc::new(LiveView::snapshot(1, LiveSession::new(0.0).snapshot(), None))
    }

    #[test]
    fn the_panel_opens_with_the_defaults_and_the_key_remembered() {
        let s = state();
        assert_eq!((s.form.req.base_url.as_str(), s.form.req.max_tokens.as_str()), (DEFAULT_BASE, "8000"));
        assert_eq!(s.form.req.prompt, PRESETS[0].1);
        assert!(!s.form.remember && s.stop_at_fail && !s.running);
        let key = BoundKey::typed("sk-1".into(), DEFAULT_BASE);
        let s = PanelState::new(Some(key.clone()));
        assert!(s.form.remember);
        assert_eq!((&s.form.key, s.form.sent_key()), (&key, "sk-1".to_string()));
    }

    #[test]
    fn an_edit_sets_its_field_and_a_key_goes_only_to_its_origin() {
        let s = reduce(state(), PanelAction::Edit(|f, v| f.key = BoundKey::typed(v, &f.req.base_url), "sk-1".into()));
        assert_eq!(s.form.sent_key(), "sk-1");
        let s = reduce(s, PanelAction::Edit(|f, v| f.req.base_url = v, "https://elsewhere.example/v1".into()));
        assert_eq!(s.form.sent_key(), "", "typed for another origin: not sent");
        let s = reduce(s, PanelAction::Edit(|f, v| f.remember = v == "true", "true".into()));
        assert!(s.form.remember);
    }

    #[test]
    fn listed_models_fill_an_empty_model_field_only() {
        let s = reduce(state(), PanelAction::ModelsLoading);
        assert_eq!(s.models_note.as_deref(), Some("Loading models…"));
        let ids = vec!["qwen3".to_string(), "llama".to_string()];
        let url = "http://127.0.0.1:30000/v1/models".to_string();
        let filled = reduce(s.clone(), PanelAction::ModelsListed { ids: ids.clone(), url: url.clone(), fill: true });
        assert_eq!((filled.form.req.model.as_str(), filled.models.len()), ("qwen3", 2));
        assert_eq!(filled.models_note.as_deref(), Some("2 model(s) listed by http://127.0.0.1:30000/v1/models."));
        let typed = reduce(s, PanelAction::Edit(|f, v| f.req.model = v, "mine".into()));
        let kept = reduce(typed, PanelAction::ModelsListed { ids, url, fill: false });
        assert_eq!(kept.form.req.model, "mine");
        let failed = reduce(kept, PanelAction::ModelsFailed("HTTP 401".into()));
        assert_eq!((failed.models_note.as_deref(), failed.models.len()), (Some("HTTP 401"), 2));
    }

    #[test]
    fn a_run_clears_what_the_last_showed_then_shows_its_snapshots_until_it_ends() {
        let failure = Failure { kind: "http", text: "HTTP 500".into() };
        let before = reduce(reduce(state(), PanelAction::Snapshot(view())), PanelAction::Failed(failure.clone()));
        assert!(before.view.is_some() && before.failure.is_some());
        let s = reduce(before, PanelAction::Started);
        assert!(s.running && s.view.is_none() && s.failure.is_none());
        let s = reduce(s, PanelAction::Snapshot(view()));
        assert!(s.view.is_some() && s.running);
        let s = reduce(reduce(s, PanelAction::Failed(failure.clone())), PanelAction::Ended);
        assert!(!s.running);
        assert_eq!(s.failure, Some(failure));
        assert!(s.view.is_some(), "the last snapshot stays shown");
    }

    #[test]
    fn stop_at_fail_and_the_reasoning_seen_are_kept() {
        let s = reduce(state(), PanelAction::StopAtFail(false));
        assert!(!s.stop_at_fail);
        let s = reduce(s, PanelAction::Reasoning(ReasoningSeen::LongRun(ReasoningPlacement::default())));
        assert_eq!(s.streamed.long_run, Some(ReasoningPlacement::default()));
        let s = reduce(s, PanelAction::Reasoning(ReasoningSeen::SoakStarted));
        let mut expected = ReasoningEvidence { long_run: Some(ReasoningPlacement::default()), ..Default::default() };
        expected.soak_started();
        assert_eq!(s.streamed, expected);
    }
}
