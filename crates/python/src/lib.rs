//! Coherency Analyzer for Python: the `coherency` module (`coherency._coherency`, re-exported by
//! `python/coherency/__init__.py`), built as an abi3 wheel by `scripts/build-python` (maturin).
//!
//! A thin shell, as the CLI is: every figure, verdict and report comes from the core, and comes
//! back as the CLI's JSON read into Python values (`analyze` gives one text's report, `judge` a
//! file's `--json` line). Batch calls release the GIL and use every core. Bad input — an unknown
//! threshold, a bad value, an unknown format — raises `ValueError` with the core's words; text
//! that cannot be judged gets its verdict ("TOO SHORT", a diagnostic), never an exception.

use std::num::NonZeroUsize;

use coherency_core::analyze::{analyze_with, setting_names, Thresholds};
use coherency_core::ingest::Format;
use coherency_core::render::json::{FileReport, Listing};
use coherency_core::verdict::{Analysed, JudgeOptions, JudgedDocument};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyAny, PyDict};

/// `thresholds` (a dict like `{"maxline.fail": 20}` or `{"maxline": {"fail": 20}}`, or None for
/// the defaults) as the core's [`Thresholds`].
fn thresholds_of(py: Python<'_>, thresholds: Option<&Bound<'_, PyDict>>) -> PyResult<Thresholds> {
    let mut t = Thresholds::SEED;
    if let Some(table) = thresholds {
        let text: String = py.import("json")?.call_method1("dumps", (table,))?.extract()?;
        let value: serde_json::Value =
            serde_json::from_slice(text.as_bytes()).map_err(|e| PyValueError::new_err(format!("thresholds: {e}")))?;
        t.apply_table(&value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(t)
}

/// A JSON text as Python values (dicts, lists, str, int, float, bool, None).
fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

fn to_json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyValueError::new_err(format!("could not write the report: {e}")))
}

/// analyze(text, thresholds=None) -> dict
///
/// The report on one text, as the CLI's JSON gives it: `verdict` ("PASS", "WARN", "FAIL"),
/// `reasons` (sentences), `onset` (byte offset where the degenerate part starts, or None),
/// `metrics`, `checks` (each with its value and thresholds), `spans` (byte ranges with their
/// kind) and the seed's verdict. `thresholds` sets thresholds by name, e.g.
/// `{"maxline.fail": 20}` (see `threshold_names()`).
#[pyfunction]
#[pyo3(signature = (text, thresholds = None))]
fn analyze<'py>(py: Python<'py>, text: &str, thresholds: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyAny>> {
    let t = thresholds_of(py, thresholds)?;
    let json = py.detach(|| to_json(&analyze_with(text, &t)))?;
    from_json(py, &json)
}

/// judge(data, format="auto", thresholds=None, worst=10, all_messages=False, judge_inputs=False) -> dict
///
/// A whole input judged as the CLI judges a file — a transcript, a log (JSONL), a stream capture
/// (SSE), an agent harness's session, or plain text, detected from its bytes unless `format`
/// names one — and given back as the CLI's `--json` line: the file's `judged_verdict`, `counts`,
/// the worst message's report at the top level, `messages` (every flagged one and the `worst`
/// others, or every one with `all_messages`), `conversations`, `diagnostics`.
/// Raises ValueError when the input holds no text to judge (the reason in words).
#[pyfunction]
#[pyo3(signature = (data, format = "auto", thresholds = None, worst = 10, all_messages = false, judge_inputs = false))]
fn judge<'py>(
    py: Python<'py>,
    data: &[u8],
    format: &str,
    thresholds: Option<&Bound<'py, PyDict>>,
    worst: usize,
    all_messages: bool,
    judge_inputs: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let chosen = match format {
        "auto" => None,
        name => Some(Format::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!("unknown format '{name}' (one of: auto, {})", format_names()))
        })?),
    };
    let options = JudgeOptions { judge_inputs, thresholds: thresholds_of(py, thresholds)? };
    let listing = if all_messages { Listing::All } else { Listing::FlaggedAndWorst(worst) };
    let json = py.detach(|| judged_line(data, chosen, &options, listing))?;
    from_json(py, &json)
}

