//! Deterministic text for the mock model: long, varied technical prose from a seeded grammar
//! (a treatise on kernel internals, section by section), and the loops a collapsing model falls
//! into. The prose is built sentence by sentence from templates and a few hundred words, never
//! repeats a sentence, and passes the analyzer at any length (tested below).

use crate::rng::Rng;
use std::collections::HashSet;

/// One subject area: a heading and the nouns its sentences talk about.
struct Topic {
    title: &'static str,
    nouns: &'static [&'static str],
}

const TOPICS: &[Topic] = &[
    Topic {
        title: "The scheduler and its run queues",
        nouns: &[
            "run queue",
            "time slice",
            "task",
            "priority band",
            "context switch",
            "load balancer",
            "wakeup path",
            "preemption point",
            "virtual runtime",
            "idle loop",
            "migration thread",
            "nice value",
            "scheduling class",
            "red-black tree",
            "deadline task",
        ],
    },
    Topic {
        title: "Virtual memory and page tables",
        nouns: &[
            "page table",
            "page fault",
            "translation cache",
            "huge page",
            "mapping",
            "address space",
            "page frame",
            "shadow entry",
            "dirty bit",
            "copy-on-write fault",
            "memory region",
            "page walk",
            "protection key",
            "zero page",
            "kernel mapping",
        ],
    },
    Topic {
        title: "Page reclaim under pressure",
        nouns: &[
            "inactive list",
            "active list",
            "reclaim thread",
            "watermark",
            "swap slot",
            "anonymous page",
            "file page",
            "refault distance",
            "shrinker",
            "memory cgroup",
            "writeback batch",
            "eviction order",
            "allocation stall",
            "working set",
            "compaction pass",
        ],
    },
    Topic {
        title: "Locking and concurrency",
        nouns: &[
            "spinlock",
            "mutex",
            "read-copy-update section",
            "lock holder",
            "wait queue",
            "sequence counter",
            "atomic counter",
            "memory barrier",
            "critical section",
            "grace period",
            "lock order",
            "ticket lock",
            "reader",
            "writer",
            "contended cache line",
        ],
    },
    Topic {
        title: "Interrupts and deferred work",
        nouns: &[
            "interrupt handler",
            "softirq",
            "work item",
            "tasklet",
            "interrupt vector",
            "timer wheel",
            "bottom half",
            "threaded handler",
            "interrupt controller",
            "completion",
            "budget",
            "polling loop",
            "device queue",
            "affinity mask",
            "jiffy",
        ],
    },
    Topic {
        title: "The block layer and storage",
        nouns: &[
            "request queue",
            "bio",
            "I/O scheduler",
            "hardware queue",
            "merge window",
            "plug list",
            "sector",
            "flush request",
            "write cache",
            "queue depth",
            "completion ring",
            "partition",
            "tag set",
            "elevator",
            "device mapper target",
        ],
    },
    Topic {
        title: "Filesystems and the page cache",
        nouns: &[
            "inode",
            "dentry",
            "superblock",
            "page cache",
            "journal",
            "extent",
            "directory entry",
            "readahead window",
            "dirty inode",
            "mount point",
            "file descriptor",
            "log commit",
            "metadata block",
            "allocation group",
            "fsync call",
        ],
    },
    Topic {
        title: "The network stack",
        nouns: &[
            "socket buffer",
            "receive queue",
            "congestion window",
            "packet",
            "transmit ring",
            "checksum",
            "routing table",
            "netfilter hook",
            "listen backlog",
            "retransmit timer",
            "segment",
            "flow hash",
            "driver ring",
            "acknowledgement",
            "receive side steering table",
        ],
    },
    Topic {
        title: "System calls and the user boundary",
        nouns: &[
            "system call",
            "user pointer",
            "argument check",
            "return path",
            "signal frame",
            "vDSO page",
            "syscall table",
            "seccomp filter",
            "errno value",
            "copy routine",
            "entry trampoline",
            "audit record",
            "capability check",
            "file table",
            "credential",
        ],
    },
    Topic {
        title: "Tracing, accounting and debugging",
        nouns: &[
            "tracepoint",
            "ring buffer",
            "perf counter",
            "stack trace",
            "probe",
            "event filter",
            "histogram",
            "lockdep report",
            "watchdog",
            "oops message",
            "sample period",
            "symbol table",
            "latency record",
            "debug counter",
            "flame graph",
        ],
    },
];

