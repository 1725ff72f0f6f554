//! The ways the mock model can behave, each listed by `/v1/models` as a model id, so the page
//! can pick one from its dropdown; `--behaviour` sets the one used for other model names.

use crate::reasoning_field::ReasoningField;

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
    /// As `Reasoning`, the reasoning always in this field (or inline), whatever
    /// `--reasoning-field` says: `mock-reasoning-in-reasoning_details`, `mock-reasoning-in-think`…
    ReasoningIn(ReasoningField),
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
    /// HTTP 500 whose error body is 5 MiB: more than a client should read whole.
    HugeError,
    /// Loops (as `LateLoop`) on the given percentage of seeds, else `Coherent`: over any 20
    /// consecutive seeds exactly percent ÷ 5 of them loop (a soak run's expected loop rate).
    /// `mock-loops-25` is 25 %.
    SometimesLoops(u8),
    /// Sees only the last N estimated tokens of the prompt (bytes ÷ 4 a message, as the page
    /// estimates) and reports prompt tokens capped at N: a server that silently cuts a long
    /// prompt. Answers a needle question from what it sees (see `context.rs`), anything else
    /// as `Coherent`. `mock-context-2048` sees 2,048.
    ContextWindow(usize),
    /// A deterministic reference for comparisons: at `temperature: 0` the reply depends only on
    /// the prompt (any `seed`), with logprobs when asked (`token_logprobs.rs`).
    Reference,
    /// The reference's tokens until a position that comes earlier as the prompt grows, then a
    /// different token and text; every logprob drifting from the reference's by an amount that
    /// grows with the position (`token_logprobs::drifted`).
    DriftingKernel,
}

impl Behaviour {
    pub const ALL: [Behaviour; 22] = [
        Behaviour::Coherent,
        Behaviour::WordLoop,
        Behaviour::LineLoop,
        Behaviour::LateLoop,
        Behaviour::Reasoning,
        Behaviour::ReasoningLoop,
        Behaviour::ReasoningIn(ReasoningField::ReasoningContent),
        Behaviour::ReasoningIn(ReasoningField::Reasoning),
        Behaviour::ReasoningIn(ReasoningField::ReasoningDetails),
        Behaviour::ReasoningIn(ReasoningField::InlineThink),
        Behaviour::Slow,
        Behaviour::MidStreamError,
        Behaviour::Dropped,
        Behaviour::Unauthorized,
        Behaviour::NoCors,
        Behaviour::HugeError,
        Behaviour::SometimesLoops(25),
        Behaviour::SometimesLoops(50),
        Behaviour::ContextWindow(2048),
        Behaviour::ContextWindow(8192),
        Behaviour::Reference,
        Behaviour::DriftingKernel,
    ];

    /// The name used by `--behaviour`; the model id is `mock-` + this.
    pub fn name(self) -> String {
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
            Behaviour::HugeError => "huge-error",
            Behaviour::Reference => "reference",
            Behaviour::DriftingKernel => "drifting-kernel",
            Behaviour::SometimesLoops(percent) => return format!("loops-{percent}"),
            Behaviour::ContextWindow(tokens) => return format!("context-{tokens}"),
            Behaviour::ReasoningIn(field) => return format!("reasoning-in-{}", field.name()),
        }
        .to_string()
    }

    pub fn model_id(self) -> String {
        format!("mock-{}", self.name())
    }

    pub fn from_name(name: &str) -> Option<Behaviour> {
        let name = name.strip_prefix("mock-").unwrap_or(name);
        if let Some(percent) = name.strip_prefix("loops-").and_then(|p| p.parse::<u8>().ok()) {
            return (percent <= 100).then_some(Behaviour::SometimesLoops(percent));
        }
        if let Some(tokens) = name.strip_prefix("context-").and_then(|n| n.parse::<usize>().ok()) {
            return (tokens > 0).then_some(Behaviour::ContextWindow(tokens));
        }
        if let Some(field) = name.strip_prefix("reasoning-in-") {
            return ReasoningField::from_name(field).map(Behaviour::ReasoningIn);
        }
        Behaviour::ALL.into_iter().find(|b| b.name() == name)
    }

    /// What answers a request with `seed`: a behaviour that depends on the seed picks one.
    pub fn for_seed(self, seed: u64) -> Behaviour {
        match self {
            // 7 is prime to 20: the loops are spread over each run of 20 seeds, exactly
            // percent ÷ 5 of them (rounded down).
            Behaviour::SometimesLoops(percent) if (seed.wrapping_mul(7) % 20) * 5 < u64::from(percent) => {
                Behaviour::LateLoop
            }
            Behaviour::SometimesLoops(_) => Behaviour::Coherent,
            other => other,
        }
    }

    /// The behaviour a requested model id asks for: `mock-NAME`, `NAME`, or a file path
    /// whose file stem is one of those (as listed with `--path-ids`).
    pub fn from_model(model: &str) -> Option<Behaviour> {
        let file = model.rsplit('/').next().unwrap_or(model);
        let stem = file.split('.').next().unwrap_or(file);
        Behaviour::from_name(model).or_else(|| Behaviour::from_name(stem))
    }

    /// Where this behaviour puts its reasoning, when it insists on a place.
    pub fn reasoning_field(self) -> Option<ReasoningField> {
        match self {
            Behaviour::ReasoningIn(field) => Some(field),
            _ => None,
        }
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
    fn a_sometimes_looping_model_loops_on_its_share_of_every_20_seeds() {
        for (percent, loops) in [(0u8, 0usize), (25, 5), (50, 10), (100, 20)] {
            for start in [0u64, 3, 1000] {
                let looped = (start..start + 20)
                    .filter(|&s| Behaviour::SometimesLoops(percent).for_seed(s) == Behaviour::LateLoop)
                    .count();
                assert_eq!(looped, loops, "{percent} % from seed {start}");
            }
        }
        assert_eq!(Behaviour::LineLoop.for_seed(3), Behaviour::LineLoop);
    }

    #[test]
    fn names_round_trip() {
        for b in Behaviour::ALL {
            assert_eq!(Behaviour::from_name(&b.name()), Some(b));
            assert_eq!(Behaviour::from_model(&b.model_id()), Some(b));
            assert_eq!(Behaviour::from_model(&format!("/models/{}.gguf", b.model_id())), Some(b));
        }
        assert_eq!(Behaviour::from_model("gpt-4o"), None);
        assert_eq!(Behaviour::from_name("mock-loops-10"), Some(Behaviour::SometimesLoops(10)));
        assert_eq!(Behaviour::from_name("loops-101"), None);
        assert_eq!(Behaviour::from_name("mock-context-3000"), Some(Behaviour::ContextWindow(3000)));
        assert_eq!(Behaviour::from_name("context-0"), None);
        assert_eq!(
            Behaviour::from_model("mock-reasoning-in-think"),
            Some(Behaviour::ReasoningIn(ReasoningField::InlineThink))
        );
        assert_eq!(Behaviour::from_name("reasoning-in-nowhere"), None);
    }
}
