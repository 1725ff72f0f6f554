//! Labelled test texts (issues 5 and 13): every kind of loop to catch and every kind of legit
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
    /// Loops only: about how many bytes one copy of the unit takes (the unit's length when it
    /// is exact): the onset is pinned within this many bytes.
    pub unit_bytes: Option<usize>,
}

/// What a generator gives: the text, the onset, the unit when copies are exact, and a copy's
/// length in bytes when they are not.
pub type Gen = (String, Option<usize>, Option<String>, Option<usize>);

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
    Kind { label: "edited_then_exact", degenerate: true, min_len: 1000, max_len: BIG, gen: edited_then_exact },
    Kind { label: "edited_then_exact_cjk", degenerate: true, min_len: 1000, max_len: BIG, gen: edited_then_exact_cjk },
    Kind { label: "counting_empty_list", degenerate: true, min_len: 300, max_len: BIG, gen: counting_empty_list },
    Kind { label: "counting_bare", degenerate: true, min_len: 300, max_len: BIG, gen: counting_bare },
    Kind { label: "counting_step", degenerate: true, min_len: 300, max_len: BIG, gen: counting_step },
    Kind { label: "counting_step_cjk", degenerate: true, min_len: 300, max_len: BIG, gen: counting_step_cjk },
    Kind { label: "restart_story", degenerate: true, min_len: 1000, max_len: BIG, gen: restart_story },
    // A block of about 250 bytes: from 2 KB it is told at least four times (at 1 KB, three
    // times, the last cut short: WARN).
    Kind { label: "restart_code", degenerate: true, min_len: 2000, max_len: BIG, gen: restart_code },
    // Issue 14: a short reply, then blank lines until the length (under 1 KiB: too short).
    Kind { label: "blank_tail", degenerate: true, min_len: 1100, max_len: BIG, gen: blank_tail },
    Kind { label: "punctuation_run", degenerate: true, min_len: 60, max_len: BIG, gen: punctuation_run },
    Kind { label: "poem_refrain", degenerate: false, min_len: 300, max_len: BIG, gen: poem_refrain },
    Kind { label: "prayer_litany", degenerate: false, min_len: 300, max_len: BIG, gen: prayer_litany },
    Kind { label: "numbered_list", degenerate: false, min_len: 100, max_len: BIG, gen: numbered_list },
    Kind { label: "table", degenerate: false, min_len: 100, max_len: BIG, gen: table },
    Kind { label: "log", degenerate: false, min_len: 100, max_len: BIG, gen: log },
    Kind { label: "code_similar", degenerate: false, min_len: 100, max_len: BIG, gen: code_similar },
    Kind { label: "quoted_once", degenerate: false, min_len: 1000, max_len: BIG, gen: quoted_once },
    Kind { label: "recap_once", degenerate: false, min_len: 1000, max_len: BIG, gen: recap_once },
    Kind { label: "code_revised_once", degenerate: false, min_len: 300, max_len: BIG, gen: code_revised_once },
    Kind { label: "byte_table", degenerate: false, min_len: 300, max_len: BIG, gen: byte_table },
    Kind { label: "progress_log", degenerate: false, min_len: 300, max_len: BIG, gen: progress_log },
    Kind { label: "server_log", degenerate: false, min_len: 300, max_len: BIG, gen: server_log },
    Kind { label: "csv_defaults", degenerate: false, min_len: 300, max_len: BIG, gen: csv_defaults },
    Kind { label: "test_vectors", degenerate: false, min_len: 300, max_len: BIG, gen: test_vectors },
    Kind { label: "tiny_numbers_reply", degenerate: false, min_len: 60, max_len: 300, gen: tiny_numbers_reply },
    Kind {
        label: "prose_latin",
        degenerate: false,
        min_len: 60,
        max_len: BIG,
        gen: |r, n| (prose(r, n, WORDS, " "), None, None, None),
    },
    Kind {
        label: "prose_cjk",
        degenerate: false,
        min_len: 60,
        max_len: BIG,
        gen: |r, n| (cjk_prose(r, n), None, None, None),
    },
    // Separators and table borders: one mark drawn 20 to 300 times on a line of its own.
    Kind { label: "ruled_sections", degenerate: false, min_len: 100, max_len: BIG, gen: ruled_sections },
];

