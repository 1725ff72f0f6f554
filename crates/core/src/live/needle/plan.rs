//! The needle probe's plan: for each context length and depth, a multi-turn conversation of
//! generated filler turns (user, assistant, …) with the needle planted in a user turn — "The
//! special magic number for amber-lantern is 4829104." — at the start, in the middle or at
//! the end, then a last user turn asking for it; and the requests that send it (greedy:
//! temperature 0, one seed), each twice when the cache check is on.
//!
//! Lengths are prompt tokens as estimated here: each message's text in bytes ÷ [`BYTES_PER_TOKEN`], rounded up,
//! summed (the rule of thumb [`estimate_tokens`] uses). A real tokenizer and the chat
//! template count otherwise (for English often within a third), so the grid's lengths are
//! approximate and only a reported count far from the estimate means anything.

use serde_json::{json, Value};

use super::filler;
use crate::live::request::{build_request, ChatRequest, RequestForm};
use crate::live::session::{estimate_tokens, BYTES_PER_TOKEN};
use crate::splitmix::Rng;

/// The context lengths offered, in estimated tokens: 1k … 32k.
pub const LENGTHS: [usize; 6] = [1024, 2048, 4096, 8192, 16384, 32768];
/// The seed of the probe's words and needles, sent as the requests' seed too.
pub const SEED: u64 = 1;
/// The lengths ticked by default.
pub const DEFAULT_LENGTHS: [usize; 4] = [1024, 2048, 4096, 8192];
/// The longest answer asked for: the needle and a few words (a reasoning model's thinking
/// needs more: the advanced JSON's `max_tokens` wins).
pub const ANSWER_TOKENS: &str = "200";

/// Where in the conversation the needle is planted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// In the first turn.
    Start,
    /// In the user turn nearest the middle of the filler.
    Middle,
    /// In the last filler user turn, after its question.
    End,
}

impl Depth {
    pub const ALL: [Depth; 3] = [Depth::Start, Depth::Middle, Depth::End];

    pub fn word(self) -> &'static str {
        match self {
            Depth::Start => "start",
            Depth::Middle => "middle",
            Depth::End => "end",
        }
    }
}

/// What the needle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NeedleKind {
    /// A random 7-digit number.
    Number,
    /// A random UUID.
    Uuid,
}

impl NeedleKind {
    /// "number" or "UUID", as the needle sentence and the question name it.
    pub fn word(self) -> &'static str {
        match self {
            NeedleKind::Number => "number",
            NeedleKind::Uuid => "UUID",
        }
    }
}

/// "1k" for 1,024 tokens, "32k" for 32,768; other counts in full.
pub fn length_label(tokens: usize) -> String {
    if tokens >= 1024 && tokens.is_multiple_of(1024) {
        format!("{}k", tokens / 1024)
    } else {
        crate::wording::thousands(tokens)
    }
}

/// One message of the conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// "user" or "assistant".
    pub role: &'static str,
    pub text: String,
}

/// One cell of the grid: a conversation of `length` estimated tokens with the needle at
/// `depth`, ending with the question.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub length: usize,
    pub depth: Depth,
    pub key: String,
    /// What a correct answer holds, exactly.
    pub needle: String,
    /// Every message, the question last.
    pub turns: Vec<Turn>,
    /// The prompt's tokens as estimated (see the module doc); at most `length`.
    pub estimated_tokens: usize,
    /// Estimated tokens before the needle's sentence, as a share of the whole.
    pub needle_at: f64,
}

/// One request to send: a cell's conversation, the first time or again (the same request, to
/// see whether a greedy answer comes back the same).
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// Which cell of [`Probe::cells`].
    pub cell: usize,
    pub repeat: bool,
    pub request: ChatRequest,
}

/// The whole probe: its cells (lengths × depths, in that order) and the asks, a cell's
/// repeat right after it (so a prefix cache holds it).
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub lengths: Vec<usize>,
    pub depths: Vec<Depth>,
    pub cells: Vec<Cell>,
    pub asks: Vec<Ask>,
    pub seed: u64,
}

/// The estimated prompt tokens of `turns` (see the module doc).
pub fn estimate_prompt_tokens(turns: &[Turn]) -> usize {
    turns.iter().map(|t| estimate_tokens(&t.text) as usize).sum()
}

