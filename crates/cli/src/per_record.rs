//! `coherency analyze --per-record OUT`: one row per input record, for pipelines — written as
//! JSONL when OUT ends `.jsonl`, as Parquet when it ends `.parquet`.
//!
//! A record is a line of a request/response log (JSONL) or of a live run's captures, a row of a
//! Parquet dataset, or a whole input of any other format. Each record is judged on its own, as
//! it stands (a log line that repeats a growing history is judged with that history), so the
//! input is streamed: records are read in batches, a batch judged on every core (rayon) and its
//! rows written in order before the next is read — memory is bounded by a batch, not the file.
//!
//! A row: the input (`file`), the record's 1-based line or row number (`record`), its `id`
//! (`--id-column`, or a log line's own `id` / `custom_id` field; else the record number), its
//! `verdict` (PASS, WARN, FAIL; null when it holds nothing to judge, with `error` saying why),
//! and of its worst judged text: `onset` (the byte of that text where it turns degenerate),
//! `bytes`, `reason` (the first, for WARN and FAIL), `tripped` (the checks at WARN or FAIL,
//! `tool_loop` for its tool-call check) and every metric's value, one column each, named as
//! in `--json`'s `checks` (`maxrun` … `drift`, and `tool_loop`).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::sync::Arc;

use coherency_core::analyze::{Metric, Verdict};
use coherency_core::ingest::{self, Format};
use coherency_core::judge::{JudgeOptions, JudgedDocument, Judging};
use coherency_core::render::terminal::safe_value;
use coherency_core::render::text::{cannot_read, skipped};
use coherency_core::wording::{plural, thousands};
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use rayon::prelude::*;
use serde::Serialize;

use crate::inputs::Input;
use crate::parquet_rows::{self, Columns};
use crate::progress::{Progress, Unit};
use crate::run::{Finished, InputOutcome, Settings};

/// Records judged at once: enough to keep every core busy, few enough to bound memory.
const BATCH: usize = 4096;
/// The bytes read to tell an input's format.
const HEAD: usize = 1 << 20;
/// Rows in one Parquet row group.
const ROW_GROUP: usize = 16 * 1024;

/// The metric columns, in order: each text check ([`Metric::ALL`]), then the conversation's
/// tool-call check.
pub const METRICS: [Metric; Metric::ALL.len() + 1] = {
    let mut metrics = [Metric::ToolLoop; Metric::ALL.len() + 1];
    let mut i = 0;
    while i < Metric::ALL.len() {
        metrics[i] = Metric::ALL[i];
        i += 1;
    }
    metrics
};

/// One record's row.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Row {
    pub file: String,
    pub record: u64,
    pub id: String,
    pub verdict: Option<&'static str>,
    pub tripped: Vec<&'static str>,
    pub onset: Option<u64>,
    pub bytes: Option<u64>,
    pub reason: Option<String>,
    /// [`METRICS`]' values (written flat, one field each).
    #[serde(flatten)]
    pub metrics: Metrics,
    pub error: Option<String>,
}

/// Every metric's value (`None` when the record holds nothing to judge).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics(pub Option<[f64; METRICS.len()]>);

impl Serialize for Metrics {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(METRICS.len()))?;
        for (i, m) in METRICS.iter().enumerate() {
            map.serialize_entry(m.key(), &self.0.map(|v| v[i]))?;
        }
        map.end()
    }
}

/// A record read and not judged yet.
struct Pending {
    number: usize,
    id: Option<String>,
    /// `Err`: why it holds nothing to judge.
    bytes: Result<Vec<u8>, String>,
}

