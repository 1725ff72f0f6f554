//! SSE captures of every dialect, read by the one [`SsePump`] (as a live run is): the SSE
//! decoder feeds the dialect's assembler (OpenAI chat chunks from vLLM, SGLang, llama.cpp,
//! Ollama `/v1`, OpenRouter, DeepSeek…; Responses API events; Anthropic Messages events), and
//! what it could not read becomes a diagnostic with its line. Each reply is a conversation. A
//! capture saved without the blank lines between events is read line by line, with a note.

use super::builder::{Builder, Origin};
use super::transcript::Transcript;
use super::Format;
use crate::stream::{Assembler, SsePump, StreamProblem};

/// Reads `input` as an SSE capture whose events `a` understands; `format` names the dialect.
pub fn parse<A: Assembler>(input: &[u8], format: Format, a: A) -> Transcript {
    let mut b = Builder::new(input, format);
    let mut note = |p: StreamProblem| b.diag(Origin::new(p.range, Some(p.line)), p.message);
    // 64 KiB feeds, so a big capture never holds all its events at once.
    let mut pump = SsePump::new(a);
    for piece in input.chunks(64 * 1024) {
        pump.feed(piece).into_iter().for_each(&mut note);
    }
    let (problems, turns, info) = pump.finish();
    problems.into_iter().for_each(note);
    let whole = Origin::new(0..input.len(), Some(1));
    if input.iter().all(u8::is_ascii_whitespace) {
        b.diag(
            whole.clone(),
            "the stream is empty (a server that ran out of context may answer 200 with an empty body)",
        );
    } else if info.chunks == 0 {
        b.diag(whole.clone(), "the stream holds no event with data");
    }
    for (conversation, turn) in turns.into_iter().enumerate() {
        b.turn((conversation, 0), turn, &whole);
    }
    b.t.stream = Some(info);
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{AnthropicAssembler, ChatAssembler};

    fn chat(input: &[u8]) -> Transcript {
        parse(input, Format::Sse, ChatAssembler::new())
    }

    #[test]
    fn errors_comments_and_empty_bodies() {
        let t = chat(b": keep-alive\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\nevent: error\ndata: upstream timed out\n\n");
        let s = t.stream.as_ref().unwrap();
        assert_eq!((s.comments, s.errors.as_slice(), s.saw_done), (1, &["upstream timed out".to_string()][..], false));
        assert_eq!(t.messages[0].text.as_str(), "Hi");
        assert!(t.diagnostics.is_empty());
        let t = chat(b"data: {\"choices\":\ndata: [{\"delta\":{\"content\":\"multi-line\"}}]}\n\n");
        assert_eq!(t.messages[0].text.as_str(), "multi-line");
        let t = chat(b"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\ndata: [DONE]\n");
        assert_eq!((t.messages[0].text.as_str(), t.stream.as_ref().unwrap().saw_done), ("ab", true));
        assert_eq!(t.diagnostics.len(), 1);
        let t = chat(b"");
        assert!(t.messages.is_empty());
        assert!(t.diagnostics[0].message.starts_with("the stream is empty"));
    }

    #[test]
    fn run_together_events_lose_their_names_not_their_types() {
        let input = b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\"}}\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n";
        let t = parse(input, Format::AnthropicSse, AnthropicAssembler::new());
        assert_eq!(t.messages[0].text.as_str(), "Hi");
        assert_eq!(t.diagnostics.len(), 1);
    }
}
