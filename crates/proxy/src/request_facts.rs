//! What the proxy reads of a request, apart from forwarding it (which requests are
//! generations: [`crate::dialect::Dialect::of`]): what their bodies ask (model, streamed or not, the token limit, the seed), and
//! the keys in their headers — kept in memory only, to cut them out of a capture that echoes
//! them, never logged or stored.

use serde_json::Value;

/// Request bodies kept (a copy, while forwarding) to read their facts, at most: a body past
/// it is still forwarded whole, only not read.
pub const MAX_FACTS_BODY: usize = 8 << 20;

/// What a generation's request body asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestFacts {
    pub model: Option<String>,
    pub stream: bool,
    /// `max_tokens`, `max_completion_tokens`, `max_output_tokens` (Responses) or
    /// `options.num_predict` (Ollama).
    pub max_tokens: Option<u64>,
    pub seed: Option<u64>,
    /// Its messages hold tool calls or results: the tool-call check across turns applies.
    pub tool_history: bool,
}

impl RequestFacts {
    /// Reads a request body; what is not there (or not JSON) stays unknown.
    pub fn read(body: &[u8]) -> RequestFacts {
        let Ok(Value::Object(o)) = serde_json::from_slice::<Value>(body) else {
            return RequestFacts::default();
        };
        let tool_history = crate::tool_calls::has_tool_history_in(&o);
        RequestFacts {
            model: o.get("model").and_then(Value::as_str).map(str::to_string),
            stream: o.get("stream").and_then(Value::as_bool).unwrap_or(false),
            max_tokens: ["max_tokens", "max_completion_tokens", "max_output_tokens"]
                .iter()
                .find_map(|k| o.get(*k).and_then(Value::as_u64))
                .or_else(|| o.get("options")?.get("num_predict")?.as_u64()),
            seed: o.get("seed").and_then(Value::as_u64),
            tool_history,
        }
    }
}

/// The secrets of a request's headers, as (name, value) pairs: the token of
/// `Authorization: Bearer …` (or the whole value of another scheme), `x-api-key`, `api-key`.
pub fn keys_in<'a>(headers: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> Vec<String> {
    let mut keys = Vec::new();
    for (name, value) in headers {
        let Ok(value) = std::str::from_utf8(value) else { continue };
        let value = value.trim();
        let key = match name.to_ascii_lowercase().as_str() {
            "authorization" | "proxy-authorization" => value.split_once(' ').map_or(value, |(_, token)| token.trim()),
            "x-api-key" | "api-key" | "x-goog-api-key" => value,
            _ => continue,
        };
        // A key too short to be one would cut ordinary words out of the capture.
        if key.len() >= 8 {
            keys.push(key.to_string());
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_read_from_the_body_and_unknown_when_absent() {
        let f =
            RequestFacts::read(br#"{"model":"m","stream":true,"max_completion_tokens":300,"seed":7,"messages":[]}"#);
        assert_eq!(
            f,
            RequestFacts {
                model: Some("m".into()),
                stream: true,
                max_tokens: Some(300),
                seed: Some(7),
                tool_history: false
            }
        );
        assert_eq!(RequestFacts::read(br#"{"model":"q","options":{"num_predict":64}}"#).max_tokens, Some(64));
        assert_eq!(RequestFacts::read(br#"{"max_output_tokens":9}"#).max_tokens, Some(9));
        assert_eq!(RequestFacts::read(b"{not json"), RequestFacts::default());
        assert_eq!(RequestFacts::read(br#"{"max_tokens":-1,"stream":"yes"}"#), RequestFacts::default());
    }

    #[test]
    fn keys_come_from_the_auth_headers_only() {
        let headers: [(&str, &[u8]); 5] = [
            ("Authorization", b"Bearer sk-test-secret-1"),
            ("x-api-key", b" anthropic-key-22 "),
            ("content-type", b"application/json"),
            ("api-key", b"short"),
            ("authorization", b"\xff\xfe"),
        ];
        assert_eq!(keys_in(headers), ["sk-test-secret-1", "anthropic-key-22"]);
    }
}
