//! What can happen to the page's state ([`Action`]): the user's inputs, the worker's answers and
//! what the effects of a transition bring back.

use super::{Open, Thresholds};
use crate::file_load::load_view::Progress;
use crate::model::document::{Document, WantedReport};
use crate::model::saved::SavedView;
use crate::model::Source;
use coherency_core::analyze::Report;
use coherency_core::ingest::Format;
use coherency_core::judge::JudgedDocument;
use coherency_worker_wire::compare::CompareView;

pub enum Action {
    /// Analyse `text`. `replaced` is the user's text that a sample just overwrote, if any.
    Analyze { text: String, source: Source, replaced: Option<String> },
    /// A file of `size` bytes is being read in the worker, from `now` (`performance.now()`).
    Loading { name: String, size: usize, now: Option<f64> },
    /// The worker's (or, at the end, the page's own) progress on it.
    Progress(Progress),
    /// The worker read and analysed the file, done at `now`; `note` is said beside the result.
    Loaded { name: String, loaded: Box<JudgedDocument>, note: Option<String>, now: Option<f64> },
    /// The user cancelled reading the file: what was shown stays.
    Cancelled,
    /// Read bytes already in memory (a live run's capture); `note` is said beside the result.
    Load { name: String, bytes: Vec<u8>, note: Option<String> },
    /// The browser could not read a file, or the worker could not analyse an input (`source`
    /// says which, in its words); what is shown stays.
    LoadFailed { source: Source, error: String },
    /// Open what a result link carries: its input, in `chosen` (or the detected format), with
    /// report `select` shown, judged against the link's thresholds.
    OpenLink { bytes: Vec<u8>, chosen: Option<Format>, select: Option<usize>, thresholds: Thresholds },
    /// Judge against these thresholds from now on, the document shown included.
    SetThresholds(Thresholds),
    /// The page's address holds a result link that cannot be opened, for this reason.
    LinkFailed(String),
    /// Read the current document again in another format (`None`: the detected one).
    ChooseFormat(Option<Format>),
    /// Show a report of the current document in full, from where it was asked.
    Select(Open),
    /// The analysis worker made the whole report document `doc` wanted
    /// ([`Effect::Analyze`](super::Effect::Analyze)).
    Analyzed { doc: u64, wanted: WantedReport, report: Box<Report> },
    /// The page read what an [`Effect::Read`](super::Effect::Read) asked for, from `started` to `now`.
    Read { doc: Box<Document>, started: Option<f64>, now: Option<f64> },
    /// What an [`Effect::Read`](super::Effect::Read) asked to read was a report the CLI saved.
    ReadSaved(Box<SavedView>),
    /// Files given together were compared in the worker (outputs against a reference); `note`
    /// is said beside the result.
    Compared { view: Box<CompareView>, note: Option<String> },
}