/// Legit: a report whose sections are set apart by rule lines of 20 to 300 marks (`-`, `=`,
/// `*`, `_`, `─`), with now and then a reStructuredText grid table (`+-----+-----+` borders)
/// — by its tokens a mark said back to back, by what it says a line drawn.
fn ruled_sections(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::new();
    while s.len() < n {
        if rng.below(4) == 0 {
            let widths = [10 + rng.below(30), 20 + rng.below(200)];
            let border = |mark: char| {
                let cells: Vec<String> = widths.iter().map(|&w| mark.to_string().repeat(w)).collect();
                format!("+{}+\n", cells.join("+"))
            };
            s.push_str(&border('-'));
            s.push_str(&format!(
                "| {:<w0$} | {:<w1$} |\n",
                "Setting",
                "What it does",
                w0 = widths[0] - 2,
                w1 = widths[1] - 2
            ));
            s.push_str(&border('='));
            for _ in 0..1 + rng.below(3) {
                let row = crate::grammar::sentence(rng);
                let cut: String = row.chars().take(widths[1] - 2).collect();
                let word = rng.pick(WORDS);
                let key = format!("{word}_{}", rng.below(100));
                let key: String = key.chars().take(widths[0] - 2).collect();
                s.push_str(&format!("| {key:<w0$} | {cut:<w1$} |\n", w0 = widths[0] - 2, w1 = widths[1] - 2));
                s.push_str(&border('-'));
            }
            s.push('\n');
        }
        let len = 80 + rng.below(400);
        let paragraph = crate::grammar::english(rng, len);
        s.push_str(paragraph.trim_end());
        let mark = rng.pick(&["-", "=", "*", "_", "─"]);
        let width = 20 + rng.below(280);
        s.push_str(&format!("\n\n{}\n\n", mark.repeat(width)));
    }
    (s, None, None, None)
}

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
    let mut rng = Rng::new(seed);
    let (mut text, onset, unit, unit_bytes) = (kind.gen)(&mut rng, n);
    let mut cut = n.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    if let Some(o) = onset {
        assert!(o < text.len(), "{}: onset {o} past the text ({} bytes)", kind.label, text.len());
    }
    let unit_bytes = unit_bytes.or(unit.as_ref().map(String::len));
    assert_eq!(onset.is_some(), unit_bytes.is_some(), "{}: a loop says how long its unit is", kind.label);
    Labelled { label: kind.label, degenerate: kind.degenerate, target: n, text, onset, unit, unit_bytes }
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
    let mut words = 0;
    while s.len() < len {
        if !s.is_empty() {
            // A stop every 8 to 20 words: prose ends its sentences.
            s.push_str(if words >= 8 && rng.below(12) == 0 { ". " } else { " " });
            if s.ends_with(". ") {
                words = 0;
            }
        }
        s.push_str(rng.pick(WORDS));
        words += 1;
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
    (repeat_to(prefix, unit, n), Some(onset), Some(unit.into()), None)
}

fn nospace(rng: &mut Rng, n: usize, unit: &str) -> Gen {
    let prefix = if n >= 300 { format!("{}\nAnswer: ", sentence(rng, n / 10)) } else { "Answer: ".into() };
    let onset = prefix.len();
    (repeat_to(prefix, unit, n), Some(onset), Some(unit.into()), None)
}

const CJK_PHRASES: &[&str] = &["我需要再检查一下这个文件。", "让我们重新计算一下结果，", "好的，"];

fn cjk_phrase_loop(rng: &mut Rng, n: usize) -> Gen {
    let unit = rng.pick(CJK_PHRASES);
    let mut prefix = if n >= 300 { cjk_prose(rng, n / 10) } else { String::new() };
    prefix.push('\n');
    let onset = prefix.len();
    (repeat_to(prefix, unit, n), Some(onset), Some(unit.into()), None)
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
    let unit_bytes = a.len() + b.len() + "We retry step 100 now. \n\n".len();
    (s, Some(onset), None, Some(unit_bytes))
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
    (s, Some(onset), None, Some(item.len() + 4))
}

