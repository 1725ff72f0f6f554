//! The readers of agent harnesses' session files — opencode, Codex CLI, gemini-cli, Cline / Roo
//! Code, OpenHands, SWE-agent, aider and Claude Code-style session logs —, what they share
//! (`shared.rs`: turns numbered as the harness took them, tool calls and results), and how
//! their files are recognised from their first bytes (`detect.rs`).

pub(super) mod aider_md;
pub(super) mod cline;
pub(super) mod codex_rollout;
pub(super) mod detect;
pub(super) mod gemini_cli;
pub(super) mod opencode;
pub(super) mod openhands;
pub(super) mod session_jsonl;
mod shared;
pub(super) mod swe_agent;
