//! Restarts: the text starting over again and again, each time in slightly other words — the
//! same opening and the same sentences in the same order, reworded a little (a story that
//! keeps re-telling its first paragraph; a code block emitted again with a new comment).
//!
//! Copies of 8 tokens with at most 12 % edits do not see these: with one word in five or six
//! changed, few 8-token shingles survive. Here the shingles are [`SHINGLE`] tokens, and a
//! *re-telling* is a stretch of the text whose shingles were all seen before **in the same
//! order**: each shingle's first occurrence follows the previous one's, advancing about as far
//! as the text does (within [`DRIFT`] tokens: words added or dropped), with at most [`MAX_GAP`]
//! tokens between shingles seen before (pieces three gaps apart whose sources go on are joined).
//! A re-telling counts from [`MIN_TOKENS`] tokens on, when at least 60 % of its tokens are in
//! shingles seen before (the rest reworded) and the passage it re-tells is at least half as long (a refrain
//! said again and again between new lines re-tells a few tokens, not a passage). Templates (a log's lines,
//! a table's rows, similar code lines) send every line back to the first one: their shingles'
//! sources do not advance, so they make only line-long stretches. Re-tellings that hold as
//! many numbers as words are data (see `CopySpan::is_data`) and are left out.
//!
//! Copies that say as much new as they say again are a template's items, not a restart: a
//! summary per file ("### src/a.rs", "Purpose: …", "Status: ok"), a row of fields per item,
//! each filled with its own words. What changes between the copies counts as much as what
//! stays the same: a group of re-tellings is left out when the words its copies say new (in no
//! 4-token shingle seen before, from each re-telling to the next) are at least
//! [`NEW_PER_REPEATED`] of the words they say again. A re-telling rewords one word in five or
//! six, a code block shown again changes its comment: their copies say again three words or
//! more for each new one.
//!
//! A *restart* is a passage re-told at least twice: re-tellings whose sources overlap, grouped
//! (a shingle's source is its first occurrence, so re-tellings point at the first telling). Value: the share of the text in the re-tellings of the most re-told
//! passage (0..=1); the passage itself (the first telling) is not counted, so a text told three
//! times scores about 2/3. A summary that restates an introduction once, a revised code block
//! shown after the first, stay at one re-telling and score 0.
//!
//! Cost: one pass over the tokens with a table of first occurrences ([`FirstSeen`]), as the
//! copies' table, and a sort of the re-tellings.

use super::first_seen::FirstSeen;
use super::ngram_stats::ngram_id;
use super::tokens::TokenClass;
use std::collections::BTreeMap;
use std::ops::Range;

/// Tokens per shingle.
pub const SHINGLE: usize = 4;
/// Tokens allowed between shingles seen before, in one re-telling.
pub const MAX_GAP: usize = 8;
/// How far a re-telling may drift from its source's order between two shingles, in tokens.
pub const DRIFT: usize = 8;
/// The shortest re-telling, in tokens.
pub const MIN_TOKENS: usize = 32;
/// A passage's copies are a template's items, not re-tellings, when the words they say new
/// are at least this share (numerator, denominator) of the words they say again: 1 new word for
/// 2 said again.
pub const NEW_PER_REPEATED: (usize, usize) = (1, 2);

/// One re-telling, in token numbers: `start..end` re-tells `source..source_end`; `seen` of its
/// tokens are in shingles seen before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retelling {
    pub start: usize,
    pub end: usize,
    pub source: usize,
    pub source_end: usize,
    pub seen: usize,
}

impl Retelling {
    pub fn tokens(&self) -> usize {
        self.end - self.start
    }
}

/// The most re-told passage: its re-tellings (in token numbers, in text order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restarts {
    pub retellings: Vec<Retelling>,
}

struct Chain {
    start: usize,
    last: usize,
    source: usize,
    last_source: usize,
    seen_end: usize,
    seen: usize,
}

impl Chain {
    fn new(i: usize, j: usize) -> Self {
        Chain { start: i, last: i, source: j, last_source: j, seen_end: i + SHINGLE, seen: SHINGLE }
    }

