//! OpenAI-shaped messages and completions to transcript messages (shared by the JSON reply
//! reader and the JSONL log reader).

use super::builder::{Builder, Origin};
use crate::stream::assemble::merge_tool_call;
use crate::stream::openai_wire::{error_text, Completion, MessageIn};
use crate::stream::{ChatAssembler, ThinkSplitter, Turn};

/// One request or history message as a turn. Reasoning fields and tool calls are kept;
/// inline `<think>` is split out of assistant content only.
pub fn message_turn(mut m: MessageIn) -> Turn {
    let mut t = Turn::new(0);
    t.role = m.role.take();
    if let Some(r) = m.take_reasoning() {
        t.reasoning = r;
    }
    if let Some(c) = m.content.take() {
        if t.role.as_deref().is_none_or(|r| r == "assistant") {
            let mut s = ThinkSplitter::new();
            s.feed(&c, &mut t.reasoning, &mut t.content);
            s.finish(&mut t.reasoning, &mut t.content);
        } else {
            t.content = c;
        }
    }
    for (n, call) in m.tool_calls.take().into_iter().flatten().enumerate() {
        merge_tool_call(&mut t.tool_calls, call, n, &(0..0));
    }
    for c in &mut t.tool_calls {
        c.source = None;
    }
    t
}

/// Adds the replies of one completion, each choice as its own conversation numbered from
/// `*conversation` on (bumped past them), at turn `index`. Error bodies and completions with no
/// choice become diagnostics.
pub fn push_completion(b: &mut Builder, c: Completion, conversation: &mut usize, index: usize, at: &Origin) {
    let mut a = ChatAssembler::new();
    let error = c.error.as_ref().or(c.detail.as_ref()).map(error_text);
    let had_choices = c.choices.as_ref().is_some_and(|cs| !cs.is_empty());
    a.push_completion(c, at.range.clone());
    let (turns, _) = a.finish();
    if let Some(e) = error {
        b.diag(at.clone(), format!("the reply is an error: {e}"));
    } else if !had_choices {
        b.diag(at.clone(), "the reply has no choices");
    }
    for turn in turns {
        b.turn((*conversation, index), turn, at);
        *conversation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_message_turns() {
        let m: MessageIn = serde_json::from_str(
            r#"{"role":"assistant","content":"a</think>b","reasoning_content":"r","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]}"#,
        )
        .unwrap();
        let t = message_turn(m);
        assert_eq!((t.reasoning.as_str(), t.content.as_str(), t.tool_calls.len()), ("ra", "b", 1));
        let m: MessageIn = serde_json::from_str(r#"{"role":"user","content":"x</think>y"}"#).unwrap();
        assert_eq!(message_turn(m).content, "x</think>y");
    }
}
