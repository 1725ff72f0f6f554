//! OpenAI-shaped messages and completions to transcript messages (shared by the JSON reply
//! reader and the JSONL log reader).

use super::builder::{Builder, Origin};
use crate::stream::openai_chat::merge_tool_call;
use crate::stream::openai_wire::{error_text, Completion, MessageIn};
use crate::stream::{ThinkSplitter, Turn};

/// One request, history or reply message as a turn. Reasoning fields and tool calls are
/// kept; inline `<think>` is split out of assistant content only. Texts are moved, not copied.
pub fn message_turn(mut m: MessageIn) -> Turn {
    let mut t = Turn::new(0);
    t.role = m.role.take();
    if let Some(r) = m.take_reasoning() {
        t.reasoning = r;
    }
    if let Some(c) = m.content.take() {
        let tagged = c.contains("</think>") || c.trim_start().starts_with("<think>");
        if tagged && t.role.as_deref().is_none_or(|r| r == "assistant") {
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
    if let Some(e) = c.error.as_ref().or(c.detail.as_ref()) {
        b.diag(at.clone(), format!("the reply is an error: {}", error_text(e)));
    } else if c.choices.as_ref().is_none_or(|cs| cs.is_empty()) {
        b.diag(at.clone(), "the reply has no choices");
    }
    let mut choices = c.choices.unwrap_or_default();
    choices.sort_by_key(|c| c.index);
    for choice in choices {
        let mut turn = message_turn(choice.message.or(choice.delta).unwrap_or_default());
        if let Some(text) = choice.text {
            turn.content.push_str(&text);
        }
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
