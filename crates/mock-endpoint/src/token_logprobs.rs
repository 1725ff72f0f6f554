//! The mock model's tokens and their log-probabilities, for requests that ask for `logprobs`
//! (and `top_logprobs`): a reply's text cut into word tokens (" word", whitespace first, as BPE
//! vocabularies cut it), each with a logprob and alternatives drawn from a seeded generator, so
//! the same prompt gets the same figures. The "drifting kernel" ([`drifted`]) is the reference
//! with every logprob moved by an amount that grows with the absolute position (prompt tokens +
//! output token), and from a position that comes earlier as the context grows, a different token.

use coherency_core::splitmix::{Rng, GOLDEN};
use serde_json::{json, Value};

/// One token sent with its logprob and alternatives (most likely first, the token among them).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub text: String,
    pub logprob: f64,
    pub top: Vec<(String, f64)>,
}

/// The most alternatives a request gets (OpenAI's limit).
pub const MAX_TOP: usize = 20;

/// Words the alternatives are drawn from.
const ALTERNATIVES: [&str; 24] = [
    " the",
    " a",
    " kernel",
    " page",
    " lock",
    " cache",
    " queue",
    " thread",
    " and",
    " of",
    " which",
    " then",
    " buffer",
    " memory",
    " write",
    " read",
    " scheduler",
    " it",
    " that",
    " this",
    " each",
    " when",
    " request",
    " value",
];

