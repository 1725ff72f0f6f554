//! The root component and the page's shell: owns the state reducer ([`crate::state`]) and the
//! text box, wires the other components, and runs the effects the reducer asks for — bringing a
//! part of the page into view here, the worker jobs (reading and analysing an input, reading a
//! file again, files compared, a result link opened) through [`crate::file_load::jobs`], whose
//! answers and progress go into the reducer.

use std::rc::Rc;

use web_sys::ScrollLogicalPosition;
use yew::prelude::*;

use super::checks_table::ChecksTable;
use super::compare_view::CompareReportView;
use super::conversation_view::ConversationView;
use super::diagnostics::diagnostics;
use super::document_summary::DocumentSummary;
use super::format_bar::format_bar;
use super::header::header;
use super::input_panel::InputPanel;
use super::message_detail::MessageDetail;
use super::message_table::MessageTable;
use super::not_text::not_text;
use super::sample_menu::sample_menu;
use super::saved_report_view::SavedReportView;
use super::share_bar::ShareBar;
use super::stream_info::stream_info;
use super::thresholds_panel::ThresholdsPanel;
use super::too_short::too_short;
use super::turn_link::TurnLink;
use super::verdict_card::VerdictCard;
use crate::dom;
use crate::file_load::drop_overlay::DropOverlay;
use crate::file_load::jobs::{cancel, compare_files, open_link, read_file, run_job, Jobs};
use crate::file_load::load_progress::load_progress;
use crate::file_load::upload_button::upload_button;
use crate::file_load::ReadAs;
use crate::live::LivePanel;
use crate::model::conversation::has_conversation_view;
use crate::model::document::Document;
use crate::model::{live_param, sample_param, with_mode, worth_stashing, Source};
use crate::state::{Action, Effect, Open, Opener, Reveal, Store};
use crate::text_view::navigation::Place;
use crate::text_view::text_link::TextLink;
use crate::text_view::HighlightedText;
use coherency_core::analyze::{Metric, Thresholds};
use coherency_core::ingest::Format;
use coherency_core::samples::{capture_samples, samples};

