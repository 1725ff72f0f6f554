//! The model with a short memory (`mock-context-N`): it sees only the last N tokens of the
//! prompt, as a server that silently cuts a long prompt to its context does, and reports
//! `usage.prompt_tokens` capped at N. Tokens are estimated as the page estimates them: each
//! message's text in bytes ÷ 4, rounded up, summed. Asked "What is the special magic number
//! (or UUID) for KEY …?", it answers with the value planted as "The special magic number for
//! KEY is VALUE." when that sentence lies wholly within what it sees, and says it does not know
//! otherwise. Deterministic.

/// What the model sees of `messages` (their texts, in order) with a window of `window`
/// tokens, and the prompt tokens it reports.
pub fn visible(messages: &[String], window: usize) -> (String, usize) {
    let tokens = |text: &str| text.len().div_ceil(4);
    let total: usize = messages.iter().map(|m| tokens(m)).sum();
    let mut kept: Vec<&str> = Vec::new();
    let mut room = window;
    for message in messages.iter().rev() {
        let t = tokens(message);
        if t <= room {
            kept.push(message);
            room -= t;
            continue;
        }
        // The part of this message that still fits: its last `room × 4` bytes.
        let mut from = message.len().saturating_sub(room * 4);
        while !message.is_char_boundary(from) {
            from += 1;
        }
        kept.push(&message[from..]);
        break;
    }
    kept.reverse();
    (kept.join("\n"), total.min(window))
}

/// The answer to the last message when it asks for a special magic value, from what is
/// `seen`; `None` when the last message asks no such thing.
pub fn answer(messages: &[String], seen: &str) -> Option<String> {
    let question = messages.last()?;
    let (_, asked) = question.split_once("special magic ")?;
    let (kind, rest) = asked.split_once(" for ")?;
    let key: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_').collect();
    let planted = format!("The special magic {kind} for {key} is ");
    let value = seen.find(&planted).and_then(|at| {
        let after = &seen[at + planted.len()..];
        let value = after.split('.').next()?;
        // The whole sentence, its full stop included, must be seen.
        (after.len() > value.len() && !value.is_empty()).then_some(value)
    });
    Some(match value {
        Some(v) => format!("The special magic {kind} for {key} is {v}."),
        None => format!("I do not see a special magic {kind} for {key} in our conversation."),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn it_sees_the_last_tokens_and_caps_the_count() {
        let m = texts(&["a".repeat(400).as_str(), "b".repeat(40).as_str(), "c".repeat(8).as_str()]);
        assert_eq!(visible(&m, 1000), (format!("{}\n{}\n{}", m[0], m[1], m[2]), 112));
        let (seen, count) = visible(&m, 20);
        assert_eq!(count, 20);
        assert_eq!(seen, format!("{}\n{}\n{}", "a".repeat(32), m[1], m[2]));
    }

    #[test]
    fn it_answers_from_what_it_sees() {
        let m = texts(&[
            "The special magic number for amber-lantern is 4829104. Hello.",
            "What is the special magic number for amber-lantern that I told you? Answer with the number only.",
        ]);
        let (seen, _) = visible(&m, 1000);
        assert_eq!(answer(&m, &seen).unwrap(), "The special magic number for amber-lantern is 4829104.");
        let (seen, _) = visible(&m, 30);
        assert_eq!(
            answer(&m, &seen).unwrap(),
            "I do not see a special magic number for amber-lantern in our conversation."
        );
        assert_eq!(answer(&texts(&["Write an essay."]), ""), None);
    }
}