const GENERAL_NOUNS: &[&str] = &[
    "kernel",
    "CPU",
    "cache line",
    "thread",
    "process",
    "buffer",
    "counter",
    "queue",
    "callback",
    "policy",
    "fast path",
    "slow path",
    "workload",
    "machine",
    "core",
    "socket",
    "allocator",
    "driver",
    "subsystem",
    "table",
    "list",
    "limit",
    "request",
    "timeout",
    "heuristic",
    "invariant",
    "field",
    "structure",
];

const ADJECTIVES: &[&str] = &[
    "busy",
    "idle",
    "per-CPU",
    "global",
    "local",
    "stale",
    "pending",
    "shared",
    "private",
    "hot",
    "cold",
    "contended",
    "lockless",
    "bounded",
    "lazy",
    "eager",
    "nested",
    "deferred",
    "pinned",
    "remote",
    "dirty",
    "clean",
    "oldest",
    "newest",
    "current",
    "previous",
    "next",
    "sparse",
    "dense",
    "small",
    "large",
    "short",
    "long-running",
    "interactive",
    "batched",
    "sleeping",
    "runnable",
    "critical",
    "optional",
    "expensive",
    "cheap",
    "rare",
    "frequent",
    "fragmented",
    "aligned",
    "preemptible",
    "reclaimable",
    "unmapped",
];

/// Verbs as (third person singular, base form).
const VERBS: &[(&str, &str)] = &[
    ("updates", "update"),
    ("scans", "scan"),
    ("evicts", "evict"),
    ("locks", "lock"),
    ("wakes", "wake"),
    ("checks", "check"),
    ("flushes", "flush"),
    ("marks", "mark"),
    ("moves", "move"),
    ("splits", "split"),
    ("merges", "merge"),
    ("drains", "drain"),
    ("refills", "refill"),
    ("tracks", "track"),
    ("records", "record"),
    ("protects", "protect"),
    ("releases", "release"),
    ("claims", "claim"),
    ("defers", "defer"),
    ("batches", "batch"),
    ("throttles", "throttle"),
    ("rebalances", "rebalance"),
    ("invalidates", "invalidate"),
    ("copies", "copy"),
    ("maps", "map"),
    ("walks", "walk"),
    ("sorts", "sort"),
    ("pins", "pin"),
    ("reads", "read"),
    ("writes", "write"),
    ("resets", "reset"),
    ("delays", "delay"),
    ("signals", "signal"),
    ("estimates", "estimate"),
    ("bounds", "bound"),
    ("hides", "hide"),
    ("exposes", "expose"),
    ("replaces", "replace"),
    ("allocates", "allocate"),
    ("frees", "free"),
    ("charges", "charge"),
    ("retries", "retry"),
    ("skips", "skip"),
    ("compares", "compare"),
    ("publishes", "publish"),
];

const INTRANSITIVE: &[&str] = &[
    "stalls",
    "wakes up",
    "falls behind",
    "runs out",
    "overflows",
    "drains",
    "retries",
    "spins",
    "sleeps",
    "migrates",
    "expires",
    "completes",
    "backs off",
    "blocks",
    "catches up",
    "fills up",
    "goes idle",
];

const PREPOSITIONS: &[&str] = &[
    "under", "behind", "inside", "across", "before", "after", "around", "beside", "through", "without", "against",
    "beyond",
];

