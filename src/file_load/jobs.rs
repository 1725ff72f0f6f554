//! The page's worker jobs, run for the shell ([`crate::components::app`]): an input the page holds
//! read in a worker ([`run_job`] for the reducer's `Effect::Read`), a file read ([`read_file`])
//! or read again in another format or against other thresholds, files compared
//! ([`compare_files`]), a summed-up text's whole report made, a result link's input inflated
//! ([`open_link`]), and a file being read cancelled ([`cancel`]). Each job replaces (cancels) the
//! one of its kind before; what comes of it goes to the reducer as an action. [`Jobs`] holds the
//! jobs running (dropping one ends its worker) and the files of what is shown (read again for a
//! link or a report). Needs a browser: the end-to-end tests run it.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::load_view::{file_limit, too_big};
use super::loader::{self, Event, Job};
use super::ReadAs;
use crate::dom;
use crate::model::document::Document;
use crate::model::saved::SavedView;
use crate::model::Source;
use crate::state::{Action, Effect, Store};
use coherency_core::analyze::{Report, Thresholds};
use coherency_core::ingest::Format;
use coherency_core::render::result_link::{self, LinkError, LinkFields};
use coherency_core::render::saved_report::is_saved_report;
use coherency_worker_wire::compare::decode_view;

/// Does what a job's `effect` asks for (reading an input, reading the file shown again, making
/// a text's whole report) in a worker; what comes of it goes back to the reducer. An
/// [`Effect::Reveal`] is no job: the shell brings that part of the page into view.
pub fn run_job(effect: Effect, dispatcher: &UseReducerDispatcher<Store>, jobs: &Rc<RefCell<Jobs>>, results: &NodeRef) {
    match effect {
        Effect::Read { seq, source, bytes, chosen, select, thresholds } => {
            // A report the CLI saved is only shown; anything else is analysed in a worker.
            if chosen.is_none() && is_saved_report(&bytes) {
                let view = SavedView::read(seq, source.name().into(), &bytes);
                return dispatcher.dispatch(Action::ReadSaved(Box::new(view)));
            }
            read_in_worker(dispatcher, jobs, results, (seq, source, bytes), (chosen, select, thresholds));
        }
        Effect::ReadFileAgain { chosen, thresholds } => {
            let file = jobs.borrow().shown.clone();
            if let Some(file) = file {
                read_file(dispatcher, jobs, file, ReadAs { format: chosen, thresholds }, None);
            }
        }
        Effect::Analyze { doc, source, wanted } => {
            // Meanwhile the results say they are being updated (the text shown before stays).
            busy(results, true);
            let (dispatcher, results) = (dispatcher.clone(), results.clone());
            let text = Rc::clone(&wanted.text);
            let done: Rc<dyn Fn(Result<Report, String>)> = Rc::new(move |report| {
                match report {
                    Ok(report) => {
                        let report = Box::new(report);
                        dispatcher.dispatch(Action::Analyzed { doc, wanted: wanted.clone(), report })
                    }
                    Err(error) => dispatcher.dispatch(Action::LoadFailed { source: source.clone(), error }),
                }
                // Once the state has its answer (the render follows).
                busy(&results, false);
            });
            // A newer text shown replaces (ends) the job for the last one.
            let started = loader::analyze_text(&text, Rc::clone(&done));
            jobs.borrow_mut().analysing = started.map_err(|error| done(Err(error))).ok();
        }
        Effect::Reveal(_) => {}
    }
}

/// Says that the results are being updated (`aria-busy`: they fade a little), or no longer.
fn busy(results: &NodeRef, busy: bool) {
    if let Some(results) = results.cast::<web_sys::Element>() {
        let _ = if busy { results.set_attribute("aria-busy", "true") } else { results.remove_attribute("aria-busy") };
    }
}

/// Reads an input the page holds (`Effect::Read`) in a worker job, replacing (cancelling) the one
/// reading the input before; the document comes back as `Action::Read`. Meanwhile the results
/// say they are being updated (`aria-busy`).
fn read_in_worker(
    dispatcher: &UseReducerDispatcher<Store>,
    jobs: &Rc<RefCell<Jobs>>,
    results: &NodeRef,
    (seq, source, bytes): (u64, Source, Rc<[u8]>),
    (chosen, select, thresholds): (Option<Format>, Option<usize>, Thresholds),
) {
    let started = dom::now_ms();
    let name = source.name();
    let failed = source.clone();
    busy(results, true);
    let on_event: Rc<dyn Fn(Event)> = {
        let (dispatcher, failed, bytes, results) =
            (dispatcher.clone(), failed.clone(), Rc::clone(&bytes), results.clone());
        Rc::new(move |event| match event {
            Event::Progress(_) => {}
            Event::Done(loaded) => {
                let mut doc = Document::from_loaded(seq, source.clone(), loaded);
                doc.bytes = Some(Rc::clone(&bytes));
                let doc = Box::new(doc.selecting(seq, select));
                dispatcher.dispatch(Action::Read { doc, started, now: dom::now_ms() });
                busy(&results, false);
            }
            Event::Failed(error) => {
                dispatcher.dispatch(Action::LoadFailed { source: failed.clone(), error });
                busy(&results, false);
            }
        })
    };
    let read = {
        let mut jobs = jobs.borrow_mut();
        jobs.reading = None;
        jobs.reads += 1;
        jobs.reads
    };
    let (dispatcher, jobs_now, results) = (dispatcher.clone(), Rc::clone(jobs), results.clone());
    let size = bytes.len();
    let start = move || match loader::start_bytes(&bytes, &name, ReadAs { format: chosen, thresholds }, on_event) {
        Ok(job) => jobs_now.borrow_mut().reading = Some(job),
        Err(error) => {
            busy(&results, false);
            dispatcher.dispatch(Action::LoadFailed { source: failed, error })
        }
    };
    if size < HAND_OVER_LATER_FROM {
        return start();
    }
    // A big input is handed to the worker in a task of its own (copied out of the wasm into a
    // `File`, a worker started): the task that took it in from the text box (a 5 MB paste:
    // read out of the text box, the state's copy, the render) is long enough.
    let jobs = Rc::clone(jobs);
    wasm_bindgen_futures::spawn_local(async move {
        dom::next_tick().await;
        // Unless a newer input came meanwhile.
        if jobs.borrow().reads == read {
            start();
        }
    });
}

