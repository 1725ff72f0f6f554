//! Messages for the judge layer's tests, made in one place (a field added to `Message` is
//! set here once).

use crate::ingest::{Channel, Format, Message, Transcript};

/// A message of conversation 0: turn `turn`, `role`, `channel`, `text`; no tool, no id.
pub(super) fn message(turn: usize, role: &str, channel: Channel, text: &str) -> Message {
    Message {
        conversation: 0,
        turn,
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

/// A user request, then `n` assistant turns each saying `say` (numbered) and calling `Read`
/// on the same file, each answered by `result(k)` with the call's id.
pub(super) fn session(n: usize, say: &str, result: impl Fn(usize) -> String) -> Transcript {
    let mut t = Transcript::new(Format::SessionJsonl);
    t.messages.push(message(0, "user", Channel::Content, "The leap year test fails; please fix it."));
    for k in 0..n {
        let (turn, id) = (2 * k + 1, format!("call_{k}"));
        t.messages.push(message(turn, "assistant", Channel::Content, &format!("{say} ({k})")));
        t.messages.push(tool(turn, "assistant", Some("Read"), Some(&id), r#"{"file_path": "src/date.rs"}"#));
        t.messages.push(tool(turn + 1, "tool", Some("Read"), Some(&id), &result(k)));
    }
    t
}
