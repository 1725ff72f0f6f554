//! `analyze` over its inputs: each read and judged by the core, many at once on every core
//! (rayon) and each one's texts on every core too (a log of 300,000 records is one input),
//! each file's report written as soon as it and every input before it are done, so
//! the output streams in the inputs' order (one input is written straight to standard output
//! as it is made: a log's JSON line can be hundreds of megabytes). A progress bar on standard
//! error appears when the run takes over a second (see [`crate::progress`]).

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use coherency_core::analyze::Verdict;
use coherency_core::ingest::Format;
use coherency_core::judge::{text_of, Analyzed, JudgeOptions, JudgedDocument};
use coherency_core::render::json::Listing;
use coherency_core::render::terminal::safe_value;
use coherency_core::render::text::{cannot_read, skipped, text_report, FileCounts};
use coherency_core::render::{self, DocumentSummary};
use rayon::prelude::*;

use crate::colour::styled;
use crate::inputs::Input;
use crate::progress::Progress;

/// What `analyze` prints for each file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Text,
    Json,
    Markdown,
    Html,
}

/// How every input is read, judged and shown.
#[derive(Clone, Debug)]
pub struct Settings {
    pub output: Output,
    /// `None`: each input's detected format.
    pub format: Option<Format>,
    pub options: JudgeOptions,
    /// Which messages `--json` lists.
    pub listing: Listing,
    /// Colour in the text output.
    pub colour: bool,
    /// A Parquet file's columns: of texts (`--text-column`; by default the first of
    /// [`crate::parquet_rows::TEXT_COLUMNS`] it has) or conversations, and of ids.
    pub columns: crate::parquet_rows::Columns,
}

/// What became of one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputOutcome {
    Judged(Verdict),
    /// Could not be read, or held no text.
    Unreadable,
    /// A binary file found in a directory, passed over.
    Skipped,
}

/// What a run found: every input's outcome, in order.
#[derive(Debug, Default)]
pub struct Finished {
    pub outcomes: Vec<InputOutcome>,
}

impl Finished {
    /// The worst judged verdict (`None`: nothing was judged).
    pub fn worst(&self) -> Option<Verdict> {
        self.outcomes.iter().filter_map(|o| if let InputOutcome::Judged(v) = o { Some(*v) } else { None }).max()
    }

    pub fn any_unreadable(&self) -> bool {
        self.outcomes.contains(&InputOutcome::Unreadable)
    }

    /// How many files got each outcome.
    pub fn counts(&self) -> FileCounts {
        let mut counts = FileCounts::default();
        for o in &self.outcomes {
            match o {
                InputOutcome::Judged(v) => counts.add(*v),
                InputOutcome::Unreadable => counts.unreadable += 1,
                InputOutcome::Skipped => counts.skipped += 1,
            }
        }
        counts
    }
}

/// One input's report, made: what goes to standard output, the lines for standard error, and
/// what became of it.
struct Written {
    stdout: Vec<u8>,
    stderr: Vec<String>,
    outcome: InputOutcome,
}

/// Analyses every input and writes their reports to `out` in order. Stops writing (and
/// starting new inputs) when `out` is gone (a closed pipe).
pub fn run(inputs: &[Input], settings: &Settings, out: &mut dyn Write, progress: &Progress) -> Finished {
    let mut finished = Finished::default();
    if let [only] = inputs {
        // One input: written straight out as it is made, nothing held.
        let mut stderr = Vec::new();
        // A closed standard output is nothing left to report to: the outcome stands.
        let (outcome, _written) =
            analyze_and_write(only, settings, progress, &mut ClearFirst { out, progress }, &mut stderr);
        progress.finish();
        for line in stderr {
            eprintln!("{line}");
        }
        finished.outcomes.push(outcome);
        return finished;
    }
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel::<(usize, Written)>();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            inputs.par_iter().enumerate().for_each_with(sender, |sender, (i, input)| {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
                // Writing into memory cannot fail.
                let (outcome, _) = analyze_and_write(input, settings, &NoTextProgress, &mut stdout, &mut stderr);
                let written = Written { stdout, stderr, outcome };
                // The receiver is gone only when writing stopped.
                let _ = sender.send((i, written));
            });
        });
        let mut pending: BTreeMap<usize, Written> = BTreeMap::new();
        let mut next = 0;
        for (i, written) in results.iter() {
            pending.insert(i, written);
            while let Some(w) = pending.remove(&next) {
                next += 1;
                progress.advance();
                let result = progress.suspend(|| {
                    for line in &w.stderr {
                        eprintln!("{line}");
                    }
                    out.write_all(&w.stdout).and_then(|()| out.flush())
                });
                finished.outcomes.push(w.outcome);
                if result.is_err() {
                    // Standard output is gone: nothing left to report to.
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
            }
        }
    });
    progress.finish();
    finished
}

/// Progress through one input's texts (the bar of a run over one input; a run over many
/// counts files).
pub trait TextProgress: Sync {
    /// `total` texts are to be analysed.
    fn start(&self, total: usize);
    /// One more text analysed.
    fn advance(&self);
}

struct NoTextProgress;

impl TextProgress for NoTextProgress {
    fn start(&self, _: usize) {}
    fn advance(&self) {}
}

