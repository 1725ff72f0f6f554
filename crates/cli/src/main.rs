//! `coherency`: the native command line on the same analysis core as the page.
//!
//! ```text
//! coherency analyze [--json] [--format NAME] [--judge-inputs] FILE...     (FILE "-" reads standard input)
//! ```
//! Each input is read in its detected format (or the one given), every message is analysed on
//! its own, each conversation across its turns (the model's stream, its tool calls), and the
//! worst judged finding sets the file's verdict: the model's output only, unless
//! `--judge-inputs` puts system, user and tool messages back in. Exit status: 0 every input
//! PASSes, 1 the worst is WARN, 2 the worst is FAIL, 3 an input could not be read or holds no
//! text (the others are still analysed), 64 the command line is wrong.

use coherency_core::analyze::{format_threshold, Check, Metric, Report, SpanKind, Thresholds, Verdict};
use coherency_core::ingest::{Format, Transcript};
use coherency_core::render::{self, Summary};
use coherency_core::verdict::{
    Author, ConversationReport, JudgeOptions, JudgedDocument, MessageReport, TranscriptReport,
};
use coherency_core::wording::thousands;
use std::io::{self, Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
Coherency Analyzer — catch repetition loops in LLM output.

usage: coherency analyze [--json | --markdown | --html] [--format NAME] [--judge-inputs] FILE...
       coherency --help | --version

  FILE            a file to analyse; - reads standard input
  --json          print one JSON object per file (one per line) instead of text
  --markdown      print a Markdown report per file, to paste into an issue or a chat
  --html          print one self-contained HTML report (one FILE): coherency analyze
                  --html log.jsonl > report.html
  --format NAME   read every FILE as NAME instead of detecting it: auto (default), text,
                  openai-json, responses-json, anthropic-json, sse, responses-sse,
                  anthropic-sse, ollama-ndjson, jsonl, session-jsonl, opencode, codex-jsonl,
                  gemini-cli, cline, openhands, swe-agent, aider
  --judge-inputs  let inputs (system, developer, user and tool messages) count towards the
                  verdict too; they are analysed and shown either way

exit status: 0 all PASS, 1 worst is WARN, 2 worst is FAIL (of what is judged: the model's
             output, its conversations across turns), 3 an input could not be read or
             holds no text, 64 bad command line";

const EXIT_UNREADABLE: u8 = 3;
const EXIT_USAGE: u8 = 64;

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

/// What `analyze` prints for each file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Text,
    Json,
    Markdown,
    Html,
}