/// Inputs from this many bytes are handed to their worker a task after they were taken in
/// (see [`read_in_worker`]).
const HAND_OVER_LATER_FROM: usize = 1 << 20;

/// The worker jobs reading a file and an input the page holds, and the file of the document
/// shown.
#[derive(Default)]
pub struct Jobs {
    running: Option<Job>,
    reading: Option<Job>,
    /// The whole report of the text shown being made (its report was summed up).
    analysing: Option<loader::OneJob>,
    shown: Option<web_sys::File>,
    /// The files of the comparison shown (its reports are made from them again), and the job
    /// comparing files.
    compared: Option<Vec<web_sys::File>>,
    comparing: Option<loader::OneJob>,
    /// The result link being opened (its input inflated in a worker).
    opening_link: Option<loader::OneJob>,
    /// Counts the files chosen: a file's steps that find a newer one chosen stop.
    generation: u64,
    /// Counts the inputs the page holds handed to `read_in_worker`: a big one handed over a
    /// task later is not when a newer came meanwhile.
    reads: u64,
}

impl Jobs {
    /// The file of the document shown, for a link or a report made from it.
    pub fn shown_file(&self) -> Option<web_sys::File> {
        self.shown.clone()
    }

    /// The files of the comparison shown, for its reports.
    pub fn compared_files(&self) -> Option<Vec<web_sys::File>> {
        self.compared.clone()
    }
}

/// Cancels the file or files being read or compared (what was shown before stays).
pub fn cancel(dispatcher: &UseReducerDispatcher<Store>, jobs: &Rc<RefCell<Jobs>>) {
    let mut held = jobs.borrow_mut();
    held.running = None;
    held.comparing = None;
    held.generation += 1;
    drop(held);
    dispatcher.dispatch(Action::Cancelled);
}

/// Opens the result link in the address (`#v1;…`), if there is one: its fields are read here,
/// its input inflated in the analysis worker (the page's wasm has no DEFLATE), then put in the
/// text box `input` and read as the link says ([`Action::OpenLink`]); a damaged link is said
/// ([`Action::LinkFailed`]).
pub fn open_link(dispatcher: &UseReducerDispatcher<Store>, jobs: &Rc<RefCell<Jobs>>, input: &NodeRef) {
    let hash = dom::location_hash();
    let LinkFields { format: chosen, selected: select, thresholds, .. } = match result_link::fields(&hash) {
        Ok(fields) => fields,
        Err(LinkError::NotALink) => return,
        Err(e) => return dispatcher.dispatch(Action::LinkFailed(e.to_string())),
    };
    let (input, opened) = (input.clone(), dispatcher.clone());
    let inflated = move |bytes: Result<Vec<u8>, String>| match bytes {
        Ok(bytes) => {
            if let Ok(text) = std::str::from_utf8(&bytes) {
                dom::set_textarea_value(&input, text);
            }
            opened.dispatch(Action::OpenLink { bytes, chosen, select, thresholds });
        }
        Err(why) => opened.dispatch(Action::LinkFailed(why)),
    };
    match loader::open_link(&hash, Box::new(inflated)) {
        Ok(started) => jobs.borrow_mut().opening_link = Some(started),
        Err(why) => dispatcher.dispatch(Action::LinkFailed(why)),
    }
}

