//! What the page shows instead of a verdict when the text is empty, blank or too short.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::{measured_line, Analysis};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub message: String,
    pub analysis: Rc<Analysis>,
}

#[component]
pub fn TooShort(props: &Props) -> Html {
    html! {
        <section id="too-short" class="card notice" role="status">
            <h2>{ "Nothing to judge yet" }</h2>
            <p class="notice-text">{ &props.message }</p>
            <p class="measured">{ measured_line(&props.analysis.report, props.analysis.millis) }</p>
        </section>
    }
}
