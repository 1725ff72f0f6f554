//! The page header: title, one line on what the tool does, the theme toggle.

use yew::prelude::*;

use super::theme_toggle::ThemeToggle;

/// The header (a plain function: it has no state or props).
pub fn header() -> Html {
    html! {
        <header class="header">
            <div>
                <h1>{ "Coherency Analyzer" }</h1>
                <p class="tagline">
                    { "Catches repetition collapse and incoherence in LLM output: loops of words, lines or paragraphs, leaked chat templates, gibberish, word salad, topic drift." }
                </p>
            </div>
            <ThemeToggle />
        </header>
    }
}
