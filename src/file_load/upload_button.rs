//! "Open a file…": a real `<input type=file>` (keyboard-focusable, labelled) styled as a button.
//! The chosen files go to the page as `web_sys::File`s (several at once: outputs to compare);
//! their bytes are read by the caller.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The file input, calling `on_file` with the chosen files (at least one). A plain function: no
/// state.
pub fn upload_button(on_file: &Callback<Vec<web_sys::File>>) -> Html {
    let onchange = {
        let on_file = on_file.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            let files = input.files();
            let files: Vec<web_sys::File> =
                files.map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect()).unwrap_or_default();
            if !files.is_empty() {
                on_file.emit(files);
            }
            // Choosing the same file again must read it again.
            input.set_value("");
        })
    };
    html! {
        <span class="upload">
            <input type="file" id="file-input" class="file-input" multiple=true aria-describedby="upload-help" {onchange} />
            <label for="file-input" class="button">
                <span aria-hidden="true">{ "⇪ " }</span>{ "Open a file…" }
            </label>
            <span id="upload-help" class="visually-hidden">
                { "A transcript, stream capture or log in any supported format; you can also drop a file anywhere on the page. Two or more captures (or a golden file and captures) are compared with each other." }
            </span>
        </span>
    }
}
