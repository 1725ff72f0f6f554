//! What the reader could not read (or wants the user to know), with line numbers. The rest of
//! the document was still analysed; the core caps the list and says how many more there were.

use yew::prelude::*;

use crate::model::document::Document;
use coherency_core::wording::thousands;

/// The reader's notes on `doc` (a plain function, not a component: it has no state of its own).
pub fn diagnostics(doc: &Document) -> Html {
    let items = doc.transcript.diagnostics.iter().map(|d| {
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
            <h3 id="diagnostics-heading">{ format!("Notes from reading ({})", thousands(doc.transcript.diagnostics.len())) }</h3>
            if !doc.rows.is_empty() {
                <p class="help">{ "Everything else in the document was read and analysed." }</p>
            }
            <ul class="problems">{ for items }</ul>
        </section>
    }
}
