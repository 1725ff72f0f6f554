//! Labelled test texts for issue 5: every kind of loop to catch and every kind of legit
//! repetition to let pass, seeded and deterministic, at any length from 60 B to megabytes.
//!
//! Each text carries its label, whether it is degenerate, and for a loop the expected onset
//! (byte where the first copy of the looping unit starts) and the unit when it is exact.

use crate::textgen::{prose, Rng, WORDS};

/// One generated text.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub label: &'static str,
    pub degenerate: bool,
    /// The length asked for; `text` is at most this long (cut on a character boundary).
    pub target: usize,
    pub text: String,
    /// Loops only: the byte where the first copy of the unit starts.
    pub onset: Option<usize>,
    /// Loops only, when copies are exact: the looping unit.
    pub unit: Option<String>,
}

/// What a generator gives: the text, the onset, the unit.
pub type Gen = (String, Option<usize>, Option<String>);

/// A kind of text: label, degenerate or not, the lengths it makes sense at, its generator.
pub struct Kind {
    pub label: &'static str,
    pub degenerate: bool,
    pub min_len: usize,
    pub max_len: usize,
    pub gen: fn(&mut Rng, usize) -> Gen,
}

const BIG: usize = usize::MAX;

/// Every kind, loops first.
pub const KINDS: &[Kind] = &[
    Kind { label: "phrase_loop", degenerate: true, min_len: 100, max_len: BIG, gen: phrase_loop },
    Kind { label: "nospace_No", degenerate: true, min_len: 60, max_len: BIG, gen: |r, n| nospace(r, n, "No") },
    Kind { label: "nospace_la", degenerate: true, min_len: 60, max_len: BIG, gen: |r, n| nospace(r, n, "la") },
    Kind { label: "cjk_char", degenerate: true, min_len: 60, max_len: BIG, gen: |r, n| nospace(r, n, "好") },
    Kind { label: "emoji", degenerate: true, min_len: 60, max_len: BIG, gen: |r, n| nospace(r, n, "😂") },
    Kind { label: "dashes", degenerate: true, min_len: 60, max_len: BIG, gen: |r, n| nospace(r, n, "-") },
    Kind { label: "cjk_phrase_loop", degenerate: true, min_len: 100, max_len: BIG, gen: cjk_phrase_loop },
    Kind { label: "near_dup_paragraph", degenerate: true, min_len: 1000, max_len: BIG, gen: near_dup_paragraph },
    Kind { label: "list_item_loop", degenerate: true, min_len: 300, max_len: BIG, gen: list_item_loop },
    Kind { label: "code_include_loop", degenerate: true, min_len: 300, max_len: BIG, gen: code_include_loop },
    Kind { label: "table_row_loop", degenerate: true, min_len: 300, max_len: BIG, gen: table_row_loop },
    Kind { label: "json_key_loop", degenerate: true, min_len: 300, max_len: BIG, gen: json_key_loop },
    Kind { label: "big_block_repeat", degenerate: true, min_len: 90_000, max_len: BIG, gen: big_block_repeat },
    Kind { label: "prose_then_loop", degenerate: true, min_len: 1000, max_len: BIG, gen: prose_then_loop },
    Kind { label: "cjk_then_loop", degenerate: true, min_len: 1000, max_len: BIG, gen: cjk_then_loop },
    Kind { label: "short_loop", degenerate: true, min_len: 60, max_len: 300, gen: short_loop },
    Kind { label: "poem_refrain", degenerate: false, min_len: 300, max_len: BIG, gen: poem_refrain },
    Kind { label: "prayer_litany", degenerate: false, min_len: 300, max_len: BIG, gen: prayer_litany },
    Kind { label: "numbered_list", degenerate: false, min_len: 100, max_len: BIG, gen: numbered_list },
    Kind { label: "table", degenerate: false, min_len: 100, max_len: BIG, gen: table },
    Kind { label: "log", degenerate: false, min_len: 100, max_len: BIG, gen: log },
    Kind { label: "code_similar", degenerate: false, min_len: 100, max_len: BIG, gen: code_similar },
    Kind { label: "quoted_once", degenerate: false, min_len: 1000, max_len: BIG, gen: quoted_once },
    Kind {
        label: "prose_latin",
        degenerate: false,
        min_len: 60,
        max_len: BIG,
        gen: |r, n| (prose(r, n, WORDS, " "), None, None),
    },
    Kind {
        label: "prose_cjk",
        degenerate: false,
        min_len: 60,
        max_len: BIG,
        gen: |r, n| (cjk_prose(r, n), None, None),
    },
];

