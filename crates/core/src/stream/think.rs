//! Splits inline `<think>…</think>` reasoning out of a model's content, piece by piece.
//!
//! Some servers put the reasoning in the content itself: `<think>` … `</think>` then the
//! answer. DeepSeek-R1-style templates open the block in the prompt, so the output holds only
//! the closing `</think>`: everything before it is reasoning. Tags may be cut anywhere between
//! two deltas. Only the first block counts: `<think>` opens one only when nothing but
//! whitespace came before it, and once a block is closed later tags are plain text.
//!
//! Content is written to the output as soon as it is known to be content, so a live view sees
//! it grow. A lone `</think>` moves everything written so far to the reasoning (once, and
//! [`ThinkSplitter::feed`] says when it happened).

const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum State {
    /// No tag seen yet.
    #[default]
    Start,
    InThink,
    /// The block is closed: the rest is content.
    Done,
}

/// Incremental splitter. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct ThinkSplitter {
    state: State,
    /// Only whitespace has gone to the content so far.
    only_space: bool,
    /// A tail that may be the start of a tag, held until the next piece says.
    hold: String,
    started: bool,
}

impl ThinkSplitter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Splits the next piece of content into `reasoning` and `content`. Returns true when a
    /// lone `</think>` moved the content written so far into the reasoning.
    pub fn feed(&mut self, piece: &str, reasoning: &mut String, content: &mut String) -> bool {
        if !self.started {
            self.started = true;
            self.only_space = content.trim().is_empty();
        }
        if self.state == State::Done {
            content.push_str(piece);
            return false;
        }
        let joined;
        let mut s: &str = if self.hold.is_empty() {
            piece
        } else {
            joined = std::mem::take(&mut self.hold) + piece;
            &joined
        };
        let mut moved = false;
        loop {
            match self.state {
                State::Done => {
                    content.push_str(s);
                    return moved;
                }
                State::InThink => match s.find(CLOSE) {
                    Some(k) => {
                        reasoning.push_str(&s[..k]);
                        s = &s[k + CLOSE.len()..];
                        self.state = State::Done;
                    }
                    None => {
                        let keep = partial_tag_len(s, CLOSE);
                        reasoning.push_str(&s[..s.len() - keep]);
                        self.hold = s[s.len() - keep..].to_string();
                        return moved;
                    }
                },
                State::Start => {
                    let close = s.find(CLOSE);
                    let open = if self.only_space { s.find(OPEN) } else { None };
                    let open = open.filter(|&k| s[..k].trim().is_empty() && close.is_none_or(|c| k < c));
                    if let Some(k) = open {
                        content.push_str(&s[..k]);
                        s = &s[k + OPEN.len()..];
                        self.state = State::InThink;
                    } else if let Some(k) = close {
                        reasoning.push_str(content);
                        reasoning.push_str(&s[..k]);
                        content.clear();
                        s = &s[k + CLOSE.len()..];
                        self.state = State::Done;
                        moved = true;
                    } else {
                        let keep =
                            partial_tag_len(s, CLOSE).max(if self.only_space { partial_tag_len(s, OPEN) } else { 0 });
                        let (now, later) = s.split_at(s.len() - keep);
                        content.push_str(now);
                        self.only_space &= now.trim().is_empty();
                        self.hold = later.to_string();
                        return moved;
                    }
                }
            }
        }
    }

    /// Whether the content has held a think tag so far (an opening one at its start, or a
    /// closing one).
    pub fn saw_tag(&self) -> bool {
        self.state != State::Start
    }

    /// Bytes held back that [`Self::finish`] would add to the reasoning (the tail of an
    /// unclosed block that may be the start of `</think>`).
    pub fn held_reasoning(&self) -> usize {
        if self.state == State::InThink {
            self.hold.len()
        } else {
            0
        }
    }

    /// Ends the content: a held tail goes where it was heading (an unclosed block is all
    /// reasoning).
    pub fn finish(&mut self, reasoning: &mut String, content: &mut String) {
        let hold = std::mem::take(&mut self.hold);
        match self.state {
            State::InThink => reasoning.push_str(&hold),
            State::Start | State::Done => content.push_str(&hold),
        }
    }
}

/// Length of the longest proper prefix of `tag` that `s` ends with (tags are ASCII, so the
/// cut is on a char boundary).
fn partial_tag_len(s: &str, tag: &str) -> usize {
    (1..tag.len().min(s.len() + 1)).rev().find(|&n| s.as_bytes().ends_with(&tag.as_bytes()[..n])).unwrap_or(0)
}

