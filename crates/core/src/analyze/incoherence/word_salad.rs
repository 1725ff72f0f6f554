//! Word salad: English words run together where a function word should stand apart
//! (`andrequest`, `todescription`, `withhiswifeandchildren`) — the signature of numerically
//! broken attention or a tokenizer that drops its spaces. A glued word is a lower-case word of
//! at least six letters that splits wholly into function words (a hand-written list) and words
//! the same text uses on their own, with at least one function word that English never uses as
//! a prefix ("and", "the", "of", "to", "his"…: not "in", "for", "over", which make real words);
//! common words that split so (`another`, `together`, `herself`) are listed as words.
//!
//! Judged only in English text (where "the", "and", "of", "to"… are at least 4 % of the
//! words of its first 256 KiB) and outside code (fenced blocks, backticks, identifiers with `_ . ( /`): terse notes,
//! headlines, bullet lists, poetry, telegraphic logs and non-native English separate their
//! words, and those are what this counts. Words chosen at random from a vocabulary (the loop
//! corpus' prose) are not word salad in this sense: their function words are out of place, but
//! telling that apart needs a model of English syntax this check does not ship.

use super::super::hashed_set::HashedSet;
use super::super::tokens::hash_bytes;
use super::char_set::CharSet;
use super::swar::{all_bytes, any_bytes, eq, lowercase};
use std::ops::Range;

/// Function words English never uses as a prefix of a longer word (or only in the words of
/// [`WORDS_THAT_SPLIT`]).
const STRONG: &[&str] = &[
    "the", "and", "of", "to", "is", "are", "was", "were", "an", "or", "his", "her", "hers", "its", "their", "our",
    "your", "this", "that", "these", "those", "which", "who", "whose", "what", "has", "have", "had", "does", "did",
    "will", "would", "should", "could", "can", "not", "than", "then", "very", "too", "also", "each", "every", "some",
    "any", "she", "they", "them", "him", "from", "been", "being", "there", "where", "when", "how", "why", "all",
];

/// Function words that also begin real words (`inside`, `forget`, `within`, `become`): they
/// may be pieces of a glued word but never make one alone.
const WEAK: &[&str] = &[
    "in", "on", "at", "by", "for", "with", "as", "be", "do", "so", "no", "if", "it", "he", "we", "me", "my", "us",
    "up", "out", "off", "over", "under", "after", "down", "into", "about", "but", "one", "two", "three", "four",
    "five", "six", "seven", "eight", "nine", "ten",
];

/// Function words that English suffixes spell at the end of a word (see [`is_glued`]).
const SUFFIXES: &[&str] = &["or", "are", "an", "is"];

/// The longest word of [`STRONG`] and [`WEAK`]: a longer piece is in neither.
const LONGEST_FUNCTION_WORD: usize = {
    let (mut longest, mut i) = (0, 0);
    while i < STRONG.len() + WEAK.len() {
        let word = if i < STRONG.len() { STRONG[i] } else { WEAK[i - STRONG.len()] };
        if word.len() > longest {
            longest = word.len();
        }
        i += 1;
    }
    longest
};

/// Common words that split into function words and other words.
const WORDS_THAT_SPLIT: &[&str] = &[
    "another",
    "herself",
    "himself",
    "itself",
    "yourself",
    "yourselves",
    "ourselves",
    "themselves",
    "myself",
    "together",
    "nevertheless",
    "nonetheless",
    "whatsoever",
    "notwithstanding",
    "inasmuch",
    "insofar",
    "therefore",
    "thereof",
    "therein",
    "thereby",
    "thereafter",
    "whereas",
    "whereby",
    "wherein",
    "whereupon",
    "wherever",
    "whenever",
    "whatever",
    "whoever",
    "whichever",
    "however",
    "forever",
    "someone",
    "something",
    "somewhere",
    "somehow",
    "sometimes",
    "somewhat",
    "someday",
    "anyone",
    "anything",
    "anywhere",
    "anyway",
    "anyhow",
    "anybody",
    "everyone",
    "everything",
    "everywhere",
    "everybody",
    "everyday",
    "nobody",
    "nothing",
    "nowhere",
    "cannot",
    "hereby",
    "herein",
    "heretofore",
    "otherwise",
    "altogether",
    "today",
    "tonight",
    "tomorrow",
    "toward",
    "towards",
    "notable",
    "notably",
    "heritage",
    "candid",
    "candidate",
    "candidates",
    "washers",
    "werewolf",
    "hereafter",
    "hitherto",
    "whereabouts",
    "thereabouts",
    "allover",
    "overall",
    "theirs",
    "history",
    "thesis",
    "theme",
    "themes",
    "therapist",
    "isolate",
    "island",
    "islands",
    "orange",
    "oranges",
    "thanks",
    "tobacco",
    "tomato",
    "tomatoes",
    "token",
    "tokens",
    "topic",
    "topics",
    "tower",
    "towers",
    "willow",
    "willing",
    "notion",
    "notice",
    "noticed",
    "notices",
    "heather",
    "herald",
    "heron",
    "hermit",
    "wasteland",
    "whose",
    "whoever",
    "shepherd",
    "father",
    "fathers",
    "rather",
    "whether",
    "weather",
    "gather",
    "gathers",
    "gathered",
    "gathering",
    "shelter",
    "hasten",
    "haven",
    "canteen",
    "canon",
    "canopy",
    "thence",
    "ordeal",
    "order",
    "orders",
];

