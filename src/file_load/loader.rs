//! The page's side of reading a file off the main thread (wasm32 only): starts a module Web Worker
//! (`www/worker.js`, which runs the analysis wasm: `crates/analysis-worker`), hands it the `File` (a reference, not a copy),
//! passes its progress on, and takes the result in piece by piece between frames
//! (`coherency_worker_wire::wire::Decoder`) so the page keeps answering, letting go of each piece once read. The
//! worker is ended before that, so its memory and the page's never peak together; a plain text that
//! is the file's bytes unchanged is then read by the page from the file itself, a few megabytes at
//! a time straight into its string (`coherency_worker_wire::blob_reader`). When the worker hands part of a big
//! file's work on (a long text's DEFLATE passes, half of a log's texts), a second worker does it and
//! its answer is passed back (a failure is answered with null: the first worker then does that
//! work itself). Dropping the [`Job`] cancels it: the workers are terminated and nothing more is
//! reported.

use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::rc::Rc;

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::load_view::{Progress, Stage};
use super::ReadAs;
use crate::dom;
use coherency_core::analyze::{Report, Thresholds};
use coherency_core::ingest::Format;
use coherency_core::judge::JudgedDocument;
use coherency_worker_wire::analyze::{decode_reports, encode_texts};
use coherency_worker_wire::blob_reader::read_blob;
use coherency_worker_wire::result_link::{decode_made, Made};
use coherency_worker_wire::wire::Decoder;

/// The worker script, relative to the page.
const WORKER_URL: &str = "www/worker.js";
/// `globalThis.coherencyWorker = { url, module, classic }`: the analysis wasm compiled as the page
/// loaded (`module`, handed to each worker with its job; `www/boot.js`, or the single file), and
/// in the single-file build (`dist/coherency-analyzer.html`, which cannot load a worker from a
/// `file://` URL) the worker's Blob URL and whether it is a classic worker (a module worker from
/// a Blob URL does not start on a `file://` page).
const ANALYSIS_WORKER: &str = "coherencyWorker";
/// The page takes in result pieces for at most this long before letting the browser paint.
const SLICE_MS: f64 = 12.0;

/// What a job reports.
pub enum Event {
    Progress(Progress),
    Done(JudgedDocument),
    Failed(String),
}

/// A file being read in a worker; dropping it cancels the work.
pub struct Job {
    worker: Worker,
    cancelled: Rc<Cell<bool>>,
    /// The second worker doing part of the work, while it does.
    helper: Rc<RefCell<Option<Helper>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.cancelled.set(true);
        self.helper.borrow_mut().take();
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// A second worker doing part of a file's work; dropping it ends it.
struct Helper {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl Drop for Helper {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A new worker running `www/worker.js` (or the single file's), waiting for its job.
pub(crate) fn new_worker() -> Result<Worker, String> {
    let single_file = get(&js_sys::global(), ANALYSIS_WORKER);
    let options = WorkerOptions::new();
    let classic = get(&single_file, "classic").as_bool() == Some(true);
    options.set_type(if classic { WorkerType::Classic } else { WorkerType::Module });
    let url = get(&single_file, "url").as_string().unwrap_or_else(|| WORKER_URL.to_string());
    Worker::new_with_options(&url, &options).map_err(|_| "this browser cannot start a module Web Worker".to_string())
}

/// The compiled analysis wasm handed to the workers (undefined while it is being compiled).
fn analysis_module() -> JsValue {
    get(&get(&js_sys::global(), ANALYSIS_WORKER), "module")
}

/// The compiled analysis wasm, once it is compiled (undefined when it could not be: the worker
/// then fetches it, and says so if it cannot).
pub(crate) async fn compiled_analysis_module() -> JsValue {
    let ready = get(&get(&js_sys::global(), ANALYSIS_WORKER), "ready");
    if analysis_module().is_undefined() && ready.is_instance_of::<js_sys::Promise>() {
        let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(ready)).await;
    }
    analysis_module()
}

/// Posts `request` to `worker` with the compiled analysis wasm — at once, or once it is compiled
/// when it is not yet (a job given as the page loads: a result link, a paste); without it when
/// it could not be compiled (the worker then fetches it, and says so if it cannot).
fn post_job(worker: &Worker, request: Object, cancelled: &Rc<Cell<bool>>, on_event: &Rc<dyn Fn(Event)>) {
    let post = move |worker: &Worker, on_event: &Rc<dyn Fn(Event)>| {
        let _ = Reflect::set(&request, &"module".into(), &analysis_module());
        if worker.post_message(&request).is_err() {
            on_event(Event::Failed("the input could not be handed to the worker".to_string()));
        }
    };
    let ready = get(&get(&js_sys::global(), ANALYSIS_WORKER), "ready");
    if !analysis_module().is_undefined() || !ready.is_instance_of::<js_sys::Promise>() {
        return post(worker, on_event);
    }
    let (worker, cancelled, on_event) = (worker.clone(), Rc::clone(cancelled), Rc::clone(on_event));
    wasm_bindgen_futures::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(ready)).await;
        if !cancelled.get() {
            post(&worker, &on_event);
        }
    });
}

