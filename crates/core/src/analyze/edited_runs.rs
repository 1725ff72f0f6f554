//! Loops whose copies vary a little: an exact tandem repeat extended over the copies around it
//! that differ from its unit by a few tokens (a word respelt or replaced, a token added or
//! dropped).
//!
//! Real loops often become byte-exact only late: a unit of two lines said again and again with
//! a spelling or a word changing now and then, exact only in its last stretch. The exact run
//! is the anchor. From its first copy we step back one unit at a time: the tokens just before
//! it that best match the unit (its length, give or take [`allowed_edits`] tokens, by edit
//! distance over token ids) are a copy when at most that many tokens differ — the copies
//! check's `max_edits` share of the unit, so a unit needs 9 tokens for one edit; then the
//! same forward from its last whole copy. Over the whole run the edits stay within that
//! share too (copies at the far ends are given back until they do), so a template filled
//! with new words each time is not a loop. Units longer than
//! [`MAX_UNIT_TOKENS`] are left to the copies check.
//!
//! Cost: an edit distance in a band of `2a + 1` per copy tried, `a` the allowed edits: on an
//! exact loop, one failed try at each end.

use super::tandem::Tandem;
use super::tokens::Token;
use super::variation::Variation;

/// Longest unit extended, in tokens.
pub const MAX_UNIT_TOKENS: usize = 256;

/// Tokens a copy may differ from the unit by: `max_edits` of the unit, rounded down (none for
/// a short unit: one edit in "#include <stdio.h>" makes another line, not a copy).
pub fn allowed_edits(unit_tokens: usize, max_edits: f64) -> usize {
    (unit_tokens as f64 * max_edits) as usize
}

/// The least edit distance between `unit` and a prefix of `seq` (`seq(k)`: the k-th token
/// going away from the run, `None` past the text) of `unit.len() ± a` tokens, within `a`
/// edits: `(edits, prefix length)`, the length nearest the unit's on a tie.
fn best_copy(unit: &[u32], seq: &dyn Fn(usize) -> Option<u32>, a: usize) -> Option<(usize, usize)> {
    let p = unit.len();
    let width = p + a + 1;
    let available = (0..p + a).take_while(|&k| seq(k).is_some()).count();
    if available + a < p {
        return None;
    }
    const INF: usize = usize::MAX / 2;
    let mut prev = vec![INF; width];
    let mut row = vec![INF; width];
    for (j, cell) in prev.iter_mut().enumerate().take(a.min(available) + 1) {
        *cell = j;
    }
    for i in 1..=p {
        row.fill(INF);
        let lo = i.saturating_sub(a);
        let hi = (i + a).min(available);
        for j in lo..=hi {
            let mut best = prev[j].saturating_add(1);
            if j > 0 {
                best = best.min(row[j - 1].saturating_add(1));
                let same = seq(j - 1) == Some(unit[i - 1]);
                best = best.min(prev[j - 1].saturating_add(usize::from(!same)));
            }
            row[j] = best;
        }
        std::mem::swap(&mut prev, &mut row);
    }
    (p.saturating_sub(a)..=(p + a).min(available))
        .filter(|&j| j > 0 && prev[j] <= a)
        .min_by_key(|&j| (prev[j], j.abs_diff(p)))
        .map(|j| (prev[j], j))
}

