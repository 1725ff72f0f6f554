//! Which API a generation speaks, from its request's method and path, and what that means for
//! reading its reply: OpenAI chat completions (and the legacy text completions), the OpenAI
//! Responses API (Codex CLI's), Anthropic Messages (Claude Code's) and Ollama's native API.
//! Each reply is read by the core's pump and assembler for its dialect — the ones a saved
//! capture of it is read with — so the proxy, `coherency analyze` and the page read a
//! generation the same way.

use coherency_core::live::LiveSession;
use coherency_core::stream::{
    AnthropicAssembler, ChatAssembler, LivePump, NdjsonPump, OllamaAssembler, ResponsesAssembler, SsePump,
};

/// A generation's API. See the module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `POST …/chat/completions`, `POST …/completions`: SSE `data:` chunks, `[DONE]`.
    Chat,
    /// `POST …/responses`: SSE `response.*` events.
    Responses,
    /// `POST …/v1/messages`: SSE `message_start`, `content_block_*`, `message_delta`, `message_stop`.
    Anthropic,
    /// `POST /api/chat`, `POST /api/generate`: NDJSON lines, the last `"done": true`.
    Ollama,
}

impl Dialect {
    /// The dialect of a request whose reply the proxy scores; `None` for every other request
    /// (passed on, not logged).
    pub fn of(method: &str, path: &str) -> Option<Dialect> {
        if !method.eq_ignore_ascii_case("POST") {
            return None;
        }
        let path = path.trim_end_matches('/');
        if path.ends_with("/chat/completions") || path.ends_with("/completions") {
            Some(Dialect::Chat)
        } else if path.ends_with("/responses") {
            Some(Dialect::Responses)
        } else if path.ends_with("/v1/messages") || path == "/messages" {
            // Anthropic's (not, say, the Assistants API's `/v1/threads/{id}/messages`).
            Some(Dialect::Anthropic)
        } else if path.ends_with("/api/chat") || path.ends_with("/api/generate") {
            Some(Dialect::Ollama)
        } else {
            None
        }
    }

    /// The core's pump and assembler for this dialect's stream.
    pub fn pump(self) -> Box<dyn LivePump> {
        match self {
            Dialect::Chat => Box::new(SsePump::new(ChatAssembler::new())),
            Dialect::Responses => Box::new(SsePump::new(ResponsesAssembler::new())),
            Dialect::Anthropic => Box::new(SsePump::new(AnthropicAssembler::new())),
            Dialect::Ollama => Box::new(NdjsonPump::new(OllamaAssembler::new())),
        }
    }

    /// A live session reading this dialect's stream, started at `started_ms`.
    pub fn session(self, started_ms: f64) -> LiveSession {
        LiveSession::with_pump(started_ms, self.pump())
    }

    /// Whether a reply of this `mime` type (lower case, no parameters) is this dialect's stream.
    pub fn is_stream(self, mime: &str) -> bool {
        mime == "text/event-stream" || (self == Dialect::Ollama && mime == "application/x-ndjson")
    }

    /// Whether each line of its stream is an event (NDJSON), rather than each blank-line-ended
    /// block (SSE).
    pub fn lines(self) -> bool {
        self == Dialect::Ollama
    }

    /// The `format` a log line names for its capture (the core's format name); `None` for
    /// chat, the live-captures format's own.
    pub fn format(self) -> Option<&'static str> {
        match self {
            Dialect::Chat => None,
            Dialect::Responses => Some("responses-sse"),
            Dialect::Anthropic => Some("anthropic-sse"),
            Dialect::Ollama => Some("ollama-ndjson"),
        }
    }

    /// A whole JSON reply (not streamed) as the capture its session reads: for the SSE
    /// dialects one event whose data lines are the body's lines (the assemblers read a whole
    /// reply as one event); for Ollama one NDJSON line (its whole reply is the last line of a
    /// stream), the body's line ends — whitespace between JSON tokens — made spaces.
    pub fn whole_capture(self, body: &[u8]) -> Vec<u8> {
        let mut capture = Vec::with_capacity(body.len() + 64);
        if self.lines() {
            capture.extend(body.iter().map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }));
            capture.push(b'\n');
            return capture;
        }
        for line in body.split(|&b| b == b'\n') {
            capture.extend_from_slice(b"data: ");
            capture.extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
            capture.push(b'\n');
        }
        capture.push(b'\n');
        capture
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::live::Ending;

    #[test]
    fn generations_are_posts_to_the_four_apis() {
        let of = |m, p| Dialect::of(m, p);
        assert_eq!(of("POST", "/v1/chat/completions"), Some(Dialect::Chat));
        assert_eq!(of("post", "/api/v1/completions"), Some(Dialect::Chat));
        assert_eq!(of("POST", "/v1/responses"), Some(Dialect::Responses));
        assert_eq!(of("POST", "/v1/messages"), Some(Dialect::Anthropic));
        assert_eq!(of("POST", "/api/chat"), Some(Dialect::Ollama));
        assert_eq!(of("POST", "/api/generate"), Some(Dialect::Ollama));
        assert_eq!(of("GET", "/v1/chat/completions"), None);
        assert_eq!(of("POST", "/anthropic/v1/messages"), Some(Dialect::Anthropic));
        assert_eq!(of("POST", "/v1/messages/count_tokens"), None);
        assert_eq!(of("POST", "/v1/threads/thread_1/messages"), None);
        assert_eq!(of("POST", "/v1/embeddings"), None);
        assert_eq!(of("GET", "/v1/responses/resp_1"), None);
    }

    #[test]
    fn whole_replies_are_read_by_their_dialects_session() {
        let looped = "The lock is held.\n".repeat(40);
        let replies = [
            (
                Dialect::Chat,
                serde_json::json!({"object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": looped}}]}),
            ),
            (
                Dialect::Responses,
                serde_json::json!({"object": "response", "status": "completed",
                "output": [{"type": "message", "content": [{"type": "output_text", "text": looped}]}]}),
            ),
            (
                Dialect::Anthropic,
                serde_json::json!({"type": "message", "role": "assistant", "content": [{"type": "text", "text": looped}]}),
            ),
            (
                Dialect::Ollama,
                serde_json::json!({"model": "m", "message": {"role": "assistant", "content": looped}, "done": true}),
            ),
        ];
        for (dialect, body) in replies {
            let pretty = serde_json::to_vec_pretty(&body).unwrap();
            let mut s = dialect.session(0.0);
            s.feed(&dialect.whole_capture(&pretty), 1.0);
            s.end(Ending::Closed, 2.0);
            assert_eq!(s.content_text(), looped, "{dialect:?}");
            assert!(s.stats().problems.is_empty(), "{dialect:?}: {:?}", s.stats().problems);
        }
    }
}
