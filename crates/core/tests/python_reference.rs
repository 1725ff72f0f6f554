//! Cross-check against the seed's Python reference (`shared/calibration/seed_heuristics.py`).
//!
//! On generated texts of many shapes and sizes: maxrun and maxline must equal the script's,
//! exactly; the gzip ratio must stay within 0.003 of Python's zlib for texts of 1 KB and more,
//! and equal it to 4 decimals on the calibration inputs. Prints the largest ratio deviation by
//! size band (`cargo test --test integration python_reference:: -- --nocapture`).
//!
//! Runs when `python3` and the script are present (the script is found beside the repository
//! as `../shared/calibration/seed_heuristics.py`, or at `$SEED_HEURISTICS`); otherwise it says
//! so and passes, since the reference is not part of this repository.

use coherency_core::analyze::{analyze, gzip_ratio::gzip_size};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use coherency_test_support::textgen;
use textgen::{prose, Rng, CJK, WORDS};

fn generated_inputs() -> Vec<(String, String)> {
    let mut rng = Rng::new(0xC0FFEE);
    let mut out = Vec::new();
    for &len in &[120, 400, 1_000, 1_500, 3_000, 10_000, 30_000, 70_000, 150_000, 400_000] {
        out.push((format!("prose-{len}"), prose(&mut rng, len, WORDS, " ")));
        out.push((format!("cjk-{len}"), prose(&mut rng, len, CJK, "")));
        let unit_len = 20 + rng.below(60);
        let unit = prose(&mut rng, unit_len, WORDS, " ");
        let line = unit.trim().replace('\n', " ");
        out.push((format!("line-loop-{len}"), format!("{line}\n").repeat(len / (line.len() + 1) + 1)));
        let word = rng.pick(WORDS);
        out.push((format!("word-loop-{len}"), format!("{word} ").repeat(len / (word.len() + 1) + 1)));
        let head = prose(&mut rng, len / 2, WORDS, " ");
        out.push((
            format!("late-loop-{len}"),
            format!("{head}{}", format!("{line}\n").repeat(len / 2 / (line.len() + 1) + 1)),
        ));
        out.push((format!("nospace-{len}"), "No".repeat(len / 2)));
        let mut mixed = String::new();
        while mixed.len() < len {
            let piece = match rng.below(9) {
                0 => "\u{3000}",
                1 => "\u{a0}",
                2 => "\u{2028}",
                3 => "\u{85}",
                4 => "\x1c",
                5 => "\t\x0b",
                6 => "🙂 🙂 ",
                7 => "\n  same line  \n",
                _ => rng.pick(WORDS),
            };
            mixed.push_str(piece);
            mixed.push(' ');
        }
        out.push((format!("unicode-ws-{len}"), mixed));
    }
    // Carriage returns: Python's text mode turns them into "\n" before measuring, which changes
    // the byte count, so only maxrun and maxline are compared on these.
    out.push(("crlf".into(), "a line\r\na line\r\n\r\nb b b b b b b\rc\r\n".repeat(30)));
    out.push(("calibration-the".into(), vec!["the"; 4000].join(" ")));
    out.push(("calibration-line".into(), vec!["All work and no play makes Jack a dull boy."; 400].join("\n")));
    out
}

fn reference_script() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SEED_HEURISTICS") {
        return Some(PathBuf::from(p));
    }
    let p = coherency_test_support::workspace_root().join("../shared/calibration/seed_heuristics.py");
    p.exists().then_some(p)
}

fn python_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = Command::new("python3").args(args).output().expect("python3 runs");
    assert!(out.status.success(), "python3 failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_slice(l.as_bytes()).unwrap()).collect()
}

#[test]
fn numbers_match_the_python_reference() {
    let Some(script) = reference_script() else {
        eprintln!("SKIPPED: seed_heuristics.py not found beside the repository (set SEED_HEURISTICS)");
        return;
    };
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: python3 is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("coherency-pyref-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = generated_inputs();
    let paths: Vec<String> = inputs
        .iter()
        .map(|(name, text)| {
            let p = dir.join(format!("{name}.txt"));
            std::fs::write(&p, text).unwrap();
            p.to_string_lossy().into_owned()
        })
        .collect();
    let mut args = vec![script.to_str().unwrap()];
    args.extend(paths.iter().map(String::as_str));
    let reference = python_lines(&args);
    let exact_gzip = python_lines(
        &[&["-c", "import gzip,sys,json\nfor p in sys.argv[1:]: print(json.dumps(len(gzip.compress(open(p,'rb').read()))))"][..], &paths.iter().map(String::as_str).collect::<Vec<_>>()[..]].concat(),
    );

    let mut worst_by_band: BTreeMap<&str, (f64, String)> = BTreeMap::new();
    for (((name, text), want), zlib_size) in inputs.iter().zip(&reference).zip(&exact_gzip) {
        let r = analyze(text);
        assert_eq!(r.metrics.maxrun as u64, want["maxrun"].as_u64().unwrap(), "maxrun of {name}");
        assert_eq!(r.metrics.maxline as u64, want["maxline"].as_u64().unwrap(), "maxline of {name}");

        let zlib_ratio = zlib_size.as_u64().unwrap() as f64 / text.len() as f64;
        let deviation = (r.metrics.gzip_ratio - zlib_ratio).abs();
        let band = match text.len() {
            0..1_000 => "a: < 1 KB",
            1_000..10_000 => "b: 1–10 KB",
            10_000..100_000 => "c: 10–100 KB",
            _ => "d: ≥ 100 KB",
        };
        let entry = worst_by_band.entry(band).or_insert((0.0, String::new()));
        if deviation >= entry.0 {
            *entry = (deviation, format!("{name} ({} vs zlib {} bytes)", gzip_size(text.as_bytes()), zlib_size));
        }
        if text.len() >= 1_000 {
            assert!(deviation <= 0.003, "gzip ratio of {name}: {} vs zlib {zlib_ratio}", r.metrics.gzip_ratio);
        }
        if !text.contains('\r') {
            let theirs = want["gzip_ratio"].as_f64().unwrap();
            assert_eq!(r.bytes as u64, want["bytes"].as_u64().unwrap(), "bytes of {name}");
            if name.starts_with("calibration") {
                assert_eq!(format!("{:.4}", r.metrics.gzip_ratio), format!("{theirs:.4}"), "ratio of {name}");
            }
            assert_eq!(r.seed_verdict.as_str(), want["verdict"].as_str().unwrap(), "verdict of {name}");
        }
    }
    eprintln!("largest |ratio − zlib ratio| by size band ({} inputs):", inputs.len());
    for (band, (dev, at)) in &worst_by_band {
        eprintln!("  {band:<14} {dev:.5}  at {at}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