/// Words that mark English text: when they are under 4 % of a text's words, it is not judged.
const ENGLISH_MARKERS: &[&str] = &["the", "and", "of", "to", "is", "a", "in", "that", "it", "for", "with"];

/// Whether `text` reads as English: "the", "and", "of", "to"… are at least 4 % of its words.
pub fn is_english(text: &str) -> bool {
    let (mut words, mut markers) = (0usize, 0usize);
    for (_, t) in super::words::words(text) {
        words += 1;
        if plain_word(t).is_some_and(|w| ENGLISH_MARKERS.contains(&w)) {
            markers += 1;
        }
    }
    words > 0 && markers * 25 >= words
}

/// A glued word: its bytes and its index among the text's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GluedWord {
    pub range: Range<usize>,
    pub index: usize,
}

/// Quotes and brackets before a plain word…
const BEFORE: CharSet = CharSet::new(&['"', '\'', '(', '[', '“', '‘', '*']);
/// …and those and sentence punctuation after it.
const AFTER: CharSet = CharSet::new(&['.', ',', ';', ':', '!', '?', '"', '\'', ')', ']', '”', '’', '*']);

/// The lower-case letters of a whitespace-separated token, when it is a plain word: letters
/// with at most quotes, brackets or sentence punctuation around them.
fn plain_word(token: &str) -> Option<&str> {
    let w = AFTER.trim_end(BEFORE.trim_start(token));
    (!w.is_empty() && all_bytes(w.as_bytes(), lowercase)).then_some(w)
}

/// A set of hashes with a direct-mapped table of the last inserted in front of it: a text says
/// most of its words again and again, and a value found there is in the set already (no probe).
struct Remembered {
    set: HashedSet,
    recent: Vec<u64>,
}

impl Remembered {
    fn new() -> Self {
        Self { set: HashedSet::default(), recent: vec![0; 1 << 12] }
    }

    /// [`HashedSet::insert`]: whether `h` is new.
    #[inline]
    fn insert(&mut self, h: u64) -> bool {
        let slot = &mut self.recent[(h >> 52) as usize];
        if h != 0 && *slot == h {
            return false;
        }
        *slot = h;
        self.set.insert(h)
    }
}

/// The glued words of `text` and the number of its words (whitespace-separated).
pub fn glued_words(text: &str) -> (Vec<GluedWord>, usize) {
    let blocks = super::super::code_blocks::fenced_blocks(text);
    let code = &blocks;
    let tokens = || {
        let mut block = 0;
        super::words::words(text).enumerate().map(move |(i, (start, t))| {
            while code.get(block).is_some_and(|b| b.end <= start) {
                block += 1;
            }
            let in_code =
                code.get(block).is_some_and(|b| b.contains(&start)) || any_bytes(t.as_bytes(), |x| eq(x, b'`'));
            (i, start, t, in_code)
        })
    };
    // Only English text is judged (told from its first 256 KiB), so that a long text of other
    // words costs no table of them.
    if !is_english(head(text, 1 << 18)) {
        return (Vec::new(), super::words::words(text).count());
    }
    // The words the text uses on their own (every lower-case part counts: `get-request` uses
    // "get"), and the plain words that might be glued.
    let mut vocabulary = Remembered::new();
    let (mut seen, mut candidates) = (Remembered::new(), Vec::new());
    let mut words = 0;
    for (_, _, t, in_code) in tokens() {
        words += 1;
        if in_code {
            continue;
        }
        // A token of lower-case letters only (most) is its one run and its plain word.
        let lower = all_bytes(t.as_bytes(), lowercase);
        if lower {
            if (3..=24).contains(&t.len()) {
                vocabulary.insert(hash_bytes(t.as_bytes()));
            }
        } else {
            // Its runs of ASCII letters (a byte that is not one ends a run, as the character it
            // is part of would).
            for part in t.as_bytes().split(|b| !b.is_ascii_alphabetic()) {
                if (3..=24).contains(&part.len()) && part.iter().all(u8::is_ascii_lowercase) {
                    vocabulary.insert(hash_bytes(part));
                }
            }
        }
        let plain = if lower { Some(t) } else { plain_word(t) };
        if let Some(w) = plain.filter(|w| (6..=48).contains(&w.len())) {
            if seen.insert(hash_bytes(w.as_bytes())) {
                candidates.push(w);
            }
        }
    }
    let mut glued: HashedSet =
        candidates.into_iter().filter(|w| is_glued(w, &vocabulary.set)).map(|w| hash_bytes(w.as_bytes())).collect();
    let mut out = Vec::new();
    if glued.is_empty() {
        return (out, words);
    }
    // Each glued word counts once, where it first stands: a run-together word the text says
    // again is a name it uses (`thiserror`, a crate's name, three times in a paragraph), and
    // words glued by a broken model come out different each time.
    for (index, start, t, in_code) in tokens() {
        if !in_code && plain_word(t).is_some_and(|w| glued.remove(&hash_bytes(w.as_bytes()))) {
            out.push(GluedWord { range: start..start + t.len(), index });
            if glued.is_empty() {
                // Every glued word is placed.
                break;
            }
        }
    }
    (out, words)
}

