//! The soak run: N generations (1–100) of the endpoint in the form — or of it (A) and a second
//! configuration (B), alternating on the same prompts and seeds — the prompts rotated, each
//! with its own seed, one to four streams at a time; a row per finished generation (click it
//! for its full analysis), the summary a team quotes (the core's `live::soak`), Stop that keeps
//! what finished, the rows as JSONL and the captures as one file (the core's
//! `live::captures_file`, read back by the file path). The key goes only into each request's
//! header. The run's state (its rows, the streams left, a word, the comparison shown) is one
//! pure reducer (`soak_run_state.rs`) that the streams dispatch into.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::fetch;
use super::probes::ReasoningSeen;
use super::run;
use super::soak_form::{SoakEdit, SoakForm, SoakPlan};
use super::soak_run_state::{Row, SoakRunAction, SoakRunState};
use crate::components::compare_view::CompareReportView;
use crate::dom;
use crate::file_load::loader::{self, OneJob};
use crate::model::level_key;
use coherency_core::analyze::Thresholds;
use coherency_core::live::captures_file::export_captures;
use coherency_core::live::conversation::Conversation;
use coherency_core::live::soak::{compare, export_jsonl, Generation, Planned, SoakSummary, Spread};
use coherency_core::live::Ending;
use coherency_core::live::RequestForm;
use coherency_core::wording::thousands;
use coherency_worker_wire::compare::decode_view;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub form: RequestForm,
    /// Sent as a header only; never in a row or the export.
    pub api_key: AttrValue,
    /// Opens a generation's capture in the text or file view.
    pub on_capture: Callback<Rc<[u8]>>,
    /// Where each generation put its reasoning (probe D's evidence).
    pub on_reasoning: Callback<ReasoningSeen>,
}

/// The soak in progress: how to stop it, and the keys it sends (cut out of its captures).
struct Soak {
    controller: Option<web_sys::AbortController>,
    stopped: Rc<Cell<bool>>,
    keys: Rc<[(String, String); 2]>,
}

