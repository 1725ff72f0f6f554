//! Who wrote a text: the model (assistant reasoning, content, tool calls) or its input (system,
//! developer and user messages, tool and function results). Only the model's output sets a
//! verdict; inputs are analysed and shown, marked "input — not judged", unless the caller puts
//! them back ([`JudgeOptions::judge_inputs`], the CLI's `--judge-inputs`).

use serde::{Deserialize, Serialize};

use crate::analyze::Thresholds;
use crate::ingest::Message;

/// The roles whose messages are the model's input. Every other role is the model's: `assistant`,
/// `model`, `text` (plain text), a stream's reply, a role the input does not give.
pub const INPUT_ROLES: [&str; 5] = ["system", "developer", "user", "tool", "function"];

/// Who wrote a text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Author {
    /// The model's output: it sets the verdict.
    #[default]
    Model,
    /// What the model was given: analysed and shown, judged only on request.
    Input,
}

impl Author {
    /// The author of a message, from its role (ASCII case ignored).
    pub fn of(m: &Message) -> Author {
        if INPUT_ROLES.iter().any(|r| m.role.eq_ignore_ascii_case(r)) {
            Author::Input
        } else {
            Author::Model
        }
    }

    /// "model" or "input".
    pub fn as_str(self) -> &'static str {
        match self {
            Author::Model => "model",
            Author::Input => "input",
        }
    }

    /// Whether a text by this author is judged under `options`.
    pub fn judged(self, options: &JudgeOptions) -> bool {
        self == Author::Model || options.judge_inputs
    }

    /// Why a text by this author is judged or not, in words: "model output — judged",
    /// "input — not judged", "input — judged on request".
    pub fn why(self, judged: bool) -> &'static str {
        match (self, judged) {
            (Author::Model, _) => "model output — judged",
            (Author::Input, false) => "input — not judged",
            (Author::Input, true) => "input — judged on request",
        }
    }
}

/// How a transcript is judged.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JudgeOptions {
    /// Inputs count towards the verdict too (they are analysed either way).
    pub judge_inputs: bool,
    /// What every text is judged against (the seed's by default; the CLI's `--threshold`).
    pub thresholds: Thresholds,
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::message;
    use super::*;
    use crate::ingest::Channel;

    fn by(role: &str) -> Author {
        Author::of(&message(0, role, Channel::Content, ""))
    }

    #[test]
    fn the_model_writes_replies_and_calls_and_everything_else_is_its_input() {
        for role in ["assistant", "model", "text", "unknown", "Assistant"] {
            assert_eq!(by(role), Author::Model, "{role}");
        }
        for role in ["system", "developer", "user", "tool", "function", "User"] {
            assert_eq!(by(role), Author::Input, "{role}");
        }
        let (asked, default) =
            (JudgeOptions { judge_inputs: true, ..JudgeOptions::default() }, JudgeOptions::default());
        assert!(Author::Model.judged(&default) && !Author::Input.judged(&default) && Author::Input.judged(&asked));
        assert_eq!(Author::Input.why(false), "input — not judged");
    }
}
