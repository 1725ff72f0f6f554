//! The core's layers, held: each module under `src/` names (`crate::x`, or `super::…::x`
//! reaching the crate root) only the modules below it in `LAYERS`, so the arrows point one
//! way: `wording` and `samples` are leaves; `stream` knows nothing of the analysis; `analyze`
//! judges one text; `ingest` only reads (stream ← ingest, no analysis); `judge` is the one
//! place that judges transcripts (analyze, ingest ← judge); `live` sits on top.
//!
//! Within the crate, no files import each other, directly or round a circle
//! (`no_files_import_each_other_even_round_a_circle`): a type files share lives in a file below them.
//!
//! Doc links count as naming for the layers (not for the files' imports). Test code (an item gated on `test`: a file's `mod tests`, a
//! test-only file) may name any module, as the tests under `tests/` do: the layers are about
//! the code that ships.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Every module of the crate, bottom layer first, and the modules it may name. A module may
/// only name modules listed before it.
const LAYERS: &[(&str, &[&str])] = &[
    ("wording", &[]),
    ("samples", &[]),
    ("splitmix", &[]),
    ("stream", &["wording"]),
    ("analyze", &["splitmix", "wording"]),
    ("ingest", &["stream", "wording"]),
    ("judge", &["analyze", "ingest", "splitmix", "wording"]),
    ("compare", &["stream", "analyze", "ingest", "wording"]),
    ("live", &["stream", "analyze", "ingest", "judge", "compare", "splitmix", "wording"]),
    ("render", &["stream", "analyze", "ingest", "judge", "compare", "wording"]),
];

#[test]
fn each_module_names_only_the_modules_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut broken = Vec::new();
    for file in rust_files(&src) {
        let rel = file.strip_prefix(&src).unwrap_or(&file).to_string_lossy().replace('\\', "/");
        if rel == "lib.rs" || test_only(&src, &rel) {
            continue;
        }
        let path = module_path(&rel);
        let Some(&(module, allowed)) = LAYERS.iter().find(|(m, _)| *m == path[0]) else {
            broken.push(format!("src/{rel}: module `{}` has no place in LAYERS (tests/layers.rs)", path[0]));
            continue;
        };
        let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (line, named) in names(&shipped_code(&text), path.len()) {
            if named != module && !allowed.contains(&named) {
                let may = if allowed.is_empty() { "no other module".to_string() } else { allowed.join(", ") };
                broken.push(format!("src/{rel}:{line} names `crate::{named}`, but `{module}` may name only {may}"));
            }
        }
    }
    assert!(broken.is_empty(), "the core's layers are broken (see tests/layers.rs):\n{}", broken.join("\n"));
}

#[test]
fn the_layers_point_one_way_and_list_every_module() {
    for (i, (module, allowed)) in LAYERS.iter().enumerate() {
        for named in *allowed {
            let below = LAYERS[..i].iter().any(|(m, _)| m == named);
            assert!(below, "`{module}` may name `{named}`, which is not listed before it: a cycle or a typo");
        }
    }
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).expect("src/lib.rs");
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod ")))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let listed: BTreeSet<&str> = LAYERS.iter().map(|(m, _)| *m).collect();
    assert_eq!(declared, listed, "src/lib.rs's modules and LAYERS differ");
}

#[test]
fn every_way_of_naming_a_module_is_seen() {
    let code = "use crate::analyze::Report;\n\
                use crate::{ingest::Format, stream};\n\
                /// See [`crate::judge::MessageRow`].\n\
                let q = super::super::wording::quote(x);\n\
                use super::report::Check;\n\
                macro_rules! m { () => { $crate::live::x() } }\n";
    let got: Vec<(usize, &str)> = names(code, 2);
    assert_eq!(got, [(1, "analyze"), (2, "ingest"), (2, "stream"), (3, "judge"), (4, "wording")]);
    // From a module's own `mod.rs`, one `super` reaches the crate root.
    assert_eq!(names("use super::analyze::Verdict;", 1), [(1, "analyze")]);
    // Test code is not read.
    let code = "use crate::wording::x;\n#[cfg(test)]\nmod tests {\n    use crate::live::y;\n}\nfn after() {}\n";
    assert_eq!(shipped_code(code).lines().count(), 6, "lines kept, so that line numbers hold");
    assert_eq!(names(&shipped_code(code), 2), [(1, "wording")]);
}

