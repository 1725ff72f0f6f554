//! The page's side of reading a file off the main thread (wasm32 only): starts a module Web
//! Worker (`www/worker.js`, which runs [`super::worker`]), hands it the `File` (a reference,
//! not a copy), passes its progress on, and takes the result in piece by piece between frames
//! ([`super::wire::Decoder`]) so the page keeps answering. Dropping the [`Job`] cancels it:
//! the worker is terminated and nothing more is reported.

use std::cell::Cell;
use std::ops::Range;
use std::rc::Rc;

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::dom;
use super::load_view::{Progress, Stage};
use super::wire::{Decoder, Loaded};
use crate::ingest::Format;

/// The worker script, relative to the page.
const WORKER_URL: &str = "www/worker.js";
/// The page takes in result pieces for at most this long before letting the browser paint.
const SLICE_MS: f64 = 12.0;

/// What a job reports.
pub enum Event {
    Progress(Progress),
    Done(Loaded),
    Failed(String),
}

/// A file being read in a worker; dropping it cancels the work.
pub struct Job {
    worker: Worker,
    cancelled: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.cancelled.set(true);
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Starts reading `file` as `chosen` (`None`: the detected format) in a new worker.
pub fn start(file: &web_sys::File, chosen: Option<Format>, on_event: Rc<dyn Fn(Event)>) -> Result<Job, String> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(WORKER_URL, &options)
        .map_err(|_| "this browser cannot start a module Web Worker".to_string())?;
    let cancelled = Rc::new(Cell::new(false));

    let on_message = {
        let (on_event, cancelled, worker) = (Rc::clone(&on_event), Rc::clone(&cancelled), worker.clone());
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if cancelled.get() {
                return;
            }
            let data = e.data();
            match get(&data, "kind").as_string().as_deref() {
                Some("progress") => {
                    let json = get(&data, "progress").as_string().unwrap_or_default();
                    if let Ok(p) = serde_json::from_slice::<Progress>(json.as_bytes()) {
                        on_event(Event::Progress(p));
                    }
                }
                Some("done") => {
                    // Its work is done: free its memory before the page takes in the result.
                    worker.terminate();
                    let pieces = get(&data, "pieces").as_string().unwrap_or_default();
                    let buffer = Uint8Array::new(&get(&data, "buffer"));
                    let texts = Uint8Array::new(&get(&data, "texts"));
                    let (on_event, cancelled) = (Rc::clone(&on_event), Rc::clone(&cancelled));
                    wasm_bindgen_futures::spawn_local(async move {
                        let result = take_in(&pieces, buffer, texts, &on_event, &cancelled).await;
                        if !cancelled.get() {
                            on_event(match result {
                                Ok(loaded) => Event::Done(loaded),
                                Err(e) => Event::Failed(e),
                            });
                        }
                    });
                }
                _ => {
                    worker.terminate();
                    let message = get(&data, "message").as_string().unwrap_or_else(|| "the worker stopped".into());
                    on_event(Event::Failed(explain(&message)));
                }
            }
        })
    };
    let on_error = {
        let (on_event, cancelled, worker) = (Rc::clone(&on_event), Rc::clone(&cancelled), worker.clone());
        Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            e.prevent_default();
            worker.terminate();
            if !cancelled.get() {
                let message = e.message();
                let message = if message.is_empty() { "the worker could not start".to_string() } else { message };
                on_event(Event::Failed(explain(&message)));
            }
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));

    let request = js_sys::Object::new();
    let _ = Reflect::set(&request, &"file".into(), file);
    let format = chosen.map_or(JsValue::UNDEFINED, |f| JsValue::from_str(f.name()));
    let _ = Reflect::set(&request, &"format".into(), &format);
    worker.post_message(&request).map_err(|_| "the file could not be handed to the worker".to_string())?;
    Ok(Job { worker, cancelled, _on_message: on_message, _on_error: on_error })
}

/// A worker's error in words a user can act on.
fn explain(message: &str) -> String {
    let lower = message.to_ascii_lowercase();
    if lower.contains("memory") || lower.contains("unreachable") || lower.contains("allocation") {
        format!("the browser ran out of memory reading it ({message}); the command-line tool reads big files natively")
    } else {
        message.to_string()
    }
}

/// Decodes the result in slices of [`SLICE_MS`], yielding to the browser between them.
async fn take_in(
    pieces: &str,
    buffer: Uint8Array,
    texts: Uint8Array,
    on_event: &Rc<dyn Fn(Event)>,
    cancelled: &Cell<bool>,
) -> Result<Loaded, String> {
    let ranges: Vec<Range<usize>> = serde_json::from_slice(pieces.as_bytes())
        .map_err(|e| format!("the worker's result did not read back ({e})"))?;
    let read = |from: &Uint8Array, r: Range<usize>| {
        if r.start <= r.end && r.end <= from.length() as usize {
            from.subarray(r.start as u32, r.end as u32).to_vec()
        } else {
            Vec::new()
        }
    };
    let mut decoder = Decoder::new(ranges);
    while !decoder.done() {
        let started = dom::now_ms().unwrap_or(0.0);
        while !decoder.done() && dom::now_ms().unwrap_or(f64::MAX) - started < SLICE_MS {
            decoder.step(&mut |r| read(&buffer, r), &mut |r| read(&texts, r))?;
        }
        let progress = Progress { stage: Stage::Preparing, prepared: Some(decoder.progress()), ..Progress::default() };
        on_event(Event::Progress(progress));
        dom::next_tick().await;
        if cancelled.get() {
            return Err("cancelled".into());
        }
    }
    decoder.finish()
}
