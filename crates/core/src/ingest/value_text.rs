//! A JSON text rewritten as a `serde_json::Value` holds it: each object's keys once (of a
//! repeated key, the last) and in the value's order — but every number, string and key as the
//! input wrote it. Reading this text gives what reading the value parsed from the input gives,
//! so a type is read from text only and the page's wasm holds one reader of it (not a second
//! one for `Value`s). A value written out by serde_json would not do: its reader is not
//! correctly rounded, so a number written and read again may change in its last digit.

use std::ops::Range;

use super::json_scan::{array_elements, object_members};

/// The text, and each array's range in it with its number of elements.
pub struct ValueText {
    pub text: Vec<u8>,
    arrays: Vec<(Range<usize>, usize)>,
}

impl ValueText {
    /// `input`: a JSON text that reads as a `Value`.
    pub fn of(input: &[u8]) -> ValueText {
        let mut out = ValueText { text: Vec::with_capacity(input.len()), arrays: Vec::new() };
        out.write(input);
        out
    }

    fn write(&mut self, input: &[u8]) {
        if let Some(members) = object_members(input) {
            // In the value's order (its keys sorted), of a repeated key the last.
            let keys: Vec<String> = members.iter().map(|(key, _)| decoded(key)).collect();
            let mut order: Vec<usize> = (0..members.len()).collect();
            order.sort_by_key(|&i| &keys[i]);
            order.dedup_by(|later, earlier| {
                let same = keys[*later] == keys[*earlier];
                if same {
                    *earlier = *later;
                }
                same
            });
            self.text.push(b'{');
            for (n, &i) in order.iter().enumerate() {
                if n > 0 {
                    self.text.push(b',');
                }
                let (key, value) = &members[i];
                self.text.push(b'"');
                self.text.extend_from_slice(key);
                self.text.extend_from_slice(b"\":");
                self.write(&input[value.clone()]);
            }
            self.text.push(b'}');
        } else if let Some(elements) = array_elements(input) {
            let start = self.text.len();
            self.text.push(b'[');
            for (i, element) in elements.iter().enumerate() {
                if i > 0 {
                    self.text.push(b',');
                }
                self.write(&input[element.clone()]);
            }
            self.text.push(b']');
            self.arrays.push((start..self.text.len(), elements.len()));
        } else {
            self.text.extend_from_slice(input.trim_ascii());
        }
    }

    /// The message of an error reading this text, as reading the value gives it: without a
    /// position, and an array read as a struct that has elements left over said as the value
    /// says it (the text's reader says "trailing characters").
    pub fn error_message(&self, e: &serde_json::Error) -> String {
        let message = e.to_string();
        let position = format!(" at line {} column {}", e.line(), e.column());
        let message = message.strip_suffix(&position).unwrap_or(&message);
        if message != "trailing characters" {
            return message.to_string();
        }
        // The error points at the first element left over: the innermost array around it.
        let at = e.column().saturating_sub(1);
        let around = self.arrays.iter().filter(|(r, _)| r.start < at && at < r.end).max_by_key(|(r, _)| r.start);
        match around {
            Some((_, len)) => format!("invalid length {len}, expected fewer elements in array"),
            None => message.to_string(),
        }
    }
}

/// The value of member `key` of the object that fills `input`, as a `Value` finds it (the key
/// as read, the last of repeated keys).
pub fn member(input: &[u8], key: &str) -> Option<Range<usize>> {
    let members = object_members(input)?;
    members.into_iter().rev().find(|(k, _)| decoded(k) == key).map(|(_, value)| value)
}

/// A key as written between its quotes, read.
fn decoded(key: &[u8]) -> String {
    match std::str::from_utf8(key) {
        Ok(plain) if !key.contains(&b'\\') => plain.to_string(),
        _ => {
            let mut quoted = Vec::with_capacity(key.len() + 2);
            quoted.push(b'"');
            quoted.extend_from_slice(key);
            quoted.push(b'"');
            serde_json::from_slice::<String>(&quoted).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_once_in_order_and_numbers_as_written() {
        let input = br#" { "b" : [ 1.0000000000000002e-300 , {"z":1,"a":2,"a":3} ], "\u0061" : "x\n", "a":" y " } "#;
        let v = ValueText::of(input);
        assert_eq!(std::str::from_utf8(&v.text).unwrap(), r#"{"a":" y ","b":[1.0000000000000002e-300,{"a":3,"z":1}]}"#);
        assert_eq!(v.arrays, vec![(15..54, 2)]);
        assert_eq!(member(input, "a").map(|r| &input[r]), Some(&br#"" y ""#[..]));
        assert_eq!(member(br#"{"p\u0061yload":{}}"#, "payload"), Some(16..18));
        assert_eq!((member(input, "c"), member(b"[1]", "a")), (None, None));
    }
}
