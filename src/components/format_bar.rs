//! What is shown and how it was read: the origin (text box, sample, file), the detected format,
//! and the menu that reads the same bytes in another format.

use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::model::document::{format_choice, format_options, Document};
use coherency_core::ingest::Format;

/// The format `doc` was read as, and the menu to read it as another; `on_choose` is called with
/// the menu's choice (`None`: Auto). A plain function: no state.
pub fn format_bar(doc: &Document, on_choose: &Callback<Option<Format>>) -> Html {
    let onchange = {
        let on_choose = on_choose.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()) {
                on_choose.emit(format_choice(&select.value()));
            }
        })
    };
    let current = doc.chosen.map_or("auto", Format::name);
    let options = format_options(doc.detected).into_iter().map(|(value, label)| {
        html! { <option {value} selected={value == current}>{ label }</option> }
    });
    html! {
        <div id="format-bar" class="format-bar">
            <p class="detected">
                { "Showing " }{ doc.origin_text() }{ " · Detected: " }
                <strong id="detected-format" data-format={doc.detected.name()}>{ doc.detected.label() }</strong>
            </p>
            <label class="read-as">
                <span class="nowrap">{ "Read as" }</span>
                <select id="format-select" {onchange}>{ for options }</select>
            </label>
        </div>
    }
}
