//! The page's components, one per file. Each reads the report it is given and computes no metric.

pub mod app;
mod checks_table;
mod header;
mod highlighted_text;
mod input_panel;
mod legend;
mod sample_menu;
mod theme_toggle;
mod too_short;
mod verdict_card;