fn code_include_loop(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("```c\n");
    // Different includes first (a line said twice before the loop would start it there).
    let mut others = vec!["#include <stdlib.h>\n", "#include <string.h>\n", "#include \"config.h\"\n"];
    for _ in 0..2 + rng.below(2) {
        s.push_str(others.remove(rng.below(others.len())));
    }
    let unit = "#include <stdio.h>\n";
    let onset = s.len();
    (repeat_to(s, unit, n), Some(onset), Some(unit.into()), None)
}

fn table_row_loop(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("| id | name | size | time |\n|---|---|---|---|\n");
    for i in 1..=3 {
        s.push_str(&format!("| {i} | {} | {} | {} ms |\n", rng.pick(WORDS), rng.below(9999), rng.below(500)));
    }
    let unit = "| 0 | 0 | 0 | 0 ms |\n";
    let onset = s.len();
    (repeat_to(s, unit, n), Some(onset), Some(unit.into()), None)
}

fn json_key_loop(rng: &mut Rng, n: usize) -> Gen {
    let mut s = format!("{{\n  \"name\": \"{}\",\n  \"size\": {},\n", rng.pick(WORDS), rng.below(1000));
    let unit = "  \"type\": \"string\",\n";
    let onset = s.len();
    s = repeat_to(s, unit, n);
    (s, Some(onset), Some(unit.into()), None)
}

fn big_block_repeat(rng: &mut Rng, n: usize) -> Gen {
    let prefix = prose(rng, 2000, WORDS, " ");
    let block = prose(rng, 40 * 1024, WORDS, " ");
    let onset = prefix.len();
    (repeat_to(prefix, &block, n), Some(onset), Some(block), None)
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
    (repeat_to(s, unit, n), Some(onset), Some(unit.into()), None)
}

fn cjk_then_loop(rng: &mut Rng, n: usize) -> Gen {
    let unit = "因此，我们需要再次检查内存的回收过程。\n";
    let mut s = cjk_prose(rng, n / 2);
    s.push('\n');
    let onset = s.len();
    (repeat_to(s, unit, n), Some(onset), Some(unit.into()), None)
}

fn short_loop(rng: &mut Rng, n: usize) -> Gen {
    let unit = rng.pick(&["I think ", "Sure! ", "the the ", "Okay, so "]);
    (repeat_to(String::new(), unit, n), Some(0), Some(unit.into()), None)
}

/// A short reply, then blank lines (or, now and then, spaces) to the end: a served model
/// emitting whitespace until `max_tokens`.
fn blank_tail(rng: &mut Rng, n: usize) -> Gen {
    let reply = rng.pick(&["Here is the answer:", "Sure.", "The result is 42.", "Okay, here it is:", "Done."]);
    let blank = rng.pick(&["\n", "\n", "\n\n", " "]);
    (repeat_to(reply.to_string(), blank, n), Some(reply.len()), Some(blank.into()), None)
}

/// Punctuation said again and again, after a few words or alone: "Wow!!!!!!!!…", "…………".
fn punctuation_run(rng: &mut Rng, n: usize) -> Gen {
    let lead = rng.pick(&["", "Wow", "Really", "Great question", "Hmm"]);
    let unit = rng.pick(&["!", "?", "…", ".", "?!"]);
    (repeat_to(lead.to_string(), unit, n), Some(lead.len()), Some(unit.into()), None)
}

/// Legit: a tiny reply whose numbers repeat their digits ("answer number 100000").
fn tiny_numbers_reply(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::new();
    while s.len() < n {
        let line = match rng.below(4) {
            0 => format!("answer number {}", [100000, 1000000, 777777, 5000][rng.below(4)]),
            1 => format!("The total is {} bytes. ", [1000000, 2000000, 1048576][rng.below(3)]),
            2 => format!("Port {}, timeout {} ms. ", [8000, 8080, 11111][rng.below(3)], [30000, 100000][rng.below(2)]),
            _ => format!("ID 000000{}; code 99999. ", rng.below(10)),
        };
        s.push_str(&line);
        s.push('\n');
    }
    (s, None, None, None)
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
    (s, None, None, None)
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
    (s, None, None, None)
}

