//! The Web Worker's side of reading a file (wasm32 only; `www/worker.js` loads this module in
//! a worker and calls [`read_file_in_worker`]). The file is read a few megabytes at a time (never
//! one giant copy; `coherency_worker_wire::blob_reader`) into [`ingest::Reader`] (a JSONL log is parsed as the
//! slices come, so its bytes are never all held; other files are parsed whole), analysed by the
//! core, with progress posted to the page as it goes; the result goes back in transferred buffers
//! (`coherency_worker_wire::wire`), one per JSON piece, so that nothing big is copied twice here and the page can
//! let go of each piece once it has read it.
//!
//! A wasm worker has one thread, so a big file's analysis is shared with a second worker, which
//! the page starts when this one asks (`askHelp`) and whose answer it passes back: a long plain
//! text (one message, the file's bytes unchanged) has its side passes — its gzip-9 size and its
//! incoherence checks, about half its analysis — counted there from the same file ([`deflate_passes_in_worker`]; `coherency_core::analyze::side_passes`); a big
//! log sends half its texts
//! there ([`analyze_in_worker`]; the split: [`split_in_two`]). Without an answer this worker
//! does that work itself.

use std::cell::Cell;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::share::analyze_share;
use super::share_wire;
use coherency_core::analyze::gzip_ratio::GzipSizeCounter;
use coherency_core::analyze::side_passes::{side_passes, SidePassCounter};
use coherency_core::analyze::{analyze_with, analyze_without_side_passes, Report, Thresholds};
use coherency_core::ingest::{self, Format, Transcript};
use coherency_core::judge::{
    preview_of, split_in_two, text_of, AnalysisProgress, AnalyzedBefore, JudgeOptions, JudgedDocument, Judging,
    TextKey, PREVIEW_OVER,
};
use coherency_worker_wire::blob_reader::read_blob;
use coherency_worker_wire::progress::{Progress, Stage};
use coherency_worker_wire::wire::{encode, texts_len};

