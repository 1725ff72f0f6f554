//! The docs state every rule as the code holds it: each row of the checks tables
//! (docs/measures.md) ends in the WARN and FAIL cells made from `Thresholds::SEED` (the page and
//! the CLI show the same words through `Metric::rule`), so a threshold changed in code and not in
//! the docs fails here; the thresholds a person may set are listed row for row (docs/cli.md); and
//! the docs name every input format the CLI takes, in the core's order (docs/formats.md).
//! "README" below is the README and every page of docs/, read as one text.

use coherency_core::analyze::{format_threshold, Metric, Thresholds, SETTINGS};
use coherency_core::ingest::Format;

fn readme() -> String {
    let root = coherency_test_support::workspace_root();
    let read =
        |path: std::path::PathBuf| std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut pages: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    std::iter::once(root.join("README.md")).chain(pages).map(read).collect::<Vec<_>>().join("\n")
}

/// The cells of the README table row whose first cell is `label`.
fn row(readme: &str, label: &str) -> Vec<String> {
    let head = format!("| {label} |");
    let line = readme
        .lines()
        .find(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("README has no table row for {label:?}"));
    line.trim().trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect()
}

fn assert_warn_fail(readme: &str, label: &str, warn: &str, fail: &str) {
    let cells = row(readme, label);
    let n = cells.len();
    assert!(n >= 3, "README row {label:?} has too few cells: {cells:?}");
    assert_eq!(
        (cells[n - 2].as_str(), cells[n - 1].as_str()),
        (warn, fail),
        "README row {label:?}: its WARN and FAIL cells must say what Thresholds::SEED holds"
    );
}

#[test]
fn the_readme_tables_state_the_thresholds_the_checks_use() {
    let readme = readme();
    let t = Thresholds::SEED;
    let at_least = |m: Metric, v: f64| format!("≥ {}", format_threshold(m, v));
    let below = |m: Metric, v: f64| format!("< {}", format_threshold(m, v));
    assert_warn_fail(
        &readme,
        "maxrun",
        &at_least(Metric::Maxrun, t.maxrun_warn as f64),
        &at_least(Metric::Maxrun, t.maxrun_fail as f64),
    );
    assert_warn_fail(
        &readme,
        "maxline",
        &at_least(Metric::Maxline, t.maxline_warn as f64),
        &at_least(Metric::Maxline, t.maxline_fail as f64),
    );
    assert_warn_fail(
        &readme,
        "gzip ratio",
        &below(Metric::GzipRatio, t.gzip_ratio_warn),
        &below(Metric::GzipRatio, t.gzip_ratio_fail),
    );
    let rules = t.loops;
    assert_warn_fail(&readme, "loop", &rules.loop_warn_text(), &rules.loop_fail_text());
    assert_warn_fail(&readme, "copies", &rules.copies_warn_text(), &rules.copies_fail_text());
    let tools = t.tools;
    assert_warn_fail(&readme, Metric::ToolLoop.label(), &tools.warn_text(), &tools.fail_text());
    let formula = format!("at most {} words that an", tools.formula_words);
    assert!(readme.contains(&formula), "README must state the formula rule across turns: {formula:?}");
    let (new, again) = coherency_core::analyze::restarts::NEW_PER_REPEATED;
    let items = format!("at least {new} new word for every {again} they say again");
    assert!(readme.contains(&items), "README must state when copies are a template's items: {items:?}");
    let incoherence = t.incoherence_rules();
    assert_warn_fail(&readme, "template leak", &incoherence.leak_warn_text(), &incoherence.leak_fail_text());
    assert_warn_fail(&readme, "token soup", &incoherence.soup_warn_text(), &incoherence.soup_fail_text());
    assert_warn_fail(&readme, "word salad", &incoherence.salad_warn_text(), &incoherence.salad_fail_text());
    assert_warn_fail(&readme, "topic drift", &incoherence.drift_warn_text(), &incoherence.drift_fail_text());
    let end = &rules.degenerate_end;
    assert_warn_fail(
        &readme,
        "degenerate end",
        &at_least(Metric::Profile, end.warn),
        &at_least(Metric::Profile, end.fail),
    );
}

