//! Messages for the verdict layer's tests, made in one place (a field added to `Message` is
//! set here once).

use crate::ingest::{Channel, Message};

/// A message of conversation 0: turn `index`, `role`, `channel`, `text`; no tool, no id.
pub(super) fn message(index: usize, role: &str, channel: Channel, text: &str) -> Message {
    Message {
        conversation: 0,
        index,
        role: role.into(),
        channel,
        name: None,
        call_id: None,
        text: text.to_string().into(),
        is_error: false,
        source: 0..0,
        line: None,
    }
}

/// A tool call (by the assistant) or a tool's result (role `tool`) on the tool channel.
pub(super) fn tool(index: usize, role: &str, name: Option<&str>, id: Option<&str>, text: &str) -> Message {
    Message {
        name: name.map(str::to_string),
        call_id: id.map(str::to_string),
        ..message(index, role, Channel::Tool, text)
    }
}
