//! maxline: how often the most repeated line occurs (the seed's second heuristic).
//!
//! Value: a count of lines, 0 for a text without non-empty lines. Lines are compared after
//! stripping surrounding whitespace; empty lines are ignored. A model that loops line by line
//! pushes one line's count into the hundreds; prose stays at 1–2 and lists or code at a few.
//! The seed WARNs at 5 and FAILs at 12. Every occurrence of every line that reaches the WARN
//! threshold is reported (its trimmed bytes), occurrences said back to back as one run with
//! its period, at most [`MAX_LINE_RUNS`] runs.
//!
//! Incremental: [`LineCounter::add_lines`] takes the next complete lines; the counter keeps one
//! entry per distinct line — its count and first occurrence —, found by the line's hash in a
//! [`FirstSeen`] table and compared with its first occurrence in the text (lines are not
//! copied into keys: on a long text of unique lines that copy would be the text again). The
//! occurrences of flagged lines are found again when a view is asked for.

use super::content_lines::carries_content;
use super::first_seen::FirstSeen;
use super::text_units::{lines, trim};
use super::tokens::hash_bytes;
use std::collections::HashMap;
use std::ops::Range;

/// Runs of flagged lines listed at most; the rest are counted (`LineView::not_listed`).
pub const MAX_LINE_RUNS: usize = 2_000;

/// A view looks up only the lines as long as a flagged line, while there are at most this
/// many such lengths.
const MAX_LENGTHS_FILTERED: usize = 64;

/// The entry of a line that cannot be flagged (not looked up).
const NOT_FLAGGED: usize = usize::MAX;

#[derive(Clone, Debug)]
struct LineEntry {
    count: usize,
    first: Range<usize>,
    /// The line carries content (see `content_lines::carries_content`).
    content: bool,
    /// Its copies said with no new line since the one before (the first included): what the
    /// product's verdict counts (see `content_lines`).
    said_again: usize,
    /// `LineCounter::new_lines` when it was last said.
    new_lines_then: usize,
}

/// A line's shape: its bytes with each run of digits read as one `0` — lines that differ only
/// in their numbers ("Step 9", "Step 10") have one shape.
fn shape(line: &[u8]) -> impl Iterator<Item = u8> + '_ {
    line.iter().enumerate().filter_map(|(i, &b)| match b.is_ascii_digit() {
        true if i > 0 && line[i - 1].is_ascii_digit() => None,
        true => Some(b'0'),
        false => Some(b),
    })
}

fn shape_hash(line: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in shape(line) {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    crate::splitmix::mix(h)
}

fn same_shape(a: &[u8], b: &[u8]) -> bool {
    shape(a).eq(shape(b))
}

/// Counts of every distinct trimmed, non-empty line seen so far.
#[derive(Clone, Debug, Default)]
pub struct LineCounter {
    /// Entry numbers by line (compared with each entry's first occurrence).
    index: FirstSeen,
    entries: Vec<LineEntry>,
    /// Entry with the highest count (the earliest such line on a tie).
    best: Option<usize>,
    /// Among the lines that carry content, the one said again most with no new line between
    /// its copies (the highest `said_again`, the earliest on a tie).
    best_content: Option<usize>,
    /// The lines with content of a shape (digits aside) said for the first time so far.
    new_lines: usize,
    /// Entry numbers by shape, for lines with a digit (a line without one is its own shape).
    shapes: FirstSeen,
    /// Some entry's count reached the flag threshold.
    any_flagged: bool,
}

/// The most repeated line: its first occurrence and its count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatedLine {
    pub first: Range<usize>,
    pub count: usize,
}

/// Occurrences of a flagged line said back to back (each the next non-empty line after the
/// one before, all the same distance apart), as one run: `range` from the first occurrence's
/// start to the last one's end, `copies` of them `period` bytes apart (`None` for one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRun {
    pub range: Range<usize>,
    pub copies: usize,
    pub period: Option<usize>,
    /// How often the line occurs in the whole text.
    pub count: usize,
}

