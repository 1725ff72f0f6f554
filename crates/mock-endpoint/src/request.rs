//! A chat completion request: the fields the mock acts on, read leniently from the JSON body.

use serde_json::Value;

/// A function the client offers (`tools[].function`).
#[derive(Clone, Debug)]
pub struct Tool {
    pub name: String,
    /// The JSON schema of the arguments.
    pub parameters: Value,
}

#[derive(Clone, Debug)]
pub struct ChatRequest {
    pub model: Option<String>,
    pub stream: bool,
    /// `stream_options.include_usage`.
    pub include_usage: bool,
    /// `max_completion_tokens` or `max_tokens`; a token counts as a word here.
    pub max_tokens: Option<usize>,
    pub tools: Vec<Tool>,
    /// The tool to call, if the request wants one: `tool_choice` names it, or is
    /// `auto`/`required`/absent with tools given (the first is called); `none` calls none.
    pub tool_to_call: Option<usize>,
    /// Each message's text (a string content, or its parts' texts joined), in order.
    pub messages: Vec<String>,
    /// Words in the messages, as a stand-in for prompt tokens.
    pub prompt_tokens: usize,
    /// `seed`, which varies the generated prose.
    pub seed: u64,
    /// `temperature` (absent: the API's default, 1).
    pub temperature: Option<f64>,
    /// `logprobs: true`, and `top_logprobs` (0–20).
    pub logprobs: bool,
    pub top_logprobs: usize,
    /// A hash of the messages' texts: what a greedy reply of the reference models depends on.
    pub prompt_hash: u64,
}

/// Reads a request body; the error is a message for a 400 answer.
pub fn parse(body: &[u8]) -> Result<ChatRequest, String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| format!("the body is not JSON: {e}"))?;
    let obj = v.as_object().ok_or("the body must be a JSON object")?;
    let messages = obj.get("messages").and_then(Value::as_array).ok_or("`messages` (an array) is required")?;
    let prompt_tokens = messages.iter().map(|m| words_in(m.get("content").unwrap_or(&Value::Null)) + 1).sum::<usize>();
    let tools: Vec<Tool> = obj
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| {
            let f = t.get("function")?;
            Some(Tool {
                name: f.get("name")?.as_str()?.to_string(),
                parameters: f.get("parameters").cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
    let tool_to_call = match obj.get("tool_choice") {
        _ if tools.is_empty() => None,
        Some(Value::String(s)) if s == "none" => None,
        Some(Value::Object(c)) => {
            let name = c.get("function").and_then(|f| f.get("name")).and_then(Value::as_str);
            Some(name.and_then(|n| tools.iter().position(|t| t.name == n)).unwrap_or(0))
        }
        _ => Some(0),
    };
    let max_tokens = ["max_completion_tokens", "max_tokens"]
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_u64))
        .map(|n| n as usize);
    Ok(ChatRequest {
        model: obj.get("model").and_then(Value::as_str).map(String::from),
        stream: obj.get("stream").and_then(Value::as_bool).unwrap_or(false),
        include_usage: obj
            .get("stream_options")
            .and_then(|o| o.get("include_usage"))
            .and_then(Value::as_bool)
            .unwrap_or(false),
        max_tokens,
        tools,
        tool_to_call,
        messages: messages.iter().map(|m| text_of(m.get("content").unwrap_or(&Value::Null))).collect(),
        prompt_tokens: prompt_tokens.max(1),
        seed: obj.get("seed").and_then(Value::as_u64).unwrap_or(0),
        temperature: obj.get("temperature").and_then(Value::as_f64),
        logprobs: obj.get("logprobs").and_then(Value::as_bool).unwrap_or(false),
        top_logprobs: obj.get("top_logprobs").and_then(Value::as_u64).map_or(0, |n| n.min(20) as usize),
        prompt_hash: messages.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, m| {
            text_of(m.get("content").unwrap_or(&Value::Null))
                .bytes()
                .chain([0])
                .fold(h, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
        }),
    })
}

/// A message's content as text: a string, or the `text` of its parts joined.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p.get("text")?.as_str()).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    }
}

/// Words in a message's content: a string, or an array of parts with `text`.
fn words_in(content: &Value) -> usize {
    match content {
        Value::String(s) => s.split_whitespace().count(),
        Value::Array(parts) => parts.iter().map(|p| words_in(p.get("text").unwrap_or(&Value::Null))).sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_that_matter() {
        let r = parse(
            br#"{"model":"mock-line-loop","messages":[{"role":"user","content":"write a long essay"}],
                "stream":true,"stream_options":{"include_usage":true},"max_tokens":50,"seed":3}"#,
        )
        .unwrap();
        assert_eq!(r.model.as_deref(), Some("mock-line-loop"));
        assert!(r.stream && r.include_usage);
        assert_eq!((r.max_tokens, r.prompt_tokens, r.seed, r.tool_to_call), (Some(50), 5, 3, None));
    }

    #[test]
    fn tool_choice() {
        let tools = r#""tools":[{"type":"function","function":{"name":"a","parameters":{}}},
                               {"type":"function","function":{"name":"b","parameters":{}}}]"#;
        let pick =
            |choice: &str| parse(format!(r#"{{"messages":[],{tools}{choice}}}"#).as_bytes()).unwrap().tool_to_call;
        assert_eq!(pick(""), Some(0));
        assert_eq!(pick(r#","tool_choice":"required""#), Some(0));
        assert_eq!(pick(r#","tool_choice":"none""#), None);
        assert_eq!(pick(r#","tool_choice":{"type":"function","function":{"name":"b"}}"#), Some(1));
        assert!(parse(b"[]").is_err());
        assert!(parse(b"{}").is_err());
        assert!(parse(b"nope").is_err());
    }
}
