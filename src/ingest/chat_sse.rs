//! OpenAI chat-completion SSE captures (vLLM, SGLang, llama.cpp, Ollama `/v1`, OpenRouter,
//! DeepSeek…): the SSE decoder feeds the delta assembler; each choice is a conversation.
//! A capture saved without the blank lines between events is read line by line (with a note).

use super::builder::{Builder, Origin};
use super::transcript::Transcript;
use super::Format;
use crate::stream::{for_each_event, split_joined, ChatAssembler, SseEvent};

/// The note for a capture whose events were run together.
pub const JOINED: &str =
    "events are not separated by blank lines (the capture lost them?): each data line is read as its own event";

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::Sse);
    let mut a = ChatAssembler::new();
    for_each_event(input, |event| match event {
        SseEvent::Message(m) => {
            let at = Origin::new(m.range.clone(), Some(m.line));
            let plain_error = m.event.as_deref() == Some("error") && !m.data.trim_start().starts_with('{');
            if plain_error {
                a.error(m.data);
                return;
            }
            let parts = split_joined(&m.data);
            if parts.is_some() {
                b.diag(at.clone(), JOINED);
            }
            for data in parts.unwrap_or_else(|| vec![&m.data]) {
                if let Err(e) = a.push(data, m.range.clone()) {
                    b.diag(at.clone(), e);
                }
            }
        }
        SseEvent::Comment { .. } => a.comment(),
        SseEvent::Problem { message, range, line } => b.diag(Origin::new(range, Some(line)), message),
    });
    let (turns, info) = a.finish();
    if input.iter().all(u8::is_ascii_whitespace) {
        b.diag(
            Origin::new(0..input.len(), Some(1)),
            "the stream is empty (a server that ran out of context may answer 200 with an empty body)",
        );
    } else if turns.is_empty() {
        b.diag(Origin::new(0..0, Some(1)), "no chunk in the stream carries a choice");
    }
    let whole = Origin::new(0..input.len(), Some(1));
    for (conversation, turn) in turns.into_iter().enumerate() {
        b.turn((conversation, 0), turn, &whole);
    }
    b.t.stream = Some(info);
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_comments_and_empty_bodies() {
        let t = parse(b": keep-alive\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\nevent: error\ndata: upstream timed out\n\n");
        let s = t.stream.as_ref().unwrap();
        assert_eq!((s.comments, s.errors.as_slice(), s.saw_done), (1, &["upstream timed out".to_string()][..], false));
        assert_eq!(t.messages[0].text, "Hi");
        assert!(t.diagnostics.is_empty());
        let t = parse(b"data: {\"choices\":\ndata: [{\"delta\":{\"content\":\"multi-line\"}}]}\n\n");
        assert_eq!(t.messages[0].text, "multi-line");
        let t = parse(b"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\ndata: [DONE]\n");
        assert_eq!((t.messages[0].text.as_str(), t.stream.as_ref().unwrap().saw_done), ("ab", true));
        assert_eq!(t.diagnostics.len(), 1);
        let t = parse(b"");
        assert!(t.messages.is_empty());
        assert!(t.diagnostics[0].message.starts_with("the stream is empty"));
    }
}
