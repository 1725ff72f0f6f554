//! Lines that carry no content, and the maxline check as the product's verdict counts it.
//!
//! The seed's maxline counts every non-blank line, so any code answer with five closing braces
//! reaches its WARN threshold: `}` is said again because code is shaped that way, not because
//! the model loops. A line carries *no content* when it holds no letter and no digit (closing
//! braces and brackets, `};`, a rule `---` or `***`, a table's `|---|---|`, lone punctuation)
//! or is a code fence marker (```` ``` ```` or `~~~`, with or without its language).
//!
//! A line with content counts, toward the product's verdict, only its copies said with no new
//! line since the one before (the first included): a new line is one with content whose shape —
//! its numbers aside — was never said before. A summary per file says "Status: ok" thirty
//! times, each time after the file's name and what it does: a template's field, filled in for
//! each item, counts once. A loop says its lines again with nothing new between them (or only
//! numbers changed: "Step 4" is not new after "Step 3") and counts in full. What changes
//! between the copies counts as much as what stays the same.
//!
//! The seed's figure and `seed_verdict` stay exact: `Metrics::maxline` and the maxline check in
//! `Report::checks` count every line. Only the product's verdict counts lines with content:
//! when the most repeated line carries none, or its copies come after new lines, the check is
//! judged on the line with content said again most so ([`Metrics::content_maxline`]), and a
//! reason says so. A loop made of such lines (a
//! thousand `}` back to back) is still the loop check's to find.

use super::report::{Check, Metric, Metrics};
use super::thresholds::Thresholds;
use crate::wording::{quote, thousands};

/// Whether a trimmed line carries content: a letter or a digit, and not a fence marker.
pub fn carries_content(line: &str) -> bool {
    let fence = line.starts_with("```") || line.starts_with("~~~");
    !fence && line.chars().any(char::is_alphanumeric)
}

/// The checks as the product's verdict judges them: the maxline check on lines with content
/// when the most repeated line carries none (see the module's header); the others as they are.
pub fn as_judged(checks: &[Check], m: &Metrics) -> Vec<Check> {
    let mut out = checks.to_vec();
    if let Some(n) = m.content_maxline {
        for c in out.iter_mut().filter(|c| c.metric == Metric::Maxline) {
            c.value = n as f64;
            c.level = super::checks::level_of(c.value, c.warn_at, c.fail_at, c.direction);
        }
    }
    out
}

