//! What the integration tests' modules share.

use coherency_core::ingest::Transcript;
use coherency_core::judge::Author;

/// The turns of conversation `conversation` that the model wrote (some of), in order.
pub fn model_turns(t: &Transcript, conversation: usize) -> Vec<usize> {
    let mut turns: Vec<usize> = t
        .messages
        .iter()
        .filter(|m| m.conversation == conversation && Author::of(m) == Author::Model)
        .map(|m| m.turn)
        .collect();
    turns.dedup();
    turns
}