#[component]
pub fn App() -> Html {
    let store = use_reducer(Store::default);
    let state = Rc::clone(&store.state);
    // Which input is shown: a text or file (false), or a live endpoint (true; `?mode=live`).
    let live = use_state(|| live_param(&dom::location_search()));
    // Switching puts the mode in the address (`?mode=live`, taken out again for the text), so a
    // reload or a copied address opens the same tab; no history entry is added.
    let set_mode = {
        let live = live.clone();
        Callback::from(move |to_live: bool| {
            live.set(to_live);
            let search = with_mode(&dom::location_search(), to_live);
            dom::replace_url(&format!("{}{search}{}", dom::location_path(), dom::location_hash()));
        })
    };

    let samples = use_memo((), |_| samples().into_iter().chain(capture_samples()).collect::<Vec<_>>());
    let input = use_node_ref();
    let results = use_node_ref();
    // How the checks table and the verdict card reach the text view.
    let link = use_memo((), |_| TextLink::default());
    // How the analysis below asks the conversation view to go back to a turn.
    let turn_link = use_memo((), |_| TurnLink::default());

    let analyze_input = {
        let (dispatcher, input) = (store.dispatcher(), input.clone());
        Callback::from(move |()| {
            dispatcher.dispatch(Action::Analyze {
                text: dom::textarea_value(&input),
                source: Source::Input,
                replaced: None,
            })
        })
    };

    let pick_sample = {
        let (dispatcher, input, samples) = (store.dispatcher(), input.clone(), samples.clone());
        Callback::from(move |id: String| {
            let Some(sample) = samples.iter().find(|s| s.id == id) else { return };
            let current = dom::textarea_value(&input);
            let replaced = worth_stashing(&current, &samples).then_some(current);
            dom::set_textarea_value(&input, &sample.text);
            dispatcher.dispatch(Action::Analyze {
                text: sample.text.clone(),
                source: Source::Sample(sample.id),
                replaced,
            });
        })
    };

    let restore = state.stash.clone().map(|text| {
        let (dispatcher, input) = (store.dispatcher(), input.clone());
        Callback::from(move |()| {
            dom::set_textarea_value(&input, &text);
            dispatcher.dispatch(Action::Analyze { text: text.to_string(), source: Source::Input, replaced: None });
        })
    });

    // The file being read (dropping the job cancels it), and the file of the document shown
    // (read again in the worker when the format menu changes).
    let jobs = use_mut_ref(Jobs::default);
    let thresholds = state.thresholds;
    // One file is read; several are compared (outputs against a reference), or, when they are
    // not outputs to compare, the first is read.
    let drop_files = {
        let (dispatcher, jobs) = (store.dispatcher(), jobs.clone());
        Callback::from(move |files: Vec<web_sys::File>| {
            if files.len() > 1 {
                return compare_files(&dispatcher, &jobs, files, thresholds);
            }
            let Some(file) = files.into_iter().next() else { return };
            read_file(&dispatcher, &jobs, file, ReadAs { format: None, thresholds }, None);
        })
    };
    let open_file = drop_files.clone();
    let compared_files = {
        let jobs = jobs.clone();
        Callback::from(move |()| jobs.borrow().compared_files().map(|files| (files, 0)))
    };
    let set_thresholds = {
        let dispatcher = store.dispatcher();
        Callback::from(move |t: Thresholds| dispatcher.dispatch(Action::SetThresholds(t)))
    };
    let cancel = {
        let (dispatcher, jobs) = (store.dispatcher(), jobs.clone());
        Callback::from(move |()| cancel(&dispatcher, &jobs))
    };

    let choose_format = {
        let dispatcher = store.dispatcher();
        Callback::from(move |f: Option<Format>| dispatcher.dispatch(Action::ChooseFormat(f)))
    };
    let select = {
        let dispatcher = store.dispatcher();
        Callback::from(move |open: Open| dispatcher.dispatch(Action::Select(open)))
    };

    let jump = {
        let (store, link) = (store.clone(), Rc::clone(&link));
        Callback::from(move |metric: Metric| {
            let detail = store.state.doc.as_ref().and_then(|d| d.detail.as_ref());
            if let Some(index) = detail.and_then(|a| a.first_span_index(metric)) {
                link.show(Place::Span(index));
            }
        })
    };
    let show = {
        let (store, link) = (store.clone(), Rc::clone(&link));
        Callback::from(move |byte: usize| {
            if let Some(analysis) = store.state.doc.as_ref().and_then(|d| d.detail.as_ref()) {
                link.show_byte(analysis, byte);
            }
        })
    };

    // After each render, the effects the reducer asked for.
    {
        let (store, jobs, results) = (store.clone(), jobs.clone(), results.clone());
        use_effect(move || {
            for effect in store.take_effects() {
                match effect {
                    Effect::Reveal(part) => reveal(part, &results),
                    job => run_job(job, &store.dispatcher(), &jobs, &results),
                }
            }
        });
    }

    // `?sample=ID` preloads and analyses a built-in sample (handy for links and screenshots); a
    // result link (`#v1;…`) opens the input it carries, at load and when one is pasted into the
    // address bar of the open page (a `hashchange`: the page does not reload).
    {
        let pick_sample = pick_sample.clone();
        let (dispatcher, input, jobs) = (store.dispatcher(), input.clone(), jobs.clone());
        use_effect_with((), move |_| {
            if let Some(id) = sample_param(&dom::location_search()) {
                pick_sample.emit(id.to_string());
            }
            let open_link = move || open_link(&dispatcher, &jobs, &input);
            open_link();
            let listener = dom::on_window_event("hashchange", open_link);
            move || drop(listener)
        });
    }
    // The file of the document shown, for a link made from it.
    let shown_file = {
        let jobs = jobs.clone();
        Callback::from(move |()| jobs.borrow().shown_file())
    };

    let active_sample = state.doc.as_ref().and_then(|d| match d.source {
        Source::Sample(id) => Some(id),
        _ => None,
    });
    let format_bar = state.doc.clone().map(|doc| format_bar(&doc, &choose_format));
    let status = match (&state.loading, &state.notice) {
        (Some(loading), _) => Some(load_progress(loading, &cancel)),
        (None, Some(notice)) => {
            Some(html! { <p id="status" class="status notice-line" role="status">{ notice.to_string() }</p> })
        }
        (None, None) => None,
    };

    // A finished live run's capture, read like a dropped file in the text or file view.
    let replay_capture = {
        let (dispatcher, set_mode) = (store.dispatcher(), set_mode.clone());
        Callback::from(move |bytes: Rc<[u8]>| {
            set_mode.emit(false);
            dispatcher.dispatch(Action::Load {
                name: "live-capture.sse".to_string(),
                bytes: bytes.to_vec(),
                note: Some("The live run's response body, read as a file.".to_string()),
            });
        })
    };
    let tab = |id: &'static str, label: &'static str, to_live: bool| {
        let set_mode = set_mode.clone();
        let selected = *live == to_live;
        html! {
            <button type="button" role="tab" {id} class="tab" aria-selected={selected.to_string()}
                tabindex={if selected { "0" } else { "-1" }} aria-controls={if to_live { "live-mode" } else { "text-mode" }} onclick={Callback::from(move |_: MouseEvent| set_mode.emit(to_live))}>
                { label }
            </button>
        }
    };

    // Arrow keys move between the two tabs (the tab pattern: one tab stop, arrows inside).
    let tab_keys = {
        let (live, set_mode) = (live.clone(), set_mode.clone());
        Callback::from(move |e: KeyboardEvent| {
            if matches!(e.key().as_str(), "ArrowLeft" | "ArrowRight" | "Home" | "End") {
                e.prevent_default();
                let to_live = match e.key().as_str() {
                    "Home" => false,
                    "End" => true,
                    _ => !*live,
                };
                set_mode.emit(to_live);
                if let Some(el) = dom::element_by_id(if to_live { "tab-live" } else { "tab-text" })
                    .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok())
                {
                    let _ = el.focus();
                }
            }
        })
    };

    html! {
        <>
            { header() }
            <main>
                <div class="tabs" role="tablist" aria-label="Input" onkeydown={tab_keys}>
                    { tab("tab-text", "Text or file", false) }
                    { tab("tab-live", "Live endpoint", true) }
                </div>
                <div id="live-mode" role="tabpanel" aria-labelledby="tab-live" hidden={!*live}>
                    <LivePanel on_capture={replay_capture} />
                </div>
                <div id="text-mode" role="tabpanel" aria-labelledby="tab-text" hidden={*live}>
                <section class="card input-card" aria-labelledby="input-heading">
                    <h2 id="input-heading" class="visually-hidden">{ "Input" }</h2>
                    { sample_menu(&samples, active_sample, &pick_sample) }
                    <InputPanel textarea={input} on_analyze={analyze_input} on_restore={restore}>
                        { upload_button(&open_file) }
                    </InputPanel>
                    // A stable wrapper: a list growing here must not re-create the text box.
                    <div class="format-slot">{ for format_bar }</div>
                    <ThresholdsPanel current={thresholds} on_change={set_thresholds} />
                </section>
                <div ref={results} class="results">
                    { for status }
                    if let Some(view) = state.saved.clone() {
                        <SavedReportView {view} />
                    } else if let Some(view) = state.compare.clone() {
                        <CompareReportView {view} files={compared_files} {thresholds} />
                    } else {
                        { results_view((state.doc.clone(), state.opened_from), jump, show, select, shown_file, (&link, &turn_link)) }
                    }
                </div>
                </div>
            </main>
            <footer class="footer">
                { "Runs entirely in your browser: the text and files never leave this page. Live mode talks only to the endpoint you give it." }
            </footer>
            <DropOverlay on_drop={drop_files} />
        </>
    }
}

