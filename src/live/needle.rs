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
use super::needle_state::{NeedleAction, NeedleState, DEPTHS_FROM, TWICE, UUID};
use super::run;
use coherency_core::live::needle::{
    cell_shown, estimate_rule, length_label, plan, stopped_text, summarize, Answer, Depth, LENGTHS, SEED,
};
use coherency_core::live::RequestForm;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub form: RequestForm,
    /// Sent as a header only.
    pub api_key: AttrValue,
}

/// The probe running: how to stop it (browser handles, not state).
#[derive(Default)]
struct Run {
    stopped: Option<Rc<Flag<bool>>>,
    controller: Option<web_sys::AbortController>,
}

#[component]
pub fn NeedleProbe(props: &Props) -> Html {
    let state = use_reducer(NeedleState::default);
    let run = use_mut_ref(Run::default);

    let start = {
        let (form, key) = (props.form.clone(), props.api_key.to_string());
        let (state, run) = (state.clone(), run.clone());
        Callback::from(move |_: MouseEvent| {
            if state.running {
                return;
            }
            let (lengths, depths, kind, twice) = state.asked();
            let dispatcher = state.dispatcher();
            let probe = match plan(&form, &lengths, &depths, kind, SEED, twice) {
                Ok(p) => Rc::new(p),
                Err(e) => return dispatcher.dispatch(NeedleAction::Refused(e)),
            };
            dispatcher.dispatch(NeedleAction::Started(Rc::clone(&probe)));
            let stopped = Rc::new(Flag::new(false));
            let controller = fetch::abort_controller();
            *run.borrow_mut() = Run { stopped: Some(Rc::clone(&stopped)), controller: controller.clone() };
            let key = key.clone();
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
                    dispatcher.dispatch(NeedleAction::Answered(answer));
                }
                dispatcher.dispatch(NeedleAction::Ended { stopped: stopped.get() });
            });
        })
    };
    let stop = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| {
            let p = run.borrow();
            if let Some(s) = &p.stopped {
                s.set(true);
            }
            if let Some(c) = &p.controller {
                c.abort();
            }
        })
    };

    let tick = |id: String, label: &str, bit: u32| {
        let (on, dispatcher) = (state.is_ticked(bit), state.dispatcher());
        let toggle = Callback::from(move |_: Event| dispatcher.dispatch(NeedleAction::Toggle(bit)));
        html! { <label class="check"><input {id} type="checkbox" checked={on} onchange={toggle} />{ format!(" {label}") }</label> }
    };
    let length_boxes =
        (0..LENGTHS.len()).map(|i| tick(format!("needle-length-{}", LENGTHS[i]), &length_label(LENGTHS[i]), 1 << i));
    let depth_boxes = (0..Depth::ALL.len()).map(|i| {
        let word = Depth::ALL[i].word();
        tick(format!("needle-depth-{word}"), word, 1 << (DEPTHS_FROM + i))
    });

    let now = &*state;
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
        let stopped = !now.running && now.stopped;
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
                <button type="button" id="needle-start" class="button" onclick={start} disabled={state.running}>{ "Run the probe" }</button>
                <button type="button" id="needle-stop" class="button" onclick={stop} disabled={!state.running}>{ "Stop" }</button>
            </div>
            if let Some(text) = state.note.clone() { <p id="needle-note" class="status notice-line" role="alert">{ text }</p> }
            { for result }
        </section>
    }
}
