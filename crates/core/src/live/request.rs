//! The request a live run sends: `POST {base}/chat/completions` with the form's model, prompt,
//! `max_tokens`, `temperature`, `stream: true` and `stream_options.include_usage: true`, with the
//! advanced JSON object merged over it. The API key is not part of the body or the URL: the
//! caller puts it in an `Authorization` header, and only when one is given.

use serde_json::{json, Map, Value};

/// The form as the user filled it in (strings as typed; parsed here).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RequestForm {
    pub base_url: String,
    pub model: String,
    pub prompt: String,
    pub max_tokens: String,
    pub temperature: String,
    /// A JSON object merged into the body (empty: nothing).
    pub extra_json: String,
}

/// A request ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatRequest {
    pub url: String,
    /// The JSON body.
    pub body: String,
}

/// The default prompt: long technical prose, so a healthy model writes 6,000+ words.
pub const DEFAULT_PROMPT: &str =
    "Write a detailed, book-length technical treatise on operating-system kernel internals. \
Cover, in order and in depth: process and thread management, scheduling (CFS, EEVDF, real-time classes), \
virtual memory and page tables, page reclaim and swapping, the page cache and writeback, file systems and the VFS, \
the block layer and I/O schedulers, interrupts and softirqs, locking (spinlocks, RCU, seqlocks), system calls, \
networking from the NIC driver to sockets, security (capabilities, namespaces, seccomp), and debugging and tracing. \
For each part explain the data structures, the algorithms, their trade-offs and their history, with concrete examples. \
Write at least 6,000 words of continuous prose with section headings; do not summarise or stop early.";

/// Prompts to pick from: (label, prompt). The first is the default.
pub const PRESETS: &[(&str, &str)] = &[
    ("Kernel internals treatise (long)", DEFAULT_PROMPT),
    (
        "Database storage engines (long)",
        "Write a detailed technical treatise of at least 6,000 words on database storage engines: B-trees and \
LSM-trees, write-ahead logging, MVCC, buffer pools, compaction, query execution and recovery. Use section \
headings and concrete examples, and do not stop early.",
    ),
    (
        "Compiler construction (long)",
        "Write a detailed technical treatise of at least 6,000 words on how an optimising compiler works: lexing, \
parsing, type checking, SSA form, data-flow analysis, register allocation, instruction selection and linking. Use \
section headings and concrete examples, and do not stop early.",
    ),
    ("Short check (a paragraph)", "Explain in one paragraph what a page fault is."),
];

/// `{base}/models`, the base URL trimmed and its trailing slashes dropped.
pub fn models_url(base_url: &str) -> String {
    endpoint_url(base_url, "models")
}

/// `{base}/chat/completions`, the base URL trimmed and its trailing slashes dropped.
pub fn chat_url(base_url: &str) -> String {
    endpoint_url(base_url, "chat/completions")
}

/// The one join of a base URL as typed and an endpoint's path.
fn endpoint_url(base_url: &str, path: &str) -> String {
    format!("{}/{path}", base_url.trim().trim_end_matches('/'))
}

