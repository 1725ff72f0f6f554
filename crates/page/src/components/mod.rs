//! The page's components, one per file. Each reads the report it is given and computes no metric.

pub mod app;
mod checks_table;
mod diagnostics;
mod document_summary;
mod drop_overlay;
mod format_bar;
mod header;
pub(crate) mod highlighted_text;
mod input_panel;
mod legend;
mod load_progress;
mod message_detail;
mod message_table;
mod not_text;
mod profile_chart;
mod sample_menu;
mod stream_info;
mod theme_toggle;
mod too_short;
mod upload_button;
mod verdict_card;