/// Starts a second worker on `job` (see `www/worker.js`) for `file`; `answer` gets its answer,
/// or null when it failed.
fn start_helper(file: &web_sys::File, job: JsValue, answer: Rc<dyn Fn(JsValue)>) -> Result<Helper, String> {
    let worker = new_worker()?;
    let on_message = {
        let (answer, worker) = (Rc::clone(&answer), worker.clone());
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let data = e.data();
            let helped = get(&data, "kind").as_string().as_deref() == Some("helped");
            answer(if helped { get(&data, "answer") } else { JsValue::NULL });
            worker.terminate();
        })
    };
    let on_error = {
        let (answer, worker) = (Rc::clone(&answer), worker.clone());
        Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            e.prevent_default();
            worker.terminate();
            answer(JsValue::NULL);
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let _ = Reflect::set(&job, &"file".into(), file);
    let _ = Reflect::set(&job, &"module".into(), &analysis_module());
    worker
        .post_message_with_transfer(&job, &transferable(&get(&job, "texts")))
        .map_err(|_| "the job could not be handed to a second worker".to_string())?;
    Ok(Helper { worker, _on_message: on_message, _on_error: on_error })
}

/// A one-off job in a worker (a text's whole report, a report to copy or download); dropping it
/// ends the worker.
pub struct OneJob(#[allow(dead_code)] Helper);

/// Starts `job` (see `www/worker.js`) in a new worker, `transfer` moved with it, once the
/// analysis wasm is compiled; `done` gets its answer (an `ArrayBuffer`), or why not.
fn one_job(job: Object, transfer: Array, done: Box<dyn Fn(Result<Vec<u8>, String>)>) -> Result<OneJob, String> {
    let worker = new_worker()?;
    let answer = Rc::new(move |answer: JsValue, error: Option<String>| {
        done(match answer.dyn_ref::<js_sys::ArrayBuffer>() {
            Some(buffer) => Ok(Uint8Array::new(buffer).to_vec()),
            None => Err(error.unwrap_or_else(|| "the analysis worker failed".to_string())),
        })
    });
    let on_message = {
        let (answer, worker) = (Rc::clone(&answer), worker.clone());
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let data = e.data();
            worker.terminate();
            match get(&data, "kind").as_string().as_deref() {
                Some("helped") => answer(get(&data, "answer"), None),
                _ => answer(JsValue::NULL, get(&data, "message").as_string()),
            }
        })
    };
    let on_error = {
        let (answer, worker) = (Rc::clone(&answer), worker.clone());
        Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            e.prevent_default();
            worker.terminate();
            answer(JsValue::NULL, Some(e.message()));
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let helper = Helper { worker, _on_message: on_message, _on_error: on_error };
    let worker = helper.worker.clone();
    let post = move || {
        let _ = Reflect::set(&job, &"module".into(), &analysis_module());
        worker.post_message_with_transfer(&job, &transfer)
    };
    if analysis_module().is_undefined() {
        // As the page loads the analysis wasm may still be compiling: the job waits for it (a
        // job dropped meanwhile posts to a worker that has ended: nothing happens).
        wasm_bindgen_futures::spawn_local(async move {
            let _ = compiled_analysis_module().await;
            let _ = post();
        });
    } else {
        post().map_err(|_| "the job could not be handed to the analysis worker".to_string())?;
    }
    Ok(OneJob(helper))
}

