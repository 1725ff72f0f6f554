//! The one lenient shape of a message or item of any of the three APIs ([`Item`]: OpenAI chat
//! messages, Anthropic messages, Responses items; every field optional) and of its `content`
//! ([`Blocks`]: a string, parts or content blocks), read from JSON text only.

use crate::ingest::value_text::ValueText;
use crate::stream::anthropic_wire::ContentBlock as Block;
use crate::stream::openai_wire::{json_text, FunctionIn, ReasoningDetail, ToolCallIn};
use crate::stream::{lenient_text, Shaped};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// A message (OpenAI chat, Anthropic) or a Responses item; every field optional.
#[derive(Debug, Default, Deserialize)]
pub struct Item {
    /// Responses: `message`, `reasoning`, `function_call`, `function_call_output`…; Anthropic
    /// replies: `message`. Absent in chat and Anthropic request messages.
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub role: Option<String>,
    #[serde(default)]
    pub content: Option<Blocks>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub reasoning_content: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub reasoning: Option<String>,
    #[serde(default, deserialize_with = "lenient_text")]
    pub thinking: Option<String>,
    #[serde(default)]
    pub reasoning_details: Option<Vec<ReasoningDetail>>,
    #[serde(default)]
    pub tool_calls: Option<Vec<ToolCallIn>>,
    /// The call a `tool` message answers.
    #[serde(default, deserialize_with = "lenient_text")]
    pub tool_call_id: Option<String>,
    /// Legacy OpenAI: one call per assistant message, without an id.
    #[serde(default)]
    pub function_call: Option<FunctionIn>,
    /// The tool's name (a `function` result, a Responses call), or a participant's name.
    #[serde(default, deserialize_with = "lenient_text")]
    pub name: Option<String>,
    /// Responses: the item's id (a call's fallback id).
    #[serde(default, deserialize_with = "lenient_text")]
    pub id: Option<String>,
    /// Responses: the call an item is or answers.
    #[serde(default, deserialize_with = "lenient_text")]
    pub call_id: Option<String>,
    /// Responses: a call's arguments (`function_call`), input (`custom_tool_call`) or action
    /// (`local_shell_call`, `computer_call`…), as JSON text.
    #[serde(default, deserialize_with = "json_text")]
    pub arguments: Option<String>,
    #[serde(default, deserialize_with = "json_text")]
    pub input: Option<String>,
    #[serde(default, deserialize_with = "json_text")]
    pub action: Option<String>,
    /// Responses: what a call gave (`*_call_output`, `mcp_call`).
    #[serde(default, deserialize_with = "lenient_text")]
    pub output: Option<String>,
    /// Responses: a `reasoning` item's summary parts.
    #[serde(default)]
    pub summary: Option<Blocks>,
}

impl Item {
    /// A message of one text.
    pub fn text(role: &str, text: String) -> Item {
        Item { role: Some(role.into()), content: Some(Blocks(vec![text_block(text)])), ..Item::default() }
    }

    /// Reads an item from its JSON text as `serde_json::from_value` reads it from the value
    /// parsed from that text (for the readers that look at a message as a `Value` first). Items
    /// are read from text only: a second reader of them, from `Value`s, costs the page's wasm
    /// about 7 KB gzipped. The text reads to the same item unless it repeats a field (a value
    /// keeps the last) or has a field of a shape the item refuses; then the text rewritten as
    /// the value holds it is read ([`ValueText`]), and an error is given as `from_value` gives it.
    pub fn read(json: &[u8]) -> Result<Item, String> {
        if let Ok(item) = serde_json::from_slice::<Item>(json) {
            return Ok(item);
        }
        let value = ValueText::of(json);
        serde_json::from_slice::<Item>(&value.text).map_err(|e| value.error_message(&e))
    }

    /// A Responses item from the model's side (reasoning, an assistant message, a call): the
    /// items of one reply, one after another, share a turn.
    pub(super) fn model_side(&self) -> bool {
        let Some(kind) = self.kind.as_deref() else { return false };
        kind == "reasoning" || kind.ends_with("_call") || self.role.as_deref() == Some("assistant")
    }
}

/// `content`: a string (one text block), an array of blocks or parts (a bare string is text),
/// one block, a number or boolean (as written), or `null`.
#[derive(Debug, Default)]
pub struct Blocks(pub Vec<Block>);

fn text_block(text: String) -> Block {
    Block { kind: Some("text".into()), text: Some(text), ..Block::default() }
}

