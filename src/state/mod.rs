//! The page's state and its one transition, [`reduce`]: state + action → new state + the
//! [`Effect`]s to run. Pure (no clock, no DOM, no parsing or analysis), so every transition is
//! unit-tested natively. What a transition needs from the browser comes in the action (the
//! clock as `now`); what it needs done comes out as effects, which the root component runs
//! after it renders: reading and analysing a text, reading a file again in the worker,
//! bringing a part of the page into view. [`Store`] fits it to Yew's `use_reducer`.
//! Here: [`State`] and [`reduce`]; [`Action`] in `action.rs`, [`Effect`] and [`read`] in
//! `effect.rs`, [`Store`] in `store.rs`.
//!
//! The state holds the current document (its transcript, reports and the analysis shown, all
//! in `Rc`s), the user's own text while a sample has replaced it in the text box, what the
//! page is doing with a file (read in a worker: its progress), and the thresholds every input
//! is judged against (the defaults unless the user changed some: a change reads the document
//! shown again).

use std::rc::Rc;

use crate::file_load::load_view::{Loading, Stage};
use crate::model::document::Document;
use crate::model::saved::SavedView;
use crate::model::Source;
use coherency_core::analyze::Thresholds;
use coherency_worker_wire::compare::CompareView;

mod action;
mod effect;
mod opener;
mod store;

pub use action::Action;
#[cfg(test)]
pub use effect::read;
pub use effect::{Effect, Reveal};
pub use opener::{Open, Opener};
pub use store::Store;

#[derive(Debug, Default, PartialEq)]
pub struct State {
    /// The latest document read; `None` until the first one, and while a saved report is shown.
    pub doc: Option<Rc<Document>>,
    /// A report the CLI saved, opened instead of a document.
    pub saved: Option<Rc<SavedView>>,
    /// Outputs compared with a reference (files dropped or chosen together), shown instead of a
    /// document.
    pub compare: Option<Rc<CompareView>>,
    /// What the user had typed before a sample replaced it, so it can be put back.
    pub stash: Option<Rc<str>>,
    /// A file being read: its name, size and progress (shown while the worker reads it).
    pub loading: Option<Rc<Loading>>,
    /// A word about the last file: it could not be read, or only the first of several was.
    pub notice: Option<Rc<str>>,
    /// What every input is judged against.
    pub thresholds: Thresholds,
    /// Where the analysis shown was opened from (`None`: the page chose it).
    pub opened_from: Option<Opener>,
    next_seq: u64,
}

impl State {
    /// The same state, field for field (shared `Rc`s), to change a few of.
    fn kept(&self) -> State {
        State {
            doc: self.doc.clone(),
            saved: self.saved.clone(),
            compare: self.compare.clone(),
            stash: self.stash.clone(),
            loading: self.loading.clone(),
            notice: self.notice.clone(),
            thresholds: self.thresholds,
            opened_from: self.opened_from,
            next_seq: self.next_seq,
        }
    }
}

/// The transition: what `action` makes of `state`, and the effects the page must run. The
/// same `Rc` comes back when nothing changes.
pub fn reduce(state: Rc<State>, action: Action) -> (Rc<State>, Vec<Effect>) {
    let wanted = |s: &State| s.doc.as_ref().and_then(|d| Some((d.seq, d.wanted.clone()?)));
    let before = wanted(&state);
    let (next, mut effects) = transition(state, action);
    // A text shown whose whole report is not here: asked of the analysis worker, once.
    if let Some((doc, wanted)) = wanted(&next).filter(|w| Some(w) != before.as_ref()) {
        let source = next.doc.as_ref().map_or(Source::Input, |d| d.source.clone());
        effects.push(Effect::Analyze { doc, source, wanted });
    }
    (next, effects)
}

