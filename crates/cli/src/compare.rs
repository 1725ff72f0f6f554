//! `coherency compare`: a candidate's outputs compared with a golden reference, and
//! `--save-golden` to make a golden file from captures. The shell only reads files and writes
//! what the core returns (`compare`, `render::compare_*`); the exit status follows the
//! comparison's verdict: 0 PASS, 1 WARN, 2 FAIL, 3 a file could not be read or nothing could be
//! compared, 64 a bad command line.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use coherency_core::analyze::{Thresholds, Verdict};
use coherency_core::compare::{golden_file, read_outputs, CompareReport, Output};
use coherency_core::render::compare_html::compare_html;
use coherency_core::render::compare_json::compare_json;
use coherency_core::render::compare_markdown::compare_markdown;
use coherency_core::render::compare_text::compare_text;
use coherency_core::render::terminal::safe_value;
use coherency_core::render::text::cannot_read;

use crate::args::ColorWhen;
use crate::{colour, exit_status};

pub const EXAMPLES: &str = "\
Examples:
  coherency compare golden.jsonl captures.jsonl          a soak's captures against a golden file
  coherency compare --noise-floor ref-again.jsonl golden.jsonl new.jsonl
                                                         beside the reference's own noise
  coherency compare --save-golden golden.jsonl ref-captures.jsonl
                                                         a golden file from the reference's captures
  coherency compare --html golden.jsonl a/*.sse > comparison.html

Inputs: golden files, soak captures files (the page's \"captures\" download), streamed (SSE)
or non-streamed (JSON) chat-completion captures. Outputs pair by id: a golden line's id, a
soak's \"prompt N\", a capture's file name (in order when no id is shared).

Exit status:
  0   PASS: no more parted prompts and drift than the rules allow
  1   WARN
  2   FAIL
  3   a file could not be read, or no prompt could be compared
  64  the command line is wrong";

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// GOLDEN (the reference) then CAPTURES... (the candidate); with --save-golden, CAPTURES... only
    #[arg(required = true, value_name = "FILE")]
    pub paths: Vec<PathBuf>,
    /// Write the outputs of FILE... as a golden file to OUT (- for standard output) instead of comparing
    #[arg(long, value_name = "OUT")]
    pub save_golden: Option<PathBuf>,
    /// A second run of the reference (repeatable): its difference from the golden file is the noise floor
    #[arg(long, value_name = "FILE")]
    pub noise_floor: Vec<PathBuf>,
    /// Print the comparison as one JSON object instead of text
    #[arg(long, group = "output")]
    pub json: bool,
    /// Print the comparison as Markdown, to paste into an issue
    #[arg(long, group = "output")]
    pub markdown: bool,
    /// Print the comparison as one self-contained HTML file
    #[arg(long, group = "output")]
    pub html: bool,
    /// Colour the text output
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

/// The outputs of `paths`, with what could not be read ("file: why"); `Err` names a file that
/// could not be opened or that holds no output.
fn read_all(paths: &[PathBuf], problems: &mut Vec<String>, unreadable: &mut bool) -> Vec<Output> {
    let mut outputs = Vec::new();
    for path in paths {
        let shown = path.to_string_lossy();
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{}", cannot_read(&shown, &e.to_string()));
                *unreadable = true;
                continue;
            }
        };
        let name = path.file_name().map_or_else(|| shown.to_string(), |n| n.to_string_lossy().into_owned());
        let read = read_outputs(&name, &bytes);
        for p in &read.problems {
            problems.push(format!("{shown}: {p}"));
        }
        if read.outputs.is_empty() {
            let why = read.problems.first().cloned().unwrap_or_else(|| "it holds no output".into());
            eprintln!("{}", cannot_read(&shown, &format!("no output to compare in this {}: {why}", read.kind.name())));
            *unreadable = true;
        }
        outputs.extend(read.outputs);
    }
    outputs
}

fn names(paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| p.to_string_lossy().into_owned()).collect()
}

/// Runs `coherency compare`.
pub fn run(a: &CompareArgs, thresholds: &Thresholds) -> ExitCode {
    let (mut problems, mut unreadable) = (Vec::new(), false);
    if let Some(out) = &a.save_golden {
        return save_golden(&a.paths, out);
    }
    if a.paths.len() < 2 {
        eprintln!(
            "coherency: compare needs a GOLDEN file and at least one CAPTURES file (or --save-golden OUT CAPTURES...)\n\nFor more information, try 'coherency compare --help'."
        );
        return ExitCode::from(exit_status::USAGE);
    }
    let reference = read_all(&a.paths[..1], &mut problems, &mut unreadable);
    let candidates = read_all(&a.paths[1..], &mut problems, &mut unreadable);
    let noise = (!a.noise_floor.is_empty()).then(|| read_all(&a.noise_floor, &mut problems, &mut unreadable));
    let report = CompareReport::new(
        (&a.paths[0].to_string_lossy(), &reference),
        (names(&a.paths[1..]), &candidates),
        noise.as_ref().map(|n| (names(&a.noise_floor), n.as_slice())),
        thresholds.compare,
        problems,
    );
    let text = if a.json {
        compare_json(&report) + "\n"
    } else if a.markdown {
        compare_markdown(&report)
    } else if a.html {
        compare_html(&report)
    } else {
        colour::styled(&compare_text(&report), colour::wanted(a.color))
    };
    // Standard output may be gone (a closed pipe): the status still tells.
    let _ = io::stdout().lock().write_all(text.as_bytes());
    if unreadable || report.comparison.prompts.is_empty() {
        return ExitCode::from(exit_status::UNREADABLE);
    }
    ExitCode::from(match report.judgement.verdict {
        Verdict::Pass => 0,
        Verdict::Warn => 1,
        Verdict::Fail => 2,
    })
}

fn save_golden(paths: &[PathBuf], out: &Path) -> ExitCode {
    let (mut problems, mut unreadable) = (Vec::new(), false);
    let outputs = read_all(paths, &mut problems, &mut unreadable);
    for p in &problems {
        eprintln!("coherency: {}", safe_value(p));
    }
    if outputs.is_empty() {
        eprintln!("coherency: no output to save: the golden file was not written");
        return ExitCode::from(exit_status::UNREADABLE);
    }
    let file = golden_file(&outputs);
    let written = if out.as_os_str() == "-" {
        io::stdout().lock().write_all(file.as_bytes())
    } else {
        std::fs::write(out, file.as_bytes())
    };
    if let Err(e) = written {
        eprintln!("coherency: cannot write {}: {}", safe_value(&out.to_string_lossy()), safe_value(&e.to_string()));
        return ExitCode::from(exit_status::UNREADABLE);
    }
    let with_lp = outputs.iter().filter(|o| o.has_logprobs()).count();
    eprintln!(
        "coherency: wrote {} outputs ({with_lp} with logprobs) to {}",
        outputs.len(),
        safe_value(&out.to_string_lossy())
    );
    ExitCode::from(if unreadable { exit_status::UNREADABLE } else { 0 })
}
