//! Built-in sample transcripts for the page's sample menu: one coherent text and the
//! classic ways a model degenerates, each built here from the project's own prose.

/// A named sample text with a one-line description of what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub id: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub text: String,
}

/// Coherent technical prose written for this project (about 4 KB).
pub const PROSE: &str = include_str!("../www/samples/prose.txt");

/// The first `n` paragraphs of [`PROSE`], each followed by a blank line.
fn paragraphs(n: usize) -> String {
    PROSE.split("\n\n").take(n).map(|p| format!("{}\n\n", p.trim())).collect()
}

/// Every built-in sample, in menu order.
pub fn samples() -> Vec<Sample> {
    let word_loop = format!(
        "{}The pages that remain on the inactive list are then {}",
        paragraphs(2),
        "evicted ".repeat(300).trim_end()
    );
    let line_loop = format!(
        "I will check the reclaim counters before answering.\n{}",
        "Let me look at the reclaim counters again.\n".repeat(200)
    );
    let late_loop = format!(
        "{}{}",
        paragraphs(5),
        "The reclaim thread scans the inactive list and evicts the oldest pages first.\n".repeat(60)
    );
    vec![
        Sample {
            id: "prose",
            title: "Coherent technical prose",
            description: "A 4 KB article on page reclaim: should PASS.",
            text: PROSE.to_string(),
        },
        Sample {
            id: "word-loop",
            title: "Word loop",
            description: "Two paragraphs, then one word repeated 300 times.",
            text: word_loop,
        },
        Sample {
            id: "line-loop",
            title: "Line loop",
            description: "One line repeated 200 times, as a stuck agent does.",
            text: line_loop,
        },
        Sample {
            id: "late-loop",
            title: "Loop that starts halfway",
            description: "Five coherent paragraphs, then a sentence looping line by line.",
            text: late_loop,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{analyze, Verdict};

    #[test]
    fn each_sample_gets_the_verdict_its_title_promises() {
        let verdicts: Vec<(&str, Verdict)> = samples().iter().map(|s| (s.id, analyze(&s.text).verdict)).collect();
        assert_eq!(
            verdicts,
            [
                ("prose", Verdict::Pass),
                ("word-loop", Verdict::Fail),
                ("line-loop", Verdict::Fail),
                ("late-loop", Verdict::Fail)
            ]
        );
    }
}