/// [`reduce`] but for the whole reports a document wants.
fn transition(state: Rc<State>, action: Action) -> (Rc<State>, Vec<Effect>) {
    let seq = state.next_seq;
    // A document read or kept, the file reading over: the next number is taken.
    let next = |doc: Option<Rc<Document>>, stash, notice| {
        let (saved, compare) = (state.saved.clone(), state.compare.clone());
        let (thresholds, opened_from) = (state.thresholds, state.opened_from);
        Rc::new(State { doc, saved, compare, stash, loading: None, notice, thresholds, opened_from, next_seq: seq + 1 })
    };
    let thresholds = state.thresholds;
    let read = |source, bytes: Rc<[u8]>, chosen| Effect::Read { seq, source, bytes, chosen, select: None, thresholds };
    match action {
        Action::Analyze { text, source, replaced } => {
            let stash = match (&source, replaced) {
                (Source::Sample(_), Some(user_text)) => Some(user_text.into()),
                (Source::Sample(_), None) => state.stash.clone(),
                _ => None,
            };
            let effect = read(source, text.into_bytes().into(), None);
            (next(state.doc.clone(), stash, None), vec![effect])
        }
        Action::Loading { name, size, now } => {
            let reveal = state.loading.is_none().then_some(Effect::Reveal(Reveal::Progress));
            let loading = Some(Rc::new(Loading::new(&name, size, now)));
            let next = State { loading, notice: None, next_seq: seq, ..state.kept() };
            (Rc::new(next), reveal.into_iter().collect())
        }
        Action::Progress(p) => {
            let Some(loading) = &state.loading else { return (state, Vec::new()) };
            let mut loading = Loading::clone(loading);
            if p.stage == Stage::Preparing {
                // The page's own step: what the worker said stays on show.
                loading.progress.stage = p.stage;
                loading.progress.prepared = p.prepared;
            } else {
                loading.progress = p;
            }
            let loading = Some(Rc::new(loading));
            let next = State { loading, notice: None, next_seq: seq, ..state.kept() };
            (Rc::new(next), Vec::new())
        }
        Action::Loaded { name, loaded, note, now } => {
            let started = state.loading.as_ref().and_then(|l| l.started);
            let mut doc = Document::from_loaded(seq, Source::File(name.into()), *loaded);
            set_millis(&mut doc, started, now);
            let opened_from = opened_from_kept(&state, &doc);
            let next = State {
                opened_from,
                doc: Some(Rc::new(doc)),
                saved: None,
                compare: None,
                loading: None,
                notice: note.map(Rc::from),
                next_seq: seq + 1,
                ..state.kept()
            };
            (Rc::new(next), vec![Effect::Reveal(Reveal::Result)])
        }
        Action::Cancelled => {
            let name = state.loading.as_ref().map_or("the file".into(), |l| l.name.to_string());
            let notice = format!("Reading {name} was cancelled. What was shown before is unchanged.");
            (next(state.doc.clone(), state.stash.clone(), Some(notice.into())), Vec::new())
        }
        Action::Load { name, bytes, note } => {
            let effect = read(Source::File(name.into()), bytes.into(), None);
            (next(state.doc.clone(), state.stash.clone(), note.map(Rc::from)), vec![effect])
        }
        Action::OpenLink { bytes, chosen, select, thresholds } => {
            // A text also goes in the text box (the page puts it there); the result says it came
            // from the link until the text is analysed again from there.
            let source = Source::Link;
            let effect = Effect::Read { seq, source, bytes: bytes.into(), chosen, select, thresholds };
            let notice = "Opened from a result link: the input it carries, with the format, the text picked and the thresholds it was shown with, judged here in your browser.";
            let next =
                State { notice: Some(notice.into()), loading: None, thresholds, next_seq: seq + 1, ..state.kept() };
            (Rc::new(next), vec![effect])
        }
        Action::SetThresholds(thresholds) if thresholds == state.thresholds => (state, Vec::new()),
        Action::SetThresholds(thresholds) => {
            let effect = state.doc.as_ref().map(|d| match &d.bytes {
                Some(bytes) => {
                    let (source, bytes, chosen, select) = (d.source.clone(), Rc::clone(bytes), d.chosen, d.selected);
                    Effect::Read { seq, source, bytes, chosen, select, thresholds }
                }
                // A file read in the worker is read again there.
                None => Effect::ReadFileAgain { chosen: d.chosen, thresholds },
            });
            let next = State { thresholds, next_seq: seq + 1, ..state.kept() };
            (Rc::new(next), effect.into_iter().collect())
        }
        Action::LinkFailed(error) => {
            let notice =
                format!("Could not open the result link: {error}. Ask for the link again, or for the report file.");
            (next(state.doc.clone(), state.stash.clone(), Some(notice.into())), Vec::new())
        }
        Action::LoadFailed { source, error } => {
            let what = source.could_not();
            let notice = format!("Could not {what}: {error}. What was shown before is unchanged.");
            (next(state.doc.clone(), state.stash.clone(), Some(notice.into())), Vec::new())
        }
        Action::ChooseFormat(chosen) => match state.doc.as_ref().map(|d| (d.source.clone(), d.bytes.clone())) {
            Some((source, Some(bytes))) => {
                let effect = read(source, bytes, chosen);
                (next(state.doc.clone(), state.stash.clone(), state.notice.clone()), vec![effect])
            }
            // A file read in the worker is read again there.
            Some((_, None)) => (state, vec![Effect::ReadFileAgain { chosen, thresholds }]),
            None => (state, Vec::new()),
        },
        Action::Analyzed { doc, wanted, report } => {
            match state.doc.as_ref().filter(|d| d.seq == doc).and_then(|d| d.analysed(&wanted, *report)) {
                Some(doc) => (Rc::new(State { doc: Some(Rc::new(doc)), ..state.kept() }), Vec::new()),
                None => (state, Vec::new()),
            }
        }
        Action::Select(Open { index, from, reveal }) => {
            let reveal = if reveal { vec![Effect::Reveal(Reveal::Detail)] } else { Vec::new() };
            match &state.doc {
                Some(doc) if doc.selected != Some(index) => {
                    let doc = Some(Rc::new(doc.select(seq, index)));
                    let next = State { doc, opened_from: Some(from), next_seq: seq + 1, ..state.kept() };
                    (Rc::new(next), reveal)
                }
                // The same text from elsewhere: shown there now.
                Some(_) if state.opened_from != Some(from) => {
                    (Rc::new(State { opened_from: Some(from), ..state.kept() }), reveal)
                }
                // The same again: brought into view again, if asked.
                Some(_) => (state, reveal),
                None => (state, Vec::new()),
            }
        }
        Action::Read { mut doc, started, now } => {
            // A document read after a newer one was shown stays unshown.
            if state.doc.as_ref().is_some_and(|shown| shown.seq > doc.seq) {
                return (state, Vec::new());
            }
            set_millis(&mut doc, started, now);
            let opened_from = opened_from_kept(&state, &doc);
            let next = State { doc: Some(Rc::new(*doc)), saved: None, compare: None, opened_from, ..state.kept() };
            (Rc::new(next), vec![Effect::Reveal(Reveal::Result)])
        }
        Action::ReadSaved(view) => {
            if state.doc.as_ref().is_some_and(|shown| shown.seq > view.seq) {
                return (state, Vec::new());
            }
            let next = State { doc: None, saved: Some(Rc::new(*view)), compare: None, ..state.kept() };
            (Rc::new(next), vec![Effect::Reveal(Reveal::Result)])
        }
        Action::Compared { view, note } => {
            let (compare, notice) = (Some(Rc::new(*view)), note.map(Rc::from));
            let next =
                State { doc: None, saved: None, compare, loading: None, notice, next_seq: seq + 1, ..state.kept() };
            (Rc::new(next), vec![Effect::Reveal(Reveal::Result)])
        }
    }
}

