//! The labelled agent sessions of [`agent_sessions`](crate::agent_sessions) written as the
//! coding-agent harnesses people run write their session files: opencode's export, Codex CLI's
//! rollout JSONL, gemini-cli's session JSONL, Cline / Roo Code's `api_conversation_history.json`,
//! OpenHands' trajectory, SWE-agent's `.traj` and aider's chat history. Shapes as
//! `shared/FORMATS.md` gives them (read from each project's source); enough of each file's
//! furniture (metadata lines, token counts, step markers, echoed events) that a reader must
//! skip what is not the conversation, as it must on real files.

use crate::agent_sessions::{Call, Session};
use serde_json::{json, Value};

/// A harness whose session file [`Session::to_harness`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Harness {
    Opencode,
    Codex,
    GeminiCli,
    Cline,
    OpenHands,
    SweAgent,
    Aider,
}

impl Harness {
    pub const ALL: [Harness; 7] = [
        Harness::Opencode,
        Harness::Codex,
        Harness::GeminiCli,
        Harness::Cline,
        Harness::OpenHands,
        Harness::SweAgent,
        Harness::Aider,
    ];

    /// A file name a user would drop: the harness's own naming.
    pub fn file_name(self) -> &'static str {
        match self {
            Harness::Opencode => "opencode-export.json",
            Harness::Codex => "rollout-2026-12-02T09-12-01.jsonl",
            Harness::GeminiCli => "session-2026-12-02.jsonl",
            Harness::Cline => "api_conversation_history.json",
            Harness::OpenHands => "trajectory.json",
            Harness::SweAgent => "task.traj",
            Harness::Aider => ".aider.chat.history.md",
        }
    }
}

/// What a harness writes when it compacts a long session's history (a noisy session, half way).
const COMPACTION_SUMMARY: &str = "Summary of the conversation so far: the user asked to fix the leap-year test; \
    the helper and its callers were read and edited, and the tests were run after each edit.";

/// A system reminder some harnesses append to a tool's result (a noisy session, now and then).
const REMINDER: &str = "\n\n<system-reminder>\nThe user may change files while you work; read a file again \
    before editing it.\n</system-reminder>";

fn stamp(i: usize) -> String {
    format!("2026-12-02T09:{:02}:{:02}.{:03}Z", 12 + i / 60 % 48, i % 60, i * 37 % 1000)
}

fn call_id(t: usize, k: usize) -> String {
    format!("call_{t}_{k}")
}

/// A shell command for a call, as harnesses whose only tool is a shell would run it.
fn as_command(c: &Call) -> String {
    let arg = |k: &str| c.args.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    match c.name.as_str() {
        "bash" => arg("cmd"),
        "Read" => format!("cat {}", arg("file_path")),
        "Grep" => format!("grep -rn {} .", arg("pattern")),
        "Edit" => {
            format!("apply_patch {} <<'EOF'\n-{}\n+{}\nEOF", arg("file_path"), arg("old_string"), arg("new_string"))
        }
        other => format!("{other} {}", c.args),
    }
}

impl Session {
    /// This session as `harness` writes it.
    pub fn to_harness(&self, harness: Harness) -> Vec<u8> {
        let text = match harness {
            Harness::Opencode => serde_json::to_string_pretty(&self.opencode_export()).expect("plain data"),
            Harness::Codex => self.codex_rollout(),
            Harness::GeminiCli => self.gemini_session(),
            Harness::Cline => serde_json::to_string(&self.cline_history()).expect("plain data"),
            Harness::OpenHands => serde_json::to_string_pretty(&self.openhands_trajectory()).expect("plain data"),
            Harness::SweAgent => serde_json::to_string_pretty(&self.swe_agent_traj()).expect("plain data"),
            Harness::Aider => self.aider_history(),
        };
        text.into_bytes()
    }

