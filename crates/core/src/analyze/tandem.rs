//! Tandem repeats: a unit repeated k times in a row, at character, word and line level.
//!
//! A tandem repeat is a stretch `start..end` of a sequence where every item equals the item one
//! period `p` before it, at least two periods long: text = prefix + uᵏ + a part of u + rest,
//! with `k = count ≥ 2`. The sequence is the text's bytes at [`UnitKind::Char`] (runs are then
//! trimmed to character boundaries, so "😂😂😂" is a 4-byte unit three times), its tokens
//! at [`UnitKind::Word`] (see [`super::tokens::tokens`]: words, with each punctuation mark,
//! CJK character or emoji a token of its own), its trimmed non-empty lines, list markers
//! ignored, at [`UnitKind::Line`]. Periods are bounded per level ([`MAX_CHAR_PERIOD`] bytes, [`MAX_WORD_PERIOD`]
//! words, [`MAX_LINE_PERIOD`] lines): a longer unit is the business of copy coverage.
//!
//! Per level we report the *longest* run (most copies) and the *most covering* run (most
//! bytes). Ranges: `count` ≥ 2; `end − start` up to the text length; a run's coverage is
//! `(end − start) / text length` in 0..=1. What thresholds would mean: prose has char-level
//! runs like "ll" or "..." (count 2–3, a few bytes) and rarely a word said twice; a loop has a
//! count in the tens or thousands and covers most of the text from its `start` (the onset).
//! Legit repetition (tables, logs, refrains) has near-copies, not exact consecutive copies, so
//! a gate on "count ≥ C and coverage ≥ X" is specific; see tests/scorer_evidence.rs.
//!
//! Cost: for each period `p`, only every p-th position is probed (a run two periods long
//! contains a multiple of `p` among its matching positions) and each run is extended once, so
//! the scan is O(n · log P) plus the length of the runs found — on a loop with period q,
//! O(n · P/q) for the multiples of q. Word and line items are compared by 64-bit hash.

use super::first_seen::FirstSeen;
use super::text_units::{ceil_boundary, floor_boundary, lines, trim};
use super::tokens::{hash_bytes, token_class, Token, TokenClass, Tokenized};
use super::variation::Variation;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::ops::Range;

/// Longest period searched at character level, in bytes.
pub const MAX_CHAR_PERIOD: usize = 64;
/// Longest period searched at word level, in words.
pub const MAX_WORD_PERIOD: usize = 128;
/// Longest period searched at line level, in lines.
pub const MAX_LINE_PERIOD: usize = 64;

/// What a tandem repeat's unit is made of: bytes (characters), words (tokens) or lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Char,
    Word,
    Line,
}

impl UnitKind {
    /// The items the unit's period counts, in words.
    pub fn label(self) -> &'static str {
        match self {
            UnitKind::Char => "characters",
            UnitKind::Word => "tokens",
            UnitKind::Line => "lines",
        }
    }
}

/// A tandem repeat: `count` full copies of the unit `text[unit]` from byte `start` (the unit's
/// first copy starts there), the run (with a last partial copy) ending at byte `end`.
/// `period` is the unit's length in items: bytes, words or lines. Runs found by [`runs`] are
/// exact; [`number_tandems`] finds runs whose copies differ only in their numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tandem {
    pub unit_kind: UnitKind,
    pub unit: Range<usize>,
    pub period: usize,
    pub count: usize,
    pub start: usize,
    pub end: usize,
    pub variation: Variation,
}

impl Tandem {
    /// Bytes covered by the run.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the run covers no bytes (never, for a reported run).
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// The longest and the most covering run of one level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TandemBest {
    pub longest: Option<Tandem>,
    pub covering: Option<Tandem>,
}