    /// Whether the shingle at `i`, first seen at `j`, goes on this chain: near its last one,
    /// its source further on by about as much.
    fn follows(&self, i: usize, j: usize) -> bool {
        i - self.last <= MAX_GAP && j > self.last_source && (i - self.last).abs_diff(j - self.last_source) <= DRIFT
    }

    /// Takes the shingle at `i` (re-telling `j`) on; the shingles in the gap before it re-tell
    /// the places between their neighbours' roots (`root`, see [`restarts`]).
    fn extend(&mut self, i: usize, j: usize, root: &mut [u32]) {
        for (p, r) in root.iter_mut().enumerate().take(i).skip(self.last + 1) {
            *r = (self.last_source + (p - self.last)).min(j) as u32;
        }
        self.seen += (i + SHINGLE).saturating_sub(self.seen_end.max(i)).min(SHINGLE);
        self.seen_end = i + SHINGLE;
        self.last = i;
        self.last_source = j;
    }

    /// The chain as a piece of a re-telling (two shingles at least).
    fn retelling(&self) -> Option<Retelling> {
        (self.last > self.start).then(|| Retelling {
            start: self.start,
            end: self.last + SHINGLE,
            source: self.source,
            source_end: self.last_source + SHINGLE,
            seen: self.seen,
        })
    }
}

/// The re-tellings of the most re-told passage of a token-id sequence (`classes`: each token's
/// class); empty when no passage is re-told twice.
/// `distinct_4grams` sizes the table of first occurrences (it grows if there are more).
pub fn restarts(ids: &[u32], classes: &[TokenClass], distinct_4grams: usize) -> Restarts {
    let shingles = ids.len().saturating_sub(SHINGLE - 1);
    let mut first = FirstSeen::with_capacity(shingles.min(distinct_4grams.saturating_add(64)));
    let shingle = |k: u32| -> [u32; SHINGLE] { ids[k as usize..k as usize + SHINGLE].try_into().unwrap_or_default() };
    let mut all: Vec<Retelling> = Vec::new();
    let mut open: Option<Chain> = None;
    // A chain begun by a shingle out of the open chain's order: it takes over when the next
    // shingle follows it (the text started re-telling another place, or the same one again).
    let mut alternative: Option<Chain> = None;
    // Where each shingle re-tells from, in the first telling: a shingle in a chain re-tells its
    // source's own root, and one reworded inside a chain (in a gap) the place between its
    // neighbours' roots. A rewording first said in a later telling and said again after that
    // then still points into the first telling, so long texts of many tellings keep their order.
    let mut root: Vec<u32> = (0..shingles as u32).collect();
    // The tokens in a shingle seen before (one bit each): what a copy said again; the rest of
    // it is what it says new.
    let mut repeated = vec![0u64; ids.len().div_ceil(64)];
    let each = ids.windows(SHINGLE).enumerate().map(|(i, w)| (i as u32, ngram_id(w)));
    let same = |j, i| shingle(j) == shingle(i);
    first.find_or_insert_all(
        each,
        same,
        |j| ngram_id(&shingle(j)),
        |j| ids[j as usize],
        |i, found| {
            let Some(j) = found else {
                return;
            };
            let i = i as usize;
            for k in i..i + SHINGLE {
                repeated[k / 64] |= 1 << (k % 64);
            }
            let j = root[j as usize] as usize;
            if open.as_ref().is_some_and(|c| i - c.last > MAX_GAP) {
                all.extend(open.take().and_then(|c| c.retelling()));
                open = alternative.take().filter(|a| i - a.last <= MAX_GAP);
            }
            match (&mut open, &mut alternative) {
                (Some(c), _) if c.follows(i, j) => {
                    c.extend(i, j, &mut root);
                    alternative = None;
                }
                (Some(_), Some(a)) if a.follows(i, j) => {
                    a.extend(i, j, &mut root);
                    all.extend(open.take().and_then(|c| c.retelling()));
                    open = alternative.take();
                }
                (Some(_), _) => alternative = Some(Chain::new(i, j)),
                (None, _) => open = Some(Chain::new(i, j)),
            }
            root[i] = j as u32;
        },
    );
    all.extend(open.take().and_then(|c| c.retelling()));
    drop(first);
    let all: Vec<Retelling> = joined(all)
        .into_iter()
        .filter(|r| {
            r.tokens() >= MIN_TOKENS && 5 * r.seen >= 3 * r.tokens() && 2 * (r.source_end - r.source) >= r.tokens()
        })
        .collect();
    let count = |r: Range<usize>, class: TokenClass| classes[r].iter().filter(|&&c| c == class).count();
    let is_data = |r: Range<usize>| count(r.clone(), TokenClass::Number) >= count(r, TokenClass::Word);
    // What the copies say new against what they say again, in words (a template's labels are
    // short words between much punctuation; its items' contents are words).
    let is_repeated = |k: usize| repeated[k / 64] & (1 << (k % 64)) != 0;
    let items = |copies: &[Retelling]| {
        let (mut new, mut again) = (0, 0);
        for (n, c) in copies.iter().enumerate() {
            let end = copies.get(n + 1).map_or(c.end, |next| next.start.max(c.end));
            for k in (c.start..end).filter(|&k| classes[k] == TokenClass::Word) {
                if is_repeated(k) {
                    again += 1;
                } else {
                    new += 1;
                }
            }
        }
        NEW_PER_REPEATED.1 * new >= NEW_PER_REPEATED.0 * again
    };
    Restarts { retellings: most_retold(all, &is_data, &items) }
}

