//! Topic drift, judged conservatively: the words an English text's opening is about (content
//! words it says at least twice) never come back in a long tail — the text has left its topic
//! for good, while each part may read fluently. Drift alone is never worse than a WARN: a text
//! may end somewhere else on purpose, and this says only that it did.
//!
//! A model's reply is also measured against its prompt (the last user message before it, when
//! the input holds one: see `judge::prompt`): the prompt's topic words count as the opening's,
//! so a reply drifts only where neither its opening's topic nor the prompt's comes back. A reply
//! that answers the prompt — that gives some background first, or compares two things the prompt
//! names one after the other — is not flagged for leaving its own opening; one that leaves both
//! is, and its reason quotes the prompt's topic words it lost. Still a WARN at most: a prompt
//! may ask for a change of subject ("now tell me about…") in words the rule cannot read.
//!
//! Judged only where drift can be told from a plan: unstructured English prose of 4 KiB or
//! more (lines of 150 bytes on average, no Markdown headings, list items, tables, quotes or code
//! fences) whose tail reads as English and says at least 8 different words (a loop is not
//! drift). A long answer in sections, a table of contents and a list of unrelated items asked
//! for have structure and are not judged; an essay whose parts keep naming their subject is not
//! drift.
//!
//! Along with it the rule gives its series (the page's drift chart, the reports' line): for
//! windows along the text, the share of their words (five letters or more) that are topic words
//! — the very words whose last occurrence places the tail, counted in the same pass, so the
//! curve falls to nothing from the window that holds the last one.

use super::super::hashed_set::HashedSet;
use super::super::tokens::{hash_ascii_lowercase, hash_bytes};
use super::word_salad::head;
use std::ops::Range;

/// Bytes a text needs to be judged.
pub const MIN_BYTES: usize = 4096;

/// Distinct words of five letters or more a drifted tail says at least.
const TAIL_WORDS: usize = 8;

/// The opening: the first fifth of the text, at most this many bytes.
const OPENING_MAX: usize = 4096;

/// Bytes of a prompt read for its topic words (a prompt may paste a whole document).
const PROMPT_MAX: usize = 1 << 16;

/// Windows of the series at most (a few hundred points, like the page's compression chart).
pub const SERIES_MAX: usize = 256;

/// Bytes a window of the series holds at least (a few dozen words).
pub const SERIES_MIN_WINDOW: usize = 512;

/// What drift found: the opening's topic words, the tail where none comes back, and the topic
/// words' share along the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Drift {
    /// The opening's topic words (content words it says at least twice), a few, for the reason.
    pub topic: Vec<String>,
    /// With a prompt: the prompt's topic words the reply said before the tail (a few, for the
    /// reason), or the prompt's first ones when the reply said none of them.
    pub prompt_topic: Vec<String>,
    /// From just after the last topic word to the end.
    pub tail: Range<usize>,
    /// Where the opening (whose topic words are looked for) ends.
    pub opening: usize,
    /// How many of the prompt's topic words were looked for too (0 without a prompt).
    pub prompt_words: usize,
    /// Bytes per window of `presence` (the last window may be up to a quarter longer).
    pub window: usize,
    /// Each window's start byte and the share of its words of five letters or more that are
    /// topic words (the opening's or the prompt's), to 4 decimals; a word counts in the window
    /// its last byte lies in.
    pub presence: Vec<(usize, f64)>,
}

/// The series' windows for a text of `len` bytes: bytes per window and how many.
fn series_windows(len: usize) -> (usize, usize) {
    let window = len.div_ceil(SERIES_MAX).max(SERIES_MIN_WINDOW);
    // A last window shorter than a quarter joins the one before (as the profile's do).
    let mut n = len / window;
    if len % window >= window / 4 || n == 0 {
        n += 1;
    }
    (window, n)
}

/// Counts the topic words along the text: words and topic words per window of the series.
struct Presence {
    window: usize,
    words: Vec<u32>,
    topic: Vec<u32>,
}

impl Presence {
    fn new(len: usize) -> Self {
        let (window, n) = series_windows(len);
        Self { window, words: vec![0; n], topic: vec![0; n] }
    }

    /// Counts a word ending at byte `end`, a topic word or not.
    fn count(&mut self, end: usize, topic: bool) {
        let i = ((end - 1) / self.window).min(self.words.len() - 1);
        self.words[i] += 1;
        self.topic[i] += u32::from(topic);
    }

