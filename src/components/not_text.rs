//! The one message for an input that is not text (an image, an archive…): no verdict.

use yew::prelude::*;

/// The notice for `message` (a plain function: no state).
pub fn not_text(message: &str) -> Html {
    html! {
        <section id="not-text" class="card notice" role="status">
            <h2>{ "Cannot read this as text" }</h2>
            <p class="notice-text">{ message }</p>
        </section>
    }
}
