//! Built-in sample transcripts for the page's sample menu: one coherent text and the
//! classic ways a model degenerates (and the harder ones: loops with small edits, counting,
//! restarts), each built here from the project's own prose, and one
//! streamed capture (SSE) whose reasoning loops behind a clean answer.

/// A named sample text with a one-line description of what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub id: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The verdict its title promises ("PASS", "WARN" or "FAIL"; `Verdict::as_str`): the
    /// text's own for a plain text, the document's for a capture. Held by the tests.
    pub verdict: &'static str,
    pub text: String,
}

/// Coherent technical prose written for this project (about 4 KB).
pub const PROSE: &str = include_str!("prose.txt");

/// Coherent prose on baking bread, written for this project: the drift sample's tail.
const BREAD: &str = include_str!("bread.txt");

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
    let phrase_loop = format!(
        "{}I will open the config file and compare it with the defaults. {}",
        paragraphs(3),
        "Let me check the file again. ".repeat(40).trim_end()
    );
    let cjk_loop = format!(
        "页面回收线程在空闲内存低于水位线时被唤醒，它从非活动链表的尾部开始扫描，把脏页写回磁盘。\n{}",
        "我需要再检查一下这个文件。".repeat(60)
    );
    // A numbered list whose items run empty: only the number changes.
    let mut counting_list = String::from(
        "To bring reclaim back under control:\n\n1. Lower vm.swappiness to 10.\n2. Raise min_free_kbytes.\n",
    );
    for item in 3..=245 {
        counting_list += &format!("{item}.\n");
    }
    vec![
        Sample {
            id: "prose",
            verdict: "PASS",
            title: "Coherent technical prose",
            description: "A 4 KB article on page reclaim: should PASS.",
            text: PROSE.to_string(),
        },
        Sample {
            id: "word-loop",
            verdict: "FAIL",
            title: "Word loop",
            description: "Two paragraphs, then one word repeated 300 times.",
            text: word_loop,
        },
        Sample {
            id: "line-loop",
            verdict: "FAIL",
            title: "Line loop",
            description: "One line repeated 200 times, as a stuck agent does.",
            text: line_loop,
        },
        Sample {
            id: "late-loop",
            verdict: "FAIL",
            title: "Loop that starts halfway",
            description: "Five coherent paragraphs, then a sentence looping line by line.",
            text: late_loop,
        },
        Sample {
            id: "phrase-loop",
            verdict: "FAIL",
            title: "Phrase loop on one line",
            description:
                "Three paragraphs, then one sentence 40 times on one line: the seed's three heuristics miss it.",
            text: phrase_loop,
        },
        Sample {
            id: "cjk-loop",
            verdict: "FAIL",
            title: "Chinese loop, no spaces",
            description: "A line of Chinese, then one sentence 60 times: no words or lines to count.",
            text: cjk_loop,
        },
        Sample {
            id: "edited-loop",
            verdict: "FAIL",
            title: "Loop with small edits",
            description: "Two lines said again and again, a word respelled or added now and then: \
                          the onset is the first copy, not where the copies become exact.",
            text: edited_loop(),
        },
        Sample {
            id: "counting-list",
            verdict: "FAIL",
            title: "Counting list",
            description: "A numbered list whose items 3 to 245 are empty: only the number changes.",
            text: counting_list,
        },
        Sample {
            id: "restart",
            verdict: "FAIL",
            title: "Restarts",
            description: "A paragraph, then the same paragraph told again six times, each time reworded a little.",
            text: restarts(),
        },
        Sample {
            id: "drift",
            verdict: "WARN",
            title: "Topic drift",
            description: "Three paragraphs on page reclaim, then fluent prose on baking bread that never comes back \
                          to it: drift alone is a WARN.",
            text: format!("{}{BREAD}", paragraphs(4)),
        },
    ]
}

/// A two-line unit looping 40 times; ten of the first 21 copies respell a word or add one,
/// the rest are exact.
fn edited_loop() -> String {
    let mut text = String::from("The reclaim thread wakes when free memory falls below the low watermark.\n");
    for copy in 0..40 {
        let (spelling, tail) = match copy {
            1 | 4 | 6 | 9 | 13 | 17 | 20 => ("travelling", ""),
            3 | 11 | 15 => ("traveling", " again"),
            _ => ("traveling", ""),
        };
        text += &format!(
            "It keeps {spelling} down the inactive list from its tail{tail}.\nEach page it meets is checked, \
             aged and put back.\n"
        );
    }
    text
}

