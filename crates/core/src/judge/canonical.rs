//! A tool call made canonical, so that the same call reads the same however it was written: its
//! arguments parsed as JSON and written back with keys sorted and no insignificant whitespace
//! (arguments that are not JSON: the text trimmed). The canonical form is what the tool-call
//! check compares and what the model stream shows (`name(args)`); [`call_in_words`] is how a
//! reason quotes a call (`Read {file_path: src/date.rs}`).

use serde_json::Value;

use crate::wording::quote;

/// The arguments' canonical text: JSON with keys sorted and no insignificant whitespace, or the
/// trimmed text when it is not JSON.
pub fn canonical_args(args: &str) -> String {
    match serde_json::from_slice::<Value>(args.as_bytes()) {
        Ok(v) => {
            let mut out = String::with_capacity(args.len());
            write(&v, Style::Json, &mut out);
            out
        }
        Err(_) => args.trim().to_string(),
    }
}

/// A call as the model stream shows it: `name(canonical args)`.
pub fn canonical_call(name: &str, args: &str) -> String {
    format!("{name}({})", canonical_args(args))
}

/// A call as a reason quotes it: the tool's name, then its arguments in words — keys sorted,
/// strings without their quotes — shortened ([`quote`]): `Read {file_path: src/date.rs}`.
pub fn call_in_words(name: &str, args: &str) -> String {
    let args = match serde_json::from_slice::<Value>(args.as_bytes()) {
        Ok(v) => {
            let mut out = String::new();
            write(&v, Style::Words, &mut out);
            out
        }
        Err(_) => args.trim().to_string(),
    };
    if args.is_empty() {
        name.to_string()
    } else {
        format!("{name} {}", quote(&args))
    }
}

/// How [`write`] writes a value: canonical JSON, or in words (no quotes, a space after `,` and `:`).
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Json,
    Words,
}

/// Writes `v` in `style`. Keys come sorted: serde_json's map is a `BTreeMap` while its
/// `preserve_order` feature is off (a test holds it: no crate of the workspace turns it on).
fn write(v: &Value, style: Style, out: &mut String) {
    let words = style == Style::Words;
    let (comma, colon) = if words { (", ", ": ") } else { (",", ":") };
    let string = |s: &str, out: &mut String| {
        if words {
            out.push_str(s);
        } else {
            out.push_str(&Value::String(s.to_string()).to_string());
        }
    };
    match v {
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(comma);
                }
                string(k, out);
                out.push_str(colon);
                write(v, style, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(comma);
                }
                write(item, style, out);
            }
            out.push(']');
        }
        Value::String(s) => string(s, out),
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_call_written_differently_is_the_same_call() {
        let a = canonical_args(r#"{"path": "a.rs", "limit": 20, "opts": {"z": [1, 2], "a": null}}"#);
        let b = canonical_args("{\"opts\":{\"a\":null,\"z\":[1,2]},\n  \"limit\":20,\"path\":\"a.rs\"}");
        assert_eq!(a, b);
        assert_eq!(a, r#"{"limit":20,"opts":{"a":null,"z":[1,2]},"path":"a.rs"}"#);
        assert_eq!(canonical_args("  ls -la \n"), "ls -la", "not JSON: trimmed");
        assert_eq!(canonical_args(r#""a\"b""#), r#""a\"b""#, "strings keep their escapes");
        assert_eq!(
            canonical_call("Read", r#"{ "file_path" : "src/date.rs" }"#),
            r#"Read({"file_path":"src/date.rs"})"#
        );
    }

    #[test]
    fn json_maps_keep_their_keys_sorted() {
        // Canonical arguments rely on it: serde_json's `preserve_order` would keep the input's order.
        let v: Value = serde_json::from_slice(br#"{"b": 1, "a": 2, "c": {"z": 0, "y": 0}}"#).unwrap_or_default();
        let keys: Vec<&String> = v.as_object().map(|m| m.keys().collect()).unwrap_or_default();
        assert_eq!(keys, ["a", "b", "c"]);
    }

    #[test]
    fn a_call_in_words() {
        assert_eq!(call_in_words("Read", r#"{"file_path": "src/date.rs"}"#), "Read {file_path: src/date.rs}");
        assert_eq!(
            call_in_words("bash", r#"{"cmd":"cargo test date","n":[1,true]}"#),
            "bash {cmd: cargo test date, n: [1, true]}"
        );
        assert_eq!(call_in_words("now", "{}"), "now {}");
        assert_eq!(call_in_words("now", ""), "now");
        let long = call_in_words("Edit", &serde_json::json!({"old_string": "x".repeat(80)}).to_string());
        assert!(long.starts_with("Edit {old_string: xxx") && long.ends_with('…'), "{long}");
    }
}
