//! Grammatical English prose from a small phrase grammar, and its healthy look-alikes and
//! broken versions, for the word-salad evidence (issue 33).
//!
//! [`textgen::prose`](crate::textgen::prose) strings random words of a 70-word vocabulary
//! (23 % function words, in random places): any rule about where function words stand fires
//! on it. These sentences are built from phrases — determiner, adjectives and noun,
//! prepositional phrases, verbs with their objects, auxiliaries and negation, relative and
//! subordinate clauses, coordination, questions, lists — over a vocabulary of some 900 words,
//! so that function words make about 40–50 % of the words, in the places English puts them.
//!
//! The look-alikes that must stay healthy: terse notes, headlines, bullet lists, poetry,
//! telegraphic log lines and non-native English (dropped articles, wrong tenses and
//! prepositions). The broken kinds: grammatical prose with its words shuffled within each
//! sentence, and words drawn by their frequency in this prose with no syntax (what a model
//! sampling tokens by their unigram frequency writes), sentence stops and commas among them.

use crate::textgen::Rng;

const NOUNS: &[(&str, &str)] = &[
    ("server", "servers"),
    ("model", "models"),
    ("request", "requests"),
    ("answer", "answers"),
    ("kernel", "kernels"),
    ("page", "pages"),
    ("thread", "threads"),
    ("queue", "queues"),
    ("cache", "caches"),
    ("file", "files"),
    ("report", "reports"),
    ("engineer", "engineers"),
    ("team", "teams"),
    ("city", "cities"),
    ("river", "rivers"),
    ("bridge", "bridges"),
    ("village", "villages"),
    ("teacher", "teachers"),
    ("student", "students"),
    ("child", "children"),
    ("woman", "women"),
    ("man", "men"),
    ("doctor", "doctors"),
    ("patient", "patients"),
    ("farmer", "farmers"),
    ("field", "fields"),
    ("garden", "gardens"),
    ("house", "houses"),
    ("window", "windows"),
    ("door", "doors"),
    ("road", "roads"),
    ("car", "cars"),
    ("train", "trains"),
    ("station", "stations"),
    ("market", "markets"),
    ("price", "prices"),
    ("bank", "banks"),
    ("company", "companies"),
    ("customer", "customers"),
    ("product", "products"),
    ("meeting", "meetings"),
    ("plan", "plans"),
    ("idea", "ideas"),
    ("question", "questions"),
    ("problem", "problems"),
    ("result", "results"),
    ("test", "tests"),
    ("change", "changes"),
    ("version", "versions"),
    ("user", "users"),
    ("database", "databases"),
    ("table", "tables"),
    ("record", "records"),
    ("network", "networks"),
    ("message", "messages"),
    ("letter", "letters"),
    ("book", "books"),
    ("story", "stories"),
    ("song", "songs"),
    ("picture", "pictures"),
    ("camera", "cameras"),
    ("phone", "phones"),
    ("computer", "computers"),
    ("program", "programs"),
    ("library", "libraries"),
    ("function", "functions"),
    ("variable", "variables"),
    ("error", "errors"),
    ("log", "logs"),
    ("disk", "disks"),
    ("machine", "machines"),
    ("cluster", "clusters"),
    ("node", "nodes"),
    ("process", "processes"),
    ("memory", "memories"),
    ("token", "tokens"),
    ("layer", "layers"),
    ("weight", "weights"),
    ("batch", "batches"),
    ("step", "steps"),
    ("rule", "rules"),
    ("law", "laws"),
    ("court", "courts"),
    ("judge", "judges"),
    ("council", "councils"),
    ("mountain", "mountains"),
    ("lake", "lakes"),
    ("forest", "forests"),
    ("tree", "trees"),
    ("bird", "birds"),
    ("dog", "dogs"),
    ("horse", "horses"),
    ("boat", "boats"),
    ("ship", "ships"),
    ("harbour", "harbours"),
    ("island", "islands"),
    ("storm", "storms"),
    ("wind", "winds"),
    ("morning", "mornings"),
    ("evening", "evenings"),
    ("week", "weeks"),
    ("year", "years"),
    ("month", "months"),
    ("hour", "hours"),
    ("minute", "minutes"),
    ("kitchen", "kitchens"),
    ("recipe", "recipes"),
    ("onion", "onions"),
    ("oven", "ovens"),
    ("bottle", "bottles"),
    ("friend", "friends"),
    ("neighbour", "neighbours"),
    ("brother", "brothers"),
    ("sister", "sisters"),
    ("school", "schools"),
    ("lesson", "lessons"),
    ("museum", "museums"),
    ("painting", "paintings"),
    ("concert", "concerts"),
    ("player", "players"),
    ("game", "games"),
    ("match", "matches"),
    ("window manager", "window managers"),
    ("budget", "budgets"),
    ("tax", "taxes"),
    ("worker", "workers"),
    ("factory", "factories"),
    ("engine", "engines"),
    ("wheel", "wheels"),
    ("light", "lights"),
    ("signal", "signals"),
    ("source", "sources"),
    ("border", "borders"),
    ("country", "countries"),
];