fn numbered_list(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("Steps:\n");
    // Nouns and the like only: "Check the of of the the" is word salad.
    let content: Vec<&str> = WORDS.iter().copied().filter(|w| !crate::grammar::is_function_word(w)).collect();
    let mut i = 1;
    while s.len() < n {
        let (a, b, c) = (rng.pick(&content), rng.pick(&content), rng.pick(&content));
        let verb = rng.pick(&["Check", "Open", "Measure", "Restart", "Clear"]);
        s.push_str(&format!("{i}. {verb} the {a} of the {b} before the {c}.\n"));
        i += 1;
    }
    (s, None, None, None)
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
    (s, None, None, None)
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
    (s, None, None, None)
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
    (s, None, None, None)
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
    (s, None, None, None)
}

// ---- Issue 13: loops whose early copies vary, counting runs, restarts; code and data. ----

/// Words spelt two ways: a loop that is not yet exact respells one now and then.
const SPELLINGS: &[(&str, &str)] = &[
    ("traveling", "travelling"),
    ("color", "colour"),
    ("gray", "grey"),
    ("analyze", "analyse"),
    ("toward", "towards"),
];

/// One copy of a unit with one small edit: a word respelt, a word replaced, or a token
/// appended to its first line.
fn edit_once(rng: &mut Rng, unit: &str, spelling: (&str, &str)) -> String {
    match rng.below(3) {
        0 => unit.replacen(spelling.0, spelling.1, 1),
        1 => {
            let words: Vec<&str> = unit.split(' ').collect();
            let k = rng.below(words.len());
            let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            if !out[k].contains('\n') {
                out[k] = rng.pick(WORDS).to_string();
            }
            out.join(" ")
        }
        _ => unit.replacen(".\n", &format!(" {}.\n", rng.pick(&["again", "too", "indeed", "then"])), 1),
    }
}

/// A unit of two lines said again and again from the onset: about half of the early copies
/// carry one small edit, the copies after a point somewhere in the loop's second to seventh
/// tenth are exact (the shape of real loops that become byte-exact only near the end).
fn edited_then_exact(rng: &mut Rng, n: usize) -> Gen {
    let mut s = format!("{}\n\n", sentence(rng, 120).trim_end());
    let onset = s.len();
    let spelling = SPELLINGS[rng.below(SPELLINGS.len())];
    let unit = format!("We kept {} {}\n{}\n", spelling.0, sentence(rng, 40).trim_end(), sentence(rng, 50).trim_end());
    let exact_from = onset + (n - onset.min(n)) * (2 + rng.below(6)) / 10;
    while s.len() < n {
        if s.len() < exact_from && s.len() > onset && rng.below(2) == 0 {
            s.push_str(&edit_once(rng, &unit, spelling));
        } else {
            s.push_str(&unit);
        }
    }
    let unit_bytes = unit.len();
    (s, Some(onset), None, Some(unit_bytes))
}

/// [`edited_then_exact`] in Chinese: the early copies replace one character or add 了.
fn edited_then_exact_cjk(rng: &mut Rng, n: usize) -> Gen {
    let mut s = cjk_prose(rng, 150);
    s.push_str("\n\n");
    let onset = s.len();
    let line = |rng: &mut Rng| {
        let mut l = cjk_prose(rng, 40);
        l.truncate(l.trim_end_matches(['。', '\n']).len());
        l.push_str("。\n");
        l
    };
    let unit = format!("{}{}", line(rng), line(rng));
    let chars: Vec<char> = unit.chars().collect();
    let pool: Vec<char> = HANZI.chars().collect();
    let exact_from = onset + (n - onset.min(n)) * (2 + rng.below(6)) / 10;
    while s.len() < n {
        if s.len() < exact_from && s.len() > onset && rng.below(2) == 0 {
            let mut copy = chars.clone();
            let k = rng.below(copy.len());
            if pool.contains(&copy[k]) {
                copy[k] = pool[rng.below(pool.len())];
            } else {
                copy.insert(k, '了');
            }
            s.extend(copy);
        } else {
            s.push_str(&unit);
        }
    }
    let unit_bytes = unit.len();
    (s, Some(onset), None, Some(unit_bytes))
}

/// A numbered list whose items become empty: "4.\n5.\n6.\n…", only the number changing.
fn counting_empty_list(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("Here is the plan:\n");
    let given = 1 + rng.below(3);
    for i in 1..=given {
        s.push_str(&format!("{i}. {}\n", sentence(rng, 30).trim_end()));
    }
    let onset = s.len();
    let mark = rng.pick(&[".", ")"]);
    let mut i = given + 1;
    while s.len() < n {
        s.push_str(&format!("{i}{mark}\n"));
        i += 1;
    }
    (s, Some(onset), None, Some(format!("{i}{mark}\n").len()))
}