/// Reads `file` as `chosen` (`None`: detected) in a worker, against `thresholds`, replacing
/// (cancelling) any file being read; a file over the size limit gets a message instead, and a
/// report the CLI saved (with no format chosen) is read on the page.
pub fn read_file(
    dispatcher: &UseReducerDispatcher<Store>,
    jobs: &Rc<RefCell<Jobs>>,
    file: web_sys::File,
    read_as: ReadAs,
    note: Option<String>,
) {
    let name = file.name();
    let size = file.size() as usize;
    let generation = {
        let mut jobs = jobs.borrow_mut();
        jobs.running = None;
        jobs.generation += 1;
        jobs.generation
    };
    if let Some(error) = too_big(size, file_limit(&dom::location_search())) {
        dispatcher.dispatch(Action::LoadFailed { source: Source::File(name.into()), error });
        return;
    }
    dispatcher.dispatch(Action::Loading { name: name.clone(), size, now: dom::now_ms() });
    if read_as.format.is_some() {
        return start_worker(dispatcher, jobs, file, read_as, note);
    }
    // A report the CLI saved is read here, as a whole; anything else in the worker.
    let (dispatcher, jobs) = (dispatcher.clone(), Rc::clone(jobs));
    dom::file_head(&file.clone(), SAVED_REPORT_SNIFF_BYTES, move |head| {
        if jobs.borrow().generation != generation {
            return; // another file was chosen meanwhile
        }
        if !head.is_some_and(|head| is_saved_report(&head)) {
            return start_worker(&dispatcher, &jobs, file, read_as, note);
        }
        dom::file_bytes(&file, move |bytes| {
            if jobs.borrow().generation != generation {
                return;
            }
            dispatcher.dispatch(match bytes {
                Some(bytes) => Action::Load { name, bytes, note },
                None => Action::LoadFailed {
                    source: Source::File(name.into()),
                    error: "the browser could not read it".into(),
                },
            })
        });
    });
}

/// Compares `files` in a worker (the golden file among them, else the first, is the reference),
/// replacing (cancelling) any file being read; files that are not outputs to compare are read
/// as one file is, the first of them, with a word saying why.
pub fn compare_files(
    dispatcher: &UseReducerDispatcher<Store>,
    jobs: &Rc<RefCell<Jobs>>,
    files: Vec<web_sys::File>,
    thresholds: Thresholds,
) {
    let n = files.len();
    let size: usize = files.iter().map(|f| f.size() as usize).sum();
    let generation = {
        let mut jobs = jobs.borrow_mut();
        jobs.running = None;
        jobs.comparing = None;
        jobs.generation += 1;
        jobs.generation
    };
    if let Some(error) = too_big(size, file_limit(&dom::location_search())) {
        let source = Source::File(format!("{n} files").into());
        return dispatcher.dispatch(Action::LoadFailed { source, error });
    }
    dispatcher.dispatch(Action::Loading { name: format!("{n} files to compare"), size, now: dom::now_ms() });
    let done = {
        let (dispatcher, jobs, files) = (dispatcher.clone(), Rc::clone(jobs), files.clone());
        move |answer: Result<Vec<u8>, String>| {
            if jobs.borrow().generation != generation {
                return; // other files were chosen meanwhile
            }
            match answer.and_then(|bytes| decode_view(&bytes)) {
                Ok(view) => {
                    jobs.borrow_mut().compared = Some(files.clone());
                    dispatcher.dispatch(Action::Compared { view: Box::new(view), note: None });
                }
                // (The job that called this stays held: it ends with the next one.)
                Err(why) => {
                    let first = files[0].clone();
                    let note =
                        format!("{n} files were given but not compared ({why}); this is the first, {}.", first.name());
                    read_file(&dispatcher, &jobs, first, ReadAs { format: None, thresholds }, Some(note));
                }
            }
        }
    };
    match loader::compare((&files, 0), &thresholds, "view", Box::new(done)) {
        Ok(job) => jobs.borrow_mut().comparing = Some(job),
        Err(error) => {
            dispatcher.dispatch(Action::LoadFailed { source: Source::File(format!("{n} files").into()), error })
        }
    }
}

/// Bytes read from the start of a file to tell whether it is a report the CLI saved.
const SAVED_REPORT_SNIFF_BYTES: usize = 64;

/// Reads `file` in a worker job (see [`read_file`]).
fn start_worker(
    dispatcher: &UseReducerDispatcher<Store>,
    jobs: &Rc<RefCell<Jobs>>,
    file: web_sys::File,
    read_as: ReadAs,
    note: Option<String>,
) {
    let name = file.name();
    let on_event: Rc<dyn Fn(Event)> = {
        let (dispatcher, jobs, file, name) = (dispatcher.clone(), Rc::clone(jobs), file.clone(), name.clone());
        let note = RefCell::new(note);
        Rc::new(move |event| match event {
            Event::Progress(p) => dispatcher.dispatch(Action::Progress(p)),
            Event::Done(loaded) => {
                jobs.borrow_mut().shown = Some(file.clone());
                let note = note.borrow_mut().take();
                let (loaded, now) = (Box::new(loaded), dom::now_ms());
                dispatcher.dispatch(Action::Loaded { name: name.clone(), loaded, note, now });
            }
            Event::Failed(error) => {
                dispatcher.dispatch(Action::LoadFailed { source: Source::File(name.as_str().into()), error })
            }
        })
    };
    match loader::start(&file, read_as, on_event) {
        Ok(job) => jobs.borrow_mut().running = Some(job),
        Err(error) => dispatcher.dispatch(Action::LoadFailed { source: Source::File(name.into()), error }),
    }
}
