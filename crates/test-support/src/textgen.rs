//! Deterministic generators of test texts (prose-like, CJK, loops), shared by tests and benches.

/// The core's splitmix64 generator: every run sees the same texts.
pub use coherency_core::splitmix::Rng;

pub const WORDS: &[&str] = &[
    "the",
    "kernel",
    "page",
    "scheduler",
    "memory",
    "of",
    "a",
    "and",
    "to",
    "is",
    "thread",
    "list",
    "when",
    "which",
    "cache",
    "reclaim",
    "disk",
    "latency",
    "process",
    "every",
    "writes",
    "under",
    "load",
    "in",
    "that",
    "it",
    "first",
    "queue",
    "lock",
    "request",
    "because",
    "server",
    "model",
    "token",
    "stream",
    "buffer",
    "its",
    "with",
    "not",
    "allocation",
    "writeback",
    "generation",
    "throttling",
    "counter",
    "refault",
    "interrupt",
    "descriptor",
    "mapping",
    "anonymous",
    "swap",
    "dirty",
    "clean",
    "evicted",
    "scanned",
    "promoted",
    "inactive",
    "active",
    "working",
    "set",
    "container",
    "runtime",
    "score",
    "budget",
    "latency",
    "tail",
    "spike",
    "device",
    "controller",
    "block",
    "layer",
];

pub const CJK: &[&str] = &["模型", "内存", "调度", "页面", "的", "是", "在", "。", "，", "缓存", "线程", "回收"];

/// Prose-like text of at least `len` bytes: sentences of random words, paragraphs.
pub fn prose(rng: &mut Rng, len: usize, vocab: &[&str], sep: &str) -> String {
    let mut s = String::with_capacity(len + 256);
    while s.len() < len {
        let n = 5 + rng.below(15);
        for i in 0..n {
            if i > 0 {
                s.push_str(sep);
            }
            s.push_str(rng.pick(vocab));
        }
        s.push_str(if rng.below(6) == 0 { ".\n\n" } else { ". " });
    }
    s
}

/// About `len` bytes: prose for the first half, then one sentence looping line by line.
pub fn prose_turning_into_loop(rng: &mut Rng, len: usize) -> String {
    prose_then_loop(rng, len, len / 2)
}

/// About `len` bytes: `prose_len` bytes of prose, then one sentence looping line by line to
/// the end (`scripts/bench-cli` loops the last 30 %: `prose_len` = 70 % of `len`).
pub fn prose_then_loop(rng: &mut Rng, len: usize, prose_len: usize) -> String {
    let mut s = prose(rng, prose_len, WORDS, " ");
    let line = "The reclaim thread scans the inactive list again and evicts the oldest pages.\n";
    while s.len() < len {
        s.push_str(line);
    }
    s
}

/// A short poem whose refrain ("And still we sing of home.") is sung twice after each of its
/// five verses: maxline 10 for the seed; the product counts the copies said with no new line
/// since the one before — both after the first verse, the second after each other — 6, so it
/// WARNs under the default thresholds (≥ 5) and passes with `maxline.warn` raised to 7 — the
/// look-alike the thresholds' tests loosen a check for.
pub fn refrain_poem() -> String {
    let verses = [
        "The river runs past the old mill at dawn, slow and brown with the spring rain.",
        "Snow settles on the roofs of the quiet town while the bakers light their ovens.",
        "A fox crosses the frozen field without a sound and vanishes into the birches.",
        "Lanterns swing above the harbour wall tonight as the fishing boats come home.",
        "Children chase their kites along the northern dunes until the light is gone.",
    ];
    verses.iter().map(|v| format!("{v}\nAnd still we sing of home.\nAnd still we sing of home.\n")).collect()
}
