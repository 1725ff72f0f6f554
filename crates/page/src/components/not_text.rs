//! The one message for an input that is not text (an image, an archive…): no verdict.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub message: String,
}

#[component]
pub fn NotText(props: &Props) -> Html {
    html! {
        <section id="not-text" class="card notice" role="status">
            <h2>{ "Cannot read this as text" }</h2>
            <p class="notice-text">{ &props.message }</p>
        </section>
    }
}
