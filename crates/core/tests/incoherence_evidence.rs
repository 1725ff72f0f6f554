//! Evidence for the incoherence checks (issue 33): the labelled incoherent texts and their
//! look-alikes (`coherency_test_support::incoherent`) judged, as a confusion table per label
//! (PASS / WARN / FAIL of the incoherence checks, and of the whole report) with the onset error.
//!
//! `cargo test --test integration incoherence_evidence:: -- --nocapture` prints it; `EVIDENCE_1MB=1` adds the
//! 1 MB texts. Pinned: every planted leak and soup FAILs its check with the report's onset
//! where it was planted; no look-alike trips an incoherence check (a WARN is a defect); the
//! loop corpus (`labelled`) trips none either; pushing in pieces gives the report of one push.

use coherency_core::analyze::{analyze, Analyzer, Metric, Report, Verdict};
use coherency_test_support::{incoherent, labelled};
use std::collections::BTreeMap;
use std::fmt::Write;

fn lengths() -> Vec<usize> {
    let mut l = vec![100, 300, 1000, 3000, 10_000, 100_000];
    if std::env::var_os("EVIDENCE_1MB").is_some() {
        l.push(1_000_000);
    }
    l
}

/// The worst level of the incoherence checks.
fn incoherence_level(r: &Report) -> Verdict {
    [Metric::TemplateLeak, Metric::TokenSoup, Metric::WordSalad, Metric::Drift]
        .iter()
        .map(|&m| r.check(m).level)
        .max()
        .unwrap_or(Verdict::Pass)
}

/// How far the onset may lie from the planted one: a leak's marker is found exactly (a bare
/// role line after its blank line); soup and salad from their first odd word, a few words in.
/// Salad of separate words (shuffled, frequency-drawn) is not held to it: its misplaced pairs
/// come at a rate, one in 30 to 100 words, and its onset is shown in the table only.
fn tolerance(class: &str) -> usize {
    match class {
        "template_leak" => 4,
        // Drift is placed after the opening's last topic word, within a paragraph or so.
        "drift" => 1000,
        _ => 200,
    }
}

/// A label's row: [PASS, WARN, FAIL] of the incoherence checks, of the whole report, and the
/// worst onset error.
type Row = ([usize; 3], [usize; 3], usize);

