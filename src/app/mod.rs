//! The Yew page (wasm32 only): mounts the app and renders what the core reports.
