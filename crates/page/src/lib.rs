//! The Yew page (wasm32 only): mounts the app and renders what the core reports.
//!
//! `model` and `document` are pure (the view model: a document read in its format, its rows
//! worst first, text segments for highlighting, wording) and are also compiled natively for
//! their unit tests; everything touching the browser is wasm32-only.
//! Components never compute metrics: every number on the page comes from a `Report`.

// Natively these modules are compiled only for their unit tests, which do not use every item.
pub mod chart;
pub mod document;
pub mod live;
pub mod load_view;
pub mod model;
pub mod text_window;
pub mod wire;

mod blob_reader;
mod components;
mod dom;
mod loader;
mod state;
pub mod worker;

/// Mounts the page into `#app` (or `<body>` if the shell has no such element). In the file
/// worker (`www/worker.js`), which loads the same module, there is no window: nothing mounts.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    if web_sys::window().is_none() {
        console_error_panic_hook::set_once();
        return;
    }
    // A bug must not leave a blank page: log it, and tell the user their text is still there.
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        dom::show_fatal_error(&info.to_string());
    }));
    match dom::element_by_id("app") {
        Some(root) => yew::Renderer::<components::app::App>::with_root(root).render(),
        None => yew::Renderer::<components::app::App>::new().render(),
    };
}
