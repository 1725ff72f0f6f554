//! The server's command line: flags into a [`Config`].

use crate::behaviour::Behaviour;
use crate::reasoning_field::ReasoningField;

pub const USAGE: &str = "\
coherency-mock-server — a local OpenAI-compatible endpoint that streams good and bad generations.

usage: coherency-mock-server [OPTIONS]

  --port N               port on 127.0.0.1 (default 30000; 0 picks a free one)
  --exit-after SECS      exit after SECS seconds (default 600; 0 runs until killed)
  --stdin-lifeline       exit when standard input closes
  --api-key KEY          require `Authorization: Bearer KEY` (default: any key or none is taken)
  --behaviour NAME       behaviour for model names that are not a behaviour (default coherent);
                         `unauthorized` answers 401 to everything
  --delay-ms N           pause between streamed chunks (default 2; `slow` waits 200)
  --cors MODE            star (default: `Access-Control-Allow-Origin: *`), echo (the request's
                         Origin), none (no CORS headers, preflight refused)
  --no-cors              same as --cors none
  --path-ids             /v1/models lists file paths (/models/mock-NAME.gguf) as ids
  --reasoning-field F    where reasoning goes: reasoning_content (default), reasoning,
                         reasoning_details, or think (inline <think>…</think> in the content)
  --quiet                no request log on standard error (the log shows control characters
                         in paths escaped)
  --max-connections N    connections served at once (default 64); more get 503 at once
  --request-timeout-ms N a request's head and body must arrive within N ms (default 30000),
                         however slowly its bytes trickle in; else 408

Behaviours are picked by the requested model: mock-coherent, mock-word-loop, mock-line-loop,
mock-late-loop, mock-reasoning, mock-reasoning-loop, mock-reasoning-in-F (F as for
--reasoning-field: mock-reasoning's reply with its reasoning there), mock-slow, mock-error, mock-dropped,
mock-unauthorized, mock-no-cors, mock-loops-NN (a late loop on NN % of seeds: over any 20
consecutive seeds exactly NN/5 of them; listed: mock-loops-25, mock-loops-50), mock-reference (greedy:
the reply depends on the prompt alone at temperature 0) and mock-drifting-kernel (the
reference until a position that comes earlier as the prompt grows; logprobs drifting). Every
model sends logprobs (and top_logprobs) when asked. Any path under /moved/ answers 307 to the same path without it (a server that moved). A request with `tools` (and `tool_choice` other than
\"none\") gets a tool call. The first line on standard output is
`listening on http://127.0.0.1:PORT/v1`.";

/// How CORS headers are sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cors {
    /// `Access-Control-Allow-Origin: *`.
    Star,
    /// The request's `Origin` echoed back (as llama.cpp does), with `Vary: Origin`.
    Echo,
    /// No CORS headers at all; preflights are refused.
    None,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub port: u16,
    /// Seconds until the server exits by itself; 0 = never.
    pub exit_after: u64,
    pub stdin_lifeline: bool,
    pub api_key: Option<String>,
    pub behaviour: Behaviour,
    pub delay_ms: u64,
    pub cors: Cors,
    pub path_ids: bool,
    /// Where reasoning goes, for behaviours that do not say.
    pub reasoning_field: ReasoningField,
    pub quiet: bool,
    /// Connections served at once; more are answered 503 at once.
    pub max_connections: usize,
    /// The whole request (head and body) must arrive within this many milliseconds.
    pub request_timeout_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            port: 30000,
            exit_after: 600,
            stdin_lifeline: false,
            api_key: None,
            behaviour: Behaviour::Coherent,
            delay_ms: 2,
            cors: Cors::Star,
            path_ids: false,
            reasoning_field: ReasoningField::ReasoningContent,
            quiet: false,
            max_connections: 64,
            request_timeout_ms: 30_000,
        }
    }
}

/// What the command line asks for.
pub enum Command {
    Serve(Config),
    Help,
}

/// Reads the flags (without the program name). Errors are messages for the user.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut c = Config::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--port" => c.port = number(flag, &value()?)?,
            "--exit-after" => c.exit_after = number(flag, &value()?)?,
            "--stdin-lifeline" => c.stdin_lifeline = true,
            "--api-key" => c.api_key = Some(value()?),
            "--behaviour" | "--behavior" => {
                let v = value()?;
                c.behaviour = Behaviour::from_name(&v).ok_or_else(|| format!("unknown behaviour {v:?}"))?;
            }
            "--delay-ms" => c.delay_ms = number(flag, &value()?)?,
            "--cors" => {
                c.cors = match value()?.as_str() {
                    "star" | "*" => Cors::Star,
                    "echo" => Cors::Echo,
                    "none" => Cors::None,
                    other => return Err(format!("--cors takes star, echo or none, not {other:?}")),
                }
            }
            "--no-cors" => c.cors = Cors::None,
            "--path-ids" => c.path_ids = true,
            "--reasoning-field" => {
                let v = value()?;
                c.reasoning_field = ReasoningField::from_name(&v).ok_or_else(|| {
                    format!(
                        "--reasoning-field takes reasoning_content, reasoning, reasoning_details or think, not {v:?}"
                    )
                })?;
            }
            "--quiet" => c.quiet = true,
            "--max-connections" => c.max_connections = number(flag, &value()?)?,
            "--request-timeout-ms" => c.request_timeout_ms = number(flag, &value()?)?,
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(Command::Serve(c))
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{flag} takes a number, not {v:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags() {
        let Ok(Command::Serve(c)) =
            parse_args(&args("--port 0 --api-key k --behaviour line-loop --no-cors --path-ids"))
        else {
            panic!("should parse")
        };
        assert_eq!((c.port, c.api_key.as_deref(), c.behaviour), (0, Some("k"), Behaviour::LineLoop));
        assert_eq!((c.cors, c.path_ids, c.exit_after), (Cors::None, true, 600));
        assert!(parse_args(&args("--port")).is_err());
        assert!(parse_args(&args("--port x")).is_err());
        assert!(parse_args(&args("--behaviour nope")).is_err());
        assert!(parse_args(&args("--bogus")).is_err());
        assert!(matches!(parse_args(&args("--help")), Ok(Command::Help)));
    }
}
