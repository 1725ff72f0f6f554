//! Rule lines: a line drawn with one or a few marks (`-----`, `=====`, `+------+-----+`,
//! `|:---|---:|`, `──────`), a separator or a table's border, that the loop and copies checks
//! do not count as a run said again. Drawn with 80 dashes in a short note, or with 270 in a
//! reStructuredText grid table, such a line is one token said back to back — by the tokens,
//! a loop; by what it says, nothing.
//!
//! A rule line holds only rule marks (`-`, `=`, `_`, `*`, `~`, `#`, `+`, `|`, `:`, and the
//! box-drawing characters U+2500–U+257F) and blanks, and at most [`RULE_LINE_MAX`] bytes. A
//! model that breaks down into marks writes them on and on, to its token limit (thousands of
//! bytes), or marks a rule never holds (`!!!!!`, `.....`, `?????`): those are still loops.

use std::ops::Range;

/// The longest rule line, in bytes: a wide table's border, not a model's run to its limit.
pub const RULE_LINE_MAX: usize = 400;

fn is_rule_mark(c: char) -> bool {
    matches!(c, '-' | '=' | '_' | '*' | '~' | '#' | '+' | '|' | ':') || ('\u{2500}'..='\u{257F}').contains(&c)
}

/// Whether `range` of `text` lies within one rule line.
pub fn within_rule_line(text: &str, range: Range<usize>) -> bool {
    let bytes = text.as_bytes();
    if range.start >= range.end || range.end > bytes.len() {
        return false;
    }
    // The line around the range, looked for no further than a rule line can reach.
    let reach = RULE_LINE_MAX + 1;
    let back = &bytes[range.start.saturating_sub(reach)..range.start];
    let start = match back.iter().rposition(|&b| b == b'\n') {
        Some(i) => range.start - back.len() + i + 1,
        None if back.len() < reach => 0,
        None => return false,
    };
    let ahead = &bytes[range.start..(range.start + reach).min(bytes.len())];
    let end = match ahead.iter().position(|&b| b == b'\n') {
        Some(i) => range.start + i,
        None if range.start + ahead.len() == bytes.len() => bytes.len(),
        None => return false,
    };
    if range.end > end + 1 || end - start > RULE_LINE_MAX {
        return false;
    }
    let line = &text[start..end];
    line.trim().chars().next().is_some() && line.chars().all(|c| c.is_whitespace() || is_rule_mark(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole_line(text: &str, line: &str) -> bool {
        let at = text.find(line).unwrap();
        within_rule_line(text, at..at + line.len())
    }

    #[test]
    fn separators_and_borders_are_rules() {
        let dashes = "-".repeat(80);
        let border = format!("+{}+{}+", "-".repeat(40), "-".repeat(200));
        let text = format!("A note.\n{dashes}\nMore.\n{border}\n| a | b |\n|:---|---:|\n══════\n");
        for line in [dashes.as_str(), border.as_str(), "|:---|---:|", "══════"] {
            assert!(whole_line(&text, line), "{line}");
        }
        // A part of the line is within it; a run that goes on past its line is not.
        let at = text.find(&dashes).unwrap();
        assert!(within_rule_line(&text, at + 10..at + 40));
        assert!(!within_rule_line(&text, at..at + 86));
    }

    #[test]
    fn words_loops_of_other_marks_and_long_runs_are_not() {
        let bang = "!".repeat(300);
        let long = "-".repeat(RULE_LINE_MAX + 1);
        let text = format!("Total -- 3 items\n{bang}\n{long}");
        assert!(!whole_line(&text, "Total -- 3 items"));
        assert!(!whole_line(&text, &bang));
        assert!(!whole_line(&text, &long));
        assert!(!within_rule_line("", 0..0));
    }
}
