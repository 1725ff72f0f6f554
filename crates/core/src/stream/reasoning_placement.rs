//! Where a reply's reasoning came from: which reasoning field carried it (`reasoning_content`,
//! `reasoning`, `reasoning_details`, `thinking`) — bytes and chunks of each — and whether the
//! content held it inline as `<think>…</think>` (or a lone `</think>`). The chat assembler keeps
//! one while it rebuilds the text; probe D (`live::reasoning_probe`) judges from it whether an
//! endpoint places reasoning where clients look for it.

use serde::{Deserialize, Deserializer, Serialize};

use super::openai_wire::REASONING_FIELDS;

/// Bytes and chunks of reasoning from one place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub bytes: usize,
    /// Chunks (a streamed delta, or a whole reply) that added to it.
    pub chunks: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.bytes += other.bytes;
        self.chunks += other.chunks;
    }
}

/// Where a stream's (or a reply's) reasoning was. See the module doc. It travels from the
/// page's analysis worker with a live run's snapshot (`LiveSnapshot`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasoningPlacement {
    /// Each reasoning field that carried text, in the order first seen, with its tally. A
    /// chunk that sends the same text under several fields (OpenRouter: `reasoning` and
    /// `reasoning_details`) counts for the one the text was taken from.
    #[serde(deserialize_with = "known_fields")]
    pub fields: Vec<(&'static str, Tally)>,
    /// The content's `<think>` block: `None` when the content held no such tag; else the
    /// reasoning split out of it (an empty block counts: the tags alone say where the
    /// template put the reasoning).
    pub inline: Option<Tally>,
}

/// The fields read back as the names the assembler uses ([`REASONING_FIELDS`]); a name it
/// never writes is not kept.
fn known_fields<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(&'static str, Tally)>, D::Error> {
    let read: Vec<(String, Tally)> = Deserialize::deserialize(d)?;
    let known = |name: &str| REASONING_FIELDS.iter().copied().find(|f| *f == name);
    Ok(read.into_iter().filter_map(|(name, tally)| Some((known(&name)?, tally))).collect())
}

impl ReasoningPlacement {
    /// `bytes` of reasoning came in one chunk under `field`.
    pub fn add_field(&mut self, field: &'static str, bytes: usize) {
        let one = Tally { bytes, chunks: 1 };
        match self.fields.iter_mut().find(|(f, _)| *f == field) {
            Some((_, tally)) => tally.add(one),
            None => self.fields.push((field, one)),
        }
    }

    /// A chunk of content held a think tag and gave `bytes` of reasoning (0 for a chunk that
    /// only opened or closed the block).
    pub fn add_inline(&mut self, bytes: usize, chunk: bool) {
        self.inline.get_or_insert_with(Tally::default).add(Tally { bytes, chunks: usize::from(chunk) });
    }

    /// Adds another reply's placement (a soak's generations summed).
    pub fn merge(&mut self, other: &ReasoningPlacement) {
        for &(field, tally) in &other.fields {
            match self.fields.iter_mut().find(|(f, _)| *f == field) {
                Some((_, mine)) => mine.add(tally),
                None => self.fields.push((field, tally)),
            }
        }
        if let Some(tally) = other.inline {
            self.inline.get_or_insert_with(Tally::default).add(tally);
        }
    }

    /// No reasoning anywhere: no field carried any and the content held no think tag.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.inline.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_tallied_in_the_order_seen_and_merged() {
        let mut a = ReasoningPlacement::default();
        assert!(a.is_empty());
        a.add_field("reasoning", 5);
        a.add_field("reasoning_details", 2);
        a.add_field("reasoning", 3);
        assert_eq!(
            a.fields,
            [("reasoning", Tally { bytes: 8, chunks: 2 }), ("reasoning_details", Tally { bytes: 2, chunks: 1 })]
        );
        let mut b = ReasoningPlacement::default();
        b.add_inline(0, true);
        b.add_inline(4, true);
        b.add_field("reasoning_content", 1);
        b.add_field("reasoning", 1);
        a.merge(&b);
        assert_eq!(
            a.fields.iter().map(|(f, t)| (*f, t.bytes)).collect::<Vec<_>>(),
            [("reasoning", 9), ("reasoning_details", 2), ("reasoning_content", 1)]
        );
        assert_eq!(a.inline, Some(Tally { bytes: 4, chunks: 2 }));
        assert!(!a.is_empty());
    }
}