/// Has a worker run the analysis once on small inputs (`warmUpInWorker`), so that V8 compiles
/// its hot functions with the optimizing compiler before the first big file comes (a call that
/// is running stays in baseline code until it returns: see
/// `crates/analysis-worker/src/warm_up.rs`). The page asks once as it loads; the compiled code
/// belongs to the analysis module every worker is handed. Nothing is reported: a failure costs
/// only the speed-up.
pub fn warm_up_analysis() {
    thread_local! {
        static WARMING: RefCell<Option<OneJob>> = const { RefCell::new(None) };
    }
    let done = Box::new(|answer: Result<Vec<u8>, String>| {
        // How many bytes it read, for the tests and anyone curious (`coherencyWorker.warmedUp`).
        let read = answer.ok().and_then(|bytes| Some(u64::from_le_bytes(bytes.try_into().ok()?)));
        let global = get(&js_sys::global(), ANALYSIS_WORKER);
        if let Some(read) = read.filter(|_| global.is_object()) {
            let _ = Reflect::set(&global, &"warmedUp".into(), &JsValue::from(read as f64));
        }
        // The worker has ended: let go of it once its message has been handled.
        wasm_bindgen_futures::spawn_local(async {
            WARMING.with(|warming| warming.borrow_mut().take());
        });
    });
    if let Ok(started) = one_job(job(&[("kind", "warm-up".into())]), Array::new(), done) {
        WARMING.with(|warming| *warming.borrow_mut() = Some(started));
    }
}

fn job(pairs: &[(&str, JsValue)]) -> Object {
    let job = Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&job, &JsValue::from_str(k), v);
    }
    job
}

/// Makes the whole report of `text` against the default thresholds in a new worker (its
/// `analyse` job: `analyzeInWorker`); `done` gets it, or why not.
pub fn analyze_text(text: &str, done: Rc<dyn Fn(Result<Report, String>)>) -> Result<OneJob, String> {
    let texts = Uint8Array::from(encode_texts(&[text]).as_slice()).buffer();
    let job = job(&[("kind", "analyze".into()), ("texts", texts.clone().into())]);
    let read = move |answer: Result<Vec<u8>, String>| {
        done(answer.and_then(|bytes| decode_reports(&bytes, 1)).map(|mut reports| reports.remove(0)))
    };
    one_job(job, Array::of1(&texts), Box::new(read))
}

/// Makes the report `what` (`markdown`, `html`, `json`) of the input `bytes` read as `chosen`
/// (`None`: detected) against `thresholds`, named `name`, in a new worker (its `export` job:
/// the same document as shown, read again); `done` gets it, or why not.
pub fn export(
    bytes: &[u8],
    ReadAs { format: chosen, thresholds }: ReadAs,
    (name, what): (&str, &str),
    done: Box<dyn Fn(Result<Vec<u8>, String>)>,
) -> Result<OneJob, String> {
    let buffer = Uint8Array::from(bytes).buffer();
    let format = chosen.map_or(JsValue::UNDEFINED, |f| f.name().into());
    let job = job(&[
        ("kind", "export".into()),
        ("bytes", buffer.clone().into()),
        ("format", format),
        ("thresholds", thresholds.compact().into()),
        ("name", name.into()),
        ("what", what.into()),
    ]);
    one_job(job, Array::of1(&buffer), done)
}

