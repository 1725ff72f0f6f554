//! The function words of the major languages (articles, prepositions, conjunctions, pronouns,
//! auxiliaries, particles), in every script that spaces its words: Latin (English, German,
//! French, Spanish, Portuguese, Italian, Dutch, the Nordic languages, Polish, Czech, Slovak,
//! the Slavic languages of the Balkans, Romanian, Hungarian, Finnish, Estonian, Latvian,
//! Lithuanian, Albanian, Basque, Welsh, Turkish, Indonesian and Malay, Tagalog, Vietnamese,
//! Swahili, Hausa, Yoruba, Somali, Māori, Latin, Esperanto, and Russian, Chinese, Japanese and
//! Hindi written in Latin letters), Cyrillic (Russian, Ukrainian, Bulgarian, Serbian), Greek,
//! Arabic and Persian, Hebrew, Devanagari (Hindi, Marathi).
//!
//! Any language's running text spends about a quarter to a half of its words on these (the
//! few dozen most frequent words of a language are nearly all function words); a string of
//! words of no language — a model with random or broken weights sampling its vocabulary —
//! spends a few percent, what chance gives. The words are written here by hand, lower case;
//! a word of one language that is a content word in another (German "war", Italian "come")
//! costs nothing: the check asks only how many words of a stretch are in the table.

use super::super::hashed_set::HashedSet;
use super::super::tokens::hash_bytes;
use super::swar::{eq, low_bits_in, HIGH};
use std::sync::OnceLock;

const WORDS: &str = "
the of and to a in is it that for was on are as with be by at this have from or an but not which they
you he she we i his her their its were been has had will would can could there what all if so no do does
did about into than then them these those who when where how why more some any each other our your my me
him us one also only very just such every over under after before up out am may might must shall should being
don doesn didn isn aren wasn weren won wouldn couldn shouldn haven hasn hadn let here while because
der die das und zu den von ist mit sich des auf für nicht es ein eine als auch dem an wird aus er sie nach
bei um im am oder wie einen einer sind werden hat zum zur dass aber noch nur so war vor über wenn ich du
wir ihr man sein seine kann
de la le et les des en un une du est que qui dans pour pas par sur au il elle ne se plus ce avec sont à ou
mais nous vous aux son sa ses je on y cette été être comme qu l d j n s c m t
el en y los del las por con no una su para es al lo como más o pero sus le ha me si sin sobre este ya entre
cuando muy también hay yo
do da em um é com não uma os na mais as dos ao ele das seu sua quando muito nos já eu só pelo pela
di e il che per è non del della si da gli ma più sono nel anche dei alla
het een van op te zijn met voor niet aan er om ook bij maar naar wordt
och att det som på är av för till har inte ett og til af ikke jeg han hun var
w z się jest jak po ale co od za tak
v že s k jako by pro jsou ako sa
je u su kao iz sa
și în cu pe care să din este ce mai sau
az és hogy nem is egy meg ez van csak már el mint
ja on ei että oli kun mutta tai niin myös ole hän ovat kuin jo sen mitä
see ka kui ta mis aga või
un ir ka ar par uz kas lai bet tas arī vai nav
kad yra su į iš tai kaip jo buvo
dhe të në një për me nga që është
eta da ez bat du zen ere dira baina bere
yr ac yn ar ei mae bod gan ond fel
ve bir bu ile için çok ne mi gibi daha olarak ki var ama kadar olan sonra her yok
yang dan di ke dari ini itu untuk dengan tidak ada akan pada dalam juga atau saya kita bisa sudah adalah
oleh karena ia mereka
ang ng sa na mga at ay si ko ako ka mo hindi niya kung pa lang din rin ito may
và của là có không được các những cho trong một người này đã với để khi thì cũng từ như sẽ tôi đến ra
về nhiều làm mà
ya wa kwa za ni katika cha kama hiyo huo lakini pia kuwa hii yake
ta ba ne ce kuma wanda don
ti ati naa kan fun lati won
iyo ku oo waa ee uu ay
ki nga ko kua ana tana
chto eto kak ya ty ona my vy oni ili net dlya ot uzhe
shi shì le bu bù zai zài wo wǒ ni nǐ ta tā hé you yǒu zhe zhè yi yī ge gè ma hen hěn ye yě dou dōu men
wa ga wo ni mo desu ka yo kara made masu
hai ki ke mein se ko aur nahi nahin ye woh kya bhi par tha ho
est ad cum ut sed quod ab ex
kaj estas al ke mi vi li ŝi ĝi ili kun
и в не на что с я он как по это а к но она из у за от же так все бы для вы мы о ты его то был её ее до
только уже или ни если да когда при
і що з він це та але й ти ми ви
е са като тя той това
και το να η ο του της τα με σε για που δεν από θα είναι στο στην των τον την ένα μια
في من على إلى أن عن ما لا هذا التي الذي مع كان و هذه أو قد ثم كل بين هو هي لم لن إن
در به از که این را با است برای آن یک تا هم می
של את על לא זה הוא עם כי גם אני היא או אם
के में की है और से को का पर यह नहीं एक हैं था भी तो कि
";