    /// The series: each window's start (on a character boundary) and share of topic words.
    fn series(self, text: &str) -> Vec<(usize, f64)> {
        let share = |t: u32, w: u32| if w == 0 { 0.0 } else { (f64::from(t) / f64::from(w) * 1e4).round() / 1e4 };
        (0..self.words.len())
            .map(|i| {
                let mut start = i * self.window;
                while !text.is_char_boundary(start) {
                    start += 1;
                }
                (start, share(self.topic[i], self.words[i]))
            })
            .collect()
    }
}

/// Words too common to say what a text is about.
const COMMON: &[&str] = &[
    "about", "after", "again", "along", "also", "always", "another", "because", "been", "before", "being", "between",
    "both", "could", "does", "doing", "down", "each", "even", "every", "first", "from", "have", "having", "here",
    "into", "just", "last", "like", "little", "made", "make", "many", "more", "most", "much", "must", "never", "next",
    "only", "other", "over", "same", "should", "since", "some", "still", "such", "than", "that", "their", "them",
    "then", "there", "these", "they", "thing", "things", "this", "those", "through", "time", "under", "until", "upon",
    "very", "want", "well", "were", "what", "when", "where", "which", "while", "with", "within", "without", "would",
    "your", "will", "shall", "might", "know", "sure", "here's", "let's", "good", "great", "really", "quite", "often",
];

/// The ASCII words of five letters or more in `text[from..to]`, with where each ends.
fn words(text: &str, from: usize, to: usize) -> impl Iterator<Item = (&str, usize)> + '_ {
    super::words::letter_runs(text, from, to)
        .filter(|(_, w)| (5..=32).contains(&w.len()))
        .map(|(start, w)| (w, start + w.len()))
}

/// Whether `text` is unstructured prose: long lines, no headings, list items, tables, quotes
/// or code fences.
fn is_prose(text: &str) -> bool {
    let (mut lines, mut bytes, mut structured) = (0usize, 0usize, 0usize);
    for line in text.lines() {
        let l = line.trim_start();
        if l.is_empty() {
            continue;
        }
        lines += 1;
        bytes += l.len();
        let numbered = {
            let digits = l.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && matches!(l.as_bytes().get(digits), Some(b'.' | b')'))
        };
        if numbered || l.starts_with(['#', '-', '*', '+', '|', '>', '•']) || l.starts_with("```") {
            structured += 1;
        }
    }
    lines > 0 && structured <= 1 && bytes / lines >= 150
}

/// The drift of `text`, if it is judged and its opening's topic words never come back after
/// some point (`None` when they keep coming back to the end).
pub fn drift(text: &str) -> Option<Drift> {
    drift_from(text, None)
}

/// The prompt's topic words: its content words (five letters or more, not too common),
/// lowercased, each once, in order.
fn prompt_words(prompt: &str) -> Vec<String> {
    let prompt = head(prompt, PROMPT_MAX);
    let mut seen = HashedSet::default();
    let mut out = Vec::new();
    for (w, _) in words(prompt, 0, prompt.len()) {
        let w = w.to_ascii_lowercase();
        if !COMMON.contains(&w.as_str()) && seen.insert(hash_bytes(w.as_bytes())) {
            out.push(w);
        }
    }
    out
}

