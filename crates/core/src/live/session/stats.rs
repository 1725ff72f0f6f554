//! What the page shows beside a live run's text ([`LiveStats`]: timings, speed, counts, the
//! stream's own words and what could not be read), and the token estimate and speed behind it.

use serde::{Deserialize, Serialize};

use crate::stream::StreamInfo;

/// What the page shows beside the text: timings, speed, counts and how the stream ended.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveStats {
    /// Milliseconds from the request to the response headers, the first body byte and the
    /// first token of text.
    pub to_headers_ms: Option<f64>,
    pub to_first_byte_ms: Option<f64>,
    pub to_first_token_ms: Option<f64>,
    /// Milliseconds from the first token to the last one.
    pub generation_ms: Option<f64>,
    /// Body bytes received.
    pub bytes: usize,
    /// Completion tokens: from the server's usage when sent, else estimated.
    pub tokens: u64,
    pub tokens_estimated: bool,
    /// Tokens per second over the generation (first token to last), when measurable.
    pub tokens_per_s: Option<f64>,
    /// What the stream has said about itself so far (chunks, keep-alives, `[DONE]`, usage,
    /// model, its own errors), with the finish reason as soon as a reply gives one.
    pub stream: StreamInfo,
    /// What the pump could not read, in words: the first [`MAX_LISTED`](crate::stream::MAX_LISTED).
    pub problems: Vec<String>,
    /// Problems beyond those, only counted.
    pub problems_not_listed: usize,
}

impl LiveStats {
    /// Everything to list as gone wrong: the errors the stream reported, then what could not
    /// be read (each list capped at [`MAX_LISTED`](crate::stream::MAX_LISTED); [`Self::not_listed`] counts the rest).
    pub fn errors(&self) -> impl Iterator<Item = &str> {
        self.stream.errors.iter().chain(&self.problems).map(String::as_str)
    }

    /// Errors and problems left out of [`Self::errors`].
    pub fn not_listed(&self) -> usize {
        self.stream.errors_not_listed + self.problems_not_listed
    }
}

/// Bytes a token, the usual rule of thumb for English prose: what [`estimate_tokens`] counts by.
pub const BYTES_PER_TOKEN: usize = 4;

/// A rough token count for `text` when the server sends no usage: one token per
/// [`BYTES_PER_TOKEN`] bytes, rounded up (the page labels it an estimate).
pub fn estimate_tokens(text: &str) -> u64 {
    text.len().div_ceil(BYTES_PER_TOKEN) as u64
}

/// Tokens per second over `ms` of generation; `None` when too short to mean anything.
pub fn tokens_per_second(tokens: u64, ms: f64) -> Option<f64> {
    (tokens > 1 && ms >= 1.0).then(|| tokens as f64 * 1000.0 / ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_needs_time_and_tokens() {
        assert_eq!(tokens_per_second(1, 100.0), None);
        assert_eq!(tokens_per_second(10, 0.0), None);
        assert_eq!(estimate_tokens(""), 0);
    }
}
