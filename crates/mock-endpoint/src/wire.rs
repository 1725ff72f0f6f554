//! The OpenAI chat-completion JSON shapes the mock sends, as structs so the fields come out
//! in the order real servers use (`id`, `object`, `created`, `model`, `choices`, `usage`).

use crate::reasoning_field::ReasoningField;
use serde::Serialize;
use serde_json::{json, Value};

/// One `chat.completion.chunk`.
#[derive(Serialize)]
pub struct Chunk<'a> {
    pub id: &'a str,
    pub object: &'static str,
    pub created: u64,
    pub model: &'a str,
    pub choices: Vec<ChunkChoice<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

#[derive(Serialize)]
pub struct ChunkChoice<'a> {
    pub index: u32,
    pub delta: Delta<'a>,
    pub logprobs: Option<Value>,
    pub finish_reason: Option<&'a str>,
}

/// A delta: absent fields are left out; `content: Some(None)` sends `"content": null`.
#[derive(Default, Serialize)]
pub struct Delta<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_details: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Value>,
}

impl<'a> Delta<'a> {
    /// A delta carrying reasoning under `field` (inline: as content).
    pub fn reasoning(field: ReasoningField, text: &'a str) -> Self {
        match field {
            ReasoningField::ReasoningContent => Delta { reasoning_content: Some(text), ..Delta::default() },
            ReasoningField::Reasoning => Delta { reasoning: Some(text), ..Delta::default() },
            ReasoningField::ReasoningDetails => Delta { reasoning_details: Some(details(text)), ..Delta::default() },
            ReasoningField::InlineThink => Delta { content: Some(Some(text)), ..Delta::default() },
        }
    }
}

/// OpenRouter's `reasoning_details` holding `text`.
pub fn details(text: &str) -> Value {
    json!([{"type": "reasoning.text", "text": text, "format": "unknown", "index": 0}])
}

#[derive(Clone, Copy, Serialize)]
pub struct Usage {
    pub prompt_tokens: usize,
    pub completion_tokens: usize,
    pub total_tokens: usize,
}

impl Usage {
    pub fn new(prompt_tokens: usize, completion_tokens: usize) -> Self {
        Usage { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens }
    }
}

/// A whole, non-streamed `chat.completion`.
#[derive(Serialize)]
pub struct Completion<'a> {
    pub id: &'a str,
    pub object: &'static str,
    pub created: u64,
    pub model: &'a str,
    pub choices: Vec<Choice<'a>>,
    pub usage: Usage,
}

#[derive(Serialize)]
pub struct Choice<'a> {
    pub index: u32,
    pub message: Message<'a>,
    pub logprobs: Option<Value>,
    pub finish_reason: &'a str,
}

#[derive(Serialize)]
pub struct Message<'a> {
    pub role: &'static str,
    pub content: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_content: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_details: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Value>,
}
