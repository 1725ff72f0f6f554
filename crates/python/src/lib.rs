//! Coherency Analyzer for Python: the `coherency` module (`coherency._coherency`, re-exported by
//! `python/coherency/__init__.py`), built as an abi3 wheel by `scripts/build-python` (maturin).
//!
//! A thin shell, as the CLI is: every figure, verdict and report comes from the core, and comes
//! back as the CLI's JSON read into Python values (`analyze` gives one text's report, `judge` a
//! file's `--json` line). Batch calls release the GIL and use every core. Bad input — an unknown
//! threshold, a bad value, an unknown format — raises `ValueError` with the core's words; text
//! that cannot be judged gets its verdict ("TOO SHORT", a diagnostic), never an exception.

use std::borrow::Cow;
use std::num::NonZeroUsize;

use coherency_core::analyze::{analyze_with, setting_names, Thresholds};
use coherency_core::ingest::Format;
use coherency_core::judge::{Analyzed, JudgeOptions, JudgedDocument};
use coherency_core::render::json::{FileReport, Listing};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyAny, PyBytes, PyDict};

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
    let replaced = coherency_core::render::json::invalid_utf8_sequences(data);
    let worst_report = worst.full_report(&doc.transcript);
    let line = FileReport::new("<data>", data.len(), replaced, &doc.transcript, &doc.report, worst, &worst_report)
        .listing(listing);
    to_json(&line)
}

fn format_names() -> String {
    Format::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// verdicts(texts, thresholds=None, threads=None) -> list[str | None]
///
/// The verdict of each text ("PASS", "WARN" or "FAIL"; a text too short to judge PASSes), for
/// many texts at once: the GIL is released and the texts are shared out over `threads` threads
/// (default: every core). A short text that passes costs no report. `texts` is a list of str
/// or a pyarrow Array or ChunkedArray of strings (its buffers read as they are; a null gives
/// None).
#[pyfunction]
#[pyo3(signature = (texts, thresholds = None, threads = None))]
fn verdicts<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    thresholds: Option<&Bound<'py, PyDict>>,
    threads: Option<usize>,
) -> PyResult<Vec<Option<&'static str>>> {
    let t = thresholds_of(py, thresholds)?;
    let batch = Batch::of(py, texts)?;
    let texts = batch.texts()?;
    Ok(py.detach(|| {
        on_threads(&texts, threads, |text| {
            text.as_deref().map(|text| match Analyzed::of(text, &t) {
                Analyzed::Passed(_) => "PASS",
                Analyzed::Whole(report) => report.verdict.as_str(),
            })
        })
    }))
}

/// analyze_batch(texts, thresholds=None, threads=None) -> list[dict | None]
///
/// `analyze` of each text, the GIL released and the texts shared out over `threads` threads
/// (default: every core); the reports in the texts' order. `texts` as for `verdicts`.
#[pyfunction]
#[pyo3(signature = (texts, thresholds = None, threads = None))]
fn analyze_batch<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    thresholds: Option<&Bound<'py, PyDict>>,
    threads: Option<usize>,
) -> PyResult<Vec<Option<Bound<'py, PyAny>>>> {
    let t = thresholds_of(py, thresholds)?;
    let batch = Batch::of(py, texts)?;
    let texts = batch.texts()?;
    let reports =
        py.detach(|| on_threads(&texts, threads, |text| text.as_deref().map(|text| to_json(&analyze_with(text, &t)))));
    reports.into_iter().map(|json| json.map(|json| from_json(py, &json?)).transpose()).collect()
}

/// The texts of a batch call as Python gave them: a list of str, or the buffers of a pyarrow
/// array of strings (each chunk's offsets, validity bitmap and bytes, as `bytes` objects).
enum Batch<'py> {
    Strings(Vec<String>),
    Arrow(Vec<ArrowChunk<'py>>),
}

/// One Arrow array of `string` or `large_string`: its buffers and where the array starts.
struct ArrowChunk<'py> {
    validity: Option<Bound<'py, PyBytes>>,
    offsets: Bound<'py, PyBytes>,
    data: Option<Bound<'py, PyBytes>>,
    /// 64-bit offsets (`large_string`).
    large: bool,
    offset: usize,
    len: usize,
}

impl<'py> Batch<'py> {
    /// `texts` read: a pyarrow `ChunkedArray` (it has `chunks`) or `Array` (it has `buffers`
    /// and `type`), else a sequence of str. An array of another type is cast to
    /// `large_string` (string views, dictionaries of strings); one that cannot be is a
    /// TypeError.
    fn of(py: Python<'py>, texts: &Bound<'py, PyAny>) -> PyResult<Self> {
        if texts.hasattr("chunks")? && texts.hasattr("type")? {
            let chunks = texts.getattr("chunks")?;
            let mut out = Vec::new();
            for chunk in chunks.try_iter()? {
                out.push(ArrowChunk::of(py, &chunk?)?);
            }
            return Ok(Batch::Arrow(out));
        }
        if texts.hasattr("buffers")? && texts.hasattr("type")? {
            return Ok(Batch::Arrow(vec![ArrowChunk::of(py, texts)?]));
        }
        if texts.is_instance_of::<pyo3::types::PyString>() {
            return Err(PyTypeError::new_err("texts: a list of str (or an Arrow array of strings), not one str"));
        }
        Ok(Batch::Strings(texts.extract()?))
    }

