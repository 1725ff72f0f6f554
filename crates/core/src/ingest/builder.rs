//! The parsers' common sink: collects messages and diagnostics, with line numbers.

use super::lines::LineIndex;
use super::transcript::{Channel, Diagnostic, Message, Transcript, MAX_DIAGNOSTICS};
use super::Format;
use crate::stream::{json_problem_at, Reply};
use std::ops::Range;
use std::rc::Rc;

pub struct Builder<'a> {
    input: &'a [u8],
    /// Built on first use: JSONL readers know their line numbers without it.
    lines: Option<LineIndex>,
    pub t: Transcript,
    /// Diagnostics beyond [`MAX_DIAGNOSTICS`], only counted.
    dropped: usize,
    /// The document's length.
    end: usize,
}

/// Where a message or diagnostic came from: its bytes, and its line when already known.
#[derive(Clone, Debug)]
pub struct Origin {
    pub range: Range<usize>,
    pub line: Option<usize>,
}

impl Origin {
    pub fn new(range: Range<usize>, line: Option<usize>) -> Self {
        Self { range, line }
    }
}

/// One message before it is placed: who said it, on which channel, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub role: String,
    pub channel: Channel,
    /// The tool's name (tool calls and results).
    pub name: Option<String>,
    /// The call's id, or the id of the call a result answers.
    pub call_id: Option<String>,
    pub text: String,
    /// A tool result the input flags as failed.
    pub is_error: bool,
}

impl Part {
    pub fn new(role: &str, channel: Channel, text: String) -> Self {
        Self { role: role.to_string(), channel, name: None, call_id: None, text, is_error: false }
    }

    /// The same part, flagged as a failed tool result when `failed`.
    pub fn failed(self, failed: bool) -> Self {
        Self { is_error: failed, ..self }
    }

    /// The same part as a tool call or result: the tool's name and the call's id.
    pub fn call(self, name: Option<String>, call_id: Option<String>) -> Self {
        Self { name, call_id, ..self }
    }
}

impl<'a> Builder<'a> {
    pub fn new(input: &'a [u8], format: Format) -> Self {
        Self { input, lines: None, t: Transcript::new(format), dropped: 0, end: input.len() }
    }

    /// For a document read in pieces (built with no input): its line starts and length, once
    /// they are all known.
    pub fn set_document(&mut self, lines: LineIndex, end: usize) {
        self.lines = Some(lines);
        self.end = end;
    }

    fn line_of(&mut self, offset: usize) -> usize {
        let input = self.input;
        self.lines.get_or_insert_with(|| LineIndex::new(input)).line_of(offset)
    }

    pub fn diag(&mut self, at: Origin, message: impl Into<String>) {
        if self.t.diagnostics.len() >= MAX_DIAGNOSTICS {
            self.dropped += 1;
            return;
        }
        let line = at.line.unwrap_or_else(|| self.line_of(at.range.start));
        self.t.diagnostics.push(Diagnostic { line: Some(line), range: at.range, message: message.into() });
    }

    /// Reports that the JSON at `at` failed to parse as `what`, with the error's line in the
    /// whole input.
    pub fn json_diag(&mut self, at: Origin, what: &str, e: &serde_json::Error) {
        let first = at.line.unwrap_or_else(|| self.line_of(at.range.start));
        self.diag(Origin::new(at.range, Some(first)), json_problem_at(what, e, Some(first)));
    }

    /// Adds one message; `conversation` and `index` place it.
    pub fn message(&mut self, place: (usize, usize), part: Part, at: Origin) {
        let line = at.line.unwrap_or_else(|| self.line_of(at.range.start));
        let Part { role, channel, name, call_id, text, is_error } = part;
        self.t.messages.push(Message {
            conversation: place.0,
            turn: place.1,
            role,
            channel,
            name: name.filter(|n| !n.is_empty()),
            call_id: call_id.filter(|c| !c.is_empty()),
            text: Rc::new(text),
            is_error,
            source: at.range,
            line: Some(line),
        });
    }

    /// Adds the messages of one reply: reasoning, content (the tool channel for a `tool`
    /// turn), then each tool call (its arguments). Empty texts are skipped. Sources default to
    /// `at` when the turn has none of its own.
    pub fn turn(&mut self, place: (usize, usize), turn: Reply, at: &Origin) {
        let role = turn.role.as_deref().unwrap_or("assistant");
        let own = |r: &Option<Range<usize>>| match r {
            Some(r) => Origin::new(r.clone(), None),
            None => at.clone(),
        };
        if !turn.reasoning.is_empty() {
            self.message(place, Part::new(role, Channel::Reasoning, turn.reasoning), own(&turn.reasoning_source));
        }
        if !turn.content.is_empty() {
            let channel = if role == "tool" { Channel::Tool } else { Channel::Content };
            self.message(place, Part::new(role, channel, turn.content), own(&turn.content_source));
        }
        for call in turn.tool_calls {
            let part = Part::new(role, Channel::Tool, call.arguments).call(Some(call.name), call.id);
            self.message(place, part, own(&call.source));
        }
    }

    /// Puts the messages in conversation order (stable: each conversation's in the order they
    /// came), for readers whose conversations interleave in the input.
    pub fn group_conversations(&mut self) {
        let messages = &mut self.t.messages;
        if !messages.is_sorted_by_key(|m| m.conversation) {
            messages.sort_by_key(|m| m.conversation);
        }
    }

    pub fn finish(mut self) -> Transcript {
        if self.dropped > 0 {
            let end = self.end;
            self.t.diagnostics.push(Diagnostic {
                line: None,
                range: end..end,
                message: format!("… and {} more problems not listed", self.dropped),
            });
        }
        self.t
    }
}
