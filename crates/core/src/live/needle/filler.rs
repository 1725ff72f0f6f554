//! What the needle probe's conversation is made of, generated from a seed: filler sentences
//! from a small vocabulary (never copied text, so no model has it by heart), the filler
//! turns' questions, the needle's key ("amber-lantern") and the needle itself — a random
//! 7-digit number or a UUID, RULER's recipe. The same seed gives the same words.

use crate::splitmix::Rng;

const ADJECTIVES: &[&str] = &[
    "amber", "brisk", "cobalt", "dusty", "eager", "faded", "gentle", "hollow", "ivory", "jagged", "quiet", "rustic",
    "silver", "tidy", "velvet", "woolen",
];
const NOUNS: &[&str] = &[
    "lantern", "harbour", "orchard", "violin", "compass", "meadow", "bakery", "glacier", "ledger", "pottery", "canal",
    "workshop", "tram", "quarry", "garden", "archive",
];
const VERBS: &[&str] = &[
    "repaired",
    "painted",
    "measured",
    "visited",
    "described",
    "moved",
    "cleaned",
    "counted",
    "sketched",
    "opened",
    "weighed",
    "mended",
];
const PEOPLE: &[&str] =
    &["the keeper", "my neighbour", "a carpenter", "the baker", "our guide", "the clerk", "a student", "the mayor"];
const TIMES: &[&str] = &[
    "last spring",
    "before dawn",
    "after the storm",
    "on a slow Tuesday",
    "during the fair",
    "every winter",
    "at noon",
    "twice a year",
];

/// A sentence of filler: "After the storm the baker mended the dusty canal near the orchard."
pub fn sentence(rng: &mut Rng) -> String {
    let time = rng.pick(TIMES);
    format!(
        "{}{} {} {} the {} {} near the {}.",
        time[..1].to_ascii_uppercase(),
        &time[1..],
        rng.pick(PEOPLE),
        rng.pick(VERBS),
        rng.pick(ADJECTIVES),
        rng.pick(NOUNS),
        rng.pick(NOUNS)
    )
}

/// A filler turn's question: "What else do you know about the quiet ledger?"
pub fn question(rng: &mut Rng) -> String {
    format!("What else do you know about the {} {}?", rng.pick(ADJECTIVES), rng.pick(NOUNS))
}

/// The needle's key: "amber-lantern".
pub fn key(rng: &mut Rng) -> String {
    format!("{}-{}", rng.pick(ADJECTIVES), rng.pick(NOUNS))
}

/// A random 7-digit number (1,000,000 to 9,999,999), as digits.
pub fn number(rng: &mut Rng) -> String {
    (1_000_000 + rng.below(9_000_000)).to_string()
}

/// A random UUID (version 4 layout), lower-case.
pub fn uuid(rng: &mut Rng) -> String {
    let (a, b) = (rng.next_u64(), rng.next_u64());
    let hex = format!("{a:016x}{b:016x}");
    format!("{}-{}-4{}-a{}-{}", &hex[0..8], &hex[8..12], &hex[13..16], &hex[17..20], &hex[20..32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_says_the_same_words() {
        let say = |seed| {
            let mut r = Rng::new(seed);
            (sentence(&mut r), question(&mut r), key(&mut r), number(&mut r), uuid(&mut r))
        };
        assert_eq!(say(7), say(7));
        assert_ne!(say(7), say(8));
    }

    #[test]
    fn needles_have_their_shape() {
        let mut r = Rng::new(1);
        for _ in 0..200 {
            let n = number(&mut r);
            assert!(n.len() == 7 && n.bytes().all(|b| b.is_ascii_digit()) && !n.starts_with('0'), "{n}");
            let u = uuid(&mut r);
            let parts: Vec<usize> = u.split('-').map(str::len).collect();
            assert_eq!(parts, [8, 4, 4, 4, 12], "{u}");
            assert!(u.bytes().all(|b| b == b'-' || b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        }
        let s = sentence(&mut r);
        assert!(s.ends_with('.') && s.chars().next().is_some_and(char::is_uppercase), "{s}");
        assert!(!s.contains("magic"), "filler never looks like the needle");
    }
}
