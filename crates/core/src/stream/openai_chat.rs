//! The OpenAI chat-completion dialect's assembler: chunks in, one [`Reply`] per choice out.
//!
//! Feed it the `data:` payload of each event as it arrives ([`ChatAssembler::push`]); read
//! [`ChatAssembler::turns`] at any time; [`ChatAssembler::finish`] at the end. Each push
//! costs one JSON parse of that chunk and appends its text: nothing is re-read, so a live
//! view can call it per chunk. What it rebuilds:
//! - content, and reasoning from `reasoning_content`, `reasoning` or `reasoning_details[]`
//!   (the first non-empty, since servers that send several send the same text), plus inline
//!   `<think>…</think>` split out of the content ([`ThinkSplitter`]);
//! - where the reasoning came from ([`ChatAssembler::reasoning_placement`]): which field, or
//!   inline in the content;
//! - tool calls joined by `index`, told apart by `id` when several share one index (Ollama);
//! - `finish_reason`, usage (from any chunk, including usage-only ones with `choices` empty or
//!   `null`), several `choices[].index` kept apart, `[DONE]`, `{"error":…}` chunks.
//!
//! Texts only grow, with one exception: a lone `</think>` moves the content so far into the
//! reasoning (see [`ThinkSplitter`]).

use super::assembler::Assembler;
use super::lenient::json_problem;
use super::openai_wire::{error_text, Completion, MessageIn};
use super::reasoning_placement::ReasoningPlacement;
use super::reply::{widen, Reply, StreamInfo};
use super::think::ThinkSplitter;
use super::tool_call_merge::ToolCallMerger;
use std::collections::HashMap;
use std::ops::Range;

/// Incremental assembler of chat-completion chunks. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct ChatAssembler {
    turns: Vec<Reply>,
    /// One per turn, same order.
    splitters: Vec<ThinkSplitter>,
    /// One per turn, same order: where its tool calls are.
    calls: Vec<ToolCallMerger>,
    /// The turn of each `choices[].index`.
    turn_of: HashMap<u64, usize>,
    info: StreamInfo,
    /// Where the reasoning of every turn came from.
    placement: ReasoningPlacement,
}

