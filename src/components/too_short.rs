//! What the page shows instead of a verdict when the text is empty, blank or too short.

use yew::prelude::*;

use crate::model::{measured_line, Analysis};

/// The notice for `message`, with what was measured of `analysis` (a plain function: no state).
pub fn too_short(message: &str, analysis: &Analysis) -> Html {
    html! {
        <section id="too-short" class="card notice" role="status">
            <h2>{ "Nothing to judge yet" }</h2>
            <p class="notice-text">{ message }</p>
            <p class="measured">{ measured_line(&analysis.report, analysis.millis) }</p>
        </section>
    }
}
