//! Issue 35's cases, as users met them: healthy agent sessions that repeat while the work moves
//! forward PASS, and say why they are no loop; a correct code answer with seven closing braces
//! PASSes while the seed's figure stays what the seed script says.
//!
//! The fixtures are Claude Code session logs (`tests/data/formats/`): `next_file_please.jsonl`
//! (the same edit on five files, one each time the user says "Next file, please.", answered
//! "Done."; it FAILed: the calls' arguments were searched as prose) and
//! `edit_test_progress.jsonl` (edit, run the tests, four times, the failures falling 3 → 2 → 1
//! → 0; it WARNed: "Running the tests again." said each time).

use coherency_core::analyze::{analyze, Metric, Verdict};
use coherency_core::judge::{Author, JudgedDocument};

fn judged(name: &str) -> JudgedDocument {
    let bytes = std::fs::read(coherency_test_support::fixture(&format!("formats/{name}"))).expect("the fixture");
    JudgedDocument::read(&bytes, None)
}

#[test]
fn the_same_edit_on_the_next_file_when_asked_passes_and_says_why() {
    let doc = judged("next_file_please.jsonl");
    assert_eq!(doc.report.verdict, Some(Verdict::Pass));
    let c = &doc.report.conversations[0];
    assert_eq!((c.verdict, c.streams.len(), c.moved_on.len()), (Verdict::Pass, 0, 4));
    assert!(
        c.reasons.iter().any(|r| r
            == "4 turns say again only 'Done.' while the work moved on (the same call on 5 different files (Edit); \
                the user's message before each): progress, not a loop"),
        "{:?}",
        c.reasons
    );
    // Those turns are the model's and no part of a loop; the first "Done." is said once, and stays.
    let msgs = &doc.transcript.messages;
    for &turn in &c.moved_on {
        assert!(msgs.iter().any(|m| (m.conversation, m.turn) == (0, turn) && Author::of(m) == Author::Model));
        assert!(c.loop_turns.iter().all(|l| l.turn != turn), "turn {turn} moved on, no loop");
    }
}

#[test]
fn edit_and_test_with_the_failures_falling_passes() {
    let doc = judged("edit_test_progress.jsonl");
    assert_eq!(doc.report.verdict, Some(Verdict::Pass));
    let c = &doc.report.conversations[0];
    assert_eq!(c.moved_on.len(), 3, "every \"Running the tests again.\" after the first");
    assert!(
        c.reasons.iter().any(|r| r.starts_with(
            "3 turns say again only 'Running the tests again.' while the work moved on (the same call with 4 \
             different results (Bash"
        )),
        "{:?}",
        c.reasons
    );
}

/// The same shape with the work standing still is still a loop: the model alone, "Done." again
/// and again after the same edit of the same file with the same result.
#[test]
fn the_same_formula_without_news_is_still_judged() {
    let bytes = std::fs::read(coherency_test_support::fixture("formats/next_file_please.jsonl")).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    // Every edit on the first file, with the first result: the same call and result five times.
    let mut same = String::new();
    for line in text.lines().filter(|l| !l.contains("Next file, please.")) {
        let line = ["src/lexer.rs", "src/eval.rs", "src/repl.rs", "src/main.rs"]
            .iter()
            .fold(line.to_string(), |l, f| l.replace(f, "src/parser.rs"));
        same.push_str(&line);
        same.push('\n');
    }
    let doc = JudgedDocument::read(same.as_bytes(), None);
    let c = &doc.report.conversations[0];
    assert!(c.moved_on.is_empty(), "nothing moved on: {:?}", c.reasons);
    assert_eq!(doc.report.verdict, Some(Verdict::Fail), "{:?}", c.reasons);
    assert_eq!(c.tool_calls.level(), Verdict::Fail);
}

/// A correct C++ answer (as public evaluation sets hold them) with `}` seven times: the seed's
/// maxline counts 7 and its verdict stays WARN; the product's verdict counts lines with content.
#[test]
fn a_code_answer_with_closing_braces_passes_and_the_seed_figure_stays() {
    let answer = r#"Here is a solution that reads the numbers and prints the longest increasing run.

```cpp
#include <iostream>
#include <vector>

int longest_run(const std::vector<int>& a) {
    if (a.empty()) {
        return 0;
    }
    int best = 1, run = 1;
    for (size_t i = 1; i < a.size(); ++i) {
        if (a[i] > a[i - 1]) {
            run += 1;
        } else {
            run = 1;
        }
        if (run > best) {
            best = run;
        }
    }
    return best;
}

int main() {
    int n;
    std::cin >> n;
    std::vector<int> a(n);
    for (int& x : a) {
        std::cin >> x;
    }
    std::cout << longest_run(a) << "\n";
    return 0;
}
```

The loop keeps the length of the current run and the best one seen, so it runs in linear time.
"#;
    let r = analyze(answer);
    assert_eq!(r.metrics.maxline, 7, "the seed counts `}}` seven times");
    assert_eq!((r.seed_verdict, r.check(Metric::Maxline).level), (Verdict::Warn, Verdict::Warn));
    assert_eq!(r.verdict, Verdict::Pass, "{:?}", r.reasons);
    assert!(r.reasons.iter().any(|s| s.contains("which carries no content")), "{:?}", r.reasons);
}
