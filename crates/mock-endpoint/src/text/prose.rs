//! Long, varied technical prose from a seeded grammar (a treatise on kernel internals,
//! section by section), built sentence by sentence from templates, never repeating a sentence.

use super::loops::take_words;
use super::vocabulary::*;
use coherency_core::splitmix::Rng;
use std::collections::HashSet;

/// Coherent prose of exactly `words` whitespace-separated words (ending mid-sentence when the
/// budget says so), the same for the same `seed`.
pub fn coherent(seed: u64, words: usize) -> String {
    prose(Prose::new(seed, true), words)
}

/// Like [`coherent`] but paragraphs only, no headings: how reasoning reads.
pub fn thinking(seed: u64, words: usize) -> String {
    prose(Prose::new(seed, false), words)
}

fn prose(mut g: Prose, words: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    while count < words {
        let piece = g.next_piece();
        count += piece.split_whitespace().count();
        out.push_str(&piece);
    }
    take_words(&out, words).to_string()
}

/// The prose grammar's state: where the treatise is and what it has already said.
struct Prose {
    rng: Rng,
    section: usize,
    paragraphs_left: usize,
    headings: bool,
    said: HashSet<String>,
}

impl Prose {
    fn new(seed: u64, headings: bool) -> Self {
        let rng = Rng::new(seed ^ 0x5eed_c0de);
        Prose { rng, section: 0, paragraphs_left: 0, headings, said: HashSet::new() }
    }

    /// The next heading (with its paragraph) or paragraph, ending in a blank line.
    fn next_piece(&mut self) -> String {
        let mut out = String::new();
        if self.paragraphs_left == 0 {
            if self.section == 0 && self.headings {
                out.push_str("# Notes on operating-system kernel internals\n\n");
            }
            self.section += 1;
            self.paragraphs_left = self.rng.between(3, 5);
            let topic = &TOPICS[(self.section - 1) % TOPICS.len()];
            let part = (self.section - 1) / TOPICS.len();
            let title = if part == 0 { topic.title.to_string() } else { format!("{}, part {}", topic.title, part + 1) };
            if self.headings {
                out.push_str(&format!("## {}. {title}\n\n", self.section));
            }
        }
        self.paragraphs_left -= 1;
        let n = self.rng.between(4, 7);
        let sentences: Vec<String> = (0..n).map(|_| self.fresh_sentence()).collect();
        out.push_str(&sentences.join(" "));
        out.push_str("\n\n");
        out
    }

    /// A sentence not said before and without a word doubled.
    fn fresh_sentence(&mut self) -> String {
        loop {
            let s = self.sentence();
            let words: Vec<&str> = s.split_whitespace().collect();
            let doubled = words.windows(2).any(|w| w[0].eq_ignore_ascii_case(w[1]));
            if !doubled && self.said.insert(s.clone()) {
                return s;
            }
        }
    }

    fn sentence(&mut self) -> String {
        let topic = &TOPICS[(self.section.max(1) - 1) % TOPICS.len()];
        let template = self.rng.pick(TEMPLATES);
        let mut out = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let slot = &rest[open + 1..open + 2];
            rest = &rest[open + 3..];
            let word = match slot {
                "D" => self.rng.pick(DETERMINERS).to_string(),
                "N" if self.rng.chance(70) => self.rng.pick(topic.nouns).to_string(),
                "N" => self.rng.pick(GENERAL_NOUNS).to_string(),
                "A" => self.rng.pick(ADJECTIVES).to_string(),
                "V" => VERBS[self.rng.below(VERBS.len())].0.to_string(),
                "B" => VERBS[self.rng.below(VERBS.len())].1.to_string(),
                "I" => self.rng.pick(INTRANSITIVE).to_string(),
                "P" => self.rng.pick(PREPOSITIONS).to_string(),
                "O" => self.rng.pick(OPENERS).to_string(),
                "M" => self.rng.pick(MODALS).to_string(),
                _ => self.quantity(),
            };
            out.push_str(&word);
        }
        out.push_str(rest);
        // "A" before a vowel sound reads wrong; "an" fixes the common cases.
        let out = fix_articles(&out);
        capitalise(&out)
    }

    fn quantity(&mut self) -> String {
        let n = match self.rng.below(4) {
            0 => 1usize << self.rng.between(2, 16),
            1 => self.rng.between(2, 99),
            2 => self.rng.between(100, 9_999),
            _ => self.rng.between(1, 20) * 25,
        };
        format!("{n} {}", self.rng.pick(UNITS))
    }
}

fn fix_articles(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let words: Vec<&str> = s.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let next_vowel = words.get(i + 1).and_then(|n| n.chars().next()).is_some_and(|c| "aeiouAEIO".contains(c));
        match *w {
            "A" if next_vowel => out.push_str("An"),
            "a" if next_vowel => out.push_str("an"),
            _ => out.push_str(w),
        }
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::{analyze, Verdict};

    #[test]
    fn coherent_prose_passes_at_every_length() {
        for words in [30, 200, 1_000, 3_000, 6_000, 12_000] {
            for seed in [0, 1, 42] {
                for text in [coherent(seed, words), thinking(seed, words)] {
                    assert_eq!(text.split_whitespace().count(), words);
                    let r = analyze(&text);
                    assert_eq!(r.verdict, Verdict::Pass, "{words} words, seed {seed}: {:?}", r.metrics);
                }
            }
        }
    }

    #[test]
    fn coherent_prose_is_not_a_repeated_block() {
        let text = coherent(7, 6_000);
        let paragraphs: Vec<&str> = text.split("\n\n").filter(|p| !p.is_empty()).collect();
        let distinct: HashSet<&str> = paragraphs.iter().copied().collect();
        assert_eq!(distinct.len(), paragraphs.len());
        let sentences: Vec<&str> = text.split(". ").collect();
        let distinct: HashSet<&str> = sentences.iter().copied().collect();
        assert!(distinct.len() * 100 >= sentences.len() * 99, "{} of {}", distinct.len(), sentences.len());
        assert_eq!(coherent(7, 6_000), text, "the same seed gives the same text");
        assert_ne!(coherent(8, 6_000), text);
    }
}