/// The table: the words as hashes of their bytes, the longest word's length in bytes, and the
/// ASCII words of up to 8 letters apart, each packed into a `u64` (most words looked up are
/// short ASCII words: one multiply instead of a hash over their bytes).
struct Table {
    hashed: HashedSet,
    longest: usize,
    short_ascii: Slots,
}

/// The packed short words' mixed values (see [`packed`]) by open addressing: a value's top bits
/// are its slot, or the next free one after it; 0 is a free slot (a packed word of letters is
/// never 0, and 0 is never looked up).
struct Slots {
    slots: Vec<u64>,
    shift: u32,
}

impl FromIterator<u64> for Slots {
    fn from_iter<I: IntoIterator<Item = u64>>(values: I) -> Self {
        let values: Vec<u64> = values.into_iter().filter(|&v| v != 0).collect();
        // At most a quarter full: a lookup reads one slot, two at times.
        let size = (values.len() * 4).next_power_of_two().max(64);
        let shift = 64 - size.trailing_zeros();
        let mut slots = vec![0u64; size];
        for v in values {
            let mut i = (v >> shift) as usize;
            while slots[i] != 0 && slots[i] != v {
                i = (i + 1) & (size - 1);
            }
            slots[i] = v;
        }
        Slots { slots, shift }
    }
}