/// Judges one record's bytes, read as `format`.
fn judge(file: &str, p: Pending, format: Format, options: &JudgeOptions) -> Row {
    let mut row = Row {
        file: file.to_string(),
        record: p.number as u64,
        id: p.id.unwrap_or_else(|| p.number.to_string()),
        ..Row::default()
    };
    let bytes = match p.bytes {
        Ok(bytes) => bytes,
        Err(why) => {
            row.error = Some(why);
            return row;
        }
    };
    // Read as the input's format, without detecting each record's again (a tenth of a small
    // record's time).
    let transcript = ingest::parse(&bytes, format);
    let report = Judging::new(*options).judge(&transcript);
    let doc = JudgedDocument { size: bytes.len(), detected: format, chosen: Some(format), transcript, report };
    if let Some(why) = doc.no_text() {
        row.error = Some(why);
        return row;
    }
    let t = &doc.transcript;
    let worst = doc.report.worst().filter(|r| r.judged);
    let (Some(worst), Some(verdict)) = (worst, doc.report.verdict) else {
        row.error =
            Some(t.diagnostics.first().map_or_else(|| "no model output to judge".to_string(), |d| d.message.clone()));
        return row;
    };
    let full = worst.full_report(t);
    let tools = doc.report.conversations.iter().map(|c| &c.tool_calls.check).max_by(|a, b| a.value.total_cmp(&b.value));
    let mut values = [0.0; METRICS.len()];
    for (i, m) in METRICS.iter().enumerate() {
        values[i] = match m {
            Metric::ToolLoop => tools.map_or(0.0, |c| c.value),
            m => full.checks.iter().find(|c| c.metric == *m).map_or(f64::NAN, |c| c.value),
        };
    }
    row.tripped = full.checks.iter().filter(|c| c.level > Verdict::Pass).map(|c| c.metric.key()).collect();
    if doc.report.conversations.iter().any(|c| c.tool_calls.check.level > Verdict::Pass) {
        row.tripped.push(Metric::ToolLoop.key());
    }
    row.verdict = Some(verdict.as_str());
    row.onset = full.onset.map(|o| o as u64);
    row.bytes = Some(full.bytes as u64);
    if verdict > Verdict::Pass {
        row.reason = if full.verdict == verdict {
            full.reasons.first().cloned()
        } else {
            doc.report.conversations.iter().find(|c| c.verdict == verdict).and_then(|c| c.reasons.first().cloned())
        };
    }
    row.metrics = Metrics(Some(values));
    row
}

/// Where rows go.
pub trait Sink {
    fn write(&mut self, rows: Vec<Row>) -> io::Result<()>;
    fn finish(self: Box<Self>) -> io::Result<()>;
}

/// Opens OUT by its extension; `Err` in words.
pub fn open(path: &Path) -> Result<Box<dyn Sink>, String> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
    let create =
        || File::create(path).map_err(|e| format!("--per-record: cannot create {}: {e}", path.to_string_lossy()));
    match ext.as_str() {
        "jsonl" => Ok(Box::new(JsonlSink(io::BufWriter::with_capacity(1 << 16, create()?)))),
        "parquet" => ParquetSink::new(create()?).map(|s| Box::new(s) as Box<dyn Sink>),
        _ => Err(format!("--per-record writes .jsonl or .parquet: {} ends in neither", path.to_string_lossy())),
    }
}

struct JsonlSink(io::BufWriter<File>);

impl Sink for JsonlSink {
    fn write(&mut self, rows: Vec<Row>) -> io::Result<()> {
        for row in rows {
            serde_json::to_writer(&mut self.0, &row).map_err(io::Error::other)?;
            self.0.write_all(b"\n")?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> io::Result<()> {
        self.0.flush()
    }
}

struct ParquetSink {
    writer: SerializedFileWriter<File>,
    rows: Vec<Row>,
}

/// The Parquet rows' schema ([`Row`]'s fields; the metrics are `optional double`s).
fn schema() -> String {
    let metrics: String = METRICS.iter().map(|m| format!("optional double {};\n", m.key())).collect();
    format!(
        "message per_record {{
           required binary file (UTF8);
           required int64 record;
           required binary id (UTF8);
           optional binary verdict (UTF8);
           required group tripped (LIST) {{ repeated group list {{ required binary element (UTF8); }} }}
           optional int64 onset;
           optional int64 bytes;
           optional binary reason (UTF8);
           {metrics}
           optional binary error (UTF8);
         }}"
    )
}

impl ParquetSink {
    fn new(file: File) -> Result<Self, String> {
        let schema = Arc::new(parse_message_type(&schema()).map_err(|e| e.to_string())?);
        let props = Arc::new(WriterProperties::builder().set_compression(Compression::SNAPPY).build());
        let writer = SerializedFileWriter::new(file, schema, props).map_err(|e| e.to_string())?;
        Ok(ParquetSink { writer, rows: Vec::new() })
    }

