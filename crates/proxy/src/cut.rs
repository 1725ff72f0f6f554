//! How the proxy ends a stream it cuts (`--cut-on fail`), and what the cut saved.
//!
//! The client gets whole events only (see [`crate::event_bounds`]), then the end its API's
//! clients already handle as "the generation was stopped early, as at the token limit":
//!
//! - chat completions: a comment saying why, a last chunk in the stream's own shape — its
//!   `id`, `created` and `model`, no text, `finish_reason` [`CUT_FINISH_REASON`] (`"length"`) —
//!   and `data: [DONE]`. A chat stream's last chunk has an empty `delta`; a legacy completions
//!   stream's (`"object":"text_completion"`) an empty `text`;
//! - Responses: the comment, then a `response.incomplete` event (the response's `id`, `model`,
//!   `created_at`, `status: "incomplete"`, `incomplete_details.reason: "max_output_tokens"`, an
//!   empty `output`);
//! - Anthropic Messages: the comment, a `content_block_stop` for a block left open, a
//!   `message_delta` with `stop_reason: "max_tokens"` and the output tokens so far, then
//!   `message_stop`;
//! - Ollama (NDJSON, no comments): a last line with its `model` and `created_at`, an empty
//!   `message.content` (`response` for `/api/generate`), `"done": true` and
//!   `done_reason: "length"`.

use coherency_core::stream::{decode_all, SseEvent};
use serde_json::{json, Value};

use crate::dialect::Dialect;

/// The `finish_reason` of the last chunk of a chat stream the proxy cut (and Ollama's
/// `done_reason`).
pub const CUT_FINISH_REASON: &str = "length";

/// What the ending of a cut stream repeats of the stream, from the events passed on.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamFacts {
    pub dialect: Dialect,
    pub id: Option<String>,
    pub object: Option<String>,
    /// Chat's `created`, Responses' and Ollama's `created_at`.
    pub created: Option<Value>,
    pub model: Option<String>,
    /// The first chunk (chat), `response.created` (Responses), `message_start` (Anthropic) or
    /// first line (Ollama) has been read.
    pub found: bool,
    /// Anthropic: the content block started and not yet stopped.
    pub open_block: Option<u64>,
    /// Ollama: the stream is `/api/generate`'s (`response`, not `message`).
    pub generate: bool,
}

impl StreamFacts {
    pub fn new(dialect: Dialect) -> StreamFacts {
        StreamFacts {
            dialect,
            id: None,
            object: None,
            created: None,
            model: None,
            found: false,
            open_block: None,
            generate: false,
        }
    }

    /// Reads whole events (or lines) passed on to the client. Cheap once the stream's facts
    /// are found: only Anthropic's block starts and stops are read after that.
    pub fn see(&mut self, events: &[u8]) {
        if self.found && self.dialect != Dialect::Anthropic {
            return;
        }
        if self.dialect == Dialect::Ollama {
            let line = events.split(|&b| b == b'\n' || b == b'\r').find(|l| !l.iter().all(u8::is_ascii_whitespace));
            if let Some(Ok(Value::Object(o))) = line.map(serde_json::from_slice::<Value>) {
                self.model = o.get("model").and_then(Value::as_str).map(str::to_string);
                self.created = o.get("created_at").cloned();
                self.generate = o.contains_key("response") && !o.contains_key("message");
                self.found = true;
            }
            return;
        }
        for event in decode_all(events) {
            let SseEvent::Message(m) = event else { continue };
            if self.found && !m.data.contains("content_block_st") {
                continue;
            }
            let Ok(Value::Object(o)) = serde_json::from_slice::<Value>(m.data.as_bytes()) else { continue };
            let kind = o.get("type").and_then(Value::as_str).or(m.event.as_deref()).unwrap_or("");
            let text =
                |o: &serde_json::Map<String, Value>, k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
            match self.dialect {
                Dialect::Chat if o.contains_key("choices") || o.contains_key("id") => {
                    (self.id, self.object, self.model) = (text(&o, "id"), text(&o, "object"), text(&o, "model"));
                    self.created = o.get("created").cloned();
                    self.found = true;
                    return;
                }
                Dialect::Responses if kind == "response.created" || kind == "response.in_progress" => {
                    if let Some(Value::Object(r)) = o.get("response") {
                        (self.id, self.model) = (text(r, "id"), text(r, "model"));
                        self.created = r.get("created_at").cloned();
                    }
                    self.found = true;
                    return;
                }
                Dialect::Anthropic => match kind {
                    "message_start" => {
                        if let Some(Value::Object(msg)) = o.get("message") {
                            (self.id, self.model) = (text(msg, "id"), text(msg, "model"));
                        }
                        self.found = true;
                    }
                    "content_block_start" => self.open_block = o.get("index").and_then(Value::as_u64).or(Some(0)),
                    "content_block_stop" => self.open_block = None,
                    _ => {}
                },
                _ => {}
            }
        }
    }
}

