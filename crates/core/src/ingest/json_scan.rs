//! Finds the elements of a top-level JSON array without parsing them, so each can be parsed
//! (and reported) on its own and keep its byte range.

use std::ops::Range;

/// The byte ranges of the elements of the array that fills `input` (leading whitespace
/// allowed). `None` if `input` does not start with `[`. Stops at the closing `]` or at the end
/// of the input; a broken element still gets a range, and its parse will say what is wrong.
pub fn array_elements(input: &[u8]) -> Option<Vec<Range<usize>>> {
    let mut i = input.iter().position(|b| !b.is_ascii_whitespace())?;
    if input[i] != b'[' {
        return None;
    }
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
                b',' | b']' if depth == 0 => {
                    if let Some(s) = start.take() {
                        out.push(s..trim_end(input, i));
                    }
                    if b == b']' {
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
    use super::array_elements;

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
}