const OPENERS: &[&str] = &[
    "In practice,",
    "On a busy machine,",
    "Under memory pressure,",
    "At boot,",
    "On the fast path,",
    "In the common case,",
    "Historically,",
    "On large systems,",
    "For this reason,",
    "In contrast,",
    "Most of the time,",
    "During a burst of traffic,",
    "On a single core,",
    "Once the system settles,",
    "As a rule,",
    "Perhaps surprisingly,",
    "In older kernels,",
    "With tracing enabled,",
];

const MODALS: &[&str] = &["must", "may", "should", "can", "will", "cannot", "must not", "might"];

const UNITS: &[&str] = &[
    "microseconds",
    "milliseconds",
    "nanoseconds",
    "pages",
    "bytes",
    "kilobytes",
    "entries",
    "cycles",
    "percent",
    "threads",
    "requests",
    "cache lines",
    "slots",
    "ticks",
];

/// Sentence templates. Slots: `{D}` determiner, `{N}` noun, `{A}` adjective, `{V}` verb
/// (third person), `{B}` verb (base form), `{I}` intransitive verb, `{P}` preposition,
/// `{O}` opener, `{M}` modal, `{Q}` a number with a unit.
const TEMPLATES: &[&str] = &[
    "{D} {A} {N} {V} {D} {N} {P} {D} {N}.",
    "When {D} {N} {I}, {D} {N} {V} {D} {A} {N}.",
    "{O} {D} {N} {V} {D} {N} and {V} {D} {A} {N}.",
    "Because {D} {N} {V} {D} {N}, {D} {A} {N} {M} {B} {D} {N} within {Q}.",
    "This is why {D} {N} {M} {B} {D} {A} {N} {P} {D} {N}.",
    "A {A} {N} costs about {Q}, which {V} {D} {N} {P} {D} {A} {N}.",
    "On a machine with {Q}, {D} {N} {V} {D} {N} roughly once per {N}.",
    "{D} {N} is {A} only while {D} {N} {I}; otherwise it {V} {D} {N}.",
    "If {D} {A} {N} {I}, {D} {N} {V} {D} {N} instead of waiting for {D} {N}.",
    "{O} nobody {V} {D} {N} directly: {D} {A} {N} {V} it {P} {D} {N}.",
    "{D} {N} keeps a {A} {N} so that {D} {N} {M} {B} {D} {N} cheaply.",
    "Measurements show {D} {N} spending {Q} {P} {D} {A} {N}.",
    "{O} {D} {A} {N} {I} after {Q}, and {D} {N} {V} {D} {N}.",
    "To avoid a {A} {N}, {D} {N} {V} {D} {N} before {D} {N} {I}.",
    "{D} {N} and {D} {A} {N} share {D} {N}, so {D} {N} {M} {B} both.",
    "The cost of {D} {A} {N} grows with {D} {N}, not with {D} {N}.",
    "{O} the {N} {V} at most {Q} before {D} {N} {I}.",
    "Nothing {P} {D} {N} {V} {D} {A} {N} unless {D} {N} {I}.",
    "{D} {N} {V} {D} {N}; {D} {A} {N} then {V} {D} {N}.",
    "Whether {D} {N} {V} {D} {N} depends on {D} {A} {N} and on {Q}.",
    "A {N} that {I} {M} {B} {D} {N}, or {D} {A} {N} {I} too.",
    "{O} {D} {N} rarely {V} {D} {N}, yet {D} {A} {N} still {I}.",
    "Tuning {D} {N} to {Q} {V} {D} {N} but {V} {D} {A} {N}.",
    "{D} {A} {N} exists because {D} {N} once {V} {D} {N} {P} {D} {N}.",
];

const DETERMINERS: &[&str] = &["the", "the", "the", "each", "every", "this", "that", "one"];

/// Coherent prose of exactly `words` whitespace-separated words (ending mid-sentence when the
/// budget says so), the same for the same `seed`.
pub fn coherent(seed: u64, words: usize) -> String {
    prose(Prose::new(seed, true), words)
}

