//! The requests the endpoint probes make: the bodies of the completion (B–D), the tool call
//! (E) and the short stream (F), and the bad key probe G sends.

use serde_json::{json, Value};

/// The key sent by probe G, which no real server should accept.
pub const BAD_KEY: &str = "coherency-check-deliberately-invalid-key";
/// The body for B, C and D: a short, non-streamed completion.
pub fn completion_body(model: &str) -> String {
    json!({
        "model": model,
        "messages": [{"role": "user", "content": "Reply with one short sentence: what is a page fault?"}],
        "max_tokens": 64,
        "stream": false,
    })
    .to_string()
}

/// The body for E: one tool the model must call.
pub fn tool_body(model: &str) -> String {
    json!({
        "model": model,
        "messages": [{"role": "user", "content": "What is the weather in Paris? Use the tool."}],
        "max_tokens": 256,
        "stream": false,
        "tools": [tool()],
        "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    })
    .to_string()
}

/// The body for F: a short streamed completion with usage.
pub fn stream_body(model: &str) -> String {
    json!({
        "model": model,
        "messages": [{"role": "user", "content": "Count from one to twenty in words."}],
        "max_tokens": 64,
        "stream": true,
        "stream_options": {"include_usage": true},
    })
    .to_string()
}

fn tool() -> Value {
    json!({
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                "required": ["city", "unit"],
            },
        },
    })
}