/// `text` cut into tokens: each starts where whitespace follows a non-space character, so a
/// token is leading whitespace and a word. The tokens join back to `text`.
pub fn split(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut prev_space) = (0, true);
    for (i, c) in text.char_indices() {
        let space = c.is_whitespace();
        if space && !prev_space && i > start {
            out.push(&text[start..i]);
            start = i;
        }
        prev_space = space;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// A generator for token `k` of a reply from `seed`.
fn rng_at(seed: u64, k: usize) -> Rng {
    Rng::new(seed ^ (k as u64).wrapping_mul(GOLDEN))
}

fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Token `k` = `text` of the reference model from `seed`: its logprob and `top` alternatives.
pub fn reference_token(seed: u64, k: usize, text: &str, top: usize) -> Token {
    let mut rng = rng_at(seed, k);
    let logprob = -(0.02 + 1.5 * unit(&mut rng));
    let mut alternatives = vec![(text.to_string(), logprob)];
    let mut lp = logprob;
    while alternatives.len() < top.min(MAX_TOP) {
        let word = ALTERNATIVES[rng.below(ALTERNATIVES.len())];
        lp -= 0.05 + 1.5 * unit(&mut rng);
        if alternatives.iter().all(|(w, _)| w != word) {
            alternatives.push((word.to_string(), lp));
        }
    }
    alternatives.truncate(top.min(MAX_TOP));
    Token { text: text.to_string(), logprob, top: alternatives }
}

/// The reference model's tokens of `text`, from `seed`.
pub fn reference(seed: u64, text: &str, top: usize) -> Vec<Token> {
    split(text).iter().enumerate().map(|(k, t)| reference_token(seed, k, t, top)).collect()
}

/// Where the drifting kernel parts from the reference, for a prompt of `context` tokens:
/// later for short prompts, earlier as the context grows (12,000 ÷ (40 + context), at least 4).
pub fn parting_position(context: usize) -> usize {
    (12_000 / (40 + context)).max(4)
}

/// How far the drifting kernel moves the logprob at absolute position `position`.
pub fn drift_at(position: usize) -> f64 {
    5e-5 * position as f64
}

/// The drifting kernel's reply: `reference_text`'s tokens until [`parting_position`], every
/// logprob moved by [`drift_at`]; at the parting token the reference's second choice, then
/// `rest` (another text). Returns the text and its tokens.
pub fn drifted(seed: u64, reference_text: &str, rest: &str, context: usize, top: usize) -> (String, Vec<Token>) {
    let words = split(reference_text);
    let at = parting_position(context);
    let mut tokens: Vec<Token> = Vec::new();
    for (k, w) in words.iter().enumerate().take(at) {
        tokens.push(shifted(reference_token(seed, k, w, top.max(2)), drift_at(context + k), top));
    }
    if at < words.len() {
        // The reference's runner-up wins by a little: what a numerical fault does to a near-tie.
        let r = reference_token(seed, at, words[at], top.max(2));
        let (runner_up, lp) = r.top[1].clone();
        let win = r.logprob - drift_at(context + at);
        let mut t = Token { text: runner_up.clone(), logprob: win, top: vec![(runner_up, win), (r.text.clone(), lp)] };
        t.top.truncate(top);
        tokens.push(t);
        let rest_seed = seed ^ 0xd41f_7000;
        let rest = if rest.starts_with(char::is_whitespace) { rest.to_string() } else { format!(" {rest}") };
        for (k, w) in split(&rest).iter().enumerate().take(words.len() - at - 1) {
            tokens.push(shifted(reference_token(rest_seed, k, w, top), drift_at(context + at + 1 + k), top));
        }
    }
    (tokens.iter().map(|t| t.text.as_str()).collect(), tokens)
}

/// `t` with every logprob lowered by `by`, its list cut to `top`.
fn shifted(mut t: Token, by: f64, top: usize) -> Token {
    t.logprob -= by;
    for (_, lp) in &mut t.top {
        *lp -= by;
    }
    t.top.truncate(top);
    t
}

/// A token as OpenAI and vLLM send it in `logprobs.content[]`.
pub fn wire(t: &Token) -> Value {
    json!({
        "token": t.text,
        "logprob": t.logprob,
        "bytes": t.text.as_bytes(),
        "top_logprobs": t.top.iter().map(|(w, lp)| json!({"token": w, "logprob": lp, "bytes": w.as_bytes()})).collect::<Vec<_>>(),
    })
}

/// `logprobs` of a choice holding `tokens`.
pub fn wire_logprobs(tokens: &[Token]) -> Value {
    json!({"content": tokens.iter().map(wire).collect::<Vec<_>>(), "refusal": null})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_join_back_and_start_with_their_whitespace() {
        let text = "Alpha beta\n\ngamma  delta. ";
        let t = split(text);
        assert_eq!(t, ["Alpha", " beta", "\n\ngamma", "  delta.", " "]);
        assert_eq!(t.concat(), text);
        assert!(split("").is_empty());
    }

    #[test]
    fn the_reference_is_the_same_every_time_and_its_token_leads_its_list() {
        let a = reference(7, "one two three four", 5);
        assert_eq!(a, reference(7, "one two three four", 5));
        for t in &a {
            assert_eq!(t.top.len(), 5);
            assert_eq!(t.top[0], (t.text.clone(), t.logprob));
            assert!(t.top.windows(2).all(|w| w[0].1 > w[1].1));
        }
        assert!(reference(7, "one", 0)[0].top.is_empty());
    }

    #[test]
    fn the_drifting_kernel_parts_where_its_context_says() {
        let reference_text: String = (0..300).map(|k| format!(" w{k}")).collect();
        let rest: String = (0..300).map(|k| format!(" r{k}")).collect();
        for context in [10, 100, 1000] {
            let (text, tokens) = drifted(3, &reference_text, &rest, context, 3);
            let at = parting_position(context);
            let same = split(&reference_text).iter().zip(split(&text)).take_while(|(a, b)| **a == *b).count();
            assert_eq!(same, at, "context {context}");
            assert_eq!(tokens.len(), 300);
            let r = reference_token(3, 5, split(&reference_text)[5], 3);
            assert!((r.logprob - tokens[5].logprob - drift_at(context + 5)).abs() < 1e-12);
        }
        assert!(parting_position(10) > parting_position(1000));
    }
}
