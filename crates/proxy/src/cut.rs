//! How the proxy ends a stream it cuts (`--cut-on fail`), and what the cut saved.
//!
//! The client gets whole events only (see [`crate::event_bounds`]), then a comment saying why,
//! a last chunk in the stream's own shape — its `id`, `created` and `model`, no text, and
//! `finish_reason` [`CUT_FINISH_REASON`] (`"length"`: what a client already handles as "the
//! generation was stopped early", as when `max_tokens` is reached) — and `data: [DONE]`. A
//! chat stream's last chunk has an empty `delta`; a legacy completions stream's
//! (`"object":"text_completion"`) an empty `text`.

use coherency_core::stream::{decode_all, SseEvent};
use serde_json::{json, Value};

/// The `finish_reason` of the last chunk of a stream the proxy cut.
pub const CUT_FINISH_REASON: &str = "length";

/// What every chunk of a stream shares, from its first chunk.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChunkFacts {
    pub id: Option<String>,
    pub object: Option<String>,
    pub created: Option<Value>,
    pub model: Option<String>,
}

impl ChunkFacts {
    /// The facts of the first chunk among `events` (whole SSE events), if one is there.
    pub fn find(events: &[u8]) -> Option<ChunkFacts> {
        decode_all(events).into_iter().find_map(|e| match e {
            SseEvent::Message(m) => match serde_json::from_slice::<Value>(m.data.as_bytes()) {
                Ok(Value::Object(o)) if o.contains_key("choices") || o.contains_key("id") => Some(ChunkFacts {
                    id: o.get("id").and_then(Value::as_str).map(str::to_string),
                    object: o.get("object").and_then(Value::as_str).map(str::to_string),
                    created: o.get("created").cloned(),
                    model: o.get("model").and_then(Value::as_str).map(str::to_string),
                }),
                _ => None,
            },
            _ => None,
        })
    }
}

/// The bytes that end a cut stream: why (a comment, one line), the last chunk, `[DONE]`.
pub fn ending(facts: &ChunkFacts, why: &str) -> Vec<u8> {
    let why: String = why.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let text_completion = facts.object.as_deref() == Some("text_completion");
    let choice = if text_completion {
        json!({"index": 0, "text": "", "logprobs": null, "finish_reason": CUT_FINISH_REASON})
    } else {
        json!({"index": 0, "delta": {}, "logprobs": null, "finish_reason": CUT_FINISH_REASON})
    };
    let chunk = json!({
        "id": facts.id.as_deref().unwrap_or("coherency-proxy-cut"),
        "object": facts.object.as_deref().unwrap_or("chat.completion.chunk"),
        "created": facts.created.clone().unwrap_or(Value::from(0)),
        "model": facts.model.as_deref().unwrap_or(""),
        "choices": [choice],
    });
    format!(": coherency proxy: generation cut: {why}\n\ndata: {chunk}\n\ndata: [DONE]\n\n").into_bytes()
}

/// The tokens a cut saved: the request's limit less the tokens generated before the cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokensSaved {
    pub tokens: u64,
    /// The tokens generated were estimated (4 bytes a token: the server sent no usage before
    /// the cut), so the saving is too.
    pub estimated: bool,
}

/// What a cut saved when the request asked for at most `max_tokens` and `generated` tokens
/// came (`estimated`: counted from the text, not the server's usage); `None` when the request
/// set no limit (the server's own default is not known).
pub fn tokens_saved(max_tokens: Option<u64>, generated: u64, estimated: bool) -> Option<TokensSaved> {
    max_tokens.map(|max| TokensSaved { tokens: max.saturating_sub(generated), estimated })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ending_is_a_clean_last_chunk_in_the_streams_shape_then_done() {
        let first = br#"data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1790000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}

"#;
        let facts = ChunkFacts::find(&[&b": keep-alive\n\n"[..], first].concat()).unwrap();
        assert_eq!(facts.id.as_deref(), Some("chatcmpl-9"));
        let end = ending(&facts, "FAIL: the line \"a\"\nsaid 40 times");
        let events = decode_all(&end);
        assert_eq!(events.len(), 3, "a comment, the chunk, [DONE]");
        let SseEvent::Comment { text, .. } = &events[0] else { panic!("{events:?}") };
        assert!(text.contains("said 40 times"), "one line: {text}");
        let SseEvent::Message(m) = &events[1] else { panic!("{events:?}") };
        let chunk: Value = serde_json::from_slice(m.data.as_bytes()).unwrap();
        assert_eq!(chunk["id"], "chatcmpl-9");
        assert_eq!(chunk["created"], 1790000000);
        assert_eq!(chunk["model"], "m");
        assert_eq!(chunk["choices"][0]["finish_reason"], CUT_FINISH_REASON);
        assert_eq!(chunk["choices"][0]["delta"], json!({}));
        let SseEvent::Message(done) = &events[2] else { panic!("{events:?}") };
        assert_eq!(done.data, "[DONE]");
        // The core reads the stream so ended as a whole reply with its finish reason.
        let mut pump = coherency_core::stream::SsePump::new(coherency_core::stream::ChatAssembler::new());
        assert!(pump.feed(&[&first[..], &end].concat()).is_empty());
        assert_eq!(pump.turns()[0].finish_reason.as_deref(), Some(CUT_FINISH_REASON));
        assert!(pump.info().saw_done);
    }

    #[test]
    fn a_text_completion_stream_ends_with_an_empty_text() {
        let facts = ChunkFacts::find(
            br#"data: {"id":"cmpl-1","object":"text_completion","choices":[{"text":"a"}]}

"#,
        )
        .unwrap();
        let end = String::from_utf8(ending(&facts, "FAIL")).unwrap();
        assert!(end.contains(r#""text":"""#) && !end.contains("delta"), "{end}");
        assert_eq!(ChunkFacts::find(b"data: [DONE]\n\n"), None);
    }

    #[test]
    fn tokens_saved_need_the_requests_limit() {
        assert_eq!(tokens_saved(Some(4000), 350, false), Some(TokensSaved { tokens: 3650, estimated: false }));
        assert_eq!(tokens_saved(Some(100), 350, true), Some(TokensSaved { tokens: 0, estimated: true }));
        assert_eq!(tokens_saved(None, 350, false), None);
    }
}
