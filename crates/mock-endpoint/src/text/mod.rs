//! Deterministic text for the mock model: long, varied technical prose from a seeded grammar
//! (a treatise on kernel internals, section by section), and the loops a collapsing model falls
//! into. The prose is built sentence by sentence from templates and a few hundred words, never
//! repeats a sentence, and passes the analyzer at any length (tested in `prose.rs`).
//!
//! Its parts: `vocabulary.rs` (the words and templates), `prose.rs` (the grammar),
//! `loops.rs` (the loops, cut at a number of words).

mod loops;
mod prose;
mod vocabulary;

pub use loops::{late_loop, line_loop, line_loop_of, word_loop};
pub use prose::{coherent, thinking};
