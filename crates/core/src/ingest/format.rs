//! The input formats the ingest layer reads, with the names the CLI and the page use.

use serde::{Deserialize, Serialize};

/// An input format. [`crate::ingest::detect`] picks one; a user may override it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Plain text (UTF-8, BOM dropped): one message.
    Text,
    /// OpenAI chat JSON: a completion, a request body (`messages`, often pretty-printed), a
    /// record of both, a history (an array of messages), or an array of any of them.
    OpenaiJson,
    /// OpenAI Responses JSON: a request body (`input` items, `instructions`), a response
    /// (`output` items), a record of both, or an array of items or of any of them.
    ResponsesJson,
    /// Anthropic Messages JSON: a request body (`system`, `messages` of content blocks), a
    /// reply (`content` blocks), a record of both, or an array of messages or of any of them.
    AnthropicJson,
    /// An OpenAI chat-completions SSE capture (`data:` chunks), any server dialect.
    Sse,
    /// An OpenAI Responses API event stream.
    ResponsesSse,
    /// An Anthropic Messages event stream.
    AnthropicSse,
    /// Ollama's native `/api/chat` (or `/api/generate`) NDJSON stream.
    OllamaNdjson,
    /// A JSONL log: one request and/or response record per line (any API's shape); records
    /// that repeat a growing history are one conversation.
    Jsonl,
    /// An agent session log (Claude Code style): one event per line with content blocks.
    SessionJsonl,
    /// opencode's session export (`opencode export`): session info, messages with parts.
    Opencode,
    /// Codex CLI's rollout JSONL (`session_meta`, `response_item`, `event_msg` lines), or its
    /// legacy form (bare Responses items).
    CodexJsonl,
    /// gemini-cli's session JSONL (`user` / `gemini` records with thoughts and tool calls), its
    /// older single JSON, or a `/chat save` checkpoint (`history` of `{role, parts}`).
    GeminiCli,
    /// Cline / Roo Code's task files: `api_conversation_history.json` (Anthropic messages,
    /// native or XML-in-text tool calls) or `ui_messages.json`.
    Cline,
    /// An OpenHands trajectory: actions and observations linked by `cause` (or V1 events).
    #[serde(rename = "openhands")]
    OpenHands,
    /// A SWE-agent `.traj`: `history` of chat messages with tool calls, and `trajectory` steps.
    SweAgent,
    /// aider's `.aider.chat.history.md`: runs, `####` user lines, `>` tool output.
    Aider,
    /// A live run's captures (the page's soak export): one generation a line, its row and its
    /// stream's body; each capture read as an SSE capture is, one conversation each.
    LiveCaptures,
    /// Not text: nothing to analyse.
    Binary,
}

impl Format {
    /// Every format, in the order a menu lists them.
    pub const ALL: [Format; 19] = [
        Format::Text,
        Format::OpenaiJson,
        Format::ResponsesJson,
        Format::AnthropicJson,
        Format::Sse,
        Format::ResponsesSse,
        Format::AnthropicSse,
        Format::OllamaNdjson,
        Format::Jsonl,
        Format::SessionJsonl,
        Format::Opencode,
        Format::CodexJsonl,
        Format::GeminiCli,
        Format::Cline,
        Format::OpenHands,
        Format::SweAgent,
        Format::Aider,
        Format::LiveCaptures,
        Format::Binary,
    ];

    /// The short name (`--format` value, JSON field).
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::OpenaiJson => "openai-json",
            Format::ResponsesJson => "responses-json",
            Format::AnthropicJson => "anthropic-json",
            Format::Sse => "sse",
            Format::ResponsesSse => "responses-sse",
            Format::AnthropicSse => "anthropic-sse",
            Format::OllamaNdjson => "ollama-ndjson",
            Format::Jsonl => "jsonl",
            Format::SessionJsonl => "session-jsonl",
            Format::Opencode => "opencode",
            Format::CodexJsonl => "codex-jsonl",
            Format::GeminiCli => "gemini-cli",
            Format::Cline => "cline",
            Format::OpenHands => "openhands",
            Format::SweAgent => "swe-agent",
            Format::Aider => "aider",
            Format::LiveCaptures => "live-captures",
            Format::Binary => "binary",
        }
    }

    /// What a person would call it.
    pub fn label(self) -> &'static str {
        match self {
            Format::Text => "plain text",
            Format::OpenaiJson => "OpenAI chat request or reply (JSON)",
            Format::ResponsesJson => "OpenAI Responses request or reply (JSON)",
            Format::AnthropicJson => "Anthropic Messages request or reply (JSON)",
            Format::Sse => "OpenAI chat completion stream (SSE)",
            Format::ResponsesSse => "OpenAI Responses stream (SSE)",
            Format::AnthropicSse => "Anthropic Messages stream (SSE)",
            Format::OllamaNdjson => "Ollama native stream (NDJSON)",
            Format::Jsonl => "request/response log (JSONL)",
            Format::SessionJsonl => "agent session log (JSONL)",
            Format::Opencode => "opencode session export (JSON)",
            Format::CodexJsonl => "Codex CLI session rollout (JSONL)",
            Format::GeminiCli => "gemini-cli session (JSONL or JSON)",
            Format::Cline => "Cline / Roo Code task history (JSON)",
            Format::OpenHands => "OpenHands trajectory (JSON)",
            Format::SweAgent => "SWE-agent trajectory (.traj)",
            Format::Aider => "aider chat history (Markdown)",
            Format::LiveCaptures => "live run captures (JSONL)",
            Format::Binary => "binary (not text)",
        }
    }

    /// The format with this short name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn names_round_trip_and_match_serde() {
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
            assert_eq!(serde_json::to_string(&f).unwrap(), format!("\"{}\"", f.name()));
        }
        assert_eq!(Format::from_name("auto"), None);
    }
}
