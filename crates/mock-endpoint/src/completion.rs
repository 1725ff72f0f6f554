//! A [`Reply`] as one non-streamed `chat.completion` object.

use crate::reply::Reply;
use crate::wire::{Choice, Completion, Message};
use serde_json::json;

pub fn body(reply: &Reply, id: &str, created: u64, model: &str, reasoning_field: &str) -> String {
    let reasoning = Some(reply.reasoning.as_str()).filter(|r| !r.is_empty());
    let mut message = Message {
        role: "assistant",
        content: Some(&reply.content),
        reasoning_content: reasoning.filter(|_| reasoning_field != "reasoning"),
        reasoning: reasoning.filter(|_| reasoning_field == "reasoning"),
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
        choices: vec![Choice { index: 0, message, logprobs: None, finish_reason: reply.finish_reason }],
        usage: reply.usage(),
    };
    serde_json::to_string(&completion).unwrap_or_default()
}