impl ChatAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads one `data:` payload that came from `source` (bytes of the input). An error is a
    /// payload that is neither a chunk nor `[DONE]`, in words; the stream goes on.
    pub fn push(&mut self, data: &str, source: Range<usize>) -> Result<(), String> {
        let data = data.trim();
        if data.is_empty() {
            return Ok(());
        }
        if data == "[DONE]" {
            self.info.saw_done = true;
            return Ok(());
        }
        let chunk: Completion = match serde_json::from_slice(data.as_bytes()) {
            Ok(c) => c,
            Err(e) => {
                self.info.chunks += 1;
                return Err(json_problem("chunk is not a chat-completion chunk", &e));
            }
        };
        self.push_completion(chunk, source);
        Ok(())
    }

    /// Reads an already parsed chunk (or a whole non-streamed completion).
    pub fn push_completion(&mut self, chunk: Completion, source: Range<usize>) {
        self.info.chunks += 1;
        if let Some(e) = chunk.error.as_ref().or(chunk.detail.as_ref()) {
            self.info.add_error(error_text(e));
        }
        if self.info.model.is_none() {
            self.info.model = chunk.model;
        }
        if let Some(u) = chunk.usage {
            self.info.usage = Some(u.into());
        }
        for (n, c) in chunk.choices.into_iter().flatten().enumerate() {
            let i = self.turn_at(c.index.unwrap_or(n as u64));
            if let Some(m) = c.delta.or(c.message) {
                self.push_message(i, m, &source);
            }
            if let Some(text) = c.text {
                self.push_content(i, &text, &source);
            }
            if c.finish_reason.is_some() {
                self.turns[i].finish_reason = c.finish_reason;
            }
        }
    }

    /// Counts a keep-alive comment.
    pub fn comment(&mut self) {
        self.info.comments += 1;
    }

    /// Records an error the stream reported outside a chunk (an `event: error` with a plain
    /// text body).
    pub fn error(&mut self, message: impl Into<String>) {
        self.info.add_error(message.into());
    }

    /// The turns so far, in order of first appearance.
    pub fn turns(&self) -> &[Reply] {
        &self.turns
    }

    pub fn info(&self) -> &StreamInfo {
        &self.info
    }

    /// Where the reasoning so far came from (every turn's): the fields that carried it, and
    /// the content's `<think>` block, counting what [`Self::finish`] would still add to it.
    pub fn reasoning_placement(&self) -> ReasoningPlacement {
        let mut placement = self.placement.clone();
        let held: usize = self.splitters.iter().map(ThinkSplitter::held_reasoning).sum();
        if held > 0 {
            placement.add_inline(held, false);
        }
        placement
    }

    /// Ends the stream: flushes held tag fragments; turns sorted by index; the stream's
    /// `finish_reason` is the first turn's.
    pub fn finish(mut self) -> (Vec<Reply>, StreamInfo) {
        for (t, s) in self.turns.iter_mut().zip(&mut self.splitters) {
            let before = t.reasoning.len();
            s.finish(&mut t.reasoning, &mut t.content);
            if t.reasoning.len() > before {
                if let Some(r) = t.content_source.clone() {
                    widen(&mut t.reasoning_source, r);
                }
            }
        }
        self.turns.sort_by_key(|t| t.choice);
        self.info.finish_reason = self.turns.iter().find_map(|t| t.finish_reason.clone());
        (self.turns, self.info)
    }

    fn turn_at(&mut self, index: u64) -> usize {
        *self.turn_of.entry(index).or_insert_with(|| {
            self.turns.push(Reply::new(index));
            self.splitters.push(ThinkSplitter::new());
            self.calls.push(ToolCallMerger::new());
            self.turns.len() - 1
        })
    }

    fn push_message(&mut self, i: usize, mut m: MessageIn, source: &Range<usize>) {
        let t = &mut self.turns[i];
        if m.role.is_some() {
            t.role = m.role.take();
        }
        if let Some((field, r)) = m.take_reasoning() {
            self.placement.add_field(field, r.len());
            t.reasoning.push_str(&r);
            widen(&mut t.reasoning_source, source.clone());
        }
        if let Some(c) = m.content.take() {
            self.push_content(i, &c, source);
        }
        for (n, call) in m.tool_calls.into_iter().flatten().enumerate() {
            self.calls[i].merge(&mut self.turns[i].tool_calls, call, n, source);
        }
    }

    fn push_content(&mut self, i: usize, text: &str, source: &Range<usize>) {
        if text.is_empty() {
            return;
        }
        let t = &mut self.turns[i];
        let (r0, c0) = (t.reasoning.len(), t.content.len());
        let tag_before = self.splitters[i].saw_tag();
        if self.splitters[i].feed(text, &mut t.reasoning, &mut t.content) {
            if let Some(r) = t.content_source.take() {
                widen(&mut t.reasoning_source, r);
            }
        }
        if t.reasoning.len() > r0 {
            widen(&mut t.reasoning_source, source.clone());
        }
        // A chunk of the `<think>` block: it gave reasoning, or it held the first tag.
        let inline = t.reasoning.len().saturating_sub(r0);
        if inline > 0 || (!tag_before && self.splitters[i].saw_tag()) {
            self.placement.add_inline(inline, true);
        }
        if t.content.len() > c0 {
            widen(&mut t.content_source, source.clone());
        }
    }
}

impl Assembler for ChatAssembler {
    /// An `event: error` whose data is plain text is recorded as a stream error (trimmed, as
    /// every payload is).
    fn push_event(&mut self, event: Option<&str>, data: &str, source: Range<usize>) -> Result<(), String> {
        if event == Some("error") && !data.trim_start().starts_with('{') {
            self.error(data.trim());
            return Ok(());
        }
        self.push(data, source)
    }

    fn comment(&mut self) {
        ChatAssembler::comment(self);
    }

    fn turns(&self) -> &[Reply] {
        ChatAssembler::turns(self)
    }

    fn info(&self) -> &StreamInfo {
        ChatAssembler::info(self)
    }

    fn reasoning_placement(&self) -> ReasoningPlacement {
        ChatAssembler::reasoning_placement(self)
    }