/// The first `max` bytes of `text` (fewer, to a character's boundary).
pub(super) fn head(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Whether `w` splits wholly into at least two pieces — function words, or words of
/// `vocabulary` of three letters or more — among them a strong function word and a word that
/// is not a function word (`weather` is "we", "at", "her": function words only, not glued).
fn is_glued(w: &str, vocabulary: &HashedSet) -> bool {
    if WORDS_THAT_SPLIT.contains(&w) {
        return false;
    }
    const STRONG_PIECE: u8 = 0b10;
    const CONTENT_PIECE: u8 = 0b01;
    let n = w.len();
    // states[i]: a bit per kind of split of w[..i] — bit k set when a split has the pieces
    // whose kinds make k (STRONG_PIECE | CONTENT_PIECE).
    let mut states = vec![0u8; n + 1];
    states[0] = 1;
    for i in 1..=n {
        for j in 0..i {
            if states[j] == 0 || (j == 0 && i == n) {
                continue;
            }
            let piece = &w[j..i];
            let short = piece.len() <= LONGEST_FUNCTION_WORD;
            let strong = short && STRONG.contains(&piece);
            let function = strong || (short && WEAK.contains(&piece));
            // A word's last piece is no glued function word where an English suffix spells one
            // (processor, editor: "or"; prepare, compare: "are"; human, median: "an"; analysis,
            // basis: "is").
            if i == n && SUFFIXES.contains(&piece) {
                continue;
            }
            let content = !function && piece.len() >= 3 && vocabulary.contains(&hash_bytes(piece.as_bytes()));
            if !function && !content {
                continue;
            }
            let kind = if strong { STRONG_PIECE } else { 0 } | if content { CONTENT_PIECE } else { 0 };
            for k in 0..4u8 {
                if states[j] & (1 << k) != 0 {
                    states[i] |= 1 << (k | kind);
                }
            }
        }
    }
    states[n] & (1 << (STRONG_PIECE | CONTENT_PIECE)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glued(text: &str) -> Vec<&str> {
        glued_words(text).0.iter().map(|g| &text[g.range.clone()]).collect()
    }

    #[test]
    fn words_run_together_are_glued() {
        let salad = "description of to and get-request to to. -description of service andgetrequest \
                     andis_description of. request of a todescription andrequest.";
        assert_eq!(glued(salad), ["andgetrequest", "todescription", "andrequest."]);
        let small = "He came home withhiswifeandchildren and his wife and the children of the town were glad. \
                     It is the day of the lighthouses, eachofthesefourlighthouses is a light.";
        assert_eq!(glued(small), ["withhiswifeandchildren", "eachofthesefourlighthouses"]);
    }

    #[test]
    fn a_glued_word_said_again_counts_once() {
        // anyhow's README names its sister crate three times: a name, not salad.
        let text = "Use [thiserror] if you care about designing your own error types. The thiserror crate \
                    derives them; [thiserror]: https://github.com/dtolnay/thiserror is its home.";
        assert_eq!(glued(text), ["[thiserror]"]);
    }

    #[test]
    fn real_words_code_and_other_languages_are_not() {
        for t in [
            "She found herself together with another friend, and the cat was inside the house.",
            "We talked about the weather, and whether her father would rather come at all.",
            "The stream goes upstream, the load is a download and the input is invalid, incomplete and incorrect.",
            "Use `isinstance(x, int)` to check the instance, and hasattr(obj, name) for an attribute of the object.",
            "```\nandrequest todescription andgetrequest\n```\nThe request and the description of the code.",
            "todos los dos hermanos van a tomar el mar y todo el día.",
            // Suffixes that spell function words, beside their stems: not "process" + "or".
            "Each processor runs its own process; an editor may edit, an auditor audit, a visitor visit \
             and an investor invest, and the processor that finishes takes a process from another processor.",
            "Release prep: prepare the notes, compare the builds, declare the version; prep is done.",
        ] {
            assert_eq!(glued(t), Vec::<&str>::new(), "{t}");
        }
    }
}