    /// `opencode export <id>`: session info, then messages with their parts; a tool part holds
    /// the call and its result (`state`).
    fn opencode_export(&self) -> Value {
        let mut messages = vec![json!({
            "info": {"id": "msg_0000", "sessionID": "ses_4f1c2d3e", "role": "user", "time": {"created": 1_790_000_000_000u64}},
            "parts": [{"id": "prt_0000", "type": "text", "text": self.request}],
        })];
        for (t, turn) in self.turns.iter().enumerate() {
            let mut parts = vec![json!({"id": format!("prt_{t}_s"), "type": "step-start"})];
            if let Some(r) = &turn.reasoning {
                parts.push(json!({"id": format!("prt_{t}_r"), "type": "reasoning", "text": r}));
            }
            if !turn.text.is_empty() {
                parts.push(json!({"id": format!("prt_{t}_t"), "type": "text", "text": turn.text}));
            }
            for (k, c) in turn.calls.iter().enumerate() {
                let output =
                    if self.noisy && t % 7 == 0 { format!("{}{REMINDER}", c.result) } else { c.result.clone() };
                let state = if c.is_error {
                    json!({"status": "error", "input": c.args, "error": output})
                } else {
                    json!({"status": "completed", "input": c.args, "output": output, "title": c.name})
                };
                let tool = c.name.to_lowercase();
                parts.push(json!({"id": format!("prt_{t}_{k}"), "type": "tool", "callID": call_id(t, k), "tool": tool, "state": state}));
            }
            if self.noisy && t % 5 == 2 {
                parts.push(json!({"id": format!("prt_{t}_p"), "type": "patch", "hash": format!("{:08x}", t * 7919), "files": ["src/date.rs"]}));
                parts.push(json!({"id": format!("prt_{t}_n"), "type": "snapshot", "snapshot": format!("{:040x}", t * 104_729)}));
            }
            parts.push(
                json!({"id": format!("prt_{t}_f"), "type": "step-finish", "tokens": {"input": 1200 + t, "output": 80}}),
            );
            messages.push(json!({
                "info": {"id": format!("msg_{:04}", t + 1), "sessionID": "ses_4f1c2d3e", "role": "assistant",
                         "parentID": "msg_0000", "modelID": "qwen3-coder", "providerID": "local"},
                "parts": parts,
            }));
            if let Some(u) = &turn.user_after {
                messages.push(json!({
                    "info": {"id": format!("msg_{t}_u"), "sessionID": "ses_4f1c2d3e", "role": "user"},
                    "parts": [{"id": format!("prt_{t}_u"), "type": "text", "text": u}],
                }));
            }
            if self.noisy && t > 0 && t == self.turns.len() / 2 {
                messages.push(json!({
                    "info": {"id": format!("msg_{t}_c"), "sessionID": "ses_4f1c2d3e", "role": "user"},
                    "parts": [{"id": format!("prt_{t}_c"), "type": "compaction"}],
                }));
                messages.push(json!({
                    "info": {"id": format!("msg_{t}_s"), "sessionID": "ses_4f1c2d3e", "role": "assistant", "summary": true},
                    "parts": [{"id": format!("prt_{t}_s"), "type": "text", "text": COMPACTION_SUMMARY}],
                }));
            }
        }
        json!({"info": {"id": "ses_4f1c2d3e", "title": "Fix the leap-year test", "version": "0.15.3"}, "messages": messages})
    }

