//! `coherency`: the native command line on the same analysis core as the page.
//!
//! ```text
//! coherency analyze [--json] FILE...     (FILE "-" reads standard input)
//! ```
//! Exit status: 0 every input PASSes, 1 the worst is WARN, 2 the worst is FAIL, 3 an input
//! could not be read (the others are still analysed), 64 the command line is wrong.

use coherency::analyze::{analyze, format_threshold, thousands, Report, SpanKind, Verdict};
use serde::Serialize;
use std::io::{self, Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
Coherency Analyzer — catch repetition loops in LLM output.

usage: coherency analyze [--json] FILE...
       coherency --help | --version

  FILE     a text file to analyse; - reads standard input
  --json   print one JSON object per file (one per line) instead of text

exit status: 0 all PASS, 1 worst is WARN, 2 worst is FAIL, 3 an input could not be read,
             64 bad command line";

const EXIT_UNREADABLE: u8 = 3;
const EXIT_USAGE: u8 = 64;

/// One file's `--json` line: the report plus where it came from.
#[derive(Serialize)]
struct FileReport<'a> {
    file: &'a str,
    /// Invalid UTF-8 sequences replaced by U+FFFD before analysis.
    replaced_invalid_utf8: usize,
    #[serde(flatten)]
    report: &'a Report,
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
    let mut files = Vec::new();
    let mut only_files = false;
    for a in args {
        match a.as_str() {
            "--json" if !only_files => json = true,
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
                let (text, replaced) = decode_lossy(&bytes);
                let report = analyze(&text);
                worst = worst.max(report.verdict);
                if json {
                    let line = FileReport { file, replaced_invalid_utf8: replaced, report: &report };
                    writeln!(out, "{}", serde_json::to_string(&line).expect("plain data serialises"))
                } else {
                    write_text_report(&mut out, file, replaced, &report)
                }
            }
            Err(e) => {
                unreadable = true;
                eprintln!("coherency: cannot read {file}: {e}");
                if json {
                    let line = FileError { file, error: e.to_string() };
                    writeln!(out, "{}", serde_json::to_string(&line).expect("plain data serialises"))
                } else {
                    Ok(())
                }
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

fn read_input(file: &str) -> io::Result<Vec<u8>> {
    if file == "-" {
        let mut buf = Vec::new();
        io::stdin().lock().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(file)
    }
}

/// Decodes UTF-8, replacing each invalid sequence with U+FFFD; returns how many were replaced.
fn decode_lossy(bytes: &[u8]) -> (String, usize) {
    let replaced = bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
    (String::from_utf8_lossy(bytes).into_owned(), replaced)
}

fn write_text_report(out: &mut impl Write, file: &str, replaced: usize, r: &Report) -> io::Result<()> {
    let verdict = if r.too_short { "TOO SHORT".to_string() } else { r.verdict.as_str().to_string() };
    writeln!(out, "{file}: {verdict} ({} bytes)", thousands(r.bytes))?;
    if replaced > 0 {
        writeln!(out, "  note: {replaced} invalid UTF-8 sequence(s) were replaced with U+FFFD before analysis")?;
    }
    for reason in &r.reasons {
        writeln!(out, "  {reason}")?;
    }
    for c in &r.checks {
        let (warn, fail) = (format_threshold(c.metric, c.warn_at), format_threshold(c.metric, c.fail_at));
        let op = c.direction.symbol(true);
        writeln!(
            out,
            "  {:<10} {:>10}   WARN {op} {warn:<5} FAIL {op} {fail:<5} {}",
            c.metric.label(),
            c.value_text(),
            c.level.as_str()
        )?;
    }
    let count = |k: SpanKind| r.spans.iter().filter(|s| s.kind == k).count();
    if !r.spans.is_empty() {
        let first = &r.spans[0];
        writeln!(
            out,
            "  spans: {} ({} {}, {} {}); first at bytes {}..{}",
            r.spans.len(),
            count(SpanKind::WordRun),
            SpanKind::WordRun.label(),
            count(SpanKind::RepeatedLine),
            SpanKind::RepeatedLine.label(),
            first.start,
            first.end
        )?;
    }
    Ok(())
}
