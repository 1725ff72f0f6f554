//! The Web Worker's side of reading a file (wasm32 only; `www/worker.js` loads this same module
//! in a worker and calls [`read_file_in_worker`]). The file is read piece by piece (never one
//! giant copy) through its byte stream into one reused buffer — a "byob" reader, so no slice
//! is left for the garbage collector (a 50 MB text peaked 17 MB lower than with a new buffer
//! per slice) — or, in a browser without one, in `FileReaderSync` slices, into
//! [`ingest::Reader`] (a JSONL log is parsed as
//! the slices come, so its bytes are never all held; other files are parsed whole), analysed
//! by the core, with progress posted to the page as it goes; the result goes back in
//! transferred buffers ([`super::wire`]), one per JSON piece, so that nothing big is copied
//! twice here and the page can let go of each piece once it has read it.

use std::cell::Cell;

use js_sys::{Array, ArrayBuffer, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::load_view::{Progress, Stage};
use super::wire::{encode, texts_len, Loaded};
use crate::ingest::{self, AnalysisProgress, Format};

/// Bytes per read: the reused buffer's size, or a `Blob.slice`'s.
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

/// Calls `obj.name(...args)`.
fn call(obj: &JsValue, name: &str, args: &Array) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(obj, &name.into())?.dyn_into()?;
    Reflect::apply(&f, obj, args)
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
/// finally `{kind: "done", pieces: [ArrayBuffer], texts: ArrayBuffer}` (all transferred).
#[wasm_bindgen(js_name = readFileInWorker)]
pub async fn read_file_in_worker(file: web_sys::File, format: Option<String>, post: Function) -> Result<(), JsValue> {
    let reporter = Reporter { post: &post, last: Cell::new(0.0) };
    let size = file.size() as usize;
    let mut progress = Progress { stage: Stage::Reading, ..Progress::default() };
    reporter.send(&progress, true);

    let chosen = format.as_deref().and_then(Format::from_name);
    let mut reader = ingest::Reader::new(chosen, size);
    let mut take = |bytes: &Uint8Array, piece: &mut Vec<u8>, progress: &mut Progress| {
        let n = bytes.length() as usize;
        piece.resize(n, 0);
        bytes.copy_to(piece);
        reader.feed(piece).map_err(|_| JsValue::from_str("not enough memory for this file"))?;
        progress.read += n;
        reporter.send(progress, false);
        Ok::<_, JsValue>(())
    };
    let mut piece = Vec::new();
    match call(file.as_ref(), "stream", &Array::new())
        .and_then(|stream| call(&stream, "getReader", &Array::of1(&object(&[("mode", &"byob".into())]))))
    {
        // The file's byte stream, read into one buffer over and over.
        Ok(stream) => {
            let mut buffer = ArrayBuffer::new(SLICE as u32);
            loop {
                let read = call(&stream, "read", &Array::of1(&Uint8Array::new(&buffer)))?;
                let result = JsFuture::from(Promise::from(read)).await?;
                if Reflect::get(&result, &"done".into())?.is_truthy() {
                    break;
                }
                let bytes: Uint8Array = Reflect::get(&result, &"value".into())?.dyn_into()?;
                take(&bytes, &mut piece, &mut progress)?;
                buffer = bytes.buffer();
            }
        }
        // No byte-stream reader in this browser: slices, each a new buffer.
        Err(_) => {
            let file_reader = web_sys::FileReaderSync::new()?;
            while progress.read < size {
                let at = progress.read;
                let slice = file.slice_with_f64_and_f64(at as f64, (at + SLICE).min(size) as f64)?;
                let bytes = Uint8Array::new(&file_reader.read_as_array_buffer(&slice)?.into());
                if bytes.length() == 0 {
                    break; // The file shrank while being read: take what there is.
                }
                take(&bytes, &mut piece, &mut progress)?;
            }
        }
    }
    drop(piece);

    progress.stage = Stage::Parsing;
    reporter.send(&progress, true);
    let (detected, transcript) = reader.finish();

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
