//! What a parser returns: the messages of a document, what its stream said, and what could not
//! be read. Plain, serialisable data; every message and diagnostic points back into the input.

use super::format::Format;
use crate::stream::StreamInfo;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::rc::Rc;

/// Which part of a reply a message holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// Reasoning / thinking, shown or not to the end user.
    Reasoning,
    /// The visible text.
    Content,
    /// A tool call's arguments, or a tool's result.
    Tool,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Reasoning => "reasoning",
            Channel::Content => "content",
            Channel::Tool => "tool",
        }
    }
}

/// One text to analyse.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Which conversation of the file (0-based): a record of a JSONL log, a session of an
    /// agent log, an element of a JSON array, a choice of a stream with several.
    pub conversation: usize,
    /// The turn within its conversation (0-based). The reasoning, content and tool calls of
    /// one reply share a turn. (Named `index` on the wire, as it always was.)
    #[serde(rename = "index")]
    pub turn: usize,
    /// `system`, `user`, `assistant`, `tool`…, as the input says; `text` for plain text.
    pub role: String,
    pub channel: Channel,
    /// The tool's name, for tool calls and results that give it.
    pub name: Option<String>,
    /// A tool call's id, or the id of the call a tool result answers (`tool_calls[].id` /
    /// `tool_call_id`, `tool_use` / `tool_use_id`, `call_id`), when the input gives one.
    #[serde(default)]
    pub call_id: Option<String>,
    /// Shared, so that a text said again (a request log repeats its history) and the page's
    /// view of a text hold one copy; an `Rc` of a `String` so that wrapping moves, not copies.
    pub text: Rc<String>,
    /// A tool result the input flags as failed (an error status, a non-zero exit code), when
    /// the format says so.
    #[serde(default)]
    pub is_error: bool,
    /// The bytes of the input the message came from (for a stream: from its first chunk to
    /// its last; for a JSON document: the reply or record that holds it).
    pub source: Range<usize>,
    /// 1-based line of `source.start`.
    pub line: Option<usize>,
}

/// Something in the input that could not be read, or that the reader should know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// 1-based line of `range.start`.
    pub line: Option<usize>,
    pub range: Range<usize>,
    pub message: String,
}

/// A parsed document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    pub format: Format,
    pub messages: Vec<Message>,
    /// For stream captures: chunk count, end marker, finish reason, usage, errors.
    pub stream: Option<StreamInfo>,
    /// In input order; at most [`MAX_DIAGNOSTICS`] plus one line saying how many more.
    pub diagnostics: Vec<Diagnostic>,
}

/// Diagnostics kept per document: a file of a million bad lines needs a summary, not a list.
pub const MAX_DIAGNOSTICS: usize = crate::stream::MAX_LISTED;

impl Transcript {
    /// Each message on one line, `turn role channel name is_error text`: what the readers'
    /// tests compare with.
    #[cfg(test)]
    pub(crate) fn message_lines(&self) -> Vec<String> {
        self.messages
            .iter()
            .map(|m| format!("{} {} {} {:?} {} {}", m.turn, m.role, m.channel.as_str(), m.name, m.is_error, m.text))
            .collect()
    }

    pub fn new(format: Format) -> Self {
        Self { format, messages: Vec::new(), stream: None, diagnostics: Vec::new() }
    }

    /// As pretty JSON, fields in declaration order (the golden-file format).
    pub fn to_pretty_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}