/// The bytes that end a cut stream (see the module doc): why (a comment, one line, where the
/// format has comments) and the dialect's last events. `generated`: the output tokens so far,
/// for Anthropic's `message_delta`; `open`: a chat stream's choices still streaming (`n` > 1:
/// the last chunk ends each; none known: choice 0).
pub fn ending(facts: &StreamFacts, why: &str, generated: u64, open: &[u64]) -> Vec<u8> {
    let why: String = why.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let comment = format!(": coherency proxy: generation cut: {why}\n\n");
    match facts.dialect {
        Dialect::Chat => {
            let text_completion = facts.object.as_deref() == Some("text_completion");
            let choice = |index: u64| {
                if text_completion {
                    json!({"index": index, "text": "", "logprobs": null, "finish_reason": CUT_FINISH_REASON})
                } else {
                    json!({"index": index, "delta": {}, "logprobs": null, "finish_reason": CUT_FINISH_REASON})
                }
            };
            let choices: Vec<Value> =
                if open.is_empty() { vec![choice(0)] } else { open.iter().map(|&i| choice(i)).collect() };
            let chunk = json!({
                "id": facts.id.as_deref().unwrap_or("coherency-proxy-cut"),
                "object": facts.object.as_deref().unwrap_or("chat.completion.chunk"),
                "created": facts.created.clone().unwrap_or(Value::from(0)),
                "model": facts.model.as_deref().unwrap_or(""),
                "choices": choices,
            });
            format!("{comment}data: {chunk}\n\ndata: [DONE]\n\n").into_bytes()
        }
        Dialect::Responses => {
            let event = json!({"type": "response.incomplete", "response": {
                "id": facts.id.as_deref().unwrap_or("coherency-proxy-cut"),
                "object": "response",
                "created_at": facts.created.clone().unwrap_or(Value::from(0)),
                "model": facts.model.as_deref().unwrap_or(""),
                "status": "incomplete",
                "incomplete_details": {"reason": "max_output_tokens"},
                // Clients that map the terminal response's items need the field (the items
                // came as events).
                "output": [],
            }});
            format!("{comment}event: response.incomplete\ndata: {event}\n\n").into_bytes()
        }
        Dialect::Anthropic => {
            let mut out = comment;
            if let Some(index) = facts.open_block {
                let stop = json!({"type": "content_block_stop", "index": index});
                out += &format!("event: content_block_stop\ndata: {stop}\n\n");
            }
            let delta = json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens", "stop_sequence": null},
                "usage": {"output_tokens": generated}});
            out += &format!(
                "event: message_delta\ndata: {delta}\n\nevent: message_stop\ndata: {{\"type\":\"message_stop\"}}\n\n"
            );
            out.into_bytes()
        }
        Dialect::Ollama => {
            let mut line = json!({
                "model": facts.model.as_deref().unwrap_or(""),
                "created_at": facts.created.clone().unwrap_or(Value::from("")),
                "done": true,
                "done_reason": CUT_FINISH_REASON,
            });
            if facts.generate {
                line["response"] = json!("");
            } else {
                line["message"] = json!({"role": "assistant", "content": ""});
            }
            format!("{line}\n").into_bytes()
        }
    }
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
    use coherency_core::stream::{
        AnthropicAssembler, Assembler, NdjsonPump, OllamaAssembler, ResponsesAssembler, SsePump,
    };

    fn chat_facts(events: &[u8]) -> StreamFacts {
        let mut facts = StreamFacts::new(Dialect::Chat);
        facts.see(events);
        facts
    }

    /// `stream` then the ending, read by the dialect's pump: its turns' finish reason and
    /// whether it saw the end.
    fn read_back<A: Assembler>(mut pump: SsePump<A>, stream: &[u8], ending: &[u8]) -> (Option<String>, bool) {
        assert!(pump.feed(&[stream, ending].concat()).is_empty());
        let (problems, turns, info) = pump.finish();
        assert!(problems.is_empty(), "{problems:?}");
        (turns[0].finish_reason.clone(), info.saw_done)
    }

    #[test]
    fn responses_anthropic_and_ollama_streams_end_as_at_their_token_limit() {
        let responses = concat!(
            "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_7\",\"model\":\"gpt\",\"created_at\":17,\"status\":\"in_progress\"}}\n\n",
            "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"Hi\"}\n\n"
        );
        let mut facts = StreamFacts::new(Dialect::Responses);
        facts.see(responses.as_bytes());
        assert_eq!((facts.id.as_deref(), facts.model.as_deref()), (Some("resp_7"), Some("gpt")));
        let end = ending(&facts, "FAIL — loop", 10, &[]);
        let text = String::from_utf8_lossy(&end);
        assert!(text.contains("\"created_at\":17") && text.contains("\"output\":[]"), "{text}");
        let (reason, done) = read_back(SsePump::new(ResponsesAssembler::new()), responses.as_bytes(), &end);
        assert_eq!((reason.as_deref(), done), (Some("max_output_tokens"), true));

        let anthropic = concat!(
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"role\":\"assistant\",\"model\":\"c\",\"content\":[]}}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n",
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n"
        );
        let mut facts = StreamFacts::new(Dialect::Anthropic);
        for event in anthropic.split_inclusive("\n\n") {
            facts.see(event.as_bytes());
        }
        assert_eq!((facts.id.as_deref(), facts.open_block), (Some("msg_1"), Some(1)));
        let end = ending(&facts, "FAIL", 42, &[]);
        let text = String::from_utf8_lossy(&end);
        assert!(text.contains("\"index\":1") && text.contains("\"output_tokens\":42"), "{text}");
        let (reason, done) = read_back(SsePump::new(AnthropicAssembler::new()), anthropic.as_bytes(), &end);
        assert_eq!((reason.as_deref(), done), (Some("max_tokens"), true));

        for (first, generate) in [
            ("{\"model\":\"q\",\"created_at\":\"2026-01-01T00:00:00Z\",\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"done\":false}\n", false),
            ("{\"model\":\"q\",\"created_at\":\"2026-01-01T00:00:00Z\",\"response\":\"Hi\",\"done\":false}\n", true),
        ] {
            let mut facts = StreamFacts::new(Dialect::Ollama);
            facts.see(first.as_bytes());
            assert_eq!((facts.model.as_deref(), facts.generate), (Some("q"), generate));
            let end = ending(&facts, "FAIL", 0, &[]);
            let line: Value = serde_json::from_slice(&end).unwrap();
            assert_eq!((line["done"].as_bool(), line["created_at"].as_str()), (Some(true), Some("2026-01-01T00:00:00Z")));
            let mut pump = NdjsonPump::new(OllamaAssembler::new());
            assert!(pump.feed(&[first.as_bytes(), &end].concat()).is_empty());
            assert_eq!((pump.info().saw_done, pump.info().finish_reason.as_deref()), (true, Some(CUT_FINISH_REASON)));
            assert_eq!(pump.turns()[0].content, "Hi");
        }
    }

    #[test]
    fn the_ending_is_a_clean_last_chunk_in_the_streams_shape_then_done() {
        let first = br#"data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1790000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}

"#;
        let facts = chat_facts(&[&b": keep-alive\n\n"[..], first].concat());
        assert_eq!(facts.id.as_deref(), Some("chatcmpl-9"));
        let end = ending(&facts, "FAIL: the line \"a\"\nsaid 40 times", 0, &[]);
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
        let mut pump = SsePump::new(coherency_core::stream::ChatAssembler::new());
        assert!(pump.feed(&[&first[..], &end].concat()).is_empty());
        assert_eq!(pump.turns()[0].finish_reason.as_deref(), Some(CUT_FINISH_REASON));
        assert!(pump.info().saw_done);
    }

    #[test]
    fn a_text_completion_stream_ends_with_an_empty_text() {
        let facts = chat_facts(
            br#"data: {"id":"cmpl-1","object":"text_completion","choices":[{"text":"a"}]}

"#,
        );
        let end = String::from_utf8(ending(&facts, "FAIL", 0, &[])).unwrap();
        assert!(end.contains(r#""text":"""#) && !end.contains("delta"), "{end}");
        assert!(!chat_facts(b"data: [DONE]\n\n").found);
    }

    #[test]
    fn tokens_saved_need_the_requests_limit() {
        assert_eq!(tokens_saved(Some(4000), 350, false), Some(TokensSaved { tokens: 3650, estimated: false }));
        assert_eq!(tokens_saved(Some(100), 350, true), Some(TokensSaved { tokens: 0, estimated: true }));
        assert_eq!(tokens_saved(None, 350, false), None);
    }
}
