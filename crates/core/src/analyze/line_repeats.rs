//! maxline: how often the most repeated line occurs (the seed's second heuristic).
//!
//! Value: a count of lines, 0 for a text without non-empty lines. Lines are compared after
//! stripping surrounding whitespace; empty lines are ignored. A model that loops line by line
//! pushes one line's count into the hundreds; prose stays at 1–2 and lists or code at a few.
//! The seed WARNs at 5 and FAILs at 12. Every occurrence of every line that reaches the WARN
//! threshold is reported as a span (its trimmed bytes).
//!
//! Incremental: [`LineCounter::add_lines`] takes the next complete lines; the counter keeps one
//! entry per distinct line with the byte ranges of its occurrences, found by the line's hash
//! in a [`FirstSeen`] table and compared with its first occurrence in the text (lines are not
//! copied into keys: on a long text of unique lines that copy would be the text again).

use super::first_seen::FirstSeen;
use super::ngram_stats::hash_bytes;
use super::text_units::{lines, trim};
use std::ops::Range;

#[derive(Clone, Debug)]
struct LineEntry {
    count: usize,
    first: Range<usize>,
    later: Vec<Range<usize>>,
}

/// Counts of every distinct trimmed, non-empty line seen so far.
#[derive(Clone, Debug, Default)]
pub struct LineCounter {
    /// Entry numbers by line (compared with each entry's first occurrence).
    index: FirstSeen,
    entries: Vec<LineEntry>,
    /// Entry with the highest count (the earliest such line on a tie).
    best: Option<usize>,
    /// Entries whose count reached the flag threshold, in the order they reached it.
    flagged: Vec<usize>,
}

/// The most repeated line: its first occurrence and its count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatedLine {
    pub first: Range<usize>,
    pub count: usize,
}

/// What the counter says about a text: the most repeated line and every flagged occurrence
/// (sorted by position, each with its line's total count).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineView {
    pub most_repeated: Option<RepeatedLine>,
    pub flagged: Vec<(Range<usize>, usize)>,
}

impl LineCounter {
    /// Counts the lines of `text[range]`; `range` must start at a line start and end just
    /// after a line break (or at the end of the text).
    pub fn add_lines(&mut self, text: &str, range: Range<usize>, min_flag: usize) {
        for line in lines(text, range) {
            let line = trim(text, line);
            if !line.is_empty() {
                self.add(text, line, min_flag);
            }
        }
    }

    fn add(&mut self, text: &str, line: Range<usize>, min_flag: usize) {
        let key = &text.as_bytes()[line.clone()];
        let entries = &self.entries;
        let first_of = |id: u32| &text.as_bytes()[entries[id as usize].first.clone()];
        let new_id = entries.len() as u32;
        let found = self
            .index
            .find_or_insert(hash_bytes(key), new_id, &|id| first_of(id) == key, &|id| hash_bytes(first_of(id)));
        let id = match found.map(|id| id as usize) {
            Some(id) => {
                let e = &mut self.entries[id];
                e.count += 1;
                e.later.push(line);
                id
            }
            None => {
                let id = self.entries.len();
                self.entries.push(LineEntry { count: 1, first: line, later: Vec::new() });
                id
            }
        };
        let count = self.entries[id].count;
        if count == min_flag {
            self.flagged.push(id);
        }
        if self.best.is_none_or(|b| count > self.entries[b].count || (count == self.entries[b].count && id < b)) {
            self.best = Some(id);
        }
    }

    /// The view of the text counted so far plus, tentatively, the unfinished last line
    /// `tail` (which must not contain a line break). The counter itself is not changed.
    pub fn view(&self, text: &str, tail: Range<usize>, min_flag: usize) -> LineView {
        let tail = trim(text, tail);
        let tail_id = (!tail.is_empty()).then(|| {
            let key = &text.as_bytes()[tail.clone()];
            let same = |id: u32| &text.as_bytes()[self.entries[id as usize].first.clone()] == key;
            self.index.find(hash_bytes(key), &same).map(|id| id as usize)
        });
        let count_of = |id: usize| self.entries[id].count + usize::from(tail_id == Some(Some(id)));

        // The same rule as `add`: highest count, earliest line on a tie.
        let best = match (self.best, tail_id) {
            (Some(b), Some(Some(id))) if count_of(id) > count_of(b) || (count_of(id) == count_of(b) && id < b) => {
                Some(id)
            }
            (b, _) => b,
        };
        let most_repeated = match best {
            Some(b) => Some(RepeatedLine { first: self.entries[b].first.clone(), count: count_of(b) }),
            None if tail_id.is_some() => Some(RepeatedLine { first: tail.clone(), count: 1 }),
            None => None,
        };

        let mut flagged = Vec::new();
        let mut ids: Vec<usize> = self.flagged.clone();
        if let Some(Some(id)) = tail_id {
            if self.entries[id].count + 1 == min_flag {
                ids.push(id);
            }
        }
        for id in ids {
            let e = &self.entries[id];
            let n = count_of(id);
            flagged.push((e.first.clone(), n));
            flagged.extend(e.later.iter().map(|r| (r.clone(), n)));
            if tail_id == Some(Some(id)) {
                flagged.push((tail.clone(), n));
            }
        }
        if min_flag <= 1 && tail_id == Some(None) {
            flagged.push((tail.clone(), 1));
        }
        flagged.sort_by_key(|(r, _)| r.start);
        LineView { most_repeated, flagged }
    }
}

/// One-shot maxline over a whole text (0 when it has no non-empty line).
pub fn maxline(text: &str) -> usize {
    let mut c = LineCounter::default();
    c.add_lines(text, 0..text.len(), usize::MAX);
    c.view(text, text.len()..text.len(), usize::MAX).most_repeated.map_or(0, |m| m.count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_most_repeated_trimmed_line() {
        assert_eq!(maxline(""), 0);
        assert_eq!(maxline("\n \n"), 0);
        assert_eq!(maxline("a\n  a \nb\na"), 3);
        assert_eq!(maxline(&"All work.\n".repeat(400)), 400);
    }

    #[test]
    fn the_unfinished_line_counts_tentatively() {
        let t = "x\ny\nx\nx";
        let mut c = LineCounter::default();
        c.add_lines(t, 0..6, 3);
        let v = c.view(t, 6..7, 3);
        assert_eq!(v.most_repeated, Some(RepeatedLine { first: 0..1, count: 3 }));
        assert_eq!(v.flagged, vec![(0..1, 3), (4..5, 3), (6..7, 3)]);
        // The counter is unchanged by the view.
        assert_eq!(c.view(t, 6..6, 3).flagged, vec![]);
    }

    #[test]
    fn ties_name_the_earliest_line() {
        let t = "b\na\na\nb\n";
        let mut c = LineCounter::default();
        c.add_lines(t, 0..t.len(), 9);
        assert_eq!(c.view(t, t.len()..t.len(), 9).most_repeated, Some(RepeatedLine { first: 0..1, count: 2 }));
    }
}