const MASS_NOUNS: &[&str] = &[
    "water",
    "traffic",
    "memory",
    "information",
    "software",
    "music",
    "rain",
    "snow",
    "bread",
    "money",
    "time",
    "work",
    "progress",
    "advice",
    "evidence",
    "research",
    "equipment",
    "furniture",
    "coffee",
    "light",
];

const NAMES: &[&str] = &[
    "Anna",
    "Tom",
    "Maria",
    "David",
    "Sara",
    "Peter",
    "Lena",
    "James",
    "Oslo",
    "Lisbon",
    "Kyoto",
    "Chicago",
    "Linux",
    "Python",
    "Monday",
    "Friday",
    "March",
    "October",
    "the Thames",
    "the Alps",
];

const ADJECTIVES: &[&str] = &[
    "new",
    "old",
    "small",
    "large",
    "quiet",
    "busy",
    "slow",
    "fast",
    "long",
    "short",
    "bright",
    "dark",
    "early",
    "late",
    "simple",
    "careful",
    "strange",
    "common",
    "rare",
    "useful",
    "broken",
    "empty",
    "full",
    "warm",
    "cold",
    "heavy",
    "light",
    "narrow",
    "wide",
    "local",
    "remote",
    "final",
    "first",
    "second",
    "main",
    "whole",
    "public",
    "private",
    "open",
    "closed",
    "green",
    "red",
    "blue",
    "young",
    "tired",
    "happy",
    "angry",
    "clean",
    "dirty",
    "cheap",
    "expensive",
    "recent",
    "ancient",
    "modern",
    "northern",
    "southern",
    "important",
    "difficult",
    "easy",
    "possible",
    "available",
    "ready",
    "certain",
    "clear",
    "strong",
    "weak",
    "healthy",
    "sick",
    "loud",
    "soft",
    "deep",
    "high",
    "low",
    "free",
    "safe",
    "wrong",
];

