//! The page's state: a reducer holding the current document (its transcript, reports and the
//! analysis shown, all in `Rc`s), the user's own text while a sample has replaced it in the text
//! box, and what the page is doing with a file (read in a worker: its progress).

use std::rc::Rc;

use yew::Reducible;

use super::document::Document;
use super::dom;
use super::load_view::{Loading, Progress, Stage};
use super::model::Source;
use coherency_core::ingest::Format;
use coherency_core::verdict::JudgedDocument;

#[derive(Debug, Default, PartialEq)]
pub struct State {
    /// The latest document read; `None` until the first one.
    pub doc: Option<Rc<Document>>,
    /// What the user had typed before a sample replaced it, so it can be put back.
    pub stash: Option<Rc<str>>,
    /// A file being read: its name, size and progress (shown while the worker reads it).
    pub loading: Option<Rc<Loading>>,
    /// A word about the last file: it could not be read, or only the first of several was.
    pub notice: Option<Rc<str>>,
    /// The user picked a message: bring its analysis into view.
    pub reveal_detail: bool,
    next_seq: u64,
}

pub enum Action {
    /// Analyse `text`. `replaced` is the user's text that a sample just overwrote, if any.
    Analyze { text: String, source: Source, replaced: Option<String> },
    /// A file of `size` bytes is being read in the worker.
    Loading { name: String, size: usize },
    /// The worker's (or, at the end, the page's own) progress on it.
    Progress(Progress),
    /// The worker read and analysed the file; `note` is said beside the result.
    Loaded { name: String, loaded: Box<JudgedDocument>, note: Option<String> },
    /// The user cancelled reading the file: what was shown stays.
    Cancelled,
    /// Read bytes already in memory (a live run's capture); `note` is said beside the result.
    Load { name: String, bytes: Vec<u8>, note: Option<String> },
    /// The browser could not read a file; what is shown stays.
    LoadFailed { name: String, error: String },
    /// Read the current document again in another format (`None`: the detected one).
    ChooseFormat(Option<Format>),
    /// Show report `index` of the current document in full.
    Select(usize),
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let seq = self.next_seq;
        let next = |doc: Option<Rc<Document>>, stash, notice, reveal_detail| {
            Rc::new(State { doc, stash, loading: None, notice, reveal_detail, next_seq: seq + 1 })
        };
        match action {
            Action::Analyze { text, source, replaced } => {
                let stash = match (&source, replaced) {
                    (Source::Sample(_), Some(user_text)) => Some(user_text.into()),
                    (Source::Sample(_), None) => self.stash.clone(),
                    _ => None,
                };
                let doc = timed_read(seq, source, text.into_bytes().into(), None);
                next(Some(doc), stash, None, false)
            }
            Action::Loading { name, size } => Rc::new(State {
                doc: self.doc.clone(),
                stash: self.stash.clone(),
                loading: Some(Rc::new(Loading::new(&name, size, dom::now_ms()))),
                notice: None,
                reveal_detail: false,
                next_seq: seq,
            }),
            Action::Progress(p) => {
                let Some(loading) = &self.loading else { return self };
                let mut loading = Loading::clone(loading);
                if p.stage == Stage::Preparing {
                    // The page's own step: what the worker said stays on show.
                    loading.progress.stage = p.stage;
                    loading.progress.prepared = p.prepared;
                } else {
                    loading.progress = p;
                }
                Rc::new(State {
                    doc: self.doc.clone(),
                    stash: self.stash.clone(),
                    loading: Some(Rc::new(loading)),
                    notice: None,
                    reveal_detail: false,
                    next_seq: seq,
                })
            }
            Action::Loaded { name, loaded, note } => {
                let started = self.loading.as_ref().and_then(|l| l.started);
                let mut doc = Document::from_loaded(seq, Source::File(name.into()), *loaded);
                set_millis(&mut doc, started);
                next(Some(Rc::new(doc)), self.stash.clone(), note.map(Rc::from), false)
            }
            Action::Cancelled => {
                let name = self.loading.as_ref().map_or("the file".into(), |l| l.name.to_string());
                let notice = format!("Reading {name} was cancelled. What was shown before is unchanged.");
                next(self.doc.clone(), self.stash.clone(), Some(notice.into()), false)
            }
            Action::Load { name, bytes, note } => {
                let doc = timed_read(seq, Source::File(name.into()), bytes.into(), None);
                next(Some(doc), self.stash.clone(), note.map(Rc::from), false)
            }
            Action::LoadFailed { name, error } => {
                let notice = format!("Could not read the file {name}: {error}. What was shown before is unchanged.");
                next(self.doc.clone(), self.stash.clone(), Some(notice.into()), false)
            }
            Action::ChooseFormat(chosen) => match &self.doc {
                Some(doc) => {
                    let started = dom::now_ms();
                    // A file read in the worker is read again there (the page starts that job).
                    let Some(mut doc) = doc.reread(seq, chosen) else { return self };
                    set_millis(&mut doc, started);
                    next(Some(Rc::new(doc)), self.stash.clone(), self.notice.clone(), false)
                }
                None => self,
            },
            Action::Select(index) => match &self.doc {
                Some(doc) if doc.selected != Some(index) => {
                    next(Some(Rc::new(doc.select(seq, index))), self.stash.clone(), self.notice.clone(), true)
                }
                _ => self,
            },
        }
    }
}

fn timed_read(seq: u64, source: Source, bytes: Rc<[u8]>, chosen: Option<Format>) -> Rc<Document> {
    let started = dom::now_ms();
    let mut doc = Document::read(seq, source, bytes, chosen);
    set_millis(&mut doc, started);
    Rc::new(doc)
}

/// Records how long reading and analysing took, on the document and on plain text's analysis
/// (whose verdict card says it).
fn set_millis(doc: &mut Document, started: Option<f64>) {
    doc.millis = started.zip(dom::now_ms()).map(|(a, b)| b - a);
    if doc.is_plain_text() {
        if let Some(a) = doc.detail.as_mut().and_then(Rc::get_mut) {
            a.millis = doc.millis;
        }
    }
}
