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
                    { "Catches repetition collapse in LLM output: a model stuck repeating words, lines or paragraphs." }
                </p>
            </div>
            <ThemeToggle />
        </header>
    }
}
