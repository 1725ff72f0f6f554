//! The Web Worker's side of reading a file (wasm32 only; `www/worker.js` loads this same module in
//! a worker and calls [`read_file_in_worker`]). The file is read a few megabytes at a time (never
//! one giant copy; [`super::blob_reader`]) into [`ingest::Reader`] (a JSONL log is parsed as the
//! slices come, so its bytes are never all held; other files are parsed whole), analysed by the
//! core, with progress posted to the page as it goes; the result goes back in transferred buffers
//! ([`super::wire`]), one per JSON piece, so that nothing big is copied twice here and the page can
//! let go of each piece once it has read it.
//!
//! A long plain text (one message, the file's bytes unchanged) has its gzip pass counted beside
//! the rest of its analysis: the worker asks the page for it (`askGzip`), the page starts a
//! second worker on the same file ([`gzip_size_in_worker`]) and passes its answer back. A wasm
//! worker has one thread; the gzip pass is half of a text's analysis.

use std::cell::Cell;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::blob_reader::read_blob;
use super::load_view::{Progress, Stage};
use super::wire::{encode, texts_len};
use coherency_core::analyze::gzip_ratio::{gzip_size, GzipSizeCounter};
use coherency_core::analyze::{analyze_without_gzip, Report};
use coherency_core::ingest::{self, Format, Transcript};
use coherency_core::verdict::{
    judge_transcript_with_progress, preview_of, AnalysedBefore, AnalysisProgress, JudgedDocument, PREVIEW_OVER,
};

/// At most one progress message per this many milliseconds (and one per stage).
const PROGRESS_EVERY_MS: f64 = 40.0;
/// A plain text from this many bytes has its gzip pass counted in a second worker (below it,
/// starting one costs more than it saves).
const GZIP_BESIDE_FROM: usize = 4 << 20;

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
/// finally `{kind: "done", pieces: [ArrayBuffer], texts: ArrayBuffer}` (all transferred).
/// `ask_gzip(start, end)`, when given, returns a promise of the gzip size of those bytes of the
/// file, counted elsewhere (a number; anything else: counted here after all).
#[wasm_bindgen(js_name = readFileInWorker)]
pub async fn read_file_in_worker(
    file: web_sys::File,
    format: Option<String>,
    post: Function,
    ask_gzip: Option<Function>,
) -> Result<(), JsValue> {
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
    let analysed = match ask_gzip {
        Some(ask_gzip) => analyse_long_text(&transcript, &ask_gzip, &mut |a| {
            progress.analysis = Some(a);
            reporter.send(&progress, true);
        })
        .await
        .into_iter()
        .collect(),
        None => AnalysedBefore::new(),
    };
    let mut last_worst = (None, None);
    let report = judge_transcript_with_progress(&transcript, analysed, &mut |a: AnalysisProgress| {
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

/// A long plain text's report, its gzip pass counted by another worker (through `ask_gzip`)
/// while this one does the rest; `None` for any other document (judged as usual).
async fn analyse_long_text(
    t: &Transcript,
    ask_gzip: &Function,
    on_progress: &mut dyn FnMut(AnalysisProgress),
) -> Option<(usize, Report)> {
    let [message] = t.messages.as_slice() else { return None };
    let text = message.text.as_str();
    if text.len() < GZIP_BESIDE_FROM || !ingest::is_verbatim(t) {
        return None;
    }
    let (start, end) = (JsValue::from(message.source.start as f64), JsValue::from(message.source.end as f64));
    let asked = ask_gzip.call2(&JsValue::NULL, &start, &end).ok().map(Promise::from);
    let mut progress = AnalysisProgress { texts: 1, bytes: text.len(), ..AnalysisProgress::default() };
    on_progress(progress);
    if text.len() >= PREVIEW_OVER {
        progress.preview = Some(preview_of(text));
        on_progress(progress);
    }
    let without_gzip = analyze_without_gzip(text);
    let counted = match asked {
        Some(asked) => JsFuture::from(asked).await.ok().and_then(|size| size.as_f64()),
        None => None,
    };
    let gzip_bytes = counted.map_or_else(|| gzip_size(text.as_bytes()), |size| size as usize);
    Some((0, without_gzip.finish(text, gzip_bytes)))
}

/// The gzip size of `file`'s bytes `start..end` (a second worker's job while the first analyses
/// the rest of that text: see [`read_file_in_worker`]).
#[wasm_bindgen(js_name = gzipSizeInWorker)]
pub async fn gzip_size_in_worker(file: web_sys::File, start: f64, end: f64) -> Result<f64, JsValue> {
    let slice = file.slice_with_f64_and_f64(start, end)?;
    let mut counter = GzipSizeCounter::new();
    let mut buffer = Vec::new();
    read_blob(&slice, &mut |bytes: &Uint8Array| {
        buffer.resize(bytes.length() as usize, 0);
        bytes.copy_to(&mut buffer);
        counter.feed(&buffer);
        Ok(())
    })
    .await?;
    if counter.bytes() as f64 != end - start {
        return Err(JsValue::from_str("the file changed while it was read"));
    }
    Ok(counter.finish() as f64)
}
