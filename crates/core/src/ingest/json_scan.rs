//! Finds the elements of a top-level JSON array, or the members of a JSON object, without
//! parsing them, so each can be parsed (and reported) on its own and keep its byte range.

use std::ops::Range;

/// The byte ranges of the elements of the array that fills `input` (leading whitespace
/// allowed). `None` if `input` does not start with `[`. Stops at the closing `]` or at the end
/// of the input; a broken element still gets a range, and its parse will say what is wrong.
pub fn array_elements(input: &[u8]) -> Option<Vec<Range<usize>>> {
    segments(input, b'[')
}

/// The members of the object that fills `input`: each key (its text between the quotes, as
/// written) and the byte range of its value. `None` if `input` does not start with `{`. A
/// member cut by the end of the input, or without a value, is left out.
pub fn object_members(input: &[u8]) -> Option<Vec<(&[u8], Range<usize>)>> {
    let members = segments(input, b'{')?;
    Some(members.into_iter().filter_map(|r| split_member(input, r)).collect())
}

/// The members of the object that fills `input`, to look up by key.
pub struct Members<'a> {
    input: &'a [u8],
    members: Vec<(&'a [u8], Range<usize>)>,
}

impl<'a> Members<'a> {
    /// `None` if `input` does not start with `{`.
    pub fn of(input: &'a [u8]) -> Option<Self> {
        Some(Members { input, members: object_members(input)? })
    }

    /// The range of the value of member `key`, unless it is `null`.
    pub fn get(&self, key: &str) -> Option<Range<usize>> {
        let (_, value) = self.members.iter().find(|(k, _)| *k == key.as_bytes())?;
        (&self.input[value.clone()] != b"null").then(|| value.clone())
    }
}

/// `"key": value` within `r`: the key's text and the value's range.
fn split_member(input: &[u8], r: Range<usize>) -> Option<(&[u8], Range<usize>)> {
    let s = &input[r.clone()];
    if s.first() != Some(&b'"') {
        return None;
    }
    let mut escaped = false;
    let close = s.iter().enumerate().skip(1).find_map(|(i, &b)| {
        let end = b == b'"' && !escaped;
        escaped = b == b'\\' && !escaped;
        end.then_some(i)
    })?;
    let after = s[close + 1..].iter().position(|b| !b.is_ascii_whitespace())? + close + 1;
    if s[after] != b':' {
        return None;
    }
    let value = s[after + 1..].iter().position(|b| !b.is_ascii_whitespace())? + after + 1;
    Some((&s[1..close], r.start + value..r.end))
}

/// The comma-separated parts of the container (`[` or `{`) that fills `input`, trimmed.
fn segments(input: &[u8], open: u8) -> Option<Vec<Range<usize>>> {
    let mut i = input.iter().position(|b| !b.is_ascii_whitespace())?;
    if input[i] != open {
        return None;
    }
    let close = if open == b'[' { b']' } else { b'}' };
    i += 1;
    let mut out = Vec::new();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut start: Option<usize> = None;
    while i < input.len() {
        let b = input[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => {
                    in_string = true;
                    start.get_or_insert(i);
                }
                b'[' | b'{' => {
                    depth += 1;
                    start.get_or_insert(i);
                }
                b']' | b'}' if depth > 0 => depth -= 1,
                c if depth == 0 && (c == b',' || c == close) => {
                    if let Some(s) = start.take() {
                        out.push(s..trim_end(input, i));
                    }
                    if b == close {
                        return Some(out);
                    }
                }
                b if b.is_ascii_whitespace() => {}
                _ => {
                    start.get_or_insert(i);
                }
            }
        }
        i += 1;
    }
    if let Some(s) = start {
        out.push(s..input.len());
    }
    Some(out)
}

fn trim_end(input: &[u8], mut end: usize) -> usize {
    while end > 0 && input[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_and_ranges() {
        let s = br#" [ {"a":"],}"} , [1,2], "x\"y" ,3 ] trailing"#;
        let got: Vec<&str> =
            array_elements(s).unwrap().into_iter().map(|r| std::str::from_utf8(&s[r]).unwrap()).collect();
        assert_eq!(got, vec![r#"{"a":"],}"}"#, "[1,2]", r#""x\"y""#, "3"]);
        assert_eq!(array_elements(b"{}"), None);
        assert_eq!(array_elements(b"[]"), Some(vec![]));
        let cut = array_elements(b"[{\"a\":").unwrap();
        assert_eq!((cut.len(), cut[0].clone()), (1, 1..6));
    }

    #[test]
    fn members_and_values() {
        let s = br#"{ "model" : "m", "k\"}" :{"x":[1,{}]} ,"messages": [ {"role":"user"} ],"n":null, "cut": [1,"#;
        let got: Vec<(String, &str)> = object_members(s)
            .unwrap()
            .into_iter()
            .map(|(k, r)| (String::from_utf8_lossy(k).into_owned(), std::str::from_utf8(&s[r]).unwrap()))
            .collect();
        let want = [
            ("model", r#""m""#),
            (r#"k\"}"#, r#"{"x":[1,{}]}"#),
            ("messages", r#"[ {"role":"user"} ]"#),
            ("n", "null"),
            ("cut", "[1,"),
        ];
        assert_eq!(got, want.map(|(k, v)| (k.to_string(), v)));
        let m = Members::of(s).unwrap();
        assert_eq!(m.get("messages").map(|r| &s[r][..1]), Some(&b"["[..]));
        assert_eq!((m.get("n"), m.get("absent"), object_members(b"[1]")), (None, None, None));
        assert_eq!(object_members(br#"{"a" 1, "b":}"#), Some(vec![]));
    }
}