#[component]
pub fn SoakRun(props: &Props) -> Html {
    let fields = use_reducer(SoakForm::default);
    let state = use_reducer(SoakRunState::default);
    let compare_job = use_mut_ref(|| None::<OneJob>);
    let compared_files = use_mut_ref(|| ComparedFiles::None);
    let soak = use_mut_ref(|| None::<Soak>);

    let start = {
        let (form, key, on_reasoning) = (props.form.clone(), props.api_key.to_string(), props.on_reasoning.clone());
        let (fields, running, dispatcher, soak) = (fields.clone(), state.running(), state.dispatcher(), soak.clone());
        Callback::from(move |_: MouseEvent| {
            if running {
                return;
            }
            let SoakPlan { planned, streams, keys, conversation } = match fields.plan(&form, &key) {
                Ok(p) => p,
                Err(e) => return dispatcher.dispatch(SoakRunAction::Note(e)),
            };
            let talk = conversation.map(|set| Rc::new(RefCell::new(Conversation::new(&set))));
            let keys = Rc::new(keys);
            on_reasoning.emit(ReasoningSeen::SoakStarted);
            dispatcher.dispatch(SoakRunAction::Started { streams });
            let stopped = Rc::new(Cell::new(false));
            let controller = fetch::abort_controller();
            *soak.borrow_mut() =
                Some(Soak { controller: controller.clone(), stopped: Rc::clone(&stopped), keys: Rc::clone(&keys) });
            let queue = Rc::new(RefCell::new(VecDeque::from(planned)));
            for _ in 0..streams {
                let worker = Worker {
                    queue: Rc::clone(&queue),
                    keys: Rc::clone(&keys),
                    controller: controller.clone(),
                    stopped: Rc::clone(&stopped),
                    dispatcher: dispatcher.clone(),
                    on_reasoning: on_reasoning.clone(),
                    conversation: talk.clone(),
                };
                let ended = dispatcher.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    worker.run().await;
                    ended.dispatch(SoakRunAction::StreamEnded);
                });
            }
        })
    };
    let stop = {
        let soak = soak.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(s) = soak.borrow().as_ref() {
                s.stopped.set(true);
                if let Some(c) = &s.controller {
                    c.abort();
                }
            }
        })
    };
    let export = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            let generations: Vec<Generation> = state.generations().cloned().collect();
            dom::download("coherency-soak.jsonl", export_jsonl(&generations).as_bytes());
        })
    };
    let save_captures = {
        let (state, soak, key, fields) = (state.clone(), soak.clone(), props.api_key.clone(), fields.clone());
        Callback::from(move |_: MouseEvent| {
            // The keys the run sent, and those in the form now.
            let soak = soak.borrow();
            let sent = soak.as_ref().map(|s| [s.keys[0].0.as_str(), s.keys[1].0.as_str()]).unwrap_or_default();
            let file = export_captures(
                state.rows.iter().map(|r| (&r.generation, &*r.capture)),
                &[sent[0], sent[1], &key, &fields.b_key],
            );
            dom::download("coherency-captures.jsonl", file.as_bytes());
        })
    };

    // A's captures compared with B's (the reference), or with a golden file, in the analysis
    // worker, as captures files: the same comparison as files dropped on the page.
    let comparer =
        Comparer { state: state.clone(), soak: soak.clone(), job: compare_job.clone(), files: compared_files.clone() };
    let run_compare = {
        let comparer = comparer.clone();
        Callback::from(move |_: MouseEvent| {
            // The reference first: B, then A, then B's second run (the noise floor) when it ran.
            let again = comparer.state.has("R");
            let sides: Option<Vec<web_sys::File>> =
                ["B", "A", "R"].into_iter().take(if again { 3 } else { 2 }).map(|c| comparer.side(c)).collect();
            comparer.compare(sides, usize::from(again));
        })
    };
    // The run compared with a golden file chosen here (A's outputs, or the run's without B).
    let compare_golden = {
        let (comparer, ab) = (comparer.clone(), fields.ab);
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
            let golden = input.files().and_then(|f| f.get(0));
            input.set_value("");
            let Some(golden) = golden else { return };
            let candidate = comparer.side(if ab { "A" } else { "" });
            comparer.compare(candidate.map(|c| vec![golden, c]), 0);
        })
    };
    // The reference's outputs (B's, or the run's without B) saved as a golden file.
    let save_golden = {
        let (comparer, ab) = (comparer.clone(), fields.ab);
        Callback::from(move |_: MouseEvent| {
            let Some(file) = comparer.side(if ab { "B" } else { "" }) else { return };
            let note = comparer.state.dispatcher();
            let refused = |why: String| SoakRunAction::Note(format!("The golden file could not be made: {why}."));
            let done = {
                let note = note.clone();
                move |made: Result<Vec<u8>, String>| match made {
                    Ok(bytes) => dom::download("coherency-golden.jsonl", &bytes),
                    Err(why) => note.dispatch(refused(why)),
                }
            };
            match loader::compare((&[file], 0), &Thresholds::SEED, "golden", Box::new(done)) {
                Ok(job) => *comparer.job.borrow_mut() = Some(job),
                Err(why) => note.dispatch(refused(why)),
            }
        })
    };
    let files_of_comparison = {
        let compared_files = compared_files.clone();
        Callback::from(move |()| compared_files.borrow().clone())
    };

    let (ab, reference) = (fields.ab, fields.reference);
    let (rows_now, running) = (&state.rows, state.running());
    let both_sides = state.has("A") && state.has("B");
    let reference_side = state.has(if ab { "B" } else { "" });
    let candidate_side = state.has(if ab { "A" } else { "" });
    let generations: Vec<&Generation> = state.generations().collect();
    let of = |config: &str| SoakSummary::of(generations.iter().copied().filter(|g| g.config == config));
    let summary = if generations.is_empty() {
        html! {}
    } else if generations.iter().any(|g| !g.config.is_empty()) {
        let (a, b) = (of("A"), of("B"));
        html! {
            <>
                <p id="soak-compare" class="status notice-line" role="status">{ compare(&a, &b) }</p>
                { summary_view(&a, "soak-summary-a", "A · ") }
                { summary_view(&b, "soak-summary-b", "B · ") }
            </>
        }
    } else {
        summary_view(&of(""), "soak-summary", "")
    };
    let table_rows = rows_now.iter().map(|r| {
        let (g, capture, open) = (&r.generation, Rc::clone(&r.capture), props.on_capture.clone());
        let verdict = g.verdict.map_or("—", |v| v.as_str());
        html! {
            <tr class={classes!("jumpable", g.verdict.map(|v| format!("row-{}", level_key(v))))} tabindex="0"
                data-verdict={verdict} onclick={Callback::from(move |_: MouseEvent| open.emit(Rc::clone(&capture)))}>
                { for cells(g).into_iter().enumerate().map(|(i, text)| html! { <td class={COLUMNS[i].1.then_some("num")}>{ text }</td> }) }
            </tr>
        }
    });
    html! {
        <section id="soak" class="subsection" aria-labelledby="soak-heading">
            <h3 id="soak-heading">{ "Soak: loop rate over many generations" }</h3>
            <p class="help">{ "One generation is one sample: a model that loops in 1 of 10 long generations looks healthy on most single tries. Each generation is sent with its own seed (first seed + its number); the prompts rotate." }</p>
            <div class="form-grid">
                { field("soak-count", "Generations (1–100)", (&fields, |f| &f.count, |f, v| f.count = v), Field::Number) }
                { field("soak-streams", "Streams at once (1–4)", (&fields, |f| &f.concurrency, |f, v| f.concurrency = v), Field::Number) }
                { field("soak-seed", "First seed", (&fields, |f| &f.first_seed, |f, v| f.first_seed = v), Field::Number) }
                { field("soak-prompts", "Prompts, one per line (empty: the prompt above)", (&fields, |f| &f.prompts, |f, v| f.prompts = v), Field::Lines) }
                <span class="label">{ "A/B" }</span>
                <label class="check">
                    <input id="soak-ab" type="checkbox" checked={ab} onchange={toggle(&fields, |f| &mut f.ab)} />
                    { " Compare with a second endpoint (B), alternating A, B on the same prompts and seeds" }
                </label>
                if ab {
                    { field("soak-b-base", "B: base URL (empty: A's)", (&fields, |f| &f.b_base, |f, v| f.b_base = v), Field::Text) }
                    { field("soak-b-model", "B: model (empty: A's)", (&fields, |f| &f.b_model, |f, v| f.b_model = v), Field::Text) }
                    { field("soak-b-key", "B: API key (empty: none, or A's for A's URL)", (&fields, |f| &f.b_key, |f, v| f.b_key = v), Field::Secret) }
                    { field("soak-b-extra", "B: advanced JSON (empty: A's)", (&fields, |f| &f.b_extra, |f, v| f.b_extra = v), Field::Text) }
                }
                <span class="label">{ "Reference" }</span>
                <label class="check">
                    <input id="soak-reference" type="checkbox" checked={reference} onchange={toggle(&fields, |f| &mut f.reference)} />
                    { " Compare with a reference: every request at temperature 0 with logprobs (top 5) on fixed seeds. With A/B, B is the reference, each of its requests sent twice (R: how far the reference differs from itself, the noise floor); or compare the run with a golden file, or save it as one" }
                </label>
                if reference {
                    <span class="label">{ "Conversation" }</span>
                    <label class="check">
                        <input id="soak-conversation" type="checkbox" checked={fields.conversation} onchange={toggle(&fields, |f| &mut f.conversation)} />
                        { " The prompts as one conversation, so that the context grows: each prompt is sent after the earlier ones, each followed by the reference's own answer (B's with A/B), so every side sees the same context. One stream at a time" }
                    </label>
                }
            </div>
            <div class="actions">
                <button type="button" id="soak-start" class="button" onclick={start} disabled={running}>{ "Run the generations" }</button>
                <button type="button" id="soak-stop" class="button" onclick={stop} disabled={!running}>{ "Stop" }</button>
                <button type="button" id="soak-export" class="button" onclick={export} disabled={rows_now.is_empty()}>{ "⤓ JSONL" }</button>
                <button type="button" id="soak-export-captures" class="button" onclick={save_captures} disabled={rows_now.is_empty()}
                    title="Every generation's stream in one file, which this page and the CLI read back">{ "⤓ captures" }</button>
                if ab && reference {
                    <button type="button" id="soak-compare-run" class="button" onclick={run_compare} disabled={running || !both_sides}
                        title="A's outputs compared with B's, prompt by prompt (the same comparison as the CLI's coherency compare)">{ "Compare A with B" }</button>
                }
                if reference {
                    <span class="upload">
                        <input type="file" id="soak-golden-input" class="file-input" onchange={compare_golden} disabled={running || !candidate_side} />
                        <label for="soak-golden-input" class="button">{ if ab { "Compare A with a golden file…" } else { "Compare with a golden file…" } }</label>
                    </span>
                    <button type="button" id="soak-save-golden" class="button" onclick={save_golden} disabled={running || !reference_side}
                        title="The reference's outputs (B's, or the run's) as a golden file, which this page and coherency compare read">{ "⤓ golden file" }</button>
                }
                if running { <span class="help" role="status">{ format!("{} finished…", rows_now.len()) }</span> }
            </div>
            if let Some(text) = state.note.clone() { <p id="soak-note" class="status notice-line" role="alert">{ text }</p> }
            { summary }
            if let Some(view) = state.compared.clone() {
                if view.figures.iter().any(|f| f.name == "logprobs") {
                    <p id="soak-no-logprobs" class="status notice-line" role="status">
                        { "Logprobs were asked, but one side (or both) gave none: where the outputs part is compared, the drift of the logprobs is not." }
                    </p>
                }
                <CompareReportView {view} files={files_of_comparison} thresholds={Thresholds::SEED} id_prefix="live-" />
            }
            if !rows_now.is_empty() {
                <div class="table-wrap">
                    <table id="soak-table" class="checks messages">
                        <caption>{ "Generations, in the order they finished · select one for its full analysis" }</caption>
                        <thead><tr>{ for COLUMNS.iter().map(|(label, num)| html! { <th scope="col" class={num.then_some("num")}>{ *label }</th> }) }</tr></thead>
                        <tbody>{ for table_rows }</tbody>
                    </table>
                </div>
            }
        </section>
    }
}