/// Where the analysis of `doc`, just read, was opened from: where the one shown before was, when
/// it is the same input's same text read again (other thresholds, another format), else
/// nowhere (the page chose it).
fn opened_from_kept(state: &State, doc: &Document) -> Option<Opener> {
    let shown = state.doc.as_ref()?;
    let same_bytes = match (&shown.bytes, &doc.bytes) {
        (Some(a), Some(b)) => a == b,
        _ => shown.size == doc.size,
    };
    (same_bytes && shown.source == doc.source && shown.selected == doc.selected).then_some(state.opened_from).flatten()
}

/// Records how long reading and analysing took, on the document and on plain text's analysis
/// (whose verdict card says it).
fn set_millis(doc: &mut Document, started: Option<f64>, now: Option<f64>) {
    doc.millis = started.zip(now).map(|(a, b)| b - a);
    if doc.is_plain_text() {
        if let Some(a) = doc.detail.as_mut().and_then(Rc::get_mut) {
            a.millis = doc.millis;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file_load::load_view::Progress;
    use coherency_core::analyze::Verdict;
    use coherency_core::ingest::Format;
    use coherency_core::judge::AnalysisProgress;
    use coherency_core::judge::JudgedDocument;

    /// `action`, then the texts its effects ask for read as the page reads them (the clock at
    /// 10 then 12): the state after, and the effects left for the page.
    fn settle(state: &Rc<State>, action: Action) -> (Rc<State>, Vec<Effect>) {
        let (mut state, effects) = reduce(Rc::clone(state), action);
        let mut left = Vec::new();
        for effect in effects {
            match effect {
                Effect::Read { seq, source, bytes, chosen, select, thresholds } => {
                    let action = read(seq, source, bytes, (chosen, select, thresholds), Some(10.0), || Some(12.0));
                    let (next, more) = reduce(state, action);
                    state = next;
                    left.extend(more);
                }
                other => left.push(other),
            }
        }
        (state, left)
    }

    fn analyze(text: &str, source: Source, replaced: Option<&str>) -> Action {
        Action::Analyze { text: text.to_string(), source, replaced: replaced.map(str::to_string) }
    }

    fn fixture(name: &str) -> Vec<u8> {
        let path = coherency_test_support::fixture(&format!("formats/{name}"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// What the worker sends back for `bytes`.
    fn loaded(bytes: &[u8]) -> Box<JudgedDocument> {
        Box::new(JudgedDocument::read(bytes, None))
    }

    fn shown_text(state: &State) -> Option<String> {
        state.doc.as_ref()?.detail.as_ref().map(|a| a.text.to_string())
    }

    #[test]
    fn analyzing_asks_the_page_to_read_then_shows_the_result() {
        let (state, effects) = reduce(Rc::default(), analyze("Let me look again.\n", Source::Input, None));
        assert_eq!(state.doc, None, "nothing is read in the transition");
        let [Effect::Read { seq: 0, source: Source::Input, bytes, chosen: None, select: None, .. }] =
            effects.as_slice()
        else {
            panic!("one read: {effects:?}")
        };
        assert_eq!(&bytes[..], b"Let me look again.\n");

        let text = "Let me look again.\n".repeat(20);
        let (state, effects) = settle(&state, analyze(&text, Source::Input, None));
        assert_eq!(effects, [Effect::Reveal(Reveal::Result)]);
        let doc = state.doc.as_ref().expect("a document");
        assert_eq!((doc.source.clone(), doc.millis), (Source::Input, Some(2.0)));
        let analysis = doc.detail.as_ref().expect("plain text's analysis");
        assert_eq!((analysis.report.verdict, analysis.millis), (Verdict::Fail, Some(2.0)));
        assert_eq!(shown_text(&state), Some(text));
    }

    #[test]
    fn a_text_whose_report_was_summed_up_is_shown_once_the_worker_made_it() {
        let bytes = fixture("deepseek_reasoning_loop.sse");
        let loaded = Action::Loaded { name: "r.sse".into(), loaded: loaded(&bytes), note: None, now: None };
        let (state, effects) = reduce(Rc::default(), loaded);
        assert!(!effects.iter().any(|e| matches!(e, Effect::Analyze { .. })), "the worst text's report is whole");
        let doc = state.doc.clone().expect("a document");
        let passed = doc.rows.iter().find(|r| r.verdict == Verdict::Pass).expect("a passing row").report;
        let open = Action::Select(Open::clicked(passed, Opener::Table));
        let (state, effects) = reduce(state, open);
        let asked: Vec<_> = effects.iter().filter(|e| matches!(e, Effect::Analyze { .. })).collect();
        let [Effect::Analyze { doc: seq, wanted, .. }] = asked.as_slice() else { panic!("one ask: {effects:?}") };
        let shown = state.doc.as_ref().expect("a document");
        let before = doc.detail.as_ref().map(|a| a.seq);
        let meanwhile = shown.detail.as_ref().map(|a| a.seq);
        assert_eq!((shown.selected, meanwhile), (Some(passed), before), "selected; the text before shown meanwhile");
        // Another action meanwhile does not ask again.
        let (state, effects) = reduce(state, Action::Progress(Progress::default()));
        assert!(!effects.iter().any(|e| matches!(e, Effect::Analyze { .. })));
        let report = Box::new(coherency_core::analyze::analyze(&wanted.text));
        let stale = Action::Analyzed { doc: seq + 1, wanted: wanted.clone(), report: report.clone() };
        let (state, _) = reduce(state, stale);
        let still = state.doc.as_ref().and_then(|d| d.detail.as_ref().map(|a| a.seq));
        assert_eq!(still, before, "another document's answer is not shown");
        let (state, _) = reduce(state, Action::Analyzed { doc: *seq, wanted: wanted.clone(), report });
        let detail = state.doc.as_ref().and_then(|d| d.detail.clone()).expect("shown");
        assert_eq!((detail.report.verdict, detail.text.len()), (Verdict::Pass, wanted.text.len()));
    }

    #[test]
    fn a_sample_keeps_the_users_text_until_it_is_put_back() {
        let (state, _) = settle(&Rc::default(), analyze("my own words", Source::Input, None));
        let (state, _) = settle(&state, analyze("sample one", Source::Sample("one"), Some("my own words")));
        assert_eq!(state.stash.as_deref(), Some("my own words"));
        assert_eq!(shown_text(&state).as_deref(), Some("sample one"));
        // Another sample over the first: the user's text is still the one kept.
        let (state, _) = settle(&state, analyze("sample two", Source::Sample("two"), None));
        assert_eq!(state.stash.as_deref(), Some("my own words"));
        // Restore: the kept text is analysed as the user's again, and nothing is kept.
        let (state, _) = settle(&state, analyze("my own words", Source::Input, None));
        assert_eq!((state.stash.as_deref(), shown_text(&state).as_deref()), (None, Some("my own words")));
    }

    #[test]
    fn a_file_read_in_the_worker_shows_progress_then_its_result() {
        let (before, _) = settle(&Rc::default(), analyze("shown before", Source::Input, None));
        let (state, effects) =
            reduce(Rc::clone(&before), Action::Loading { name: "f.sse".into(), size: 9, now: Some(100.0) });
        assert_eq!(effects, [Effect::Reveal(Reveal::Progress)]);
        let loading = state.loading.clone().expect("loading");
        assert_eq!((&*loading.name, loading.size, loading.started), ("f.sse", 9, Some(100.0)));
        assert_eq!(state.doc, before.doc, "what was shown stays meanwhile");
        // Another file while one is read: the panel is already in view.
        let (state, effects) = reduce(state, Action::Loading { name: "g.sse".into(), size: 9, now: Some(100.0) });
        assert!(effects.is_empty());

        let analysis = AnalysisProgress {
            texts_done: 1,
            texts: 3,
            bytes_done: 5,
            bytes: 9,
            worst: Some(Verdict::Warn),
            preview: None,
        };
        let worker =
            Progress { stage: Stage::Analyzing, read: 9, messages: Some(3), analysis: Some(analysis), prepared: None };
        let (state, _) = reduce(state, Action::Progress(worker.clone()));
        assert_eq!(state.loading.as_ref().map(|l| &l.progress), Some(&worker));
        // The page's own step keeps what the worker said on show.
        let preparing = Progress { stage: Stage::Preparing, prepared: Some((2, 7)), ..Progress::default() };
        let (state, _) = reduce(state, Action::Progress(preparing));
        let p = &state.loading.as_ref().expect("loading").progress;
        assert_eq!(
            (p.stage, p.prepared, p.messages, p.analysis),
            (Stage::Preparing, Some((2, 7)), Some(3), Some(analysis))
        );

        let bytes = fixture("deepseek_reasoning_loop.sse");
        let note = Some("2 files were dropped; this is the first, g.sse.".to_string());
        let (state, effects) =
            reduce(state, Action::Loaded { name: "g.sse".into(), loaded: loaded(&bytes), note, now: Some(350.0) });
        assert_eq!(effects, [Effect::Reveal(Reveal::Result)]);
        let doc = state.doc.as_ref().expect("the file's document");
        assert_eq!(
            (doc.source.clone(), doc.millis, doc.bytes.is_none()),
            (Source::File("g.sse".into()), Some(250.0), true)
        );
        assert_eq!(state.loading, None);
        assert_eq!(state.notice.as_deref(), Some("2 files were dropped; this is the first, g.sse."));
        // Progress after the end changes nothing.
        let (after, effects) = reduce(Rc::clone(&state), Action::Progress(Progress::default()));
        assert!(Rc::ptr_eq(&after, &state) && effects.is_empty());
    }

    #[test]
    fn cancelling_or_failing_keeps_what_was_shown_and_says_so() {
        let (before, _) = settle(&Rc::default(), analyze("shown before", Source::Input, None));
        let (state, _) = reduce(Rc::clone(&before), Action::Loading { name: "big.jsonl".into(), size: 9, now: None });
        let (state, effects) = reduce(state, Action::Cancelled);
        assert!(effects.is_empty());
        assert_eq!((state.doc.clone(), state.loading.clone()), (before.doc.clone(), None));
        assert_eq!(
            state.notice.as_deref(),
            Some("Reading big.jsonl was cancelled. What was shown before is unchanged.")
        );

        let (state, _) = reduce(Rc::clone(&before), Action::Loading { name: "big.jsonl".into(), size: 9, now: None });
        let failed = Action::LoadFailed { source: Source::File("big.jsonl".into()), error: "it is too big".into() };
        let (state, effects) = reduce(state, failed);
        assert!(effects.is_empty());
        assert_eq!((state.doc.clone(), state.loading.clone()), (before.doc.clone(), None));
        let notice = "Could not read the file big.jsonl: it is too big. What was shown before is unchanged.";
        assert_eq!(state.notice.as_deref(), Some(notice));
        // A new text clears the word about the file.
        let (state, _) = settle(&state, analyze("next", Source::Input, None));
        assert_eq!(state.notice, None);
    }

    #[test]
    fn a_failure_names_what_failed_in_the_words_of_its_source() {
        let (before, _) = settle(&Rc::default(), analyze("shown before", Source::Input, None));
        let failed = |source: Source| {
            let (state, effects) =
                reduce(Rc::clone(&before), Action::LoadFailed { source, error: "out of memory".into() });
            assert!(effects.is_empty());
            assert_eq!(state.doc, before.doc);
            state.notice.as_deref().unwrap_or_default().to_string()
        };
        let unchanged = ": out of memory. What was shown before is unchanged.";
        assert_eq!(failed(Source::Input), format!("Could not analyse the pasted text{unchanged}"));
        assert_eq!(failed(Source::Sample("loop")), format!("Could not analyse the sample loop{unchanged}"));
        assert_eq!(failed(Source::Link), format!("Could not analyse the input the result link carried{unchanged}"));
        assert_eq!(failed(Source::File("a.jsonl".into())), format!("Could not read the file a.jsonl{unchanged}"));
    }

    #[test]
    fn choosing_a_format_reads_the_same_bytes_again_where_they_are() {
        // Bytes in memory (a live run's capture): read again on the page, the note kept.
        let bytes = fixture("vllm.sse");
        let note = Some("The live run's response body, read as a file.".to_string());
        let (state, effects) =
            settle(&Rc::default(), Action::Load { name: "live.sse".into(), bytes: bytes.clone(), note });
        assert_eq!(effects, [Effect::Reveal(Reveal::Result)]);
        assert_eq!(state.doc.as_ref().map(|d| d.format()), Some(Format::Sse));
        let (state, effects) = settle(&state, Action::ChooseFormat(Some(Format::Text)));
        assert_eq!(effects, [Effect::Reveal(Reveal::Result)]);
        let doc = state.doc.as_ref().expect("a document");
        assert_eq!((doc.format(), doc.detected, doc.size), (Format::Text, Format::Sse, bytes.len()));
        assert_eq!(state.notice.as_deref(), Some("The live run's response body, read as a file."));

        // A file read in the worker: read again there; nothing changes meanwhile.
        let (state, _) = settle(&state, Action::Loading { name: "f.sse".into(), size: bytes.len(), now: None });
        let (state, _) =
            reduce(state, Action::Loaded { name: "f.sse".into(), loaded: loaded(&bytes), note: None, now: None });
        let (after, effects) = reduce(Rc::clone(&state), Action::ChooseFormat(None));
        assert!(Rc::ptr_eq(&after, &state));
        assert_eq!(effects, [Effect::ReadFileAgain { chosen: None, thresholds: Thresholds::SEED }]);

        // Nothing shown: nothing to read again.
        let (after, effects) = reduce(Rc::default(), Action::ChooseFormat(None));
        assert_eq!((after.doc.clone(), effects), (None, Vec::new()));
    }

    #[test]
    fn selecting_a_message_shows_it_and_brings_it_into_view() {
        let bytes = fixture("deepseek_reasoning_loop.sse");
        let (state, _) = settle(&Rc::default(), Action::Load { name: "f.sse".into(), bytes, note: None });
        let doc = state.doc.clone().expect("a document");
        let other = doc.rows.iter().map(|r| r.report).find(|&r| Some(r) != doc.selected).expect("another row");
        let (state, effects) = reduce(state, Action::Select(Open::clicked(other, Opener::Table)));
        assert_eq!(effects, [Effect::Reveal(Reveal::Detail)]);
        let shown = state.doc.as_ref().expect("a document");
        assert_eq!((shown.seq, shown.selected), (doc.seq, Some(other)), "the same document, another message");
        assert_eq!(state.opened_from, Some(Opener::Table));
        // Picking it again changes nothing but brings it into view again.
        let (after, effects) = reduce(Rc::clone(&state), Action::Select(Open::clicked(other, Opener::Table)));
        assert!(Rc::ptr_eq(&after, &state));
        assert_eq!(effects, [Effect::Reveal(Reveal::Detail)]);
        // Stepping to it from a turn: the same text, now opened from there, and the page stays.
        let turn = Opener::Turn { conversation: 0, row: 2, turn: 2 };
        let (after, effects) =
            reduce(Rc::clone(&state), Action::Select(Open { index: other, from: turn, reveal: false }));
        assert_eq!((after.opened_from, effects), (Some(turn), Vec::new()));
        assert_eq!(after.doc.as_ref().and_then(|d| d.selected), Some(other));
        // Read again against other thresholds: still opened from that turn.
        let t = Thresholds { maxline_warn: 7, ..Thresholds::SEED };
        let (again, _) = settle(&after, Action::SetThresholds(t));
        assert_eq!((again.opened_from, again.doc.as_ref().and_then(|d| d.selected)), (Some(turn), Some(other)));
        // Another input: the page chooses again.
        let (other_doc, _) = settle(&again, analyze("Something else entirely.\n", Source::Input, None));
        assert_eq!(other_doc.opened_from, None);
    }

    #[test]
    fn a_result_link_opens_its_input_in_its_format_with_its_selection() {
        let bytes = fixture("deepseek_reasoning_loop.sse");
        let direct = Document::read(1, Source::Input, bytes.clone().into(), None);
        let other = direct.rows.iter().map(|r| r.report).find(|&r| Some(r) != direct.selected).expect("another row");
        let fragment = coherency_core::render::result_link::encode(&coherency_core::render::result_link::SharedInput {
            bytes: bytes.clone(),
            format: Some(Format::Sse),
            selected: Some(other),
            thresholds: Thresholds::SEED,
        })
        .unwrap();
        let shared = coherency_core::render::result_link::decode(&fragment).unwrap();
        let (bytes, chosen, select, thresholds) = (shared.bytes, shared.format, shared.selected, shared.thresholds);
        let action = Action::OpenLink { bytes, chosen, select, thresholds };
        let (state, effects) = settle(&Rc::new(State::default()), action);
        let doc = state.doc.as_ref().expect("a document");
        assert_eq!((doc.source.clone(), doc.chosen, doc.selected), (Source::Link, Some(Format::Sse), Some(other)));
        assert_eq!(doc.report.verdict, direct.report.verdict);
        assert!(state.notice.as_deref().is_some_and(|n| n.contains("result link")));
        assert_eq!(effects, vec![Effect::Reveal(Reveal::Result)]);
        // A selection the document does not have is ignored; bytes that are not text are a file.
        let action = Action::OpenLink {
            bytes: vec![0xff, 0xfe, b'a'],
            chosen: None,
            select: Some(99),
            thresholds: Thresholds::SEED,
        };
        let (state, _) = settle(&Rc::new(State::default()), action);
        let doc = state.doc.as_ref().expect("a document");
        assert!(doc.source == Source::Link && doc.selected != Some(99));
        let (state, _) = settle(&Rc::new(State::default()), Action::LinkFailed("it is damaged".into()));
        assert!(state
            .notice
            .as_deref()
            .is_some_and(|n| n.starts_with("Could not open the result link: it is damaged")));
    }

    fn refrain() -> String {
        coherency_test_support::textgen::refrain_poem()
    }

    #[test]
    fn changed_thresholds_read_the_document_shown_again_and_travel_in_a_link() {
        let (state, _) = settle(&Rc::default(), analyze(&refrain(), Source::Input, None));
        let verdict = |s: &State| s.doc.as_ref().and_then(|d| d.report.verdict);
        assert_eq!(verdict(&state), Some(Verdict::Warn));
        let mut loose = Thresholds::SEED;
        loose.assign("maxline.warn=7").unwrap();
        let (state, effects) = settle(&state, Action::SetThresholds(loose));
        assert_eq!((verdict(&state), state.thresholds), (Some(Verdict::Pass), loose));
        assert_eq!(effects, vec![Effect::Reveal(Reveal::Result)]);
        assert_eq!(state.doc.as_ref().unwrap().thresholds(), loose, "the document says what it was judged against");
        // The same thresholds again change nothing; the next text is judged against them too.
        let (same, effects) = reduce(Rc::clone(&state), Action::SetThresholds(loose));
        assert!(Rc::ptr_eq(&same, &state) && effects.is_empty());
        let (state, _) = settle(&state, analyze(&format!("{}\n", refrain()), Source::Input, None));
        assert_eq!(verdict(&state), Some(Verdict::Pass));
        // A file read in the worker is read again there, against the new thresholds.
        let (state, _) = settle(
            &state,
            Action::Loaded { name: "f.txt".into(), loaded: loaded(refrain().as_bytes()), note: None, now: None },
        );
        let (_, effects) = settle(&state, Action::SetThresholds(Thresholds::SEED));
        assert_eq!(effects, [Effect::ReadFileAgain { chosen: None, thresholds: Thresholds::SEED }]);
        // A link's thresholds become the page's.
        let action = Action::OpenLink { bytes: refrain().into_bytes(), chosen: None, select: None, thresholds: loose };
        let (state, _) = settle(&Rc::default(), action);
        assert_eq!((verdict(&state), state.thresholds), (Some(Verdict::Pass), loose));
    }

    #[test]
    fn a_report_the_cli_saved_is_shown_as_such_until_a_text_is_read() {
        let saved = r#"{"schema_version":1,"file":"gone.log","error":"No such file or directory"}"#;
        let (state, effects) = settle(&Rc::default(), analyze(saved, Source::Input, None));
        assert_eq!(effects, [Effect::Reveal(Reveal::Result)]);
        let view = state.saved.as_ref().expect("the saved report is shown");
        assert_eq!((state.doc.as_ref().map(|d| d.seq), &*view.name), (None, "pasted text"));
        assert_eq!(view.reports.files[0].outcome, Err("No such file or directory".to_string()));
        // Read as a text when a format is chosen; any other input replaces it.
        let action =
            read(5, Source::Input, saved.as_bytes().into(), (Some(Format::Text), None, Thresholds::SEED), None, || {
                None
            });
        assert!(matches!(action, Action::Read { .. }));
        let (state, _) = settle(&state, analyze("Hello there, a plain reply.", Source::Input, None));
        assert!(state.saved.is_none() && state.doc.is_some());
    }

    #[test]
    fn a_text_read_after_a_newer_document_was_shown_stays_unshown() {
        let (state, effects) = reduce(Rc::default(), analyze("older", Source::Input, None));
        let (state, _) = settle(&state, analyze("newer", Source::Input, None));
        let Some(Effect::Read { seq, source, bytes, chosen, .. }) = effects.into_iter().next() else {
            panic!("a read")
        };
        let doc = Box::new(Document::read(seq, source, bytes, chosen));
        let (after, effects) = reduce(Rc::clone(&state), Action::Read { doc, started: None, now: None });
        assert!(Rc::ptr_eq(&after, &state) && effects.is_empty());
        assert_eq!(shown_text(&after).as_deref(), Some("newer"));
    }

    #[test]
    fn a_comparison_is_shown_instead_of_a_document_until_another_input_is_read() {
        let (state, _) = settle(&Rc::default(), analyze("Hello there, a plain reply.", Source::Input, None));
        let (state, _) = reduce(state, Action::Loading { name: "2 files".into(), size: 10, now: None });
        let view = CompareView { verdict: "WARN".into(), sentence: "They part.".into(), ..CompareView::default() };
        let note = Some("Compared: ref.sse is the reference.".to_string());
        let (state, effects) = reduce(state, Action::Compared { view: Box::new(view.clone()), note });
        assert_eq!(effects, [Effect::Reveal(Reveal::Result)]);
        assert_eq!(state.compare.as_deref(), Some(&view));
        assert!(state.doc.is_none() && state.saved.is_none() && state.loading.is_none());
        assert_eq!(state.notice.as_deref(), Some("Compared: ref.sse is the reference."));
        // A failure to read something else keeps it; a text read replaces it.
        let failed = Action::LoadFailed { source: Source::File("x.sse".into()), error: "gone".into() };
        let (state, _) = reduce(state, failed);
        assert!(state.compare.is_some());
        let (state, _) = settle(&state, analyze("Another reply.", Source::Input, None));
        assert!(state.compare.is_none() && state.doc.is_some());
    }
}