/// `t` (an exact run) extended over the neighbouring copies with small edits, `max_edits` the
/// share of edited tokens the whole run may hold; `t` itself when no copy around it is close.
pub fn extend(toks: &[Token], ids: &[u32], t: &Tandem, max_edits: f64) -> Tandem {
    let first = toks.partition_point(|k| k.start() < t.start);
    let p = toks.partition_point(|k| k.start() < t.unit.end) - first;
    if p == 0 || p > MAX_UNIT_TOKENS || !t.variation.is_exact() {
        return t.clone();
    }
    let unit = &ids[first..first + p];
    let a = allowed_edits(p, max_edits);
    if a == 0 {
        return t.clone();
    }
    // Whole copies of the exact run, in tokens: first..last.
    let last = first + t.count * p;
    let mut back: Vec<(usize, usize)> = Vec::new(); // (edits, tokens) per copy before the run
    let mut s = first;
    loop {
        let reversed: Vec<u32> = unit.iter().rev().copied().collect();
        let seq = |k: usize| s.checked_sub(k + 1).map(|i| ids[i]);
        match best_copy(&reversed, &seq, a) {
            Some((e, len)) if len <= s => {
                back.push((e, len));
                s -= len;
            }
            _ => break,
        }
    }
    let mut ahead: Vec<(usize, usize)> = Vec::new();
    let mut e = last;
    loop {
        let seq = |k: usize| ids.get(e + k).copied();
        match best_copy(unit, &seq, a) {
            Some((d, len)) => {
                ahead.push((d, len));
                e += len;
            }
            None => break,
        }
    }
    // Give copies back at the far ends (the one with more edits first) until the run's share
    // of edited tokens is within `max_edits`.
    let exact_tokens = last - first;
    loop {
        let edits: usize = back.iter().chain(&ahead).map(|c| c.0).sum();
        let tokens: usize = exact_tokens + back.iter().chain(&ahead).map(|c| c.1).sum::<usize>();
        if edits as f64 <= max_edits * tokens as f64 {
            break;
        }
        let drop_back = match (back.last(), ahead.last()) {
            (Some(b), Some(f)) => b.0 >= f.0,
            (Some(_), None) => true,
            _ => false,
        };
        if drop_back {
            back.pop();
        } else {
            ahead.pop();
        }
    }
    if back.is_empty() && ahead.is_empty() {
        return t.clone();
    }
    let edits = back.iter().chain(&ahead).map(|c| c.0).sum();
    let start_token = first - back.iter().map(|c| c.1).sum::<usize>();
    let end_token = last + ahead.iter().map(|c| c.1).sum::<usize>();
    let end = if ahead.is_empty() { t.end } else { toks[end_token - 1].end() };
    Tandem {
        start: toks[start_token].start(),
        end,
        count: t.count + back.len() + ahead.len(),
        variation: if edits == 0 { Variation::Exact } else { Variation::Edited { edits } },
        ..t.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::tandem::{line_best, tandems};
    use crate::analyze::tokens::Tokenized;
    use crate::analyze::tokens::{token_ids, tokens};

    fn extended(text: &str) -> Tandem {
        let toks = tokens(text);
        let ids = token_ids(text, &toks);
        let t = tandems(&Tokenized::new(text), line_best(text)).word.covering.unwrap();
        extend(&toks, &ids, &t, 0.12)
    }

    #[test]
    fn copies_with_a_word_changed_now_and_then_join_the_exact_run() {
        let unit = "We kept traveling north along the river until dark.\n";
        let edited = [
            unit.replace("traveling", "travelling"),
            unit.to_string(),
            unit.replace("north", "south"),
            unit.replace("dark.", "dark again."),
            unit.to_string(),
        ]
        .concat();
        let lead = "The map was old and the roads were new to us.\n";
        let text = format!("{lead}{edited}{}", unit.repeat(6));
        let t = extended(&text);
        // From the full stop before the first copy (the loop check reads it from its first word).
        assert!(t.start <= lead.len() && lead.len() - t.start <= 2, "{t:?}");
        assert_eq!(t.end, text.len() - 1);
        assert_eq!(t.count, 11);
        assert_eq!(t.variation, Variation::Edited { edits: 3 });
    }

    #[test]
    fn an_exact_loop_and_a_different_line_before_it_stay_as_they_are() {
        let text = format!("#include <stdlib.h>\n#include \"config.h\"\n{}", "#include <stdio.h>\n".repeat(8));
        let toks = tokens(&text);
        let ids = token_ids(&text, &toks);
        let t = tandems(&Tokenized::new(&text), line_best(&text)).line.covering.unwrap();
        let e = extend(&toks, &ids, &t, 0.12);
        assert_eq!(e, t);
    }

    #[test]
    fn the_edit_distance_finds_the_best_length() {
        let unit = [1, 2, 3, 4, 5, 6, 7, 8];
        let seq_of = |v: Vec<u32>| move |k: usize| v.get(k).copied();
        assert_eq!(best_copy(&unit, &seq_of(vec![1, 2, 3, 4, 5, 6, 7, 8, 1]), 2), Some((0, 8)));
        assert_eq!(best_copy(&unit, &seq_of(vec![1, 2, 3, 9, 4, 5, 6, 7, 8]), 2), Some((1, 9)), "one added");
        assert_eq!(best_copy(&unit, &seq_of(vec![1, 2, 4, 5, 6, 7, 8, 1]), 2), Some((1, 7)), "one dropped");
        assert_eq!(best_copy(&unit, &seq_of(vec![9, 9, 9, 4, 5, 6, 7, 8]), 2), None);
        assert_eq!(best_copy(&unit, &seq_of(vec![1, 2, 3]), 2), None);
    }
}