/// Every kind at every length in its range, seeded per kind and length.
pub fn corpus(lengths: &[usize]) -> Vec<Labelled> {
    let mut out = Vec::new();
    for (k, kind) in KINDS.iter().enumerate() {
        for &n in lengths.iter().filter(|&&n| n >= kind.min_len && n <= kind.max_len) {
            out.push(generate(kind, n, (k as u64) << 32 ^ n as u64));
        }
    }
    out
}

/// One text of `kind`, about `n` bytes (never more), from `seed`.
pub fn generate(kind: &Kind, n: usize, seed: u64) -> Labelled {
    let mut rng = Rng(seed);
    let (mut text, onset, unit) = (kind.gen)(&mut rng, n);
    let mut cut = n.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    if let Some(o) = onset {
        assert!(o < text.len(), "{}: onset {o} past the text ({} bytes)", kind.label, text.len());
    }
    Labelled { label: kind.label, degenerate: kind.degenerate, target: n, text, onset, unit }
}

/// Common Chinese characters: a pool big enough that random prose does not repeat itself.
const HANZI: &str = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严";

/// Chinese-like prose of at least `len` bytes: words of 1–3 characters, commas, full stops,
/// paragraphs.
pub fn cjk_prose(rng: &mut Rng, len: usize) -> String {
    let pool: Vec<char> = HANZI.chars().collect();
    let mut s = String::with_capacity(len + 64);
    while s.len() < len {
        for i in 0..6 + rng.below(14) {
            if i > 0 && rng.below(5) == 0 {
                s.push('，');
            }
            for _ in 0..1 + rng.below(3) {
                s.push(pool[rng.below(pool.len())]);
            }
        }
        s.push('。');
        if rng.below(6) == 0 {
            s.push_str("\n\n");
        }
    }
    s
}

