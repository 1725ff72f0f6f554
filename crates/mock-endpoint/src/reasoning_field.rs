//! Where the mock puts a reply's reasoning, as the servers in FORMATS.md do: a
//! `reasoning_content` field (DeepSeek, SGLang, llama.cpp), `reasoning` (vLLM, Ollama's `/v1`),
//! `reasoning_details` (OpenRouter), or inline in the content as `<think>…</think>` (a server
//! that does not parse the template's reasoning out).

/// One way to send reasoning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasoningField {
    ReasoningContent,
    Reasoning,
    ReasoningDetails,
    /// `<think>…</think>` at the start of the content.
    InlineThink,
}

impl ReasoningField {
    pub const ALL: [ReasoningField; 4] = [
        ReasoningField::ReasoningContent,
        ReasoningField::Reasoning,
        ReasoningField::ReasoningDetails,
        ReasoningField::InlineThink,
    ];

    /// The name used by `--reasoning-field` and in `mock-reasoning-in-NAME`: the field's own
    /// name, or `think` for inline tags.
    pub fn name(self) -> &'static str {
        match self {
            ReasoningField::ReasoningContent => "reasoning_content",
            ReasoningField::Reasoning => "reasoning",
            ReasoningField::ReasoningDetails => "reasoning_details",
            ReasoningField::InlineThink => "think",
        }
    }

    pub fn from_name(name: &str) -> Option<ReasoningField> {
        ReasoningField::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The content with `reasoning` put in it when this places reasoning inline.
    pub fn content_with(self, reasoning: &str, content: &str) -> String {
        if self == ReasoningField::InlineThink && !reasoning.is_empty() {
            format!("{}{reasoning}{}{content}", THINK_OPEN, THINK_CLOSE)
        } else {
            content.to_string()
        }
    }
}

/// What opens and closes inline reasoning (as Qwen and DeepSeek-R1 templates write it).
pub const THINK_OPEN: &str = "<think>\n";
pub const THINK_CLOSE: &str = "\n</think>\n\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_inline_wraps_the_reasoning() {
        for f in ReasoningField::ALL {
            assert_eq!(ReasoningField::from_name(f.name()), Some(f));
        }
        assert_eq!(ReasoningField::InlineThink.content_with("hmm", "Hi"), "<think>\nhmm\n</think>\n\nHi");
        assert_eq!(ReasoningField::InlineThink.content_with("", "Hi"), "Hi");
        assert_eq!(ReasoningField::Reasoning.content_with("hmm", "Hi"), "Hi");
    }
}
