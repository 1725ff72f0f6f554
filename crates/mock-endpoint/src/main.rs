//! `coherency-mock-server`: the mock endpoint's command line (flags in `coherency_mock_endpoint::USAGE`).
//! The first line on standard output is `listening on http://127.0.0.1:PORT/v1`.

use std::io::Write;
use std::process::ExitCode;

use coherency_mock_endpoint::{parse_args, start_lifeline, Command, Server};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok(Command::Serve(c)) => c,
        Ok(Command::Help) => {
            println!("{}", coherency_mock_endpoint::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(why) => {
            eprintln!("coherency-mock-server: {why}\n(--help lists the options)");
            return ExitCode::from(64);
        }
    };
    let (port, exit_after, stdin_lifeline, quiet, has_key) =
        (config.port, config.exit_after, config.stdin_lifeline, config.quiet, config.api_key.is_some());
    let server = match Server::bind(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("coherency-mock-server: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::from(1);
        }
    };
    println!("listening on {}", server.base_url());
    let _ = std::io::stdout().flush();
    start_lifeline(exit_after, stdin_lifeline);
    if !quiet {
        let exits = match exit_after {
            0 => "runs until stopped".to_string(),
            s => format!("exits after {s} s (--exit-after 0 to keep running)"),
        };
        let auth = if has_key { "needs the --api-key key" } else { "takes any key" };
        eprintln!("models: mock-coherent, mock-word-loop, mock-line-loop, … (GET /v1/models); {auth}; {exits}");
    }
    server.run();
    ExitCode::SUCCESS
}