/// Makes the result link's fragment of the input `bytes` read as `chosen` (`None`: detected),
/// the report `selected` shown, judged against `thresholds`, in a new worker (its `link` job:
/// the page's wasm has no DEFLATE); `done` gets the fragment, or its length when it is over the
/// limit, or why not.
pub fn make_link(
    bytes: &[u8],
    (chosen, selected): (Option<Format>, Option<usize>),
    thresholds: &Thresholds,
    done: Box<dyn Fn(Result<Made, String>)>,
) -> Result<OneJob, String> {
    let buffer = Uint8Array::from(bytes).buffer();
    let job = job(&[
        ("kind", "link".into()),
        ("bytes", buffer.clone().into()),
        ("format", chosen.map_or(JsValue::UNDEFINED, |f| f.name().into())),
        ("selected", selected.map_or(JsValue::UNDEFINED, |m| (m as u32).into())),
        ("thresholds", thresholds.compact().into()),
    ]);
    one_job(job, Array::of1(&buffer), Box::new(move |answer| done(answer.and_then(|bytes| decode_made(&bytes)))))
}

/// The input bytes the result link `fragment` carries, inflated in a new worker (its
/// `open-link` job); `done` gets them, or why not in words (a damaged link).
pub fn open_link(fragment: &str, done: Box<dyn Fn(Result<Vec<u8>, String>)>) -> Result<OneJob, String> {
    one_job(job(&[("kind", "open-link".into()), ("fragment", fragment.into())]), Array::new(), done)
}

/// Compares `files` in a new worker (its `compare` job: the golden file among them, else the
/// first, is the reference; the last `noise` are a second run of it, the noise floor) against `thresholds`' comparison rules, as `what` asks (`view`: a
/// postcard `CompareView`; `markdown`, `html`, `json`: the CLI's reports); `done` gets the
/// answer, or why not (files that are not outputs to compare say so).
pub fn compare(
    (files, noise): (&[web_sys::File], usize),
    thresholds: &Thresholds,
    what: &str,
    done: Box<dyn Fn(Result<Vec<u8>, String>)>,
) -> Result<OneJob, String> {
    let list = files.iter().fold(Array::new(), |list, f| {
        list.push(f);
        list
    });
    let job = job(&[
        ("kind", "compare".into()),
        ("files", list.into()),
        ("noise", (noise as u32).into()),
        ("thresholds", thresholds.compact().into()),
        ("what", what.into()),
    ]);
    one_job(job, Array::new(), done)
}

/// `[value]` when it is an `ArrayBuffer` (moved, not copied, with a message), else `[]`.
fn transferable(value: &JsValue) -> Array {
    if value.is_instance_of::<js_sys::ArrayBuffer>() {
        Array::of1(value)
    } else {
        Array::new()
    }
}

