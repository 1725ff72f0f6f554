//! The page's state: a reducer holding the current analysis (an `Rc<Report>` inside) and the
//! user's own text while a sample has replaced it in the text box.

use std::rc::Rc;

use yew::Reducible;

use super::dom;
use super::model::{Analysis, Source};

#[derive(Debug, Default, PartialEq)]
pub struct State {
    /// The latest analysis; `None` until the first one.
    pub analysis: Option<Rc<Analysis>>,
    /// What the user had typed before a sample replaced it, so it can be put back.
    pub stash: Option<Rc<str>>,
    next_seq: u64,
}

pub enum Action {
    /// Analyse `text`. `replaced` is the user's text that a sample just overwrote, if any.
    Analyze { text: String, source: Source, replaced: Option<String> },
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Analyze { text, source, replaced } => {
                let started = dom::now_ms();
                let mut analysis = Analysis::new(self.next_seq, source.clone(), text);
                analysis.millis = started.zip(dom::now_ms()).map(|(a, b)| b - a);
                let stash = match (source, replaced) {
                    (Source::Input, _) => None,
                    (Source::Sample(_), Some(user_text)) => Some(user_text.into()),
                    (Source::Sample(_), None) => self.stash.clone(),
                };
                Rc::new(State { analysis: Some(Rc::new(analysis)), stash, next_seq: self.next_seq + 1 })
            }
        }
    }
}