/// Verbs: base, third person singular, past, past participle, and whether they take an object.
const VERBS: &[(&str, &str, &str, &str, bool)] = &[
    ("send", "sends", "sent", "sent", true),
    ("read", "reads", "read", "read", true),
    ("write", "writes", "wrote", "written", true),
    ("build", "builds", "built", "built", true),
    ("find", "finds", "found", "found", true),
    ("keep", "keeps", "kept", "kept", true),
    ("open", "opens", "opened", "opened", true),
    ("close", "closes", "closed", "closed", true),
    ("carry", "carries", "carried", "carried", true),
    ("check", "checks", "checked", "checked", true),
    ("replace", "replaces", "replaced", "replaced", true),
    ("move", "moves", "moved", "moved", true),
    ("watch", "watches", "watched", "watched", true),
    ("visit", "visits", "visited", "visited", true),
    ("paint", "paints", "painted", "painted", true),
    ("cook", "cooks", "cooked", "cooked", true),
    ("fix", "fixes", "fixed", "fixed", true),
    ("test", "tests", "tested", "tested", true),
    ("load", "loads", "loaded", "loaded", true),
    ("store", "stores", "stored", "stored", true),
    ("follow", "follows", "followed", "followed", true),
    ("answer", "answers", "answered", "answered", true),
    ("need", "needs", "needed", "needed", true),
    ("want", "wants", "wanted", "wanted", true),
    ("see", "sees", "saw", "seen", true),
    ("take", "takes", "took", "taken", true),
    ("give", "gives", "gave", "given", true),
    ("bring", "brings", "brought", "brought", true),
    ("sell", "sells", "sold", "sold", true),
    ("buy", "buys", "bought", "bought", true),
    ("teach", "teaches", "taught", "taught", true),
    ("explain", "explains", "explained", "explained", true),
    ("describe", "describes", "described", "described", true),
    ("measure", "measures", "measured", "measured", true),
    ("count", "counts", "counted", "counted", true),
    ("reach", "reaches", "reached", "reached", true),
    ("leave", "leaves", "left", "left", true),
    ("cross", "crosses", "crossed", "crossed", true),
    ("clean", "cleans", "cleaned", "cleaned", true),
    ("start", "starts", "started", "started", true),
    ("stop", "stops", "stopped", "stopped", true),
    ("use", "uses", "used", "used", true),
    ("arrive", "arrives", "arrived", "arrived", false),
    ("wait", "waits", "waited", "waited", false),
    ("sleep", "sleeps", "slept", "slept", false),
    ("work", "works", "worked", "worked", false),
    ("fail", "fails", "failed", "failed", false),
    ("run", "runs", "ran", "run", false),
    ("fall", "falls", "fell", "fallen", false),
    ("grow", "grows", "grew", "grown", false),
    ("rise", "rises", "rose", "risen", false),
    ("stay", "stays", "stayed", "stayed", false),
    ("return", "returns", "returned", "returned", false),
    ("happen", "happens", "happened", "happened", false),
    ("continue", "continues", "continued", "continued", false),
    ("sing", "sings", "sang", "sung", false),
    ("laugh", "laughs", "laughed", "laughed", false),
    ("travel", "travels", "travelled", "travelled", false),
];

const ADVERBS: &[&str] = &[
    "quickly",
    "slowly",
    "again",
    "often",
    "rarely",
    "always",
    "never",
    "already",
    "still",
    "soon",
    "later",
    "today",
    "yesterday",
    "carefully",
    "quietly",
    "suddenly",
    "finally",
    "usually",
    "sometimes",
    "here",
    "there",
    "together",
    "early",
    "almost",
    "really",
    "well",
];

const PREPOSITIONS: &[&str] = &[
    "in", "on", "at", "from", "to", "with", "without", "for", "of", "by", "under", "over", "near", "after", "before",
    "behind", "between", "through", "across", "during", "into", "along", "around", "about",
];

const SUBORDINATORS: &[&str] =
    &["when", "because", "if", "although", "while", "after", "before", "since", "until", "unless"];