/// Starts reading `file` as `chosen` (`None`: the detected format) in a new worker, judged
/// against `thresholds`.
pub fn start(
    file: &web_sys::File,
    ReadAs { format: chosen, thresholds }: ReadAs,
    on_event: Rc<dyn Fn(Event)>,
) -> Result<Job, String> {
    let worker = new_worker()?;
    let cancelled = Rc::new(Cell::new(false));
    let helper: Rc<RefCell<Option<Helper>>> = Rc::new(RefCell::new(None));
    let read_ahead: Rc<RefCell<ReadAhead>> = Rc::default();

    let on_message = {
        let (on_event, cancelled, worker) = (Rc::clone(&on_event), Rc::clone(&cancelled), worker.clone());
        let (file, helper, read_ahead) = (file.clone(), Rc::clone(&helper), Rc::clone(&read_ahead));
        Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if cancelled.get() {
                return;
            }
            let data = e.data();
            match get(&data, "kind").as_string().as_deref() {
                Some("help-needed") => {
                    let job = get(&data, "job");
                    // A long text's side passes: its bytes in the file.
                    read_ahead.borrow_mut().range = (get(&job, "kind").as_string().as_deref() == Some("deflate"))
                        .then(|| Some(get(&job, "start").as_f64()? as usize..get(&job, "end").as_f64()? as usize))
                        .flatten();
                    let answer: Rc<dyn Fn(JsValue)> = {
                        let (worker, file, read_ahead) = (worker.clone(), file.clone(), Rc::clone(&read_ahead));
                        Rc::new(move |answer: JsValue| {
                            if !answer.is_null() {
                                read_ahead.borrow_mut().begin(&file);
                            }
                            let message = Object::new();
                            let _ = Reflect::set(&message, &"kind".into(), &"helped".into());
                            let _ = Reflect::set(&message, &"answer".into(), &answer);
                            let _ = worker.post_message_with_transfer(&message, &transferable(&answer));
                        })
                    };
                    match start_helper(&file, job, Rc::clone(&answer)) {
                        Ok(started) => *helper.borrow_mut() = Some(started),
                        Err(_) => answer(JsValue::NULL),
                    }
                }
                // The first worker's share of a long text is done (the second's may not be).
                Some("share-done") => read_ahead.borrow_mut().begin(&file),
                Some("progress") => {
                    let bytes = Uint8Array::new(&get(&data, "progress")).to_vec();
                    if let Ok(p) = postcard::from_bytes::<Progress>(&bytes) {
                        on_event(Event::Progress(p));
                    }
                }
                Some("done") => {
                    // Its work is done: free its memory before the page takes in the result.
                    worker.terminate();
                    helper.borrow_mut().take();
                    let pieces = get(&data, "pieces").dyn_into::<Array>().unwrap_or_default();
                    let texts = Uint8Array::new(&get(&data, "texts"));
                    let (on_event, cancelled, file) = (Rc::clone(&on_event), Rc::clone(&cancelled), file.clone());
                    let read_ahead = std::mem::take(&mut *read_ahead.borrow_mut());
                    wasm_bindgen_futures::spawn_local(async move {
                        let result = take_in(pieces, texts, &file, read_ahead, &on_event, &cancelled).await;
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

    let request = Object::new();
    let _ = Reflect::set(&request, &"file".into(), file);
    let format = chosen.map_or(JsValue::UNDEFINED, |f| JsValue::from_str(f.name()));
    let _ = Reflect::set(&request, &"format".into(), &format);
    let _ = Reflect::set(&request, &"thresholds".into(), &thresholds.compact().into());
    post_job(&worker, request, &cancelled, &on_event);
    Ok(Job { worker, cancelled, helper, _on_message: on_message, _on_error: on_error })
}

/// Starts reading `bytes` (a pasted text, a sample, a result link's input, a capture replayed:
/// every input the page holds in memory) as `chosen` in a new worker, as [`start`] reads a file:
/// the bytes go to the worker once, as a `File` named `name`, and the page's main thread does no
/// analysis.
pub fn start_bytes(bytes: &[u8], name: &str, asked: ReadAs, on_event: Rc<dyn Fn(Event)>) -> Result<Job, String> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let file = web_sys::File::new_with_u8_array_sequence(&parts, name)
        .map_err(|_| "the browser could not hand the text to the worker".to_string())?;
    start(&file, asked, on_event)
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

/// A long text read from the file on the main thread while a worker ends its work: the page
/// needs the text to show it, and once either worker has done its share one core is free (read
/// before, beside both workers, it slowed them more than it saved; see docs/speed.md). (Taken
/// from the first worker instead, a copy it makes, it came 40–50 ms sooner but raised the
/// renderer's peak memory by 95 MB for a 50 MB text.)
#[derive(Default)]
struct ReadAhead {
    /// The long text's bytes in the file, once a second worker was asked for its side passes.
    range: Option<Range<usize>>,
    /// The text once its reading has begun.
    read: Option<TextRead>,
}

/// A text being read: empty until it is read (or could not be).
type TextRead = Rc<RefCell<Option<Result<String, String>>>>;

impl ReadAhead {
    /// Begins reading the long text, unless there is none or it has begun.
    fn begin(&mut self, file: &web_sys::File) {
        let Some(range) = self.range.clone().filter(|_| self.read.is_none()) else { return };
        let read = Rc::new(RefCell::new(None));
        let (file, into) = (file.clone(), Rc::clone(&read));
        wasm_bindgen_futures::spawn_local(async move {
            let text = read_from_file(&file, range).await;
            *into.borrow_mut() = Some(text);
        });
        self.read = Some(read);
    }

    /// The text at `range` of the file once read, if it is the one read ahead (`None` when it
    /// is not, or could not be read).
    async fn text(self, range: &Range<usize>) -> Option<String> {
        let read = self.read.filter(|_| self.range.as_ref() == Some(range))?;
        loop {
            if let Some(text) = read.borrow_mut().take() {
                return text.ok();
            }
            dom::next_tick().await;
        }
    }
}

/// Decodes the result in slices of [`SLICE_MS`], yielding to the browser between them and
/// freeing each piece once read; then reads the texts that stayed in the file (a text read
/// ahead is taken as it is).
async fn take_in(
    pieces: Array,
    texts: Uint8Array,
    file: &web_sys::File,
    mut read_ahead: ReadAhead,
    on_event: &Rc<dyn Fn(Event)>,
    cancelled: &Cell<bool>,
) -> Result<JudgedDocument, String> {
    let mut read_piece = |k: usize| {
        let piece = Uint8Array::new(&pieces.get(k as u32)).to_vec();
        pieces.set(k as u32, JsValue::UNDEFINED);
        piece
    };
    let mut read_text = |r: Range<usize>| {
        if r.start <= r.end && r.end <= texts.length() as usize {
            texts.subarray(r.start as u32, r.end as u32).to_vec()
        } else {
            Vec::new()
        }
    };
    let mut decoder = Decoder::new(pieces.length() as usize);
    loop {
        let started = dom::now_ms().unwrap_or(0.0);
        while !decoder.done() && dom::now_ms().unwrap_or(f64::MAX) - started < SLICE_MS {
            decoder.step(&mut read_piece, &mut read_text)?;
        }
        let progress = Progress { stage: Stage::Preparing, prepared: Some(decoder.progress()), ..Progress::default() };
        on_event(Event::Progress(progress));
        dom::next_tick().await;
        if cancelled.get() {
            return Err("cancelled".into());
        }
        if decoder.done() {
            break;
        }
    }
    let from_file = decoder.file_texts().to_vec();
    let mut loaded = decoder.finish()?;
    drop((pieces, texts));
    for (i, range) in from_file {
        let text = match std::mem::take(&mut read_ahead).text(&range).await {
            Some(text) => text,
            None => read_from_file(file, range).await?,
        };
        if cancelled.get() {
            return Err("cancelled".into());
        }
        loaded.transcript.messages.get_mut(i).ok_or("the worker's result did not read back")?.text = Rc::new(text);
    }
    Ok(loaded)
}

/// The text at `range` of `file`, read a few megabytes at a time straight into one string.
async fn read_from_file(file: &web_sys::File, range: Range<usize>) -> Result<String, String> {
    let changed = || "the file changed while it was read; open it again".to_string();
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(range.len()).map_err(|_| explain("not enough memory"))?;
    let slice = file.slice_with_f64_and_f64(range.start as f64, range.end as f64).map_err(|_| changed())?;
    let read = read_blob(&slice, &mut |read: &Uint8Array| {
        let (old, n) = (bytes.len(), read.length() as usize);
        if old + n > range.len() {
            return Err(JsValue::NULL);
        }
        bytes.resize(old + n, 0);
        read.copy_to(&mut bytes[old..]);
        Ok(())
    })
    .await;
    if read.is_err() || bytes.len() != range.len() {
        return Err(changed());
    }
    String::from_utf8(bytes).map_err(|_| changed())
}