/// The conversation of one cell, from `seed`: filler turns up to `length` estimated tokens
/// (within the length of a sentence or two of it, never over), the needle at `depth`, then
/// the question.
pub fn conversation(length: usize, depth: Depth, kind: NeedleKind, seed: u64) -> Cell {
    let mut rng = Rng::new(seed ^ (length as u64).wrapping_mul(0x2545_F491_4F6C_DD1D) ^ depth as u64);
    let key = filler::key(&mut rng);
    let needle = match kind {
        NeedleKind::Number => filler::number(&mut rng),
        NeedleKind::Uuid => filler::uuid(&mut rng),
    };
    let word = kind.word();
    let planted = format!("The special magic {word} for {key} is {needle}.");
    let question = format!(
        "What is the special magic {word} for {key} that I told you earlier in this conversation? Answer with the {word} only."
    );
    // Room for the filler: the question's turn, and the needle with the space before it.
    let budget = length.saturating_sub(estimate_tokens(&question) as usize + estimate_tokens(&planted) as usize + 1);
    let mut turns: Vec<Turn> = Vec::new();
    let mut used = 0;
    // Filler turns: a user turn (a sentence or two and a question), then an answer of two to
    // five sentences, until no sentence fits; the filler ends with an answer.
    'filling: loop {
        let mut user = format!("{} {}", filler::sentence(&mut rng), filler::question(&mut rng));
        if rng.below(2) == 0 {
            user = format!("{} {user}", filler::sentence(&mut rng));
        }
        let user_tokens = estimate_tokens(&user) as usize;
        // A user turn only when it leaves room for an answer of one sentence.
        if used + user_tokens + 24 > budget {
            break;
        }
        used += user_tokens;
        turns.push(Turn { role: "user", text: user });
        turns.push(Turn { role: "assistant", text: String::new() });
        for _ in 0..2 + rng.below(4) {
            if !grow_last(&mut turns, &mut used, budget, &mut rng) {
                break 'filling;
            }
        }
    }
    // Fill what room is left into the last answer.
    while grow_last(&mut turns, &mut used, budget, &mut rng) {}
    plant(&mut turns, depth, &planted);
    turns.push(Turn { role: "user", text: question });
    let estimated_tokens = estimate_prompt_tokens(&turns);
    let needle_at = needle_share(&turns, &planted, estimated_tokens);
    Cell { length, depth, key, needle, turns, estimated_tokens, needle_at }
}

/// Adds a sentence to the last turn if one fits the budget (a few tries: sentences differ in
/// length); false when none does, or there is no turn.
fn grow_last(turns: &mut [Turn], used: &mut usize, budget: usize, rng: &mut Rng) -> bool {
    let Some(last) = turns.last_mut() else { return false };
    let before = estimate_tokens(&last.text) as usize;
    for _ in 0..4 {
        let s = filler::sentence(rng);
        let grown = if last.text.is_empty() { s } else { format!("{} {s}", last.text) };
        let after = estimate_tokens(&grown) as usize;
        if *used - before + after <= budget {
            *used = *used - before + after;
            last.text = grown;
            return true;
        }
    }
    false
}

/// Puts the needle's sentence into the user turn `depth` names: the first one's start, the
/// start of the one whose start is nearest the middle, the last one's end. With no filler
/// (a length too small for any) it is a turn of its own.
fn plant(turns: &mut Vec<Turn>, depth: Depth, planted: &str) {
    let users: Vec<usize> = (0..turns.len()).filter(|&i| turns[i].role == "user").collect();
    let Some(&first) = users.first() else {
        turns.push(Turn { role: "user", text: planted.to_string() });
        turns.push(Turn { role: "assistant", text: "Noted.".to_string() });
        return;
    };
    let at = match depth {
        Depth::Start => first,
        Depth::End => users[users.len() - 1],
        Depth::Middle => {
            let total = estimate_prompt_tokens(turns) as f64;
            let starts = |i: usize| estimate_prompt_tokens(&turns[..i]) as f64;
            let distance = |i: usize| (starts(i) - total / 2.0).abs();
            users.iter().copied().fold(first, |best, i| if distance(i) < distance(best) { i } else { best })
        }
    };
    let text = &mut turns[at].text;
    *text = if depth == Depth::End { format!("{text} {planted}") } else { format!("{planted} {text}") };
}

