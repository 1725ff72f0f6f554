//! A generated JSONL request/response log of any size, shared by the ingest bench, the page
//! bench and the big-file end-to-end test: thousands of conversations (system, user and
//! history messages, replies with reasoning and content), one in ten replies looping.
//! Deterministic: the same size gives the same bytes.

use crate::textgen::{prose, prose_turning_into_loop, Rng, WORDS};
use serde_json::json;

/// A log of about `target` bytes: one conversation per line, histories growing within a
/// session the way a chat client resends them.
pub fn generate_log(target: usize) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(7);
    let mut out = Vec::with_capacity(target + 100_000);
    let (mut records, mut history): (usize, Vec<serde_json::Value>) = (0, Vec::new());
    while out.len() < target {
        if history.is_empty() || rng.below(4) == 0 {
            history = vec![json!({"role": "system", "content": prose(&mut rng, 300, WORDS, " ")})];
        }
        let (user_len, reasoning_len, content_len) =
            (200 + rng.below(800), 1000 + rng.below(3000), 500 + rng.below(2000));
        history.push(json!({"role": "user", "content": prose(&mut rng, user_len, WORDS, " ")}));
        let looping = rng.below(10) == 0;
        let reasoning =
            if looping { prose_turning_into_loop(&mut rng, 3000) } else { prose(&mut rng, reasoning_len, WORDS, " ") };
        let content = prose(&mut rng, content_len, WORDS, " ");
        let record = json!({
            "ts": format!("2026-12-02T10:{:02}:{:02}Z", records / 60 % 60, records % 60),
            "request": {"model": "m", "messages": history},
            "response": {"id": format!("chatcmpl-{records}"), "object": "chat.completion", "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": content, "reasoning_content": reasoning},
                "finish_reason": "stop"
            }], "usage": {"prompt_tokens": 100, "completion_tokens": 200, "total_tokens": 300}}
        });
        out.extend_from_slice(serde_json::to_string(&record).unwrap_or_default().as_bytes());
        out.push(b'\n');
        history.push(json!({"role": "assistant", "content": content}));
        records += 1;
    }
    (out, records)
}

/// A log of about `target` bytes of small request/response records, each its own conversation
/// (a question of a few words, a reply of a few words: about 180 bytes a record), the shape of an
/// evaluation sweep's or a fleet's logs (issue 37: 53 MB is about 300,000 records). Nothing in
/// it is wrong: every reply is short prose. Returns the bytes and the number of records.
pub fn small_records_log(target: usize) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(37);
    let mut out = Vec::with_capacity(target + 1_000);
    let mut records = 0;
    while out.len() < target {
        let (question_words, reply_words) = (1 + rng.below(4), 2 + rng.below(5));
        // Numbered: records that repeat a question would be read as one conversation.
        let question = format!("{records}: {}", words(&mut rng, question_words, "?"));
        let reply = words(&mut rng, reply_words, ".");
        let record = json!({
            "request": {"messages": [{"role": "user", "content": question}]},
            "response": {"choices": [{"message": {"role": "assistant", "content": reply}}]}
        });
        out.extend_from_slice(serde_json::to_string(&record).unwrap_or_default().as_bytes());
        out.push(b'\n');
        records += 1;
    }
    (out, records)
}

/// `count` distinct random words and `end` (no word said twice: a reply of a few words that
/// says one twice in a row reads as a loop).
fn words(rng: &mut Rng, count: usize, end: &str) -> String {
    let mut picked: Vec<&str> = Vec::with_capacity(count);
    while picked.len() < count {
        let word = rng.pick(WORDS);
        if !picked.contains(&word) {
            picked.push(word);
        }
    }
    let mut s = picked.join(" ");
    s.push_str(end);
    s
}
