//! Anthropic's content block as it appears on the wire: in Messages streams
//! (`content_block_start`), in request and reply bodies and in agent session logs that store
//! whole messages (`message.content[]`). One lenient shape for every reader; it also reads
//! OpenAI's content parts (`{"type":"text","text":…}`) and Responses' (`input_text`,
//! `output_text`, `refusal`, `summary_text`, `reasoning_text`).

use super::lenient::text as lenient_text;
use super::openai_wire::json_text;
use serde::Deserialize;

/// A `text`, `thinking`, `tool_use` or `tool_result` block (or a text part); every field optional.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ContentBlock {
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub text: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub thinking: Option<String>,
    /// Tool use id.
    #[serde(default)]
    pub id: Option<String>,
    /// Tool name.
    #[serde(default)]
    pub name: Option<String>,
    /// Tool input, as JSON text.
    #[serde(default, deserialize_with = "json_text")]
    pub input: Option<String>,
    /// The tool use a `tool_result` answers.
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// A `tool_result`'s content, as text.
    #[serde(default, deserialize_with = "lenient_text")]
    pub content: Option<String>,
    /// A Responses or OpenAI `refusal` part's text.
    #[serde(default, deserialize_with = "lenient_text")]
    pub refusal: Option<String>,
}
