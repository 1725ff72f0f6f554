//! Files compared in the worker (`www/worker.js`'s `compare` job): the page hands over two or
//! more files and asks for the view (`coherency_worker_wire::compare::CompareView`) or a report
//! (Markdown, HTML, JSON) — made by the same core functions as `coherency compare`'s; or hands
//! over captures and asks for them as a golden file (`golden`: `compare --save-golden`). The
//! reference is the golden file among them, else the first file; the others are the
//! candidates, but for the last `noise` files: a second run of the reference, its difference
//! from the reference the noise floor shown beside the candidate's (the live mode's B run twice).
//! Files dropped together (`noise` 0) find their own noise floor: a file whose every output
//! names the reference's server and model, when another file names a different one, is a second
//! run of the reference (`coherency compare --noise-floor`), not a candidate — two captures of
//! the reference and one of the server under test, or a golden file, a second reference run and
//! the candidate's. Files that are not outputs to compare (no reply in them) are an error in words:
//! the page then opens the first as it opens any file. Pure but for the wasm export:
//! unit-tested natively.

use std::collections::BTreeSet;

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;

use coherency_core::analyze::Thresholds;
use coherency_core::compare::{golden_file, read_outputs, CompareReport, InputKind, Output};
use coherency_core::render::compare_html::compare_html;
use coherency_core::render::compare_json::compare_json;
use coherency_core::render::compare_markdown::compare_markdown;
use coherency_worker_wire::compare::{encode_view, CompareView};

/// The comparison of `files` (name, bytes; the last `noise` of them a second run of the
/// reference) against `thresholds`' comparison rules, as `what` asks: `view` (a postcard
/// [`CompareView`]), `markdown`, `html` or `json` (the CLI's reports).
pub fn compare_files(
    files: &[(String, Vec<u8>)],
    noise: usize,
    thresholds: &Thresholds,
    what: &str,
) -> Result<Vec<u8>, String> {
    if files.len() < noise + 2 {
        return Err("a comparison needs two files: a reference (or a golden file) and a candidate".into());
    }
    let (files, noise_files) = files.split_at(files.len() - noise);
    let mut noise_read: Vec<(String, Vec<Output>)> =
        noise_files.iter().map(|(name, bytes)| (name.clone(), read_outputs(name, bytes).outputs)).collect();
    let mut read: Vec<(String, InputKind, Vec<Output>)> = Vec::new();
    let mut problems = Vec::new();
    for (name, bytes) in files {
        let r = read_outputs(name, bytes);
        if r.outputs.is_empty() {
            let why = r.problems.first().cloned().unwrap_or_else(|| "it holds no output".into());
            return Err(format!("{name} holds no output to compare ({why})"));
        }
        problems.extend(r.problems.iter().map(|p| format!("{name}: {p}")));
        read.push((name.clone(), r.kind, r.outputs));
    }
    let reference = read.iter().position(|(_, kind, _)| *kind == InputKind::Golden).unwrap_or(0);
    let (reference_name, _, reference_outputs) = read.remove(reference);
    if noise == 0 {
        for i in reference_again(&reference_outputs, &read).into_iter().rev() {
            let (name, _, outputs) = read.remove(i);
            noise_read.insert(0, (name, outputs));
        }
    }
    let noise_names: Vec<String> = noise_read.iter().map(|(n, _)| n.clone()).collect();
    let noise_outputs: Vec<Output> = noise_read.into_iter().flat_map(|(_, o)| o).collect();
    let noise = (!noise_names.is_empty()).then_some((noise_names, noise_outputs.as_slice()));
    let names: Vec<String> = read.iter().map(|(n, _, _)| n.clone()).collect();
    let candidates: Vec<Output> = read.into_iter().flat_map(|(_, _, o)| o).collect();
    let report = CompareReport::new(
        (&reference_name, &reference_outputs),
        (names, &candidates),
        noise,
        thresholds.compare,
        problems,
    );
    match what {
        "view" => Ok(encode_view(&CompareView::of(&report))),
        "markdown" => Ok(compare_markdown(&report).into_bytes()),
        "html" => Ok(compare_html(&report).into_bytes()),
        "json" => Ok((compare_json(&report) + "\n").into_bytes()),
        other => Err(format!("the page asked for a comparison as '{other}'")),
    }
}

/// The server and model every output names, when each names its model.
fn identity(outputs: &[Output]) -> Option<BTreeSet<(Option<&str>, &str)>> {
    outputs.iter().map(|o| Some((o.server.as_deref(), o.model.as_deref()?))).collect()
}