/// Like [`coherent`] but paragraphs only, no headings: how reasoning reads.
pub fn thinking(seed: u64, words: usize) -> String {
    prose(Prose::new(seed, false), words)
}

fn prose(mut g: Prose, words: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    while count < words {
        let piece = g.next_piece();
        count += piece.split_whitespace().count();
        out.push_str(&piece);
    }
    take_words(&out, words).to_string()
}

/// The first `n` words of `text` with the whitespace between them (none after the last).
pub fn take_words(text: &str, n: usize) -> &str {
    if n == 0 {
        return "";
    }
    let mut seen = 0;
    let mut in_word = false;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if in_word {
                seen += 1;
                if seen == n {
                    return &text[..i];
                }
            }
            in_word = false;
        } else {
            in_word = true;
        }
    }
    text
}

/// `words` words of a word loop: a coherent lead-in, then one word over and over.
pub fn word_loop(seed: u64, words: usize) -> String {
    let lead = coherent(seed, words.min(80));
    let text = format!("{lead} and then the reclaim thread evicts {}", "evicted ".repeat(words));
    take_words(&text, words).to_string()
}

/// A line a model gets stuck on; `n` words of: one short line, then that line repeated.
pub fn line_loop(words: usize) -> String {
    line_loop_of("Let me check the reclaim counters again before answering.", words)
}

/// `line` repeated, one per line, cut at `words` words.
pub fn line_loop_of(line: &str, words: usize) -> String {
    let per = line.split_whitespace().count().max(1);
    let text = format!("{line}\n").repeat(words / per + 1);
    take_words(&text, words).to_string()
}

/// Coherent prose for the first half of `words`, then a line loop.
pub fn late_loop(seed: u64, words: usize) -> String {
    let half = words / 2;
    let lead = coherent(seed, half);
    let tail =
        line_loop_of("The reclaim thread scans the inactive list and evicts the oldest pages first.", words - half);
    format!("{lead}\n\n{tail}")
}

/// The prose grammar's state: where the treatise is and what it has already said.
struct Prose {
    rng: Rng,
    section: usize,
    paragraphs_left: usize,
    headings: bool,
    said: HashSet<String>,
}

impl Prose {
    fn new(seed: u64, headings: bool) -> Self {
        let rng = Rng::new(seed ^ 0x5eed_c0de);
        Prose { rng, section: 0, paragraphs_left: 0, headings, said: HashSet::new() }
    }

    /// The next heading (with its paragraph) or paragraph, ending in a blank line.
    fn next_piece(&mut self) -> String {
        let mut out = String::new();
        if self.paragraphs_left == 0 {
            if self.section == 0 && self.headings {
                out.push_str("# Notes on operating-system kernel internals\n\n");
            }
            self.section += 1;
            self.paragraphs_left = self.rng.between(3, 5);
            let topic = &TOPICS[(self.section - 1) % TOPICS.len()];
            let part = (self.section - 1) / TOPICS.len();
            let title = if part == 0 { topic.title.to_string() } else { format!("{}, part {}", topic.title, part + 1) };
            if self.headings {
                out.push_str(&format!("## {}. {title}\n\n", self.section));
            }
        }
        self.paragraphs_left -= 1;
        let n = self.rng.between(4, 7);
        let sentences: Vec<String> = (0..n).map(|_| self.fresh_sentence()).collect();
        out.push_str(&sentences.join(" "));
        out.push_str("\n\n");
        out
    }

    /// A sentence not said before and without a word doubled.
    fn fresh_sentence(&mut self) -> String {
        loop {
            let s = self.sentence();
            let words: Vec<&str> = s.split_whitespace().collect();
            let doubled = words.windows(2).any(|w| w[0].eq_ignore_ascii_case(w[1]));
            if !doubled && self.said.insert(s.clone()) {
                return s;
            }
        }
    }