/// Splits a whole content text: `(reasoning, content)`.
pub fn split_think(text: &str) -> (String, String) {
    let (mut reasoning, mut content) = (String::new(), String::new());
    let mut s = ThinkSplitter::new();
    s.feed(text, &mut reasoning, &mut content);
    s.finish(&mut reasoning, &mut content);
    (reasoning, content)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> (String, String) {
        split_think(text)
    }

    fn piecewise(pieces: &[&str]) -> (String, String) {
        let (mut r, mut c) = (String::new(), String::new());
        let mut s = ThinkSplitter::new();
        for p in pieces {
            s.feed(p, &mut r, &mut c);
        }
        s.finish(&mut r, &mut c);
        (r, c)
    }

    #[test]
    fn block_at_start() {
        assert_eq!(split("<think>\nhmm\n</think>\n\nHi"), ("\nhmm\n".into(), "\n\nHi".into()));
        assert_eq!(split("  <think>a</think>b"), ("a".into(), "  b".into()));
    }

    #[test]
    fn lone_close_makes_everything_before_it_reasoning() {
        assert_eq!(split("hmm, so\n</think>\n\nHi"), ("hmm, so\n".into(), "\n\nHi".into()));
        assert_eq!(piecewise(&["hmm", ", so\n</th", "ink>Hi"]), ("hmm, so\n".into(), "Hi".into()));
    }

    #[test]
    fn tags_cut_anywhere() {
        let text = "<think>abc</think>def <think>x</think>";
        let want = split(text);
        assert_eq!(want, ("abc".into(), "def <think>x</think>".into()));
        for i in 0..=text.len() {
            for j in i..=text.len() {
                assert_eq!(piecewise(&[&text[..i], &text[i..j], &text[j..]]), want, "cut at {i}, {j}");
            }
        }
    }

    #[test]
    fn plain_text_and_late_open_tag_stay_content() {
        assert_eq!(split("no tags at all <"), (String::new(), "no tags at all <".into()));
        assert_eq!(split("Sure <think>a"), (String::new(), "Sure <think>a".into()));
        assert_eq!(split("<think>never closed <"), ("never closed <".into(), String::new()));
    }

    #[test]
    fn feed_reports_the_move() {
        let (mut r, mut c) = (String::new(), String::new());
        let mut s = ThinkSplitter::new();
        assert!(!s.feed("abc", &mut r, &mut c));
        assert_eq!(c, "abc");
        assert!(s.feed("</think>d", &mut r, &mut c));
        assert_eq!((r.as_str(), c.as_str()), ("abc", "d"));
    }
}

/// The naive twin: the same rules read off the whole text with `find`, and the property test
/// that piecewise feeding, cut anywhere, agrees with it.
#[cfg(test)]
mod props {
    use super::{ThinkSplitter, CLOSE, OPEN};
    use proptest::prelude::*;

    fn naive(text: &str) -> (String, String) {
        let open = text.find(OPEN).filter(|&o| text[..o].trim().is_empty());
        let close = text.find(CLOSE);
        match (open, close) {
            (Some(o), c) if c.is_none_or(|c| o < c) => {
                let after = &text[o + OPEN.len()..];
                match after.find(CLOSE) {
                    Some(k) => (after[..k].to_string(), text[..o].to_string() + &after[k + CLOSE.len()..]),
                    None => (after.to_string(), text[..o].to_string()),
                }
            }
            (_, Some(c)) => (text[..c].to_string(), text[c + CLOSE.len()..].to_string()),
            _ => (String::new(), text.to_string()),
        }
    }

    fn text() -> impl Strategy<Value = String> {
        let pieces = vec!["<think>", "</think>", "<", "</", "</th", "<thi", "think>", ">", " ", "\n", "a", "é", "bc"];
        prop::collection::vec(prop::sample::select(pieces), 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn piecewise_equals_naive(text in text(), cuts in prop::collection::vec(any::<usize>(), 0..6)) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (text.len() + 1)).filter(|&c| text.is_char_boundary(c)).collect();
            cuts.sort_unstable();
            let (mut r, mut c) = (String::new(), String::new());
            let mut s = ThinkSplitter::new();
            let mut from = 0;
            for cut in cuts.into_iter().chain(std::iter::once(text.len())) {
                s.feed(&text[from..cut], &mut r, &mut c);
                from = cut;
            }
            s.finish(&mut r, &mut c);
            prop_assert_eq!((r, c), naive(&text));
        }
    }
}