#[test]
fn the_readme_says_what_the_rules_leave_out_of_the_tables() {
    let readme = readme();
    let t = Thresholds::SEED;
    for (metric, what) in [
        (Metric::GzipRatio, "the gzip ratio's minimum length"),
        (Metric::Profile, "the degenerate end's minimum length"),
    ] {
        let rule = metric.rule(&t).expect("a rule in words");
        assert!(readme.contains(&format!("({rule})")), "README must say {what}: ({rule})");
    }
    let counted = t.loops.copies_counted_text();
    assert!(readme.contains(&counted), "README must say what the copies check counts: {counted}");
    let error = t.tools.error_text().replace("a result is an error when its first line starts with", "");
    assert!(readme.contains(error.trim()), "README must say what makes a tool's result an error: {error}");
    let short = format!("Texts under {} non-blank bytes", t.min_bytes);
    assert!(readme.contains(&short), "README must say how short is too short: {short}");
}

/// Issue 18: the README's table of thresholds a person may set is the core's table, row for row.
#[test]
fn the_readme_lists_every_threshold_setting_with_its_default() {
    let readme = readme();
    for s in &SETTINGS {
        let cells = row(&readme, &format!("`{}`", s.name));
        assert_eq!(cells[1..], [s.format(s.default_value()), s.about.to_string()], "README row for {}", s.name);
    }
}

#[test]
fn the_readme_lists_every_format_name_the_cli_takes() {
    let readme = readme();
    let said = readme.find("or as `--format` says").expect("the README's list of format names");
    let start = said + readme[said..].find('(').expect("the list's start");
    let list = &readme[start..start + readme[start..].find(')').expect("the list's end")];
    let names: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
    let want: Vec<&str> =
        std::iter::once("auto").chain(Format::ALL.iter().filter(|f| **f != Format::Binary).map(|f| f.name())).collect();
    assert_eq!(names, want, "README's `--format` names, in the core's order");
}

#[test]
fn the_compare_rules_table_states_the_defaults_the_comparison_uses() {
    let readme = readme();
    let r = coherency_core::analyze::CompareRules::DEFAULT;
    for (name, value) in [
        ("parted_warn", r.parted_warn),
        ("parted_fail", r.parted_fail),
        ("drift_warn", r.drift_warn),
        ("drift_fail", r.drift_fail),
        ("early_share", r.early_share),
        ("trend_min_drift", r.trend_min_drift),
    ] {
        let cells = row(&readme, &format!("`{name}`"));
        assert_eq!(
            cells.get(1).map(String::as_str),
            Some(value.to_string().as_str()),
            "docs/compare.md's row for {name}"
        );
    }
}

/// ARCHITECTURE.md names every file of the code (issue 40): each source file of the crates, the
/// page, the benches, the fuzz targets and the scripts, by its name — a name that several files
/// share, as often as there are such files. A folder's `mod.rs` / `lib.rs` is its entry.
#[test]
fn the_architecture_names_every_file() {
    let root = coherency_test_support::workspace_root();
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    let mut dirs: Vec<std::path::PathBuf> =
        ["src", "benches", "www", "scripts", "fuzz/fuzz_targets", "fuzz/src"].iter().map(|d| root.join(d)).collect();
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
        let krate = entry.expect("a crates/ entry").path();
        dirs.extend(["src", "benches"].iter().map(|d| krate.join(d)));
    }
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let mut by_name: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for file in &files {
        let name = file.file_name().unwrap_or_default().to_string_lossy().to_string();
        if name == "mod.rs" || name == "lib.rs" || name.starts_with('.') || name.ends_with('~') {
            continue;
        }
        let rel = file.strip_prefix(&root).unwrap_or(file).to_string_lossy().replace('\\', "/");
        by_name.entry(name).or_default().push(rel);
    }
    let named = |name: &str| {
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
        doc.match_indices(name)
            .filter(|(i, _)| {
                let before = doc[..*i].chars().next_back();
                let after = doc[i + name.len()..].chars().next();
                !before.is_some_and(|c| word(c) || c == '.') && !after.is_some_and(word)
            })
            .count()
    };
    let missing: Vec<String> = by_name
        .iter()
        .filter(|(name, paths)| named(name) < paths.len())
        .map(|(name, paths)| {
            format!("{name}: {} file(s) ({}), named {} time(s)", paths.len(), paths.join(", "), named(name))
        })
        .collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md's code map does not name:\n{}", missing.join("\n"));
    assert!(by_name.len() > 250, "the walk found the code ({} names)", by_name.len());
}
