//! Copy coverage: the share of the text that is a long copy of earlier text, with the copies.
//!
//! The text is cut into tokens (see [`super::tokens::tokens`]: words, and single CJK
//! characters or punctuation). A *shingle* is [`SHINGLE`] consecutive tokens. A shingle that
//! already occurred anywhere earlier (unbounded look-back: a 40 KB block repeated is seen,
//! where DEFLATE's 32 KiB window is blind) marks its tokens as copied. Copied stretches closer
//! than [`MAX_GAP`] uncovered tokens apart merge into one span, so a paragraph repeated with a
//! number or a word changed each time is one span, not many.
//!
//! Value: `coverage` = bytes of the copied spans / text bytes, in 0..=1 (0 for a text of fewer
//! than [`SHINGLE`] tokens). The first occurrence of anything is never counted, so a text said
//! twice scores ≈ 0.5, a loop of k copies ≈ 1 − 1/k. Prose stays near 0; a quoted passage
//! repeated once scores its share of the text; refrains and near-identical code lines give
//! a moderate coverage in many short spans. So a threshold means "more than this share of the
//! text repeats what came before", and a loop drives it towards 1 from its onset, the start
//! of the first long span.
//!
//! Cost: linear expected (one probe per token in a table of first occurrences); memory, 4 to
//! 8 bytes per shingle ([`FirstSeen`]). Shingles are compared by their token ids, exactly.

use super::first_seen::FirstSeen;
use super::ngram_stats::ngram_id;
use super::tokens::{TokenClass, Tokenized};
use std::ops::Range;

/// Tokens per shingle: a copy must be at least this many tokens long to count.
pub const SHINGLE: usize = 8;
/// Uncovered tokens allowed between two copied stretches of one span (small edits).
pub const MAX_GAP: usize = 3;

/// A copied span: bytes `start..end` repeat earlier text (up to small edits); `source` is the
/// byte offset of the earliest occurrence of the span's first shingle; `tokens` its length;
/// `edits` the tokens inside it not covered by a copied shingle (the small edits bridged),
/// `number_edits` how many of those are numbers; `numbers` and `words` count the span's
/// tokens of each [`TokenClass`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopySpan {
    pub start: usize,
    pub end: usize,
    pub source: usize,
    pub tokens: usize,
    pub edits: usize,
    pub number_edits: usize,
    pub numbers: usize,
    pub words: usize,
}

impl CopySpan {
    /// Edits per token, 0..1: 0 for an exact copy; a template filled with new values each
    /// time (a log line, a table row) is high, a paragraph with one changed word is low.
    pub fn edit_density(&self) -> f64 {
        self.edits as f64 / self.tokens as f64
    }

    /// Whether the copy is data rather than a loop: what changes from its source is mostly
    /// numbers (at least half of its edits) and it holds at least as many numbers as words —
    /// a table's rows, a log's lines, a font's bytes under a counting comment. A copy with no
    /// edit at all is never data: said again verbatim, it counts as a copy.
    pub fn is_data(&self) -> bool {
        self.edits > 0 && 2 * self.number_edits >= self.edits && self.numbers >= self.words
    }
}

/// The copied spans of a text and the share of it they cover.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyCoverage {
    pub spans: Vec<CopySpan>,
    pub copied_bytes: usize,
    pub coverage: f64,
}

impl CopyCoverage {
    /// The longest span (the first on a tie).
    pub fn longest(&self) -> Option<&CopySpan> {
        self.spans.iter().fold(
            None,
            |b: Option<&CopySpan>, s| {
                if b.is_none_or(|b| s.end - s.start > b.end - b.start) {
                    Some(s)
                } else {
                    b
                }
            },
        )
    }
}