    fn finish(self) -> (Vec<Reply>, StreamInfo) {
        ChatAssembler::finish(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::reply::MAX_LISTED;

    #[test]
    fn a_flood_of_error_chunks_lists_the_first_and_counts_the_rest() {
        let mut a = ChatAssembler::new();
        for k in 0..(MAX_LISTED + 300) {
            a.push(&format!(r#"{{"error": {{"message": "overloaded {k}"}}}}"#), k..k + 1).expect("an error chunk");
        }
        let (_, info) = a.finish();
        assert_eq!((info.errors.len(), info.errors_not_listed), (MAX_LISTED, 300));
        assert_eq!(info.errors[0], "overloaded 0");
    }

    fn run(chunks: &[&str]) -> (Vec<Reply>, StreamInfo) {
        let mut a = ChatAssembler::new();
        for (i, c) in chunks.iter().enumerate() {
            let _ = a.push(c, i * 10..i * 10 + 9);
        }
        a.finish()
    }

    #[test]
    fn content_reasoning_finish_usage_done() {
        let (turns, info) = run(&[
            r#"{"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"reasoning_content":"hmm"}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"Hel"}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
            r#"{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}"#,
            r#"{"choices":null,"usage":null}"#,
            "[DONE]",
        ]);
        assert_eq!(turns.len(), 1);
        let t = &turns[0];
        assert_eq!((t.role.as_deref(), t.reasoning.as_str(), t.content.as_str()), (Some("assistant"), "hmm", "Hello"));
        assert_eq!((t.reasoning_source.clone(), t.content_source.clone()), (Some(10..19), Some(20..39)));
        assert_eq!(info.finish_reason.as_deref(), Some("stop"));
        assert_eq!(info.usage.as_ref().and_then(|u| u.total_tokens), Some(11));
        assert!(info.saw_done);
        assert_eq!(info.chunks, 7);
        assert_eq!(info.model.as_deref(), Some("m"));
    }

    #[test]
    fn reasoning_field_variants_are_not_doubled() {
        let (turns, _) = run(&[
            r#"{"choices":[{"delta":{"reasoning":"a","reasoning_details":[{"type":"reasoning.text","text":"a"}]}}]}"#,
            r#"{"choices":[{"delta":{"reasoning_details":[{"type":"reasoning.text","text":"b"}]}}]}"#,
            r#"{"choices":[{"delta":{"reasoning":"c"}}]}"#,
        ]);
        assert_eq!(turns[0].reasoning, "abc");
    }

    #[test]
    fn the_placement_names_the_field_each_chunk_of_reasoning_came_in() {
        let tally = |bytes, chunks| super::super::Tally { bytes, chunks };
        let mut a = ChatAssembler::new();
        for c in [
            r#"{"choices":[{"delta":{"role":"assistant","content":""}}]}"#,
            r#"{"choices":[{"delta":{"reasoning_content":"Let me "}}]}"#,
            r#"{"choices":[{"delta":{"reasoning_content":"see."}}]}"#,
            r#"{"choices":[{"delta":{"reasoning":"a","reasoning_details":[{"type":"reasoning.text","text":"a"}]}}]}"#,
            r#"{"choices":[{"delta":{"reasoning_details":[{"type":"reasoning.text","text":"bc"}]}}]}"#,
            r#"{"choices":[{"delta":{"content":"Answer."}}]}"#,
        ] {
            a.push(c, 0..1).expect("a chunk");
        }
        let p = a.reasoning_placement();
        assert_eq!(
            p.fields,
            [("reasoning_content", tally(11, 2)), ("reasoning", tally(1, 1)), ("reasoning_details", tally(2, 1))]
        );
        assert_eq!(p.inline, None, "no think tag in the content");

        // Inline: the block's chunks, an empty block, a lone close tag, an unclosed block.
        let inline = |chunks: &[&str]| {
            let mut a = ChatAssembler::new();
            for c in chunks {
                let chunk = serde_json::json!({"choices": [{"delta": {"content": c}}]}).to_string();
                a.push(&chunk, 0..1).expect("a chunk");
            }
            a.reasoning_placement()
        };
        let p = inline(&["<think>", "plan", " more</th", "ink>", "Answer", " goes on"]);
        assert_eq!((p.fields.len(), p.inline), (0, Some(tally(9, 3))));
        assert_eq!(inline(&["<think>\n\n</think>\n\nHi"]).inline, Some(tally(2, 1)), "Qwen's empty block");
        assert_eq!(inline(&["<think></think>Hi"]).inline, Some(tally(0, 1)), "tags alone count");
        assert_eq!(inline(&["so, ", "hmm</think>Hi"]).inline, Some(tally(7, 1)));
        assert_eq!(inline(&["<think>never closed </thi"]).inline, Some(tally(18, 1)), "the held tail counts");
        assert_eq!(inline(&["Plain ", "answer <think> late"]).inline, None);
    }

    #[test]
    fn inline_think_split_across_chunks() {
        let (turns, _) = run(&[
            r#"{"choices":[{"delta":{"content":"<thi"}}]}"#,
            r#"{"choices":[{"delta":{"content":"nk>plan</th"}}]}"#,
            r#"{"choices":[{"delta":{"content":"ink>\n\nAnswer"}}]}"#,
        ]);
        assert_eq!((turns[0].reasoning.as_str(), turns[0].content.as_str()), ("plan", "\n\nAnswer"));
        assert_eq!((turns[0].reasoning_source.clone(), turns[0].content_source.clone()), (Some(10..19), Some(20..29)));
    }

    #[test]
    fn lone_close_tag_moves_content_and_its_source() {
        let (turns, _) = run(&[
            r#"{"choices":[{"delta":{"content":"think"}}]}"#,
            r#"{"choices":[{"delta":{"content":"ing</think>"}}]}"#,
            r#"{"choices":[{"delta":{"content":"Hi"}}]}"#,
        ]);
        assert_eq!((turns[0].reasoning.as_str(), turns[0].content.as_str()), ("thinking", "Hi"));
        assert_eq!((turns[0].reasoning_source.clone(), turns[0].content_source.clone()), (Some(0..19), Some(20..29)));
    }

    #[test]
    fn tool_calls_by_index_and_by_id() {
        let (turns, info) = run(&[
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"call_2","function":{"name":"now","arguments":"{}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"o1","function":{"name":"a","arguments":{"x":1}}},{"index":0,"id":"o2","function":{"name":"b","arguments":"{}"}}]}}]}"#,
            r#"{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}"#,
        ]);
        let calls: Vec<(&str, &str)> =
            turns[0].tool_calls.iter().map(|c| (c.name.as_str(), c.arguments.as_str())).collect();
        assert_eq!(
            calls,
            vec![("get_weather", "{\"city\":\"Paris\"}"), ("now", "{}"), ("a", "{\"x\":1}"), ("b", "{}")]
        );
        assert_eq!(turns[0].tool_calls[0].source, Some(0..39));
        assert_eq!(info.finish_reason.as_deref(), Some("tool_calls"));
    }

    #[test]
    fn choices_kept_apart_and_sorted() {
        let (turns, _) = run(&[
            r#"{"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"}}]}"#,
            r#"{"choices":[{"index":1,"delta":{"content":"b"}}]}"#,
        ]);
        let got: Vec<(u64, &str)> = turns.iter().map(|t| (t.choice, t.content.as_str())).collect();
        assert_eq!(got, vec![(0, "A"), (1, "Bb")]);
    }

    #[test]
    fn errors_and_garbage() {
        let mut a = ChatAssembler::new();
        assert!(a.push("{not json", 0..1).is_err());
        assert!(a.push(r#"{"error":{"message":"overloaded","type":"server_error"}}"#, 1..2).is_ok());
        assert!(a.push(r#"{"choices":[{"delta":{"content":5}}]}"#, 2..3).is_ok());
        let (turns, info) = a.finish();
        assert_eq!(info.errors, vec!["overloaded".to_string()]);
        assert_eq!(info.chunks, 3);
        assert_eq!(turns[0].content, "5");
        assert!(!info.saw_done);
    }
}

/// Property: however a reply is cut into chunks, the assembler rebuilds the same turn as from
/// one chunk holding it all.
#[cfg(test)]
mod props {
    use super::ChatAssembler;
    use proptest::prelude::*;

    fn text() -> impl Strategy<Value = String> {
        let pieces = vec!["<think>", "</think>", "<", "the ", "loop ", "\n", "é", "😀", "\"", "\\"];
        prop::collection::vec(prop::sample::select(pieces), 0..30).prop_map(|v| v.concat())
    }

    fn chunk(field: &str, piece: &str) -> String {
        let piece = serde_json::to_string(piece).unwrap_or_default();
        format!(r#"{{"choices":[{{"index":0,"delta":{{"{field}":{piece}}}}}]}}"#)
    }

    fn assemble(reasoning: &[&str], content: &[&str]) -> (String, String) {
        let mut a = ChatAssembler::new();
        for p in reasoning {
            let _ = a.push(&chunk("reasoning_content", p), 0..1);
        }
        for p in content {
            let _ = a.push(&chunk("content", p), 1..2);
        }
        let (turns, _) = a.finish();
        turns.into_iter().next().map(|t| (t.reasoning, t.content)).unwrap_or_default()
    }

    fn cut<'a>(text: &'a str, cuts: &[usize]) -> Vec<&'a str> {
        let mut cuts: Vec<usize> =
            cuts.iter().map(|c| c % (text.len() + 1)).filter(|&c| text.is_char_boundary(c)).collect();
        cuts.sort_unstable();
        cuts.push(text.len());
        let mut from = 0;
        cuts.into_iter()
            .map(|c| {
                let p = &text[from..c];
                from = c;
                p
            })
            .collect()
    }

    proptest! {
        #[test]
        fn chunking_does_not_change_the_turn(
            reasoning in text(),
            content in text(),
            rc in prop::collection::vec(any::<usize>(), 0..5),
            cc in prop::collection::vec(any::<usize>(), 0..8),
        ) {
            let whole = assemble(&[&reasoning], &[&content]);
            prop_assert_eq!(assemble(&cut(&reasoning, &rc), &cut(&content, &cc)), whole);
        }
    }
}
