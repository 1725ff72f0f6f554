//! JSONL request/response logs: one exchange per line (see [`super::exchange`] for the shapes
//! a record may take: an OpenAI chat, Anthropic or Responses request and/or reply, bare or
//! wrapped as batch files and proxies write them).
//!
//! A client sends the whole history with every request, so records whose request extends an
//! earlier record's request are one conversation, each turn once, where it first appeared
//! ([`super::chains`]); unrelated records are conversations of their own. Lines that are
//! streamed chunks (`chat.completion.chunk`: a stream saved as JSON lines) are assembled into
//! one more conversation, with its stream info. A bad line is one diagnostic; the other lines
//! are still read.

use super::builder::{Builder, Origin};
use super::chains::Chains;
use super::exchange::Exchange;
use super::lines::{trim_ascii_range, LineIndex};
use super::transcript::Transcript;
use super::Format;
use crate::stream::openai_wire::Completion;
use crate::stream::ChatAssembler;
use std::ops::Range;

pub fn parse(input: &[u8]) -> Transcript {
    let mut log = LogReader::new();
    log.feed(input);
    log.finish()
}

/// A log read in pieces of any size: each line is parsed as soon as it ends, so the whole
/// document is never held. The transcript equals [`parse`] of the whole (ranges and line
/// numbers count from the document's start; streamed chunks still form one conversation).
pub struct LogReader {
    b: Builder<'static>,
    chains: Chains,
    chunks: Option<ChatAssembler>,
    /// Line starts as [`LineIndex`] counts them, for the chunks' own sources.
    lines: LineIndex,
    /// Lines ended so far.
    line: usize,
    /// Where the line not ended yet starts, and its bytes so far.
    line_start: usize,
    pending: Vec<u8>,
    /// Bytes fed so far.
    len: usize,
}

impl Default for LogReader {
    fn default() -> Self {
        Self::new()
    }
}

impl LogReader {
    pub fn new() -> Self {
        LogReader {
            b: Builder::new(&[], Format::Jsonl),
            chains: Chains::default(),
            chunks: None,
            lines: LineIndex::new(&[]),
            line: 0,
            line_start: 0,
            pending: Vec::new(),
            len: 0,
        }
    }

    /// Messages read so far.
    pub fn messages(&self) -> usize {
        self.b.t.messages.len()
    }

