//! One exchange with a model, in any API's shape: what was sent (a request body, or the
//! request a log record holds) and what came back (a reply body, or the response a record
//! holds). Shared by the JSONL log reader (one exchange per line) and the whole-document JSON
//! readers (one per document, or per element of an array).
//!
//! What was sent: `messages` (OpenAI chat; Anthropic, with its `system`), `input` and
//! `instructions` (Responses), or a `prompt` string; at the top, or under `request`, `body`
//! (OpenAI batch input) or `request.body`. What came back: `choices` (a chat completion, each
//! choice one reply), a `message` (Ollama), `content` blocks (an Anthropic message), `output`
//! items (a Responses response), or a string; at the top (a bare reply), or under `response`
//! / `completion` / `output`, unwrapping `body` (OpenAI batch output). Error bodies say why.

use super::builder::Part;
use super::history::{Blocks, History, HistoryTurn, Item};
use crate::stream::lenient_text;
use crate::stream::openai_wire::error_text;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use std::ops::Range;

/// The fields that hold what was sent (a request object is one that has any of them).
pub const SENT: [&str; 5] = ["messages", "system", "instructions", "input", "prompt"];

/// A request, a reply, or a record holding both; every field optional.
#[derive(Debug, Default, Deserialize)]
pub struct Exchange {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    object: Option<String>,
    // What was sent.
    #[serde(default)]
    messages: Option<Vec<Item>>,
    #[serde(default)]
    system: Option<Blocks>,
    #[serde(default, deserialize_with = "lenient_text")]
    instructions: Option<String>,
    #[serde(default)]
    input: Option<Input>,
    #[serde(default, deserialize_with = "lenient_text")]
    prompt: Option<String>,
    #[serde(default)]
    request: Option<Box<Exchange>>,
    /// A request's body (batch input) at the top; a response's body (batch output) in one.
    #[serde(default)]
    body: Option<Box<Exchange>>,
    // What came back.
    #[serde(default, alias = "completion", alias = "output")]
    response: Option<ResponseField>,
    #[serde(default)]
    choices: Option<Vec<ChoiceIn>>,
    /// Ollama's reply.
    #[serde(default)]
    message: Option<Item>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    content: Option<Blocks>,
    #[serde(default)]
    error: Option<serde_json::Value>,
    /// FastAPI-style error body: `{"detail":"Invalid API key"}`.
    #[serde(default)]
    detail: Option<serde_json::Value>,
}

/// `choices[]` of a completion.
#[derive(Debug, Default, Deserialize)]
struct ChoiceIn {
    #[serde(default)]
    index: Option<u64>,
    #[serde(default)]
    message: Option<Item>,
    #[serde(default)]
    delta: Option<Item>,
    /// Legacy `/v1/completions` text.
    #[serde(default, deserialize_with = "lenient_text")]
    text: Option<String>,
}

/// A field that is a string, a list of items, or an object: Responses `input` (a string is one
/// user message; an object, one item), a record's `response` (its text, a Responses `output`
/// list, or a response object).
#[derive(Debug)]
enum Given<T> {
    Text(String),
    Items(Vec<Item>),
    Object(T),
}

type Input = Given<Item>;
type ResponseField = Given<Box<Exchange>>;

/// What an exchange says: the turns sent, each reply (alternatives: one per choice), and the
/// problems it reports (error bodies).
#[derive(Debug, Default)]
pub struct Said {
    pub request: Vec<HistoryTurn>,
    pub replies: Vec<HistoryTurn>,
    pub problems: Vec<String>,
}

impl Exchange {
    /// A streamed chunk (`chat.completion.chunk`): read by the stream assembler instead.
    pub fn is_chunk(&self) -> bool {
        self.object.as_deref().is_some_and(|o| o.starts_with("chat.completion.chunk"))
    }

    /// A request of messages only, to be given them ([`Exchange::read`]).
    pub fn history_only() -> Exchange {
        Exchange { messages: Some(Vec::new()), ..Exchange::default() }
    }

    /// Holds what was sent: one of [`SENT`].
    fn sends(&self) -> bool {
        self.messages.is_some()
            || self.system.is_some()
            || self.instructions.is_some()
            || self.input.is_some()
            || self.prompt.is_some()
    }