#[test]
fn incoherent_texts_fail_at_their_onset_and_look_alikes_pass() {
    let corpus = incoherent::corpus(&lengths());
    let mut table: BTreeMap<(bool, &str), Row> = BTreeMap::new();
    let mut problems = Vec::new();
    for case in &corpus {
        let r = analyze(&case.text);
        let level = incoherence_level(&r);
        let failure = !case.class.is_empty();
        let row = table.entry((!failure, case.label)).or_insert(([0; 3], [0; 3], 0));
        row.0[level as usize] += 1;
        row.1[r.verdict as usize] += 1;
        if failure {
            let metric = match case.class {
                "template_leak" => Metric::TemplateLeak,
                "token_soup" => Metric::TokenSoup,
                "word_salad" => Metric::WordSalad,
                _ => Metric::Drift,
            };
            let planted = case.onset.expect("a failure has an onset");
            let error = r.onset.map_or(usize::MAX, |o| o.abs_diff(planted));
            row.2 = row.2.max(error);
            // Drift alone is a WARN; salad of separate words is a WARN or a FAIL (its misplaced
            // pairs are a rate: a few hundred words of it may show only the WARN count).
            let want = if metric == Metric::Drift { Verdict::Warn } else { Verdict::Fail };
            let separate = case.label.starts_with("salad_shuffled") || case.label.starts_with("salad_frequency");
            let level = r.check(metric).level;
            let ok = if separate {
                level >= Verdict::Warn && r.verdict >= level
            } else {
                level == want && r.verdict == want
            };
            if !ok {
                problems.push(format!("{} {} B: {:?}, not {want:?}: {:?}", case.label, case.target, level, r.reasons));
            } else if !separate && error > tolerance(case.class) {
                problems.push(format!("{} {} B: onset {:?}, planted {planted}", case.label, case.target, r.onset));
            }
        } else if level != Verdict::Pass {
            problems.push(format!("{} {} B: a look-alike {:?}: {:?}", case.label, case.target, level, r.reasons));
        }
    }
    let mut out = String::new();
    writeln!(
        out,
        "{:<22} {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}   {:>6}",
        "label", "PASS", "WARN", "FAIL", "PASS", "WARN", "FAIL", "onset±"
    )
    .unwrap();
    writeln!(out, "{:<22} {:^17}   {:^17}", "", "incoherence checks", "whole report").unwrap();
    for ((_, label), (mine, whole, error)) in &table {
        let error = if *error == 0 && mine[2] == 0 { "-".to_string() } else { error.to_string() };
        writeln!(
            out,
            "{label:<22} {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}   {error:>6}",
            mine[0], mine[1], mine[2], whole[0], whole[1], whole[2]
        )
        .unwrap();
    }
    println!("{out}");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_loop_corpus_trips_no_incoherence_check() {
    for t in labelled::corpus(&[60, 300, 3000, 30_000]) {
        let r = analyze(&t.text);
        assert_eq!(incoherence_level(&r), Verdict::Pass, "{} {} B: {:?}", t.label, t.target, r.reasons);
    }
}

#[test]
fn pushed_in_pieces_the_report_is_the_same() {
    for case in incoherent::corpus(&[300, 3000]) {
        let whole = analyze(&case.text);
        let mut a = Analyzer::new();
        let mut at = 0;
        let mut step = 1;
        while at < case.text.len() {
            let mut end = (at + step).min(case.text.len());
            while !case.text.is_char_boundary(end) {
                end += 1;
            }
            a.push(&case.text[at..end]);
            at = end;
            step = step * 3 % 97 + 1;
        }
        assert_eq!(a.report(), whole, "{} {} B", case.label, case.target);
    }
}

/// The most misplaced function-word pairs in any window of `window` words of `text`.
fn densest_misplaced(text: &str, window: usize) -> usize {
    let (pairs, _) = coherency_core::analyze::incoherence::misplaced::misplaced_pairs(text);
    let mut lo = 0;
    let mut best = 0;
    for hi in 0..pairs.len() {
        while pairs[hi].index - pairs[lo].index >= window {
            lo += 1;
        }
        best = best.max(hi - lo + 1);
    }
    best
}

/// The misplaced-pair counts the word-salad check's thresholds were chosen on: per label, the
/// least and the most pairs in the densest 256-word window of its texts (at 300 B – 100 kB),
/// and in the repository's own English documents (real prose written by people) and the loop
/// corpus' texts. Pinned: every healthy text stays under the WARN count, every salad over it.
#[test]
fn misplaced_pairs_separate_salad_from_prose() {
    let warn = coherency_core::analyze::IncoherenceRules::SEED.salad_misplaced_warn;
    let window = coherency_core::analyze::IncoherenceRules::SEED.salad_misplaced_window;
    let mut rows: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut note = |label: String, n: usize| {
        let r = rows.entry(label).or_insert((usize::MAX, 0));
        r.0 = r.0.min(n);
        r.1 = r.1.max(n);
    };
    let mut problems = Vec::new();
    for case in incoherent::corpus(&[300, 1000, 3000, 10_000, 100_000]) {
        let judged = match case.onset {
            Some(o) => &case.text[o..],
            None => &case.text[..],
        };
        let n = densest_misplaced(judged, window);
        note(case.label.to_string(), n);
        if std::env::var_os("MISPLACED_DETAIL").is_some() {
            println!(
                "{} {} {n} {} {}",
                case.label,
                case.target,
                densest_misplaced(judged, 128),
                densest_misplaced(judged, 256)
            );
        }
        let salad = case.label.starts_with("salad_shuffled") || case.label.starts_with("salad_frequency");
        if salad && n < warn || case.class.is_empty() && n >= warn {
            problems.push(format!("{} {} B: {n}", case.label, case.target));
        }
    }
    for t in labelled::corpus(&[300, 3000, 30_000]) {
        let n = densest_misplaced(&t.text, window);
        note(format!("loop corpus: {}", t.label), n);
        if std::env::var_os("MISPLACED_DETAIL").is_some() {
            println!(
                "loop:{} {} {n} {} {}",
                t.label,
                t.target,
                densest_misplaced(&t.text, 128),
                densest_misplaced(&t.text, 256)
            );
        }
        if n >= warn {
            problems.push(format!("loop corpus {} {} B: {n}", t.label, t.target));
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut docs = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for e in std::fs::read_dir(root.join("docs")).expect("docs/") {
        docs.push(e.expect("a doc").path());
    }
    for path in docs.into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(&path).expect("a document");
        let n = densest_misplaced(&text, window);
        note("repository documents".to_string(), n);
        if n >= warn {
            problems.push(format!("{}: {n}", path.display()));
        }
    }
    println!("misplaced pairs in the densest {window}-word window (WARN at {warn}): label min max");
    for (label, (lo, hi)) in &rows {
        println!("{label:<40} {lo:>4} {hi:>4}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 33, short outputs: what a model with random weights writes in 10 to 47 words (random
/// tokens of GPT-2's vocabulary; its whole words, a third glued together) and the salad of
/// short replies (shuffled or frequency-drawn grammatical sentences), against every healthy
/// kind of the corpus at 100 to 300 bytes (a sentence to a short paragraph) and short
/// grammatical prose. Random-vocabulary prose (`textgen::prose`: random words of a 70-word
/// vocabulary, a quarter of them function words in random places) is salad too. Prints how
/// many of each are flagged, and how many hold 3 or more misplaced function-word pairs (what
/// a short text WARNs at, `word_salad.misplaced` scaled to its length); pinned: no healthy
/// short text trips an incoherence check.
#[test]
fn short_outputs() {
    use coherency_test_support::grammar;
    use coherency_test_support::textgen::Rng;
    let tokens = incoherent::tokenizer_tokens();
    let words: Vec<&str> = tokens
        .iter()
        .filter_map(|t| t.strip_prefix(' '))
        .filter(|w| w.len() >= 3 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .collect();
    let mut problems = Vec::new();
    let mut flagged: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut count = |label: &'static str, text: &str| {
        let r = analyze(text);
        let row = flagged.entry(label).or_insert((0, 0, 0));
        row.1 += 1;
        if incoherence_level(&r) > Verdict::Pass {
            row.0 += 1;
        }
        if coherency_core::analyze::incoherence::misplaced::misplaced_pairs(text).0.len() >= 3 {
            row.2 += 1;
        }
        incoherence_level(&r)
    };
    for seed in 0..200u64 {
        let mut rng = Rng::new(seed);
        let n = 10 + rng.below(38);
        let mut s = String::new();
        while s.split_whitespace().count() < n {
            s.push_str(&tokens[rng.below(tokens.len())]);
        }
        count("short random tokens", &s);
        let mut s = String::new();
        while s.split_whitespace().count() < n {
            s.push_str(rng.pick(&words));
            if rng.below(3) != 0 {
                s.push(' ');
            }
        }
        count("short random words", &s);
        let cut = |s: String| s.split_whitespace().take(n).collect::<Vec<_>>().join(" ");
        count("short shuffled prose", &cut(grammar::shuffled(&mut rng, 600)));
        count("short frequency-drawn", &cut(grammar::frequency_sampled(&mut rng, 600)));
        let vocabulary =
            coherency_test_support::textgen::prose(&mut rng, 600, coherency_test_support::textgen::WORDS, " ");
        count("short random-vocabulary prose", &cut(vocabulary));
    }
    for case in incoherent::corpus(&[100, 200, 300]).into_iter().filter(|c| c.class.is_empty()) {
        if count("healthy (every look-alike kind)", &case.text) > Verdict::Pass {
            problems.push(format!("{} {} B: {:?}", case.label, case.target, analyze(&case.text).reasons));
        }
    }
    for seed in 0..200u64 {
        let mut rng = Rng::new(seed);
        let n = 10 + rng.below(38);
        let cut = |s: String| s.split_whitespace().take(n).collect::<Vec<_>>().join(" ");
        let text = cut(grammar::english(&mut rng, 600));
        if count("short grammatical prose", &text) > Verdict::Pass {
            problems.push(format!("grammatical {text}: {:?}", analyze(&text).reasons));
        }
    }
    println!("short outputs (10-47 words; healthy kinds 100-300 B): flagged / texts, ≥ 3 misplaced pairs");
    for (label, (f, n, m)) in &flagged {
        println!("{label:<36} {f:>4} / {n:<4} {m:>4}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 33, salad under 256 words: texts of 32 to 192 words cut from grammatical prose and
/// its look-alikes (bullets, headlines, terse notes, telegraphic logs, poetry, non-native
/// English), from the repository's own English documents, and the same prose with each
/// sentence's words shuffled or drawn by their frequency. A text shorter than the 256-word
/// window is judged at the same share of misplaced pairs, WARN at 3 at least
/// ([`IncoherenceRules::misplaced_counts_in`](coherency_core::analyze::IncoherenceRules::misplaced_counts_in)).
/// Prints the share flagged by the word-salad check per kind and length; pinned: no healthy
/// text is flagged, and shuffled prose is caught at least as often as the floors below (a
/// third to a half of what was measured, so that the test says when the rule stops seeing
/// short salad).
#[test]
fn short_salad_by_length() {
    use coherency_test_support::grammar;
    use coherency_test_support::textgen::Rng;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut documents = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    for e in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = e.expect("a doc").path();
        if path.extension().is_some_and(|e| e == "md") {
            documents.push_str(&std::fs::read_to_string(&path).expect("a document"));
        }
    }
    let chunks = |text: &str, n: usize| -> Vec<String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        words.chunks(n).filter(|c| c.len() == n).map(|c| c.join(" ")).collect()
    };
    let shuffle = |rng: &mut Rng, text: &str| -> String {
        let mut out = Vec::new();
        for s in text.split_inclusive(['.', '?', '!']) {
            let mut w: Vec<&str> = s.split_whitespace().collect();
            for i in (1..w.len()).rev() {
                w.swap(i, rng.below(i + 1));
            }
            out.push(w.join(" "));
        }
        out.join(" ")
    };
    let healthy = grammar::HEALTHY;
    // (words, least share of shuffled grammatical prose flagged)
    let floors = [(32, 0.0), (64, 0.12), (96, 0.25), (128, 0.25), (192, 0.25)];
    let flagged = |text: &str| analyze(text).check(Metric::WordSalad).level > Verdict::Pass;
    let mut problems = Vec::new();
    println!("word salad in short texts: flagged / texts");
    println!("{:<28} {}", "kind", floors.map(|(n, _)| format!("{n:>7} w")).join(" "));
    let mut table: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (n, floor) in floors {
        let mut row = |label: &'static str, texts: Vec<String>, healthy: bool| {
            let hits: Vec<&String> = texts.iter().filter(|t| flagged(t)).collect();
            table.entry(label).or_default().push(format!("{:>4}/{:<4}", hits.len(), texts.len()));
            if healthy {
                problems.extend(hits.iter().take(3).map(|t| format!("{label} {n} words flagged: {t}")));
            }
            hits.len() as f64 / texts.len().max(1) as f64
        };
        for (i, (label, generate)) in healthy.iter().enumerate() {
            let mut texts = chunks(&generate(&mut Rng::new(i as u64), 120_000), n);
            texts.truncate(200);
            row(label, texts, true);
        }
        row("repository documents", chunks(&documents, n), true);
        let mut rng = Rng::new(99);
        let mut texts: Vec<String> = chunks(&documents, n).iter().map(|t| shuffle(&mut rng, t)).collect();
        texts.truncate(200);
        row("documents, shuffled", texts, false);
        let mut texts = chunks(&grammar::shuffled(&mut Rng::new(7), 120_000), n);
        texts.truncate(200);
        let share = row("shuffled prose", texts, false);
        let mut texts = chunks(&grammar::frequency_sampled(&mut Rng::new(8), 120_000), n);
        texts.truncate(200);
        row("frequency-drawn words", texts, false);
        if share < floor {
            problems.push(format!(
                "shuffled prose at {n} words: {:.0} % flagged, floor {:.0} %",
                share * 100.0,
                floor * 100.0
            ));
        }
    }
    for (label, cells) in &table {
        println!("{label:<28} {}", cells.join(" "));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 33, sentences that never end: a run-on (clause after clause joined by `and`,
/// `which`, `so that`, with no stop and no line break) after a paragraph of healthy prose, at
/// 1.5 kB to 100 kB, and the look-alikes — long sentences as a contract writes them (60–150
/// words, then a stop), a poem with no punctuation, grammatical prose, bullets, headlines,
/// terse notes, telegraphic logs, non-native English — and the repository's documents.
/// Pinned: every run-on is flagged by the word-salad check from the run-on's first word (WARN
/// from 200 words, FAIL from 400: `word_salad.run_on_warn/fail`); no look-alike is flagged.
#[test]
fn sentences_that_never_end() {
    use coherency_test_support::grammar;
    use coherency_test_support::textgen::Rng;
    let rules = coherency_core::analyze::IncoherenceRules::SEED;
    let mut problems = Vec::new();
    println!("sentences that never end: word-salad level per size");
    for n in [1500, 3000, 10_000, 100_000] {
        let mut row: Vec<String> = Vec::new();
        for seed in 0..8u64 {
            let mut rng = Rng::new(seed);
            let before = grammar::english(&mut rng, n / 4);
            let text = format!("{} {}", before.trim_end(), grammar::run_on(&mut rng, n - n / 4));
            let onset = before.trim_end().len() + 1;
            let words = text[onset..].split_whitespace().count();
            let want = match words {
                w if w >= rules.salad_run_on_fail => Verdict::Fail,
                w if w >= rules.salad_run_on_warn => Verdict::Warn,
                _ => Verdict::Pass,
            };
            let r = analyze(&text);
            let level = r.check(Metric::WordSalad).level;
            row.push(format!("{}({words}w)", level.as_str()));
            if level != want || (want > Verdict::Pass && r.onset != Some(onset)) {
                problems.push(format!(
                    "run-on {n} B seed {seed}: {level:?} (want {want:?}), onset {:?} (want {onset})",
                    r.onset
                ));
            }
        }
        println!("run-on after prose {n:>7} B: {}", row.join(" "));
    }
    let run_on_look_alikes: [(&str, grammar::Generator); 2] =
        [("long sentences", grammar::long_sentences), ("unpunctuated poetry", grammar::unpunctuated_poetry)];
    for (label, generate) in run_on_look_alikes.into_iter().chain(grammar::HEALTHY) {
        let mut flagged = 0;
        for n in [1500, 3000, 10_000, 100_000] {
            for seed in 0..4u64 {
                let text = generate(&mut Rng::new(seed), n);
                let r = analyze(&text);
                if r.spans.iter().any(|s| s.kind == coherency_core::analyze::SpanKind::RunOn) {
                    flagged += 1;
                    problems.push(format!("{label} {n} B seed {seed}: {:?}", r.reasons.first()));
                }
            }
        }
        println!("{label:<22} flagged {flagged} / 16");
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for e in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = e.expect("a doc").path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).expect("a document");
            if !coherency_core::analyze::incoherence::run_on::run_ons(&text, rules.salad_run_on_warn).0.is_empty() {
                problems.push(format!("{}: a sentence that never ends", path.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
