//! The context fidelity (needle) probe: does the endpoint still see what was said earlier?
//! A multi-turn conversation of generated filler with a fact planted at the start, in the
//! middle or at the end, of 1k to 32k estimated tokens, then a question asking for it; the
//! answers scored by exact match into a grid of lengths × depths, and what lies behind a
//! miss — a server that cut the prompt, a greedy request answered two ways, an answer that
//! repeats an earlier turn — said in one sentence. The page sends the requests
//! ([`plan::Probe::asks`]) and hands each ended session to [`grid::Answer::of`].

pub mod filler;
pub mod grid;
pub mod plan;

pub use grid::{cell_shown, estimate_rule, stopped_text, summarize, Answer, CellShown, Note, ProbeSummary, Retrieval};
pub use plan::{length_label, plan, Depth, NeedleKind, Probe, DEFAULT_LENGTHS, LENGTHS, SEED};