/// What the counter says about a text: the most repeated line, the runs of every flagged line
/// (sorted by position; at most [`MAX_LINE_RUNS`], `not_listed` more), and where the most
/// repeated line repeats densely (see [`LineCounter::view`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineView {
    pub most_repeated: Option<RepeatedLine>,
    pub flagged: Vec<LineRun>,
    pub not_listed: usize,
    /// When the most repeated line is flagged: from the first occurrence of the chain that ends
    /// at its last one, where consecutive occurrences are at most twice the median gap apart.
    /// A line said in a loop is placed where the loop says it first, not where the text
    /// happened to say it once long before.
    pub region: Option<Range<usize>>,
    /// When the product's verdict counts otherwise than the seed (the most repeated line carries
    /// no content, or its copies come between new lines, like a template's field): the line
    /// with content said again most with no new line between its copies, its count so (none
    /// when no line carries content), and its region when it is flagged.
    pub most_repeated_content: Option<Option<RepeatedLine>>,
    pub content_region: Option<Range<usize>>,
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
        let found =
            self.index.find_or_insert(hash_bytes(key), new_id, |id| first_of(id) == key, |id| hash_bytes(first_of(id)));
        let id = match found.map(|id| id as usize) {
            Some(id) => {
                let e = &mut self.entries[id];
                e.count += 1;
                if e.new_lines_then == self.new_lines {
                    e.said_again += 1;
                }
                e.new_lines_then = self.new_lines;
                id
            }
            None => {
                let id = self.entries.len();
                let content = carries_content(&text[line.clone()]);
                if content && self.new_shape(text, &line, id) {
                    self.new_lines += 1;
                }
                let new_lines_then = self.new_lines;
                self.entries.push(LineEntry { count: 1, first: line, content, said_again: 1, new_lines_then });
                id
            }
        };
        let count = self.entries[id].count;
        self.any_flagged |= count >= min_flag;
        let beats = |b: usize| count > self.entries[b].count || (count == self.entries[b].count && id < b);
        if self.best.is_none_or(beats) {
            self.best = Some(id);
        }
        let said = self.entries[id].said_again;
        let says_more = |b: usize| said > self.entries[b].said_again || (said == self.entries[b].said_again && id < b);
        if self.entries[id].content && self.best_content.is_none_or(says_more) {
            self.best_content = Some(id);
        }
    }

    /// Whether a line first said (entry `id`, not yet pushed) has a shape not seen before: it
    /// has no digit, or no line said before differs from it only in its numbers.
    fn new_shape(&mut self, text: &str, line: &Range<usize>, id: usize) -> bool {
        let key = &text.as_bytes()[line.clone()];
        if !key.iter().any(u8::is_ascii_digit) {
            return true;
        }
        let entries = &self.entries;
        let first_of = |e: u32| {
            let r = if e as usize == id { line.clone() } else { entries[e as usize].first.clone() };
            &text.as_bytes()[r]
        };
        let found = self.shapes.find_or_insert(
            shape_hash(key),
            id as u32,
            |e| same_shape(first_of(e), key),
            |e| shape_hash(first_of(e)),
        );
        found.is_none()
    }

    /// The entry of a line (trimmed, non-empty) counted before.
    fn id_of(&self, text: &str, line: &Range<usize>) -> Option<usize> {
        let key = &text.as_bytes()[line.clone()];
        let same = |id: u32| &text.as_bytes()[self.entries[id as usize].first.clone()] == key;
        self.index.find(hash_bytes(key), same).map(|id| id as usize)
    }

    /// The view of the text counted so far plus, tentatively, the unfinished last line
    /// `tail` (which must not contain a line break). The counter itself is not changed.
    ///
    /// The counter keeps a count and a first occurrence per line, not every occurrence (one
    /// line said 20 million times would be 20 million ranges): when a line is flagged, the view
    /// finds its occurrences again in one pass over the lines, merging those said back to back.
    pub fn view(&self, text: &str, tail: Range<usize>, min_flag: usize) -> LineView {
        let counted = 0..tail.start;
        let tail = trim(text, tail);
        let tail_id = (!tail.is_empty()).then(|| self.id_of(text, &tail));
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
        // Among the lines with content, the one said again most with no new line between its
        // copies: what the product's verdict counts, when it counts otherwise than the seed.
        let tail_content = tail_id.is_some() && carries_content(&text[tail.clone()]);
        let said_of = |id: usize| {
            let e = &self.entries[id];
            e.said_again + usize::from(tail_id == Some(Some(id)) && e.new_lines_then == self.new_lines)
        };
        let best_content = match (self.best_content, tail_id) {
            (Some(b), Some(Some(id)))
                if tail_content && (said_of(id) > said_of(b) || (said_of(id) == said_of(b) && id < b)) =>
            {
                Some(id)
            }
            (None, Some(Some(id))) if tail_content => Some(id),
            (b, _) => b,
        };
        let content_line = match best_content {
            Some(b) => Some(RepeatedLine { first: self.entries[b].first.clone(), count: said_of(b) }),
            None if tail_content => Some(RepeatedLine { first: tail.clone(), count: 1 }),
            None => None,
        };
        let seed_count = most_repeated.as_ref().map_or(0, |l| l.count);
        let differs = content_line.as_ref().map_or(0, |l| l.count) != seed_count;
        let most_repeated_content = differs.then_some(content_line);
        let content_flagged = best_content.filter(|_| differs).filter(|&b| said_of(b) >= min_flag);
        let mut view = LineView { most_repeated, most_repeated_content, ..LineView::default() };
        let tail_flagged = match tail_id {
            Some(Some(id)) => count_of(id) >= min_flag,
            Some(None) => min_flag <= 1,
            None => false,
        };
        if !self.any_flagged && !tail_flagged {
            return view;
        }

        // Every non-empty line with its entry (`None`: the unfinished line, said once).
        // Only lines as long as a flagged one can be flagged: the others are not looked up
        // (the lengths of a few flagged lines, else every line is).
        let mut lengths: Vec<usize> = (0..self.entries.len())
            .filter(|&id| count_of(id) >= min_flag)
            .map(|id| self.entries[id].first.len())
            .collect();
        lengths.sort_unstable();
        lengths.dedup();
        let look_up_all = lengths.len() > MAX_LENGTHS_FILTERED;
        let occurrences = || {
            lines(text, counted.clone())
                .map(|l| trim(text, l))
                .filter(|l| !l.is_empty())
                .map(|l| {
                    let id = if look_up_all || lengths.binary_search(&l.len()).is_ok() {
                        self.id_of(text, &l)
                    } else {
                        Some(NOT_FLAGGED)
                    };
                    (l, id)
                })
                .chain((!tail.is_empty()).then(|| (tail.clone(), tail_id.flatten())))
        };
        let count_of = |id: usize| if id == NOT_FLAGGED { 0 } else { count_of(id) };
        let best_flagged = best.filter(|&b| count_of(b) >= min_flag);
        let mut gaps: HashMap<usize, usize> = HashMap::new();
        let mut best_last: Option<usize> = None;
        let (mut content_gaps, mut content_last): (HashMap<usize, usize>, Option<usize>) = (HashMap::new(), None);
        let mut open: Option<(Option<usize>, LineRun)> = None;
        let mut previous: Option<Option<usize>> = None;
        let close = |run: LineRun, view: &mut LineView| {
            if view.flagged.len() < MAX_LINE_RUNS {
                view.flagged.push(run);
            } else {
                view.not_listed += 1;
            }
        };
        for (line, id) in occurrences() {
            let count = id.map_or(1, count_of);
            if count >= min_flag {
                let extends = match &open {
                    Some((open_id, run)) if *open_id == id && previous == Some(id) => {
                        let last = run.range.start + (run.copies - 1) * run.period.unwrap_or(0);
                        run.period.is_none_or(|p| line.start - last == p)
                    }
                    _ => false,
                };
                match &mut open {
                    Some((_, run)) if extends => {
                        let last = run.range.start + (run.copies - 1) * run.period.unwrap_or(0);
                        run.period = Some(line.start - last);
                        run.copies += 1;
                        run.range.end = line.end;
                    }
                    _ => {
                        if let Some((_, run)) = open.take() {
                            close(run, &mut view);
                        }
                        let run = LineRun { range: line.clone(), copies: 1, period: None, count };
                        open = Some((id, run));
                    }
                }
                if id.is_some() && id == best_flagged {
                    if let Some(last) = best_last {
                        *gaps.entry(line.start - last).or_default() += 1;
                    }
                    best_last = Some(line.start);
                }
                if id.is_some() && id == content_flagged {
                    if let Some(last) = content_last {
                        *content_gaps.entry(line.start - last).or_default() += 1;
                    }
                    content_last = Some(line.start);
                }
            }
            previous = Some(id);
        }
        if let Some((_, run)) = open.take() {
            close(run, &mut view);
        }
        if let Some(b) = best_flagged {
            view.region = Some(dense_region(occurrences().filter(|(_, id)| *id == Some(b)).map(|(l, _)| l), &gaps));
        }
        if let Some(b) = content_flagged {
            let of_b = occurrences().filter(|(_, id)| *id == Some(b)).map(|(l, _)| l);
            view.content_region = Some(dense_region(of_b, &content_gaps));
        }
        view
    }
}

