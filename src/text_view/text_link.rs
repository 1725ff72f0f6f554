//! How the rest of the page asks the text view to show a place (the checks table, the onset
//! button, the chart): a [`TextLink`] that the root component owns and gives to the view as a
//! prop. The view on the page attaches its handler to it, because span N's element exists only once
//! the view has scrolled to it; with no view attached, a span is scrolled to by its element.
//! The link also keeps the view's last measurement, so a view mounted for a new text lays it
//! out once, at the right width, instead of at a guess and again (a 50 MB text takes a
//! noticeable moment).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use web_sys::ScrollLogicalPosition;
use yew::Callback;

use super::navigation::{place_of_byte, Place};
use super::scrolling::Measure;
use crate::dom;
use crate::model::Analysis;

/// The page's way to its text view; clones share one link, equal only to themselves.
#[derive(Clone, Default)]
pub struct TextLink(Rc<Shared>);

#[derive(Default)]
struct Shared {
    /// The view attached, with its ticket: a view mounted before the last one is dropped must
    /// stay attached when that one detaches.
    view: RefCell<Option<(u64, Callback<Place>)>>,
    tickets: Cell<u64>,
    measure: Cell<Option<Measure>>,
}

impl PartialEq for TextLink {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl TextLink {
    /// Makes `show` the view's handler; the ticket detaches it.
    pub fn attach(&self, show: Callback<Place>) -> u64 {
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

    /// Scrolls to `place` and, for a span, briefly emphasises it: through the view when one is
    /// attached, else (a span only) to element `#span-N` directly.
    pub fn show(&self, place: Place) {
        let view = self.0.view.borrow().as_ref().map(|(_, show)| show.clone());
        if let Some(show) = view {
            show.emit(place);
            return;
        }
        let Place::Span(index) = place else { return };
        let Some(first) = dom::element_by_id(&format!("span-{index}")) else { return };
        dom::scroll_to(&first, ScrollLogicalPosition::Center);
        if let Some(root) = dom::document_element() {
            dom::flash_span(&root, index);
        }
    }

    /// Shows byte `at` of the analysed text ([`place_of_byte`]).
    pub fn show_byte(&self, analysis: &Analysis, at: usize) {
        self.show(place_of_byte(analysis, at));
    }

    /// The last measurement of a view, if one has measured itself.
    pub fn measure(&self) -> Option<Measure> {
        self.0.measure.get()
    }

    pub fn set_measure(&self, measure: Measure) {
        self.0.measure.set(Some(measure));
    }
}
