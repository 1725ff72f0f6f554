//! Light/dark toggle: follows the system until pressed, then remembers the choice.

use yew::prelude::*;

use crate::dom;

#[component]
pub fn ThemeToggle() -> Html {
    let dark = use_state(dom::dark_theme_active);
    let onclick = {
        let dark = dark.clone();
        Callback::from(move |_: MouseEvent| {
            let next = !*dark;
            dom::set_theme(next);
            dark.set(next);
        })
    };
    html! {
        <button type="button" id="theme-toggle" class="button ghost" aria-pressed={(*dark).to_string()} {onclick}
            title="Switch between light and dark; the choice is remembered in this browser">
            // A switch named for what it turns on; pressed (and marked ✓) while the theme is dark.
            <span aria-hidden="true">{ if *dark { "✓ ☾ " } else { "☾ " } }</span>
            { "Dark theme" }
        </button>
    }
}