/// One prose sentence (no line break) of about `len` bytes.
fn sentence(rng: &mut Rng, len: usize) -> String {
    let mut s = String::new();
    while s.len() < len {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    s.push_str(". ");
    s
}

fn repeat_to(mut s: String, unit: &str, n: usize) -> String {
    while s.len() < n {
        s.push_str(unit);
    }
    s
}

const PHRASES: &[&str] = &[
    "Let me check the file again. ",
    "Wait, I need to verify the configuration first. ",
    "I think the answer is correct, but let me double-check it once more to be sure. ",
    "So the total is 42. ",
];

fn phrase_loop(rng: &mut Rng, n: usize) -> Gen {
    let unit = rng.pick(PHRASES);
    let prefix = if n >= 300 { format!("Okay.\n{}", sentence(rng, n / 10)) } else { String::new() };
    let onset = prefix.len();
    (repeat_to(prefix, unit, n), Some(onset), Some(unit.into()))
}

fn nospace(rng: &mut Rng, n: usize, unit: &str) -> Gen {
    let prefix = if n >= 300 { format!("{}\nAnswer: ", sentence(rng, n / 10)) } else { "Answer: ".into() };
    let onset = prefix.len();
    (repeat_to(prefix, unit, n), Some(onset), Some(unit.into()))
}

const CJK_PHRASES: &[&str] = &["我需要再检查一下这个文件。", "让我们重新计算一下结果，", "好的，"];

fn cjk_phrase_loop(rng: &mut Rng, n: usize) -> Gen {
    let unit = rng.pick(CJK_PHRASES);
    let mut prefix = if n >= 300 { cjk_prose(rng, n / 10) } else { String::new() };
    prefix.push('\n');
    let onset = prefix.len();
    (repeat_to(prefix, unit, n), Some(onset), Some(unit.into()))
}

fn near_dup_paragraph(rng: &mut Rng, n: usize) -> Gen {
    let mut s = prose(rng, n / 5, WORDS, " ");
    s.push_str("\n\n");
    let onset = s.len();
    let (a, b) = (sentence(rng, 120), sentence(rng, 200));
    let mut k = 3 + rng.below(50);
    while s.len() < n {
        k += 1 + rng.below(3);
        s.push_str(&format!("{a}We retry step {k} now. {b}\n\n"));
    }
    (s, Some(onset), None)
}

fn list_item_loop(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("Here are the steps:\n");
    for i in 1..=3 {
        s.push_str(&format!("{i}. {}\n", sentence(rng, 30).trim_end()));
    }
    let onset = s.len();
    let item = sentence(rng, 40);
    let mut i = 4;
    while s.len() < n {
        s.push_str(&format!("{i}. {}\n", item.trim_end()));
        i += 1;
    }
    (s, Some(onset), None)
}

fn code_include_loop(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("```c\n");
    for _ in 0..2 + rng.below(3) {
        s.push_str(rng.pick(&["#include <stdlib.h>\n", "#include <string.h>\n", "#include \"config.h\"\n"]));
    }
    let unit = "#include <stdio.h>\n";
    let onset = s.len();
    (repeat_to(s, unit, n), Some(onset), Some(unit.into()))
}

fn table_row_loop(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("| id | name | size | time |\n|---|---|---|---|\n");
    for i in 1..=3 {
        s.push_str(&format!("| {i} | {} | {} | {} ms |\n", rng.pick(WORDS), rng.below(9999), rng.below(500)));
    }
    let unit = "| 0 | 0 | 0 | 0 ms |\n";
    let onset = s.len();
    (repeat_to(s, unit, n), Some(onset), Some(unit.into()))
}

fn json_key_loop(rng: &mut Rng, n: usize) -> Gen {
    let mut s = format!("{{\n  \"name\": \"{}\",\n  \"size\": {},\n", rng.pick(WORDS), rng.below(1000));
    let unit = "  \"type\": \"string\",\n";
    let onset = s.len();
    s = repeat_to(s, unit, n);
    (s, Some(onset), Some(unit.into()))
}

fn big_block_repeat(rng: &mut Rng, n: usize) -> Gen {
    let prefix = prose(rng, 2000, WORDS, " ");
    let block = prose(rng, 40 * 1024, WORDS, " ");
    let onset = prefix.len();
    (repeat_to(prefix, &block, n), Some(onset), Some(block))
}

const LOOP_LINES: &[&str] = &[
    "The reclaim thread scans the inactive list again and evicts the oldest pages.\n",
    "I should check the scheduler queue before I answer.\n",
    "Therefore the result is 7.\n",
];

fn prose_then_loop(rng: &mut Rng, n: usize) -> Gen {
    let unit = rng.pick(LOOP_LINES);
    let mut s = prose(rng, n / 2, WORDS, " ");
    s.push('\n');
    let onset = s.len();
    (repeat_to(s, unit, n), Some(onset), Some(unit.into()))
}

fn cjk_then_loop(rng: &mut Rng, n: usize) -> Gen {
    let unit = "因此，我们需要再次检查内存的回收过程。\n";
    let mut s = cjk_prose(rng, n / 2);
    s.push('\n');
    let onset = s.len();
    (repeat_to(s, unit, n), Some(onset), Some(unit.into()))
}

fn short_loop(rng: &mut Rng, n: usize) -> Gen {
    let unit = rng.pick(&["I think ", "Sure! ", "the the ", "Okay, so "]);
    (repeat_to(String::new(), unit, n), Some(0), Some(unit.into()))
}

fn capitalised_line(rng: &mut Rng) -> String {
    let len = 25 + rng.below(20);
    let mut l = sentence(rng, len).trim_end().trim_end_matches('.').to_string();
    l[..1].make_ascii_uppercase();
    l.push('\n');
    l
}

fn poem_refrain(rng: &mut Rng, n: usize) -> Gen {
    let refrain = format!("{}{}", capitalised_line(rng), capitalised_line(rng));
    let mut s = String::new();
    while s.len() < n {
        for _ in 0..4 {
            s.push_str(&capitalised_line(rng));
        }
        s.push_str(&refrain);
        s.push('\n');
    }
    (s, None, None)
}

fn prayer_litany(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("Let us pray.\n");
    while s.len() < n {
        let len = 30 + rng.below(40);
        let p = sentence(rng, len);
        s.push_str(&format!(
            "For {}, we pray to the Lord.\nLord, hear our prayer.\n",
            p.trim_end().trim_end_matches('.')
        ));
    }
    (s, None, None)
}

fn numbered_list(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("Steps:\n");
    let mut i = 1;
    while s.len() < n {
        let (a, b, c) = (rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS));
        let verb = rng.pick(&["Check", "Open", "Measure", "Restart", "Clear"]);
        s.push_str(&format!("{i}. {verb} the {a} of the {b} before the {c}.\n"));
        i += 1;
    }
    (s, None, None)
}