/// Pieces of one re-telling joined: a piece that starts within three gaps of the previous one's
/// end and whose source goes on from the previous one's (a sentence reworded more than the
/// gap allows breaks a chain, not the re-telling).
fn joined(pieces: Vec<Retelling>) -> Vec<Retelling> {
    let mut out: Vec<Retelling> = Vec::with_capacity(pieces.len());
    for r in pieces {
        match out.last_mut() {
            Some(p)
                if r.start <= p.end + 3 * MAX_GAP
                    && r.source > p.source
                    && r.source + DRIFT >= p.source_end
                    && r.source <= p.source_end + 3 * MAX_GAP + DRIFT =>
            {
                // Pieces may overlap by a shingle or so: their seen tokens are not counted twice.
                p.seen =
                    (p.seen + r.seen.saturating_sub(p.end.saturating_sub(r.start))).min(r.end.max(p.end) - p.start);
                p.end = p.end.max(r.end);
                p.source_end = p.source_end.max(r.source_end);
            }
            _ => out.push(r),
        }
    }
    out
}

/// The re-tellings grouped by passage: a re-telling joins the group of the telling (the first,
/// or a re-telling) that starts where its source starts (within [`DRIFT`] tokens or a quarter
/// of the telling: the same opening, give or take a reworded first sentence) and overlaps it by half
/// the shorter of the two; the group of at least two with the most tokens, when its
/// re-tellings follow one another (they cover half of what they span: a text that starts over and over, not a workflow whose every cycle says
/// some of the same things between new ones) and unless what it spans, first telling
/// included, holds as many numbers as words (`is_data`: a log's lines repeating a long
/// constant part).
fn most_retold(
    all: Vec<Retelling>,
    is_data: &dyn Fn(Range<usize>) -> bool,
    items: &dyn Fn(&[Retelling]) -> bool,
) -> Vec<Retelling> {
    let overlaps = |a: &Range<usize>, b: &Range<usize>| {
        let shared = a.end.min(b.end).saturating_sub(a.start.max(b.start));
        2 * shared >= (a.end - a.start).min(b.end - b.start)
    };
    // Each group: its first telling (the first member's source) and its members. Every telling
    // placed so far (first tellings and re-tellings) by start: a re-telling joins the group of
    // the telling its source starts at, so a re-telling of a re-telling counts.
    let mut groups: Vec<(Range<usize>, Vec<Retelling>)> = Vec::new();
    let mut placed: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for r in all {
        let source = r.source..r.source_end;
        // The same opening: the text starts over from where a telling starts.
        let home = placed
            .range(..=source.start + DRIFT)
            .rev()
            .take(8)
            .find(|(&start, &(end, _))| {
                let told = start..end;
                source.start.abs_diff(start) <= DRIFT.max(told.len() / 4) && overlaps(&told, &source)
            })
            .map(|(_, &(_, group))| group);
        let group = home.unwrap_or_else(|| {
            groups.push((source.clone(), Vec::new()));
            placed.insert(source.start, (source.end, groups.len() - 1));
            groups.len() - 1
        });
        placed.insert(r.start, (r.end, group));
        groups[group].1.push(r);
    }
    let tokens = |g: &[Retelling]| g.iter().map(Retelling::tokens).sum::<usize>();
    groups
        .into_iter()
        .filter(|(first, members)| {
            let (start, end) = (members[0].start, members.last().map_or(first.end, |m| m.end));
            members.len() >= 2 && 2 * tokens(members) >= end - start && !is_data(first.start..end) && !items(members)
        })
        .max_by_key(|(_, members)| tokens(members))
        .map(|(first, mut members)| {
            // Every member names the first telling as its source.
            for m in &mut members {
                (m.source, m.source_end) = (first.start, first.end);
            }
            members
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::tokens::{token_classes, token_ids, tokens};

    fn found(text: &str) -> Restarts {
        let toks = tokens(text);
        restarts(&token_ids(text, &toks), &token_classes(text, &toks), usize::MAX)
    }

    const STORY: &str = "Once upon a time a small fox lived at the edge of a quiet forest near the river. Every \
        morning she walked down to the water to drink and to watch the fish jump in the cold light. One day a heavy \
        storm came over the hills and the river rose higher than it had ever been before that spring.";

    /// The story with every `k`-th word replaced.
    fn reworded(k: usize, with: &str) -> String {
        STORY.split(' ').enumerate().map(|(i, w)| if i % k == k - 1 { with } else { w }).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn a_story_told_three_times_in_other_words_restarts() {
        let text = format!("{STORY}\n\n{}\n\n{}\n", reworded(5, "little"), reworded(6, "then"));
        let r = found(&text);
        assert_eq!(r.retellings.len(), 2, "{r:?}");
        assert!(r.retellings.iter().all(|t| t.source < 10 && t.source_end > 55), "the story's first telling: {r:?}");
    }

    /// Issue 35: items of a template, each in its own words, say one new word or more for every
    /// two they say again; a story told again in other words says far fewer.
    #[test]
    fn a_template_filled_for_each_item_is_not_a_restart() {
        use coherency_test_support::textgen::{prose, Rng, WORDS};
        let mut rng = Rng::new(35);
        let summary: String = (0..30)
            .map(|i| {
                let purpose = prose(&mut rng, 60, WORDS, " ");
                format!(
                    "### src/{}_{i}.rs\n- **Purpose:** {}.\n- **Issues:** none found.\n- **Tests:** covered by the \
                     unit tests in this module.\n- **Status:** ok\n\n",
                    WORDS[i * 7 % WORDS.len()],
                    purpose.trim_end()
                )
            })
            .collect();
        assert_eq!(found(&summary), Restarts::default());
        let story =
            format!("{STORY}\n\n{}\n\n{}\n\n{}\n", reworded(5, "little"), reworded(6, "then"), reworded(7, "so"));
        assert_eq!(found(&story).retellings.len(), 3);
    }

    #[test]
    fn told_twice_or_a_template_is_not_a_restart() {
        assert_eq!(found(&format!("{STORY}\n\nIn short: {}\n", reworded(5, "little"))), Restarts::default());
        // A template filled with words in no order.
        let mut x = 7u64;
        let mut pick = |words: &[&'static str]| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            words[(x >> 33) as usize % words.len()]
        };
        let log: String = (0..60)
            .map(|_| {
                let who = pick(&["alpha", "beta", "gamma", "delta"]);
                let job = pick(&["backup", "index", "sync", "mail", "report"]);
                format!("worker {who} finished the nightly {job} job and sent the summary\n")
            })
            .collect();
        assert_eq!(found(&log), Restarts::default());
        let rows: String = (0..60).map(|i| format!("| {i} | 0 | 0.00 | {} | none |\n", i * 7 % 13)).collect();
        assert_eq!(found(&rows), Restarts::default());
    }
}