/// The `--json` line of `data` judged under `options`.
fn judged_line(data: &[u8], chosen: Option<Format>, options: &JudgeOptions, listing: Listing) -> PyResult<String> {
    let doc = JudgedDocument::read_with(data, chosen, options);
    if let Some(why) = doc.no_text() {
        return Err(PyValueError::new_err(why));
    }
    let why_not = || doc.transcript.diagnostics.first().map_or("no text to analyse".into(), |d| d.message.clone());
    let Some(worst) = doc.report.worst() else { return Err(PyValueError::new_err(why_not())) };
    let replaced = match std::str::from_utf8(data) {
        Ok(_) => 0,
        Err(_) => data.utf8_chunks().filter(|c| !c.invalid().is_empty()).count(),
    };
    let worst_report = worst.full_report(&doc.transcript);
    let line = FileReport::new("<data>", data.len(), replaced, &doc.transcript, &doc.report, worst, &worst_report)
        .listing(listing);
    to_json(&line)
}

fn format_names() -> String {
    Format::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// verdicts(texts, thresholds=None, threads=None) -> list[str]
///
/// The verdict of each text ("PASS", "WARN" or "FAIL"; a text too short to judge PASSes), for
/// many texts at once: the GIL is released and the texts are shared out over `threads` threads
/// (default: every core). A short text that passes costs no report.
#[pyfunction]
#[pyo3(signature = (texts, thresholds = None, threads = None))]
fn verdicts<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    thresholds: Option<&Bound<'py, PyDict>>,
    threads: Option<usize>,
) -> PyResult<Vec<&'static str>> {
    let t = thresholds_of(py, thresholds)?;
    Ok(py.detach(|| {
        on_threads(&texts, threads, |text| match Analysed::of(text, &t) {
            Analysed::Passed(_) => "PASS",
            Analysed::Whole(report) => report.verdict.as_str(),
        })
    }))
}

/// analyze_batch(texts, thresholds=None, threads=None) -> list[dict]
///
/// `analyze` of each text, the GIL released and the texts shared out over `threads` threads
/// (default: every core); the reports in the texts' order.
#[pyfunction]
#[pyo3(signature = (texts, thresholds = None, threads = None))]
fn analyze_batch<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    thresholds: Option<&Bound<'py, PyDict>>,
    threads: Option<usize>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let t = thresholds_of(py, thresholds)?;
    let reports = py.detach(|| on_threads(&texts, threads, |text| to_json(&analyze_with(text, &t))));
    reports.into_iter().map(|json| from_json(py, &json?)).collect()
}

/// `f` of every text, on `threads` threads (default: the machine's cores), in the texts' order.
fn on_threads<R: Send>(texts: &[String], threads: Option<usize>, f: impl Fn(&str) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let threads = threads.unwrap_or(cores).clamp(1, texts.len().max(1));
    let chunk = texts.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = texts
            .chunks(chunk)
            .map(|part| scope.spawn(|| part.iter().map(|text| f(text)).collect::<Vec<R>>()))
            .collect();
        parts.into_iter().flat_map(|p| p.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    })
}

/// threshold_names() -> str
///
/// The thresholds `thresholds=` can set, with their defaults (as `coherency analyze --help`
/// lists them).
#[pyfunction]
fn threshold_names() -> String {
    setting_names()
}

/// Coherency Analyzer: catches repetition collapse (loops of words, lines, phrases, replies,
/// tool calls) and incoherence (gibberish, word salad, leaked chat templates, drift) in LLM
/// output, and says where it starts.
#[pymodule]
fn _coherency(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_batch, m)?)?;
    m.add_function(wrap_pyfunction!(verdicts, m)?)?;
    m.add_function(wrap_pyfunction!(judge, m)?)?;
    m.add_function(wrap_pyfunction!(threshold_names, m)?)?;
    Ok(())
}