/// A noun phrase: (words, whether it is plural).
fn noun_phrase(rng: &mut Rng, depth: usize) -> (String, bool) {
    let mut s = String::new();
    let plural;
    match rng.below(20) {
        0..=1 => {
            let p = ["he", "she", "it", "they", "we", "you", "I", "this", "someone", "everyone"];
            let w = rng.pick(&p);
            return (w.to_string(), matches!(w, "they" | "we" | "you" | "I"));
        }
        2 => return (rng.pick(NAMES).to_string(), false),
        3 => {
            if rng.below(2) == 0 {
                s.push_str(rng.pick(&["the", "some", "much", "no", "more"]));
                s.push(' ');
            }
            s.push_str(rng.pick(MASS_NOUNS));
            return (s, false);
        }
        _ => {
            plural = rng.below(3) == 0;
            let det = if plural {
                rng.pick(&[
                    "the", "the", "these", "those", "some", "many", "our", "their", "all the", "two", "several", "",
                ])
            } else {
                rng.pick(&[
                    "the", "the", "the", "a", "a", "this", "that", "every", "each", "our", "his", "her", "its",
                    "their", "my", "your", "another",
                ])
            };
            s.push_str(det);
            if !det.is_empty() {
                s.push(' ');
            }
            for _ in 0..[0, 0, 1, 1, 2][rng.below(5)] {
                if rng.below(6) == 0 {
                    s.push_str(rng.pick(&["very", "quite", "rather", "too"]));
                    s.push(' ');
                }
                s.push_str(rng.pick(ADJECTIVES));
                s.push(' ');
            }
            let (one, many) = NOUNS[rng.below(NOUNS.len())];
            s.push_str(if plural { many } else { one });
            // "a" before a vowel is "an".
            if det == "a" && s[2..].starts_with(['a', 'e', 'i', 'o', 'u']) {
                s.insert(1, 'n');
            }
        }
    }
    if depth < 2 && rng.below(4) == 0 {
        s.push(' ');
        s.push_str(&prepositional(rng, depth + 1));
    } else if depth < 1 && rng.below(8) == 0 {
        s.push(' ');
        s.push_str(rng.pick(&["that", "which", "who"]));
        s.push(' ');
        s.push_str(&verb_phrase(rng, plural, depth + 1));
    }
    (s, plural)
}

fn prepositional(rng: &mut Rng, depth: usize) -> String {
    format!("{} {}", rng.pick(PREPOSITIONS), noun_phrase(rng, depth + 1).0)
}

/// A verb phrase agreeing with a subject (plural or not).
fn verb_phrase(rng: &mut Rng, plural: bool, depth: usize) -> String {
    let (base, third, past, participle, transitive) = VERBS[rng.below(VERBS.len())];
    let mut s = String::new();
    match rng.below(10) {
        0..=2 => s.push_str(past),
        3..=4 => s.push_str(if plural { base } else { third }),
        5 => {
            s.push_str(rng.pick(&["will", "can", "should", "must", "could", "would", "might", "may"]));
            if rng.below(4) == 0 {
                s.push_str(" not");
            }
            s.push(' ');
            s.push_str(base);
        }
        6 => {
            s.push_str(if plural { "have " } else { "has " });
            if rng.below(3) == 0 {
                s.push_str(rng.pick(&["already ", "never ", "just ", "not "]));
            }
            s.push_str(participle);
        }
        7 => {
            s.push_str(if plural { "do not " } else { "does not " });
            s.push_str(base);
        }
        8 => {
            // A copula and an adjective or a noun phrase.
            s.push_str(if plural { rng.pick(&["are", "were"]) } else { rng.pick(&["is", "was"]) });
            s.push(' ');
            if rng.below(4) == 0 {
                s.push_str("not ");
            }
            if rng.below(3) == 0 {
                s.push_str(&noun_phrase(rng, depth + 1).0);
            } else {
                s.push_str(rng.pick(ADJECTIVES));
            }
            return s;
        }
        _ => {
            s.push_str(past);
            if depth < 2 {
                s.push_str(rng.pick(&[" to ", " in order to "]));
                let (b, ..) = VERBS[rng.below(VERBS.len())];
                s.push_str(b);
                s.push(' ');
                s.push_str(&noun_phrase(rng, depth + 1).0);
                return s;
            }
        }
    }
    if transitive {
        s.push(' ');
        s.push_str(&noun_phrase(rng, depth + 1).0);
    }
    if rng.below(3) == 0 {
        s.push(' ');
        s.push_str(rng.pick(ADVERBS));
    }
    if depth < 2 && rng.below(2) == 0 {
        s.push(' ');
        s.push_str(&prepositional(rng, depth));
    }
    s
}

