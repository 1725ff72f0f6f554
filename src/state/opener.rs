//! Where a text's analysis was opened from ([`Opener`]) — the page shows it just below that
//! place, and "back" returns there — and a request to open one ([`Open`]).

/// Where the analysis shown was opened from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opener {
    /// A row of the message table.
    Table,
    /// A stream's button in conversation N's summary.
    Conversation(usize),
    /// A turn of a conversation: the conversation's number, the turn's row in the turn list,
    /// and the turn's index (as the page names it).
    Turn { conversation: usize, row: usize, turn: usize },
}

impl Opener {
    /// Whether it is in the conversation view (the analysis is shown right below that view).
    pub fn in_conversation(self) -> bool {
        matches!(self, Opener::Conversation(_) | Opener::Turn { .. })
    }
}

/// A request to show report `index` in full, from `from`; `reveal` brings it into view (a click
/// does; stepping through the flagged turns keeps the turn list where the eye is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Open {
    pub index: usize,
    pub from: Opener,
    pub reveal: bool,
}

impl Open {
    /// A click (or Enter) on `from`: opened and brought into view.
    pub fn clicked(index: usize, from: Opener) -> Open {
        Open { index, from, reveal: true }
    }
}