impl TextProgress for Progress {
    fn start(&self, total: usize) {
        self.count_texts(total);
    }
    fn advance(&self) {
        Progress::advance(self);
    }
}

/// A writer that clears the progress bar before the first byte it writes.
struct ClearFirst<'a> {
    out: &'a mut dyn Write,
    progress: &'a Progress,
}

impl Write for ClearFirst<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.progress.finish();
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

fn read(input: &Input) -> io::Result<Vec<u8>> {
    match input {
        Input::Stdin => {
            let mut buf = Vec::new();
            io::stdin().lock().read_to_end(&mut buf)?;
            Ok(buf)
        }
        Input::Named(path) | Input::Found(path) => std::fs::read(path),
        Input::Unlisted(_, why) => Err(io::Error::other(why.clone())),
    }
}

/// Reads, judges and writes one input: what became of it, and `Err` when `out` is gone.
fn analyze_and_write(
    input: &Input,
    settings: &Settings,
    texts: &dyn TextProgress,
    out: &mut dyn Write,
    stderr: &mut Vec<String>,
) -> (InputOutcome, io::Result<()>) {
    let file = input.name();
    let json = settings.output == Output::Json;
    let mut bytes = match read(input) {
        Ok(bytes) => bytes,
        Err(e) => return (InputOutcome::Unreadable, unreadable(out, stderr, json, &file, e.to_string())),
    };
    // A Parquet dataset is read as the JSONL log of its rows (one conversation a row).
    if crate::parquet_rows::is_parquet(&bytes) {
        match crate::parquet_rows::rows_as_jsonl(bytes, &settings.columns) {
            Ok(rows) => {
                if rows.skipped > 0 {
                    stderr.push(format!(
                        "coherency: {}: {} of {} rows have no text in column '{}' (not judged)",
                        safe_value(&file),
                        rows.skipped,
                        rows.rows,
                        safe_value(&rows.column)
                    ));
                }
                bytes = rows.jsonl;
            }
            Err(why) => return (InputOutcome::Unreadable, unreadable(out, stderr, json, &file, why)),
        }
    }
    // Its texts analysed on every core (many files share the cores through rayon's pool), then
    // judged in order: the same document as judging it alone.
    let thresholds = settings.options.thresholds;
    let doc = JudgedDocument::read_analyzing(&bytes, settings.format, &settings.options, |t, keys| {
        // The texts as `str`s (the transcript shares them in `Rc`s, which stay on this thread).
        let keyed: Vec<_> = keys.into_iter().filter_map(|key| Some((key, text_of(t, key)?))).collect();
        texts.start(keyed.len());
        keyed
            .par_iter()
            .with_min_len(64)
            .map(|(key, text)| {
                let analysed = Analyzed::of(text, &thresholds);
                texts.advance();
                (*key, analysed)
            })
            .collect::<HashMap<_, _>>()
    });
    if let Some(why) = doc.no_text() {
        return (InputOutcome::Unreadable, unreadable(out, stderr, json, &file, why));
    }
    let JudgedDocument { transcript, report: analysis, detected, .. } = doc;
    let why_not = || transcript.diagnostics.first().map_or("no text to analyse".into(), |d| d.message.clone());
    if detected == Format::Binary && settings.format.is_none() && matches!(input, Input::Found(_)) {
        stderr.push(skipped(&file, &why_not()));
        return (InputOutcome::Skipped, Ok(()));
    }
    let (Some(worst), Some(verdict)) = (analysis.worst(), analysis.verdict) else {
        return (InputOutcome::Unreadable, unreadable(out, stderr, json, &file, why_not()));
    };
    let input_bytes = bytes.len();
    let replaced = render::json::invalid_utf8_sequences(&bytes);
    drop(bytes);
    let worst_report = worst.full_report(&transcript);
    let written = match settings.output {
        Output::Json => {
            let line = render::json::FileReport::new(
                &file,
                input_bytes,
                replaced,
                &transcript,
                &analysis,
                worst,
                &worst_report,
            )
            .listing(settings.listing);
            let mut buffered = io::BufWriter::with_capacity(1 << 16, &mut *out);
            serde_json::to_writer(&mut buffered, &line)
                .map_err(io::Error::other)
                .and_then(|()| writeln!(buffered))
                .and_then(|()| buffered.flush())
        }
        Output::Markdown => {
            writeln!(out, "{}", render::markdown::markdown(&DocumentSummary::new(&file, &transcript, &analysis)))
        }
        Output::Html => write!(out, "{}", render::html::html(&DocumentSummary::new(&file, &transcript, &analysis))),
        Output::Text => {
            let thresholds = &settings.options.thresholds;
            let report =
                text_report(&file, replaced, &transcript, &analysis, &worst_report, thresholds, settings.listing);
            out.write_all(styled(&report, settings.colour).as_bytes())
        }
    };
    (InputOutcome::Judged(verdict), written)
}

/// An input that could not be read or holds no text: said on standard error, and with
/// `--json` as the file's line.
fn unreadable(out: &mut dyn Write, stderr: &mut Vec<String>, json: bool, file: &str, why: String) -> io::Result<()> {
    stderr.push(cannot_read(file, &why));
    if json {
        serde_json::to_writer(&mut *out, &render::json::FileError::new(file, why)).map_err(io::Error::other)?;
        writeln!(out)?;
    }
    Ok(())
}