/// Estimated tokens before `planted` as a share of `total`.
fn needle_share(turns: &[Turn], planted: &str, total: usize) -> f64 {
    let mut before = 0;
    for t in turns {
        if let Some(at) = t.text.find(planted) {
            before += at / BYTES_PER_TOKEN;
            break;
        }
        before += estimate_tokens(&t.text) as usize;
    }
    before as f64 / total.max(1) as f64
}

/// The probe for `lengths` (shortest first) × `depths` against the endpoint of `form` (its base URL, model
/// and advanced JSON; its prompt, temperature and `max_tokens` are the probe's own: greedy,
/// [`ANSWER_TOKENS`], the advanced JSON merged over them), each request sent `twice` when
/// asked, or what is wrong with the choice or the form.
pub fn plan(
    form: &RequestForm,
    lengths: &[usize],
    depths: &[Depth],
    kind: NeedleKind,
    seed: u64,
    twice: bool,
) -> Result<Probe, String> {
    if lengths.is_empty() || depths.is_empty() {
        return Err("Choose at least one context length and one depth.".to_string());
    }
    let greedy = RequestForm {
        prompt: String::new(),
        max_tokens: ANSWER_TOKENS.to_string(),
        temperature: "0".to_string(),
        ..form.clone()
    };
    let ChatRequest { url, body } = build_request(&greedy)?;
    let template: Value = serde_json::from_slice(body.as_bytes()).map_err(|e| e.to_string())?;
    let mut sorted = lengths.to_vec();
    sorted.sort_by_key(|l| *l);
    sorted.dedup();
    let mut cells = Vec::new();
    let mut asks = Vec::new();
    for &length in &sorted {
        for &depth in depths {
            let cell = conversation(length, depth, kind, seed);
            let mut body = template.clone();
            if let Value::Object(o) = &mut body {
                let messages: Vec<Value> =
                    cell.turns.iter().map(|t| json!({"role": t.role, "content": t.text})).collect();
                o.insert("messages".to_string(), Value::Array(messages));
                o.entry("seed").or_insert_with(|| seed.into());
            }
            let request = ChatRequest { url: url.clone(), body: body.to_string() };
            let index = cells.len();
            if twice {
                asks.push(Ask { cell: index, repeat: false, request: request.clone() });
                asks.push(Ask { cell: index, repeat: true, request });
            } else {
                asks.push(Ask { cell: index, repeat: false, request });
            }
            cells.push(cell);
        }
    }
    Ok(Probe { lengths: sorted, depths: depths.to_vec(), cells, asks, seed })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> RequestForm {
        RequestForm {
            base_url: "http://127.0.0.1:30000/v1".into(),
            model: "mock-context-2048".into(),
            prompt: "ignored".into(),
            max_tokens: "8000".into(),
            temperature: "0.7".into(),
            extra_json: String::new(),
        }
    }

    #[test]
    fn a_conversation_is_deterministic_by_seed_and_differs_between_seeds() {
        let a = conversation(4096, Depth::Middle, NeedleKind::Number, 5);
        assert_eq!(a, conversation(4096, Depth::Middle, NeedleKind::Number, 5));
        let b = conversation(4096, Depth::Middle, NeedleKind::Number, 6);
        assert_ne!((a.needle, a.turns[0].text.clone()), (b.needle, b.turns[0].text.clone()));
    }

    #[test]
    fn the_length_is_within_tolerance_and_never_over() {
        for seed in 0..20 {
            for length in LENGTHS {
                for depth in Depth::ALL {
                    let c = conversation(
                        length,
                        depth,
                        if seed % 2 == 0 { NeedleKind::Number } else { NeedleKind::Uuid },
                        seed,
                    );
                    assert_eq!(c.estimated_tokens, estimate_prompt_tokens(&c.turns));
                    assert!(c.estimated_tokens <= length, "{length}: {}", c.estimated_tokens);
                    assert!(
                        c.estimated_tokens + 24 >= length,
                        "{length} {depth:?} seed {seed}: {}",
                        c.estimated_tokens
                    );
                }
            }
        }
    }

    #[test]
    fn the_needle_is_planted_once_at_its_depth_and_asked_for_last() {
        for length in LENGTHS {
            for (depth, low, high) in [(Depth::Start, 0.0, 0.02), (Depth::Middle, 0.42, 0.58), (Depth::End, 0.85, 1.0)]
            {
                let c = conversation(length, depth, NeedleKind::Number, 11);
                assert!((low..=high).contains(&c.needle_at), "{length} {depth:?}: {}", c.needle_at);
                let planted = format!("The special magic number for {} is {}.", c.key, c.needle);
                let holders: Vec<&Turn> = c.turns.iter().filter(|t| t.text.contains(&c.needle)).collect();
                assert_eq!(holders.len(), 1, "the needle is said once");
                assert!(holders[0].role == "user" && holders[0].text.contains(&planted));
                let last = c.turns.last().unwrap();
                assert_eq!(last.role, "user");
                assert!(last.text.starts_with(&format!("What is the special magic number for {}", c.key)));
                assert!(!last.text.contains(&c.needle));
                let roles: Vec<&str> = c.turns.iter().map(|t| t.role).collect();
                assert!(roles.windows(2).all(|w| w[0] != w[1]), "the turns alternate: {roles:?}");
            }
        }
        let tiny = conversation(40, Depth::Middle, NeedleKind::Uuid, 1);
        assert!(tiny.turns.iter().any(|t| t.text.contains(&tiny.needle)), "a length too small still plants it");
    }

    #[test]
    fn a_plan_asks_greedily_twice_per_cell_with_the_forms_endpoint() {
        let mut f = form();
        f.extra_json = r#"{"top_k": 1}"#.into();
        let p = plan(&f, &[1024, 2048], &[Depth::Start, Depth::End], NeedleKind::Number, 9, true).unwrap();
        assert_eq!(p.cells.len(), 4);
        let shape: Vec<(usize, bool)> = p.asks.iter().map(|a| (a.cell, a.repeat)).collect();
        assert_eq!(shape, [(0, false), (0, true), (1, false), (1, true), (2, false), (2, true), (3, false), (3, true)]);
        assert_eq!(p.asks[0].request, p.asks[1].request, "the repeat is the same request");
        assert_eq!((p.cells[2].length, p.cells[2].depth), (2048, Depth::Start));
        let body: Value = serde_json::from_slice(p.asks[2].request.body.as_bytes()).unwrap();
        assert_eq!(
            (body["temperature"].as_f64(), body["seed"].as_u64(), body["top_k"].as_u64()),
            (Some(0.0), Some(9), Some(1))
        );
        assert_eq!(body["max_tokens"].as_u64(), Some(200));
        assert_eq!(body["stream"], true);
        assert_eq!(body["messages"].as_array().map(Vec::len), Some(p.cells[1].turns.len()));
        assert_eq!(p.asks[0].request.url, "http://127.0.0.1:30000/v1/chat/completions");
        let once = plan(&form(), &[1024], &[Depth::Middle], NeedleKind::Uuid, 9, false).unwrap();
        assert_eq!(once.asks.len(), 1);
        assert!(plan(&form(), &[], &[Depth::End], NeedleKind::Number, 1, true).unwrap_err().contains("at least one"));
        let broken = RequestForm { model: String::new(), ..form() };
        assert!(plan(&broken, &[1024], &[Depth::End], NeedleKind::Number, 1, true).unwrap_err().contains("model"));
        let seeded = RequestForm { extra_json: r#"{"seed": 3}"#.into(), ..form() };
        let body =
            plan(&seeded, &[1024], &[Depth::End], NeedleKind::Number, 1, false).unwrap().asks[0].request.body.clone();
        assert!(body.contains("\"seed\":3"), "the advanced JSON's seed wins");
    }

    #[test]
    fn lengths_have_short_labels() {
        assert_eq!(LENGTHS.map(length_label), ["1k", "2k", "4k", "8k", "16k", "32k"]);
        assert_eq!(length_label(1500), "1,500");
    }
}