impl TandemBest {
    /// Considers one run. Most copies wins `longest` (then more bytes, shorter period, earlier);
    /// most bytes wins `covering` (then shorter period, earlier).
    pub fn offer(&mut self, t: Tandem) {
        let longer = |a: &Tandem, b: &Tandem| {
            (a.count, a.len(), std::cmp::Reverse(a.period), std::cmp::Reverse(a.start))
                > (b.count, b.len(), std::cmp::Reverse(b.period), std::cmp::Reverse(b.start))
        };
        let covers = |a: &Tandem, b: &Tandem| {
            (a.len(), std::cmp::Reverse(a.period), std::cmp::Reverse(a.start))
                > (b.len(), std::cmp::Reverse(b.period), std::cmp::Reverse(b.start))
        };
        if self.covering.as_ref().is_none_or(|b| covers(&t, b)) {
            self.covering = Some(t.clone());
        }
        if self.longest.as_ref().is_none_or(|b| longer(&t, b)) {
            self.longest = Some(t);
        }
    }
}

/// The three levels' best runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tandems {
    pub char: TandemBest,
    pub word: TandemBest,
    pub line: TandemBest,
}

impl Tandems {
    /// The run covering the most bytes at any level (the character level on a tie).
    pub fn covering(&self) -> Option<&Tandem> {
        [&self.char, &self.word, &self.line]
            .into_iter()
            .filter_map(|b| b.covering.as_ref())
            .fold(None, |best: Option<&Tandem>, t| if best.is_none_or(|b| t.len() > b.len()) { Some(t) } else { best })
    }
}

/// Items compared at once while extending a run.
const CHUNK: usize = 32;

/// Long runs remembered for their multiples (see [`runs`]).
const LONG_RUNS_KEPT: usize = 16;

/// Items probed per block: every period scans one block before the next block is touched, so
/// the block stays in cache across the periods instead of the whole text being swept once per
/// period.
const BLOCK: usize = 1 << 14;

/// Every maximal run of `seq` with a period `p` in `1..=max_period` at least two periods long,
/// as `visit(p, start, end)` (item indices); block by block, periods in increasing order
/// within a block, then by position.
pub fn runs<T: Eq>(seq: &[T], max_period: usize, visit: impl FnMut(usize, usize, usize)) {
    runs_by(
        seq.len(),
        max_period,
        |a, b| seq[a] == seq[b],
        // Slice equality: a memcmp for bytes.
        |a, b, len| seq[a..a + len] == seq[b..b + len],
        visit,
    )
}

/// [`runs`] over items `0..n` compared by `same(a, b)`; `same_chunk(a, b, len)` says whether
/// the `len` items from `a` and from `b` are the same, item by item (a faster test at once).
pub fn runs_by(
    n: usize,
    max_period: usize,
    same: impl Fn(usize, usize) -> bool,
    same_chunk: impl Fn(usize, usize, usize) -> bool,
    mut visit: impl FnMut(usize, usize, usize),
) {
    let max_period = max_period.min(n / 2);
    // Matching positions k ≥ p have item k the same as item k − p; a run is a stretch of them at least
    // p long, so it holds a multiple of p: only multiples of p are probed.
    let mut next: Vec<usize> = (0..=max_period).collect();
    // Long runs found so far, as (period q, first matching position, end): where one holds,
    // every multiple m·q of its period matches from m − 1 periods in to the same end, so a
    // run of a multiple found there ends there without extending over it again (a loop of
    // 20 million tokens is not walked once per multiple of its period).
    let mut long: Vec<(usize, usize, usize)> = Vec::new();
    let mut block_end = 0;
    while block_end < n {
        block_end = (block_end + BLOCK).min(n);
        for (p, next_probe) in next.iter_mut().enumerate().skip(1) {
            let mut k = *next_probe;
            while k < block_end {
                if !same(k, k - p) {
                    k += p;
                    continue;
                }
                // Extend both ways, a chunk at a time first.
                let mut a = k;
                while a >= p + CHUNK && same_chunk(a - CHUNK, a - CHUNK - p, CHUNK) {
                    a -= CHUNK;
                }
                while a > p && same(a - 1, a - 1 - p) {
                    a -= 1;
                }
                let known = long
                    .iter()
                    .rev()
                    .find(|&&(q, from, end)| q < p && p % q == 0 && k >= from + (p - q) && k < end)
                    .map(|&(_, _, end)| end);
                let mut c = known.unwrap_or(k + 1);
                if known.is_none() {
                    while c + CHUNK <= n && same_chunk(c, c - p, CHUNK) {
                        c += CHUNK;
                    }
                    while c < n && same(c, c - p) {
                        c += 1;
                    }
                }
                if c - a >= p {
                    visit(p, a - p, c);
                }
                if c - a >= 2 * max_period && known.is_none() {
                    if long.len() == LONG_RUNS_KEPT {
                        long.remove(0);
                    }
                    long.push((p, a, c));
                }
                k = (c / p + 1) * p;
            }
            *next_probe = k;
        }
    }
}

