//! Live endpoint mode: the form (base URL, API key, model, prompt, limits, advanced JSON), Load
//! models, Start and Stop, and the run itself: streamed by the run driver into a session in the
//! analysis worker, a snapshot of it shown whenever the driver's pacer says a full report is due
//! and once at the end.
//!
//! The API key stays in this component's state, bound to the origin of the base URL it was
//! typed for (`BoundKey`: sent to that origin only; for another, the page says it is not sent);
//! it goes only into the `Authorization` header, and into `localStorage` (with its origin) only
//! while "remember on this device" is ticked.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use wasm_bindgen::JsValue;
use web_sys::AbortController;
use yew::prelude::*;

use super::fetch;
use super::needle::NeedleProbe;
use super::panel_state::{Failure, Form, PanelAction, PanelState};
use super::probes::{LiveProbes, ReasoningSeen};
use super::result::live_result;
use super::run::{self, NoStream};
use super::soak::SoakRun;
use super::view::LiveView;
use crate::dom;
use coherency_core::analyze::Verdict;
use coherency_core::live::{
    build_request, explain_fetch_failure, http_error_text, models_url, parse_models, plain_http_key_warning, BoundKey,
    ChatRequest, LiveSnapshot, PRESETS,
};

const KEY_STORAGE: &str = "coherency-api-key";

/// Numbers every snapshot (across runs), so a new snapshot never compares equal to an old one.
static SEQ: AtomicU64 = AtomicU64::new(1);

/// The run in progress: how to stop it.
struct Run {
    controller: Option<AbortController>,
    stopped: Rc<Cell<bool>>,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Reads a finished run's capture through the file path (the text or file view).
    pub on_capture: Callback<Rc<[u8]>>,
}