/// Which of `files` (the reference taken out) are a second run of the reference: those whose
/// outputs name the reference's server and model, when some other file names another (else
/// nothing tells the candidate from the reference run again, and none is).
fn reference_again(reference: &[Output], files: &[(String, InputKind, Vec<Output>)]) -> Vec<usize> {
    let Some(reference) = identity(reference) else { return Vec::new() };
    let ids: Vec<_> = files.iter().map(|(_, _, o)| identity(o)).collect();
    let other = ids.iter().any(|id| id.as_ref().is_some_and(|id| *id != reference));
    if !other {
        return Vec::new();
    }
    ids.iter().enumerate().filter(|(_, id)| id.as_ref() == Some(&reference)).map(|(i, _)| i).collect()
}

/// The outputs of `files` as one golden file (`coherency compare --save-golden`); an error in
/// words when they hold none.
pub fn golden_of(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let outputs: Vec<Output> = files.iter().flat_map(|(name, bytes)| read_outputs(name, bytes).outputs).collect();
    if outputs.is_empty() {
        return Err("no output to save as a golden file".into());
    }
    Ok(golden_file(&outputs).into_bytes())
}

/// [`compare_files`] for the page (`what` `golden`: [`golden_of`]): `files` an array of `Uint8Array`s, `names` their names,
/// `noise` how many of the last are the noise floor, `thresholds` [`Thresholds::compact`]
/// (none: the defaults).
#[wasm_bindgen(js_name = compareInWorker)]
pub fn compare_in_worker(
    files: Array,
    names: Array,
    noise: Option<u32>,
    thresholds: Option<String>,
    what: &str,
) -> Result<Vec<u8>, JsValue> {
    let thresholds = Thresholds::from_compact(thresholds.as_deref().unwrap_or_default())
        .map_err(|e| JsValue::from_str(&format!("the thresholds sent to the worker did not read back ({e})")))?;
    let files: Vec<(String, Vec<u8>)> = files
        .iter()
        .zip(names.iter())
        .map(|(bytes, name)| (name.as_string().unwrap_or_default(), Uint8Array::new(&bytes).to_vec()))
        .collect();
    let made = if what == "golden" {
        golden_of(&files)
    } else {
        compare_files(&files, noise.unwrap_or(0) as usize, &thresholds, what)
    };
    made.map_err(|e| JsValue::from_str(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_worker_wire::compare::decode_view;

    fn sse(text: &str) -> Vec<u8> {
        format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{text:?}}},\"finish_reason\":\"stop\"}}]}}\n\ndata: [DONE]\n\n").into_bytes()
    }

    #[test]
    fn two_captures_compare_and_the_reports_are_the_clis() {
        let files = vec![
            ("ref.sse".to_string(), sse("Paris is the capital.")),
            ("new.sse".to_string(), sse("Paris is a city.")),
        ];
        let view = decode_view(&compare_files(&files, 0, &Thresholds::SEED, "view").unwrap()).unwrap();
        assert!(view.title.contains("ref.sse") && view.title.contains("new.sse"), "{}", view.title);
        assert!(view.prompts[0].parted, "{view:?}");
        let md = String::from_utf8(compare_files(&files, 0, &Thresholds::SEED, "markdown").unwrap()).unwrap();
        assert!(md.contains(&view.sentence), "{md}");
        let json: serde_json::Value =
            serde_json::from_slice(&compare_files(&files, 0, &Thresholds::SEED, "json").unwrap()).unwrap();
        assert_eq!(json["verdict"], view.verdict.as_str(), "{json}");
        let html = String::from_utf8(compare_files(&files, 0, &Thresholds::SEED, "html").unwrap()).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>") || html.starts_with("<!doctype html>"), "{}", &html[..40]);
        // The same file twice: identical.
        let same = vec![files[0].clone(), ("again.sse".to_string(), files[0].1.clone())];
        let view = decode_view(&compare_files(&same, 0, &Thresholds::SEED, "view").unwrap()).unwrap();
        assert_eq!(view.reading, "identical");
    }

    #[test]
    fn files_that_are_not_outputs_are_refused_in_words() {
        let files = vec![("ref.sse".to_string(), sse("Hi.")), ("notes.txt".to_string(), b"just some notes".to_vec())];
        let e = compare_files(&files, 0, &Thresholds::SEED, "view").unwrap_err();
        assert!(e.starts_with("notes.txt holds no output to compare"), "{e}");
        assert!(compare_files(&files[..1], 0, &Thresholds::SEED, "view").unwrap_err().contains("two files"));
        let two = vec![files[0].clone(), files[0].clone()];
        assert!(compare_files(&two, 0, &Thresholds::SEED, "pdf").unwrap_err().contains("'pdf'"));
    }

    #[test]
    fn the_last_files_can_be_the_reference_run_again_the_noise_floor() {
        let files = vec![
            ("B.sse".to_string(), sse("Paris is the capital.")),
            ("A.sse".to_string(), sse("Paris is a city.")),
            ("R.sse".to_string(), sse("Paris is the capital.")),
        ];
        let view = decode_view(&compare_files(&files, 1, &Thresholds::SEED, "view").unwrap()).unwrap();
        assert!(view.title.contains("A.sse") && !view.title.contains("R.sse"), "{}", view.title);
        let identical = view.figures.iter().find(|f| f.name == "identical").unwrap();
        assert_eq!((identical.candidate.as_str(), identical.noise.as_deref()), ("0 of 1", Some("1 of 1")));
        assert!(view.sentence.contains("the reference against itself: 1 of 1 identical"), "{}", view.sentence);
        assert!(compare_files(&files[..2], 1, &Thresholds::SEED, "view").unwrap_err().contains("two files"));
    }

    fn sse_of(model: &str, text: &str) -> Vec<u8> {
        format!("data: {{\"model\":{model:?},\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{text:?}}},\"finish_reason\":\"stop\"}}]}}\n\ndata: [DONE]\n\n").into_bytes()
    }

    #[test]
    fn dropped_files_of_the_references_model_run_again_are_the_noise_floor() {
        let (reference, candidate) = ("Paris is the capital.", "Paris is a city.");
        let noise_of = |files: &[(String, Vec<u8>)]| {
            let view = decode_view(&compare_files(files, 0, &Thresholds::SEED, "view").unwrap()).unwrap();
            let identical = view.figures.iter().find(|f| f.name == "identical").unwrap().clone();
            (view.title, identical.candidate, identical.noise)
        };
        // Two captures of the reference and one of the server under test, in any order.
        let files = vec![
            ("ref.sse".to_string(), sse_of("good", reference)),
            ("new.sse".to_string(), sse_of("patched", candidate)),
            ("ref-again.sse".to_string(), sse_of("good", reference)),
        ];
        let (title, candidate_said, noise) = noise_of(&files);
        assert!(title.contains("new.sse") && !title.contains("ref-again.sse"), "{title}");
        assert_eq!((candidate_said.as_str(), noise.as_deref()), ("0 of 1", Some("1 of 1")));
        // A golden file of the reference, a second reference run and the candidate.
        let golden = golden_of(&files[..1]).unwrap();
        let files = vec![
            ("new.sse".to_string(), sse_of("patched", candidate)),
            ("again.sse".to_string(), sse_of("good", "Paris is the capital city.")),
            ("golden.jsonl".to_string(), golden),
        ];
        let (title, candidate_said, noise) = noise_of(&files);
        assert!(title.contains("new.sse") && title.ends_with("good (golden.jsonl)"), "{title}");
        assert_eq!(
            (candidate_said.as_str(), noise.as_deref()),
            ("0 of 1", Some("0 of 1")),
            "the reference parts from itself"
        );
        // Every file the reference's model: nothing tells them apart, all are candidates.
        let same = vec![
            ("ref.sse".to_string(), sse_of("good", reference)),
            ("new.sse".to_string(), sse_of("good", candidate)),
            ("again.sse".to_string(), sse_of("good", reference)),
        ];
        assert_eq!(noise_of(&same).2, None);
        // A file that names no model is never taken for the reference again.
        let unnamed = vec![
            ("ref.sse".to_string(), sse(reference)),
            ("new.sse".to_string(), sse_of("patched", candidate)),
            ("again.sse".to_string(), sse(reference)),
        ];
        assert_eq!(noise_of(&unnamed).2, None);
    }

    #[test]
    fn captures_saved_as_a_golden_file_compare_as_the_reference() {
        let captures = vec![("B.sse".to_string(), sse("Paris is the capital."))];
        let golden = golden_of(&captures).unwrap();
        assert!(golden.starts_with(b"{\"coherency_golden\":"), "{}", String::from_utf8_lossy(&golden));
        let files = vec![("A.sse".to_string(), sse("Paris is a city.")), ("golden.jsonl".to_string(), golden)];
        let view = decode_view(&compare_files(&files, 0, &Thresholds::SEED, "view").unwrap()).unwrap();
        assert!(view.title.ends_with("against the reference golden.jsonl"), "{}", view.title);
        assert!(golden_of(&[("x.txt".to_string(), b"notes".to_vec())]).is_err());
    }
}
