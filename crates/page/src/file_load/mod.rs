//! Reading a file off the main thread.

pub mod blob_reader;
pub mod drop_overlay;
pub mod load_progress;
pub mod load_view;
pub mod loader;
pub mod upload_button;
pub mod wire;
pub mod worker;
