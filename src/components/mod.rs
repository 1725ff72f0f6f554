//! The root component ([`app`], the page's shell: it owns the state and runs its effects) and
//! the components of the input and the results, one per file. Each reads the report it is given
//! and computes no metric. The text view, the file loading and the live mode have their
//! own folders (`text_view/`, `file_load/`, `live/`).

pub mod app;
mod checks_table;
pub(crate) mod compare_view;
mod conversation_view;
mod diagnostics;
mod document_summary;
mod drift_chart;
mod format_bar;
mod header;
mod input_panel;
mod message_detail;
mod message_table;
mod not_text;
mod profile_chart;
mod sample_menu;
mod saved_report_view;
mod share_bar;
mod stream_info;
mod theme_toggle;
mod thresholds_panel;
mod too_short;
mod turn_link;
mod turn_list;
mod verdict_card;
