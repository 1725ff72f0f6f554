//! `coherency`: the native command line on the same analysis core as the page.
//!
//! ```text
//! coherency analyze [--json] [--format NAME] FILE...     (FILE "-" reads standard input)
//! ```
//! Each input is read in its detected format (or the one given), every message is analysed on
//! its own, and the worst one sets the file's verdict. Exit status: 0 every input PASSes, 1 the
//! worst is WARN, 2 the worst is FAIL, 3 an input could not be read or holds no text (the
//! others are still analysed), 64 the command line is wrong.

use coherency_core::analyze::{format_threshold, Metric, Metrics, Report, Span, SpanKind, Verdict};
use coherency_core::ingest::{Diagnostic, Format, Transcript};
use coherency_core::stream::StreamInfo;
use coherency_core::verdict::{JudgedDocument, MessageRow, TranscriptReport};
use coherency_core::wording::thousands;
use serde::Serialize;
use std::io::{self, Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
Coherency Analyzer — catch repetition loops in LLM output.

usage: coherency analyze [--json] [--format NAME] FILE...
       coherency --help | --version

  FILE           a file to analyse; - reads standard input
  --json         print one JSON object per file (one per line) instead of text
  --format NAME  read every FILE as NAME instead of detecting it: auto (default), text,
                 openai-json, sse, responses-sse, anthropic-sse, ollama-ndjson, jsonl,
                 session-jsonl

exit status: 0 all PASS, 1 worst is WARN, 2 worst is FAIL, 3 an input could not be read
             or holds no text, 64 bad command line";

const EXIT_UNREADABLE: u8 = 3;
const EXIT_USAGE: u8 = 64;

/// One file's `--json` line: the worst message's report at the top level (for a plain text
/// file, the report of the text), then every message and what the reader noticed.
#[derive(Serialize)]
struct FileReport<'a> {
    file: &'a str,
    format: Format,
    /// Size of the input file; `bytes` is the size of the text the top-level report analysed.
    input_bytes: usize,
    /// Invalid UTF-8 sequences in the input, replaced by U+FFFD before analysis.
    replaced_invalid_utf8: usize,
    #[serde(flatten)]
    report: &'a Report,
    /// Every analysed message (and reasoning + content combined per reply), worst first.
    messages: Vec<MessageJson<'a>>,
    diagnostics: &'a [Diagnostic],
    #[serde(skip_serializing_if = "Option::is_none")]
    stream: Option<&'a StreamInfo>,
}

#[derive(Serialize)]
struct MessageJson<'a> {
    #[serde(flatten)]
    row: &'a MessageRow,
    seed_verdict: Verdict,
    /// Byte offset into this message's text (see `Report::onset`).
    onset: Option<usize>,
    reasons: &'a [String],
    metrics: &'a Metrics,
    spans: &'a [Span],
}

#[derive(Serialize)]
struct FileError<'a> {
    file: &'a str,
    error: String,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("-V" | "--version") => {
            println!("coherency {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some("analyze") => run_analyze(&args[1..]),
        Some(other) => usage_error(&format!("unknown command '{other}'")),
        None => usage_error("no command given"),
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("coherency: {msg}\n\n{USAGE}");
    ExitCode::from(EXIT_USAGE)
}

fn run_analyze(args: &[String]) -> ExitCode {
    let mut json = false;
    let mut format: Option<Format> = None;
    let mut files = Vec::new();
    let mut only_files = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" if !only_files => json = true,
            "--format" if !only_files => match it.next().map(String::as_str) {
                Some("auto") => format = None,
                Some(name) => match Format::from_name(name).filter(|f| *f != Format::Binary) {
                    Some(f) => format = Some(f),
                    None => return usage_error(&format!("unknown format '{name}'")),
                },
                None => return usage_error("--format needs a NAME"),
            },
            "--" if !only_files => only_files = true,
            flag if flag.starts_with("--") && !only_files => return usage_error(&format!("unknown option '{flag}'")),
            file => files.push(file),
        }
    }
    if files.is_empty() {
        return usage_error("analyze needs at least one FILE (or - for standard input)");
    }

    let mut worst = Verdict::Pass;
    let mut unreadable = false;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for file in files {
        let written = match read_input(file) {
            Ok(bytes) => {
                let JudgedDocument { transcript, report: analysis, .. } = JudgedDocument::read(&bytes, format);
                let replaced = bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
                match analysis.worst() {
                    Some(w) => {
                        worst = worst.max(w.report.verdict);
                        if json {
                            let line = file_json(file, bytes.len(), replaced, &transcript, &analysis, &w.report);
                            writeln!(out, "{line}")
                        } else {
                            write_text_report(&mut out, file, replaced, &transcript, &analysis, &w.report)
                        }
                    }
                    None => {
                        unreadable = true;
                        let why =
                            transcript.diagnostics.first().map_or("no text to analyse".into(), |d| d.message.clone());
                        report_error(&mut out, json, file, why)
                    }
                }
            }
            Err(e) => {
                unreadable = true;
                report_error(&mut out, json, file, e.to_string())
            }
        };
        if written.is_err() {
            // Standard output is gone (e.g. a closed pipe): nothing left to report to.
            break;
        }
    }
    ExitCode::from(match (unreadable, worst) {
        (true, _) => EXIT_UNREADABLE,
        (false, Verdict::Pass) => 0,
        (false, Verdict::Warn) => 1,
        (false, Verdict::Fail) => 2,
    })
}