    /// Every text, `None` for an Arrow null; bytes that are not UTF-8 are replaced (U+FFFD).
    fn texts(&self) -> PyResult<Vec<Option<Cow<'_, str>>>> {
        match self {
            Batch::Strings(v) => Ok(v.iter().map(|s| Some(Cow::Borrowed(s.as_str()))).collect()),
            Batch::Arrow(chunks) => {
                let mut out = Vec::new();
                for chunk in chunks {
                    chunk.texts(&mut out)?;
                }
                Ok(out)
            }
        }
    }
}

impl<'py> ArrowChunk<'py> {
    fn of(py: Python<'py>, array: &Bound<'py, PyAny>) -> PyResult<Self> {
        let pa = py.import("pyarrow")?;
        let types = pa.getattr("types")?;
        let is = |array: &Bound<'py, PyAny>, what: &str| -> PyResult<bool> {
            types.call_method1(what, (array.getattr("type")?,))?.is_truthy()
        };
        let mut array = array.clone();
        if !is(&array, "is_string")? && !is(&array, "is_large_string")? {
            // Other forms of text (string views, dictionaries of strings) are cast; numbers
            // and bytes are not text.
            let ty = array.getattr("type")?;
            let value_type = if types.call_method1("is_dictionary", (&ty,))?.is_truthy()? {
                ty.getattr("value_type")?
            } else {
                ty.clone()
            };
            let text = ["is_string", "is_large_string", "is_string_view"]
                .iter()
                .map(|what| types.call_method1(*what, (&value_type,))?.is_truthy())
                .collect::<PyResult<Vec<bool>>>()?
                .contains(&true);
            let not_text = || PyTypeError::new_err(format!("texts: an Arrow array of {ty}, not of strings"));
            if !text {
                return Err(not_text());
            }
            array = array.call_method1("cast", (pa.call_method0("large_string")?,)).map_err(|_| not_text())?;
        }
        let large = is(&array, "is_large_string")?;
        let buffers = array.call_method0("buffers")?;
        let bytes = |i: usize| -> PyResult<Option<Bound<'py, PyBytes>>> {
            let buffer = buffers.get_item(i)?;
            if buffer.is_none() {
                return Ok(None);
            }
            Ok(Some(buffer.call_method0("to_pybytes")?.cast_into::<PyBytes>()?))
        };
        Ok(ArrowChunk {
            validity: bytes(0)?,
            offsets: bytes(1)?.ok_or_else(|| PyValueError::new_err("texts: an Arrow string array without offsets"))?,
            data: bytes(2)?,
            large,
            offset: array.getattr("offset")?.extract()?,
            len: array.len()?,
        })
    }

    /// Appends its texts to `out`; offsets that point outside the data are a ValueError.
    fn texts<'a>(&'a self, out: &mut Vec<Option<Cow<'a, str>>>) -> PyResult<()> {
        let offsets = self.offsets.as_bytes();
        let data = self.data.as_ref().map_or(&[][..], |d| d.as_bytes());
        let validity = self.validity.as_ref().map(|v| v.as_bytes());
        let width = if self.large { 8 } else { 4 };
        let offset_at = |k: usize| -> Option<usize> {
            let b = offsets.get(k * width..(k + 1) * width)?;
            let n = if self.large {
                i64::from_le_bytes(b.try_into().ok()?)
            } else {
                i64::from(i32::from_le_bytes(b.try_into().ok()?))
            };
            usize::try_from(n).ok()
        };
        let bad = || PyValueError::new_err("texts: an Arrow string array whose offsets point outside its data");
        for i in 0..self.len {
            let k = self.offset + i;
            let valid = validity.is_none_or(|bits| bits.get(k / 8).is_some_and(|b| b >> (k % 8) & 1 == 1));
            if !valid {
                out.push(None);
                continue;
            }
            let (start, end) = (offset_at(k).ok_or_else(bad)?, offset_at(k + 1).ok_or_else(bad)?);
            let bytes = data.get(start..end).ok_or_else(bad)?;
            out.push(Some(String::from_utf8_lossy(bytes)));
        }
        Ok(())
    }
}

/// `f` of every item, on `threads` threads (default: the machine's cores), in the items' order.
fn on_threads<T: Sync, R: Send>(items: &[T], threads: Option<usize>, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let threads = threads.unwrap_or(cores).clamp(1, items.len().max(1));
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> =
            items.chunks(chunk).map(|part| scope.spawn(|| part.iter().map(&f).collect::<Vec<R>>())).collect();
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