    /// Writes the rows held as one row group.
    fn flush_group(&mut self) -> io::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.rows);
        self.write_group(&rows).map_err(io::Error::other)
    }

    fn write_group(&mut self, rows: &[Row]) -> parquet::errors::Result<()> {
        let mut rg = self.writer.next_row_group()?;
        let text = |s: &str| ByteArray::from(s.as_bytes().to_vec());
        let mut column = 0;
        while let Some(mut col) = rg.next_column()? {
            match column {
                0 => {
                    let v: Vec<_> = rows.iter().map(|r| text(&r.file)).collect();
                    col.typed::<ByteArrayType>().write_batch(&v, None, None)?;
                }
                1 => {
                    let v: Vec<i64> = rows.iter().map(|r| r.record as i64).collect();
                    col.typed::<Int64Type>().write_batch(&v, None, None)?;
                }
                2 => {
                    let v: Vec<_> = rows.iter().map(|r| text(&r.id)).collect();
                    col.typed::<ByteArrayType>().write_batch(&v, None, None)?;
                }
                3 => optional_text(col.typed::<ByteArrayType>(), rows.iter().map(|r| r.verdict))?,
                4 => {
                    let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
                    for r in rows {
                        if r.tripped.is_empty() {
                            defs.push(0);
                            reps.push(0);
                        }
                        for (k, name) in r.tripped.iter().enumerate() {
                            values.push(text(name));
                            defs.push(1);
                            reps.push(i16::from(k > 0));
                        }
                    }
                    col.typed::<ByteArrayType>().write_batch(&values, Some(&defs), Some(&reps))?;
                }
                5 => optional_i64(col.typed::<Int64Type>(), rows.iter().map(|r| r.onset))?,
                6 => optional_i64(col.typed::<Int64Type>(), rows.iter().map(|r| r.bytes))?,
                7 => optional_text(col.typed::<ByteArrayType>(), rows.iter().map(|r| r.reason.as_deref()))?,
                n if n < 8 + METRICS.len() => {
                    let i = n - 8;
                    let values: Vec<f64> = rows.iter().filter_map(|r| r.metrics.0.map(|v| v[i])).collect();
                    let defs: Vec<i16> = rows.iter().map(|r| i16::from(r.metrics.0.is_some())).collect();
                    col.typed::<DoubleType>().write_batch(&values, Some(&defs), None)?;
                }
                _ => optional_text(col.typed::<ByteArrayType>(), rows.iter().map(|r| r.error.as_deref()))?,
            }
            col.close()?;
            column += 1;
        }
        rg.close()?;
        Ok(())
    }
}

fn optional_text<'a>(
    col: &mut parquet::column::writer::ColumnWriterImpl<'_, ByteArrayType>,
    values: impl Iterator<Item = Option<&'a str>>,
) -> parquet::errors::Result<()> {
    let (mut present, mut defs) = (Vec::new(), Vec::new());
    for v in values {
        defs.push(i16::from(v.is_some()));
        present.extend(v.map(|s| ByteArray::from(s.as_bytes().to_vec())));
    }
    col.write_batch(&present, Some(&defs), None).map(|_| ())
}

fn optional_i64(
    col: &mut parquet::column::writer::ColumnWriterImpl<'_, Int64Type>,
    values: impl Iterator<Item = Option<u64>>,
) -> parquet::errors::Result<()> {
    let (mut present, mut defs) = (Vec::new(), Vec::new());
    for v in values {
        defs.push(i16::from(v.is_some()));
        present.extend(v.map(|n| n as i64));
    }
    col.write_batch(&present, Some(&defs), None).map(|_| ())
}

