//! The built-in samples as buttons: one click fills the text box and analyses it.

use std::rc::Rc;

use yew::prelude::*;

use coherency_core::samples::Sample;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub samples: Rc<Vec<Sample>>,
    /// The sample shown now, if any.
    pub active: Option<&'static str>,
    /// Called with the chosen sample's id.
    pub on_pick: Callback<String>,
}

#[component]
pub fn SampleMenu(props: &Props) -> Html {
    let buttons = props.samples.iter().map(|s| {
        let on_pick = props.on_pick.clone();
        let id = s.id;
        let pressed = props.active == Some(id);
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
