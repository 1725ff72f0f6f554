//! How the analysis below asks the conversation view to go back to a turn ("↑ Back to turn 7"):
//! a [`TurnLink`] that the root component owns and gives to both as a prop. The conversation
//! view attaches its handler (show conversation C, go to row K of its turn list and focus it);
//! with none attached, the caller falls back to scrolling.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use yew::Callback;

/// The page's way to its conversation view; clones share one link, equal only to themselves.
#[derive(Clone, Default)]
pub struct TurnLink(Rc<Shared>);

/// The view's handler: called with a conversation and a row of its turn list.
type ShowTurn = Callback<(usize, usize)>;

#[derive(Default)]
struct Shared {
    /// The view attached, with its ticket: a view mounted before the last one is dropped must
    /// stay attached when that one detaches.
    view: RefCell<Option<(u64, ShowTurn)>>,
    tickets: Cell<u64>,
}

impl PartialEq for TurnLink {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl TurnLink {
    /// Makes `show` (called with a conversation and a row of its turn list) the view's
    /// handler; the ticket detaches it.
    pub fn attach(&self, show: ShowTurn) -> u64 {
        let ticket = self.0.tickets.get() + 1;
        self.0.tickets.set(ticket);
        *self.0.view.borrow_mut() = Some((ticket, show));
        ticket
    }

    /// Detaches the view attached with `ticket` (a newer view stays).
    pub fn detach(&self, ticket: u64) {
        let mut view = self.0.view.borrow_mut();
        if view.as_ref().is_some_and(|(t, _)| *t == ticket) {
            *view = None;
        }
    }

    /// Asks the view to show row `row` of conversation `conversation`, focused; `false` when no
    /// view is attached.
    pub fn show(&self, conversation: usize, row: usize) -> bool {
        let view = self.0.view.borrow().as_ref().map(|(_, show)| show.clone());
        view.map(|show| show.emit((conversation, row))).is_some()
    }
}