fn report_error(out: &mut impl Write, json: bool, file: &str, error: String) -> io::Result<()> {
    eprintln!("coherency: cannot read {file}: {error}");
    if json {
        writeln!(out, "{}", serde_json::to_string(&FileError { file, error }).expect("plain data serialises"))
    } else {
        Ok(())
    }
}

fn read_input(file: &str) -> io::Result<Vec<u8>> {
    if file == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(file)
    }
}

fn file_json(
    file: &str,
    input_bytes: usize,
    replaced: usize,
    t: &Transcript,
    analysis: &TranscriptReport,
    worst: &Report,
) -> String {
    let rows = analysis.rows(t);
    let messages = rows
        .iter()
        .map(|row| {
            let r = &analysis.reports[row.report].report;
            MessageJson {
                row,
                seed_verdict: r.seed_verdict,
                onset: r.onset,
                reasons: &r.reasons,
                metrics: &r.metrics,
                spans: &r.spans,
            }
        })
        .collect();
    let line = FileReport {
        file,
        format: t.format,
        input_bytes,
        replaced_invalid_utf8: replaced,
        report: worst,
        messages,
        diagnostics: &t.diagnostics,
        stream: t.stream.as_ref(),
    };
    serde_json::to_string(&line).expect("plain data serialises")
}

fn write_text_report(
    out: &mut impl Write,
    file: &str,
    replaced: usize,
    t: &Transcript,
    analysis: &TranscriptReport,
    r: &Report,
) -> io::Result<()> {
    let verdict = if r.too_short { "TOO SHORT" } else { r.verdict.as_str() };
    let rows = analysis.rows(t);
    if t.format == Format::Text {
        writeln!(out, "{file}: {verdict} ({} bytes)", thousands(r.bytes))?;
    } else {
        writeln!(out, "{file}: {verdict} ({}, {} analysed texts)", t.format.label(), rows.len())?;
        if let Some(row) = rows.first() {
            let line = row.line.map(|l| format!(", line {l}")).unwrap_or_default();
            writeln!(
                out,
                "  worst: {} {} of conversation {}, turn {}{line} ({} bytes)",
                row.role,
                row.channel,
                row.conversation,
                row.index,
                thousands(row.bytes)
            )?;
        }
    }
    if replaced > 0 {
        writeln!(out, "  note: {replaced} invalid UTF-8 sequence(s) were replaced with U+FFFD before analysis")?;
    }
    for reason in &r.reasons {
        writeln!(out, "  {reason}")?;
    }
    if let Some(onset) = r.onset {
        writeln!(out, "  onset: byte {}", thousands(onset))?;
    }
    for c in &r.checks {
        let (warn, fail) = (format_threshold(c.metric, c.warn_at), format_threshold(c.metric, c.fail_at));
        let op = c.direction.symbol(true);
        let level = if c.judged { c.level.as_str() } else { "not judged" };
        writeln!(
            out,
            "  {:<14} {:>10}   WARN {op} {warn:<5} FAIL {op} {fail:<5} {level}",
            c.metric.label(),
            c.value_text()
        )?;
    }
    for c in r.checks.iter().filter(|c| !c.metric.is_seed() && c.level > Verdict::Pass) {
        if let Some(rule) = c.metric.rule(&r.thresholds) {
            writeln!(out, "  {} rule: {rule}", c.metric.label())?;
        }
    }
    if let Some(first) = r.spans.first() {
        let kinds: Vec<String> = SpanKind::ALL
            .iter()
            .map(|&k| (k, r.spans.iter().filter(|s| s.kind == k).count()))
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{n} {}", k.label()))
            .collect();
        writeln!(
            out,
            "  spans: {} ({}); first at bytes {}..{}",
            r.spans.len(),
            kinds.join(", "),
            first.start,
            first.end
        )?;
    }
    if t.format != Format::Text {
        writeln!(out, "  messages, worst first:")?;
        for row in &rows {
            let line = row.line.map(|l| format!("line {l}")).unwrap_or_default();
            let tripped = row.tripped.map(Metric::label).unwrap_or("");
            let who = format!("{} {}", row.role, row.channel_text());
            writeln!(
                out,
                "    {:<4}  conv {:<3} turn {:<3} {:<28} {:>10} B  {:<10} {tripped}",
                row.verdict.as_str(),
                row.conversation,
                row.index,
                who,
                thousands(row.bytes),
                line
            )?;
        }
    }
    if let Some(s) = &t.stream {
        let n = |v: Option<u64>| v.map_or("?".to_string(), |v| thousands(v as usize));
        let usage = s.usage.as_ref().map_or("no usage reported".into(), |u| {
            format!("usage {} prompt + {} completion tokens", n(u.prompt_tokens), n(u.completion_tokens))
        });
        writeln!(
            out,
            "  stream: {} chunks, finish_reason {}, {}, {}",
            thousands(s.chunks),
            s.finish_reason.as_deref().unwrap_or("none"),
            if s.saw_done { "ended cleanly" } else { "no end marker (cut or incomplete)" },
            usage
        )?;
        for e in &s.errors {
            writeln!(out, "  stream error: {e}")?;
        }
    }
    for d in &t.diagnostics {
        let at = d.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        writeln!(out, "  diagnostic: {at}{}", d.message)?;
    }
    Ok(())
}