    fn sentence(&mut self) -> String {
        let topic = &TOPICS[(self.section.max(1) - 1) % TOPICS.len()];
        let template = self.rng.pick(TEMPLATES);
        let mut out = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let slot = &rest[open + 1..open + 2];
            rest = &rest[open + 3..];
            let word = match slot {
                "D" => self.rng.pick(DETERMINERS).to_string(),
                "N" if self.rng.chance(70) => self.rng.pick(topic.nouns).to_string(),
                "N" => self.rng.pick(GENERAL_NOUNS).to_string(),
                "A" => self.rng.pick(ADJECTIVES).to_string(),
                "V" => VERBS[self.rng.below(VERBS.len())].0.to_string(),
                "B" => VERBS[self.rng.below(VERBS.len())].1.to_string(),
                "I" => self.rng.pick(INTRANSITIVE).to_string(),
                "P" => self.rng.pick(PREPOSITIONS).to_string(),
                "O" => self.rng.pick(OPENERS).to_string(),
                "M" => self.rng.pick(MODALS).to_string(),
                _ => self.quantity(),
            };
            out.push_str(&word);
        }
        out.push_str(rest);
        // "A" before a vowel sound reads wrong; "an" fixes the common cases.
        let out = fix_articles(&out);
        capitalise(&out)
    }

    fn quantity(&mut self) -> String {
        let n = match self.rng.below(4) {
            0 => 1usize << self.rng.between(2, 16),
            1 => self.rng.between(2, 99),
            2 => self.rng.between(100, 9_999),
            _ => self.rng.between(1, 20) * 25,
        };
        format!("{n} {}", self.rng.pick(UNITS))
    }
}

fn fix_articles(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let words: Vec<&str> = s.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let next_vowel = words.get(i + 1).and_then(|n| n.chars().next()).is_some_and(|c| "aeiouAEIO".contains(c));
        match *w {
            "A" if next_vowel => out.push_str("An"),
            "a" if next_vowel => out.push_str("an"),
            _ => out.push_str(w),
        }
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::{analyze, Verdict};

    #[test]
    fn coherent_prose_passes_at_every_length() {
        for words in [30, 200, 1_000, 3_000, 6_000, 12_000] {
            for seed in [0, 1, 42] {
                for text in [coherent(seed, words), thinking(seed, words)] {
                    assert_eq!(text.split_whitespace().count(), words);
                    let r = analyze(&text);
                    assert_eq!(r.verdict, Verdict::Pass, "{words} words, seed {seed}: {:?}", r.metrics);
                }
            }
        }
    }

    #[test]
    fn coherent_prose_is_not_a_repeated_block() {
        let text = coherent(7, 6_000);
        let paragraphs: Vec<&str> = text.split("\n\n").filter(|p| !p.is_empty()).collect();
        let distinct: HashSet<&str> = paragraphs.iter().copied().collect();
        assert_eq!(distinct.len(), paragraphs.len());
        let sentences: Vec<&str> = text.split(". ").collect();
        let distinct: HashSet<&str> = sentences.iter().copied().collect();
        assert!(distinct.len() * 100 >= sentences.len() * 99, "{} of {}", distinct.len(), sentences.len());
        assert_eq!(coherent(7, 6_000), text, "the same seed gives the same text");
        assert_ne!(coherent(8, 6_000), text);
    }

    #[test]
    fn loops_fail() {
        for text in [word_loop(0, 2_000), line_loop(2_000), late_loop(0, 4_000)] {
            assert_eq!(analyze(&text).verdict, Verdict::Fail);
        }
        assert_eq!(late_loop(0, 4_000).split_whitespace().count(), 4_000);
        assert_eq!(word_loop(0, 2_000).split_whitespace().count(), 2_000);
        assert_eq!(line_loop(2_000).split_whitespace().count(), 2_000);
    }

    #[test]
    fn take_words_keeps_inner_whitespace() {
        assert_eq!(take_words("a  b\nc d", 3), "a  b\nc");
        assert_eq!(take_words("a b", 5), "a b");
        assert_eq!(take_words("a b", 0), "");
    }
}
