//! Lenient readers for JSON fields whose shape varies between servers, and JSON errors in
//! words.
//!
//! A message's `content` is a string in most replies, `null` beside tool calls, and an array
//! of parts (`[{"type":"text","text":"…"}]`) in requests and in Anthropic-style blocks. These
//! helpers read any of them as text without buffering the value twice, so a field of an
//! unexpected shape never costs the whole chunk.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Reads a string, `null`, a number or boolean (as written), a part `{"text":…}`, or an array
/// of parts (their texts joined with `\n`) as optional text. Anything else is `None`.
pub fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_any(TextVisitor)
}

struct TextVisitor;

/// One part of a content array: only its text matters (`text`, or nested `content` as in
/// Anthropic `tool_result` blocks).
#[derive(serde::Deserialize)]
struct Part {
    #[serde(default, deserialize_with = "text")]
    text: Option<String>,
    #[serde(default, deserialize_with = "text")]
    content: Option<String>,
}

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("text, null, or an array of text parts")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out: Option<String> = None;
        while let Some(part) = seq.next_element::<PartOrText>()? {
            if let Some(t) = part.0 {
                match &mut out {
                    Some(o) => {
                        o.push('\n');
                        o.push_str(&t);
                    }
                    None => out = Some(t),
                }
            }
        }
        Ok(out)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let part = Part::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(part.text.or(part.content))
    }
}

/// What [`text`] reads from a value already parsed: the same text, without a second copy of
/// the reader for `serde_json::Value`s in the page's wasm. A number is written as [`text`]
/// writes it (an integer as it is, any other number as Rust writes an `f64`).
pub fn text_of_value(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match v {
        Value::Null => None,
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.to_string(),
            (None, Some(i)) => i.to_string(),
            (None, None) => n.as_f64().unwrap_or_default().to_string(),
        }),
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => parts.iter().filter_map(text_of_value).reduce(|mut all, t| {
            all.push('\n');
            all.push_str(&t);
            all
        }),
        Value::Object(part) => {
            part.get("text").and_then(text_of_value).or_else(|| part.get("content").and_then(text_of_value))
        }
    }
}

/// An element of a parts array: a part object or a bare string.
struct PartOrText(Option<String>);

impl<'de> Deserialize<'de> for PartOrText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        text(d).map(PartOrText)
    }
}

/// A value that is an object (read as `T`), a string, or anything else (skipped): for fields
/// and array elements whose shape varies, so that an odd one costs only itself.
pub enum Shaped<T> {
    Object(T),
    Text(String),
    Other,
}

impl<T> Shaped<T> {
    pub fn object(&self) -> Option<&T> {
        match self {
            Shaped::Object(t) => Some(t),
            _ => None,
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shaped<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Shaped<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Shaped::Object)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Shaped::Text(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Shaped::Text(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(Shaped::Other)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Shaped::Other)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Shaped::Other)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Shaped::Other)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Shaped::Other)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Shaped::Other)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// `what` failed to parse: serde's message with its position, e.g. `chunk is not JSON: EOF
/// while parsing a string (column 40)`. Positions are relative to the parsed text.
pub fn json_problem(what: &str, e: &serde_json::Error) -> String {
    json_problem_at(what, e, None)
}

/// Like [`json_problem`]; when the parsed text starts on line `first_line` of a bigger input,
/// a position past its first line is given as a line of that input.
pub fn json_problem_at(what: &str, e: &serde_json::Error, first_line: Option<usize>) -> String {
    let full = e.to_string();
    let msg = full.rfind(" at line ").map_or(full.as_str(), |k| &full[..k]);
    match (e.line(), e.column(), first_line) {
        (0, _, _) => format!("{what}: {msg}"),
        (1, c, _) => format!("{what}: {msg} (column {c})"),
        (l, c, Some(first)) => format!("{what}: {msg} (line {}, column {c})", first + l - 1),
        (l, c, None) => format!("{what}: {msg} (line {l} of it, column {c})"),
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Deserialize)]
    struct M {
        #[serde(default, deserialize_with = "super::text")]
        content: Option<String>,
    }

    fn content(json: &str) -> Option<String> {
        serde_json::from_slice::<M>(json.as_bytes()).unwrap().content
    }

    #[test]
    fn every_shape_reads_as_text() {
        assert_eq!(content(r#"{"content":"a\u00e9"}"#).as_deref(), Some("aé"));
        assert_eq!(content(r#"{"content":null}"#), None);
        assert_eq!(content(r#"{}"#), None);
        assert_eq!(
            content(r#"{"content":[{"type":"text","text":"a"},{"type":"image"},"b"]}"#).as_deref(),
            Some("a\nb")
        );
        assert_eq!(content(r#"{"content":[{"type":"tool_result","content":[{"text":"x"}]}]}"#).as_deref(), Some("x"));
        assert_eq!(content(r#"{"content":{"text":"t"}}"#).as_deref(), Some("t"));
        assert_eq!(content(r#"{"content":3}"#).as_deref(), Some("3"));
    }

    use proptest::prelude::*;

    /// Any JSON value, with the shapes `text` looks into (parts with `text` or `content`).
    fn value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::{json, Value};
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            "[a-c\\n]{0,3}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                (prop::option::of(inner.clone()), prop::option::of(inner.clone()), any::<bool>()).prop_map(
                    |(text, content, other)| {
                        let mut part = json!({});
                        if let Some(t) = text {
                            part["text"] = t;
                        }
                        if let Some(c) = content {
                            part["content"] = c;
                        }
                        if other {
                            part["type"] = json!("image");
                        }
                        part
                    }
                ),
            ]
        })
    }

    proptest! {
        #[test]
        fn text_of_value_reads_as_text_does(v in value()) {
            prop_assert_eq!(super::text_of_value(&v), super::text(v.clone()).unwrap());
        }
    }
}