/// At most one progress message per this many milliseconds (and one per stage).
const PROGRESS_EVERY_MS: f64 = 40.0;
/// A plain text from this many bytes has its side passes counted in a second worker, and other
/// documents with this many bytes of texts to analyse share them with one (below it, starting a
/// worker costs more than it saves).
const SHARE_FROM: usize = 4 << 20;

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
/// judged against `thresholds` ([`Thresholds::compact`]; none: the defaults), calling `post(message, transfer)` with `{kind: "progress", progress: Uint8Array}` (a
/// [`Progress`] in postcard, as the result: no JSON reader of it in the wasm) as it goes and
/// finally `{kind: "done", pieces: [ArrayBuffer], texts: ArrayBuffer}` (all transferred); a
/// long text's, `{kind: "share-done"}` when this worker's share of it is done.
/// `ask_help(job, transfer)`, when given, hands `job` to another worker and returns a promise of
/// its answer: `{kind: "deflate", start, end, thresholds}` → the side passes of those bytes of
/// the file (the gzip-9 size and the incoherence checks; an ArrayBuffer: [`share_wire::encode_passes`]); `{kind: "analyze", texts, thresholds}` → their reports ([`analyze_in_worker`]). Any other
/// answer: the work is done here after all.
#[wasm_bindgen(js_name = readFileInWorker)]
pub async fn read_file_in_worker(
    file: web_sys::File,
    format: Option<String>,
    thresholds: Option<String>,
    post: Function,
    ask_help: Option<Function>,
) -> Result<(), JsValue> {
    let options = JudgeOptions { thresholds: read_thresholds(thresholds)?, ..JudgeOptions::default() };
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

    progress.stage = Stage::Analyzing;
    progress.messages = Some(transcript.messages.len());
    let mut last_worst = (None, None);
    let mut tell = |a: AnalysisProgress| {
        progress.analysis = Some(a);
        // A new worst verdict, or a long text's preview, is news: say it at once.
        let now = (a.worst, a.preview);
        let news = now != last_worst || a.texts_done == 0;
        last_worst = now;
        reporter.send(&progress, news);
    };
    let analysed = match &ask_help {
        Some(ask_help) => match analyze_long_text(&transcript, &options.thresholds, ask_help, &post, &mut tell).await {
            Some(report) => [report].into(),
            None => analyze_in_two(&transcript, &options.thresholds, ask_help, &mut tell).await,
        },
        None => AnalyzedBefore::new(),
    };
    // The judge starts counting again from its first text: not news when the texts were analysed.
    let shared = !analysed.is_empty();
    let report = Judging::new(options)
        .analyzed(analysed)
        .on_progress(&mut |a: AnalysisProgress| {
            if !(shared && a.texts_done == 0) {
                tell(a);
            }
        })
        .judge(&transcript);

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

/// Asks another worker to do `job` (through `ask_help`, passing it the buffers in `transfer`).
fn ask(ask_help: &Function, job: &[(&str, &JsValue)], transfer: &Array) -> Option<JsFuture> {
    ask_help.call2(&JsValue::NULL, &object(job), transfer).ok().map(|p| JsFuture::from(Promise::from(p)))
}

/// A long plain text's report, its side passes (the gzip-9 size and the incoherence checks) counted
/// by another worker (through `ask_help`) while this one does the rest, saying
/// `{kind: "share-done"}` through `post` once it has (the page then reads the text it will show);
/// `None` for any other document.
async fn analyze_long_text(
    t: &Transcript,
    thresholds: &Thresholds,
    ask_help: &Function,
    post: &Function,
    on_progress: &mut dyn FnMut(AnalysisProgress),
) -> Option<(TextKey, Report)> {
    let [message] = t.messages.as_slice() else { return None };
    let text = message.text.as_str();
    if text.len() < SHARE_FROM || !ingest::is_verbatim(t) {
        return None;
    }
    let (start, end) = (JsValue::from(message.source.start as f64), JsValue::from(message.source.end as f64));
    let job: [(&str, &JsValue); 4] =
        [("kind", &"deflate".into()), ("start", &start), ("end", &end), ("thresholds", &thresholds.compact().into())];
    let asked = ask(ask_help, &job, &Array::new());
    let mut progress = AnalysisProgress { texts: 1, bytes: text.len(), ..AnalysisProgress::default() };
    on_progress(progress);
    if text.len() >= PREVIEW_OVER {
        progress.preview = Some(preview_of(text));
        on_progress(progress);
    }
    let without_side = analyze_without_side_passes(text, thresholds);
    let _ = post.call2(&JsValue::NULL, &object(&[("kind", &"share-done".into())]), &Array::new());
    let answer = match asked {
        Some(asked) => asked.await.ok(),
        None => None,
    };
    let counted = answer
        .filter(|a| a.is_instance_of::<js_sys::ArrayBuffer>())
        .and_then(|a| share_wire::decode_passes(&Uint8Array::new(&a).to_vec(), text).ok());
    let passes = counted.unwrap_or_else(|| side_passes(text, thresholds));
    Some((TextKey::Message(0), without_side.finish(text, passes)))
}

/// The texts of `t` to analyse one by one, half of them (by bytes) analysed by another worker
/// (through `ask_help`) while this one analyses the rest; nothing when they are too few bytes
/// to share, and this worker's half alone when the other's answer does not read back (the
/// judge analyses the rest).
async fn analyze_in_two(
    t: &Transcript,
    thresholds: &Thresholds,
    ask_help: &Function,
    on_progress: &mut dyn FnMut(AnalysisProgress),
) -> AnalyzedBefore {
    let shares = split_in_two(t);
    let [mine, theirs] = &shares.shares;
    if shares.bytes < SHARE_FROM || theirs.is_empty() {
        return AnalyzedBefore::new();
    }
    let texts: Vec<_> = theirs.iter().filter_map(|&key| text_of(t, key)).collect();
    let buffer = Uint8Array::from(share_wire::encode_texts(&texts).as_slice()).buffer();
    drop(texts);
    let job: [(&str, &JsValue); 3] =
        [("kind", &"analyze".into()), ("texts", &buffer), ("thresholds", &thresholds.compact().into())];
    let asked = ask(ask_help, &job, &Array::of1(&buffer));
    let mut progress = AnalysisProgress { texts: shares.texts, bytes: shares.bytes, ..AnalysisProgress::default() };
    on_progress(progress);
    let mut analysed = analyze_share(t, mine, thresholds, &mut progress, on_progress);
    let answer = match asked {
        Some(asked) => asked.await.ok(),
        None => None,
    };
    let reports = answer
        .filter(|a| a.is_instance_of::<js_sys::ArrayBuffer>())
        .and_then(|a| share_wire::decode_reports(&Uint8Array::new(&a).to_vec(), theirs.len()).ok());
    if let Some(reports) = reports {
        analysed.extend(theirs.iter().copied().zip(reports));
    }
    analysed
}

/// The reports of the texts in `texts` (from [`share_wire::encode_texts`]) against
/// `thresholds` (as [`read_file_in_worker`] takes them), for [`share_wire::decode_reports`]: a
/// second worker's half of a big log.
#[wasm_bindgen(js_name = analyzeInWorker)]
pub fn analyze_in_worker(texts: &[u8], thresholds: Option<String>) -> Result<Vec<u8>, JsValue> {
    let thresholds = read_thresholds(thresholds)?;
    let texts = share_wire::decode_texts(texts).map_err(|e| JsValue::from_str(&e))?;
    let reports: Vec<Report> = texts.iter().map(|text| analyze_with(text, &thresholds)).collect();
    Ok(share_wire::encode_reports(&reports))
}

/// The thresholds the page sent ([`Thresholds::compact`]; none: the defaults).
fn read_thresholds(compact: Option<String>) -> Result<Thresholds, JsValue> {
    Thresholds::from_compact(compact.as_deref().unwrap_or_default())
        .map_err(|e| JsValue::from_str(&format!("the thresholds sent to the worker did not read back ({e})")))
}

/// The side passes of `file`'s bytes `start..end` against `thresholds` (as
/// [`read_file_in_worker`] takes them): its gzip-9 size and incoherence checks
/// ([`share_wire::encode_passes`]: a second worker's job while the first analyses the rest of
/// that text; see [`read_file_in_worker`]).
#[wasm_bindgen(js_name = deflatePassesInWorker)]
pub async fn deflate_passes_in_worker(
    file: web_sys::File,
    start: f64,
    end: f64,
    thresholds: Option<String>,
) -> Result<Vec<u8>, JsValue> {
    let thresholds = read_thresholds(thresholds)?;
    let slice = file.slice_with_f64_and_f64(start, end)?;
    let mut counter = SidePassCounter::new((end - start) as usize, &thresholds)
        .ok_or_else(|| JsValue::from_str("not enough memory for this file"))?;
    let mut buffer = Vec::new();
    read_blob(&slice, &mut |bytes: &Uint8Array| {
        buffer.resize(bytes.length() as usize, 0);
        bytes.copy_to(&mut buffer);
        counter.feed(&buffer);
        Ok(())
    })
    .await?;
    let passes = counter.finish().ok_or_else(|| JsValue::from_str("the file changed while it was read"))?;
    Ok(share_wire::encode_passes(&passes))
}

/// The gzip-9 size of all of `file`'s bytes, counted in one DEFLATE-9 pass as the analysis
/// counts a long text's (read a few megabytes at a time; [`GzipSizeCounter`]). No part of the
/// page calls it: `scripts/bench-page` times it as the floor of a text's analysis in wasm
/// (the page's time ÷ this pass's).
#[wasm_bindgen(js_name = gzipSizeInWorker)]
pub async fn gzip_size_in_worker(file: web_sys::File) -> Result<f64, JsValue> {
    let mut counter = GzipSizeCounter::new();
    let mut buffer = Vec::new();
    read_blob(&file, &mut |bytes: &Uint8Array| {
        buffer.resize(bytes.length() as usize, 0);
        bytes.copy_to(&mut buffer);
        counter.feed(&buffer);
        Ok(())
    })
    .await?;
    Ok(counter.finish() as f64)
}
