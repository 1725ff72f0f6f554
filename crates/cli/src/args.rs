//! The command line's grammar (clap, derived): commands, flags, their help with examples.
//! Names that come from the core (formats, threshold names) are listed from it, never retyped.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use coherency_core::analyze::{Thresholds, SETTINGS};
use coherency_core::ingest::Format;

const EXAMPLES: &str = "\
Examples:
  coherency analyze answer.txt                    one file: its verdict, reasons and checks
  coherency analyze --json logs/ > report.jsonl   a directory's files, one JSON line each
  coherency analyze -r --fail-on fail runs/       every file below runs/; only FAIL fails CI
  curl -sN $URL | coherency analyze -             standard input
  coherency analyze --threshold maxline.warn=10 poem.txt
  coherency analyze --per-record scores.parquet --conversation-column messages chats.parquet
  coherency proxy --upstream http://127.0.0.1:8080/v1 --cut-on fail --log proxy.jsonl
  coherency completions bash > ~/.local/share/bash-completion/completions/coherency";

const EXIT_STATUS: &str = "\
Exit status:
  0   every input PASSes (or, with --fail-on fail, none FAILs)
  1   the worst verdict is WARN (not with --fail-on fail)
  2   the worst verdict is FAIL
  3   an input could not be read or holds no text (the others are still analysed)
  64  the command line is wrong";

/// Coherency Analyzer — catch repetition loops and incoherence in LLM output.
#[derive(Debug, Parser)]
#[command(name = "coherency", version, after_help = EXAMPLES, subcommand_required = true, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyse files, directories or standard input: PASS, WARN or FAIL, and why
    #[command(after_help = format!("{EXAMPLES}\n\n{EXIT_STATUS}"))]
    Analyze(AnalyzeArgs),
    /// Sit between agents and an OpenAI-compatible server: score every generation as it passes
    #[command(after_help = PROXY_HELP)]
    Proxy(ProxyArgs),
    /// Compare outputs with a golden reference: where they part, how far the logprobs drift
    #[command(after_help = crate::compare::EXAMPLES)]
    Compare(crate::compare::CompareArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

const PROXY_HELP: &str = "\
Point agents at the proxy instead of the server:
  coherency proxy --upstream http://127.0.0.1:8080/v1 --cut-on fail --log proxy.jsonl
  OPENAI_BASE_URL=http://127.0.0.1:8090/v1 your-agent

Generations are scored as they stream, with the page's live-mode analysis: chat and text
completions (POST .../chat/completions, .../completions), the Responses API (.../responses),
Anthropic Messages (.../v1/messages) and Ollama's native API (/api/chat, /api/generate); several
choices (n > 1) are judged apart. Everything else passes untouched, byte for byte, headers and
the client's key included (the key is never logged); a generation is asked for uncompressed
(accept-encoding: identity). One line per generation goes to --log
(the live-captures format: `coherency analyze proxy.jsonl` or the page read it back) and a short
line to standard error; GET /metrics gives Prometheus counters. With --cut-on fail a stream whose
verdict reaches FAIL ends at once: whole events, then a last chunk with finish_reason \"length\"
and data: [DONE] (each API's own end as at its token limit); the upstream connection is closed and the tokens saved are counted (the
request's max_tokens less the tokens generated; estimated when the server sent no usage).
An https:// upstream is reached over TLS, trusting the system's certificates (and --upstream-ca's);
the proxy itself listens on plain http. SIGTERM or Ctrl-C stops it: each reply in flight is
logged (proxy-stopped), the log written and closed.";

/// Which verdict makes the exit status non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// WARN exits 1 and FAIL 2 (what happens without --fail-on)
    Warn,
    /// only FAIL exits non-zero (2); a WARN exits 0
    Fail,
}

/// When text output is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// when standard output is a terminal and NO_COLOR is unset
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Files and directories to analyse; - reads standard input
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Print one JSON object per file, one per line (JSONL), instead of text
    #[arg(long, group = "output")]
    pub json: bool,
    /// Print a Markdown report per file, to paste into an issue or a chat
    #[arg(long, group = "output")]
    pub markdown: bool,
    /// Print one self-contained HTML report (one file): coherency analyze --html log.jsonl > report.html
    #[arg(long, group = "output")]
    pub html: bool,
    /// The column of a Parquet file that holds the texts to judge, one a row [default: the first
    /// of response, output, completion, generation, answer, text, content]
    #[arg(long, value_name = "NAME", conflicts_with = "conversation_column")]
    pub text_column: Option<String>,
    /// The column of a Parquet file that holds each row's conversation: a list of {role,
    /// content} structs (as the datasets hub stores chat data; ShareGPT's {from, value} too)
    #[arg(long, value_name = "NAME")]
    pub conversation_column: Option<String>,
    /// The column of a Parquet file (or the field of a JSONL log's records) that identifies a
    /// record, for --per-record [default: a log record's id or custom_id; else its line or row number]
    #[arg(long, value_name = "NAME")]
    pub id_column: Option<String>,
    /// Write one row per input record to OUT (a log's line, a dataset's row, any other input
    /// whole): its id, verdict, onset, every metric's value and the checks it tripped; JSONL
    /// when OUT ends .jsonl, Parquet when .parquet. Standard output gets one line per input
    #[arg(long, value_name = "OUT", group = "output")]
    pub per_record: Option<PathBuf>,
    /// Read every file as NAME instead of detecting its format
    #[arg(long, value_name = "NAME", value_parser = PossibleValuesParser::new(format_names()))]
    pub format: Option<String>,
    /// In the text report and --json: list every message flagged WARN or FAIL and the N worst
    /// others (the rest are counted, not listed)
    #[arg(long, value_name = "N", default_value_t = coherency_core::render::json::Listing::WORST)]
    pub worst: usize,
    /// In the text report and --json: list every analysed message and conversation, healthy or not
    #[arg(long)]
    pub all_messages: bool,
    /// Let inputs (system, developer, user and tool messages) count towards the verdict too
    #[arg(long)]
    pub judge_inputs: bool,
    /// Which verdict makes the exit status non-zero [default: today's statuses, as warn]
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,
    /// Walk directories' subdirectories too
    #[arg(short, long)]
    pub recursive: bool,
    /// Set a threshold, e.g. maxline.fail=20 (repeatable; see the names below)
    #[arg(long = "threshold", value_name = "NAME=VALUE", long_help = threshold_help(), value_parser = threshold_assignment)]
    pub thresholds: Vec<String>,
    /// Read thresholds from a TOML (or .json) file's [thresholds] table; --threshold wins
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Colour the text output
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

/// The verdict a stream is cut at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CutOn {
    /// cut a stream once its verdict is FAIL
    Fail,
    /// cut a stream once its verdict is WARN or FAIL (stricter; WARNs on healthy text happen)
    Warn,
}

