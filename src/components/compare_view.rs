//! Outputs compared with a reference (two or more files dropped or chosen together; the worker
//! compares them: `crates/analysis-worker/src/compare.rs`): the verdict and the reading in one
//! line first, then each prompt where the outputs part with both continuations side by side
//! from there, then the logprob drift figures with their intervals and the drift by position —
//! every word made by the core's comparison report functions, the CLI's, and shown here as text
//! only. "⤓ Markdown / HTML / JSON" ask the worker for the CLI's reports of the same files.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::dom;
use crate::file_load::loader::{self, OneJob};
use coherency_core::analyze::Thresholds;
use coherency_worker_wire::compare::{CompareView, FigureRow, PromptRow};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: Rc<CompareView>,
    /// The files compared (the reports are made from them again; the last `.1` the noise
    /// floor), when still at hand.
    pub files: Callback<(), Option<(Vec<web_sys::File>, usize)>>,
    pub thresholds: Thresholds,
    /// Put before every id (the live mode's view beside the text mode's: "live-").
    #[prop_or_default]
    pub id_prefix: AttrValue,
}

/// "pass", "warn", "fail" (the badge's class) and its symbol, from the verdict's word.
fn level(verdict: &str) -> (&'static str, &'static str) {
    match verdict {
        "PASS" => ("pass", "✓"),
        "WARN" => ("warn", "!"),
        _ => ("fail", "✕"),
    }
}

/// A report's file name and what the page says once it is downloaded.
fn report_file(what: &str) -> (&'static str, &'static str) {
    match what {
        "markdown" => ("coherency-compare.md", "Markdown"),
        "html" => ("coherency-compare.html", "HTML"),
        _ => ("coherency-compare.json", "JSON"),
    }
}

#[function_component(CompareReportView)]
pub fn compare_report_view(props: &Props) -> Html {
    let v = &props.view;
    let id = |name: &str| format!("{}{name}", props.id_prefix);
    let said = use_state(String::new);
    // Another comparison shown in the same place: what was said of the last one goes.
    {
        let said = said.clone();
        use_effect_with(Rc::clone(&props.view), move |_| said.set(String::new()));
    }
    let job: Rc<RefCell<Option<OneJob>>> = use_mut_ref(|| None);
    let download = |what: &'static str| {
        let (files, said, job, thresholds) = (props.files.clone(), said.clone(), job.clone(), props.thresholds);
        Callback::from(move |_: MouseEvent| {
            let Some((files, noise)) = files.emit(()) else {
                return said.set("The files are no longer at hand: drop them again to make the report.".into());
            };
            let (name, label) = report_file(what);
            let done = {
                let said = said.clone();
                move |made: Result<Vec<u8>, String>| match made {
                    Ok(bytes) => {
                        dom::download(name, &bytes);
                        said.set(format!("Downloaded the {label} report, {name} ({} bytes).", bytes.len()));
                    }
                    Err(why) => said.set(format!("The report could not be made: {why}.")),
                }
            };
            match loader::compare((&files, noise), &thresholds, what, Box::new(done)) {
                Ok(started) => *job.borrow_mut() = Some(started),
                Err(why) => said.set(format!("The report could not be made: {why}.")),
            }
        })
    };
    let (lvl, icon) = level(&v.verdict);
    let parted: Vec<&PromptRow> = v.prompts.iter().filter(|p| p.continuations.is_some()).collect();
    let same: Vec<&PromptRow> = v.prompts.iter().filter(|p| p.continuations.is_none()).collect();
    let has_noise = v.figures.iter().any(|f| f.noise.is_some());
    html! {
        <section id={id("compare-view")} class="compare-view" aria-labelledby={id("compare-title")}>
            <article class={classes!("card", "verdict-card", format!("verdict-{lvl}"))}>
                <div class="verdict-head">
                    <div id={id("compare-verdict")} class={classes!("badge", "badge-big", lvl)} data-verdict={v.verdict.clone()} data-reading={v.reading.clone()}>
                        <span class="badge-icon" aria-hidden="true">{ icon }</span>
                        <span class="badge-text">{ &v.verdict }</span>
                    </div>
                    <div>
                        <h2 id={id("compare-title")}>{ "Comparison: " }{ &v.title }</h2>
                        <p id={id("compare-sentence")} class="compare-sentence">{ &v.sentence }</p>
                    </div>
                </div>
                if !v.reasons.is_empty() {
                    <ul class="reasons" aria-label="Reasons">
                        { for v.reasons.iter().map(|r| html! { <li>{ r }</li> }) }
                    </ul>
                }
                if v.by_order {
                    <p class="measured">{ "No prompt id in common: the outputs were paired in the order of the files." }</p>
                }
                <div class="share-bar" role="group" aria-label="The comparison's report">
                    <button type="button" id={id("compare-markdown")} class="button chip" onclick={download("markdown")}>{ "⤓ Markdown" }</button>
                    <button type="button" id={id("compare-html")} class="button chip" onclick={download("html")}>{ "⤓ HTML" }</button>
                    <button type="button" id={id("compare-json")} class="button chip" onclick={download("json")}>{ "⤓ JSON" }</button>
                    <p id={id("compare-said")} class="share-status" role="status" aria-live="polite">{ (*said).clone() }</p>
                </div>
            </article>
            if !parted.is_empty() {
                <section class="card" aria-labelledby={id("compare-parted-heading")}>
                    <h3 id={id("compare-parted-heading")}>{ "Where they part" }</h3>
                    { for parted.iter().map(|p| prompt(p)) }
                </section>
            }
            <section class="card" aria-labelledby={id("compare-figures-heading")}>
                <h3 id={id("compare-figures-heading")}>{ "Figures and logprob drift" }</h3>
                <div class="table-wrap">
                    <table id={id("compare-figures")} class="checks">
                        <thead><tr>
                            <th scope="col">{ "Figure" }</th>
                            <th scope="col">{ "Candidate" }</th>
                            if has_noise { <th scope="col">{ "Noise floor" }</th> }
                        </tr></thead>
                        <tbody>{ for v.figures.iter().map(|f| figure(f, has_noise)) }</tbody>
                    </table>
                </div>
                if !v.positions.is_empty() {
                    <div class="table-wrap">
                        <table id={id("compare-positions")} class="checks">
                            <caption>{ "Drift by position (prompt tokens + output token): mean |Δ logprob| in nats" }</caption>
                            <thead><tr>
                                <th scope="col">{ "Positions" }</th>
                                <th scope="col">{ "Paired tokens" }</th>
                                <th scope="col">{ "Mean |Δ logprob|" }</th>
                            </tr></thead>
                            <tbody>
                                { for v.positions.iter().map(|(range, tokens, mean)| html! {
                                    <tr><td>{ range }</td><td>{ tokens }</td><td>{ mean }</td></tr>
                                }) }
                            </tbody>
                        </table>
                    </div>
                }
            </section>
            if !same.is_empty() || v.left_out > 0 {
                <section class="card" aria-labelledby={id("compare-same-heading")}>
                    <h3 id={id("compare-same-heading")}>{ "The other prompts" }</h3>
                    <ul class="compare-same">
                        { for same.iter().map(|p| html! {
                            <li data-prompt={p.id.clone()}>
                                <strong>{ &p.id }</strong>{ ": " }{ &p.outcome }
                                { for p.drift.as_ref().map(|d| html! { <span class="measured">{ format!(" · drift {d}") }</span> }) }
                            </li>
                        }) }
                        if v.left_out > 0 { <li>{ format!("… and {} more", v.left_out) }</li> }
                    </ul>
                </section>
            }
            { unpaired(v, id("compare-problems")) }
        </section>
    }
}

