//! The OpenAI chat-completion wire shapes, as read (chunks, completions, messages, usage).
//!
//! Only the fields the analysis needs, every one optional: servers add fields, omit optional
//! ones and send `null` where a value is expected. Shared by the stream assembler and the
//! readers of non-streamed replies and request logs.

use super::lenient;
use super::reply::Usage;
use serde::Deserialize;

/// A streamed `chat.completion.chunk`, a whole `chat.completion`, or an error body.
#[derive(Debug, Default, Deserialize)]
pub struct Completion {
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub choices: Option<Vec<Choice>>,
    #[serde(default)]
    pub usage: Option<UsageIn>,
    #[serde(default)]
    pub error: Option<serde_json::Value>,
    /// FastAPI-style error body: `{"detail":"Invalid API key"}`.
    #[serde(default)]
    pub detail: Option<serde_json::Value>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Choice {
    #[serde(default)]
    pub index: Option<u64>,
    #[serde(default)]
    pub delta: Option<MessageIn>,
    #[serde(default)]
    pub message: Option<MessageIn>,
    /// Legacy `/v1/completions` text.
    #[serde(default, deserialize_with = "lenient::text")]
    pub text: Option<String>,
    #[serde(default)]
    pub finish_reason: Option<String>,
}

/// A message (request or reply) or a streamed delta: the same fields.
#[derive(Debug, Default, Deserialize)]
pub struct MessageIn {
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default, deserialize_with = "lenient::text")]
    pub content: Option<String>,
    #[serde(default, deserialize_with = "lenient::text")]
    pub reasoning_content: Option<String>,
    #[serde(default, deserialize_with = "lenient::text")]
    pub reasoning: Option<String>,
    #[serde(default)]
    pub reasoning_details: Option<Vec<ReasoningDetail>>,
    /// Ollama's native field.
    #[serde(default, deserialize_with = "lenient::text")]
    pub thinking: Option<String>,
    #[serde(default)]
    pub tool_calls: Option<Vec<ToolCallIn>>,
    #[serde(default)]
    pub name: Option<String>,
}

impl MessageIn {
    /// The reasoning text of this message or delta. Servers that send it under several
    /// fields at once (OpenRouter: `reasoning` and `reasoning_details`) send the same text, so
    /// the first non-empty one wins.
    /// The field it was taken from comes with it (see [`REASONING_FIELDS`]).
    pub fn take_reasoning(&mut self) -> Option<(&'static str, String)> {
        let fields = [self.reasoning_content.take(), self.reasoning.take(), self.thinking.take()];
        pick_reasoning_field(fields, self.reasoning_details.take())
    }
}

/// A message's reasoning fields, in the order their text is taken: the first non-empty wins.
pub const REASONING_FIELDS: [&str; 4] = ["reasoning_content", "reasoning", "thinking", "reasoning_details"];

/// The reasoning among a message's reasoning fields (`reasoning_content`, `reasoning`,
/// `thinking`, in that order) and its `reasoning_details`: the first non-empty one.
pub fn pick_reasoning(fields: [Option<String>; 3], details: Option<Vec<ReasoningDetail>>) -> Option<String> {
    pick_reasoning_field(fields, details).map(|(_, text)| text)
}

/// [`pick_reasoning`], with the name of the field the text came from.
pub fn pick_reasoning_field(
    fields: [Option<String>; 3],
    details: Option<Vec<ReasoningDetail>>,
) -> Option<(&'static str, String)> {
    let details: String = details.iter().flatten().filter_map(|d| d.text.as_deref().or(d.summary.as_deref())).collect();
    let joined = Some(details).filter(|t| !t.is_empty());
    REASONING_FIELDS
        .into_iter()
        .zip(fields.into_iter().chain([joined]))
        .find_map(|(name, text)| text.filter(|t| !t.is_empty()).map(|t| (name, t)))
}

/// `reasoning_details[]`: `{"type":"reasoning.text","text":…}` or `reasoning.summary`.
#[derive(Debug, Default, Deserialize)]
pub struct ReasoningDetail {
    #[serde(default, deserialize_with = "lenient::text")]
    pub text: Option<String>,
    #[serde(default, deserialize_with = "lenient::text")]
    pub summary: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct ToolCallIn {
    #[serde(default)]
    pub index: Option<u64>,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub function: Option<FunctionIn>,
}

#[derive(Debug, Default, Deserialize)]
pub struct FunctionIn {
    #[serde(default)]
    pub name: Option<String>,
    /// A string of JSON (OpenAI) or a JSON object (Ollama native): kept as text either way.
    #[serde(default, deserialize_with = "json_text")]
    pub arguments: Option<String>,
}

/// Reads a string as itself and any other JSON value as its compact JSON text.
pub fn json_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s),
        v => Some(v.to_string()),
    })
}

/// Usage under any of the names servers use.
#[derive(Debug, Default, Deserialize)]
pub struct UsageIn {
    #[serde(default, alias = "input_tokens", alias = "prompt_eval_count")]
    pub prompt_tokens: Option<u64>,
    #[serde(default, alias = "output_tokens", alias = "eval_count")]
    pub completion_tokens: Option<u64>,
    #[serde(default)]
    pub total_tokens: Option<u64>,
    #[serde(default, alias = "output_tokens_details")]
    pub completion_tokens_details: Option<TokenDetails>,
}

#[derive(Debug, Default, Deserialize)]
pub struct TokenDetails {
    #[serde(default)]
    pub reasoning_tokens: Option<u64>,
}

impl From<UsageIn> for Usage {
    fn from(u: UsageIn) -> Self {
        Usage {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
            total_tokens: u.total_tokens,
            reasoning_tokens: u.completion_tokens_details.and_then(|d| d.reasoning_tokens),
        }
    }
}

/// A short text for an error value: its `message` when it has one, else its JSON.
pub fn error_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(o) => match o.get("message").or_else(|| o.get("error")) {
            Some(m) => error_text(m),
            None => v.to_string(),
        },
        _ => v.to_string(),
    }
}
