//! Lines that carry no content, and the maxline check as the product's verdict counts it.
//!
//! The seed's maxline counts every non-blank line, so any code answer with five closing braces
//! reaches its WARN threshold: `}` is said again because code is shaped that way, not because
//! the model loops. A line carries *no content* when it holds no letter and no digit (closing
//! braces and brackets, `};`, a rule `---` or `***`, a table's `|---|---|`, lone punctuation)
//! or is a code fence marker (```` ``` ```` or `~~~`, with or without its language).
//!
//! The seed's figure and `seed_verdict` stay exact: `Metrics::maxline` and the maxline check in
//! `Report::checks` count every line. Only the product's verdict counts lines with content:
//! when the most repeated line carries none, the check is judged on the most repeated line that
//! does ([`Metrics::content_maxline`]), and a reason says so. A loop made of such lines (a
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
            c.level = super::judge::level_of(c.value, c.warn_at, c.fail_at, c.direction);
        }
    }
    out
}

/// The sentence saying that the seed's maxline counted a line without content, when it did and
/// that line reached the WARN threshold: "maxline 6 counts the line '}', which carries no
/// content: the verdict counts lines with content, the most repeated of which occurs 2 times".
pub fn not_counted(m: &Metrics, t: &Thresholds, most_repeated: Option<&str>) -> Option<String> {
    let n = m.content_maxline?;
    (m.maxline >= t.maxline_warn).then(|| {
        format!(
            "maxline {} counts the line '{}', which carries no content (a closing brace, a fence marker, a rule, \
             punctuation): the verdict counts only lines with content, the most repeated of which occurs {}",
            thousands(m.maxline),
            quote(most_repeated.unwrap_or("")),
            match n {
                0 => "nowhere".to_string(),
                1 => "once".to_string(),
                n => format!("{} times", thousands(n)),
            }
        )
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
        assert_eq!(r.metrics.content_maxline, Some(2));
        assert_eq!(r.verdict, Verdict::Pass, "{:?}", r.reasons);
        assert!(
            r.reasons.iter().any(|s| s.starts_with("maxline 6 counts the line '}', which carries no content")),
            "{:?}",
            r.reasons
        );
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