/// One prompt where the outputs part: its outcome, its drift, both continuations side by side.
fn prompt(p: &PromptRow) -> Html {
    let (reference, candidate) = p.continuations.clone().unwrap_or_default();
    html! {
        <article class="compare-prompt" data-prompt={p.id.clone()}>
            <h4>{ &p.id }{ ": " }{ &p.outcome }</h4>
            { for p.drift.as_ref().map(|d| html! { <p class="measured">{ format!("Drift along the common prefix: {d}") }</p> }) }
            <div class="compare-sides">
                <figure class="compare-side">
                    <figcaption>{ "Reference, from there" }</figcaption>
                    <pre class="compare-text reference" tabindex="0">{ reference }</pre>
                </figure>
                <figure class="compare-side">
                    <figcaption>{ "Candidate, from there" }</figcaption>
                    <pre class="compare-text candidate" tabindex="0">{ candidate }</pre>
                </figure>
            </div>
        </article>
    }
}

fn figure(f: &FigureRow, has_noise: bool) -> Html {
    html! {
        <tr data-figure={f.name.clone()}>
            <th scope="row">{ &f.name }</th>
            <td>{ &f.candidate }</td>
            if has_noise { <td>{ f.noise.clone().unwrap_or_else(|| "—".into()) }</td> }
        </tr>
    }
}

/// Prompts with no output on one side, and what could not be read.
fn unpaired(v: &CompareView, id: String) -> Html {
    if v.missing.is_empty() && v.unmatched.is_empty() && v.problems.is_empty() {
        return html! {};
    }
    html! {
        <section {id} class="card" aria-label="Not compared">
            <h3>{ "Not compared" }</h3>
            <ul class="problems">
                if !v.missing.is_empty() {
                    <li>{ format!("{} of the reference's prompts have no candidate output: {}", v.missing.len(), v.missing.join(", ")) }</li>
                }
                if !v.unmatched.is_empty() {
                    <li>{ format!("{} candidate outputs match no reference prompt: {}", v.unmatched.len(), v.unmatched.join(", ")) }</li>
                }
                { for v.problems.iter().map(|p| html! { <li>{ format!("could not read: {p}") }</li> }) }
            </ul>
        </section>
    }
}