impl Slots {
    #[inline]
    fn contains(&self, v: u64) -> bool {
        if v == 0 {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut i = (v >> self.shift) as usize;
        loop {
            match self.slots[i] {
                s if s == v => return true,
                0 => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

/// An ASCII word of at most 8 bytes packed into a `u64` (lower-cased), mixed for the set.
fn packed(word: &[u8]) -> u64 {
    let mut key = 0u64;
    for &b in word {
        key = key << 8 | u64::from(b.to_ascii_lowercase());
    }
    mixed(key, word.len())
}

/// A packed word of `len` bytes, mixed for the set.
#[inline]
fn mixed(key: u64, len: usize) -> u64 {
    let h = (key ^ (len as u64) << 60).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ h >> 29
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let words = WORDS.split_whitespace();
        Table {
            hashed: words.clone().map(|w| hash_bytes(w.as_bytes())).collect(),
            longest: words.clone().map(str::len).max().unwrap_or(0),
            short_ascii: words.filter(|w| w.is_ascii() && w.len() <= 8).map(|w| packed(w.as_bytes())).collect(),
        }
    })
}

/// Whether `word` (letters only, any case) is a function word of some language. A word elided
/// before an apostrophe counts by its first part (French `l'homme`, Italian `dell'anno`,
/// English `don't`).
pub fn is_function_word(word: &str) -> bool {
    let table = table();
    // Most words: ASCII of at most 8 bytes, no apostrophe (the word is its own head), packed
    // as they are checked.
    let n = word.len();
    if n != 0 && n <= 8 && n <= table.longest {
        // The bytes at the low end of a big-endian u64 (as `packed` shifts them in), read as
        // two overlapping halves (or three bytes) rather than copied, eight tested at a time:
        // ASCII without an apostrophe, capitals lower-cased.
        let b = word.as_bytes();
        let x = if n >= 4 {
            let first = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
            let last = u32::from_be_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
            u64::from(first) << (8 * (n - 4)) | u64::from(last)
        } else {
            u64::from(b[0]) << (8 * (n - 1)) | u64::from(b[n / 2]) << (8 * (n - 1 - n / 2)) | u64::from(b[n - 1])
        };
        if (x & HIGH) | eq(x, b'\'') == 0 {
            let key = x | low_bits_in(x, b'A', b'Z') >> 2;
            return table.short_ascii.contains(mixed(key, n));
        }
    }
    // An apostrophe, ASCII or U+2019 (whose UTF-8 starts with 0xE2), found byte by byte.
    let apostrophe = word.bytes().position(|b| b == b'\'' || b == 0xE2).and_then(|at| {
        let rest = &word[at..];
        (rest.starts_with('\'') || rest.starts_with('’')).then_some(at).or_else(|| word.find('’'))
    });
    let head = match apostrophe {
        Some(at) => {
            let head = &word[..at];
            if !head.is_empty() && head.chars().count() <= 4 && head.chars().all(char::is_lowercase) {
                // l', d', qu', dell', all', un'
                return true;
            }
            head
        }
        None => word,
    };
    if head.is_empty() || head.len() > table.longest {
        return false;
    }
    if head.is_ascii() {
        if head.len() <= 8 {
            return table.short_ascii.contains(packed(head.as_bytes()));
        }
        // Lower case on the stack.
        let mut buf = [0u8; 32];
        let lower = &mut buf[..head.len()];
        lower.copy_from_slice(head.as_bytes());
        lower.make_ascii_lowercase();
        return table.hashed.contains(&hash_bytes(lower));
    }
    if !head.chars().any(char::is_uppercase) {
        return table.hashed.contains(&hash_bytes(head.as_bytes()));
    }
    // `str::to_lowercase`, not char by char: a word-final Σ lower-cases to ς (`ΤΗΣ` → `της`).
    table.hashed.contains(&hash_bytes(head.to_lowercase().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_word_fits_the_stack_buffer() {
        assert!(table().longest <= 32, "{}", table().longest);
    }

    /// The naive reading of the rule: an elided head of one to four lower-case letters, or the
    /// word (before an apostrophe) lower-cased and found in the list.
    fn naive(word: &str) -> bool {
        let list: std::collections::HashSet<String> = WORDS.split_whitespace().map(str::to_string).collect();
        let head = word.split_once(['\'', '’']).map_or(word, |(head, _)| head);
        let elided = head.len() < word.len();
        if elided && (1..=4).contains(&head.chars().count()) && head.chars().all(char::is_lowercase) {
            return true;
        }
        !head.is_empty() && list.contains(&head.to_lowercase())
    }

    #[test]
    fn the_fast_lookup_says_what_the_naive_one_says() {
        let mut words: Vec<String> = Vec::new();
        for w in WORDS.split_whitespace() {
            let upper: String = w.chars().flat_map(char::to_uppercase).collect();
            let mut first = w.chars();
            let capital: String = first.next().into_iter().flat_map(char::to_uppercase).chain(first).collect();
            words.extend([w.to_string(), upper, capital, format!("{w}s"), format!("x{w}"), format!("{w}'s")]);
        }
        for w in ["", "'", "’", "a’b", "Don’t", "DON'T", "twentyfive", "abcdefgh", "abcdefghi", "naïve", "Ölfeld"]
        {
            words.push(w.to_string());
        }
        for w in &words {
            assert_eq!(is_function_word(w), naive(w), "{w:?}");
        }
    }

    #[test]
    fn function_words_of_many_languages() {
        for w in [
            "the",
            "The",
            "and",
            "der",
            "les",
            "l'homme",
            "dell'anno",
            "don't",
            "и",
            "В",
            "και",
            "في",
            "של",
            "के",
            "yang",
            "và",
        ] {
            assert!(is_function_word(w), "{w}");
        }
        for w in ["twenty", "molecule", "kernel", "сервер", "Paris", "dividequotientred"] {
            assert!(!is_function_word(w), "{w}");
        }
    }
}