/// The region of a line's `occurrences` (in order) whose gaps between starts are counted in
/// `gaps`: from the first occurrence after the last gap over twice the median gap, to the end
/// of the last occurrence.
fn dense_region(occurrences: impl Iterator<Item = Range<usize>>, gaps: &HashMap<usize, usize>) -> Range<usize> {
    // The gaps in order (each once: they are the map's keys; sorting plain numbers shares the
    // wasm's one sort of them, where sorting pairs would add its own).
    let mut sorted: Vec<usize> = gaps.keys().copied().collect();
    sorted.sort_unstable();
    let total: usize = gaps.values().sum();
    let mut seen = 0;
    let median = sorted
        .iter()
        .find(|g| {
            seen += gaps[g];
            seen > total / 2
        })
        .map_or(0, |&g| g);
    let limit = 2 * median;
    let mut region: Option<Range<usize>> = None;
    let mut previous = 0;
    for o in occurrences {
        let start = o.start;
        region = Some(match region {
            Some(r) if start - previous <= limit => r.start..o.end,
            _ => o,
        });
        previous = start;
    }
    region.unwrap_or(0..0)
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
        let run = |range: Range<usize>, copies, period| LineRun { range, copies, period, count: 3 };
        assert_eq!(v.flagged, vec![run(0..1, 1, None), run(4..7, 2, Some(2))]);
        assert_eq!(v.region, Some(0..7));
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
    #[test]
    fn lines_said_back_to_back_are_one_run_and_runs_are_capped() {
        let t = "x\n".repeat(1_000_000);
        let mut c = LineCounter::default();
        c.add_lines(&t, 0..t.len(), 5);
        let v = c.view(&t, t.len()..t.len(), 5);
        assert_eq!(
            v.flagged,
            vec![LineRun { range: 0..t.len() - 1, copies: 1_000_000, period: Some(2), count: 1_000_000 }]
        );
        assert_eq!((v.not_listed, v.region), (0, Some(0..t.len() - 1)));
        // Two lines taking turns: each occurrence is its own run, and the list is capped.
        let t = "x\ny\n".repeat(5_000);
        let mut c = LineCounter::default();
        c.add_lines(&t, 0..t.len(), 5);
        let v = c.view(&t, t.len()..t.len(), 5);
        assert_eq!((v.flagged.len(), v.not_listed), (MAX_LINE_RUNS, 10_000 - MAX_LINE_RUNS));
        // A blank line between copies keeps them one run; a change of distance starts another.
        let t = "a\n\na\n\na\na\n";
        let mut c = LineCounter::default();
        c.add_lines(t, 0..t.len(), 2);
        let runs: Vec<(Range<usize>, usize)> =
            c.view(t, t.len()..t.len(), 2).flagged.into_iter().map(|r| (r.range, r.copies)).collect();
        assert_eq!(runs, vec![(0..7, 3), (8..9, 1)]);
    }

    #[test]
    fn the_dense_region_starts_where_the_line_loops() {
        // Said once early, then in a loop every 2 bytes: the region starts at the loop.
        let filler: String = (0..50).map(|i| format!("filler line {i}\n")).collect();
        let t = format!("a\n{filler}{}", "a\n".repeat(20));
        let mut c = LineCounter::default();
        c.add_lines(&t, 0..t.len(), 5);
        let loop_start = t.len() - 40;
        assert_eq!(c.view(&t, t.len()..t.len(), 5).region, Some(loop_start..t.len() - 1));
    }
    #[test]
    fn a_line_is_placed_at_the_start_of_its_dense_chain() {
        let region = |starts: &[usize]| {
            let mut gaps = HashMap::new();
            for w in starts.windows(2) {
                *gaps.entry(w[1] - w[0]).or_default() += 1;
            }
            dense_region(starts.iter().map(|&s| s..s + 10), &gaps)
        };
        assert_eq!(region(&[5, 2000, 2100, 2200, 2300, 2400]), 2000..2410);
        assert_eq!(region(&[0, 100, 200]), 0..210);
        assert_eq!(region(&[7]), 7..17);
    }
}