/// Copy coverage of a text cut into tokens (`t`: ids and classes; the spans' bytes from its
/// tokens, or found in one more tokenising pass when a long text's analysis has dropped them,
/// see [`Tokenized::drop_ranges`]).
///
/// One pass over the shingles, each looked up in a table of the first occurrence of every
/// shingle seen ([`FirstSeen`]: 4 bytes a slot, compared by their token ids), which is also
/// the source of a span that starts with it. `distinct_4grams` (from
/// [`super::ngram_stats::NgramStats::distinct_count`], when known) sizes the table: there are
/// at most its square of distinct 8-token shingles.
pub fn copy_coverage(t: &Tokenized, distinct_4grams: Option<usize>) -> CopyCoverage {
    let distinct = distinct_4grams.map_or(usize::MAX, |d| d.saturating_mul(d));
    let copied = copied_shingles(t.ids(), t.classes(), distinct);
    match t.tokens() {
        Some(toks) => copied.finish(t.text(), |k| toks[k].range()),
        None => {
            let wanted = copied.token_indices();
            let ranges = t.ranges_at(&wanted);
            // `wanted` is sorted and holds every token number `finish` asks for.
            copied.finish(t.text(), |k| ranges[wanted.binary_search(&k).unwrap_or(0)].clone())
        }
    }
}

/// The copied shingles of a token-id sequence, merged into spans of token numbers; the table
/// is sized for at most `distinct` distinct shingles (it grows if there are more).
pub(crate) fn copied_shingles<'a>(ids: &[u32], classes: &'a [TokenClass], distinct: usize) -> SpanBuilder<'a> {
    let shingles = ids.len().saturating_sub(SHINGLE - 1);
    let mut first = FirstSeen::with_capacity(shingles.min(distinct.saturating_add(64)));
    let mut cover = SpanBuilder::new(classes);
    let shingle = |k: u32| -> [u32; SHINGLE] { ids[k as usize..k as usize + SHINGLE].try_into().unwrap_or_default() };
    first.find_or_insert_all(
        ids.windows(SHINGLE).enumerate().map(|(i, w)| (i as u32, ngram_id(w))),
        |j, i| shingle(j) == shingle(i),
        |j| ngram_id(&shingle(j)),
        |j| ids[j as usize],
        |i, found| {
            if let Some(j) = found {
                cover.add(i as usize, j as usize);
            }
        },
    );
    drop(first);
    cover
}

/// One span being built, in token numbers.
#[derive(Clone, Copy)]
struct OpenSpan {
    start: usize,
    end: usize,
    source: usize,
    edits: usize,
    number_edits: usize,
}

/// Merges copied shingles (token index, source token index), in increasing order, into spans;
/// `classes` gives each token's class (to tell data from loops, see [`CopySpan::is_data`]).
pub(crate) struct SpanBuilder<'a> {
    classes: &'a [TokenClass],
    open: Option<OpenSpan>,
    spans: Vec<OpenSpan>,
}

impl<'a> SpanBuilder<'a> {
    pub(crate) fn new(classes: &'a [TokenClass]) -> Self {
        Self { classes, open: None, spans: Vec::new() }
    }

    pub(crate) fn add(&mut self, i: usize, source: usize) {
        match &mut self.open {
            Some(o) if i <= o.end + MAX_GAP => {
                if i > o.end {
                    o.edits += i - o.end;
                    o.number_edits += self.classes[o.end..i].iter().filter(|&&c| c == TokenClass::Number).count();
                }
                o.end = o.end.max(i + SHINGLE);
            }
            _ => {
                self.spans.extend(self.open.take());
                self.open = Some(OpenSpan { start: i, end: i + SHINGLE, source, edits: 0, number_edits: 0 });
            }
        }
    }

    /// The token numbers whose bytes [`Self::finish`] needs, sorted, without repeats.
    pub(crate) fn token_indices(&self) -> Vec<usize> {
        let mut at = Vec::with_capacity((self.spans.len() + 1) * 3);
        for o in self.spans.iter().chain(&self.open) {
            at.extend([o.start, o.end - 1, o.source]);
        }
        at.sort_unstable();
        at.dedup();
        at
    }