impl Sink for ParquetSink {
    fn write(&mut self, rows: Vec<Row>) -> io::Result<()> {
        self.rows.extend(rows);
        if self.rows.len() >= ROW_GROUP {
            self.flush_group()?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> io::Result<()> {
        self.flush_group()?;
        self.writer.close().map(|_| ()).map_err(io::Error::other)
    }
}

/// An input's records, read as they are asked for.
enum Records {
    /// One record a line (a JSONL log, live captures).
    Lines {
        lines: Box<dyn BufRead>,
        line: usize,
        id_field: Option<String>,
    },
    Parquet(parquet_rows::Records),
    /// The whole input, one record.
    Whole(Option<Vec<u8>>),
}

impl Records {
    /// Up to [`BATCH`] more records (none: the input is done) and the bytes read for them (a
    /// Parquet file's: none counted); `Err` when it cannot be read on.
    fn batch(&mut self) -> Result<(Vec<Pending>, u64), String> {
        let mut out = Vec::new();
        let mut read = 0;
        match self {
            Records::Whole(bytes) => {
                if let Some(bytes) = bytes.take() {
                    read = bytes.len() as u64;
                    out.push(Pending { number: 1, id: None, bytes: Ok(bytes) });
                }
            }
            Records::Parquet(rows) => {
                let column = rows.column.clone();
                for record in rows.by_ref().take(BATCH) {
                    let r = record?;
                    let bytes = r.line.ok_or_else(|| format!("no text in column '{column}'"));
                    out.push(Pending { number: r.number, id: r.id, bytes });
                }
            }
            Records::Lines { lines, line, id_field } => {
                let mut buf = Vec::new();
                while out.len() < BATCH {
                    buf.clear();
                    let n = lines.read_until(b'\n', &mut buf).map_err(|e| e.to_string())?;
                    if n == 0 {
                        break;
                    }
                    read += n as u64;
                    *line += 1;
                    if buf.trim_ascii().is_empty() {
                        continue;
                    }
                    let id = line_id(&buf, id_field.as_deref());
                    out.push(Pending { number: *line, id, bytes: Ok(buf.clone()) });
                }
            }
        }
        Ok((out, read))
    }

    /// What the progress bar counts for this input: its size in bytes (`size`, `None` for
    /// standard input) or a dataset's rows.
    fn extent(&self, size: Option<u64>) -> (Option<u64>, Unit) {
        match self {
            Records::Parquet(rows) => (Some(rows.total), Unit::Rows),
            _ => (size, Unit::Bytes),
        }
    }
}

/// A log line's id: its field `named` (`--id-column`), else `id`, else `custom_id` (batch
/// files) — a string as it is, a number as written.
fn line_id(line: &[u8], named: Option<&str>) -> Option<String> {
    let serde_json::Value::Object(record) = serde_json::from_slice(line).ok()? else { return None };
    let names: &[&str] = match named {
        Some(name) => &[name][..],
        None => &["id", "custom_id"],
    };
    names.iter().find_map(|name| match record.get(*name)? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

/// Opens `input`'s records and says the format each is read as.
fn records(input: &Input, settings: &Settings) -> Result<(Records, Format), String> {
    let mut source: Box<dyn Read> = match input {
        Input::Stdin => Box::new(io::stdin()),
        Input::Named(path) | Input::Found(path) => Box::new(File::open(path).map_err(|e| e.to_string())?),
        Input::Unlisted(_, why) => return Err(why.clone()),
    };
    let mut head = Vec::new();
    source.by_ref().take(HEAD as u64).read_to_end(&mut head).map_err(|e| e.to_string())?;
    if head.starts_with(b"PAR1") {
        let columns: &Columns = &settings.columns;
        let rows = match input {
            Input::Named(path) | Input::Found(path) => {
                parquet_rows::open_file(File::open(path).map_err(|e| e.to_string())?, columns)?
            }
            _ => {
                source.read_to_end(&mut head).map_err(|e| e.to_string())?;
                parquet_rows::open_bytes(head, columns)?
            }
        };
        return Ok((Records::Parquet(rows), Format::Jsonl));
    }
    let format = settings.format.unwrap_or_else(|| {
        // Told from whole lines.
        let cut = if head.len() == HEAD {
            head.iter().rposition(|&b| b == b'\n').map_or(head.len(), |i| i + 1)
        } else {
            head.len()
        };
        ingest::detect(&head[..cut])
    });
    if matches!(format, Format::Jsonl | Format::LiveCaptures) {
        let lines = Box::new(BufReader::with_capacity(1 << 16, io::Cursor::new(head).chain(source)));
        return Ok((Records::Lines { lines, line: 0, id_field: settings.columns.id.clone() }, format));
    }
    source.read_to_end(&mut head).map_err(|e| e.to_string())?;
    Ok((Records::Whole(Some(head)), format))
}

/// How many records got each verdict.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    records: usize,
    pass: usize,
    warn: usize,
    fail: usize,
    not_judged: usize,
}

impl Tally {
    fn add(&mut self, row: &Row) {
        self.records += 1;
        match row.verdict {
            Some("FAIL") => self.fail += 1,
            Some("WARN") => self.warn += 1,
            Some(_) => self.pass += 1,
            None => self.not_judged += 1,
        }
    }

    fn worst(&self) -> Option<Verdict> {
        if self.fail > 0 {
            Some(Verdict::Fail)
        } else if self.warn > 0 {
            Some(Verdict::Warn)
        } else if self.pass > 0 {
            Some(Verdict::Pass)
        } else {
            None
        }
    }
}

/// Judges every input's records and writes their rows to `sink`, with one line per input on
/// `out`; what became of each input (its worst record's verdict).
pub fn run(
    inputs: &[Input],
    settings: &Settings,
    mut sink: Box<dyn Sink>,
    out_name: &str,
    out: &mut dyn Write,
    progress: &Progress,
) -> Finished {
    let mut finished = Finished::default();
    // Standard error's lines, written with the bar out of the way.
    let say = |line: String| progress.suspend(|| eprintln!("{line}"));
    for input in inputs {
        let file = input.name();
        let (mut records, format) = match records(input, settings) {
            Ok(r) => r,
            Err(why) => {
                say(cannot_read(&file, &why));
                finished.outcomes.push(InputOutcome::Unreadable);
                continue;
            }
        };
        // A binary file found in a directory is passed over, as the report passes it over.
        if let Records::Whole(Some(bytes)) = &records {
            if format == Format::Binary && settings.format.is_none() && matches!(input, Input::Found(_)) {
                let why = ingest::binary_reason(bytes).unwrap_or_else(|| "not a text file".to_string());
                say(skipped(&file, &why));
                finished.outcomes.push(InputOutcome::Skipped);
                continue;
            }
        }
        let size = match input {
            Input::Named(path) | Input::Found(path) => std::fs::metadata(path).ok().map(|m| m.len()),
            _ => None,
        };
        let (total, unit) = records.extent(size);
        progress.count_read(total, unit);
        let mut tally = Tally::default();
        let mut broken = None;
        loop {
            let batch = match records.batch() {
                Ok((b, _)) if b.is_empty() => break,
                Ok((b, read)) => {
                    progress.advance_by(if total.is_some() && unit == Unit::Bytes { read } else { b.len() as u64 });
                    b
                }
                Err(why) => {
                    broken = Some(why);
                    break;
                }
            };
            let rows: Vec<Row> =
                batch.into_par_iter().with_min_len(16).map(|p| judge(&file, p, format, &settings.options)).collect();
            rows.iter().for_each(|r| tally.add(r));
            if let Err(e) = sink.write(rows) {
                say(format!("coherency: --per-record {}: {}", safe_value(out_name), e));
                finished.outcomes.push(InputOutcome::Unreadable);
                return finished;
            }
        }
        if let Records::Parquet(rows) = &records {
            if rows.skipped > 0 {
                say(format!(
                    "coherency: {}: {} of {} rows have no text in column '{}' (not judged)",
                    safe_value(&file),
                    rows.skipped,
                    rows.rows_read,
                    safe_value(&rows.column)
                ));
            }
        }
        let outcome = match (&broken, tally.worst()) {
            (Some(why), _) => {
                say(cannot_read(&file, why));
                InputOutcome::Unreadable
            }
            (None, Some(v)) => InputOutcome::Judged(v),
            (None, None) => {
                say(cannot_read(&file, "no record holds text to judge"));
                InputOutcome::Unreadable
            }
        };
        let verdict = tally.worst().map_or("not judged", Verdict::as_str);
        // Standard output may be gone (a closed pipe): the rows and the status still tell.
        let line = format!(
            "{}: {verdict} — {}: {} FAIL, {} WARN, {} PASS, {} not judged (rows in {})",
            safe_value(&file),
            plural(tally.records, "record", "records"),
            thousands(tally.fail),
            thousands(tally.warn),
            thousands(tally.pass),
            thousands(tally.not_judged),
            safe_value(out_name)
        );
        let _ = progress.suspend(|| writeln!(out, "{line}"));
        finished.outcomes.push(outcome);
    }
    if let Err(e) = sink.finish() {
        say(format!("coherency: --per-record {}: {}", safe_value(out_name), e));
        finished.outcomes.push(InputOutcome::Unreadable);
    }
    progress.finish();
    finished
}
