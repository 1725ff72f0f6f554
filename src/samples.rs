//! Built-in sample transcripts for the page's sample menu: one coherent text and the
//! classic ways a model degenerates, each built here from the project's own prose, and one
//! streamed capture (SSE) whose reasoning loops behind a clean answer.

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

/// Built-in samples in a wire format rather than plain text, in menu order (after
/// [`samples`]): the page reads them through format detection, as a pasted capture.
pub fn capture_samples() -> Vec<Sample> {
    vec![Sample {
        id: "reasoning-loop-sse",
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
        let r = ingest::analyze_transcript(&t);
        let rows = r.rows(&t);
        let got: Vec<(&str, Verdict)> = rows.iter().map(|row| (row.channel, row.verdict)).collect();
        assert_eq!(got, [("reasoning", Verdict::Fail), ("combined", Verdict::Fail), ("content", Verdict::Pass)]);
    }

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
