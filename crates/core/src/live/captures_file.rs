//! A soak (or A/B) run's captures as one file: a line per generation holding its row (as the
//! soak's JSONL export writes it) and its stream's body as received, which the file path reads
//! back ([`crate::ingest::Format::LiveCaptures`]) to the numbers the run showed. The API key is
//! in no row (not in a request body or a URL); a server could still echo it into a body, so
//! every key the run used is cut out of the captures too.

use super::soak::Generation;
use crate::ingest::LIVE_CAPTURES_LINE_START;

/// What stands in a capture where a key was.
pub const KEY_REMOVED: &str = "[API key removed]";

/// The file of `generations`, each with its capture (the response body; empty when none came),
/// with every non-blank key of `keys` removed from the captures. A body that is not UTF-8 is
/// written with U+FFFD in place of what is not.
pub fn export_captures<'a>(generations: impl IntoIterator<Item = (&'a Generation, &'a [u8])>, keys: &[&str]) -> String {
    let keys: Vec<&str> = keys.iter().map(|k| k.trim()).filter(|k| !k.is_empty()).collect();
    let mut out = String::new();
    for (generation, capture) in generations {
        let mut sse = String::from_utf8_lossy(capture).into_owned();
        for key in &keys {
            if sse.contains(key) {
                sse = sse.replace(key, KEY_REMOVED);
            }
        }
        out += LIVE_CAPTURES_LINE_START;
        out += "\"generation\":";
        out += &serde_json::to_string(generation).unwrap_or_default();
        out += ",\"sse\":";
        out += &serde_json::to_string(&sse).unwrap_or_default();
        out += "}\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{Report, Verdict};
    use crate::ingest::{self, Format};
    use crate::judge::judge_transcript;
    use crate::live::session::{Ending, LiveSession};
    use crate::live::soak::{plan, Planned};
    use crate::live::RequestForm;

    const KEY: &str = "sk-archive-secret-0042";

    fn planned(n: usize) -> Vec<Planned> {
        let form = RequestForm {
            base_url: "http://127.0.0.1:30000/v1".into(),
            model: "m".into(),
            prompt: "Tell me about page reclaim.".into(),
            max_tokens: "400".into(),
            temperature: "0.6".into(),
            extra_json: String::new(),
        };
        plan(&form, &[], n, 10).unwrap()
    }

    fn chunk(field: &str, text: &str) -> String {
        let text = serde_json::to_string(text).unwrap();
        format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"{field}\":{text}}}}}]}}\n\n")
    }

    /// A generation streamed in small reads: `kind` 0 coherent prose, 1 a content loop, 2 a
    /// reasoning loop behind a clean answer, 3 cut before its end marker, each a little apart.
    fn session(kind: usize, salt: usize) -> LiveSession {
        let mut s = LiveSession::new(0.0);
        s.headers(3.0);
        let prose = crate::samples::PROSE;
        let looped = format!("Step {salt}: check the lock again before the write.\n").repeat(40);
        let (reasoning, content) = match kind {
            0 => (String::new(), prose.to_string()),
            1 => (format!("Planning answer {salt}."), looped),
            2 => (looped, "The lock is held by the writer.".to_string()),
            _ => (String::new(), format!("{salt} {prose}")),
        };
        let mut body = String::new();
        for piece in reasoning.as_bytes().chunks(23) {
            body += &chunk("reasoning_content", std::str::from_utf8(piece).unwrap());
        }
        // Cut on char boundaries: a chunk's JSON holds whole characters.
        let mut rest = content.as_str();
        while !rest.is_empty() {
            let mut cut = rest.len().min(31);
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            body += &chunk("content", &rest[..cut]);
            rest = &rest[cut..];
        }
        if kind != 3 {
            body += "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";
        }
        // The key echoed by a careless server: it must not reach the file.
        body = format!(": echo Authorization: Bearer {KEY}\n\n{body}");
        for (i, read) in body.as_bytes().chunks(97).enumerate() {
            s.feed(read, 10.0 + i as f64);
        }
        s.end(if kind == 3 { Ending::Cut("network error".into()) } else { Ending::Closed }, 500.0);
        s
    }

    #[test]
    fn exported_captures_read_back_to_the_verdicts_and_numbers_the_run_showed() {
        let plans = planned(8);
        let sessions: Vec<LiveSession> = (0..8).map(|i| session(i % 4, i)).collect();
        let generations: Vec<Generation> =
            plans.iter().zip(&sessions).map(|(p, s)| Generation::of(p, "m", Ok(&s.snapshot()))).collect();
        let verdicts: Vec<_> = generations.iter().map(|g| g.verdict).collect();
        assert!(verdicts.contains(&Some(Verdict::Pass)) && verdicts.contains(&Some(Verdict::Fail)), "{verdicts:?}");
        let file = export_captures(generations.iter().zip(sessions.iter().map(|s| s.capture())), &[KEY, ""]);

        assert_eq!(file.lines().count(), 8);
        assert!(!file.contains(KEY), "the key is in the captures file");
        let t = ingest::read(file.as_bytes());
        assert_eq!(t.format, Format::LiveCaptures);
        assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
        let judged = judge_transcript(&t);
        assert_eq!(judged.conversations.len(), 8);
        for (c, (g, s)) in judged.conversations.iter().zip(generations.iter().zip(&sessions)) {
            let (reasoning, content, combined) = s.reports();
            // The reply judged whole: its combined report, or its one channel's.
            let reports: Vec<Report> = judged
                .reports
                .iter()
                .filter(|r| r.messages.iter().all(|&k| t.messages[k].conversation == c.conversation))
                .map(|r| (*r.full_report(&t)).clone())
                .collect();
            assert!(reports.contains(&combined), "generation {}: the combined report differs", g.index);
            for own in [reasoning, content].into_iter().filter(|r| !r.too_short) {
                assert!(reports.contains(&own), "generation {}: a channel's report differs", g.index);
            }
            assert_eq!(Some(c.verdict), g.verdict, "generation {}", g.index);
            // Each line keeps its generation's row as the soak's JSONL writes it.
            let line = file.lines().nth(c.conversation).unwrap();
            assert!(line.contains(&serde_json::to_string(g).unwrap()));
        }
    }

    #[test]
    fn a_failed_generation_is_a_diagnostic_and_a_key_is_cut_wherever_it_is() {
        let plans = planned(2);
        let refused = Generation::of(&plans[0], "m", Err("HTTP 401".into()));
        let echoed =
            format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"your key {KEY}\"}}}}]}}\n\n");
        let streamed = Generation::of(&plans[1], "m", Err("not used".into()));
        let file = export_captures([(&refused, &b""[..]), (&streamed, echoed.as_bytes())], &[&format!(" {KEY} ")]);
        assert!(!file.contains(KEY) && file.contains(KEY_REMOVED));
        let t = ingest::read(file.as_bytes());
        assert_eq!(t.messages.len(), 1);
        assert_eq!(t.messages[0].text.as_str(), format!("your key {KEY_REMOVED}"));
        assert_eq!(t.diagnostics[0].line, Some(1));
        assert_eq!(t.diagnostics[0].message, "generation 1 has no capture: HTTP 401");
    }
}
