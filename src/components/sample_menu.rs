//! The built-in samples as buttons: one click fills the text box and analyses it.

use yew::prelude::*;

use coherency_core::samples::Sample;

/// A button per sample; `active` is the one shown now, if any, and `on_pick` is called with the
/// chosen one's id. A plain function: no state.
pub fn sample_menu(samples: &[Sample], active: Option<&'static str>, on_pick: &Callback<String>) -> Html {
    let buttons = samples.iter().map(|s| {
        let on_pick = on_pick.clone();
        let id = s.id;
        let pressed = active == Some(id);
        html! {
            <li>
                <button type="button" class="button chip" data-sample={id} aria-pressed={pressed.to_string()}
                    title={s.description} onclick={Callback::from(move |_: MouseEvent| on_pick.emit(id.to_string()))}>
                    { s.title }
                </button>
            </li>
        }
    });
    html! {
        <nav class="samples" aria-label="Built-in samples">
            <span class="samples-label">{ "Try a sample:" }</span>
            <ul>{ for buttons }</ul>
        </nav>
    }
}