fn clause(rng: &mut Rng, depth: usize) -> String {
    let (subject, plural) = noun_phrase(rng, depth);
    format!("{subject} {}", verb_phrase(rng, plural, depth))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// One English sentence, with its stop.
pub fn sentence(rng: &mut Rng) -> String {
    let body = match rng.below(12) {
        0..=3 => format!("{}.", clause(rng, 0)),
        4 => format!("{} {}, {}.", rng.pick(SUBORDINATORS), clause(rng, 1), clause(rng, 1)),
        5 => format!("{} {} {}.", clause(rng, 0), rng.pick(SUBORDINATORS), clause(rng, 1)),
        6 => format!("{}, {} {}.", clause(rng, 1), rng.pick(&["and", "but", "so", "yet", "or"]), clause(rng, 1)),
        7 => {
            let (subject, plural) = noun_phrase(rng, 1);
            let (base, ..) = VERBS[rng.below(VERBS.len())];
            match rng.below(4) {
                0 => format!("{} {subject} {base} {}?", if plural { "do" } else { "does" }, noun_phrase(rng, 1).0),
                1 => format!(
                    "{} {} {subject} {base}?",
                    rng.pick(&["why", "how", "when", "where"]),
                    if plural { "do" } else { "does" }
                ),
                2 => format!("{} {subject} {}?", if plural { "are" } else { "is" }, rng.pick(ADJECTIVES)),
                _ => format!(
                    "what {} {subject} {} {}?",
                    if plural { "have" } else { "has" },
                    VERBS[rng.below(VERBS.len())].3,
                    rng.pick(PREPOSITIONS)
                ),
            }
        }
        8 => {
            // A list in a sentence.
            let n = 3 + rng.below(3);
            let items: Vec<String> = (0..n).map(|_| noun_phrase(rng, 2).0).collect();
            format!(
                "{} {}, and {}.",
                rng.pick(&["we need", "the box holds", "they brought", "you will find", "the list names"]),
                items[..n - 1].join(", "),
                items[n - 1]
            )
        }
        9 => format!(
            "there {} {} {}.",
            if rng.below(2) == 0 { "is" } else { "was" },
            noun_phrase(rng, 1).0,
            prepositional(rng, 1)
        ),
        10 => format!(
            "{} {}.",
            rng.pick(&[
                "in the end,",
                "after a while,",
                "for this reason,",
                "on the other hand,",
                "at first,",
                "however,"
            ]),
            clause(rng, 1)
        ),
        _ => format!(
            "{}, {} {}.",
            clause(rng, 1),
            rng.pick(&["which", "and then", "so that"]),
            verb_phrase(rng, false, 1)
        ),
    };
    capitalise(&body)
}

/// Grammatical English prose of about `n` bytes (at least `n`): paragraphs of sentences.
pub fn english(rng: &mut Rng, n: usize) -> String {
    let mut s = String::with_capacity(n + 256);
    while s.len() < n {
        s.push_str(&sentence(rng));
        s.push_str(if rng.below(6) == 0 { "\n\n" } else { " " });
    }
    s
}

/// About `len` bytes: `prose_len` bytes of [`english`] prose, then one sentence looping line by
/// line to the end — the benches' healthy text turning into a loop (`scripts/bench-cli` loops
/// the last 30 %: `prose_len` = 70 % of `len`).
pub fn english_then_loop(rng: &mut Rng, len: usize, prose_len: usize) -> String {
    let mut s = english(rng, prose_len);
    let line = "The reclaim thread scans the inactive list again and evicts the oldest pages.\n";
    while s.len() < len {
        s.push_str(line);
    }
    s
}

/// About `len` bytes: [`english`] prose for the first half, then one sentence looping.
pub fn english_turning_into_loop(rng: &mut Rng, len: usize) -> String {
    english_then_loop(rng, len, len / 2)
}

/// A generator of about `n` bytes of text.
pub type Generator = fn(&mut Rng, usize) -> String;

/// Grammatical prose and its healthy look-alikes, by name: what no word-salad rule may flag.
pub const HEALTHY: [(&str, Generator); 7] = [
    ("grammatical prose", english),
    ("bullets", bullets),
    ("headlines", headlines),
    ("terse notes", terse_notes),
    ("telegraphic logs", telegraphic),
    ("poetry", poetry),
    ("non-native English", non_native),
];

/// Broken: clause after clause joined by conjunctions and relative words — `and`, `which`,
/// `so that`, `because` — and never a stop or a line break: a sentence that never ends, about
/// `n` bytes.
pub fn run_on(rng: &mut Rng, n: usize) -> String {
    let mut s = capitalise(&clause(rng, 1));
    while s.len() < n {
        s.push_str(rng.pick(&[
            " and ",
            " which means that ",
            ", and then ",
            " so that ",
            " because ",
            " while ",
            ", but ",
            " and also ",
            " after which ",
            " or ",
        ]));
        s.push_str(&clause(rng, 1));
    }
    s
}

/// A look-alike of [`run_on`]: long sentences, as a contract or a licence writes them — 60 to
/// 150 words of clauses joined by commas, conjunctions and relative words, then a stop —
/// paragraphs on lines of their own, about `n` bytes.
pub fn long_sentences(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    while s.len() < n {
        let words = 60 + rng.below(91);
        let mut sentence = capitalise(&clause(rng, 1));
        while sentence.split_whitespace().count() < words {
            sentence.push_str(rng.pick(&[", and ", ", which ", ", provided that ", " unless ", ", or ", " and "]));
            sentence.push_str(&clause(rng, 1));
        }
        s.push_str(&sentence);
        s.push_str(if rng.below(3) == 0 { ".\n\n" } else { ". " });
    }
    s
}

/// A look-alike of [`run_on`]: a poem with no punctuation at all, one short line at a time.
pub fn unpunctuated_poetry(rng: &mut Rng, n: usize) -> String {
    poetry(rng, n).chars().filter(|c| !matches!(c, '.' | ',' | ';' | ':' | '!' | '?')).collect()
}

/// A bullet list of noun phrases and short clauses, under a heading.
pub fn bullets(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    while s.len() < n {
        s.push_str(&format!("## {}\n\n", capitalise(&noun_phrase(rng, 2).0)));
        for _ in 0..3 + rng.below(5) {
            let item = if rng.below(2) == 0 { noun_phrase(rng, 1).0 } else { clause(rng, 1) };
            s.push_str(&format!("{} {}\n", rng.pick(&["-", "*", "•"]), capitalise(&item)));
        }
        s.push('\n');
    }
    s
}

/// Headlines: a noun phrase without its article, a verb in the present, an object.
pub fn headlines(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    while s.len() < n {
        let (_, third, ..) = VERBS[rng.below(VERBS.len())];
        let (one, many) = NOUNS[rng.below(NOUNS.len())];
        let (obj, objs) = NOUNS[rng.below(NOUNS.len())];
        let line = match rng.below(4) {
            0 => format!("{} {third} {} {obj}", capitalise(one), rng.pick(ADJECTIVES)),
            1 => format!(
                "{} To {} {objs} {} {}",
                capitalise(many),
                VERBS[rng.below(VERBS.len())].0,
                rng.pick(PREPOSITIONS),
                rng.pick(NAMES)
            ),
            2 => format!(
                "{}: {} {third} As {} {}",
                rng.pick(NAMES),
                capitalise(one),
                capitalise(objs),
                VERBS[rng.below(VERBS.len())].0
            ),
            _ => format!(
                "{} {objs}, {} {many} {}",
                capitalise(rng.pick(ADJECTIVES)),
                rng.pick(&["Few", "More", "No"]),
                VERBS[rng.below(VERBS.len())].0
            ),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// Terse notes: clauses without articles or subjects, joined by semicolons and arrows.
pub fn terse_notes(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    while s.len() < n {
        let k = 2 + rng.below(4);
        let parts: Vec<String> = (0..k)
            .map(|_| {
                let (_, _, past, ..) = VERBS[rng.below(VERBS.len())];
                let (one, _) = NOUNS[rng.below(NOUNS.len())];
                match rng.below(5) {
                    0 => format!("{past} {one}"),
                    1 => format!("{one} {}", rng.pick(ADJECTIVES)),
                    2 => format!("todo: {} {one}", VERBS[rng.below(VERBS.len())].0),
                    3 => format!("{one} -> {}", NOUNS[rng.below(NOUNS.len())].0),
                    _ => format!("ask {} re {one}", rng.pick(NAMES)),
                }
            })
            .collect();
        s.push_str(&parts.join(rng.pick(&["; ", ", ", " / "])));
        s.push('\n');
    }
    s
}

/// Telegraphic log lines: subjectless, articleless, with numbers and units.
pub fn telegraphic(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    let mut t = 0;
    while s.len() < n {
        t += 1 + rng.below(900);
        let (_, _, past, ..) = VERBS[rng.below(VERBS.len())];
        let (one, many) = NOUNS[rng.below(NOUNS.len())];
        let line = match rng.below(4) {
            0 => format!("{one} {past}, retry {}/5 in {} ms", 1 + rng.below(5), 100 * (1 + rng.below(9))),
            1 => format!("{} {many} {past}; {} left", rng.below(500), rng.below(90)),
            2 => format!(
                "{one} {} ok, {} {}",
                rng.pick(&["check", "load", "sync"]),
                NOUNS[rng.below(NOUNS.len())].0,
                rng.pick(ADJECTIVES)
            ),
            _ => format!("{past} {one} to {} ({}s)", NOUNS[rng.below(NOUNS.len())].0, rng.below(60)),
        };
        s.push_str(&format!("[{:>6}] {line}\n", t));
    }
    s
}

/// Poetry: short lines of noun phrases and clauses, repeated words and "and", few stops.
pub fn poetry(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    while s.len() < n {
        for _ in 0..4 {
            let line = match rng.below(5) {
                0 => {
                    let np = noun_phrase(rng, 2).0;
                    format!("{np}, {np}, and {}", noun_phrase(rng, 2).0)
                }
                1 => format!(
                    "of {} and {}",
                    MASS_NOUNS[rng.below(MASS_NOUNS.len())],
                    MASS_NOUNS[rng.below(MASS_NOUNS.len())]
                ),
                2 => format!("o {} {}", rng.pick(ADJECTIVES), NOUNS[rng.below(NOUNS.len())].0),
                3 => format!(
                    "to {}, to {}, to {}",
                    VERBS[rng.below(VERBS.len())].0,
                    VERBS[rng.below(VERBS.len())].0,
                    VERBS[rng.below(VERBS.len())].0
                ),
                _ => clause(rng, 2),
            };
            s.push_str(&line);
            s.push_str(if rng.below(3) == 0 { ",\n" } else { "\n" });
        }
        s.push('\n');
    }
    s
}

/// Non-native English: articles dropped or added, verbs without agreement or with the wrong
/// tense, prepositions swapped, subjects said twice.
pub fn non_native(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    while s.len() < n {
        let mut words: Vec<String> = sentence(rng).split(' ').map(str::to_string).collect();
        for w in words.iter_mut() {
            match w.as_str() {
                "the" | "a" | "an" if rng.below(3) == 0 => w.clear(),
                "is" | "are" | "was" | "were" if rng.below(3) == 0 => *w = "is".into(),
                "in" | "on" | "at" | "to" | "for" if rng.below(3) == 0 => {
                    *w = rng.pick(&["in", "on", "at", "to", "for"]).into()
                }
                "has" | "have" if rng.below(2) == 0 => *w = "is".into(),
                "does" if rng.below(2) == 0 => *w = "do".into(),
                _ => {}
            }
        }
        if rng.below(4) == 0 {
            let he = rng.pick(&["he", "she", "they", "it"]).to_string();
            if words.len() > 3 {
                words.insert(2, he);
            }
        }
        let joined: Vec<String> = words.into_iter().filter(|w| !w.is_empty()).collect();
        s.push_str(&capitalise(&joined.join(" ")));
        s.push_str(if rng.below(6) == 0 { "\n\n" } else { " " });
    }
    s
}

/// Grammatical prose with each sentence's words shuffled (its stop kept at its end): the
/// words and their frequencies of English, no syntax.
pub fn shuffled(rng: &mut Rng, n: usize) -> String {
    let mut s = String::new();
    while s.len() < n {
        let sentence = sentence(rng);
        let mut words: Vec<&str> = sentence.trim_end_matches(['.', '?']).split(' ').collect();
        for i in (1..words.len()).rev() {
            words.swap(i, rng.below(i + 1));
        }
        let line = words.join(" ").to_lowercase().replace(',', "");
        s.push_str(&capitalise(&line));
        s.push_str(". ");
    }
    s
}

/// Words drawn by their frequency in grammatical prose, with no syntax: a model sampling its
/// tokens by their unigram frequency. Stops and commas come at their rate in prose.
pub fn frequency_sampled(rng: &mut Rng, n: usize) -> String {
    let sample = english(&mut Rng::new(rng.next_u64()), 40_000);
    let tokens: Vec<&str> = sample.split_whitespace().collect();
    let mut s = String::new();
    while s.len() < n {
        s.push_str(tokens[rng.below(tokens.len())]);
        s.push(' ');
    }
    s
}

/// Whether `word` is one of the English function words the tests below count.
pub fn is_function_word(word: &str) -> bool {
    FUNCTION_WORDS.contains(&word.to_lowercase().as_str())
}

const FUNCTION_WORDS: &[&str] = &[
    "the", "of", "and", "to", "a", "in", "is", "it", "that", "for", "was", "on", "are", "as", "with", "be", "by", "at",
    "this", "have", "from", "or", "an", "but", "not", "which", "they", "you", "he", "she", "we", "i", "his", "her",
    "their", "its", "were", "been", "has", "had", "will", "would", "can", "could", "there", "what", "all", "if", "so",
    "no", "do", "does", "did", "about", "into", "than", "then", "them", "these", "those", "who", "when", "where",
    "how", "why", "more", "some", "any", "each", "other", "our", "your", "my", "me", "him", "us", "one", "also",
    "only", "very", "just", "such", "every", "over", "under", "after", "before", "up", "out", "may", "might", "must",
    "shall", "should", "while", "because",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The share of English function words ([`is_function_word`]) among a text's words.
    fn function_share(text: &str) -> f64 {
        let words: Vec<String> = text
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase())
            .filter(|w| !w.is_empty())
            .collect();
        words.iter().filter(|w| is_function_word(w)).count() as f64 / words.len() as f64
    }

    #[test]
    fn prose_spends_40_to_50_percent_of_its_words_on_function_words() {
        let text = english(&mut Rng::new(1), 200_000);
        let share = function_share(&text);
        assert!((0.38..=0.52).contains(&share), "{share}");
        let random = crate::textgen::prose(&mut Rng::new(1), 200_000, crate::textgen::WORDS, " ");
        assert!(function_share(&random) < 0.3, "{}", function_share(&random));
    }

    #[test]
    fn generators_are_deterministic_and_long_enough() {
        type Gen = fn(&mut Rng, usize) -> String;
        let gens: [Gen; 9] =
            [english, bullets, headlines, terse_notes, telegraphic, poetry, non_native, shuffled, frequency_sampled];
        for g in gens {
            let a = g(&mut Rng::new(7), 3000);
            assert!(a.len() >= 3000);
            assert_eq!(a, g(&mut Rng::new(7), 3000));
        }
    }
}