/// The sentence saying that the seed's maxline counted a line the verdict does not count so,
/// when it did and that line reached the WARN threshold: "maxline 6 counts the line '}', which
/// carries no content: the verdict counts lines with content, the most repeated of which occurs
/// 2 times", or, for a template's field, "maxline 30 counts every copy of the line 'Status: ok';
/// 29 come after new lines (as a template's field, filled in for each item, does): the verdict
/// counts only the copies said with no new line since the one before: 1".
pub fn not_counted(m: &Metrics, t: &Thresholds, most_repeated: Option<&str>) -> Option<String> {
    let n = m.content_maxline?;
    let line = most_repeated.unwrap_or("");
    let times = match n {
        0 => "nowhere".to_string(),
        1 => "once".to_string(),
        n => format!("{} times", thousands(n)),
    };
    (m.maxline >= t.maxline_warn).then(|| {
        if carries_content(line) {
            let after_new = m.maxline - n.min(m.maxline);
            format!(
                "maxline {} counts every copy of the line '{}'; {} after new lines (as a template's field, \
                 filled in for each item, does): the verdict counts only the copies said with no new line since \
                 the one before: {}",
                thousands(m.maxline),
                quote(line),
                if after_new == 1 { "1 comes".to_string() } else { format!("{} come", thousands(after_new)) },
                thousands(n),
            )
        } else {
            format!(
                "maxline {} counts the line '{}', which carries no content (a closing brace, a fence marker, a rule, \
                 punctuation): the verdict counts only lines with content, the most repeated of which occurs {times}",
                thousands(m.maxline),
                quote(line),
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{analyze, Verdict};

    #[test]
    fn braces_fences_rules_and_punctuation_carry_no_content() {
        for line in ["}", "};", "})", "]);", "```", "```rust", "~~~", "---", "***", "|---|---|", "...", "-", "*"] {
            assert!(!carries_content(line), "{line:?}");
        }
        for line in ["} else {", "end", "0", "return x;", "Done.", "é", "— 42 —"] {
            assert!(carries_content(line), "{line:?}");
        }
    }

    /// Issue 35: a correct code answer with `}` six times is no loop; the seed still counts 6.
    #[test]
    fn a_code_answer_with_six_closing_braces_passes_and_the_seed_figure_stays() {
        let code = "Here is the fixed function:\n\n```cpp\n#include <vector>\n\nint sum(const std::vector<int>& v) {\n    int s = 0;\n    for (int x : v) {\n        if (x > 0) {\n            s += x;\n        }\n    }\n    return s;\n}\n\nint count(const std::vector<int>& v) {\n    int n = 0;\n    for (int x : v) {\n        if (x != 0) {\n            n++;\n        }\n    }\n    return n;\n}\n```\n\nBoth loops skip what they should.\n";
        let r = analyze(code);
        assert_eq!(r.metrics.maxline, 6, "the seed counts every line");
        assert_eq!(r.seed_verdict, Verdict::Warn, "and the seed's verdict stays");
        assert_eq!(r.check(Metric::Maxline).level, Verdict::Warn, "the seed's check as it was");
        assert_eq!(r.metrics.content_maxline, Some(1), "each copy of a line with content comes after new lines");
        assert_eq!(r.verdict, Verdict::Pass, "{:?}", r.reasons);
        assert!(
            r.reasons.iter().any(|s| s.starts_with("maxline 6 counts the line '}', which carries no content")),
            "{:?}",
            r.reasons
        );
    }

    /// Issue 35: a summary per file in a fixed template, each item in its own words, passes (the
    /// seed still counts its field 30 times); the same item said again 30 times is a loop; a
    /// field whose items change only their numbers is not new each time.
    #[test]
    fn a_template_filled_for_each_item_passes_and_the_same_item_again_does_not() {
        use coherency_test_support::textgen::{prose, Rng, WORDS};
        let mut rng = Rng::new(35);
        let purposes: Vec<String> = (0..30).map(|_| prose(&mut rng, 70, WORDS, " ").trim_end().to_string()).collect();
        let item = |i: usize| {
            format!(
                "### src/{}_{i}.rs\n- **Purpose:** {}.\n- **Issues:** none found.\n- **Tests:** covered by the unit \
                 tests in this module.\n- **Status:** ok\n\n",
                WORDS[i * 7 % WORDS.len()],
                purposes[i]
            )
        };
        let summary: String = (0..30).map(item).collect();
        let r = analyze(&summary);
        assert_eq!(r.metrics.maxline, 30, "the seed counts every copy of a field");
        assert_eq!(r.metrics.content_maxline, Some(1));
        assert_eq!(r.verdict, Verdict::Pass, "{:?}", r.reasons);
        assert!(r.reasons.iter().any(|s| s.contains("29 come after new lines")), "{:?}", r.reasons);
        let again = item(0).repeat(30);
        assert_eq!(analyze(&again).verdict, Verdict::Fail);
        // Only the numbers change between the copies of the field: nothing new, a loop.
        let counted: String = (0..30).map(|i| format!("Step {i}: check the file.\nStatus: ok\n")).collect();
        let r = analyze(&counted);
        assert_eq!(r.metrics.content_maxline, None, "every copy counted: {:?}", r.reasons);
        assert_eq!(r.verdict, Verdict::Fail);
    }

    #[test]
    fn a_line_with_content_said_too_often_still_counts() {
        let text = "}\n".repeat(7) + &"Let me check the file again.\nSomething else entirely here.\n".repeat(6);
        let r = analyze(&text);
        assert_eq!((r.metrics.maxline, r.metrics.content_maxline), (7, Some(6)));
        assert!(r.verdict >= Verdict::Warn);
        // Lines with content most repeated: nothing to say.
        let r = analyze(&"Let me check the file again.\n".repeat(6));
        assert_eq!(r.metrics.content_maxline, None);
    }
}