/// Bare consecutive integers running on, spaced, comma-separated or one per line.
fn counting_bare(rng: &mut Rng, n: usize) -> Gen {
    let mut s = format!("{}\n", sentence(rng, (n / 10).min(200)).trim_end());
    let onset = s.len();
    let sep = rng.pick(&[" ", ", ", "\n"]);
    let mut i = 1;
    while s.len() < n {
        s.push_str(&format!("{i}{sep}"));
        i += 1;
    }
    (s, Some(onset), None, Some(format!("{i}{sep}").len()))
}

/// "Step N:" or "Day N:" lines whose rest is the same line, after a few real ones.
fn counting_step(rng: &mut Rng, n: usize) -> Gen {
    let word = rng.pick(&["Step", "Day", "Round", "Attempt"]);
    let mut s = format!("Here is how to do it:\n{word} 1: {}\n", sentence(rng, 30).trim_end());
    s.push_str(&format!("{word} 2: {}\n", sentence(rng, 30).trim_end()));
    let onset = s.len();
    let len = 25 + rng.below(20);
    let rest = sentence(rng, len);
    let mut i = 3;
    while s.len() < n {
        s.push_str(&format!("{word} {i}: {}\n", rest.trim_end()));
        i += 1;
    }
    (s, Some(onset), None, Some(format!("{word} {i}: {}\n", rest.trim_end()).len()))
}

/// "第N天：" lines whose rest is the same, after a few real ones.
fn counting_step_cjk(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("计划如下：\n");
    for i in 1..=2 {
        s.push_str(&format!("第{i}天：{}\n", ["打开文件。", "检查缓存。", "重启服务。", "清理日志。"][rng.below(4)]));
    }
    let onset = s.len();
    let rest = "继续检查内存的回收过程。";
    let mut i = 3;
    while s.len() < n {
        s.push_str(&format!("第{i}天：{rest}\n"));
        i += 1;
    }
    (s, Some(onset), None, Some(format!("第{i}天：{rest}\n").len()))
}

/// A sentence said again in other words: about one word in six replaced, dropped, or
/// followed by another.
fn reword(rng: &mut Rng, sentence: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for w in sentence.split_whitespace() {
        match rng.below(25) {
            0..=2 => out.push(rng.pick(WORDS)),
            3 => {}
            4 => {
                out.push(w);
                out.push(rng.pick(WORDS));
            }
            _ => out.push(w),
        }
    }
    let mut s = out.join(" ");
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}

/// A story that keeps starting over: the same opening sentence (reworded now and then) and
/// the same sentences in the same order, each telling reworded a little.
fn restart_story(rng: &mut Rng, n: usize) -> Gen {
    let mut s = format!("Title: {}\n\n", sentence(rng, 30).trim_end().trim_end_matches('.'));
    let onset = s.len();
    let telling_len = (n / 5).clamp(150, 900);
    let opening = format!("Once upon a time {}", sentence(rng, 40).trim_end());
    let mut rest = Vec::new();
    let mut len = opening.len();
    while len < telling_len {
        let want = 40 + rng.below(60);
        let sent = sentence(rng, want).trim_end().to_string();
        len += sent.len() + 1;
        rest.push(sent);
    }
    let first = format!("{opening} {}\n\n", rest.join(" "));
    s.push_str(&first);
    while s.len() < n {
        let open = if rng.below(3) == 0 { reword(rng, &opening) } else { opening.clone() };
        let told: Vec<String> = rest.iter().map(|r| reword(rng, r)).collect();
        s.push_str(&format!("{open} {}\n\n", told.join(" ")));
    }
    (s, Some(onset), None, Some(first.len()))
}

