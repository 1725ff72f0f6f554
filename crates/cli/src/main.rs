//! `coherency`: the native command line on the same analysis core as the page.
//!
//! ```text
//! coherency analyze [OPTIONS] PATH...      (PATH "-" reads standard input; a directory its files)
//! coherency proxy --upstream http[s]://HOST:PORT/v1 [--upstream-ca PEM] [--cut-on fail] [--log FILE]
//! coherency compare GOLDEN CAPTURES...   (or --save-golden OUT CAPTURES...)
//! coherency completions bash|zsh|fish
//! ```
//! Each input is read in its detected format (or the one given), every message is analysed on
//! its own, each conversation across its turns, and the worst judged finding sets the file's
//! verdict; the exit status follows the worst file (see `coherency analyze --help`). The shell
//! only moves bytes: arguments (clap, [`args`]), paths ([`inputs`]), thresholds' files
//! ([`config`]), many files at once ([`run`]), colour ([`colour`]) and progress
//! ([`progress`]); every rule, word and verdict comes from `coherency-core`.

mod args;
mod colour;
mod compare;
mod config;
mod exit_status;
mod inputs;
mod parquet_rows;
mod per_record;
mod progress;
mod run;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::builder::Styles;
use clap::{CommandFactory, Parser};
use coherency_core::judge::JudgeOptions;
use coherency_core::render::json::Listing;
use coherency_core::render::terminal::{safe_value, terminal_safe, Layout};
use coherency_core::render::text::skipped;

use args::{AnalyzeArgs, Cli, Command, CutOn, ProxyArgs};
use run::{Output, Settings};

fn main() -> ExitCode {
    // Arguments as the OS gives them: a file name that is not UTF-8 is read as it is and shown
    // lossily.
    let cli = match Cli::try_parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        // Help and version: our own text, printed as clap prints it.
        Err(e) if !e.use_stderr() => {
            // Nowhere left to say it when printing fails.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // A usage error quotes what was typed, which may hold escape sequences: shown, not
        // obeyed. Told again without clap's styles, so that every escape left is the input's.
        Err(e) => {
            let plain = Cli::command().styles(Styles::plain()).try_get_matches_from(std::env::args_os());
            let told = plain.err().unwrap_or(e).render().ansi().to_string();
            eprint!("{}", terminal_safe(&told, Layout::Keep));
            return ExitCode::from(exit_status::USAGE);
        }
    };
    match cli.command {
        Command::Analyze(a) => analyze(&a),
        Command::Proxy(p) => proxy(p),
        Command::Compare(c) => compare::run(&c, &coherency_core::analyze::Thresholds::SEED),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "coherency", &mut io::stdout());
            ExitCode::SUCCESS
        }
    }
}

/// A usage error found after parsing (the thresholds, `--html` with many files).
fn usage_error(message: &str) -> ExitCode {
    eprintln!("coherency: {}\n\nFor more information, try 'coherency analyze --help'.", safe_value(message));
    ExitCode::from(exit_status::USAGE)
}

/// `coherency proxy`: runs until stopped; exits 1 when it cannot start (the address is taken,
/// the log cannot be opened).
fn proxy(p: ProxyArgs) -> ExitCode {
    let config = coherency_proxy::Config {
        listen: p.listen,
        upstream: p.upstream,
        upstream_ca: p.upstream_ca,
        cut_on: p.cut_on.map(|c| match c {
            CutOn::Fail => coherency_core::analyze::Verdict::Fail,
            CutOn::Warn => coherency_core::analyze::Verdict::Warn,
        }),
        log: p.log,
        log_max_bytes: p.log_max_bytes,
        quiet: p.quiet,
    };
    match coherency_proxy::run(&config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("coherency proxy: {}", safe_value(&message));
            ExitCode::FAILURE
        }
    }
}

fn analyze(a: &AnalyzeArgs) -> ExitCode {
    let thresholds = match config::thresholds(a.config.as_deref(), &a.thresholds) {
        Ok(t) => t,
        Err(message) => return usage_error(&message),
    };
    let output = match (a.json, a.markdown, a.html) {
        (true, _, _) => Output::Json,
        (_, true, _) => Output::Markdown,
        (_, _, true) => Output::Html,
        _ => Output::Text,
    };
    let found = inputs::expand(&a.paths, a.recursive);
    if output == Output::Html && found.inputs.len() != 1 {
        return usage_error("--html writes one report: give it one file");
    }
    for dir in &found.passed_over {
        eprintln!("{}", skipped(&dir.to_string_lossy(), "a directory (--recursive walks it)"));
    }
    let settings = Settings {
        output,
        format: a.chosen_format(),
        options: JudgeOptions { judge_inputs: a.judge_inputs, thresholds },
        listing: if a.all_messages { Listing::All } else { Listing::FlaggedAndWorst(a.worst) },
        colour: output == Output::Text && colour::wanted(a.color),
        columns: parquet_rows::Columns {
            text: a.text_column.clone(),
            conversation: a.conversation_column.clone(),
            id: a.id_column.clone(),
        },
    };
    if let Some(path) = &a.per_record {
        let sink = match per_record::open(path) {
            Ok(sink) => sink,
            Err(message) => return usage_error(&message),
        };
        let stdout = io::stdout();
        let progress = progress::Progress::new(0, io::stderr().is_terminal());
        let finished =
            per_record::run(&found.inputs, &settings, sink, &path.to_string_lossy(), &mut stdout.lock(), &progress);
        return ExitCode::from(exit_status::of_run(finished.worst(), finished.any_unreadable(), a.fail_on));
    }
    let progress = progress::Progress::new(found.inputs.len(), output != Output::Json && io::stderr().is_terminal());
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let finished = run::run(&found.inputs, &settings, &mut out, &progress);
    if output == Output::Text && (found.walked || found.inputs.len() > 1) {
        // Standard output may be gone (a closed pipe): the status still tells.
        let _ = writeln!(out, "{}", colour::styled(&finished.counts().summary(), settings.colour));
    }
    ExitCode::from(exit_status::of_run(finished.worst(), finished.any_unreadable(), a.fail_on))
}