    /// The spans in bytes, `range_of(k)` being token k's bytes in `text`.
    pub(crate) fn finish(mut self, text: &str, range_of: impl Fn(usize) -> Range<usize>) -> CopyCoverage {
        self.spans.extend(self.open.take());
        let classes = self.classes;
        let count = |r: Range<usize>, class: TokenClass| classes[r].iter().filter(|&&c| c == class).count();
        let spans: Vec<CopySpan> = self
            .spans
            .into_iter()
            .map(|o| CopySpan {
                start: range_of(o.start).start,
                end: range_of(o.end - 1).end,
                source: range_of(o.source).start,
                tokens: o.end - o.start,
                edits: o.edits,
                number_edits: o.number_edits,
                numbers: count(o.start..o.end, TokenClass::Number),
                words: count(o.start..o.end, TokenClass::Word),
            })
            .collect();
        let copied_bytes = spans.iter().map(|s| s.end - s.start).sum();
        let coverage = if text.is_empty() { 0.0 } else { copied_bytes as f64 / text.len() as f64 };
        CopyCoverage { spans, copied_bytes, coverage }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copies_of(text: &str) -> CopyCoverage {
        copy_coverage(&Tokenized::new(text), None)
    }

    #[test]
    fn a_paragraph_repeated_with_a_changed_number_is_one_span() {
        let para =
            |n: usize| format!("The reclaim thread scans the list again and evicts the oldest pages of list {n}.\n");
        let first = para(1);
        let text = format!("{first}{}{}", para(2), para(3));
        let c = copies_of(&text);
        assert_eq!(c.spans.len(), 1, "{c:?}");
        assert_eq!(c.spans[0].edits, 1, "the number of the second copy");
        let s = &c.spans[0];
        // Copied up to the last changed number: "3." is new.
        assert_eq!((s.start, s.end, s.source), (first.len(), text.len() - 4, 0));
        assert!((c.coverage - (s.end - s.start) as f64 / text.len() as f64).abs() < 1e-12);
    }

    #[test]
    fn prose_and_short_texts_have_no_copies() {
        assert_eq!(copies_of("one two three four five six seven eight nine ten").coverage, 0.0);
        assert_eq!(copies_of("a a a").spans, vec![]);
        assert_eq!(copies_of("").coverage, 0.0);
    }

    #[test]
    fn without_tokens_gives_the_same_spans() {
        let para = "The cache is full, so the oldest page goes first; then the scan starts again.\n";
        for text in [para.repeat(5), format!("{}模型内存 {}", "la ".repeat(30), para.repeat(3)), String::new()] {
            let whole = Tokenized::new(&text);
            let mut dropped = whole.clone();
            dropped.drop_ranges();
            assert_eq!(copy_coverage(&dropped, Some(1)), copy_coverage(&whole, None));
        }
    }

    #[test]
    fn a_loop_of_one_token_is_copied_from_its_second_token() {
        let c = copies_of(&"la ".repeat(20));
        assert_eq!(
            c.spans,
            vec![CopySpan {
                start: 3,
                end: 59,
                source: 0,
                tokens: 19,
                edits: 0,
                number_edits: 0,
                numbers: 0,
                words: 19
            }]
        );
    }

    #[test]
    fn rows_of_numbers_under_a_counting_comment_are_data_and_a_paragraph_with_a_counter_is_not() {
        let rows: String =
            (0x41..0x61).map(|cp| format!("    {{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 }},   // U+{cp:04X}\n")).collect();
        let c = copies_of(&rows);
        assert!(c.coverage > 0.8, "{c:?}");
        assert!(c.spans.iter().filter(|s| s.tokens >= 32).all(CopySpan::is_data), "{c:?}");
        let para = |n: usize| {
            format!("The reclaim thread scans the list again and evicts the oldest pages of list {n} at once.\n")
        };
        let text: String = (1..8).map(para).collect();
        let c = copies_of(&text);
        assert!(c.spans.iter().all(|s| !s.is_data() && s.number_edits == s.edits), "{c:?}");
        assert!(!copies_of(&"0x00 0x01 0x02 0x03 ".repeat(10)).spans[0].is_data(), "said verbatim");
    }
}
