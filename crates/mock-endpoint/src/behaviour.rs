//! The ways the mock model can behave, each listed by `/v1/models` as a model id, so the page
//! can pick one from its dropdown; `--behaviour` sets the one used for other model names.

/// One way of answering a chat completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Thousands of words of varied technical prose: PASSes.
    Coherent,
    /// A coherent lead-in, then one word repeated to the token budget.
    WordLoop,
    /// One line repeated to the token budget.
    LineLoop,
    /// Coherent for the first half of the budget, then a line loop.
    LateLoop,
    /// Coherent reasoning, then a coherent answer.
    Reasoning,
    /// Reasoning that loops, then a short clean answer.
    ReasoningLoop,
    /// Coherent text, 200 ms between chunks.
    Slow,
    /// Some coherent text, then `data: {"error":…}` and `[DONE]`.
    MidStreamError,
    /// Some coherent text, then the connection closes: no finish_reason, no `[DONE]`.
    Dropped,
    /// 401 for every request.
    Unauthorized,
    /// Answers without CORS headers (the preflight still passes), so a browser fetch fails.
    NoCors,
}

impl Behaviour {
    pub const ALL: [Behaviour; 11] = [
        Behaviour::Coherent,
        Behaviour::WordLoop,
        Behaviour::LineLoop,
        Behaviour::LateLoop,
        Behaviour::Reasoning,
        Behaviour::ReasoningLoop,
        Behaviour::Slow,
        Behaviour::MidStreamError,
        Behaviour::Dropped,
        Behaviour::Unauthorized,
        Behaviour::NoCors,
    ];

    /// The name used by `--behaviour`; the model id is `mock-` + this.
    pub fn name(self) -> &'static str {
        match self {
            Behaviour::Coherent => "coherent",
            Behaviour::WordLoop => "word-loop",
            Behaviour::LineLoop => "line-loop",
            Behaviour::LateLoop => "late-loop",
            Behaviour::Reasoning => "reasoning",
            Behaviour::ReasoningLoop => "reasoning-loop",
            Behaviour::Slow => "slow",
            Behaviour::MidStreamError => "error",
            Behaviour::Dropped => "dropped",
            Behaviour::Unauthorized => "unauthorized",
            Behaviour::NoCors => "no-cors",
        }
    }

    pub fn model_id(self) -> String {
        format!("mock-{}", self.name())
    }

    pub fn from_name(name: &str) -> Option<Behaviour> {
        let name = name.strip_prefix("mock-").unwrap_or(name);
        Behaviour::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The behaviour a requested model id asks for: `mock-NAME`, `NAME`, or a file path
    /// whose file stem is one of those (as listed with `--path-ids`).
    pub fn from_model(model: &str) -> Option<Behaviour> {
        let file = model.rsplit('/').next().unwrap_or(model);
        let stem = file.split('.').next().unwrap_or(file);
        Behaviour::from_name(model).or_else(|| Behaviour::from_name(stem))
    }

    /// Milliseconds between chunks this behaviour insists on, at least.
    pub fn min_delay_ms(self) -> u64 {
        if self == Behaviour::Slow {
            200
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in Behaviour::ALL {
            assert_eq!(Behaviour::from_name(b.name()), Some(b));
            assert_eq!(Behaviour::from_model(&b.model_id()), Some(b));
            assert_eq!(Behaviour::from_model(&format!("/models/{}.gguf", b.model_id())), Some(b));
        }
        assert_eq!(Behaviour::from_model("gpt-4o"), None);
    }
}
