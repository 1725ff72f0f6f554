//! Labelled chat transcripts for topic drift measured against the prompt (issue 33, class 4):
//! an OpenAI request body with a user message and the assistant's reply — as a chat, or as an
//! agent turn (a system message, a tool call and its result before the final reply). Replies
//! that leave the prompt's topic at once or gradually, and replies that answer it: on its topic
//! throughout, background first then the answer, two things the prompt names one after the
//! other, sections on sub-topics, a list asked for, code for a question. Seeded and
//! deterministic, at any size from a few kilobytes.

use crate::incoherent::topical_paragraph;
use crate::textgen::Rng;

/// One generated transcript.
#[derive(Clone, Debug)]
pub struct Case {
    pub label: &'static str,
    /// "drift" for a reply that leaves the prompt's topic, [`OFF_PROMPT`] for one never on it,
    /// "" for one that answers it.
    pub class: &'static str,
    /// Whether the reply is an agent's final turn (after a tool call and its result).
    pub agent: bool,
    pub target: usize,
    pub prompt: String,
    pub reply: String,
    /// The transcript: an OpenAI chat request body (JSON).
    pub json: String,
    /// A drift's planted onset, in bytes of the reply.
    pub onset: Option<usize>,
}

/// A kind of reply: its label, class, shortest length, and generator (prompt, reply and onset, about `n` bytes).
pub struct Kind {
    pub label: &'static str,
    pub class: &'static str,
    /// The shortest length it makes sense at.
    pub min_len: usize,
    pub gen: fn(&mut Rng, usize) -> (String, String, Option<usize>),
}

const DRIFT: &str = "drift";
/// A reply on another subject than the prompt's from start to end.
pub const OFF_PROMPT: &str = "off_prompt";

/// Subjects a prompt asks about, each in its words.
const TOPICS: [&[&str]; 6] = [
    &["kernel", "scheduler", "memory", "pages", "threads", "latency", "cache", "interrupt", "reclaim", "allocator"],
    &["butter", "onions", "garlic", "simmer", "saucepan", "pepper", "flour", "oven", "dough", "recipe"],
    &["harbour", "sailors", "lighthouse", "storm", "waves", "anchor", "captain", "voyage", "tide", "island"],
    &["violin", "orchestra", "concert", "melody", "rhythm", "composer", "symphony", "audience", "tempo", "score"],
    &["glacier", "climate", "carbon", "warming", "oceans", "emissions", "forests", "rainfall", "drought", "ozone"],
    &["invoice", "ledger", "payment", "customer", "refund", "balance", "account", "receipt", "auditor", "budget"],
];

/// Every kind.
pub const KINDS: &[Kind] = &[
    Kind { label: "reply_leaves_at_once", class: DRIFT, min_len: 5_000, gen: |r, n| leaves(r, n, false) },
    // From 10 KB, as `incoherent`'s drift: shorter, a third on topic and the mixed paragraphs
    // (about 1.3 KB) leave under 40 % of the reply drifted (measured: 36-39 % at 5 KB).
    Kind { label: "reply_leaves_gradually", class: DRIFT, min_len: 10_000, gen: |r, n| leaves(r, n, true) },
    // Off the prompt's topic from its first word and staying there (a server that mixed up its
    // requests): not drift by this check's rule, which needs the reply to leave its own opening
    // too; shown, not pinned (see `judge::prompt`).
    Kind { label: "reply_off_prompt_throughout", class: OFF_PROMPT, min_len: 5_000, gen: off_prompt },
    Kind { label: "reply_on_topic", class: "", min_len: 5_000, gen: on_topic },
    Kind { label: "reply_background_then_answer", class: "", min_len: 5_000, gen: background_then_answer },
    Kind { label: "reply_compares_two_asked", class: "", min_len: 5_000, gen: compares_two },
    Kind { label: "reply_sections_on_subtopics", class: "", min_len: 5_000, gen: sections },
    Kind { label: "reply_list_asked_for", class: "", min_len: 5_000, gen: list_asked_for },
    Kind { label: "reply_code_for_question", class: "", min_len: 5_000, gen: code_for_question },
];