/// The drift of a model's reply `text` measured against its opening and, when it has one, its
/// `prompt`: the tail where neither the opening's topic words nor the prompt's come back.
pub fn drift_from(text: &str, prompt: Option<&str>) -> Option<Drift> {
    if text.len() < MIN_BYTES || !is_prose(text) || !super::word_salad::is_english(head(text, 1 << 18)) {
        return None;
    }
    let mut opening_end = (text.len() / 5).min(OPENING_MAX);
    while !text.is_char_boundary(opening_end) {
        opening_end -= 1;
    }
    let mut seen = HashedSet::default();
    let mut topic: Vec<String> = Vec::new();
    for (w, _) in words(text, 0, opening_end) {
        let w = w.to_ascii_lowercase();
        if COMMON.contains(&w.as_str()) {
            continue;
        }
        if !seen.insert(hash_bytes(w.as_bytes())) && !topic.contains(&w) {
            topic.push(w);
        }
    }
    if topic.len() < 3 {
        return None;
    }
    let asked = prompt.map(prompt_words).unwrap_or_default();
    let topic_set: HashedSet = topic.iter().chain(&asked).map(|w| hash_bytes(w.as_bytes())).collect();
    // The topic words along the text, counted per window of the series (compared without case,
    // without allocating); the last one after the opening places the tail: a text on its
    // topic names one near its end. The opening and the rest are split apart as the rule reads
    // them (a word across the opening's end is two).
    let mut presence = Presence::new(text.len());
    let mut last = opening_end;
    for (from, to) in [(0, opening_end), (opening_end, text.len())] {
        for (w, end) in words(text, from, to) {
            let hit = topic_set.contains(&hash_ascii_lowercase(w.as_bytes()));
            presence.count(end, hit);
            if hit && from == opening_end {
                last = end;
            }
        }
    }
    // A tail that says little (a loop, a run of one word) is the loop checks' to judge: drift
    // is a fluent text that moved on.
    let tail = &text[last..];
    let mut distinct = HashedSet::default();
    for (w, _) in words(text, last, text.len()) {
        distinct.insert(hash_bytes(w.as_bytes()));
        if distinct.len() >= TAIL_WORDS {
            break;
        }
    }
    if tail.len() > text.len() / 10
        && (distinct.len() < TAIL_WORDS || !super::word_salad::is_english(head(tail, 1 << 18)))
    {
        return None;
    }
    topic.truncate(5);
    let prompt_words = asked.len();
    let prompt_topic = lost(text, last, asked);
    Some(Drift {
        topic,
        prompt_topic,
        tail: last..text.len(),
        opening: opening_end,
        prompt_words,
        window: presence.window,
        presence: presence.series(text),
    })
}

