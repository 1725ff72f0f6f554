//! The Web Worker's side of reading a file (wasm32 only; `www/worker.js` loads this same module
//! in a worker and calls [`read_file_in_worker`]). The file is read in slices with
//! `FileReaderSync` (never one giant copy), parsed and analysed by the core, with progress
//! posted to the page as it goes; the result goes back as one transferred buffer
//! ([`super::wire`]). The raw bytes are dropped as soon as they are parsed.

use std::cell::Cell;

use js_sys::{Array, Function, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use super::load_view::{Progress, Stage};
use super::wire::{encode, texts_len, Loaded};
use crate::ingest::{self, AnalysisProgress, Format};

/// Bytes per `Blob.slice` read.
const SLICE: usize = 4 * 1024 * 1024;
/// At most one progress message per this many milliseconds (and one per stage).
const PROGRESS_EVERY_MS: f64 = 40.0;

fn object(pairs: &[(&str, &JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

/// Posts progress through `post`, at most every [`PROGRESS_EVERY_MS`] unless `force`.
struct Reporter<'a> {
    post: &'a Function,
    last: Cell<f64>,
}

impl Reporter<'_> {
    fn send(&self, p: &Progress, force: bool) {
        let now = js_sys::Date::now();
        if !force && now - self.last.get() < PROGRESS_EVERY_MS {
            return;
        }
        self.last.set(now);
        let json = serde_json::to_string(p).unwrap_or_default();
        let msg = object(&[("kind", &"progress".into()), ("progress", &json.into())]);
        let _ = self.post.call2(&JsValue::NULL, &msg, &Array::new());
    }
}

/// Reads `file` as `format` (a [`Format`] name; anything else means the detected format),
/// calling `post(message, transfer)` with `{kind: "progress", progress: JSON}` as it goes and
/// finally `{kind: "done", pieces: JSON, buffer: ArrayBuffer, texts: ArrayBuffer}` (both
/// buffers transferred).
#[wasm_bindgen(js_name = readFileInWorker)]
pub fn read_file_in_worker(file: web_sys::File, format: Option<String>, post: Function) -> Result<(), JsValue> {
    let reporter = Reporter { post: &post, last: Cell::new(0.0) };
    let size = file.size() as usize;
    let mut progress = Progress { stage: Stage::Reading, ..Progress::default() };
    reporter.send(&progress, true);

    let mut bytes: Vec<u8> = Vec::new();
    bytes.try_reserve_exact(size).map_err(|_| JsValue::from_str("not enough memory for this file"))?;
    let reader = web_sys::FileReaderSync::new()?;
    while bytes.len() < size {
        let at = bytes.len();
        let slice = file.slice_with_f64_and_f64(at as f64, (at + SLICE).min(size) as f64)?;
        let piece = Uint8Array::new(&reader.read_as_array_buffer(&slice)?.into());
        let n = piece.length() as usize;
        if n == 0 {
            break; // The file shrank while being read: take what there is.
        }
        bytes.resize(at + n, 0);
        piece.copy_to(&mut bytes[at..]);
        progress.read = bytes.len();
        reporter.send(&progress, false);
    }

    progress.stage = Stage::Parsing;
    reporter.send(&progress, true);
    let detected = ingest::detect(&bytes);
    let chosen = format.as_deref().and_then(Format::from_name);
    // The bytes go into the parser (plain text becomes its one message without a copy).
    let transcript = ingest::parse_owned(bytes, chosen.unwrap_or(detected));

    progress.stage = Stage::Analysing;
    progress.messages = Some(transcript.messages.len());
    let mut last_worst = (None, None);
    let report = ingest::analyze_transcript_with(&transcript, &mut |a: AnalysisProgress| {
        progress.analysis = Some(a);
        // A new worst verdict, or a long text's preview, is news: say it at once.
        let now = (a.worst, a.preview);
        let news = now != last_worst || a.texts_done == 0;
        last_worst = now;
        reporter.send(&progress, news);
    });

    let loaded = Loaded { size, detected, chosen, transcript, report };
    // Each text goes straight into the buffer the page gets (and is freed here at once).
    let texts = Uint8Array::new_with_length(texts_len(&loaded) as u32);
    let mut at = 0u32;
    let wire = encode(loaded, &mut |t: &str| {
        let end = at + t.len() as u32;
        texts.subarray(at, end).copy_from(t.as_bytes());
        at = end;
    });
    let buffer = Uint8Array::new_with_length(wire.bytes.len() as u32);
    buffer.copy_from(&wire.bytes);
    let pieces = serde_json::to_string(&wire.pieces).unwrap_or_default();
    drop(wire);
    let msg = object(&[
        ("kind", &"done".into()),
        ("pieces", &pieces.into()),
        ("buffer", &buffer.buffer().into()),
        ("texts", &texts.buffer().into()),
    ]);
    post.call2(&JsValue::NULL, &msg, &Array::of2(&buffer.buffer(), &texts.buffer()))?;
    Ok(())
}