#[derive(Debug, Args)]
pub struct ProxyArgs {
    /// The address to listen on (127.0.0.1 keeps it on this machine)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8090")]
    pub listen: SocketAddr,
    /// The server's base URL, as an agent would be given it: http://HOST:PORT/v1 or https://HOST/v1
    #[arg(long, value_name = "URL", value_parser = upstream)]
    pub upstream: coherency_proxy::Upstream,
    /// Trust the CA certificates in this PEM file for an https upstream (beside the system's)
    #[arg(long, value_name = "FILE")]
    pub upstream_ca: Option<PathBuf>,
    /// End a stream whose verdict reaches this level (default: never cut, only score)
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub cut_on: Option<CutOn>,
    /// Append one line per generation to FILE (live captures: coherency analyze reads it)
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Rotate the log when it would pass N bytes (FILE becomes FILE.1)
    #[arg(long, value_name = "N", requires = "log", value_parser = clap::value_parser!(u64).range(1..))]
    pub log_max_bytes: Option<u64>,
    /// No line per generation on standard error
    #[arg(short, long)]
    pub quiet: bool,
}

fn upstream(url: &str) -> Result<coherency_proxy::Upstream, String> {
    coherency_proxy::Upstream::parse(url)
}

impl AnalyzeArgs {
    /// The format asked for (`None`: detect each file's).
    pub fn chosen_format(&self) -> Option<Format> {
        self.format.as_deref().and_then(Format::from_name)
    }
}

/// `auto` and every format's name but the binary's (which is detected, never asked for).
fn format_names() -> Vec<&'static str> {
    std::iter::once("auto").chain(Format::ALL.iter().filter(|f| **f != Format::Binary).map(|f| f.name())).collect()
}

/// `--threshold`'s long help: each setting's name, default and meaning, from the core's table.
fn threshold_help() -> String {
    let mut help = String::from(
        "Set a threshold by name (repeatable; a later one wins over an earlier one and over --config). \
         The reports say which thresholds are not the defaults. The names, with their defaults:\n",
    );
    for s in &SETTINGS {
        help.push_str(&format!("\n  {:<16} {:<6} {}", s.name, s.format(s.default_value()), s.about));
    }
    help
}

/// Checks one `--threshold` as it is read, so a bad one is a usage error that names the flag.
fn threshold_assignment(text: &str) -> Result<String, String> {
    let mut checked = Thresholds::SEED;
    checked.assign(text).map(|()| text.to_string()).map_err(|e| e.to_string())
}
