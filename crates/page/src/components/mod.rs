//! The root component ([`app`], the page's shell: it owns the state and runs its effects) and
//! the components of the input and the results, one per file. Each reads the report it is given
//! and computes no metric. The text view and the file loading have their own folders
//! (`text_view/`, `file_load/`).

pub mod app;
mod checks_table;
mod diagnostics;
mod document_summary;
mod format_bar;
mod header;
mod input_panel;
mod live_checks;
mod live_panel;
mod live_result;
mod live_text;
mod message_detail;
mod message_table;
mod not_text;
mod profile_chart;
mod sample_menu;
mod stream_info;
mod theme_toggle;
mod too_short;
mod verdict_card;

// The live text (moving to `live/` in the same restructure) imports its highlights through this
// old path; it goes once the live files say `crate::text_view::highlight`.
pub(crate) use crate::text_view::highlight as highlighted_text;