#[component]
pub fn LivePanel(props: &Props) -> Html {
    let state = use_reducer(|| PanelState::new(dom::stored(KEY_STORAGE).and_then(|s| BoundKey::from_stored(&s))));
    let form = &state.form;
    // The run going: how to stop it (a browser handle, not state).
    let run = use_mut_ref(|| None::<Run>);
    let on_reasoning = {
        let dispatcher = state.dispatcher();
        Callback::from(move |seen: ReasoningSeen| dispatcher.dispatch(PanelAction::Reasoning(seen)))
    };

    // The key is stored only while "remember" is ticked; unticking forgets it.
    use_effect_with((form.key.clone(), form.remember), |(key, remember)| {
        dom::store(KEY_STORAGE, remember.then(|| key.stored()).as_deref());
    });

    let edit = |set: fn(&mut Form, String)| {
        let dispatcher = state.dispatcher();
        Callback::from(move |e: Event| dispatcher.dispatch(PanelAction::Edit(set, target_value(&e, "value"))))
    };
    let typed = |set: fn(&mut Form, String)| {
        let dispatcher = state.dispatcher();
        Callback::from(move |e: InputEvent| dispatcher.dispatch(PanelAction::Edit(set, target_value(&e, "value"))))
    };
    let on_remember = {
        let dispatcher = state.dispatcher();
        Callback::from(move |e: Event| {
            let checked = target_value(&e, "checked");
            dispatcher.dispatch(PanelAction::Edit(|f, v| f.remember = v == "true", checked))
        })
    };
    let on_preset = {
        let dispatcher = state.dispatcher();
        Callback::from(move |e: Event| {
            let chosen = target_value(&e, "value");
            if let Some((_, prompt)) = chosen.parse::<usize>().ok().and_then(|i| PRESETS.get(i)) {
                dispatcher.dispatch(PanelAction::Edit(|f, v| f.req.prompt = v, prompt.to_string()));
            }
        })
    };

    let load_models = {
        let (form, dispatcher) = (form.clone(), state.dispatcher());
        Callback::from(move |_: MouseEvent| {
            let url = models_url(&form.req.base_url);
            let key = form.sent_key();
            let (dispatcher, fill) = (dispatcher.clone(), form.req.model.trim().is_empty());
            dispatcher.dispatch(PanelAction::ModelsLoading);
            wasm_bindgen_futures::spawn_local(async move {
                let result = match fetch::send("GET", &url, None, &key, None).await {
                    Err(e) => Err(explain_fetch_failure(&url, &fetch::page_origin(), &fetch::error_text(&e))),
                    Ok(r) => match fetch::text(&r).await {
                        Err(e) => Err(fetch::error_text(&e)),
                        Ok(body) if !r.ok() => Err(http_error_text(r.status(), &body)),
                        Ok(body) => parse_models(&body),
                    },
                };
                dispatcher.dispatch(match result {
                    Ok(ids) => PanelAction::ModelsListed { ids, url, fill },
                    Err(e) => PanelAction::ModelsFailed(e),
                });
            });
        })
    };

    let start = {
        let (form, run, reasoning) = (form.clone(), run.clone(), on_reasoning.clone());
        let (dispatcher, running, at_fail) = (state.dispatcher(), state.running, state.stop_at_fail);
        Callback::from(move |_: MouseEvent| {
            if running {
                return;
            }
            let req = match build_request(&form.req) {
                Ok(req) => req,
                Err(text) => return dispatcher.dispatch(PanelAction::Failed(Failure { kind: "form", text })),
            };
            dispatcher.dispatch(PanelAction::Started);
            let controller = fetch::abort_controller();
            let stopped = Rc::new(Cell::new(false));
            *run.borrow_mut() = Some(Run { controller: controller.clone(), stopped: Rc::clone(&stopped) });
            let outputs = Outputs {
                dispatcher: dispatcher.clone(),
                reasoning: reasoning.clone(),
                stop_at_fail: at_fail.then(|| form.req.max_tokens.trim().parse().ok()),
            };
            wasm_bindgen_futures::spawn_local(stream(req, form.sent_key(), controller, stopped, outputs));
        })
    };
    let stop = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| stop_run(&run))
    };
    let on_stop_at_fail = {
        let dispatcher = state.dispatcher();
        Callback::from(move |e: Event| {
            dispatcher.dispatch(PanelAction::StopAtFail(target_value(&e, "checked") == "true"))
        })
    };

    let models = &state.models;
    let running = state.running;
    let options = models.iter().map(|id| html! { <option value={id.clone()}>{ id }</option> });
    let f = &form.req;
    let sent_key = form.sent_key();
    let custom = !PRESETS.iter().any(|(_, p)| *p == f.prompt);
    let presets = PRESETS.iter().enumerate().map(|(i, (label, prompt))| {
        html! { <option value={i.to_string()} selected={*prompt == f.prompt}>{ *label }</option> }
    });
    let failure_view = state.failure.clone().map(|fl| {
        html! { <p id="live-failure" class="status notice-line" role="alert" data-kind={fl.kind}>{ fl.text }</p> }
    });
    let status = match (&state.view, running) {
        (Some(v), _) => v.status(),
        (None, true) => "Connecting…".to_string(),
        (None, false) => String::new(),
    };
    html! {
        <>
            <section class="card input-card live-form" aria-labelledby="live-form-heading">
                <h2 id="live-form-heading">{ "Stream from an OpenAI-compatible endpoint" }</h2>
                <div class="form-grid">
                    <label class="label" for="live-base">{ "Base URL" }</label>
                    <input id="live-base" type="url" value={f.base_url.clone()} oninput={typed(|f, v| f.req.base_url = v)} spellcheck="false" />
                    <label class="label" for="live-key">{ "API key (optional)" }</label>
                    <div>
                        <input id="live-key" type="password" autocomplete="off" value={form.key.key.clone()} oninput={typed(|f, v| f.key = BoundKey::typed(v, &f.req.base_url))}
                            placeholder="kept in this page's memory only" />
                        if let Some(warning) = plain_http_key_warning(&f.base_url, &sent_key) {
                            <p class="help warning" id="live-http-warning" role="alert">{ warning }</p>
                        }
                        if let Err(not_sent) = form.key.for_endpoint(&f.base_url) {
                            <p class="help warning" id="live-key-not-sent" role="alert">{ not_sent }</p>
                        }
                        <label class="check">
                            <input id="live-remember" type="checkbox" checked={form.remember} onchange={on_remember} />
                            { " Remember on this device" }
                        </label>
                        if form.remember {
                            <p class="help warning" id="live-remember-warning">
                                { "The key is stored in plain text in this browser's localStorage: anyone using this browser profile, and any script on this page's origin, can read it. Untick to forget it." }
                            </p>
                        }
                    </div>
                    <label class="label" for="live-model">{ "Model" }</label>
                    <div class="row">
                        <input id="live-model" value={f.model.clone()} oninput={typed(|f, v| f.req.model = v)} spellcheck="false"
                            placeholder="model id" />
                        <select id="live-model-list" aria-label="Models the server lists" onchange={edit(|f, v| f.req.model = v)}
                            disabled={models.is_empty()}>
                            <option value="" selected=true disabled=true>{ if models.is_empty() { "(load models first)" } else { "pick a listed model" } }</option>
                            { for options }
                        </select>
                        <button type="button" id="live-load-models" class="button" onclick={load_models}>{ "Load models" }</button>
                    </div>
                    if let Some(note) = state.models_note.clone() { <p id="live-models-note" class="help span-2">{ note }</p> }
                    <label class="label" for="live-prompt">{ "Prompt" }</label>
                    <div>
                        <select id="live-preset" aria-label="Prompt presets" onchange={on_preset}>
                            { for presets }
                            <option value="custom" selected={custom} disabled=true>{ "Your own prompt (edited)" }</option>
                        </select>
                        <textarea id="live-prompt" rows="5" value={f.prompt.clone()} oninput={typed(|f, v| f.req.prompt = v)} />
                    </div>
                    <label class="label" for="live-max-tokens">{ "max_tokens" }</label>
                    <input id="live-max-tokens" inputmode="numeric" value={f.max_tokens.clone()} oninput={typed(|f, v| f.req.max_tokens = v)} />
                    <label class="label" for="live-temperature">{ "temperature" }</label>
                    <input id="live-temperature" inputmode="decimal" value={f.temperature.clone()} oninput={typed(|f, v| f.req.temperature = v)} />
                    <label class="label" for="live-extra">{ "Advanced: JSON merged into the request body" }</label>
                    <textarea id="live-extra" rows="2" spellcheck="false" placeholder="{\"top_p\": 0.95}" value={f.extra_json.clone()}
                        oninput={typed(|f, v| f.req.extra_json = v)} />
                </div>
                <div class="actions">
                    <button type="button" id="live-start" class="button primary" onclick={start} disabled={running}>{ "Start streaming" }</button>
                    <button type="button" id="live-stop" class="button" onclick={stop} disabled={!running}>{ "Stop" }</button>
                    <label class="check">
                        <input id="live-stop-at-fail" type="checkbox" checked={state.stop_at_fail} onchange={on_stop_at_fail} />
                        { " Stop when it FAILs" }
                    </label>
                    <span class="help">{ "Sends stream: true with stream_options.include_usage; the key only as an Authorization header." }</span>
                </div>
                <p id="live-status" class="status" role="status" aria-live="polite">{ status }</p>
                { for failure_view }
            </section>
            <div class="results live-results">
                if let Some(v) = state.view.clone() { { live_result(&v, &props.on_capture) } }
            </div>
            <section class="card live-tools" aria-label="Soak, context fidelity and endpoint checks">
                <SoakRun form={f.clone()} api_key={sent_key.clone()} on_capture={props.on_capture.clone()} {on_reasoning} />
                <NeedleProbe form={f.clone()} api_key={sent_key.clone()} />
                <LiveProbes base_url={f.base_url.clone()} model={f.model.clone()} api_key={sent_key} streamed={state.streamed.clone()} />
            </section>
        </>
    }
}

