//! The context fidelity (needle) probe: choose the lengths and depths, Run sends the core's
//! planned conversations one after another (`coherency_core::live::needle`), and the grid
//! fills in as the answers come — rows the lengths, columns the depths, each cell found,
//! missed or error with its evidence — under the core's sentence and notes (a cut prompt,
//! answers that changed, answers that repeat an earlier turn). Stop keeps what finished and
//! says so. The key goes only into each request's header.

use std::cell::Cell as Flag;
use std::rc::Rc;

use yew::prelude::*;

use super::fetch;
use super::run;
use coherency_core::live::needle::{
    cell_shown, estimate_rule, length_label, plan, stopped_text, summarize, Answer, Depth, NeedleKind, Probe,
    DEFAULT_LENGTHS, LENGTHS, SEED,
};
use coherency_core::live::RequestForm;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub form: RequestForm,
    /// Sent as a header only.
    pub api_key: AttrValue,
}

/// The boxes ticked are bits of one number: the lengths of `LENGTHS` from bit 0, the depths
/// of `Depth::ALL` from this bit, then a UUID as the needle, then asking each twice.
const DEPTHS_FROM: usize = LENGTHS.len();
const UUID: u32 = 1 << (DEPTHS_FROM + Depth::ALL.len());
const TWICE: u32 = UUID << 1;

/// The probe in progress and its answers so far.
#[derive(Default)]
struct Progress {
    probe: Option<Rc<Probe>>,
    answers: Vec<Answer>,
    stopped: Option<Rc<Flag<bool>>>,
    controller: Option<web_sys::AbortController>,
}

