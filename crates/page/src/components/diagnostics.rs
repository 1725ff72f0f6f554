//! What the reader could not read (or wants the user to know), with line numbers. The rest of
//! the document was still analysed; the core caps the list and says how many more there were.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::document::Document;
use coherency_core::wording::thousands;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
}

#[component]
pub fn Diagnostics(props: &Props) -> Html {
    let items = props.doc.transcript.diagnostics.iter().map(|d| {
        let line = d.line.map(|l| l.to_string());
        html! {
            <li data-line={line.clone()}>
                if let Some(l) = line { <span class="at">{ format!("Line {l}: ") }</span> }
                { &d.message }
            </li>
        }
    });
    html! {
        <section id="diagnostics" class="subsection" aria-labelledby="diagnostics-heading">
            <h3 id="diagnostics-heading">{ format!("Notes from reading ({})", thousands(props.doc.transcript.diagnostics.len())) }</h3>
            if !props.doc.rows.is_empty() {
                <p class="help">{ "Everything else in the document was read and analysed." }</p>
            }
            <ul class="problems">{ for items }</ul>
        </section>
    }
}