/// Two different topics, in random order.
fn two(rng: &mut Rng) -> (&'static [&'static str], &'static [&'static str]) {
    let a = rng.below(TOPICS.len());
    let b = (a + 1 + rng.below(TOPICS.len() - 1)) % TOPICS.len();
    (TOPICS[a], TOPICS[b])
}

/// A question about `topic`, naming three of its words.
fn ask(rng: &mut Rng, topic: &[&str]) -> String {
    const FORMS: &[&str] = &[
        "Can you explain how the {} and the {} relate to the {}?",
        "I need a detailed explanation: what does the {} do with the {}, and why does the {} matter?",
        "Write an essay about the {}, the {} and the {}.",
        "Please describe the {} in depth, with the {} and the {} in mind.",
    ];
    let mut q = rng.pick(FORMS).to_string();
    for _ in 0..3 {
        q = q.replacen("{}", rng.pick(topic), 1);
    }
    q
}

/// Paragraphs about `topic` until `s` is `n` bytes long.
fn fill(rng: &mut Rng, s: &mut String, topic: &[&str], n: usize) {
    while s.len() < n {
        let len = 300 + rng.below(300);
        s.push_str(&topical_paragraph(rng, topic, len));
    }
}

/// A reply that answers for a third, then leaves the prompt's topic for another (at once, or
/// through paragraphs mixing both) and never comes back.
fn leaves(rng: &mut Rng, n: usize, gradual: bool) -> (String, String, Option<usize>) {
    let (asked, other) = two(rng);
    let prompt = ask(rng, asked);
    let mut s = String::new();
    fill(rng, &mut s, asked, n / 3);
    if gradual {
        for _ in 0..3 {
            let mixed: Vec<&str> = asked.iter().take(3).chain(other.iter()).copied().collect();
            let len = 300 + rng.below(200);
            s.push_str(&topical_paragraph(rng, &mixed, len));
        }
    }
    let onset = s.len();
    fill(rng, &mut s, other, n);
    (prompt, s, Some(onset))
}

fn off_prompt(rng: &mut Rng, n: usize) -> (String, String, Option<usize>) {
    let (asked, other) = two(rng);
    let prompt = ask(rng, asked);
    let mut s = String::new();
    fill(rng, &mut s, other, n);
    (prompt, s, None)
}

fn on_topic(rng: &mut Rng, n: usize) -> (String, String, Option<usize>) {
    let (asked, _) = two(rng);
    let prompt = ask(rng, asked);
    let mut s = String::new();
    fill(rng, &mut s, asked, n);
    (prompt, s, None)
}

/// Background on another subject for a third (the opening), then the answer to the end: the
/// opening's words never come back, the prompt's do.
fn background_then_answer(rng: &mut Rng, n: usize) -> (String, String, Option<usize>) {
    let (asked, background) = two(rng);
    let prompt = ask(rng, asked);
    let mut s = String::new();
    fill(rng, &mut s, background, n / 3);
    fill(rng, &mut s, asked, n);
    (prompt, s, None)
}

/// "Compare A and B": A for the first half, B for the second.
fn compares_two(rng: &mut Rng, n: usize) -> (String, String, Option<usize>) {
    let (a, b) = two(rng);
    let prompt = format!(
        "Compare the {} and the {} with the {} and the {}: first one, then the other.",
        rng.pick(a),
        rng.pick(a),
        rng.pick(b),
        rng.pick(b)
    );
    let mut s = String::new();
    fill(rng, &mut s, a, n / 2);
    fill(rng, &mut s, b, n);
    (prompt, s, None)
}

/// Sections under headings, each on a sub-topic of its own.
fn sections(rng: &mut Rng, n: usize) -> (String, String, Option<usize>) {
    let (asked, _) = two(rng);
    let prompt = ask(rng, asked);
    let mut s = String::from("Here is an answer in several parts.\n\n");
    let mut k = 0;
    while s.len() < n {
        let topic = TOPICS[(k + rng.below(2)) % TOPICS.len()];
        s.push_str(&format!("## {}. The {}\n\n", k + 1, topic[0]));
        let len = 400 + rng.below(400);
        s.push_str(&topical_paragraph(rng, topic, len));
        k += 1;
    }
    (prompt, s, None)
}

