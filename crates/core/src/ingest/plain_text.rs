//! Plain text: the whole input is one message. UTF-8 with a BOM dropped; invalid bytes are
//! replaced by U+FFFD and reported once.

use super::builder::{Builder, Origin, Part};
use super::transcript::{Channel, Transcript};
use super::Format;

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::Text);
    let start = if input.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let body = &input[start..];
    let text = match std::str::from_utf8(body) {
        Ok(s) => s.to_string(),
        Err(e) => {
            let lossy = String::from_utf8_lossy(body).into_owned();
            let bad = invalid_sequences(body);
            let at = start + e.valid_up_to();
            b.diag(
                Origin::new(at..at + e.error_len().unwrap_or(1).min(input.len() - at), None),
                format!("not valid UTF-8 from byte {at} on ({bad} bad sequences); they are shown as U+FFFD"),
            );
            lossy
        }
    };
    b.message((0, 0), Part::new("text", Channel::Content, text), Origin::new(start..input.len(), Some(1)));
    b.finish()
}

/// [`parse`] taking the bytes: a valid UTF-8 text becomes the message without being copied
/// (a 50 MB file is then held once, not twice).
pub fn parse_owned(input: Vec<u8>) -> Transcript {
    let len = input.len();
    let start = if input.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    match String::from_utf8(input) {
        Ok(mut text) => {
            text.drain(..start);
            let mut b = Builder::new(&[], Format::Text);
            b.message((0, 0), Part::new("text", Channel::Content, text), Origin::new(start..len, Some(1)));
            b.finish()
        }
        Err(e) => parse(e.as_bytes()),
    }
}

/// Whether `t` is a plain text whose one message is the document's bytes at its `source`,
/// unchanged (nothing invalid was replaced): a reader can take the text from the document.
pub fn is_verbatim(t: &Transcript) -> bool {
    t.format == Format::Text && t.diagnostics.is_empty() && t.messages.iter().all(|m| m.source.len() == m.text.len())
}

/// How many invalid UTF-8 sequences `bytes` holds (each becomes one U+FFFD).
fn invalid_sequences(mut bytes: &[u8]) -> usize {
    let mut n = 0;
    while let Err(e) = std::str::from_utf8(bytes) {
        n += 1;
        bytes = &bytes[e.valid_up_to() + e.error_len().unwrap_or(bytes.len() - e.valid_up_to())..];
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_dropped_and_bad_bytes_reported() {
        let t = parse("\u{feff}héllo".as_bytes());
        assert_eq!((t.messages[0].text.as_str(), t.messages[0].source.clone()), ("héllo", 3..9));
        assert!(t.diagnostics.is_empty());
        let t = parse("ok\u{fffd}\u{fffd}".bytes().chain(*b"\xff\xfe then \xff").collect::<Vec<u8>>().as_slice());
        assert_eq!(t.messages[0].text.as_str(), "ok\u{fffd}\u{fffd}\u{fffd}\u{fffd} then \u{fffd}");
        assert_eq!(t.diagnostics.len(), 1);
        assert_eq!(t.diagnostics[0].range, 8..9);
        assert!(t.diagnostics[0].message.contains("3 bad sequences"), "{}", t.diagnostics[0].message);
    }

    #[test]
    fn owned_bytes_read_the_same() {
        let bad: Vec<u8> = b"ok \xff then".to_vec();
        for input in ["\u{feff}héllo".as_bytes().to_vec(), b"plain".to_vec(), bad, Vec::new()] {
            let t = parse_owned(input.clone());
            assert_eq!(t, parse(&input), "{input:?}");
            let verbatim = std::str::from_utf8(&input)
                .is_ok_and(|s| s.strip_prefix('\u{feff}').unwrap_or(s) == *t.messages[0].text);
            assert_eq!(is_verbatim(&t), verbatim, "{input:?}");
            if verbatim {
                assert_eq!(input[t.messages[0].source.clone()], *t.messages[0].text.as_bytes());
            }
        }
        // Replaced bytes of the same length are still not the document's.
        let same_length = parse(b"ab\xf0\x9f\x98cd");
        assert_eq!(same_length.messages[0].text.len(), same_length.messages[0].source.len());
        assert!(!is_verbatim(&same_length));
    }
}
