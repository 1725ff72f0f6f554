//! A reply's tokens with their log-probabilities, as OpenAI and vLLM send them:
//! `choices[].logprobs.content[]` = `{"token", "logprob", "bytes", "top_logprobs": [{"token",
//! "logprob", "bytes"}]}`, in each streamed chunk (the tokens of that chunk) or once in a
//! non-streamed completion (all of them). llama.cpp's server sends the same shape, with
//! `bytes: null`.
//!
//! [`LogprobAssembler`] is the chat assembler with the tokens kept beside it: every event goes to
//! a [`ChatAssembler`] as usual (so the text, usage and finish reason are read exactly as
//! everywhere else), and its `logprobs` are read from the same payload and appended per choice.
//! The assembler itself is unchanged; a stream without logprobs gives no tokens.

use super::assembler::Assembler;
use super::openai_chat::ChatAssembler;
use super::reply::{Reply, StreamInfo};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// One token the server chose, its log-probability and the most likely alternatives.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TokenLogprob {
    pub token: String,
    /// The token's bytes when the server sent them (a token can be part of a UTF-8 character,
    /// which `token` then shows with U+FFFD).
    pub bytes: Option<Vec<u8>>,
    /// Natural log of its probability; `None` when the server sent none (or `null`).
    pub logprob: Option<f64>,
    /// The top alternatives (token, log-probability), most likely first, as sent.
    pub top: Vec<(String, f64)>,
}

impl TokenLogprob {
    /// The token's bytes: those sent, else its text's.
    pub fn token_bytes(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or(self.token.as_bytes())
    }
}

/// `choices[]` of a chunk or a completion, only as far as logprobs go.
#[derive(Debug, Default, Deserialize)]
pub struct LogprobChunk {
    #[serde(default)]
    pub choices: Option<Vec<LogprobChoice>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct LogprobChoice {
    #[serde(default)]
    pub index: Option<u64>,
    #[serde(default)]
    pub logprobs: Option<LogprobsIn>,
}

/// `logprobs`: `{"content": [...]}` (chat). Anything else there is ignored.
#[derive(Debug, Default, Deserialize)]
pub struct LogprobsIn {
    #[serde(default)]
    pub content: Option<Vec<TokenIn>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct TokenIn {
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub logprob: Option<f64>,
    #[serde(default)]
    pub bytes: Option<Vec<u8>>,
    #[serde(default)]
    pub top_logprobs: Option<Vec<TopIn>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct TopIn {
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub logprob: Option<f64>,
}

impl From<TokenIn> for TokenLogprob {
    fn from(t: TokenIn) -> Self {
        let token = t.token.unwrap_or_default();
        // `bytes` that only repeat the text add nothing: kept only when they differ.
        let bytes = t.bytes.filter(|b| b.as_slice() != token.as_bytes());
        let top = t
            .top_logprobs
            .into_iter()
            .flatten()
            .filter_map(|a| Some((a.token.unwrap_or_default(), a.logprob.filter(|l| l.is_finite())?)))
            .collect();
        TokenLogprob { token, bytes, logprob: t.logprob.filter(|l| l.is_finite()), top }
    }
}

impl LogprobChunk {
    /// Each choice's tokens in this chunk: `(choice index, tokens)`.
    pub fn tokens(self) -> ChoiceTokens {
        let mut out = Vec::new();
        for (n, c) in self.choices.into_iter().flatten().enumerate() {
            let tokens: Vec<TokenLogprob> =
                c.logprobs.and_then(|l| l.content).into_iter().flatten().map(TokenLogprob::from).collect();
            if !tokens.is_empty() {
                out.push((c.index.unwrap_or(n as u64), tokens));
            }
        }
        out
    }
}

/// Each choice's tokens: `(choice index, its tokens)`, in order of first appearance.
pub type ChoiceTokens = Vec<(u64, Vec<TokenLogprob>)>;

/// A [`ChatAssembler`] that also keeps each choice's tokens and logprobs. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct LogprobAssembler {
    chat: ChatAssembler,
    /// `(choice index, its tokens so far)`, in order of first appearance.
    tokens: ChoiceTokens,
}

impl LogprobAssembler {
    pub fn new() -> Self {
        Self::default()
    }

    /// The tokens of choice `index` so far (empty when the server sent no logprobs).
    pub fn tokens_of(&self, index: u64) -> &[TokenLogprob] {
        self.tokens.iter().find(|(i, _)| *i == index).map_or(&[], |(_, t)| t.as_slice())
    }

    /// Appends the tokens of one parsed chunk (or a whole completion).
    pub fn push_tokens(&mut self, chunk: LogprobChunk) {
        for (index, tokens) in chunk.tokens() {
            match self.tokens.iter_mut().find(|(i, _)| *i == index) {
                Some((_, kept)) => kept.extend(tokens),
                None => self.tokens.push((index, tokens)),
            }
        }
    }

    /// Ends the stream: the replies, the stream info, and each choice's tokens.
    pub fn finish_with_tokens(self) -> (Vec<Reply>, StreamInfo, ChoiceTokens) {
        let (turns, info) = self.chat.finish();
        (turns, info, self.tokens)
    }
}

impl Assembler for LogprobAssembler {
    fn push_event(&mut self, event: Option<&str>, data: &str, source: Range<usize>) -> Result<(), String> {
        let result = self.chat.push_event(event, data, source);
        let trimmed = data.trim();
        if result.is_ok() && trimmed.starts_with('{') && trimmed.contains("\"logprobs\"") {
            if let Ok(chunk) = serde_json::from_slice::<LogprobChunk>(trimmed.as_bytes()) {
                self.push_tokens(chunk);
            }
        }
        result
    }

    fn comment(&mut self) {
        self.chat.comment();
    }

    fn turns(&self) -> &[Reply] {
        self.chat.turns()
    }

    fn info(&self) -> &StreamInfo {
        self.chat.info()
    }

    fn finish(self) -> (Vec<Reply>, StreamInfo) {
        self.chat.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::SsePump;

    #[test]
    fn streamed_logprobs_are_kept_per_choice_beside_the_text() {
        let body = concat!(
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"},\"logprobs\":null}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" been\"},\"logprobs\":{\"content\":[{\"token\":\" been\",\"bytes\":null,\"logprob\":-2.06,\"top_logprobs\":[{\"token\":\" been\",\"logprob\":-2.06},{\"token\":\"noun\",\"logprob\":-2.6}]}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"é\"},\"logprobs\":{\"content\":[{\"token\":\"é\",\"bytes\":[195,169],\"logprob\":null,\"top_logprobs\":[]}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n",
        );
        let mut pump = SsePump::new(LogprobAssembler::new());
        assert!(pump.feed(body.as_bytes()).is_empty());
        assert_eq!(pump.assembler().tokens_of(0).len(), 2);
        let (problems, _, _) = pump.finish();
        assert!(problems.is_empty());
        let mut pump = SsePump::new(LogprobAssembler::new());
        pump.feed(body.as_bytes());
        pump.end_input();
        let a = pump.assembler().clone();
        let (turns, info, tokens) = a.finish_with_tokens();
        assert_eq!(turns[0].content, " beené");
        assert_eq!(info.finish_reason.as_deref(), Some("length"));
        let t = &tokens[0].1;
        assert_eq!(t[0].top, vec![(" been".to_string(), -2.06), ("noun".to_string(), -2.6)]);
        assert_eq!(
            (t[0].logprob, t[1].logprob, t[1].bytes.as_ref()),
            (Some(-2.06), None, None),
            "bytes equal to the text are dropped"
        );
    }
}