/// Builds the streamed chat-completion request, or says in words what is wrong with the form.
pub fn build_request(form: &RequestForm) -> Result<ChatRequest, String> {
    let base = form.base_url.trim().trim_end_matches('/');
    if !(base.starts_with("http://") || base.starts_with("https://")) {
        return Err(format!("The base URL must start with http:// or https:// (got {:?}).", form.base_url.trim()));
    }
    let model = form.model.trim();
    if model.is_empty() {
        return Err("Choose a model: type its id, or press Load models and pick one.".to_string());
    }
    let max_tokens: u64 = form
        .max_tokens
        .trim()
        .parse()
        .map_err(|_| format!("max_tokens must be a whole number (got {:?}).", form.max_tokens.trim()))?;
    let temperature: f64 = form
        .temperature
        .trim()
        .parse()
        .ok()
        .filter(|t: &f64| t.is_finite())
        .ok_or_else(|| format!("temperature must be a number (got {:?}).", form.temperature.trim()))?;
    let mut body = json!({
        "model": model,
        "messages": [{"role": "user", "content": form.prompt}],
        "max_tokens": max_tokens,
        "temperature": temperature,
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    if !form.extra_json.trim().is_empty() {
        let extra: Value = serde_json::from_slice(form.extra_json.as_bytes())
            .map_err(|e| format!("The advanced JSON is not valid JSON ({e}); nothing was sent."))?;
        let Value::Object(extra) = extra else {
            return Err("The advanced JSON must be an object, like {\"top_p\": 0.9}; nothing was sent.".to_string());
        };
        if let Value::Object(b) = &mut body {
            merge(b, extra);
        }
    }
    Ok(ChatRequest { url: chat_url(base), body: body.to_string() })
}

/// Merges `extra` over `into`: objects merge key by key, anything else replaces.
fn merge(into: &mut Map<String, Value>, extra: Map<String, Value>) {
    for (k, v) in extra {
        match (into.get_mut(&k), v) {
            (Some(Value::Object(a)), Value::Object(b)) => merge(a, b),
            (_, v) => {
                into.insert(k, v);
            }
        }
    }
}

/// The model ids in a `/models` response (`{"data":[{"id":…}]}`; Ollama's `{"models":[{"name"}]}`
/// too), or what is wrong with it.
pub fn parse_models(body: &str) -> Result<Vec<String>, String> {
    let v: Value =
        serde_json::from_slice(body.as_bytes()).map_err(|e| format!("The /models response is not JSON ({e})."))?;
    let list = v
        .get("data")
        .or_else(|| v.get("models"))
        .and_then(Value::as_array)
        .ok_or("The /models response has no \"data\" list.")?;
    let ids: Vec<String> = list
        .iter()
        .filter_map(|m| m.get("id").or_else(|| m.get("name")).and_then(Value::as_str).map(str::to_string))
        .collect();
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> RequestForm {
        RequestForm {
            base_url: "http://127.0.0.1:30000/v1/".into(),
            model: "m".into(),
            prompt: "hi".into(),
            max_tokens: "8000".into(),
            temperature: "0.6".into(),
            extra_json: String::new(),
        }
    }

    fn body(form: &RequestForm) -> Value {
        let req = build_request(form).unwrap();
        serde_json::from_slice(req.body.as_bytes()).unwrap()
    }

    #[test]
    fn the_body_streams_with_usage_and_the_url_has_no_double_slash() {
        let req = build_request(&form()).unwrap();
        assert_eq!(req.url, "http://127.0.0.1:30000/v1/chat/completions");
        let b = body(&form());
        assert_eq!(b["stream"], true);
        assert_eq!(b["stream_options"]["include_usage"], true);
        assert_eq!(b["max_tokens"], 8000);
        assert_eq!(b["temperature"], 0.6);
        assert_eq!(b["messages"][0]["content"], "hi");
    }

    #[test]
    fn advanced_json_merges_deeply_and_replaces_scalars() {
        let mut f = form();
        f.extra_json = r#"{"top_p":0.9,"temperature":0,"stream_options":{"other":1}}"#.into();
        let b = body(&f);
        assert_eq!(b["top_p"], 0.9);
        assert_eq!(b["temperature"], 0);
        assert_eq!(b["stream_options"]["include_usage"], true);
        assert_eq!(b["stream_options"]["other"], 1);
    }

    #[test]
    fn bad_input_is_a_message_not_a_request() {
        for (edit, says) in [
            ((|f: &mut RequestForm| f.extra_json = "{oops".into()) as fn(&mut RequestForm), "not valid JSON"),
            (|f| f.extra_json = "[1]".into(), "must be an object"),
            (|f| f.max_tokens = "lots".into(), "max_tokens"),
            (|f| f.temperature = "warm".into(), "temperature"),
            (|f| f.model = " ".into(), "Choose a model"),
            (|f| f.base_url = "127.0.0.1:30000".into(), "http://"),
        ] {
            let mut f = form();
            edit(&mut f);
            let e = build_request(&f).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn models_are_read_from_openai_and_ollama_shapes() {
        assert_eq!(parse_models(r#"{"object":"list","data":[{"id":"a"},{"id":"b"}]}"#).unwrap(), ["a", "b"]);
        assert_eq!(parse_models(r#"{"models":[{"name":"llama3"}]}"#).unwrap(), ["llama3"]);
        assert!(parse_models("nope").is_err());
        assert!(parse_models("{}").is_err());
        assert_eq!(models_url(" http://h/v1/ "), "http://h/v1/models");
        assert_eq!(chat_url("http://h/v1//"), "http://h/v1/chat/completions");
    }

    #[test]
    fn the_default_prompt_asks_for_long_prose() {
        assert!(PRESETS[0].1.contains("6,000 words"));
    }
}
