//! The page's components, one per file. Each reads the report it is given and computes no metric.

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

// The live text (moving to `live/` in the same restructure) still renders its highlights from here.
use crate::text_view::highlight as highlighted_text;