/// The files of the comparison shown, and how many of the last are the noise floor.
type ComparedFiles = Option<(Vec<web_sys::File>, usize)>;

/// What starts a comparison of the run's captures and shows it.
#[derive(Clone)]
struct Comparer {
    /// The run's state as last drawn (its rows), and where comparisons and words go.
    state: UseReducerHandle<SoakRunState>,
    soak: Rc<RefCell<Option<Soak>>>,
    job: Rc<RefCell<Option<OneJob>>>,
    files: Rc<RefCell<ComparedFiles>>,
}

impl Comparer {
    /// The captures of `config`'s generations as a captures file (the run's keys cut out), named
    /// "A-captures.jsonl" ("captures.jsonl" for a run without B).
    fn side(&self, config: &str) -> Option<web_sys::File> {
        let soak = self.soak.borrow();
        let sent: Vec<&str> =
            soak.as_ref().map(|s| vec![s.keys[0].0.as_str(), s.keys[1].0.as_str()]).unwrap_or_default();
        let file = export_captures(
            self.state.rows.iter().filter(|r| r.generation.config == config).map(|r| (&r.generation, &*r.capture)),
            &sent,
        );
        let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(file.as_bytes()));
        let name = if config.is_empty() { "captures.jsonl".to_string() } else { format!("{config}-captures.jsonl") };
        web_sys::File::new_with_u8_array_sequence(&parts, &name).ok()
    }

    /// Compares `files` (the reference first, or a golden file; the last `noise` the noise
    /// floor) in the worker and shows the comparison.
    fn compare(&self, files: Option<Vec<web_sys::File>>, noise: usize) {
        let dispatcher = self.state.dispatcher();
        let Some(files) = files else {
            return dispatcher
                .dispatch(SoakRunAction::Note("The browser could not hand the captures to the worker.".into()));
        };
        let refused = |why: String| SoakRunAction::Note(format!("The comparison could not be made: {why}."));
        let done = {
            let dispatcher = dispatcher.clone();
            move |answer: Result<Vec<u8>, String>| match answer.and_then(|b| decode_view(&b)) {
                Ok(view) => dispatcher.dispatch(SoakRunAction::Compared(Rc::new(view))),
                Err(why) => dispatcher.dispatch(refused(why)),
            }
        };
        *self.files.borrow_mut() = Some((files.clone(), noise));
        match loader::compare((&files, noise), &Thresholds::SEED, "view", Box::new(done)) {
            Ok(job) => *self.job.borrow_mut() = Some(job),
            Err(why) => dispatcher.dispatch(refused(why)),
        }
    }
}

