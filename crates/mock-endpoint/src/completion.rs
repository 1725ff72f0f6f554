//! A [`Reply`] as one non-streamed `chat.completion` object (with `logprobs.content` when the
//! request asked for them).

use crate::reasoning_field::ReasoningField;
use crate::reply::Reply;
use crate::token_logprobs::wire_logprobs;
use crate::wire::{details, Choice, Completion, Message};
use serde_json::json;

/// The completion's JSON, its reasoning placed as `field` says.
pub fn body(reply: &Reply, id: &str, created: u64, model: &str, field: ReasoningField) -> String {
    let reasoning = Some(reply.reasoning.as_str()).filter(|r| !r.is_empty());
    let content = field.content_with(&reply.reasoning, &reply.content);
    let mut message = Message {
        role: "assistant",
        content: Some(&content),
        reasoning_content: reasoning.filter(|_| field == ReasoningField::ReasoningContent),
        reasoning: reasoning.filter(|_| field == ReasoningField::Reasoning),
        reasoning_details: reasoning.filter(|_| field == ReasoningField::ReasoningDetails).map(details),
        tool_calls: None,
    };
    if let Some(call) = &reply.tool_call {
        message.content = None;
        message.tool_calls = Some(json!([{
            "id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}]));
    }
    let completion = Completion {
        id,
        object: "chat.completion",
        created,
        model,
        choices: vec![Choice {
            index: 0,
            message,
            logprobs: reply.tokens.as_deref().map(wire_logprobs),
            finish_reason: reply.finish_reason,
        }],
        usage: reply.usage(),
    };
    serde_json::to_string(&completion).unwrap_or_default()
}
