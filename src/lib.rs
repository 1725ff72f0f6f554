//! The Coherency Analyzer page: a Yew app, built for wasm32, that renders what the core
//! reports. It compiles natively too, so its pure parts are unit-tested with `cargo test`;
//! browser tests (`tests/`) cover the wiring. Components never compute metrics: every
//! number on the page comes from a `Report`.
//!
//! The page is a root and its wings:
//! - `state.rs` — the page's state and its pure reducer (state + action → state + effects);
//! - `components/` — the root component (`app.rs`, the shell: it owns the state, runs the
//!   effects and wires the rest) and the input and result components, one per file;
//! - `model/` — the view model: an analysed text and its highlight segments, a document read
//!   in its format, the chart's geometry, the wording;
//! - `text_view/` — the virtualised analysed text: its component and its pure layout,
//!   scrolling, fragments, minimap and navigation;
//! - `file_load/` — every input handed to a Web Worker that runs the analysis wasm
//!   (`crates/analysis-worker`: this module links no reader or judge), the result taken back
//!   in pieces between frames;
//! - `live/` — the live endpoint mode: a run against an endpoint, its checks and its
//!   growing texts;
//! - `dom.rs` — the few browser calls the components share.

mod file_load;
mod live;
mod model;
mod text_view;

mod components;
mod dom;
mod state;

/// Mounts the page into `#app` (or `<body>` if the shell has no such element; without a window
/// nothing mounts).
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
    file_load::loader::warm_up_analysis();
}