#[component]
pub fn NeedleProbe(props: &Props) -> Html {
    let ticked = use_state(|| {
        let lengths = (0..LENGTHS.len()).filter(|&i| DEFAULT_LENGTHS.contains(&LENGTHS[i]));
        lengths.fold(TWICE | ((1 << Depth::ALL.len()) - 1) << DEPTHS_FROM, |bits, i| bits | 1 << i)
    });
    let note = use_state(|| None::<String>);
    let running = use_state(|| false);
    let progress = use_mut_ref(Progress::default);
    let redraw = use_force_update();

    let start = {
        let (form, key) = (props.form.clone(), props.api_key.to_string());
        let ticked = ticked.clone();
        let (note, running, progress, redraw) = (note.clone(), running.clone(), progress.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            if *running {
                return;
            }
            let bits = *ticked;
            let lengths: Vec<usize> = (0..LENGTHS.len()).filter(|&i| bits & 1 << i != 0).map(|i| LENGTHS[i]).collect();
            let depths: Vec<Depth> =
                (0..Depth::ALL.len()).filter(|&i| bits & 1 << (DEPTHS_FROM + i) != 0).map(|i| Depth::ALL[i]).collect();
            let kind = if bits & UUID != 0 { NeedleKind::Uuid } else { NeedleKind::Number };
            let probe = match plan(&form, &lengths, &depths, kind, SEED, bits & TWICE != 0) {
                Ok(p) => Rc::new(p),
                Err(e) => return note.set(Some(e)),
            };
            note.set(None);
            running.set(true);
            let stopped = Rc::new(Flag::new(false));
            let controller = fetch::abort_controller();
            *progress.borrow_mut() = Progress {
                probe: Some(Rc::clone(&probe)),
                answers: Vec::new(),
                stopped: Some(Rc::clone(&stopped)),
                controller: controller.clone(),
            };
            let (key, progress, redraw, running) = (key.clone(), progress.clone(), redraw.clone(), running.setter());
            wasm_bindgen_futures::spawn_local(async move {
                let signal = controller.as_ref().map(|c| c.signal());
                for ask in &probe.asks {
                    if stopped.get() {
                        break;
                    }
                    let req = &ask.request;
                    let is_stopped = || stopped.get();
                    // Boxed: one shared copy of the stream's state machine (see soak.rs).
                    let streamed: std::pin::Pin<Box<dyn std::future::Future<Output = _> + '_>> =
                        Box::pin(run::stream(&req.url, &req.body, &key, signal.as_ref(), &is_stopped, None));
                    let streamed = streamed.await;
                    if stopped.get() {
                        break; // Stop keeps what finished, not what it cut.
                    }
                    let answer = match &streamed {
                        Ok(s) => Answer::of(&probe, ask, Ok(&s.snapshot)),
                        Err(e) => Answer::of(&probe, ask, Err(e.text(&req.url))),
                    };
                    progress.borrow_mut().answers.push(answer);
                    redraw.force_update();
                }
                running.set(false);
            });
        })
    };
    let stop = {
        let progress = progress.clone();
        Callback::from(move |_: MouseEvent| {
            let p = progress.borrow();
            if let Some(s) = &p.stopped {
                s.set(true);
            }
            if let Some(c) = &p.controller {
                c.abort();
            }
        })
    };

    let tick = |id: String, label: &str, bit: u32| {
        let (on, ticked) = (*ticked & bit != 0, ticked.clone());
        let toggle = Callback::from(move |_: Event| ticked.set(*ticked ^ bit));
        html! { <label class="check"><input {id} type="checkbox" checked={on} onchange={toggle} />{ format!(" {label}") }</label> }
    };
    let length_boxes =
        (0..LENGTHS.len()).map(|i| tick(format!("needle-length-{}", LENGTHS[i]), &length_label(LENGTHS[i]), 1 << i));
    let depth_boxes = (0..Depth::ALL.len()).map(|i| {
        let word = Depth::ALL[i].word();
        tick(format!("needle-depth-{word}"), word, 1 << (DEPTHS_FROM + i))
    });

    let now = progress.borrow();
    let result = now.probe.as_ref().map(|probe| {
        let summary = summarize(probe, &now.answers);
        let rows = probe.lengths.iter().map(|&l| {
            let cells = (0..probe.cells.len()).filter(|&i| probe.cells[i].length == l).map(|i| {
                let shown = cell_shown(probe, &now.answers, i);
                let colour = match shown.state {
                    "found" => "pass",
                    "missed" => "fail",
                    "error" => "warn",
                    _ => "",
                };
                html! {
                    <td data-state={shown.state} data-depth={probe.cells[i].depth.word()}>
                        <span class={classes!("badge", colour)}>{ shown.state }</span>
                        <span class="help">{ format!(" {}", shown.evidence) }</span>
                    </td>
                }
            });
            html! { <tr data-length={l.to_string()}><th scope="row">{ length_label(l) }</th>{ for cells }</tr> }
        });
        // Stopped: the run has ended by Stop, not by its last answer.
        let stopped = !*running && now.stopped.as_ref().is_some_and(|s| s.get());
        html! {
            <>
                if stopped { <p id="needle-stopped" class="status notice-line" role="status">{ stopped_text(probe, &now.answers) }</p> }
                <p id="needle-summary" class="status notice-line" role="status">{ summary.sentence }</p>
                if !summary.notes.is_empty() {
                    <ul id="needle-notes" class="reasons">
                        { for summary.notes.into_iter().map(|n| html! { <li data-kind={n.kind}>{ n.text }</li> }) }
                    </ul>
                }
                <div class="table-wrap">
                    <table id="needle-grid" class="checks">
                        <caption>{ "Needle found, by context length (rows, estimated tokens) and depth (columns)" }</caption>
                        <thead><tr><th scope="col">{ "Length" }</th>{ for probe.depths.iter().map(|d| html! { <th scope="col">{ d.word() }</th> }) }</tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            </>
        }
    });
    html! {
        <section id="needle" class="subsection" aria-labelledby="needle-heading">
            <h3 id="needle-heading">{ "Context fidelity: does it still see what was said earlier?" }</h3>
            <p class="help">{ "A conversation of generated filler turns with a fact planted at the start, in the middle or at the end — \"The special magic number for amber-lantern is 4829104.\" — then a question asking for it, greedy (temperature 0); found when the answer holds it exactly. " }{ estimate_rule() }</p>
            <div class="form-grid">
                <span class="label">{ "Context lengths" }</span>
                <div role="group" aria-label="Context lengths">{ for length_boxes }</div>
                <span class="label">{ "Depths" }</span>
                <div role="group" aria-label="Depths">{ for depth_boxes }</div>
                <span class="label">{ "Options" }</span>
                <div>
                    { tick("needle-uuid".into(), "A UUID as the needle (else a 7-digit number)", UUID) }
                    { tick("needle-twice".into(), "Ask each twice: a greedy request should get the same answer (cache check)", TWICE) }
                </div>
            </div>
            <div class="actions">
                <button type="button" id="needle-start" class="button" onclick={start} disabled={*running}>{ "Run the probe" }</button>
                <button type="button" id="needle-stop" class="button" onclick={stop} disabled={!*running}>{ "Stop" }</button>
            </div>
            if let Some(text) = (*note).clone() { <p id="needle-note" class="status notice-line" role="alert">{ text }</p> }
            { for result }
        </section>
    }
}