/// Of the prompt's topic words `asked`, a few the reply said before byte `tail` (the topic it
/// lost), or the prompt's first few when it said none.
fn lost(text: &str, tail: usize, asked: Vec<String>) -> Vec<String> {
    if asked.is_empty() {
        return asked;
    }
    let said: HashedSet = words(text, 0, tail).map(|(w, _)| hash_ascii_lowercase(w.as_bytes())).collect();
    let mut out: Vec<String> =
        asked.iter().filter(|w| said.contains(&hash_bytes(w.as_bytes()))).take(5).cloned().collect();
    if out.is_empty() {
        out = asked.into_iter().take(5).collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paragraph(words: &[&str], n: usize, variant: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(["the", "and", "of", "to", "is", "a"][(i * 7 + variant) % 6]);
            s.push(' ');
            s.push_str(words[(i * 5 + variant * 3) % words.len()]);
            s.push(' ');
            if i % 12 == 11 {
                s.push_str("and so it goes. ");
            }
        }
        s.push_str("\n\n");
        s
    }

    const KERNEL: &[&str] =
        &["kernel", "scheduler", "memory", "pages", "threads", "latency", "cache", "reclaim", "interrupt"];
    const COOKING: &[&str] =
        &["butter", "onions", "garlic", "simmer", "saucepan", "pepper", "flour", "dough", "recipe"];

    #[test]
    fn a_text_that_leaves_its_topic_for_good_drifts() {
        let mut t = String::new();
        for k in 0..6 {
            t.push_str(&paragraph(KERNEL, 60, k));
        }
        let switch = t.len();
        for k in 0..10 {
            t.push_str(&paragraph(COOKING, 60, k));
        }
        let d = drift(&t).expect("judged");
        assert!(d.tail.start <= switch && switch - d.tail.start < 200, "{:?} vs {switch}", d.tail);
    }

    #[test]
    fn a_text_that_keeps_its_topic_and_structured_text_do_not() {
        let mut t = String::new();
        for k in 0..16 {
            t.push_str(&paragraph(KERNEL, 60, k));
        }
        assert!(drift(&t).is_some_and(|d| d.tail.len() < 200));
        let mut sections = String::new();
        for (k, topic) in [KERNEL, COOKING, KERNEL, COOKING].iter().enumerate() {
            sections.push_str(&format!("## Part {k}\n\n"));
            for j in 0..3 {
                sections.push_str(&paragraph(topic, 60, j));
            }
        }
        assert_eq!(drift(&sections), None, "sections");
    }

    #[test]
    fn measured_against_its_prompt_a_reply_drifts_only_where_it_leaves_both() {
        // Background on cooking, then the kernel the prompt asked about: drift from the opening
        // alone, an answer to the prompt.
        let mut t = String::new();
        for k in 0..6 {
            t.push_str(&paragraph(COOKING, 60, k));
        }
        for k in 0..10 {
            t.push_str(&paragraph(KERNEL, 60, k));
        }
        let prompt = "How does the scheduler keep interrupt latency low?";
        assert!(drift(&t).is_some_and(|d| d.tail.len() > t.len() / 2), "alone, the opening's words stop");
        let answered = drift_from(&t, Some(prompt)).expect("judged");
        assert!(answered.tail.len() < 200, "the prompt's words come back to the end: {:?}", answered.tail);
        // Asked about cooking instead: the reply leaves it, and the reason names the prompt's
        // words the reply said before it left.
        let asked = "Which saucepan and how much butter for the onions?";
        let left = drift_from(&t, Some(asked)).expect("judged");
        assert_eq!(left.tail, drift(&t).expect("judged").tail);
        assert_eq!(left.prompt_topic, ["saucepan", "butter", "onions"]);
        assert!(drift(&t).expect("judged").prompt_topic.is_empty(), "no prompt, no prompt words");
    }

    /// The window holding the series' last topic word, checked against the tail.
    fn last_present(d: &Drift) -> usize {
        d.presence.iter().rposition(|w| w.1 > 0.0).expect("the opening has topic words")
    }

    #[test]
    fn the_series_falls_to_nothing_at_the_tail_window_precisely() {
        for (before, after) in [(6, 10), (3, 13), (12, 4)] {
            let mut t = String::new();
            for k in 0..before {
                t.push_str(&paragraph(KERNEL, 60, k));
            }
            for k in 0..after {
                t.push_str(&paragraph(COOKING, 60, k));
            }
            let d = drift(&t).expect("judged");
            assert!(d.presence.len() >= 4 && d.presence.len() <= SERIES_MAX, "{}", d.presence.len());
            let i = last_present(&d);
            let end = d.presence.get(i + 1).map_or(t.len(), |w| w.0);
            // The tail starts just after the last topic word, inside the last window with one.
            assert!(d.presence[i].0 < d.tail.start && d.tail.start <= end, "{i}: {:?} vs {:?}", d.presence[i], d.tail);
            assert!(d.presence[i + 1..].iter().all(|w| w.1 == 0.0));
            assert!(d.presence[..i / 2].iter().all(|w| w.1 > 0.1), "on topic before: {:?}", &d.presence[..i]);
        }
    }

    #[test]
    fn an_essay_that_keeps_its_subject_stays_high_to_its_end_and_long_texts_are_pooled() {
        let mut t = String::new();
        for k in 0..16 {
            t.push_str(&paragraph(KERNEL, 60, k));
        }
        let d = drift(&t).expect("judged");
        assert_eq!(last_present(&d), d.presence.len() - 1);
        assert!(d.presence.iter().all(|w| w.1 > 0.2), "{:?}", d.presence);
        while t.len() < 3_000_000 {
            t.push_str(&paragraph(KERNEL, 60, t.len() % 17));
        }
        let d = drift(&t).expect("judged");
        assert!(d.presence.len() <= SERIES_MAX && d.presence.len() > SERIES_MAX / 2, "{}", d.presence.len());
        assert_eq!(d.window, t.len().div_ceil(SERIES_MAX));
        assert!(d.presence.windows(2).all(|w| w[1].0 - w[0].0 == d.window), "windows on ASCII start at their bytes");
    }

    #[test]
    fn a_prompt_s_topic_words_count_in_the_series() {
        let mut t = String::new();
        for k in 0..6 {
            t.push_str(&paragraph(COOKING, 60, k));
        }
        for k in 0..10 {
            t.push_str(&paragraph(KERNEL, 60, k));
        }
        let alone = drift(&t).expect("judged");
        let asked = drift_from(&t, Some("How does the scheduler keep interrupt latency low?")).expect("judged");
        assert_eq!(alone.prompt_words, 0);
        assert_eq!(asked.prompt_words, 3, "scheduler, interrupt, latency");
        // Alone, the series falls to nothing where the kernel part starts; with the prompt it
        // comes back there and stays up to the end.
        let half = alone.presence.len() / 2;
        assert!(alone.presence[half..].iter().all(|w| w.1 == 0.0));
        assert!(asked.presence[half..].iter().all(|w| w.1 > 0.0), "{:?}", asked.presence);
        assert_eq!(last_present(&asked), asked.presence.len() - 1);
    }
}