/// Where a run reports to.
struct Outputs {
    /// The panel's state: the snapshots, the failure, the end.
    dispatcher: UseReducerDispatcher<PanelState>,
    /// Where the run put its reasoning, for probe D.
    reasoning: Callback<ReasoningSeen>,
    /// "Stop when it FAILs" ticked: `Some`, with the request's max_tokens when it is a number.
    stop_at_fail: Option<Option<u64>>,
}

fn stop_run(run: &Rc<RefCell<Option<Run>>>) {
    if let Some(r) = run.borrow().as_ref() {
        r.stopped.set(true);
        if let Some(c) = &r.controller {
            c.abort();
        }
    }
}

/// Sends `req`, streams the body into a session and shows it as it goes; always ends with the
/// run marked not running.
async fn stream(
    req: ChatRequest,
    key: String,
    controller: Option<AbortController>,
    stopped: Rc<Cell<bool>>,
    out: Outputs,
) {
    let signal = controller.as_ref().map(|c| c.signal());
    let at_fail = Cell::new(false);
    // The session's reports are paced by the run driver; each snapshot is shown.
    let mut shown = |snapshot: LiveSnapshot| {
        if publish(snapshot, None, &out, None) && out.stop_at_fail.is_some() && !stopped.get() {
            // The first FAIL: the rest of the generation would only cost time and tokens.
            at_fail.set(true);
            stopped.set(true);
            if let Some(c) = &controller {
                c.abort();
            }
        }
    };
    match run::stream(&req.url, &req.body, &key, signal.as_ref(), &|| stopped.get(), Some(&mut shown)).await {
        Ok(streamed) => {
            let placement = streamed.snapshot.placement.clone();
            let at_fail = at_fail.get().then_some(out.stop_at_fail.flatten());
            publish(streamed.snapshot, Some(streamed.capture), &out, at_fail);
            out.reasoning.emit(ReasoningSeen::LongRun(placement));
        }
        Err(NoStream::Unanswered(_)) if stopped.get() => {
            let text = "Stopped before the server answered.".to_string();
            out.dispatcher.dispatch(PanelAction::Failed(Failure { kind: "stopped", text }));
        }
        Err(e) => {
            let kind = match e {
                NoStream::Unanswered(_) => "no-response",
                NoStream::Refused { .. } => "http",
                NoStream::Unscored(_) => "unscored",
            };
            out.dispatcher.dispatch(PanelAction::Failed(Failure { kind, text: e.text(&req.url) }));
        }
    }
    out.dispatcher.dispatch(PanelAction::Ended);
}

/// Shows `snapshot` (with the body as received, once the run has ended; `at_fail`: the run was
/// stopped at its first FAIL, with the request's max_tokens). True when the text FAILs.
fn publish(snapshot: LiveSnapshot, capture: Option<Rc<[u8]>>, out: &Outputs, at_fail: Option<Option<u64>>) -> bool {
    let mut view = LiveView::snapshot(SEQ.fetch_add(1, Ordering::Relaxed), snapshot, capture);
    if let Some(max_tokens) = at_fail {
        view = view.stopped_at_fail(max_tokens);
    }
    let fails = view.worst.is_some_and(|(v, _)| v == Verdict::Fail);
    out.dispatcher.dispatch(PanelAction::Snapshot(Rc::new(view)));
    fails
}

/// The event target's `value` (or `checked`, as "true"/"false") property as a string.
fn target_value(e: &Event, property: &str) -> String {
    let Some(target) = e.target() else { return String::new() };
    match js_sys::Reflect::get(&target, &JsValue::from_str(property)) {
        Ok(v) => v.as_string().or_else(|| v.as_bool().map(|b| b.to_string())).unwrap_or_default(),
        Err(_) => String::new(),
    }
}