/// A code block emitted again and again, "updated" each time: only its comment (and now and
/// then one name) changes.
fn restart_code(rng: &mut Rng, n: usize) -> Gen {
    let mut s = format!("{}\n\nHere is the function:\n\n", sentence(rng, 80).trim_end());
    let onset = s.len();
    let name = rng.pick(&["load_config", "parse_header", "retry_request", "flush_cache"]);
    let body = format!(
        "def {name}(path, retries=3):\n    with open(path) as f:\n        data = f.read()\n    if not data:\n        \
         raise ValueError(\"empty {}\")\n    return data.strip()\n",
        rng.pick(WORDS)
    );
    let block = |rng: &mut Rng| {
        let len = 30 + rng.below(30);
        let comment = sentence(rng, len);
        let body = if rng.below(3) == 0 {
            body.replacen("data", rng.pick(&["text", "raw", "content"]), 3)
        } else {
            body.clone()
        };
        format!("```python\n# {}\n{body}```\n\n", comment.trim_end())
    };
    let first = block(rng);
    s.push_str(&first);
    while s.len() < n {
        s.push_str(rng.pick(&[
            "Here is the updated version:\n\n",
            "Updated:\n\n",
            "Here is the corrected function:\n\n",
        ]));
        s.push_str(&block(rng));
    }
    (s, Some(onset), None, Some(first.len() + 30))
}

/// Legit: a text whose last paragraph sums up its first in other words, once.
fn recap_once(rng: &mut Rng, n: usize) -> Gen {
    let intro: Vec<String> = (0..4).map(|_| sentence(rng, 60).trim_end().to_string()).collect();
    let mut s = format!("{}\n\n", intro.join(" "));
    s.push_str(&prose(rng, n.saturating_sub(2 * s.len()), WORDS, " "));
    let recap: Vec<String> = intro.iter().map(|i| reword(rng, i)).collect();
    s.push_str(&format!("\n\nIn short: {}\n", recap.join(" ")));
    if s.len() > n {
        // The recap is the point: keep it whole, cut the body.
        let keep = s.len() - n;
        let body_end = s.rfind("\n\nIn short").unwrap_or(0);
        let cut = body_end.saturating_sub(keep);
        let mut cut_at = cut;
        while !s.is_char_boundary(cut_at) {
            cut_at -= 1;
        }
        s.replace_range(cut_at..body_end, "");
    }
    (s, None, None, None)
}

/// Legit: a code block, a few words on it, and the block again with two lines changed.
fn code_revised_once(rng: &mut Rng, n: usize) -> Gen {
    let mut lines: Vec<String> = (0..(n / 80).clamp(4, 400))
        .map(|i| {
            format!("    let {}_{i} = {}({}, {});", rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS), rng.below(100))
        })
        .collect();
    let mut s = format!("```rust\nfn setup() {{\n{}\n}}\n```\n\n", lines.join("\n"));
    s.push_str(&format!("{}\n\nThe fixed version:\n\n", sentence(rng, 120).trim_end()));
    for _ in 0..2 {
        let k = rng.below(lines.len());
        lines[k] = format!("    // {}", sentence(rng, 30).trim_end());
    }
    s.push_str(&format!("```rust\nfn setup() {{\n{}\n}}\n```\n", lines.join("\n")));
    (s, None, None, None)
}

/// Legit: a C font header, many rows all 0x00 (control and unassigned code points) that
/// differ only in their `// U+00NN` comment, between rows of glyph bytes.
fn byte_table(rng: &mut Rng, n: usize) -> Gen {
    let mut s =
        String::from("// 8x8 bitmap font, one row of bytes per code point.\nstatic const uint8_t font8x8[][8] = {\n");
    let mut cp = 0usize;
    while s.len() < n {
        let zeros = if cp < 32 {
            32 - cp
        } else if rng.below(3) == 0 {
            5 + rng.below(60)
        } else {
            0
        };
        let rows = if zeros > 0 { zeros } else { 1 + rng.below(20) };
        for _ in 0..rows {
            let bytes: Vec<String> = (0..8)
                .map(|_| if zeros > 0 { "0x00".to_string() } else { format!("0x{:02X}", rng.below(256)) })
                .collect();
            s.push_str(&format!("    {{ {} }},   // U+{cp:04X}\n", bytes.join(", ")));
            cp += 1;
        }
    }
    (s, None, None, None)
}