/// Character-level runs: on bytes, trimmed to character boundaries.
pub fn char_tandems(text: &str, mut visit: impl FnMut(Tandem)) {
    runs(text.as_bytes(), MAX_CHAR_PERIOD, |p, i, j| {
        let (s, e) = (ceil_boundary(text, i), floor_boundary(text, j));
        if e >= s + 2 * p {
            visit(Tandem {
                unit_kind: UnitKind::Char,
                unit: s..s + p,
                period: p,
                count: (e - s) / p,
                start: s,
                end: e,
                variation: Variation::Exact,
            });
        }
    });
}

/// Runs over a sequence of items (tokens or lines: `range(k)` is item k's bytes) with their ids.
fn item_tandems<Id: Eq>(
    range: impl Fn(usize) -> Range<usize>,
    ids: &[Id],
    kind: UnitKind,
    max: usize,
    mut visit: impl FnMut(Tandem),
) {
    runs(ids, max, |p, i, j| {
        visit(Tandem {
            unit_kind: kind,
            unit: range(i).start..range(i + p).start,
            period: p,
            count: (j - i) / p,
            start: range(i).start,
            end: range(j - 1).end,
            variation: Variation::Exact,
        })
    });
}

/// The trimmed non-empty lines of `text`.
pub fn line_items(text: &str) -> Vec<Range<usize>> {
    lines(text, 0..text.len()).map(|l| trim(text, l)).filter(|l| !l.is_empty()).collect()
}

/// A line without its list marker: "12. ", "3) ", "- ", "* ", "• ", "+ " at its start. A list
/// that repeats one item under increasing numbers is a loop of that item.
pub fn line_key(text: &str, line: Range<usize>) -> Range<usize> {
    let b = &text.as_bytes()[line.clone()];
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let marker = if digits > 0 && digits <= 6 && matches!(b.get(digits), Some(b'.' | b')')) {
        digits + 1
    } else if b.starts_with("•".as_bytes()) {
        "•".len()
    } else if matches!(b.first(), Some(b'-' | b'*' | b'+')) {
        1
    } else {
        0
    };
    if marker == 0 || !matches!(b.get(marker), Some(b' ' | b'\t')) {
        return line;
    }
    let rest = b[marker..].iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    line.start + marker + rest..line.end
}

/// Word-level runs over `text`'s tokens, compared by their `ids`.
pub fn word_tandems(toks: &[Token], ids: &[u32], visit: impl FnMut(Tandem)) {
    item_tandems(|k| toks[k].range(), ids, UnitKind::Word, MAX_WORD_PERIOD, visit)
}

/// Line-level runs, list markers ignored. Twelve bytes a line: its range, and as its id the
/// number of the first line with the same key (found through a [`FirstSeen`] table of the
/// distinct lines).
pub fn line_tandems(text: &str, visit: impl FnMut(Tandem)) {
    let items: Vec<(u32, u32)> = lines(text, 0..text.len())
        .map(|l| trim(text, l))
        .filter(|l| !l.is_empty())
        .map(|l| (l.start as u32, l.end as u32))
        .collect();
    let range = |k: usize| items[k].0 as usize..items[k].1 as usize;
    let key = |k: u32| &text.as_bytes()[line_key(text, range(k as usize))];
    let mut first = FirstSeen::default();
    let ids: Vec<u32> = (0..items.len() as u32)
        .map(|k| {
            let own = key(k);
            first.find_or_insert(hash_bytes(own), k, |j| key(j) == own, |j| hash_bytes(key(j))).unwrap_or(k)
        })
        .collect();
    drop(first);
    item_tandems(range, &ids, UnitKind::Line, MAX_LINE_PERIOD, visit)
}