impl<'de> Deserialize<'de> for Blocks {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Blocks;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an array of content blocks")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Blocks, E> {
                self.visit_string(v.to_owned())
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Blocks, E> {
                Ok(Blocks(vec![text_block(v)]))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Blocks, E> {
                self.visit_string(v.to_string())
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Blocks, E> {
                self.visit_string(v.to_string())
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Blocks, E> {
                self.visit_string(v.to_string())
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Blocks, E> {
                self.visit_string(v.to_string())
            }
            fn visit_unit<E: de::Error>(self) -> Result<Blocks, E> {
                Ok(Blocks::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Blocks, A::Error> {
                let mut out = Vec::new();
                // A block, a bare string (text), or anything else (skipped).
                while let Some(b) = seq.next_element::<Shaped<Block>>()? {
                    match b {
                        Shaped::Object(b) => out.push(b),
                        Shaped::Text(t) => out.push(text_block(t)),
                        Shaped::Other => {}
                    }
                }
                Ok(Blocks(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Blocks, A::Error> {
                Block::deserialize(de::value::MapAccessDeserializer::new(map)).map(|b| Blocks(vec![b]))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `serde_json::from_value` gives for the JSON `text` (as a reader parses it), to
    /// compare [`Item::read`] with.
    #[allow(clippy::disallowed_methods)]
    fn via_value(text: &str) -> Result<String, String> {
        let value: serde_json::Value = serde_json::from_slice(text.as_bytes()).unwrap();
        serde_json::from_value::<Item>(value).map(|i| format!("{i:?}")).map_err(|e| e.to_string())
    }

    fn via_read(text: &str) -> Result<String, String> {
        Item::read(text.as_bytes()).map(|i| format!("{i:?}"))
    }

    #[test]
    fn items_read_from_text_as_from_a_value() {
        for text in [
            r#"{"role":"assistant","content":[{"type":"text","text":"a"},"b",{"type":"tool_use","id":"t1","name":"f","input":{"x":1.5}}],"tool_calls":[{"index":0,"id":"c","function":{"name":"g","arguments":{"y":[1,-2]}}}]}"#,
            r#"{"role":"tool","content":1e-7,"tool_call_id":7,"output":[{"text":"o"},{"content":"p"}]}"#,
            r#"["assistant",{"text":"r"}]"#,
            // A repeated field: the value keeps the last, the item's text is refused.
            r#"{"role":"user","content":"a","content":"b"}"#,
            r#"{"role":"user","content":[{"type":"text","text":"a","text":"b"}]}"#,
            // Fields of a shape the item refuses.
            r#"{"tool_calls":"x"}"#,
            r#"{"content":[{"type":"tool_use","id":5}],"tool_calls":{"id":[]}}"#,
            r#"{"function_call":{"name":{"a":1}}}"#,
            // Arrays read as structs, with elements left over.
            r#"{"function_call":["f",null,null]}"#,
            &format!("[{}]", ["null"; 21].join(",")),
            r#""a message""#,
            r#"12"#,
        ] {
            assert_eq!(via_read(text), via_value(text), "{text}");
        }
    }

    use proptest::prelude::*;

    /// JSON text of item-like objects: the fields an item and its blocks, calls and parts read
    /// (one of them written with an escape), some repeated, with values of every shape.
    fn item_text() -> impl Strategy<Value = String> {
        let key = prop::sample::select(vec![
            "type",
            "role",
            "content",
            "reasoning",
            "reasoning_details",
            "tool_calls",
            "tool_call_id",
            "function_call",
            "function",
            "name",
            "id",
            "index",
            "arguments",
            "input",
            "output",
            "summary",
            "text",
            "thinking",
            "other",
            r"ro\u006ce",
        ]);
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            (-3i64..300).prop_map(|n| n.to_string()),
            Just("18446744073709551615".to_string()),
            Just("-0".to_string()),
            Just("0.30000000000000004".to_string()),
            Just("1.0000000000000002e-300".to_string()),
            Just("-2.5E-3".to_string()),
            "[a-c]{0,2}".prop_map(|s| format!("{s:?}")),
            Just(r#""\u00e9\n""#.to_string()),
        ];
        leaf.prop_recursive(4, 48, 5, move |inner| {
            let gap = prop::sample::select(vec!["", " ", "\n "]);
            prop_oneof![
                (prop::collection::vec(inner.clone(), 0..4), gap.clone())
                    .prop_map(|(v, gap)| format!("[{gap}{}]", v.join(&format!(",{gap}")))),
                (prop::collection::vec((key.clone(), inner), 0..5), gap).prop_map(|(members, gap)| {
                    let members: Vec<String> = members.into_iter().map(|(k, v)| format!("\"{k}\"{gap}:{v}")).collect();
                    format!("{{{gap}{}}}", members.join(","))
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]
        #[test]
        fn any_item_reads_from_text_as_from_a_value(text in item_text()) {
            prop_assert_eq!(via_read(&text), via_value(&text), "{}", text);
        }
    }
}