/// Legit: a training run's progress bars and epoch summaries: lines that differ in counters,
/// rates and losses.
fn progress_log(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::new();
    let epochs = 10 + rng.below(90);
    let total = [500, 1000, 1875][rng.below(3)];
    let mut epoch = 1;
    let mut loss = 2.0 + rng.below(100) as f64 / 100.0;
    while s.len() < n {
        let mut done = 0;
        while done < total && s.len() < n {
            done = (done + 1 + rng.below(total / 8)).min(total);
            let pct = done * 100 / total;
            let bar = "█".repeat(pct / 10) + &" ".repeat(10 - pct / 10);
            let rate = 50.0 + rng.below(3000) as f64 / 100.0;
            loss *= 0.995;
            let secs = done as f64 / rate;
            s.push_str(&format!(
                "Epoch {epoch}/{epochs}: {pct:3}%|{bar}| {done}/{total} [{:02}:{:02}<{:02}:{:02}, {rate:.2}it/s, loss={loss:.4}]\n",
                secs as usize / 60,
                secs as usize % 60,
                ((total - done) as f64 / rate) as usize / 60,
                ((total - done) as f64 / rate) as usize % 60,
            ));
        }
        s.push_str(&format!(
            "{total}/{total} [==============================] - {}s {}ms/step - loss: {loss:.4} - accuracy: 0.{:04} - val_loss: {:.4}\n",
            5 + rng.below(30),
            2 + rng.below(20),
            8000 + rng.below(1999),
            loss * 1.1
        ));
        epoch += 1;
    }
    (s, None, None, None)
}

/// Legit: a web server's access and application log, timestamped, long constant parts (the
/// user agent) and varying numbers.
fn server_log(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::new();
    let mut t = rng.below(80_000);
    let agents = [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
        "curl/8.5.0",
        "python-requests/2.31.0",
    ];
    while s.len() < n {
        t += rng.below(4);
        let (h, m, sec) = (t / 3600 % 24, t / 60 % 60, t % 60);
        if rng.below(4) == 0 {
            s.push_str(&format!(
                "2024-05-01 {h:02}:{m:02}:{sec:02}.{:03} INFO {} --- [nio-8080-exec-{}] c.e.demo.web.ItemController : Fetched item {} in {} ms\n",
                rng.below(1000),
                4000 + rng.below(10),
                1 + rng.below(10),
                rng.below(100_000),
                rng.below(300)
            ));
        } else {
            s.push_str(&format!(
                "10.0.{}.{} - - [01/May/2024:{h:02}:{m:02}:{sec:02} +0000] \"GET /api/v1/items/{} HTTP/1.1\" {} {} \"-\" \"{}\"\n",
                rng.below(4),
                rng.below(256),
                rng.below(100_000),
                [200, 200, 200, 304, 404][rng.below(5)],
                rng.below(20_000),
                agents[[0, 0, 0, 1, 2][rng.below(5)]]
            ));
        }
    }
    (s, None, None, None)
}

/// Legit: a CSV export where most columns hold their default values, some rows nothing but
/// a new id.
fn csv_defaults(rng: &mut Rng, n: usize) -> Gen {
    let mut s = String::from("id,name,email,qty,price,discount,active,notes\n");
    let mut id = 1000 + rng.below(9000);
    while s.len() < n {
        id += 1;
        if rng.below(3) == 0 {
            let name = rng.pick(WORDS);
            s.push_str(&format!(
                "{id},{name},{name}@example.com,{},{}.{:02},0,true,\n",
                1 + rng.below(9),
                rng.below(500),
                rng.below(100)
            ));
        } else {
            s.push_str(&format!("{id},,,0,0.00,0,false,N/A\n"));
        }
    }
    (s, None, None, None)
}

/// Legit: generated test vectors: inputs and expected outputs as hex strings.
fn test_vectors(rng: &mut Rng, n: usize) -> Gen {
    let hex = |rng: &mut Rng, bytes: usize| (0..bytes).map(|_| format!("{:02x}", rng.below(256))).collect::<String>();
    let mut s = String::from("static const struct vector vectors[] = {\n");
    while s.len() < n {
        let len = [0, 1, 16, 32][rng.below(4)];
        s.push_str(&format!(
            "    {{ .key = \"{}\", .input = \"{}\", .len = {len}, .expected = 0x{:08x} }},\n",
            hex(rng, 16),
            hex(rng, len.min(8)),
            rng.next_u64() as u32
        ));
    }
    (s, None, None, None)
}
