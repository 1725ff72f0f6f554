//! How the copies of a tandem repeat differ from one another ([`Variation`]: exact, small
//! edits, only numbers), and how that is written: tagged inside in JSON (`{"kind": "edited",
//! "edits": 3}`), tagged outside in a binary format (the page's worker hands its results over
//! in postcard, which cannot read a tag inside).

use serde::{Deserialize, Serialize};

/// How the copies of a tandem repeat differ from one another. In JSON it is tagged inside
/// (`{"kind": "edited", "edits": 3}`); in a binary format (the page's worker hands its results
/// over in postcard, which cannot read a tag inside) it is tagged outside — see the impls below.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Variation {
    /// Every copy the same, byte for byte.
    #[default]
    Exact,
    /// Small edits: `edits` tokens changed, added or respelt across the copies (found as a
    /// copy of the text one unit before; see `loop_checks`).
    Edited { edits: usize },
    /// Only numbers change from copy to copy; `counts` holds the first and last value when
    /// one number counts up by one and nothing else changes; `bare` when the unit is that
    /// number and punctuation only (a bare count, an empty numbered list).
    Numbers { counts: Option<(u64, u64)>, bare: bool },
}

impl Variation {
    pub fn is_exact(&self) -> bool {
        *self == Variation::Exact
    }
}

/// [`Variation`] as JSON shows it: tagged inside.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
enum TaggedInside {
    Exact,
    Edited { edits: usize },
    Numbers { counts: Option<(u64, u64)>, bare: bool },
}

/// [`Variation`] in a binary format: tagged outside.
#[derive(Serialize, Deserialize)]
enum TaggedOutside {
    Exact,
    Edited { edits: usize },
    Numbers { counts: Option<(u64, u64)>, bare: bool },
}

impl Serialize for Variation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match (*self, serializer.is_human_readable()) {
            (Variation::Exact, true) => TaggedInside::Exact.serialize(serializer),
            (Variation::Edited { edits }, true) => TaggedInside::Edited { edits }.serialize(serializer),
            (Variation::Numbers { counts, bare }, true) => TaggedInside::Numbers { counts, bare }.serialize(serializer),
            (Variation::Exact, false) => TaggedOutside::Exact.serialize(serializer),
            (Variation::Edited { edits }, false) => TaggedOutside::Edited { edits }.serialize(serializer),
            (Variation::Numbers { counts, bare }, false) => {
                TaggedOutside::Numbers { counts, bare }.serialize(serializer)
            }
        }
    }
}

impl<'de> Deserialize<'de> for Variation {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(if deserializer.is_human_readable() {
            match TaggedInside::deserialize(deserializer)? {
                TaggedInside::Exact => Variation::Exact,
                TaggedInside::Edited { edits } => Variation::Edited { edits },
                TaggedInside::Numbers { counts, bare } => Variation::Numbers { counts, bare },
            }
        } else {
            match TaggedOutside::deserialize(deserializer)? {
                TaggedOutside::Exact => Variation::Exact,
                TaggedOutside::Edited { edits } => Variation::Edited { edits },
                TaggedOutside::Numbers { counts, bare } => Variation::Numbers { counts, bare },
            }
        })
    }
}