    /// The turns sent and the replies. `history`, when given, stands for the history array
    /// of the request object the exchange is read from (its elements read on their own, with
    /// their bytes; the array itself was left empty here).
    pub fn read(mut self, history: Option<Vec<(Item, Range<usize>)>>) -> Said {
        let mut h = History::default();
        let mut said = Said::default();
        let mut sent = if self.sends() {
            self.take_request()
        } else {
            match self.request.take().or_else(|| self.body.take()) {
                Some(r) => r.into_request(),
                None => Sent::default(),
            }
        };
        sent.read_into(&mut h, history);
        said.request = h.take_turns();
        self.read_replies(&mut h, &mut said, true);
        said
    }

    /// The request this object holds: its own fields, or its `body`'s.
    fn into_request(mut self) -> Sent {
        if self.sends() {
            self.take_request()
        } else {
            match self.body {
                Some(body) => body.into_request(),
                None => Sent::default(),
            }
        }
    }

    fn take_request(&mut self) -> Sent {
        let system = self.system.take().map(|b| {
            let texts: Vec<String> = b.0.into_iter().filter_map(|b| b.text).collect();
            texts.join("\n")
        });
        Sent {
            system: system.or(self.instructions.take()),
            prompt: self.prompt.take(),
            messages: self.messages.take(),
            input: self.input.take(),
        }
    }

    /// Adds the replies this object holds (`top`: the exchange itself, whose `body` is a
    /// request's, not a response's). An error body is a problem; so is a response object with
    /// no reply in it.
    fn read_replies(self, h: &mut History, said: &mut Said, top: bool) {
        let error = self.error.as_ref().or(self.detail.as_ref());
        if let Some(e) = error {
            said.problems.push(format!("the reply is an error: {}", error_text(e)));
        }
        let errored = error.is_some();
        let add = |said: &mut Said, parts: Vec<Part>| {
            if !parts.is_empty() {
                said.replies.push(HistoryTurn { parts, source: None });
            }
        };
        if let Some(r) = self.response {
            match r {
                Given::Text(text) => add(said, h.parts_of([Item::text("assistant", text)])),
                Given::Items(items) => add(said, h.parts_of(items)),
                Given::Object(inner) => inner.read_replies(h, said, false),
            }
            return;
        }
        let completion = self.choices.is_some() || errored;
        if let Some(mut choices) = self.choices.filter(|c| !c.is_empty()) {
            choices.sort_by_key(|c| c.index);
            for c in choices {
                let mut parts = h.parts_of(c.message.or(c.delta));
                parts.extend(h.parts_of(c.text.map(|t| Item::text("assistant", t))));
                add(said, parts);
            }
        } else if let Some(m) = self.message {
            add(said, h.parts_of([m]));
        } else if self.kind.as_deref() == Some("message") {
            add(said, h.parts_of([Item { role: self.role, content: self.content, ..Item::default() }]));
        } else if let (false, Some(inner)) = (top, self.body) {
            inner.read_replies(h, said, false);
        } else if !errored && (completion || !top) {
            said.problems.push("the reply has no choices".into());
        }
    }
}

/// The request fields of the object an exchange's history comes from.
#[derive(Default)]
struct Sent {
    system: Option<String>,
    prompt: Option<String>,
    messages: Option<Vec<Item>>,
    input: Option<Input>,
}

impl Sent {
    /// System prompt, prompt, messages, then input; `history` (elements read on their own)
    /// replaces the array the whole-document reader took out: `messages`, else `input`.
    fn read_into(&mut self, h: &mut History, history: Option<Vec<(Item, Range<usize>)>>) {
        h.said("system", self.system.take());
        h.said("user", self.prompt.take());
        let mut history = history;
        let from_messages = self.messages.is_some();
        if let Some(messages) = self.messages.take() {
            match history.take().filter(|_| messages.is_empty()) {
                Some(items) => items.into_iter().for_each(|(item, r)| h.push(item, Some(r))),
                None => messages.into_iter().for_each(|item| h.push(item, None)),
            }
        }
        match self.input.take() {
            Some(Given::Text(text)) => h.said("user", Some(text)),
            Some(Given::Items(items)) => match history.take().filter(|_| items.is_empty() && !from_messages) {
                Some(given) => given.into_iter().for_each(|(item, r)| h.push(item, Some(r))),
                None => items.into_iter().for_each(|item| h.push(item, None)),
            },
            Some(Given::Object(item)) => h.push(item, None),
            None => {}
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Given<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Given<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string, a list of items or an object")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Given<T>, E> {
                Ok(Given::Text(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Given<T>, E> {
                Ok(Given::Text(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Given<T>, A::Error> {
                Vec::<Item>::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Given::Items)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Given<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Given::Object)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}
