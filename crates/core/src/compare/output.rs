//! One prompt's output as a comparison sees it: its text, its tokens with their logprobs when
//! the server gave them, and what the server said about the run (model, prompt tokens, finish
//! reason, settings). Read from a golden file, a capture or a soak's captures file; written
//! to a golden file.

use crate::stream::TokenLogprob;

/// One generation, from whichever file it was read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    /// What pairs it with the other side's output of the same prompt: a golden line's `id`,
    /// "prompt 3" (with " #2" for its second generation) in a soak's captures, a capture's
    /// file name.
    pub id: String,
    /// The prompt's text, when the file holds it.
    pub prompt: Option<String>,
    /// The reply's text (its content; reasoning is not compared).
    pub text: String,
    /// Its tokens in order, when the server sent logprobs (empty otherwise).
    pub tokens: Vec<TokenLogprob>,
    /// `usage.prompt_tokens` as the server reported it: the context the reply started from.
    pub prompt_tokens: Option<u64>,
    pub finish_reason: Option<String>,
    /// The endpoint (base URL) and the model as the server reported them, when known.
    pub server: Option<String>,
    pub model: Option<String>,
    /// The request's settings that were recorded (seed, temperature, max_tokens, top_logprobs),
    /// as a JSON object; `null` when none were.
    pub settings: serde_json::Value,
}

impl Output {
    /// The bytes compared: the tokens' bytes joined when there are tokens, else the text's.
    pub fn compared_bytes(&self) -> Vec<u8> {
        if self.tokens.is_empty() {
            self.text.as_bytes().to_vec()
        } else {
            self.tokens.iter().flat_map(|t| t.token_bytes().iter().copied()).collect()
        }
    }

    /// Whether any token carries a logprob.
    pub fn has_logprobs(&self) -> bool {
        self.tokens.iter().any(|t| t.logprob.is_some())
    }
}