/// A list of unrelated items, as asked.
fn list_asked_for(rng: &mut Rng, n: usize) -> (String, String, Option<usize>) {
    let prompt = "Give me a long list of unrelated facts, one per line, on any subjects you like.".to_string();
    let mut s = String::from("Here are the facts you asked for:\n\n");
    while s.len() < n {
        let topic = TOPICS[rng.below(TOPICS.len())];
        let len = 150 + rng.below(200);
        s.push_str(&format!("- {}", topical_paragraph(rng, topic, len)));
    }
    (prompt, s, None)
}

/// An explanation with code blocks between its paragraphs.
fn code_for_question(rng: &mut Rng, n: usize) -> (String, String, Option<usize>) {
    let (asked, _) = two(rng);
    let prompt = format!("{} Show me the code.", ask(rng, asked));
    let mut s = String::new();
    let mut k = 0;
    while s.len() < n {
        let len = 300 + rng.below(300);
        s.push_str(&topical_paragraph(rng, asked, len));
        let (a, b) = (rng.pick(asked), rng.pick(asked));
        let block = match rng.below(3) {
            0 => format!(
                "```rust\nfn update_{a}_{k}({a}: &mut {}, {b}: u32) -> Result<u32, Error> {{\n    {a}.check({b} * {})?;\n    Ok({b} + {})\n}}\n```\n\n",
                a.to_uppercase(),
                rng.below(1000),
                rng.below(100)
            ),
            1 => format!(
                "```python\ndef {a}_{b}_{k}(items):\n    total = sum(x.{b} for x in items if x.{a} > {})\n    return total / max(len(items), {})\n```\n\n",
                rng.below(50),
                1 + rng.below(9)
            ),
            _ => format!("```sh\n$ {a}ctl --{b} {} --limit {}\n{a}: {} {b} entries checked\n```\n\n", rng.below(64), rng.below(4096), rng.below(900)),
        };
        s.push_str(&block);
        k += 1;
    }
    (prompt, s, None)
}

/// A reply of `kind`, about `n` bytes, from `seed`, in a transcript (an agent's when `agent`).
pub fn generate(kind: &Kind, n: usize, seed: u64, agent: bool) -> Case {
    let mut rng = Rng::new(seed);
    let (prompt, mut reply, onset) = (kind.gen)(&mut rng, n);
    let mut cut = n.min(reply.len());
    while !reply.is_char_boundary(cut) {
        cut -= 1;
    }
    reply.truncate(cut);
    let user = serde_json::json!({"role": "user", "content": prompt});
    let answer = serde_json::json!({"role": "assistant", "content": reply});
    let messages = if agent {
        vec![
            serde_json::json!({"role": "system", "content": "You are a helpful assistant with a search tool."}),
            user,
            serde_json::json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
                "function": {"name": "search", "arguments": "{\"query\":\"background\"}"}}]}),
            serde_json::json!({"role": "tool", "tool_call_id": "call_1", "content": "No results."}),
            answer,
        ]
    } else {
        vec![user, answer]
    };
    let json = serde_json::to_string_pretty(&serde_json::json!({"model": "m", "messages": messages}))
        .expect("JSON of strings");
    Case { label: kind.label, class: kind.class, agent, target: n, prompt, reply, json, onset }
}

/// Every kind at every length, as a chat and as an agent's turn, `rng_seeds` RNG seeds each.
pub fn corpus(lengths: &[usize], rng_seeds: u64) -> Vec<Case> {
    let mut out = Vec::new();
    for (k, kind) in KINDS.iter().enumerate() {
        for &n in lengths.iter().filter(|&&n| n >= kind.min_len) {
            for s in 0..rng_seeds {
                for agent in [false, true] {
                    out.push(generate(kind, n, (k as u64 + 701) << 32 ^ (n as u64) << 4 ^ s, agent));
                }
            }
        }
    }
    out
}
