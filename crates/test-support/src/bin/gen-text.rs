//! `gen-text KIND MB`: writes one generated text of about MB megabytes to standard output, the
//! same bytes on every run — the inputs of `scripts/bench-cli`.
//!
//! KIND is `prose` (grammatical English prose, `grammar::english`: healthy text — random words
//! would be word salad) or `prose-loop` (that prose turning into one sentence looping line by
//! line for its last 30 %, `grammar::english_then_loop`) or `small-records` (a JSONL log of
//! small request/response records, `biglog::small_records_log`).

use coherency_test_support::biglog::small_records_log;
use coherency_test_support::grammar::{english, english_then_loop};
use coherency_test_support::textgen::Rng;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(kind), Some(Ok(mb))) = (args.first(), args.get(1).map(|m| m.parse::<f64>())) else {
        eprintln!("usage: gen-text prose|prose-loop|small-records MB");
        return ExitCode::from(64);
    };
    let len = (mb * 1e6) as usize;
    let mut rng = Rng::new(42);
    let text = match kind.as_str() {
        "prose" => english(&mut rng, len),
        "prose-loop" => english_then_loop(&mut rng, len, len * 7 / 10),
        "small-records" => String::from_utf8(small_records_log(len).0).unwrap_or_default(),
        other => {
            eprintln!("gen-text: unknown KIND '{other}' (prose, prose-loop or small-records)");
            return ExitCode::from(64);
        }
    };
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen-text: {e}");
            ExitCode::from(1)
        }
    }
}