    /// Codex CLI's rollout: a `session_meta` line, then `response_item` lines (Responses API
    /// items) with the `event_msg` lines Codex writes beside them (the same texts again).
    fn codex_rollout(&self) -> String {
        let mut lines = Vec::new();
        let mut n = 0;
        let mut line = |kind: &str, payload: Value| {
            n += 1;
            lines.push(json!({"timestamp": stamp(n), "type": kind, "payload": payload}).to_string());
        };
        line(
            "session_meta",
            json!({"id": "0199aa00-1111-7222-8333-444455556666", "cwd": "/home/dev/proj", "originator": "codex_cli_rs",
                   "cli_version": "0.46.0", "instructions": "You are Codex, a coding agent."}),
        );
        let message = |role: &str, kind: &str, text: &str| json!({"type": "message", "role": role, "content": [{"type": kind, "text": text}]});
        if self.noisy {
            let context = "<environment_context>\n  <cwd>/home/dev/proj</cwd>\n  <approval_policy>on-request</approval_policy>\n</environment_context>";
            line("response_item", message("user", "input_text", context));
        }
        line("response_item", message("user", "input_text", &self.request));
        line("event_msg", json!({"type": "user_message", "message": self.request}));
        for (t, turn) in self.turns.iter().enumerate() {
            line(
                "turn_context",
                json!({"cwd": "/home/dev/proj", "model": "gpt-5-codex", "approval_policy": "on-request"}),
            );
            if let Some(r) = &turn.reasoning {
                line("response_item", json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": r}]}));
                line("event_msg", json!({"type": "agent_reasoning", "text": r}));
            }
            if !turn.text.is_empty() {
                line("response_item", message("assistant", "output_text", &turn.text));
                line("event_msg", json!({"type": "agent_message", "message": turn.text}));
            }
            for (k, c) in turn.calls.iter().enumerate() {
                let args = json!({"command": ["bash", "-lc", as_command(c)], "workdir": "/home/dev/proj"});
                line(
                    "response_item",
                    json!({"type": "function_call", "name": "shell", "arguments": args.to_string(), "call_id": call_id(t, k)}),
                );
                let code = i32::from(c.is_error);
                if self.noisy {
                    line(
                        "event_msg",
                        json!({"type": "exec_command_begin", "call_id": call_id(t, k), "command": ["bash", "-lc", as_command(c)]}),
                    );
                    line("event_msg", json!({"type": "exec_command_end", "call_id": call_id(t, k), "exit_code": code}));
                }
                let output = json!({"output": c.result, "metadata": {"exit_code": code, "duration_seconds": 0.4}});
                line(
                    "response_item",
                    json!({"type": "function_call_output", "call_id": call_id(t, k), "output": output.to_string()}),
                );
            }
            line(
                "event_msg",
                json!({"type": "token_count", "info": {"total_token_usage": {"input_tokens": 1000 + t}}}),
            );
            if let Some(u) = &turn.user_after {
                line("response_item", message("user", "input_text", u));
                line("event_msg", json!({"type": "user_message", "message": u}));
            }
            if self.noisy && t > 0 && t == self.turns.len() / 2 {
                line("compacted", json!({"message": COMPACTION_SUMMARY}));
            }
        }
        lines.join("\n") + "\n"
    }

    /// gemini-cli's session JSONL: a metadata line, then `user` and `gemini` records, the
    /// latter with `thoughts` and `toolCalls` carrying their results.
    fn gemini_session(&self) -> String {
        let mut lines = vec![json!({"sessionId": "b7c1d2e3-0000-4000-8000-123456789abc", "projectHash": "9f8e7d6c",
                                     "startTime": stamp(0), "lastUpdated": stamp(1)})
        .to_string()];
        lines.push(json!({"id": "u0", "timestamp": stamp(1), "type": "user", "content": self.request}).to_string());
        for (t, turn) in self.turns.iter().enumerate() {
            let thoughts: Vec<Value> = turn
                .reasoning
                .iter()
                .map(|r| json!({"subject": "Planning", "description": r, "timestamp": stamp(t)}))
                .collect();
            let calls: Vec<Value> = turn
                .calls
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    let response = if c.is_error { json!({"error": c.result}) } else { json!({"output": c.result}) };
                    let name = gemini_tool(&c.name);
                    json!({"id": call_id(t, k), "name": name, "args": c.args,
                           "status": if c.is_error { "error" } else { "success" }, "timestamp": stamp(t),
                           "result": [{"functionResponse": {"id": call_id(t, k), "name": name, "response": response}}]})
                })
                .collect();
            let mut record = json!({"id": format!("g{t}"), "timestamp": stamp(t + 2), "type": "gemini", "content": turn.text,
                                    "model": "gemini-2.5-pro", "tokens": {"input": 900 + t, "output": 60}});
            if !thoughts.is_empty() {
                record["thoughts"] = json!(thoughts);
            }
            if !calls.is_empty() {
                record["toolCalls"] = json!(calls);
            }
            lines.push(record.to_string());
            if let Some(u) = &turn.user_after {
                lines.push(
                    json!({"id": format!("u{}", t + 1), "timestamp": stamp(t + 2), "type": "user", "content": u})
                        .to_string(),
                );
            }
            if self.noisy && t % 10 == 3 {
                let info = "Chat history compressed from 48210 to 9120 tokens.";
                lines.push(
                    json!({"id": format!("i{t}"), "timestamp": stamp(t + 2), "type": "info", "content": info})
                        .to_string(),
                );
            }
        }
        lines.push(json!({"$set": {"lastUpdated": stamp(self.turns.len() + 3)}}).to_string());
        lines.join("\n") + "\n"
    }

    /// Cline / Roo Code's `api_conversation_history.json`: the Anthropic messages it sent,
    /// the user's first message wrapped in its task tags with environment details.
    fn cline_history(&self) -> Value {
        let first = format!(
            "<task>\n{}\n</task>\n\n<environment_details>\n# Current Working Directory (/home/dev/proj) Files\nsrc/\ntests/\n</environment_details>",
            self.request
        );
        let mut msgs = vec![json!({"role": "user", "content": [{"type": "text", "text": first}]})];
        for (t, turn) in self.turns.iter().enumerate() {
            let mut blocks = Vec::new();
            if let Some(r) = &turn.reasoning {
                blocks.push(json!({"type": "thinking", "thinking": r, "signature": "sig"}));
            }
            if !turn.text.is_empty() {
                blocks.push(json!({"type": "text", "text": turn.text}));
            }
            for (k, c) in turn.calls.iter().enumerate() {
                blocks.push(
                    json!({"type": "tool_use", "id": call_id(t, k), "name": cline_tool(&c.name), "input": c.args}),
                );
            }
            msgs.push(json!({"role": "assistant", "content": blocks}));
            let mut user: Vec<Value> = turn
                .calls
                .iter()
                .enumerate()
                .map(|(k, c)| json!({"type": "tool_result", "tool_use_id": call_id(t, k), "content": c.result, "is_error": c.is_error}))
                .collect();
            if let Some(u) = &turn.user_after {
                user.push(json!({"type": "text", "text": format!("<feedback>\n{u}\n</feedback>")}));
            }
            if self.noisy && !user.is_empty() {
                let details = format!(
                    "<environment_details>\n# VSCode Visible Files\nsrc/date.rs\n\n# Current Time\n{}\n</environment_details>",
                    stamp(t)
                );
                user.push(json!({"type": "text", "text": details}));
            }
            if !user.is_empty() {
                msgs.push(json!({"role": "user", "content": user}));
            }
        }
        json!(msgs)
    }

    /// OpenHands' trajectory: events with a `source`; actions (`run`, `read`, `edit`,
    /// `message`) with their `thought`, observations pointing at their action by `cause`.
    fn openhands_trajectory(&self) -> Value {
        let mut events = vec![json!({"id": 0, "timestamp": stamp(0), "source": "user", "action": "message",
                                     "args": {"content": self.request, "image_urls": null, "wait_for_response": false}})];
        let mut next = 1;
        for (t, turn) in self.turns.iter().enumerate() {
            let thought =
                turn.reasoning.clone().map(|r| format!("{r}\n{}", turn.text)).unwrap_or_else(|| turn.text.clone());
            if turn.calls.is_empty() {
                events.push(json!({"id": next, "timestamp": stamp(t), "source": "agent", "action": "message",
                                   "args": {"content": turn.text, "thought": turn.reasoning, "wait_for_response": true}}));
                next += 1;
            }
            for (k, c) in turn.calls.iter().enumerate() {
                let (action, args, observation) = openhands_action(c);
                let mut args = args;
                args["thought"] = json!(if k == 0 { thought.clone() } else { String::new() });
                let id = next;
                events.push(json!({"id": id, "timestamp": stamp(t), "source": "agent", "action": action, "args": args,
                                   "tool_call_metadata": {"function_name": c.name, "tool_call_id": call_id(t, k)}}));
                let kind = if c.is_error { "error" } else { observation };
                events.push(
                    json!({"id": id + 1, "timestamp": stamp(t), "source": "agent", "cause": id, "observation": kind,
                                   "content": c.result, "extras": {"metadata": {"exit_code": i32::from(c.is_error)}},
                                   "success": !c.is_error}),
                );
                next += 2;
            }
            if let Some(u) = &turn.user_after {
                events.push(json!({"id": next, "timestamp": stamp(t), "source": "user", "action": "message", "args": {"content": u}}));
                next += 1;
            }
            if self.noisy && t % 10 == 3 {
                events.push(json!({"id": next, "timestamp": stamp(t), "source": "environment", "observation": "agent_state_changed",
                                   "content": "", "extras": {"agent_state": "running"}}));
                next += 1;
            }
            if self.noisy && t > 0 && t == self.turns.len() / 2 {
                events.push(json!({"id": next, "timestamp": stamp(t), "source": "environment", "observation": "agent_condensation",
                                   "content": COMPACTION_SUMMARY, "extras": {}}));
                next += 1;
            }
        }
        json!(events)
    }

    /// SWE-agent's `.traj`: the `trajectory` steps (response, thought, action, observation)
    /// and the `history` of chat messages with `tool_calls` and `tool_call_ids`.
    fn swe_agent_traj(&self) -> Value {
        let mut history = vec![
            json!({"role": "system", "content": "You are a helpful assistant that can interact with a computer.", "message_type": "system_prompt"}),
            json!({"role": "user", "content": self.request, "message_type": "observation"}),
        ];
        let mut trajectory = Vec::new();
        for (t, turn) in self.turns.iter().enumerate() {
            let thought =
                turn.reasoning.clone().map(|r| format!("{r}\n\n{}", turn.text)).unwrap_or_else(|| turn.text.clone());
            let commands: Vec<String> = turn.calls.iter().map(as_command).collect();
            let action = commands.join("\n");
            let calls: Vec<Value> = commands
                .iter()
                .enumerate()
                .map(|(k, cmd)| json!({"id": call_id(t, k), "type": "function", "function": {"name": "bash", "arguments": json!({"command": cmd}).to_string()}}))
                .collect();
            let mut assistant = json!({"role": "assistant", "content": thought, "thought": thought, "action": action, "message_type": "action"});
            if !calls.is_empty() {
                assistant["tool_calls"] = json!(calls);
            }
            history.push(assistant);
            let mut observation: String = turn.calls.iter().map(|c| c.result.as_str()).collect::<Vec<_>>().join("\n");
            if self.noisy && t % 7 == 0 && !observation.is_empty() {
                observation.push_str("\n(Open file: /home/dev/proj/src/date.rs)\n(Current directory: /home/dev/proj)");
            }
            if !turn.calls.is_empty() {
                let ids: Vec<String> = (0..turn.calls.len()).map(|k| call_id(t, k)).collect();
                history.push(json!({"role": "tool", "content": observation, "tool_call_ids": ids, "message_type": "observation"}));
            }
            if let Some(u) = &turn.user_after {
                history.push(json!({"role": "user", "content": u, "message_type": "observation"}));
            }
            trajectory
                .push(json!({"response": thought, "thought": thought, "action": action, "observation": observation,
                                   "execution_time": 0.3, "state": {"working_dir": "/home/dev/proj"}}));
        }
        json!({"environment": "swe_main", "trajectory": trajectory, "history": history,
               "info": {"exit_status": "submitted", "model_stats": {"api_calls": self.turns.len()}}})
    }

    /// aider's `.aider.chat.history.md`: a run header, the user's lines as `####`, the
    /// assistant's text raw, and what aider did (`/run` output, applied edits) as `>` lines.
    fn aider_history(&self) -> String {
        let mut out = String::from("\n# aider chat started at 2026-12-02 09:12:01\n\n> /usr/local/bin/aider --model ollama_chat/qwen3-coder\n> Aider v0.86.1\n> Git repo: .git with 42 files\n\n");
        out.push_str(&format!("#### {}\n\n", self.request));
        for (t, turn) in self.turns.iter().enumerate() {
            if let Some(r) = &turn.reasoning {
                out.push_str(&format!("<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\n{r}\n\n</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\n"));
            }
            if !turn.text.is_empty() {
                out.push_str(&turn.text);
                out.push_str("\n\n");
            }
            for c in &turn.calls {
                out.push_str(&aider_call(c));
            }
            if self.noisy {
                out.push_str(&format!("> Tokens: {}k sent, {} received.\n\n", 8 + t % 40, 100 + t * 7 % 900));
            }
            if let Some(u) = &turn.user_after {
                out.push_str(&format!("#### {u}\n\n"));
            }
        }
        out
    }
}

