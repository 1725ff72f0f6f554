//! What a transition asks the page to do ([`Effect`], [`Reveal`]), and the one effect that is
//! pure work, done by the shell where it runs it: [`read`].

use std::rc::Rc;

#[cfg(test)]
use super::Action;
use super::Thresholds;
use crate::model::document::WantedReport;
use crate::model::Source;
#[cfg(test)]
use crate::model::{document::Document, saved::SavedView};
use coherency_core::ingest::Format;
#[cfg(test)]
use coherency_core::render::saved_report::is_saved_report;

/// What a transition asks the page to do; it answers with actions.
#[derive(Debug, PartialEq)]
pub enum Effect {
    /// Read `bytes` in `chosen` (or the detected format) and analyse every message against
    /// `thresholds` ([`Document::read_with`]), timed, with report `select` shown when there is
    /// one; then [`Action::Read`]. Bytes that are a report the CLI saved, with no format
    /// chosen, are read as such: [`Action::ReadSaved`].
    Read {
        seq: u64,
        source: Source,
        bytes: Rc<[u8]>,
        chosen: Option<Format>,
        select: Option<usize>,
        thresholds: Thresholds,
    },
    /// Read the file of the document shown again in the worker, in `chosen` (or the detected
    /// format), against `thresholds`; the page keeps the file, the document only what the
    /// worker sent back.
    ReadFileAgain { chosen: Option<Format>, thresholds: Thresholds },
    /// Make the whole report of the text document `doc` wants shown (its report was summed up)
    /// in the analysis worker, against the default thresholds (the only ones a report is summed
    /// up under); then [`Action::Analysed`](super::Action::Analyzed).
    Analyze { doc: u64, source: Source, wanted: WantedReport },
    /// Bring a part of the page into view if it is not.
    Reveal(Reveal),
}

/// The parts of the page a transition brings into view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reveal {
    /// The first result (the verdict), after each new document.
    Result,
    /// The progress panel, when a file starts being read.
    Progress,
    /// The analysis of the message the user picked.
    Detail,
}

/// Does what an [`Effect::Read`] asks, on the spot (the page does it in a worker: the tests
/// here): reads `bytes` as a document — or, when no format was
/// chosen and they are a report the CLI saved, as that report — between `started` and `now()`.
#[cfg(test)]
pub fn read(
    seq: u64,
    source: Source,
    bytes: Rc<[u8]>,
    (chosen, select, thresholds): (Option<Format>, Option<usize>, Thresholds),
    started: Option<f64>,
    now: impl FnOnce() -> Option<f64>,
) -> Action {
    if chosen.is_none() && is_saved_report(&bytes) {
        return Action::ReadSaved(Box::new(SavedView::read(seq, source.name().into(), &bytes)));
    }
    let doc = Box::new(
        Document::read_with(seq, source, bytes, chosen, &thresholds).selecting(seq, select).with_wanted_report(),
    );
    Action::Read { doc, started, now: now() }
}