/// What a [`field`] holds.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Number,
    Text,
    Secret,
    Lines,
}

/// A field of the soak's form: its value in the form, and how an edit sets it.
type Bound<'a> = (&'a UseReducerHandle<SoakForm>, fn(&SoakForm) -> &String, fn(&mut SoakForm, String));

/// A labelled text field of `kind` bound to a field of the soak's form.
fn field(id: &'static str, label: &'static str, (fields, get, set): Bound<'_>, kind: Field) -> Html {
    let dispatcher = fields.dispatcher();
    let oninput = Callback::from(move |e: InputEvent| {
        let value = e.target().and_then(|t| js_sys::Reflect::get(&t, &"value".into()).ok()).and_then(|v| v.as_string());
        dispatcher.dispatch(SoakEdit::Set(set, value.unwrap_or_default()));
    });
    let value = get(fields).clone();
    html! {
        <>
            <label class="label" for={id}>{ label }</label>
            {
                match kind {
                    Field::Lines => html! { <textarea {id} rows="3" {value} {oninput} /> },
                    Field::Number => html! { <input {id} inputmode="numeric" {value} {oninput} /> },
                    Field::Text | Field::Secret => html! {
                        <input {id} type={if kind == Field::Secret { "password" } else { "text" }} autocomplete="off" spellcheck="false" {value} {oninput} />
                    },
                }
            }
        </>
    }
}

