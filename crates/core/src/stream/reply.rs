//! What a streamed reply adds up to: one [`Reply`] per reply, and [`StreamInfo`] about the stream.
//!
//! Every stream reader (OpenAI chat chunks, Responses events, Anthropic events, Ollama lines)
//! builds the same shapes, so the ingest layer and the live view handle them one way. Each text
//! keeps the byte range of the input it came from: the union of the chunks that fed it.

use serde::{Deserialize, Serialize};
use std::ops::Range;

/// A function call rebuilt from its fragments.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The server's position for the call (`tool_calls[].index`, a content block index…).
    pub index: u64,
    pub id: Option<String>,
    pub name: String,
    /// The arguments as sent: usually JSON, joined from fragments.
    pub arguments: String,
    pub source: Option<Range<usize>>,
}

/// One reply as rebuilt from a stream.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The server's index for the reply, the choice it is (`choices[].index`; 0 elsewhere).
    /// (Named `index` on the wire.)
    #[serde(rename = "index")]
    pub choice: u64,
    pub role: Option<String>,
    pub reasoning: String,
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    pub finish_reason: Option<String>,
    pub reasoning_source: Option<Range<usize>>,
    pub content_source: Option<Range<usize>>,
}

impl Reply {
    pub fn new(choice: u64) -> Self {
        Self { choice, ..Self::default() }
    }

    /// The smallest range covering every chunk that fed the turn.
    pub fn source(&self) -> Option<Range<usize>> {
        let mut out = None;
        for r in self.tool_calls.iter().filter_map(|t| t.source.as_ref()) {
            widen(&mut out, r.clone());
        }
        for r in [&self.reasoning_source, &self.content_source].into_iter().flatten() {
            widen(&mut out, r.clone());
        }
        out
    }
}

/// Grows `range` to cover `by`.
pub fn widen(range: &mut Option<Range<usize>>, by: Range<usize>) {
    *range = Some(match range.take() {
        Some(r) => r.start.min(by.start)..r.end.max(by.end),
        None => by,
    });
}

/// Token counts as the server reported them, under OpenAI's names (Anthropic's
/// `input_tokens` / `output_tokens` and Ollama's `prompt_eval_count` / `eval_count` map here).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: Option<u64>,
    pub completion_tokens: Option<u64>,
    pub total_tokens: Option<u64>,
    /// Of the completion tokens, those spent reasoning, when reported.
    pub reasoning_tokens: Option<u64>,
}

/// What a stream says about itself, beyond the text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamInfo {
    /// Data chunks read (SSE `data:` events or NDJSON lines), end markers excluded.
    pub chunks: usize,
    /// Keep-alive signals: SSE comment lines (`: keep-alive`, `: ping …`,
    /// `: OPENROUTER PROCESSING`) and Anthropic `ping` events.
    pub comments: usize,
    /// The stream's own end marker arrived: `data: [DONE]` (OpenAI chat),
    /// `response.completed` / `.incomplete` / `.failed` (Responses), `message_stop`
    /// (Anthropic), `"done": true` (Ollama). False for a cut stream.
    pub saw_done: bool,
    /// Why the first reply ended (`stop`, `length`, `tool_calls`, `end_turn`…), if said.
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
    pub model: Option<String>,
    /// Errors the stream itself reported (`{"error":…}` chunks, `error` events): the first
    /// [`MAX_LISTED`] (add them with [`StreamInfo::add_error`]).
    pub errors: Vec<String>,
    /// Errors reported beyond those, only counted.
    #[serde(default)]
    pub errors_not_listed: usize,
}

/// The most entries any list of problems keeps — a stream's errors, a reader's diagnostics, a
/// live run's problems; the rest are counted ("… and 499,800 more"). A hostile or broken
/// stream can send millions: memory, output and the page stay bounded.
pub const MAX_LISTED: usize = 200;

impl StreamInfo {
    /// Records an error the stream reported: listed among the first [`MAX_LISTED`], else counted.
    pub fn add_error(&mut self, error: impl Into<String>) {
        if self.errors.len() < MAX_LISTED {
            self.errors.push(error.into());
        } else {
            self.errors_not_listed += 1;
        }
    }
}