/// Brings a part of the page into view if it is not.
fn reveal(part: Reveal, results: &NodeRef) {
    let into_view = |element: Option<web_sys::Element>| {
        if let Some(element) = element {
            dom::scroll_to(&element, ScrollLogicalPosition::Nearest);
        }
    };
    match part {
        Reveal::Result => into_view(results.cast::<web_sys::Element>().and_then(|r| r.first_element_child())),
        Reveal::Progress => into_view(dom::element_by_id("load-progress")),
        Reveal::Detail => dom::reveal("message-detail"),
    }
}

fn results_view(
    (doc, opened_from): (Option<Rc<Document>>, Option<Opener>),
    jump: Callback<Metric>,
    show: Callback<usize>,
    select: Callback<Open>,
    shown_file: Callback<(), Option<web_sys::File>>,
    (link, turn_link): (&TextLink, &TurnLink),
) -> Html {
    let Some(doc) = doc else {
        return html! {
            <p class="hint">{ "Paste a transcript and press Analyze, open or drop a file, or try one of the samples." }</p>
        };
    };
    if let Some(message) = doc.not_text_message() {
        return not_text(message);
    }
    // Said before the verdict: it is not the defaults' verdict.
    let changed = doc.thresholds().changes_text().map(|changes| {
        html! { <p id="thresholds-note" class="status notice-line">{ format!("Judged against thresholds you changed: {changes}.") }</p> }
    });
    if doc.is_plain_text() {
        // Plain text: exactly the page as before formats existed.
        let Some(analysis) = doc.detail.clone() else { return html! {} };
        if let Some(message) = analysis.too_short_message() {
            return too_short(&message, &analysis);
        }
        return html! {
            <>
                { for changed }
                <VerdictCard analysis={Rc::clone(&analysis)} on_show={show}>
                    <ChecksTable analysis={Rc::clone(&analysis)} on_jump={jump} />
                </VerdictCard>
                <ShareBar doc={Rc::clone(&doc)} file={shown_file} />
                <HighlightedText {analysis} link={link.clone()} />
            </>
        };
    }
    let stream = doc.transcript.stream.clone().map(|info| stream_info(doc.format(), &info));
    let diagnostics = (!doc.transcript.diagnostics.is_empty()).then(|| diagnostics(&doc));
    let conversation = has_conversation_view(&doc.report).then(|| {
        html! { <ConversationView key={doc.seq.to_string()} doc={Rc::clone(&doc)} on_select={select.clone()} turn_link={turn_link.clone()} /> }
    });
    let table = (!doc.rows.is_empty()).then(|| html! { <MessageTable doc={Rc::clone(&doc)} on_select={select} /> });
    let detail = doc.detail.clone().map(|analysis| {
        html! {
            <MessageDetail doc={Rc::clone(&doc)} {analysis} on_jump={jump} on_show={show} link={link.clone()}
                from={opened_from} turn_link={turn_link.clone()} />
        }
    });
    // Opened from the conversation view: shown right below it, where the eye is, not past the
    // table of every message.
    let below_conversation = conversation.is_some() && opened_from.is_some_and(Opener::in_conversation);
    let (detail_above, detail_below) = if below_conversation { (detail, None) } else { (None, detail) };
    html! {
        <>
            { for changed }
            <DocumentSummary doc={Rc::clone(&doc)}>
                { for stream }
                { for diagnostics }
            </DocumentSummary>
            <ShareBar doc={Rc::clone(&doc)} file={shown_file} />
            { for conversation }
            { for detail_above }
            { for table }
            { for detail_below }
        </>
    }
}
