//! Non-streamed OpenAI chat completions: one JSON object, or an array of them (each element
//! read on its own, so one broken element costs only itself).

use super::builder::{Builder, Origin};
use super::json_scan::array_elements;
use super::lines::trim_ascii_range;
use super::openai::push_completion;
use super::transcript::Transcript;
use super::Format;
use crate::stream::openai_wire::Completion;

pub fn parse(input: &[u8]) -> Transcript {
    let mut b = Builder::new(input, Format::OpenaiJson);
    let start = if input.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let whole = trim_ascii_range(input, start..input.len());
    let items = array_elements(&input[whole.clone()])
        .map(|els| els.into_iter().map(|r| r.start + whole.start..r.end + whole.start).collect())
        .unwrap_or_else(|| vec![whole.clone()]);
    if whole.is_empty() {
        b.diag(Origin::new(whole, Some(1)), "the input is empty");
        return b.finish();
    }
    let mut conversation = 0;
    for range in items {
        let at = Origin::new(range.clone(), None);
        match serde_json::from_slice::<Completion>(&input[range]) {
            Ok(c) => push_completion(&mut b, c, &mut conversation, 0, &at),
            Err(e) => b.json_diag(at, "not a chat completion", &e),
        }
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::Channel;

    #[test]
    fn single_array_and_errors() {
        let t = parse(br#"{"choices":[{"message":{"role":"assistant","content":"hi","reasoning_content":"r"},"finish_reason":"stop"}]}"#);
        let got: Vec<(Channel, &str)> = t.messages.iter().map(|m| (m.channel, m.text.as_str())).collect();
        assert_eq!(got, vec![(Channel::Reasoning, "r"), (Channel::Content, "hi")]);
        let t =
            parse(br#"[{"choices":[{"message":{"content":"a"}}]}, {"choices": 5}, {"error":{"message":"bad key"}}]"#);
        assert_eq!(t.messages.len(), 1);
        assert_eq!(t.diagnostics.len(), 2, "{:?}", t.diagnostics);
        assert_eq!(t.diagnostics[1].message, "the reply is an error: bad key");
        let t = parse(b"  ");
        assert_eq!(t.diagnostics.len(), 1);
    }
}