fn aider_call(c: &Call) -> String {
    let quoted = |text: &str| {
        text.lines().map(|l| if l.is_empty() { ">\n".to_string() } else { format!("> {l}\n") }).collect::<String>()
    };
    match c.name.as_str() {
        "Edit" => {
            let arg = |k: &str| c.args.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            format!(
                "{}\n```\n<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE\n```\n\n> Applied edit to {}\n\n",
                arg("file_path"),
                arg("old_string"),
                arg("new_string"),
                arg("file_path")
            )
        }
        // A shell command the model suggests: aider asks, runs it, and shows its output.
        _ => {
            let command = as_command(c).lines().next().unwrap_or_default().to_string();
            format!(
                "```bash\n{command}\n```\n\n> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y\n>\n> Running {command}\n{}\n",
                quoted(&c.result)
            )
        }
    }
}

fn gemini_tool(name: &str) -> &str {
    match name {
        "Read" => "read_file",
        "Edit" => "replace",
        "Grep" => "search_file_content",
        "bash" => "run_shell_command",
        other => other,
    }
}

fn cline_tool(name: &str) -> &str {
    match name {
        "Read" => "read_file",
        "Edit" => "replace_in_file",
        "Grep" => "search_files",
        "bash" => "execute_command",
        other => other,
    }
}