fn table(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("| id | name | size | time |\n|---|---|---|---|\n");
    let mut i = 1;
    while s.len() < n {
        s.push_str(&format!(
            "| {i} | {} | {} | {}.{} ms |\n",
            rng.pick(WORDS),
            rng.below(99999),
            rng.below(500),
            rng.below(10)
        ));
        i += 1;
    }
    (s, None, None)
}

fn log(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::new();
    let (mut t, mut id) = (0usize, 1000 + rng.below(9000));
    while s.len() < n {
        t += rng.below(900);
        id += 1;
        let level = if rng.below(20) == 0 { "WARN" } else { "INFO" };
        s.push_str(&format!(
            "2024-05-01T{:02}:{:02}:{:02}.{:03}Z {level} worker-{} processed request id={id} in {}ms\n",
            t / 3_600_000 % 24,
            t / 60_000 % 60,
            t / 1000 % 60,
            t % 1000,
            rng.below(8),
            rng.below(300)
        ));
    }
    (s, None, None)
}

fn code_similar(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("fn unpack(buf: &[u8]) -> [u32; 8] {\n    let mut out = [0; 8];\n");
    let mut i = 0;
    while s.len() < n {
        match rng.below(3) {
            0 => s.push_str(&format!("    out[{}] = u32::from(buf[{i}]) << {};\n", i % 8, 8 * (i % 4))),
            1 => s.push_str(&format!("    let {}_{i} = buf[{i}] as u32 * {};\n", rng.pick(WORDS), 1 + rng.below(64))),
            _ => s.push_str(&format!("    assert_eq!(out[{}], {});\n", i % 8, rng.below(256))),
        }
        i += 1;
    }
    (s, None, None)
}

fn quoted_once(rng: &mut Rng, n: usize) -> Gen {
    let quote = format!("> {}\n\n", sentence(rng, n / 6).trim_end());
    let mut s = prose(rng, n / 4, WORDS, " ");
    s.push_str("\n\nAs the report says:\n\n");
    s.push_str(&quote);
    s.push_str(&prose(rng, n / 4, WORDS, " "));
    s.push_str("\n\nSo, once more:\n\n");
    s.push_str(&quote);
    s.push_str(&prose(rng, n, WORDS, " "));
    (s, None, None)
}
