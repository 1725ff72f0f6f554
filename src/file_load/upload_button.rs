//! "Open a file…": a real `<input type=file>` (keyboard-focusable, labelled) styled as a button.
//! The chosen file goes to the page as a `web_sys::File`; its bytes are read by the caller.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The file input, calling `on_file` with the chosen file. A plain function: no state.
pub fn upload_button(on_file: &Callback<web_sys::File>) -> Html {
    let onchange = {
        let on_file = on_file.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            if let Some(file) = input.files().and_then(|files| files.get(0)) {
                on_file.emit(file);
            }
            // Choosing the same file again must read it again.
            input.set_value("");
        })
    };
    html! {
        <span class="upload">
            <input type="file" id="file-input" class="file-input" aria-describedby="upload-help" {onchange} />
            <label for="file-input" class="button">
                <span aria-hidden="true">{ "⇪ " }</span>{ "Open a file…" }
            </label>
            <span id="upload-help" class="visually-hidden">
                { "A transcript, stream capture or log in any supported format; you can also drop a file anywhere on the page." }
            </span>
        </span>
    }
}