/// The second paragraph of [`PROSE`] told once, then again six times, each telling replacing
/// every sixth word (from a place that moves) with another.
fn restarts() -> String {
    const OTHER: [&str; 5] = ["really", "then", "also", "quite", "still"];
    let first = PROSE.split("\n\n").nth(1).unwrap_or(PROSE).trim();
    let mut text = format!("{first}\n\n");
    for telling in 0..6 {
        let words: Vec<&str> = first
            .split(' ')
            .enumerate()
            .map(|(i, w)| if (i + telling) % 6 == 5 { OTHER[(i + telling) % OTHER.len()] } else { w })
            .collect();
        text += &words.join(" ");
        text += "\n\n";
    }
    text
}

/// Built-in samples in a wire format rather than plain text, in menu order (after
/// [`samples`]): the page reads them through format detection, as a pasted capture.
pub fn capture_samples() -> Vec<Sample> {
    vec![Sample {
        id: "reasoning-loop-sse",
        verdict: "FAIL",
        title: "Stream: loop in the reasoning",
        description: "An OpenAI-style SSE capture whose reasoning loops behind a clean answer.",
        text: reasoning_loop_sse(),
    }]
}

/// A chat-completions SSE capture (DeepSeek dialect: `reasoning_content`): the reasoning
/// repeats one line 30 times, the answer is short and clean, then usage and `[DONE]`.
fn reasoning_loop_sse() -> String {
    let chunk = |delta: serde_json::Value, finish: Option<&str>, usage: Option<serde_json::Value>| {
        let mut c = serde_json::json!({
            "id": "sample-0001",
            "object": "chat.completion.chunk",
            "model": "sample-reasoner",
            "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }],
        });
        if let Some(u) = usage {
            c["usage"] = u;
        }
        format!("data: {c}\n\n")
    };
    let reasoning = |text: &str| chunk(serde_json::json!({ "reasoning_content": text }), None, None);
    let mut out = chunk(serde_json::json!({ "role": "assistant", "reasoning_content": "" }), None, None);
    out += &reasoning("The reclaim counters show 1,024 pages freed in the last scan.\n");
    out += ": keep-alive\n\n";
    for _ in 0..30 {
        out += &reasoning("Wait, let me look at the reclaim counters again.\n");
    }
    for piece in ["The last scan freed", " 1,024 pages;", " reclaim is keeping up with demand."] {
        out += &chunk(serde_json::json!({ "content": piece }), None, None);
    }
    let usage = serde_json::json!({ "prompt_tokens": 40, "completion_tokens": 420, "total_tokens": 460 });
    out += &chunk(serde_json::json!({}), Some("stop"), Some(usage));
    out + "data: [DONE]\n\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{analyze, Verdict};

    #[test]
    fn the_stream_sample_fails_in_its_reasoning_only() {
        use crate::ingest::{self, Format};
        let [sample] = &capture_samples()[..] else { panic!("one capture sample") };
        let t = ingest::read(sample.text.as_bytes());
        assert_eq!(t.format, Format::Sse);
        assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
        let info = t.stream.clone().unwrap_or_default();
        assert!(info.saw_done && info.comments == 1 && info.finish_reason.as_deref() == Some("stop"));
        let r = crate::judge::judge_transcript(&t);
        let rows = r.rows(&t);
        let got: Vec<(&str, Verdict)> = rows.iter().map(|row| (row.channel, row.verdict)).collect();
        assert_eq!(got, [("reasoning", Verdict::Fail), ("combined", Verdict::Fail), ("content", Verdict::Pass)]);
    }

    #[test]
    fn each_sample_gets_the_verdict_its_title_promises() {
        let promised: Vec<(&str, &str)> = samples().iter().map(|s| (s.id, s.verdict)).collect();
        let got: Vec<(&str, &str)> = samples().iter().map(|s| (s.id, analyze(&s.text).verdict.as_str())).collect();
        assert_eq!(got, promised);
    }

    #[test]
    fn the_issue_13_samples_say_what_they_show() {
        let sample = |id: &str| samples().into_iter().find(|s| s.id == id).unwrap().text;
        let edited = sample("edited-loop");
        let r = analyze(&edited);
        let first_copy = edited.find("It keeps").unwrap();
        let unit = edited[first_copy..].find("\nIt keeps").unwrap() + 1;
        assert!(r.onset.unwrap().abs_diff(first_copy) < unit, "onset {:?}, first copy {first_copy}", r.onset);
        assert!(r.reasons[0].contains("small edits"), "{:?}", r.reasons);
        let counting = analyze(&sample("counting-list"));
        assert!(counting.reasons[0].contains("the numbers 3 to 245 follow one another"), "{:?}", counting.reasons);
        let restart = analyze(&sample("restart"));
        assert!(restart.reasons[0].contains("starts over 6 times"), "{:?}", restart.reasons);
        assert_eq!(restart.onset, Some(0));
        // Drift: the onset lies where the bread starts (after the last word on reclaim), and
        // the drift series falls to nothing there.
        let text = sample("drift");
        let drift = analyze(&text);
        assert_eq!(
            (drift.verdict, drift.tripped),
            (Verdict::Warn, Some(crate::analyze::Metric::Drift)),
            "{:?}",
            drift.reasons
        );
        let bread = text.find("Bread dough").unwrap();
        let onset = drift.onset.unwrap();
        assert!(onset <= bread && bread - onset < 700, "onset {onset}, bread from {bread}");
        let figure = drift.metrics.drift.as_ref().expect("judged");
        assert!(figure.windows.iter().filter(|w| w.0 > bread).all(|w| w.1 == 0.0), "{:?}", figure.windows);
    }

    #[test]
    fn the_headline_says_the_breakdown_that_set_the_verdict() {
        use crate::analyze::{onset_phrase, verdict_headline, Metric};
        let sample = |id: &str| samples().into_iter().find(|s| s.id == id).unwrap().text;
        let drift = analyze(&sample("drift"));
        assert_eq!(verdict_headline(drift.verdict, drift.tripped), "Topic drift: the text leaves its topic");
        assert!(onset_phrase(drift.tripped, drift.onset.unwrap()).starts_with("Leaves its topic at byte "));
        // The mixed case: the drifting text ends in a loop. The loop's FAIL sets the verdict and
        // its words; the drift stays a WARN beside it.
        let looped = format!("{}\n{}", sample("drift"), "Let me check the file again. ".repeat(400));
        let r = analyze(&looped);
        assert_eq!((r.verdict, r.tripped), (Verdict::Fail, Some(Metric::Loop)), "{:?}", r.reasons);
        assert_eq!(r.check(Metric::Drift).level, Verdict::Warn, "{:?}", r.reasons);
        assert_eq!(verdict_headline(r.verdict, r.tripped), "Repetition collapse: the text loops");
        assert!(onset_phrase(r.tripped, r.onset.unwrap()).starts_with("Turns degenerate at byte "));
    }

    #[test]
    fn the_one_line_samples_are_loops_found_by_the_loop_check() {
        for id in ["phrase-loop", "cjk-loop"] {
            let s = samples().into_iter().find(|s| s.id == id).unwrap();
            let r = analyze(&s.text);
            if id == "phrase-loop" {
                assert_ne!(r.seed_verdict, Verdict::Fail, "the seed's heuristics should not catch it");
            } else {
                assert_eq!((r.metrics.maxrun, r.metrics.maxline), (1, 1), "no words or lines to count");
            }
            assert_eq!((r.verdict, r.tripped), (Verdict::Fail, Some(crate::analyze::Metric::Loop)), "{id}");
            // The loop may be found from a rotation of its unit: within one unit of its start.
            let (unit, onset) = (
                if id == "cjk-loop" {
                    "我需要再检查一下这个文件。"
                } else {
                    "Let me check the file again. "
                },
                r.onset.unwrap(),
            );
            assert!(onset.abs_diff(s.text.find(unit).unwrap()) < unit.len(), "{id}: {onset}");
        }
    }
}