    /// Reads the next bytes of the document.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len();
        while let Some(k) = bytes.iter().position(|&b| b == b'\n') {
            if self.pending.is_empty() {
                self.end_line(&bytes[..k], true);
            } else {
                let mut line = std::mem::take(&mut self.pending);
                line.extend_from_slice(&bytes[..k]);
                self.end_line(&line, true);
                line.clear();
                self.pending = line;
            }
            bytes = &bytes[k + 1..];
        }
        self.pending.extend_from_slice(bytes);
    }

    /// One whole line (without its LF): its line starts, then its record if it is not blank.
    fn end_line(&mut self, bytes: &[u8], ended: bool) {
        let start = self.line_start;
        self.line += 1;
        self.lines.push_line(start, bytes, ended);
        self.line_start = start + bytes.len() + 1;
        let skip = if self.line == 1 && bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        let r = trim_ascii_range(bytes, skip..bytes.len());
        if !r.is_empty() {
            self.record(self.line, start + r.start..start + r.end, &bytes[r]);
        }
    }

    /// Reads one record: line `line_no`, bytes `range` of the document.
    fn record(&mut self, line_no: usize, range: Range<usize>, bytes: &[u8]) {
        let b = &mut self.b;
        let at = Origin::new(range.clone(), Some(line_no));
        let record = match serde_json::from_slice::<Exchange>(bytes) {
            Ok(r) => r,
            Err(e) => {
                b.json_diag(at, "not a request/response record", &e);
                return;
            }
        };
        if record.is_chunk() {
            // Read again as the stream's own shape (chunks are few, and small).
            match serde_json::from_slice::<Completion>(bytes) {
                Ok(c) => self.chunks.get_or_insert_with(ChatAssembler::new).push_completion(c, range),
                Err(e) => b.json_diag(at, "not a chat-completion chunk", &e),
            }
            return;
        }
        let said = record.read(None);
        let problems = !said.problems.is_empty();
        for p in said.problems {
            b.diag(at.clone(), p);
        }
        if !self.chains.add(b, said.request, said.replies, &at) && !problems {
            b.diag(at, "no request messages or response text in this record");
        }
    }

    /// The transcript, once every byte was fed.
    pub fn finish(mut self) -> Transcript {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.end_line(&line, false);
        }
        let LogReader { mut b, chains, chunks, lines, len, .. } = self;
        let mut conversation = chains.conversations();
        b.set_document(lines, len);
        if let Some(a) = chunks {
            let (turns, info) = a.finish();
            let whole = Origin::new(0..len, Some(1));
            for turn in turns {
                b.turn((conversation, 0), turn, &whole);
                conversation += 1;
            }
            b.t.stream = Some(info);
        }
        b.group_conversations();
        b.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(t: &Transcript) -> Vec<String> {
        t.messages
            .iter()
            .map(|m| format!("{}.{} {} {} {:?}", m.conversation, m.turn, m.role, m.channel.as_str(), m.text))
            .collect()
    }

    #[test]
    fn record_shapes() {
        let input = br#"{"request":{"messages":[{"role":"user","content":"q1"}]},"response":{"choices":[{"message":{"role":"assistant","content":"a1"}}]}}
{"custom_id":"x","response":{"status_code":200,"body":{"choices":[{"message":{"content":"a2"}}]}}}
oops
{"messages":[{"role":"system","content":[{"type":"text","text":"s"}]},{"role":"tool","content":"r"}],"response":"a3"}
{"prompt":"p","response":{"message":{"role":"assistant","content":"a4","thinking":"t4"},"done":true}}
{"unrelated":1}
{"messages":[{"role":"user","content":"q"}],"response":{"choices":[{"index":1,"message":{"content":"y"}},{"index":0,"message":{"content":"x"}}]}}
"#;
        let t = parse(input);
        assert_eq!(
            summary(&t),
            vec![
                "0.0 user content \"q1\"",
                "0.1 assistant content \"a1\"",
                "1.0 assistant content \"a2\"",
                "2.0 system content \"s\"",
                "2.1 tool tool \"r\"",
                "2.2 assistant content \"a3\"",
                "3.0 user content \"p\"",
                "3.1 assistant reasoning \"t4\"",
                "3.1 assistant content \"a4\"",
                "4.0 user content \"q\"",
                "4.1 assistant content \"x\"",
                "4.2 assistant content \"y\"",
            ]
        );
        let lines: Vec<Option<usize>> = t.diagnostics.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![Some(3), Some(6)]);
        assert_eq!(t.messages[2].line, Some(2));
    }

    /// Logs of Anthropic and Responses exchanges chain too: the reply comes back in the next
    /// request as a history message (its thinking or reasoning item dropped or kept).
    #[test]
    fn anthropic_and_responses_records_chain() {
        let input = br#"{"request":{"system":"s","messages":[{"role":"user","content":"q"}]},"response":{"type":"message","role":"assistant","content":[{"type":"thinking","thinking":"t"},{"type":"tool_use","id":"tu1","name":"ls","input":{}}]}}
{"request":{"system":"s","messages":[{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"ls","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"a.txt"}]}]},"response":{"type":"message","role":"assistant","content":[{"type":"text","text":"One file."}]}}
{"model":"m","input":[{"role":"user","content":"hi"}],"output":[{"type":"reasoning","summary":[{"type":"summary_text","text":"r"}]},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}]}
{"model":"m","input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"42"}],"output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"It is 42."}]}]}
"#;
        let t = parse(input);
        assert_eq!(
            summary(&t),
            vec![
                "0.0 system content \"s\"",
                "0.1 user content \"q\"",
                "0.2 assistant reasoning \"t\"",
                "0.2 assistant tool \"{}\"",
                "0.3 tool tool \"a.txt\"",
                "0.4 assistant content \"One file.\"",
                "1.0 user content \"hi\"",
                "1.1 assistant reasoning \"r\"",
                "1.1 assistant tool \"{}\"",
                "1.2 tool tool \"42\"",
                "1.3 assistant content \"It is 42.\"",
            ]
        );
        assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
        let named: Vec<_> = t.messages.iter().filter(|m| m.role == "tool").map(|m| m.name.as_deref()).collect();
        assert_eq!(named, [Some("ls"), Some("f")]);
    }

    /// Issue 12: a log whose requests repeat a growing history is one conversation however its
    /// bytes are cut (conversations are rebuilt record by record, as the lines end).
    #[test]
    fn a_growing_history_cut_anywhere_equals_the_whole() {
        let log = coherency_test_support::agent_sessions::generate("short_acks", 1).to_jsonl_log();
        let log: Vec<u8> = log.split_inclusive(|&b| b == b'\n').take(4).flatten().copied().collect();
        let whole = parse(&log);
        let conversations: std::collections::BTreeSet<usize> = whole.messages.iter().map(|m| m.conversation).collect();
        assert_eq!(conversations.len(), 1, "{:?}", whole.diagnostics);
        assert!(whole.messages.len() > 10 && whole.diagnostics.is_empty());
        let read = |pieces: &[&[u8]]| {
            let mut r = LogReader::new();
            pieces.iter().for_each(|p| r.feed(p));
            r.finish()
        };
        for cut in 0..=log.len() {
            assert_eq!(read(&[&log[..cut], &log[cut..]]), whole, "cut at {cut}");
        }
        let bytes: Vec<&[u8]> = log.chunks(1).collect();
        assert_eq!(read(&bytes), whole);
    }

    #[test]
    fn streamed_chunks_saved_as_lines_are_assembled() {
        let input = br#"{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning_content":"r"}}]}
{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"}}]}
{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}]}
"#;
        let t = parse(input);
        assert_eq!(summary(&t), vec!["0.0 assistant reasoning \"r\"", "0.0 assistant content \"ab\""]);
        let s = t.stream.unwrap();
        assert_eq!((s.chunks, s.finish_reason.as_deref()), (3, Some("stop")));
        assert_eq!(t.messages[1].source, 93..281);
    }
}
