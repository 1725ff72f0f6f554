//! A reply judged whole: its reasoning and its content joined by a blank line, so that a loop
//! spread over both is seen as one text. The one statement of that rule: the transcript's
//! combined reports, the text the page shows for one, and the live session's combined analyzer
//! all join and count this way.

/// What stands between a reply's texts when they are judged together: a blank line.
pub const REPLY_SEPARATOR: &str = "\n\n";

/// A reply's texts (reasoning, then content), joined as they are judged together.
pub fn join_reply<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    texts.into_iter().collect::<Vec<_>>().join(REPLY_SEPARATOR)
}

/// The size in bytes of [`join_reply`] of texts of these sizes, without joining them.
pub fn joined_len(lens: impl IntoIterator<Item = usize>) -> usize {
    let with_separators: usize = lens.into_iter().map(|n| n + REPLY_SEPARATOR.len()).sum();
    with_separators.saturating_sub(REPLY_SEPARATOR.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_rule_is_the_size_of_the_join() {
        for texts in [&[][..], &[""], &["Hmm."], &["Hmm, wait.", "The answer."], &["a", "", "é"]] {
            let lens = texts.iter().map(|t| t.len());
            assert_eq!(joined_len(lens), join_reply(texts.iter().copied()).len(), "{texts:?}");
        }
        assert_eq!(join_reply(["Hmm.", "Hi"]), "Hmm.\n\nHi");
    }
}
