//! The root component: owns the state reducer and the text box, wires the other components.

use std::rc::Rc;

use web_sys::ScrollLogicalPosition;
use yew::prelude::*;

use super::checks_table::ChecksTable;
use super::header::Header;
use super::highlighted_text::HighlightedText;
use super::input_panel::InputPanel;
use super::sample_menu::SampleMenu;
use super::too_short::TooShort;
use super::verdict_card::VerdictCard;
use crate::analyze::Metric;
use crate::app::dom;
use crate::app::model::{sample_param, worth_stashing, Source};
use crate::app::state::{Action, State};
use crate::samples::samples;

#[component]
pub fn App() -> Html {
    let state = use_reducer(State::default);
    let samples = use_memo((), |_| samples());
    let input = use_node_ref();
    let results = use_node_ref();

    let analyze_input = {
        let (dispatcher, input) = (state.dispatcher(), input.clone());
        Callback::from(move |()| {
            dispatcher.dispatch(Action::Analyze {
                text: dom::textarea_value(&input),
                source: Source::Input,
                replaced: None,
            })
        })
    };

    let pick_sample = {
        let (dispatcher, input, samples) = (state.dispatcher(), input.clone(), samples.clone());
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
        let (dispatcher, input) = (state.dispatcher(), input.clone());
        Callback::from(move |()| {
            dom::set_textarea_value(&input, &text);
            dispatcher.dispatch(Action::Analyze { text: text.to_string(), source: Source::Input, replaced: None });
        })
    });

    let jump = {
        let state = state.clone();
        Callback::from(move |metric: Metric| {
            if let Some(index) = state.analysis.as_ref().and_then(|a| a.first_span_index(metric)) {
                dom::show_span(index);
            }
        })
    };

    // `?sample=ID` preloads and analyses a built-in sample (handy for links and screenshots).
    {
        let pick_sample = pick_sample.clone();
        use_effect_with((), move |_| {
            if let Some(id) = sample_param(&dom::location_search()) {
                pick_sample.emit(id.to_string());
            }
        });
    }

    // After each analysis, bring the verdict (the first result) into view if it is not.
    {
        let results = results.clone();
        use_effect_with(state.analysis.as_ref().map(|a| a.seq), move |seq| {
            if seq.is_some() {
                if let Some(first) = results.cast::<web_sys::Element>().and_then(|r| r.first_element_child()) {
                    dom::scroll_to(&first, ScrollLogicalPosition::Nearest);
                }
            }
        });
    }

    let active_sample = state.analysis.as_ref().and_then(|a| match a.source {
        Source::Sample(id) => Some(id),
        Source::Input => None,
    });

    html! {
        <>
            <Header />
            <main>
                <section class="card input-card" aria-labelledby="input-heading">
                    <h2 id="input-heading" class="visually-hidden">{ "Input" }</h2>
                    <SampleMenu samples={Rc::clone(&samples)} active={active_sample} on_pick={pick_sample} />
                    <InputPanel textarea={input} on_analyze={analyze_input} on_restore={restore} />
                </section>
                <div ref={results} class="results">
                    { results_view(state.analysis.clone(), jump) }
                </div>
            </main>
            <footer class="footer">
                { "Runs entirely in your browser: the text never leaves this page." }
            </footer>
        </>
    }
}

fn results_view(analysis: Option<Rc<crate::app::model::Analysis>>, jump: Callback<Metric>) -> Html {
    let Some(analysis) = analysis else {
        return html! {
            <p class="hint">{ "Paste a transcript and press Analyze, or try one of the samples." }</p>
        };
    };
    if let Some(message) = analysis.too_short_message() {
        return html! { <TooShort {message} analysis={analysis} /> };
    }
    html! {
        <>
            <VerdictCard analysis={Rc::clone(&analysis)}>
                <ChecksTable analysis={Rc::clone(&analysis)} on_jump={jump} />
            </VerdictCard>
            <HighlightedText {analysis} />
        </>
    }
}