#[test]
fn no_files_import_each_other_even_round_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: Vec<(String, String)> = rust_files(&src)
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).unwrap_or(&f).to_string_lossy().replace('\\', "/");
            let text = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (rel, code_only(&shipped_code(&text)))
        })
        .filter(|(rel, _)| !test_only(&src, rel))
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(rel, _)| own_path(rel)).collect();
    // What each folder's `mod.rs` re-exports, and from which of its files: `(folder, name) → file`.
    let mut reexports: Vec<(Vec<String>, String, Vec<String>)> = Vec::new();
    for (rel, code) in &files {
        let here = own_path(rel);
        for line in code.lines().filter_map(|l| l.strip_prefix("pub use ")) {
            for path in use_paths(line.trim_end_matches(';')) {
                let [child, .., last] = path.as_slice() else { continue };
                let name = last.rsplit(" as ").next().unwrap_or(last).to_string();
                reexports.push((here.clone(), name, [here.clone(), vec![child.clone()]].concat()));
            }
        }
    }
    let mut imports: BTreeSet<(Vec<String>, Vec<String>)> = BTreeSet::new();
    for (rel, code) in &files {
        let here = own_path(rel);
        for path in code.lines().flat_map(|l| named_paths(l, &here, &modules)) {
            let Some(k) = (0..=path.len()).rev().find(|&k| modules.contains(&path[..k])) else { continue };
            let mut target = path[..k].to_vec();
            if let Some(next) = path.get(k) {
                if let Some((_, _, file)) = reexports.iter().find(|(m, n, _)| *m == target && n == next) {
                    target = file.clone();
                }
            }
            if !target.is_empty() && target != here {
                imports.insert((here.clone(), target));
            }
        }
    }
    let circles = circles(&imports);
    assert!(
        circles.is_empty(),
        "these files import each other, directly or round a circle (let what they share live below them):\n{}",
        circles
            .iter()
            .map(|c| c.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" → "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Circles in the graph of `edges` (a → b): for each file on one, one circle through it, from
/// a depth-first search (each circle once, starting at its smallest file).
fn circles(edges: &BTreeSet<(Vec<String>, Vec<String>)>) -> Vec<Vec<Vec<String>>> {
    let nodes: BTreeSet<&Vec<String>> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    let next = |a: &Vec<String>| -> Vec<Vec<String>> {
        edges.iter().filter(|(x, _)| x == a).map(|(_, b)| b.clone()).collect()
    };
    let mut found: Vec<Vec<Vec<String>>> = Vec::new();
    for start in &nodes {
        // Paths from `start` through files after it only; a path back to `start` is a circle.
        let mut stack: Vec<Vec<Vec<String>>> = vec![vec![(*start).clone()]];
        let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
        while let Some(path) = stack.pop() {
            let last = path.last().expect("a path has a file").clone();
            for b in next(&last) {
                if &b == *start {
                    found.push([path.clone(), vec![b]].concat());
                } else if b > **start && seen.insert(b.clone()) {
                    stack.push([path.clone(), vec![b]].concat());
                }
            }
            if found.last().is_some_and(|c| &c[0] == *start) {
                break;
            }
        }
    }
    found
}

#[test]
fn a_circle_of_three_files_is_found() {
    let p = |s: &str| vec![s.to_string()];
    let edges: BTreeSet<(Vec<String>, Vec<String>)> =
        [(p("a"), p("b")), (p("b"), p("c")), (p("c"), p("a")), (p("c"), p("d"))].into_iter().collect();
    assert_eq!(circles(&edges), [vec![p("a"), p("b"), p("c"), p("a")]]);
    let edges: BTreeSet<(Vec<String>, Vec<String>)> = [(p("a"), p("b")), (p("b"), p("c"))].into_iter().collect();
    assert!(circles(&edges).is_empty());
}

#[test]
fn the_paths_a_file_names_are_seen() {
    let modules: BTreeSet<Vec<String>> =
        [vec!["a"], vec!["a", "b"], vec!["a", "c"]].iter().map(|m| m.iter().map(|s| s.to_string()).collect()).collect();
    let here: Vec<String> = vec!["a".into(), "b".into()];
    let got = named_paths("use super::c::{X, d::Y}; let z = crate::e::f(1);", &here, &modules);
    let want: Vec<Vec<&str>> = vec![vec!["a", "c", "X"], vec!["a", "c", "d", "Y"], vec!["e", "f"]];
    assert_eq!(got, want);
    let here: Vec<String> = vec!["a".into()];
    assert_eq!(named_paths("pub use c::{X as Y};", &here, &modules), [vec!["a", "c", "X as Y"]]);
    assert_eq!(code_only("use x; // use crate::y\n/// [`crate::z`]\nfn f() {}"), "use x; \n\nfn f() {}");
}

/// A file's own module path: `analyze/judge.rs` → `[analyze, judge]`, `lib.rs` → `[]`.
fn own_path(rel: &str) -> Vec<String> {
    let path = module_path(rel);
    if path == ["lib"] {
        Vec::new()
    } else {
        path.into_iter().map(str::to_string).collect()
    }
}

/// `code` without its comments (line comments and doc comments), line for line.
fn code_only(code: &str) -> String {
    code.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

/// The crate paths one line of the file `here` names (`crate::…`, `super::…`, `self::…`, and a
/// `use` of one of its own submodules), from the crate root, a `{…}` group expanded.
fn named_paths(line: &str, here: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some((start, rest)) = next_path(line, at) {
        at = start + 1;
        let mut base: Vec<String> = Vec::new();
        let mut rest = rest;
        if let Some(r) = rest.strip_prefix("crate::") {
            rest = r;
        } else {
            base = here.to_vec();
            while let Some(r) = rest.strip_prefix("super::") {
                rest = r;
                base.pop();
            }
        }
        for path in use_paths(rest) {
            out.push([base.clone(), path].concat());
        }
    }
    let local = line.trim_start().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
    let local = local.trim_start_matches("pub(super) ").strip_prefix("use ").unwrap_or("");
    let local = local.strip_prefix("self::").unwrap_or(local);
    if modules.contains(&[here.to_vec(), vec![ident(local).to_string()]].concat()) {
        for path in use_paths(local.trim_end_matches(';')) {
            out.push([here.to_vec(), path].concat());
        }
    }
    out
}

/// The paths of a use tree or a path in code: `a::{b, c::D}` → `[a, b]`, `[a, c, D]`;
/// `a::f(1)` → `[a, f]`. A renaming (`X as Y`) is kept whole in the last segment.
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    let mut segments = Vec::new();
    let mut rest = tree.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut out = Vec::new();
            let (mut nesting, mut item_start) = (0usize, 0usize);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => nesting += 1,
                    '}' | ',' if nesting == 0 => {
                        let item = group[item_start..i].trim();
                        match use_paths(item) {
                            paths if paths.is_empty() && item == "self" => out.push(segments.clone()),
                            paths => out.extend(paths.into_iter().map(|p| [segments.clone(), p].concat())),
                        }
                        item_start = i + 1;
                        if c == '}' {
                            break;
                        }
                    }
                    '}' => nesting -= 1,
                    _ => {}
                }
            }
            return out;
        }
        let name = ident(rest);
        if name.is_empty() {
            break;
        }
        rest = &rest[name.len()..];
        if let Some(alias) = rest.strip_prefix(" as ") {
            segments.push(format!("{name} as {}", ident(alias)));
            break;
        }
        if name != "self" {
            segments.push(name.to_string());
        }
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    if segments.is_empty() {
        Vec::new()
    } else {
        vec![segments]
    }
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir).expect("src/").filter_map(|e| Some(e.ok()?.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// `analyze/judge.rs` → `[analyze, judge]`; `analyze/mod.rs` → `[analyze]`.
fn module_path(rel: &str) -> Vec<&str> {
    let mut path: Vec<&str> = rel.trim_end_matches(".rs").split('/').collect();
    if path.len() > 1 && path.last() == Some(&"mod") {
        path.pop();
    }
    path
}

/// Whether the file `rel` is a module its parent declares only for tests (`#[cfg(test)] mod x;`).
fn test_only(src: &Path, rel: &str) -> bool {
    let path = module_path(rel);
    let Some((name, parent)) = path.split_last() else { return false };
    let parent_file = if parent.is_empty() { "lib.rs".to_string() } else { format!("{}/mod.rs", parent.join("/")) };
    let Ok(text) = fs::read_to_string(src.join(parent_file)) else { return false };
    let lines: Vec<&str> = text.lines().collect();
    lines.windows(2).any(|w| gated_on_test(w[0]) && w[1].trim_start_matches("pub ") == format!("mod {name};"))
}

fn gated_on_test(line: &str) -> bool {
    line.starts_with("#[cfg(") && line.contains("test")
}

/// `text` with every top-level item gated on `test` (`#[cfg(test)] mod tests { … }`) blanked
/// out, line for line.
fn shipped_code(text: &str) -> String {
    let mut out = Vec::new();
    let mut skipping = false;
    let mut gated = false;
    for line in text.lines() {
        if skipping {
            skipping = line != "}";
            out.push("");
            continue;
        }
        if line.starts_with("#[") {
            gated |= gated_on_test(line);
        } else if gated && line.trim_start_matches("pub ").starts_with("mod ") && line.ends_with('{') {
            skipping = true;
            out.push("");
            continue;
        } else {
            gated = false;
        }
        out.push(line);
    }
    out.join("\n")
}

/// The top-level modules `code` names, with their 1-based lines, in order; `depth` is the
/// length of the file's module path (how many `super`s reach the crate root).
fn names(code: &str, depth: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let mut at = 0;
        while let Some(found) = next_path(line, at) {
            let (start, rest) = found;
            at = start + 1;
            let mut rest = rest;
            let reaches_root = if let Some(r) = rest.strip_prefix("crate::") {
                rest = r;
                true
            } else {
                let mut supers = 0;
                while let Some(r) = rest.strip_prefix("super::") {
                    rest = r;
                    supers += 1;
                }
                supers == depth
            };
            if reaches_root {
                for name in first_segments(rest) {
                    out.push((i + 1, name));
                }
            }
        }
    }
    out
}

/// The next path starting with `crate::` or `super::` at or after byte `from` of `line` (not
/// in the middle of another path or name, not `$crate`): its start and the text from there.
fn next_path(line: &str, from: usize) -> Option<(usize, &str)> {
    let mut at = from;
    loop {
        let rest = line.get(at..)?;
        let offset = [rest.find("crate::"), rest.find("super::")].into_iter().flatten().min()?;
        let start = at + offset;
        let before = line[..start].chars().next_back();
        let inside = before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':');
        if !inside {
            return Some((start, &line[start..]));
        }
        at = start + 1;
    }
}

/// The first segment of a path, or of each path in a `{…}` group: `analyze::X` → `analyze`,
/// `{ingest::Format, stream}` → `ingest`, `stream`.
fn first_segments(rest: &str) -> Vec<&str> {
    let Some(group) = rest.strip_prefix('{') else {
        return Some(ident(rest)).filter(|n| !n.is_empty()).into_iter().collect();
    };
    let mut out = Vec::new();
    let (mut nesting, mut item_start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => nesting += 1,
            '}' if nesting == 0 => {
                out.push(ident(group[item_start..].trim_start()));
                break;
            }
            '}' => nesting -= 1,
            ',' if nesting == 0 => {
                out.push(ident(group[item_start..].trim_start()));
                item_start = i + 1;
            }
            _ => {}
        }
    }
    out.retain(|n| !n.is_empty() && *n != "self");
    out
}

/// The name `s` starts with.
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}