/// The longest and the most covering line-level run (see [`line_tandems`]).
pub fn line_best(text: &str) -> TandemBest {
    let mut best = TandemBest::default();
    line_tandems(text, |r| best.offer(r));
    best
}

/// A numeric token's value, when it is a plain decimal number of at most 18 digits.
fn decimal(token: &str) -> Option<u64> {
    (token.len() <= 18 && token.bytes().all(|b| b.is_ascii_digit())).then(|| token.parse().ok()).flatten()
}

/// Word-level runs whose copies are the same once every number is set aside, and whose
/// numbers do change: a unit said again and again with only a counter or a value changing
/// ("Step 3: Check the cache." … "Step 245: Check the cache.", "4.\n5.\n6.\n…", "1 2 3 4 …").
///
/// Structured data has that shape too (a table's rows, a log's lines, a font's bytes), so a
/// run counts only when the words come back: a unit with at least as many words as numbers
/// ([`TokenClass`]), or a unit of one number and punctuation only whose number counts up by
/// one (a bare count, an empty numbered list). A unit of numbers among punctuation and single
/// letters ("{ 0x00, 0x00 }, // U+0041", "1043,,0,0.00") is data and never a run here.
/// Runs start at a word or a number, not at the punctuation before them.
///
/// Cost: nothing on a text with fewer than two numbers; else one more scan like the word
/// level's over ids with the numbers masked, each run classified from its first copy.
pub fn number_tandems(text: &str, toks: &[Token], ids: &[u32], mut visit: impl FnMut(Tandem)) {
    let class = |k: usize| token_class(&text[toks[k].range()]);
    let numbers = toks.iter().filter(|t| text.as_bytes()[t.start()].is_ascii_digit()).count();
    if numbers < 2 {
        return;
    }
    // Tokens compared with every number taken for the same: a bit a token says which are
    // numbers (a masked copy of the ids would be 4 bytes a token more).
    let mut number_bits = vec![0u64; toks.len().div_ceil(64)];
    for (k, t) in toks.iter().enumerate() {
        number_bits[k / 64] |= u64::from(text.as_bytes()[t.start()].is_ascii_digit()) << (k % 64);
    }
    let is_number = |k: usize| number_bits[k / 64] >> (k % 64) & 1 == 1;
    let same = |a: usize, b: usize| ids[a] == ids[b] || is_number(a) && is_number(b);
    // The smallest period of a run is visited first; its multiples end where it ends.
    let mut ends = HashSet::new();
    let same_chunk = |a: usize, b: usize, len: usize| (0..len).all(|o| same(a + o, b + o));
    runs_by(toks.len(), MAX_WORD_PERIOD, same, same_chunk, |p, i, j| {
        if ends.contains(&j) {
            return;
        }
        // Start at a word or a number: a lead-in of punctuation moves to the next copy's.
        let Some(shift) = (0..p).find(|&o| class(i + o) != TokenClass::Other) else { return };
        let i = i + shift;
        let count = (j - i) / p;
        if count < 2 {
            return;
        }
        let number_offsets: Vec<usize> = (0..p).filter(|&o| is_number(i + o)).collect();
        let words = (0..p).filter(|&o| class(i + o) == TokenClass::Word).count();
        let bare_count = words == 0 && number_offsets.len() == 1;
        if number_offsets.is_empty() || (words < number_offsets.len() && !bare_count) {
            return;
        }
        let value = |k: usize| &text[toks[k].range()];
        // For each number of the unit: constant, counting up by one, or changing otherwise. A
        // count may stop before the run does (a last number cut short, "1587" after "158699"):
        // the run is then the counting copies.
        let mut counter = None;
        let mut changes = false;
        for &o in &number_offsets {
            let same = (1..count).all(|c| ids[i + o + c * p] == ids[i + o]);
            if same {
                continue;
            }
            changes = true;
            let first = decimal(value(i + o));
            let counting = first.map_or(0, |f| {
                1 + (1..count).take_while(|&c| decimal(value(i + o + c * p)) == Some(f + c as u64)).count()
            });
            counter = match (counter, first) {
                (None, Some(f)) if counting >= 2 => Some(Some((f, counting))),
                _ => Some(None),
            };
        }
        let counter = counter.flatten();
        if !changes || (bare_count && counter.is_none()) {
            return;
        }
        let count = counter.map_or(count, |(_, counting)| counting);
        if count < 2 {
            return;
        }
        let counts = counter.map(|(f, counting)| (f, f + counting as u64 - 1));
        // The run's last token: the end of the last whole copy when the count stopped early.
        let last = if count * p < j - i { i + count * p - 1 } else { j - 1 };
        ends.insert(j);
        let start = toks[i].start();
        visit(Tandem {
            unit_kind: UnitKind::Word,
            unit: start..toks[i + p].start(),
            period: p,
            count,
            start,
            end: toks[last].end(),
            variation: Variation::Numbers { counts, bare: bare_count },
        })
    });
}