/// Flips a check box's field of the soak's form.
fn toggle(fields: &UseReducerHandle<SoakForm>, field: fn(&mut SoakForm) -> &mut bool) -> Callback<Event> {
    let dispatcher = fields.dispatcher();
    Callback::from(move |_: Event| dispatcher.dispatch(SoakEdit::Toggle(field)))
}

/// The table's columns: (heading, numeric).
const COLUMNS: [(&str, bool); 10] = [
    ("#", true),
    ("Prompt", true),
    ("Seed", true),
    ("Verdict", false),
    ("Onset", true),
    ("Tokens", true),
    ("Tokens/s", true),
    ("TTFT ms", true),
    ("Finish", false),
    ("Problem", false),
];

/// A generation's cells, in [`COLUMNS`]' order.
fn cells(g: &Generation) -> [String; 10] {
    [
        format!("{}{}", if g.config.is_empty() { String::new() } else { format!("{} · ", g.config) }, g.index + 1),
        (g.prompt + 1).to_string(),
        g.seed.map(|s| s.to_string()).unwrap_or_default(),
        g.verdict.map_or("—", |v| v.as_str()).to_string(),
        g.onset.map(thousands).unwrap_or_default(),
        format!("{}{}", thousands(g.tokens as usize), if g.tokens_estimated { " ≈" } else { "" }),
        g.tokens_per_s.map(|t| format!("{t:.1}")).unwrap_or_default(),
        g.ttft_ms.map(|t| format!("{t:.0}")).unwrap_or_default(),
        format!(
            "{}{}",
            g.finish_reason.as_deref().unwrap_or_default(),
            if g.saw_done { "" } else { " (no end marker)" }
        ),
        g.error.clone().unwrap_or_default(),
    ]
}