fn run_analyze(args: &[String]) -> ExitCode {
    let mut output = Output::Text;
    let mut options = JudgeOptions::default();
    let mut format: Option<Format> = None;
    let mut files = Vec::new();
    let mut only_files = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" | "--markdown" | "--html" if !only_files => {
                let asked = match a.as_str() {
                    "--json" => Output::Json,
                    "--markdown" => Output::Markdown,
                    _ => Output::Html,
                };
                if output != Output::Text && output != asked {
                    return usage_error("choose one of --json, --markdown and --html");
                }
                output = asked;
            }
            "--judge-inputs" if !only_files => options.judge_inputs = true,
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
    if output == Output::Html && files.len() > 1 {
        return usage_error("--html writes one report: give it one FILE");
    }
    let json = output == Output::Json;

    let mut worst = Verdict::Pass;
    let mut unreadable = false;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for file in files {
        let written = match read_input(file) {
            Ok(bytes) => {
                let doc = JudgedDocument::read_with(&bytes, format, &options);
                let no_text = doc.no_text();
                let JudgedDocument { transcript, report: analysis, .. } = doc;
                let replaced = match std::str::from_utf8(&bytes) {
                    Ok(_) => 0,
                    Err(_) => bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count(),
                };
                match (analysis.worst(), analysis.verdict) {
                    // Empty or blank: nothing was written, so there is nothing to judge.
                    _ if no_text.is_some() => {
                        unreadable = true;
                        report_error(&mut out, json, file, no_text.unwrap_or_default())
                    }
                    (Some(w), Some(verdict)) => {
                        worst = worst.max(verdict);
                        if json {
                            write_file_json(&mut out, file, bytes.len(), replaced, &transcript, &analysis, w)
                        } else if output == Output::Markdown {
                            writeln!(out, "{}", render::markdown::markdown(&Summary::new(file, &transcript, &analysis)))
                        } else if output == Output::Html {
                            write!(out, "{}", render::html::html(&Summary::new(file, &transcript, &analysis)))
                        } else {
                            write_text_report(
                                &mut out,
                                file,
                                replaced,
                                &transcript,
                                &analysis,
                                &w.full_report(&transcript),
                            )
                        }
                    }
                    _ => {
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
        writeln!(
            out,
            "{}",
            serde_json::to_string(&render::json::FileError::new(file, error)).expect("plain data serialises")
        )
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

/// The file's JSON line, written as it is made (a log's line can be hundreds of megabytes).
fn write_file_json(
    out: &mut impl Write,
    file: &str,
    input_bytes: usize,
    replaced: usize,
    t: &Transcript,
    analysis: &TranscriptReport,
    worst: &MessageReport,
) -> io::Result<()> {
    let worst_report = worst.full_report(t);
    let line = render::json::FileReport::new(file, input_bytes, replaced, t, analysis, worst, &worst_report);
    let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
    serde_json::to_writer(&mut buffered, &line)?;
    writeln!(buffered)?;
    buffered.flush()
}

/// One check against its thresholds, on one line.
fn write_check(out: &mut impl Write, indent: &str, c: &Check) -> io::Result<()> {
    let (warn, fail) = (format_threshold(c.metric, c.warn_at), format_threshold(c.metric, c.fail_at));
    let op = c.direction.symbol(true);
    let level = if c.judged { c.level.as_str() } else { "not judged" };
    writeln!(
        out,
        "{indent}{:<14} {:>10}   WARN {op} {warn:<5} FAIL {op} {fail:<5} {level}",
        c.metric.label(),
        c.value_text()
    )
}

/// Conversations listed with their findings across turns, at most this many.
const CONVERSATIONS_SHOWN: usize = 20;

/// Each conversation whose judgement across turns is above PASS: its verdict, onset turn and
/// reasons (the tool loop, the streams).
fn write_conversations(out: &mut impl Write, analysis: &TranscriptReport) -> io::Result<()> {
    let flagged: Vec<&ConversationReport> =
        analysis.conversations.iter().filter(|c| c.verdict > Verdict::Pass).collect();
    for c in flagged.iter().take(CONVERSATIONS_SHOWN) {
        let from = c.onset_turn.map(|u| format!(" from turn {u}")).unwrap_or_default();
        let calls = match c.tool_calls.calls {
            0 => String::new(),
            1 => ", 1 tool call".to_string(),
            n => format!(", {} tool calls", thousands(n)),
        };
        writeln!(
            out,
            "  conversation {}: {}{from} ({} turns, {} by the model{calls})",
            c.conversation,
            c.verdict.as_str(),
            thousands(c.turns),
            thousands(c.model_turns)
        )?;
        for reason in &c.reasons {
            writeln!(out, "    {reason}")?;
        }
        let tool = &c.tool_calls.check;
        if tool.judged {
            write_check(out, "    ", tool)?;
        }
        if tool.level > Verdict::Pass {
            if let Some(rule) = tool.metric.rule(&Thresholds::default()) {
                writeln!(out, "    {} rule: {rule}", tool.metric.label())?;
            }
        }
    }
    if flagged.len() > CONVERSATIONS_SHOWN {
        writeln!(out, "  … and {} more conversations with findings", thousands(flagged.len() - CONVERSATIONS_SHOWN))?;
    }
    Ok(())
}

fn write_text_report(
    out: &mut impl Write,
    file: &str,
    replaced: usize,
    t: &Transcript,
    analysis: &TranscriptReport,
    r: &Report,
) -> io::Result<()> {
    let judged = analysis.verdict.unwrap_or(r.verdict);
    let verdict = if r.too_short && judged == r.verdict { "TOO SHORT" } else { judged.as_str() };
    let rows = analysis.rows(t);
    if t.format == Format::Text {
        writeln!(out, "{file}: {verdict} ({} bytes)", thousands(r.bytes))?;
    } else {
        writeln!(out, "{file}: {verdict} ({}, {} analysed texts)", t.format.label(), rows.len())?;
        write_conversations(out, analysis)?;
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
        write_check(out, "  ", c)?;
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
            let why = if row.author == Author::Input { format!("  ({})", row.why) } else { String::new() };
            writeln!(
                out,
                "    {:<4}  conv {:<3} turn {:<3} {:<28} {:>10} B  {:<10} {tripped}{why}",
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
        if s.errors_not_listed > 0 {
            writeln!(out, "  … and {} more stream errors not listed", thousands(s.errors_not_listed))?;
        }
    }
    for d in &t.diagnostics {
        let at = d.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        writeln!(out, "  diagnostic: {at}{}", d.message)?;
    }
    Ok(())
}
