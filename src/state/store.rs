//! The state fitted to Yew's `use_reducer` ([`Store`]): the reducer's effects kept until the
//! page takes them after it renders.

use std::cell::RefCell;
use std::rc::Rc;

use yew::Reducible;

use super::{reduce, Action, Effect, State};

/// The state in Yew's `use_reducer`, with the effects of its transitions until the page takes
/// them ([`Store::take_effects`], after each render).
#[derive(Default)]
pub struct Store {
    pub state: Rc<State>,
    effects: RefCell<Vec<Effect>>,
}

impl Store {
    /// The effects not run yet, in the order their transitions asked for them.
    pub fn take_effects(&self) -> Vec<Effect> {
        self.effects.take()
    }
}

impl Reducible for Store {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let (state, effects) = reduce(Rc::clone(&self.state), action);
        if Rc::ptr_eq(&state, &self.state) && effects.is_empty() {
            return self;
        }
        // Effects not taken yet move on with the state, so none is run twice or lost.
        let mut pending = self.effects.take();
        pending.extend(effects);
        Rc::new(Store { state, effects: RefCell::new(pending) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;
    use crate::state::Reveal;

    #[test]
    fn the_store_keeps_effects_until_the_page_takes_them() {
        let store = Rc::new(Store::default());
        let store =
            Reducible::reduce(store, Action::Analyze { text: "one".into(), source: Source::Input, replaced: None });
        let store = Reducible::reduce(store, Action::Loading { name: "f".into(), size: 1, now: None });
        let effects = store.take_effects();
        assert!(matches!(effects.as_slice(), [Effect::Read { .. }, Effect::Reveal(Reveal::Progress)]), "{effects:?}");
        assert!(store.take_effects().is_empty());
        let same = Reducible::reduce(
            Rc::clone(&store),
            Action::Select(crate::state::Open::clicked(0, crate::state::Opener::Table)),
        );
        assert!(Rc::ptr_eq(&same, &store), "no document: nothing to select, no render");
    }
}