/// Digits said again inside one number are the number, not a loop: "100000", "3.14159…" hold
/// character runs ("0" five times) that only a number of more than [`NUMBER_DIGITS`] digits
/// (a digit loop) counts as one.
pub const NUMBER_DIGITS: usize = 18;

/// Whether a character-level run lies inside a number of at most [`NUMBER_DIGITS`] digits.
pub fn within_a_number(text: &str, t: &Tandem) -> bool {
    let b = text.as_bytes();
    if !b[t.start..t.end].iter().all(u8::is_ascii_digit) {
        return false;
    }
    let before = b[..t.start].iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let after = b[t.end..].iter().take_while(|c| c.is_ascii_digit()).count();
    before + (t.end - t.start) + after <= NUMBER_DIGITS
}

/// The longest and the most covering run at each level of a text cut into tokens (`t`, its
/// tokens at hand: before [`Tokenized::drop_ranges`]), the line level being `line` (found by
/// [`line_best`]: a long text's analysis finds it before it cuts the text into tokens, so that
/// the two tables are not held at once).
pub fn tandems(t: &Tokenized, line: TandemBest) -> Tandems {
    let text = t.text();
    let mut found = Tandems { line, ..Tandems::default() };
    char_tandems(text, |r| {
        if !within_a_number(text, &r) {
            found.char.offer(r)
        }
    });
    word_tandems(t.tokens().unwrap_or_default(), t.ids(), |r| found.word.offer(r));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs_of(text: &str) -> Tandems {
        tandems(&Tokenized::new(text), line_best(text))
    }

    #[test]
    fn a_phrase_loop_on_one_line_is_found_at_each_level() {
        let unit = "Let me check the file again. ";
        let text = format!("Hmm.\n{}", unit.repeat(10));
        let t = runs_of(&text);
        let c = t.char.covering.unwrap();
        assert_eq!((c.start, c.period, c.count, &text[c.unit.clone()]), (5, unit.len(), 10, unit));
        assert_eq!(c.end, text.len());
        let w = t.word.longest.unwrap();
        // Tokens: six words and the full stop; found from the full stop of "Hmm." (a rotation).
        assert_eq!((w.start, w.period, w.count), (3, 7, 10));
        assert!(t.line.longest.is_none());
    }

    #[test]
    fn sub_word_and_multibyte_loops() {
        let c = runs_of("NoNoNoNoNo").char.longest.unwrap();
        assert_eq!((c.period, c.count, c.start, c.end), (2, 5, 0, 10));
        let c = runs_of("x😂😂😂").char.longest.unwrap();
        assert_eq!((c.period, c.count, c.start, c.end), (4, 3, 1, 13));
        let c = runs_of("好好好好").char.longest.unwrap();
        assert_eq!((c.period, c.count), (3, 4));
    }

    #[test]
    fn digits_inside_a_number_are_not_a_run_but_a_digit_loop_is() {
        assert_eq!(runs_of("answer number 100000").char.longest, None);
        assert_eq!(runs_of("pi is 3.14141414").char.longest, None);
        assert_eq!(runs_of(&"1".repeat(19)).char.longest.map(|t| t.count), Some(19));
        assert_eq!(runs_of("!!!!!!!!!!!!!!!!!!!!").char.longest.map(|t| t.count), Some(20));
    }

    #[test]
    fn line_loops_ignore_blank_lines_and_indentation() {
        let t = runs_of("a\n  b\n\nb\nb\nc");
        let l = t.line.longest.unwrap();
        assert_eq!((l.period, l.count, l.start, l.end), (1, 3, 4, 10));
    }

    #[test]
    fn one_list_item_under_increasing_numbers_is_a_line_loop() {
        let text = "Steps:\n1. Open it.\n2. Check the cache.\n3. Check the cache.\n4. Check the cache.\n";
        let l = runs_of(text).line.longest.unwrap();
        assert_eq!(
            (l.count, &text[l.start..l.end]),
            (3, "2. Check the cache.\n3. Check the cache.\n4. Check the cache.")
        );
        assert_eq!(&text[line_key(text, 19..38)], "Check the cache.");
        for kept in ["-5 degrees", "1.5 ms", "12.5 ms", "*emphasis*", "•"] {
            assert_eq!(line_key(kept, 0..kept.len()), 0..kept.len(), "{kept}");
        }
        assert_eq!(line_key("- item", 0..6), 2..6);
    }

    fn number_runs(text: &str) -> Vec<(String, usize, Variation)> {
        let t = Tokenized::new(text);
        let mut out = Vec::new();
        number_tandems(text, t.tokens().unwrap_or_default(), t.ids(), |t| {
            out.push((text[t.start..t.end].to_string(), t.count, t.variation))
        });
        out
    }

    #[test]
    fn a_unit_with_only_its_number_changing_is_a_number_run() {
        let text = "Plan:\n1. Open it.\nStep 2: Check the cache.\nStep 3: Check the cache.\nStep 4: Check the cache.\n";
        let runs = number_runs(text);
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert!(runs[0].0.starts_with("Step 2: Check"), "{runs:?}");
        assert_eq!((runs[0].1, runs[0].2), (3, Variation::Numbers { counts: Some((2, 4)), bare: false }));
        let empty = "Items:\n1. Buy milk.\n2.\n3.\n4.\n5.\n6.\n";
        let runs = number_runs(empty);
        assert_eq!(
            runs,
            [("2.\n3.\n4.\n5.\n6.".to_string(), 5, Variation::Numbers { counts: Some((2, 6)), bare: true })]
        );
        let cut = "Count: 7 8 9 10 11 12 1";
        assert_eq!(
            number_runs(cut),
            [("7 8 9 10 11 12".to_string(), 6, Variation::Numbers { counts: Some((7, 12)), bare: true })]
        );
        let answers = "The answer is 42. The answer is 17. The answer is 99. The answer is 3.";
        assert_eq!(number_runs(answers)[0].2, Variation::Numbers { counts: None, bare: false });
    }

    #[test]
    fn data_whose_numbers_change_is_not_a_number_run() {
        for data in [
            "{ 0x00, 0x00, 0x00 }, // U+0041\n{ 0x00, 0x00, 0x00 }, // U+0042\n{ 0x00, 0x00, 0x00 }, // U+0043\n",
            "1043,,0,0.00,0,false,N/A\n1044,,0,0.00,0,false,N/A\n1045,,0,0.00,0,false,N/A\n",
            "7 3 9 1 4 8 2 6 5 0 11 13",
            "12:00:01 GET /a 200 12\n12:00:02 GET /a 200 31\n12:00:04 GET /a 404 7\n",
            "a 1 b 1 c 1 d 1",
        ] {
            assert_eq!(number_runs(data), [], "{data}");
        }
    }
}