/// An OpenHands action for a call: its name, its args and the observation it gets.
fn openhands_action(c: &Call) -> (&'static str, Value, &'static str) {
    let arg = |k: &str| c.args.get(k).cloned().unwrap_or(Value::Null);
    match c.name.as_str() {
        "Read" => ("read", json!({"path": arg("file_path")}), "read"),
        "Edit" => (
            "edit",
            json!({"path": arg("file_path"), "old_str": arg("old_string"), "new_str": arg("new_string")}),
            "edit",
        ),
        _ => ("run", json!({"command": as_command(c), "is_input": false}), "run"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent_sessions::{generate, HEALTHY, LOOPING};

    #[test]
    fn every_harness_writes_every_kind_as_its_shape() {
        for &kind in HEALTHY.iter().chain(LOOPING) {
            let s = generate(kind, 1);
            for h in Harness::ALL {
                let bytes = s.to_harness(h);
                let text = String::from_utf8(bytes).expect("UTF-8");
                match h {
                    Harness::Codex | Harness::GeminiCli => {
                        for line in text.lines() {
                            serde_json::from_slice::<Value>(line.as_bytes())
                                .unwrap_or_else(|e| panic!("{h:?} {kind}: {e}: {line}"));
                        }
                    }
                    Harness::Aider => assert!(text.contains("# aider chat started at") && text.contains("#### ")),
                    _ => {
                        serde_json::from_slice::<Value>(text.as_bytes())
                            .unwrap_or_else(|e| panic!("{h:?} {kind}: {e}"));
                    }
                }
                // Every turn's text and every call's result is in the file (escaped or not).
                for turn in &s.turns {
                    let words = turn.text.split_whitespace().next().unwrap_or_default();
                    assert!(text.contains(words), "{h:?} {kind}: {words:?} missing");
                }
            }
        }
    }

    #[test]
    fn a_looping_session_repeats_the_same_call_in_every_harness() {
        let s = generate("same_call_same_result", 0);
        for h in Harness::ALL {
            let text = String::from_utf8(s.to_harness(h)).unwrap();
            let n = text.matches("src/date.rs").count();
            assert!(n >= 15, "{h:?}: the looping call's file appears {n} times");
        }
    }
}
