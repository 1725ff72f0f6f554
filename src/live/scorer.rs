//! A live run's scores, computed off the main thread: the run's session lives in an analysis
//! worker of its own (`www/worker.js`, `crates/analysis-worker/src/live.rs`), which gets each
//! read of the response body (transferred, not copied) with its time; the page asks it for a
//! snapshot when its pacer says one is due and once at the end, and gets back the texts, their
//! reports and figures (`coherency_worker_wire::live`). The page's wasm holds no scorer.
//! Dropping the [`Scorer`] ends the worker at once (Stop, a new run, a page that moved on).
//!
//! The worker answers in the order it was asked, so the answers are taken in turn; an error
//! the worker reports (or its failing to start) answers every ask still waiting and every later
//! one: the run cannot be scored.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ErrorEvent, MessageEvent, Worker};

use crate::file_load::loader::{compiled_analysis_module, new_worker};
use coherency_core::live::{Ending, LiveSnapshot};
use coherency_worker_wire::live::{decode_snapshot, ending_parts};

/// What the worker's answers wait on: the asks in order, and why it failed once it has.
#[derive(Default)]
struct Answers {
    waiting: VecDeque<Function>,
    failed: Option<String>,
}

impl Answers {
    /// The worker failed: every ask waiting gets `why`, and so does every later one.
    fn fail(&mut self, why: String) {
        let error = JsValue::from(error_message(&why));
        for resolve in self.waiting.drain(..) {
            let _ = resolve.call1(&JsValue::NULL, &error);
        }
        self.failed.get_or_insert(why);
    }
}

fn error_message(why: &str) -> Object {
    let o = Object::new();
    let _ = Reflect::set(&o, &"kind".into(), &"error".into());
    let _ = Reflect::set(&o, &"message".into(), &why.into());
    o
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// One live run's session in its worker. See the module doc.
pub struct Scorer {
    worker: Worker,
    answers: Rc<RefCell<Answers>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl Drop for Scorer {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

impl Scorer {
    /// A worker holding a new session whose request (`body`, whose prompt the reply is judged
    /// against for topic drift) is sent at `started_ms()`, read once the worker has been
    /// handed the analysis wasm (as the page loads, it may still be compiling).
    pub async fn start(started_ms: &dyn Fn() -> f64, body: &str) -> Result<(Scorer, f64), String> {
        let module = compiled_analysis_module().await;
        let worker = new_worker()?;
        let answers = Rc::new(RefCell::new(Answers::default()));
        let on_message = {
            let answers = Rc::clone(&answers);
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                let data = e.data();
                let mut answers = answers.borrow_mut();
                if get(&data, "kind").as_string().as_deref() == Some("error") {
                    let why = get(&data, "message").as_string().unwrap_or_default();
                    answers.fail(format!("the analysis worker failed: {why}"));
                } else if let Some(resolve) = answers.waiting.pop_front() {
                    let _ = resolve.call1(&JsValue::NULL, &data);
                }
            })
        };
        let on_error = {
            let answers = Rc::clone(&answers);
            Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
                e.prevent_default();
                answers.borrow_mut().fail(format!("the analysis worker failed: {}", e.message()));
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let scorer = Scorer { worker, answers, _on_message: on_message, _on_error: on_error };
        let started = started_ms();
        scorer.post(
            &[("kind", "live".into()), ("t", started.into()), ("request", body.into()), ("module", module)],
            None,
        );
        Ok((scorer, started))
    }

    /// Posts `{pairs}`, moving `transfer`'s buffer with it.
    fn post(&self, pairs: &[(&str, JsValue)], transfer: Option<&JsValue>) {
        let message = Object::new();
        for (k, v) in pairs {
            let _ = Reflect::set(&message, &JsValue::from_str(k), v);
        }
        let sent = match transfer {
            Some(buffer) => self.worker.post_message_with_transfer(&message, &Array::of1(buffer)),
            None => self.worker.post_message(&message),
        };
        if sent.is_err() {
            self.answers.borrow_mut().fail("the live run could not be handed to the analysis worker".to_string());
        }
    }

    /// The response headers arrived at `now_ms`.
    pub fn headers(&self, now_ms: f64) {
        self.post(&[("kind", "live-headers".into()), ("t", now_ms.into())], None);
    }

    /// A read of the body that arrived at `now_ms` (its buffer moves to the worker).
    pub fn feed(&self, bytes: &Uint8Array, now_ms: f64) {
        let pairs = [("kind", "live-feed".into()), ("bytes", bytes.into()), ("t", now_ms.into())];
        self.post(&pairs, Some(&bytes.buffer()));
    }

    /// The run as it is now.
    pub async fn snapshot(&self) -> Result<LiveSnapshot, String> {
        let answer = self.ask(&[("kind", "live-snapshot".into())]).await?;
        read_snapshot(&answer)
    }

    /// Ends the run at `now_ms` as `ending` says: its last snapshot and the body as received.
    pub async fn end(&self, ending: &Ending, now_ms: f64) -> Result<(LiveSnapshot, Rc<[u8]>), String> {
        let (kind, why) = ending_parts(ending);
        let why = why.map_or(JsValue::UNDEFINED, JsValue::from);
        let answer = self
            .ask(&[("kind", "live-end".into()), ("ending", kind.into()), ("why", why), ("t", now_ms.into())])
            .await?;
        let capture = get(&answer, "capture");
        if !capture.is_instance_of::<js_sys::ArrayBuffer>() {
            return Err("the analysis worker sent no capture".to_string());
        }
        Ok((read_snapshot(&answer)?, Uint8Array::new(&capture).to_vec().into()))
    }

    /// Posts an ask and waits for its answer (the worker's error, when it failed).
    async fn ask(&self, pairs: &[(&str, JsValue)]) -> Result<JsValue, String> {
        if let Some(why) = &self.answers.borrow().failed {
            return Err(why.clone());
        }
        let answers = Rc::clone(&self.answers);
        let answer = Promise::new(&mut |resolve, _| answers.borrow_mut().waiting.push_back(resolve));
        self.post(pairs, None);
        let answer = JsFuture::from(answer).await.unwrap_or(JsValue::UNDEFINED);
        match get(&answer, "kind").as_string().as_deref() {
            Some("live-snapshot") => Ok(answer),
            _ => {
                Err(get(&answer, "message").as_string().unwrap_or_else(|| "the analysis worker did not answer".into()))
            }
        }
    }
}

fn read_snapshot(answer: &JsValue) -> Result<LiveSnapshot, String> {
    let snapshot = get(answer, "snapshot");
    if !snapshot.is_instance_of::<js_sys::ArrayBuffer>() {
        return Err("the analysis worker sent no snapshot".to_string());
    }
    decode_snapshot(&Uint8Array::new(&snapshot).to_vec())
}
