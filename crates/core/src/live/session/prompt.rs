//! The prompt a live run's reply answers: the last user message of the request it streams (an
//! OpenAI chat `messages` list, whose content is a string or a list of text parts; a Responses
//! API `input`; a completions `prompt`). The content's analyzer measures topic drift against it
//! as the offline judge does with a transcript's last user message before a reply
//! ([`prompt_of`](crate::judge::prompt::prompt_of)).

use serde_json::Value;

/// The prompt of request `body` (JSON), if it names one.
pub fn prompt_of_request(body: &str) -> Option<String> {
    let request: Value = serde_json::from_slice(body.as_bytes()).ok()?;
    let text = |content: &Value| -> Option<String> {
        match content {
            Value::String(s) => Some(s.clone()),
            Value::Array(parts) => {
                let texts: Vec<&str> =
                    parts.iter().filter_map(|p| p.as_str().or_else(|| p.get("text").and_then(Value::as_str))).collect();
                (!texts.is_empty()).then(|| texts.join("\n"))
            }
            _ => None,
        }
    };
    let last_user = |messages: &Value| -> Option<String> {
        messages
            .as_array()?
            .iter()
            .rev()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
            .and_then(|m| m.get("content").and_then(text))
    };
    let found = last_user(&request["messages"])
        .or_else(|| match &request["input"] {
            Value::String(s) => Some(s.clone()),
            input @ Value::Array(_) => last_user(input),
            _ => None,
        })
        .or_else(|| request["prompt"].as_str().map(str::to_string))?;
    (!found.trim().is_empty()).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_user_message_of_each_api() {
        let chat = r#"{"model":"m","messages":[{"role":"system","content":"Be brief."},
            {"role":"user","content":"First question"},{"role":"assistant","content":"An answer"},
            {"role":"user","content":[{"type":"text","text":"Explain the page cache"},{"type":"image_url","image_url":{"url":"x"}}]}]}"#;
        assert_eq!(prompt_of_request(chat).as_deref(), Some("Explain the page cache"));
        let responses = r#"{"model":"m","input":[{"role":"user","content":"Tell me about kernels"}]}"#;
        assert_eq!(prompt_of_request(responses).as_deref(), Some("Tell me about kernels"));
        assert_eq!(prompt_of_request(r#"{"input":"Plain input"}"#).as_deref(), Some("Plain input"));
        assert_eq!(prompt_of_request(r#"{"prompt":"Once upon a time"}"#).as_deref(), Some("Once upon a time"));
    }

    #[test]
    fn no_prompt_is_none() {
        for body in ["", "not json", "{}", r#"{"messages":[{"role":"system","content":"x"}]}"#, r#"{"prompt":"  "}"#] {
            assert_eq!(prompt_of_request(body), None, "{body}");
        }
    }
}