/// The summary lines: loop rate with its interval, speeds apart, TTFT, streams cut short.
fn summary_view(s: &SoakSummary, id: &'static str, prefix: &str) -> Html {
    let speed = |label: &str, spread: Option<Spread>| {
        spread.map(|x| format!("{label}: median {:.1} tokens/s, p90 {:.1} (of {})", x.median, x.p90, x.n))
    };
    let mut lines = vec![format!("Loop rate (FAIL): {}", s.loops.text())];
    if s.gibberish.k > 0 {
        lines.push(format!("Incoherent (FAIL a gibberish, word-salad or template-leak check): {}", s.gibberish.text()));
    }
    lines.push(format!("WARN: {}", s.warn.text()));
    lines.extend(speed("Coherent generations", s.speed_coherent));
    lines.extend(speed("Looping generations", s.speed_looping));
    if let Some(t) = s.ttft {
        lines.push(format!("Time to first token: median {:.0} ms, p90 {:.0} ms", t.median, t.p90));
    }
    if s.without_done > 0 {
        lines.push(format!("{} ended without the stream's end marker", s.without_done));
    }
    if s.failed > 0 {
        lines.push(format!("{} gave no text to judge (see Problem)", s.failed));
    }
    html! {
        <ul {id} class="reasons" data-fails={s.fail.k.to_string()} data-judged={s.judged.to_string()}>
            { for lines.into_iter().map(|l| html! { <li>{ format!("{prefix}{l}") }</li> }) }
        </ul>
    }
}

/// One of the soak's streams: takes the next planned generation until none is left or the
/// soak is stopped.
struct Worker {
    queue: Rc<RefCell<VecDeque<Planned>>>,
    /// A's and B's key and model.
    keys: Rc<[(String, String); 2]>,
    controller: Option<web_sys::AbortController>,
    stopped: Rc<Cell<bool>>,
    /// Where each finished generation goes.
    dispatcher: UseReducerDispatcher<SoakRunState>,
    on_reasoning: Callback<ReasoningSeen>,
    /// The run's prompts as one conversation (a comparison's growing context), when asked.
    conversation: Option<Rc<RefCell<Conversation>>>,
}

impl Worker {
    async fn run(self) {
        let signal = self.controller.as_ref().map(|c| c.signal());
        loop {
            let Some(planned) = self.queue.borrow_mut().pop_front() else { break };
            if self.stopped.get() {
                break;
            }
            // B's second run (R, the noise floor) is sent as B.
            let (key, model) = &self.keys[usize::from(matches!(planned.config, "B" | "R"))];
            let req = &planned.request;
            let body = match &self.conversation {
                Some(c) => c.borrow().body(&planned),
                None => Ok(req.body.clone()),
            };
            let body = match body {
                Ok(body) => body,
                Err(e) => {
                    if let Some(c) = &self.conversation {
                        c.borrow_mut().record(&planned, None);
                    }
                    let generation = Generation::of(&planned, model, Err(e));
                    self.dispatcher
                        .dispatch(SoakRunAction::Finished(Rc::new(Row { generation, capture: Rc::from(&b""[..]) })));
                    continue;
                }
            };
            // Boxed: polled through one shared function, not a copy of the stream's state
            // machine inlined here (KBs of wasm).
            let stopped = || self.stopped.get();
            let streamed: std::pin::Pin<Box<dyn std::future::Future<Output = _> + '_>> =
                Box::pin(run::stream(&req.url, &body, key, signal.as_ref(), &stopped, None));
            let streamed = streamed.await;
            if self.stopped.get() {
                break; // Stop keeps what finished, not what it cut.
            }
            if let Some(c) = &self.conversation {
                let answer = streamed
                    .as_ref()
                    .ok()
                    .filter(|s| matches!(s.snapshot.ending, Ending::Closed))
                    .map(|s| s.snapshot.content.as_str());
                c.borrow_mut().record(&planned, answer);
            }
            let (generation, capture) = match streamed {
                Ok(s) => {
                    self.on_reasoning.emit(ReasoningSeen::SoakGeneration(s.snapshot.placement.clone()));
                    (Generation::of(&planned, model, Ok(&s.snapshot)), s.capture)
                }
                Err(e) => (Generation::of(&planned, model, Err(e.text(&req.url))), Rc::from(&b""[..])),
            };
            self.dispatcher.dispatch(SoakRunAction::Finished(Rc::new(Row { generation, capture })));
        }
    }
}
