//! Recognises the session files of agent harnesses from their first bytes alone
//! ([`HARNESS_PROBE`]: a harness may write a 20 KB instruction block on its first line, so
//! nothing here parses a whole line or document): each by the keys and values only it writes
//! near its start. Looked at before the API shapes, which these files are made of.

use crate::ingest::format::Format;

/// How much of the input the harness check looks at.
pub const HARNESS_PROBE: usize = 4 * 1024;

/// The harness whose session file `input` (leading whitespace and BOM already skipped) starts
/// like, if any.
pub fn harness(input: &[u8]) -> Option<Format> {
    let head = &input[..input.len().min(HARNESS_PROBE)];
    if head.starts_with(b"# aider chat started at") {
        return Some(Format::Aider);
    }
    let has = |needle: &str| contains(head, needle.as_bytes());
    // `"key":"value"`, with or without a space after the colon.
    let pair =
        |key: &str, value: &str| has(&format!("\"{key}\":\"{value}\"")) || has(&format!("\"{key}\": \"{value}\""));
    let key = |key: &str| has(&format!("\"{key}\":"));
    match head.first()? {
        b'{' => {
            if pair("type", "session_meta") || (pair("type", "response_item") && key("payload")) {
                return Some(Format::CodexJsonl);
            }
            // Codex's legacy rollout: a session header, then state lines and bare items.
            if key("instructions") && pair("record_type", "state") {
                return Some(Format::CodexJsonl);
            }
            if key("projectHash") || (key("history") && key("parts") && !key("message_type")) {
                return Some(Format::GeminiCli);
            }
            if key("info") && (has("\"ses_") || has("\"msg_")) && key("parts") {
                return Some(Format::Opencode);
            }
            if key("source") && (key("action") || key("observation")) {
                return Some(Format::OpenHands);
            }
            if (key("trajectory") || key("history")) && (key("message_type") || key("thought")) {
                return Some(Format::SweAgent);
            }
            None
        }
        b'[' => {
            if key("ts") && (pair("type", "say") || pair("type", "ask")) {
                return Some(Format::Cline);
            }
            if key("role") && (has("<task>") || has("<environment_details>")) {
                return Some(Format::Cline);
            }
            if key("source") && (key("action") || key("observation") || has("Event\"")) {
                return Some(Format::OpenHands);
            }
            None
        }
        _ => None,
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_harness_by_its_start_and_nothing_else() {
        let cases: [(&[u8], Option<Format>); 10] = [
            (b"# aider chat started at 2026-12-02 09:12:01\n", Some(Format::Aider)),
            (br#"{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}"#, Some(Format::CodexJsonl)),
            (
                br#"{"id":"x","timestamp":"t","instructions":"i"}
{"record_type":"state"}"#,
                Some(Format::CodexJsonl),
            ),
            (br#"{"sessionId":"s","projectHash":"p","startTime":"t"}"#, Some(Format::GeminiCli)),
            (br#"{"history": [{"role": "user", "parts": [{"text": "hi"}]}]}"#, Some(Format::GeminiCli)),
            (
                br#"{"info": {"id": "ses_1"}, "messages": [{"info": {"id": "msg_1"}, "parts": []}]}"#,
                Some(Format::Opencode),
            ),
            (br#"[{"id":0,"source":"user","action":"message","args":{}}]"#, Some(Format::OpenHands)),
            (br#"{"environment":"swe_main","trajectory":[{"thought":"t"}],"history":[]}"#, Some(Format::SweAgent)),
            (br#"[{"role":"user","content":[{"type":"text","text":"<task>\nfix\n</task>"}]}]"#, Some(Format::Cline)),
            (br#"{"type":"user","sessionId":"A","message":{"role":"user","content":"fix it"}}"#, None),
        ];
        for (input, want) in cases {
            assert_eq!(harness(input), want, "{}", String::from_utf8_lossy(input));
        }
        // A key named in the text of an API body is not a harness.
        assert_eq!(harness(br#"{"messages":[{"role":"user","content":"the source action"}]}"#), None);
        assert_eq!(harness(b"plain text about \"source\": and \"action\":"), None);
    }
}
