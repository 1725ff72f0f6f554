//! The Web Worker's side of reading a file (wasm32 only; `www/worker.js` loads this same module in
//! a worker and calls [`read_file_in_worker`]). The file is read a few megabytes at a time (never
//! one giant copy; [`super::blob_reader`]) into [`ingest::Reader`] (a JSONL log is parsed as the
//! slices come, so its bytes are never all held; other files are parsed whole), analysed by the
//! core, with progress posted to the page as it goes; the result goes back in transferred buffers
//! ([`super::wire`]), one per JSON piece, so that nothing big is copied twice here and the page can
//! let go of each piece once it has read it.

use std::cell::Cell;

use js_sys::{Array, Function, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use super::blob_reader::read_blob;
use super::load_view::{Progress, Stage};
use super::wire::{encode, texts_len};
use coherency_core::ingest::{self, Format};
use coherency_core::verdict::{judge_transcript_with_progress, AnalysisProgress, JudgedDocument};

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
        let bytes = postcard::to_allocvec(p).unwrap_or_default();
        let msg = object(&[("kind", &"progress".into()), ("progress", &Uint8Array::from(&bytes[..]).into())]);
        let _ = self.post.call2(&JsValue::NULL, &msg, &Array::new());
    }
}

/// Reads `file` as `format` (a [`Format`] name; anything else means the detected format),
/// calling `post(message, transfer)` with `{kind: "progress", progress: Uint8Array}` (a
/// [`Progress`] in postcard, as the result: no JSON reader of it in the wasm) as it goes and
/// finally `{kind: "done", pieces: [ArrayBuffer], texts: ArrayBuffer}` (all transferred).
#[wasm_bindgen(js_name = readFileInWorker)]
pub async fn read_file_in_worker(file: web_sys::File, format: Option<String>, post: Function) -> Result<(), JsValue> {
    let reporter = Reporter { post: &post, last: Cell::new(0.0) };
    let size = file.size() as usize;
    let mut progress = Progress { stage: Stage::Reading, ..Progress::default() };
    reporter.send(&progress, true);

    let chosen = format.as_deref().and_then(Format::from_name);
    let mut reader = ingest::Reader::new(chosen, size);
    let mut buffer = Vec::new();
    read_blob(&file, &mut |bytes: &Uint8Array| {
        let n = bytes.length() as usize;
        buffer.resize(n, 0);
        bytes.copy_to(&mut buffer);
        reader.feed(&buffer).map_err(|_| JsValue::from_str("not enough memory for this file"))?;
        progress.read += n;
        reporter.send(&progress, false);
        Ok(())
    })
    .await?;
    drop(buffer);

    progress.stage = Stage::Parsing;
    reporter.send(&progress, true);
    let (detected, transcript) = reader.finish();

    progress.stage = Stage::Analysing;
    progress.messages = Some(transcript.messages.len());
    let mut last_worst = (None, None);
    let report = judge_transcript_with_progress(&transcript, &mut |a: AnalysisProgress| {
        progress.analysis = Some(a);
        // A new worst verdict, or a long text's preview, is news: say it at once.
        let now = (a.worst, a.preview);
        let news = now != last_worst || a.texts_done == 0;
        last_worst = now;
        reporter.send(&progress, news);
    });

    let loaded = JudgedDocument { size, detected, chosen, transcript, report };
    // Each text that travels goes straight into the buffer the page gets (and is freed here at
    // once); each piece into a buffer of its own.
    let texts = Uint8Array::new_with_length(texts_len(&loaded) as u32);
    let (pieces, transfer) = (Array::new(), Array::new());
    let mut at = 0u32;
    encode(
        loaded,
        &mut |t: &str| {
            let end = at + t.len() as u32;
            texts.subarray(at, end).copy_from(t.as_bytes());
            at = end;
        },
        &mut |p: Vec<u8>| {
            let buffer = Uint8Array::from(p.as_slice()).buffer();
            pieces.push(&buffer);
            transfer.push(&buffer);
        },
    );
    transfer.push(&texts.buffer());
    let msg = object(&[("kind", &"done".into()), ("pieces", &pieces), ("texts", &texts.buffer())]);
    post.call2(&JsValue::NULL, &msg, &transfer)?;
    Ok(())
}
