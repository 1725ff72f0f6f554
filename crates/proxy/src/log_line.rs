//! The proxy's log: one line per generation in the live-captures format the page and the CLI
//! read (`coherency analyze proxy.jsonl`, or the file opened in the page): the core's
//! [`export_captures`] line — the generation's row as a soak run writes it (verdict, onset,
//! tokens, speed, time to first token, finish reason, `[DONE]` seen, what went wrong) and the
//! reply as received, every key of the request cut out — with the proxy's own facts added
//! under `"proxy"` (when, which path, the HTTP status, how it ended, the checks that tripped,
//! the cut and the tokens it saved, the tool-call check across turns, the time the proxy added). Readers of the format take the
//! keys they know; nothing of the request's headers is written.

use coherency_core::analyze::{analyze, Verdict};
use coherency_core::ingest::LIVE_CAPTURES_LINE_START;
use coherency_core::live::captures_file::{export_captures, KEY_REMOVED};
use coherency_core::live::soak::{Generation, Planned};
use coherency_core::live::ChatRequest;
use serde_json::{json, Value};

use crate::watch::Finished;

/// Where and when a generation was asked, besides what the watch saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    /// 0-based, in the order the proxy saw the requests since it started.
    pub index: usize,
    /// Milliseconds since the Unix epoch when the request arrived.
    pub unix_ms: u64,
    /// The path the client asked for, without its query (which may hold a key).
    pub path: String,
    /// The upstream URL it went to, without the query.
    pub upstream_url: String,
    pub status: u16,
}

/// What the metrics count of a generation.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationSummary {
    pub model: String,
    /// `None`: nothing was judged (an error, an unscored reply, no text).
    pub verdict: Option<Verdict>,
    pub cut: bool,
    pub tokens_saved: Option<(u64, bool)>,
    /// The log's key for how it ended.
    pub end: &'static str,
    /// The tool-call check across turns, when the request carried a history with calls.
    pub tool_calls: Option<Verdict>,
}

/// The log line of `finished` (ending in `\n`), with every key of `keys` cut out of its
/// capture, and what the metrics count of it. `history`: the request's body when it carries
/// tool calls or results, for the tool-call check across turns.
pub fn line(finished: &Finished, asked: &Asked, keys: &[&str], history: Option<&[u8]>) -> (String, GenerationSummary) {
    let stats = finished.session.stats();
    let model = stats.stream.model.clone().or_else(|| finished.request.model.clone()).unwrap_or_default();
    let planned = Planned {
        index: asked.index,
        config: "",
        prompt: 0,
        seed: finished.request.seed.unwrap_or(0),
        request: ChatRequest { url: asked.upstream_url.clone(), body: String::new() },
    };
    let mut generation = Generation::of(&planned, &model, Ok(&finished.session.snapshot()));
    generation.seed = finished.request.seed;
    if let Some(cut) = &finished.cut {
        // The tokens counted at the cut (an Anthropic stream's usage so far is message_start's
        // one token; the cut estimated them from the text).
        (generation.tokens, generation.tokens_estimated) = (cut.generated, cut.generated_estimated);
    }
    let scored = finished.scored();
    if !scored {
        generation.verdict = None;
        generation.onset = None;
        generation.error = Some(finished.note.clone().unwrap_or_else(|| "nothing was received".to_string()));
    }
    // Several choices (`n` > 1): each judged apart; the generation's verdict is the worst.
    let choices = finished.session.turns();
    let choices: Vec<(u64, Option<Verdict>, Option<String>, String)> = if scored && choices.len() > 1 {
        choices
            .iter()
            .map(|t| {
                let report = analyze(&crate::watch::joined(&t.reasoning, &t.content));
                let verdict = (!report.too_short).then_some(report.verdict);
                (t.choice, verdict, t.finish_reason.clone(), report.reasons.into_iter().next().unwrap_or_default())
            })
            .collect()
    } else {
        Vec::new()
    };
    if !choices.is_empty() {
        generation.verdict = choices.iter().filter_map(|c| c.1).max();
    }
    let capture: &[u8] = if scored { finished.session.capture() } else { b"" };
    let base = export_captures([(&generation, capture)], keys);

    // Why, for a WARN or FAIL (a second report: most generations pass and need none).
    let flagged = scored && generation.verdict.is_some_and(|v| v != Verdict::Pass);
    let (reasons, tripped) = if !choices.is_empty() {
        let said = choices.iter().filter(|c| c.1.is_some_and(|v| v != Verdict::Pass));
        (said.map(|(i, _, _, why)| format!("choice {i}: {why}")).collect(), None)
    } else {
        match flagged.then(|| finished.session.reports().2) {
            Some(c) => (c.reasons, c.tripped.map(|m| m.label())),
            None => (Vec::new(), None),
        }
    };
    let choices_json: Option<Vec<Value>> = (!choices.is_empty()).then(|| {
        choices
            .iter()
            .map(|(i, v, finish, why)| json!({"index": i, "verdict": v, "finish_reason": finish, "reason": why}))
            .collect()
    });
    // A whole reply (not streamed) that ended is done: it has no end marker of its own.
    let end = finished.end.key(stats.stream.saw_done || finished.shape != crate::watch::Shape::Stream);
    let cut = finished.cut.as_ref().map(|c| {
        json!({
            "verdict": c.verdict,
            "why": c.why,
            "tokens_generated": c.generated,
            "tokens_generated_estimated": c.generated_estimated,
            "tokens_saved": c.saved.map(|s| s.tokens),
            "tokens_saved_estimated": c.saved.map(|s| s.estimated),
            "tokens_saved_unknown": c.saved.is_none().then_some("the request set no max_tokens"),
        })
    });
    let tool_calls = history
        .filter(|_| scored)
        .and_then(|h| crate::tool_calls::check(h, finished.session.capture(), finished.dialect));
    let tool_calls_json = tool_calls.as_ref().map(|t| {
        let mut reason = t.reason.clone();
        for key in keys.iter().filter(|k| !k.trim().is_empty()) {
            reason = reason.replace(key.trim(), KEY_REMOVED);
        }
        json!({"verdict": t.verdict, "calls": t.calls, "reason": reason})
    });
    let proxy = json!({
        "unix_ms": asked.unix_ms,
        "path": asked.path,
        "status": asked.status,
        "streamed": finished.shape == crate::watch::Shape::Stream,
        "ending": end,
        "reasons": reasons,
        "tripped": tripped,
        "cut": cut,
        "tool_calls": tool_calls_json,
        "choices": choices_json,
        "note": finished.note,
        "added_ms": { "reads": finished.added.reads, "total": round3(finished.added.total_ms), "max": round3(finished.added.max_ms) },
    });
    let mut text = String::with_capacity(base.len() + 512);
    text += LIVE_CAPTURES_LINE_START;
    if let Some(format) = finished.dialect.format() {
        // The capture's dialect, for the readers (chat needs no name).
        text += &format!("\"format\":\"{format}\",");
    }
    text += "\"proxy\":";
    text += &proxy.to_string();
    text.push(',');
    text += &base[LIVE_CAPTURES_LINE_START.len()..];
    let summary = GenerationSummary {
        model,
        verdict: generation.verdict,
        cut: finished.cut.is_some(),
        tokens_saved: finished.cut.as_ref().and_then(|c| c.saved).map(|s| (s.tokens, s.estimated)),
        end,
        tool_calls: tool_calls.map(|t| t.verdict),
    };
    (text, summary)
}

fn round3(ms: f64) -> Value {
    json!((ms * 1000.0).round() / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request_facts::RequestFacts;
    use crate::watch::{End, Shape, Step, Watch};
    use coherency_core::ingest::{self, Format};
    use coherency_core::judge::judge_transcript;

    const KEY: &str = "sk-proxy-secret-77";

    fn asked(index: usize, status: u16) -> Asked {
        Asked {
            index,
            unix_ms: 1_790_000_000_000,
            path: "/v1/chat/completions".into(),
            upstream_url: "http://127.0.0.1:9/v1/chat/completions".into(),
            status,
        }
    }

    fn stream(text: &str) -> String {
        let mut s = format!(": echo Bearer {KEY}\n\n");
        for piece in text.as_bytes().chunks(30) {
            let c = serde_json::json!({"model": "m", "choices": [{"index": 0, "delta": {"content": String::from_utf8_lossy(piece)}}]});
            s += &format!("data: {c}\n\n");
        }
        s + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
    }

    fn watched(text: &str, cut_on: Option<Verdict>) -> Finished {
        let facts = RequestFacts {
            model: Some("asked".into()),
            seed: Some(3),
            max_tokens: Some(1000),
            ..RequestFacts::default()
        };
        let mut w = Watch::new(0.0, Shape::Stream, facts, cut_on);
        for (i, read) in stream(text).as_bytes().chunks(50).enumerate() {
            let now = 300.0 * i as f64;
            if let Step::Cut(_) = w.on_data(read, now) {
                break;
            }
            if let Some(check) = w.check(now) {
                if let Step::Cut(_) = w.checked(check.run(), now) {
                    break;
                }
            }
        }
        w.finish(End::Closed, 1e6)
    }

    #[test]
    fn lines_read_back_through_the_core_to_the_verdicts_the_proxy_counted() {
        let prose = coherency_core::samples::PROSE;
        let looped = "Checking the lock again.\n".repeat(80);
        let finished = [watched(prose, None), watched(&looped, None), watched(&looped, Some(Verdict::Fail))];
        let mut file = String::new();
        let mut summaries = Vec::new();
        for (i, f) in finished.iter().enumerate() {
            let (text, summary) = line(f, &asked(i, 200), &[KEY], None);
            assert!(text.ends_with('\n') && text.matches('\n').count() == 1);
            file += &text;
            summaries.push(summary);
        }
        // An HTTP error is a line too, with no capture.
        let refused = Watch::new(0.0, Shape::Unscored("HTTP 401".into()), RequestFacts::default(), None);
        let (text, summary) = line(&refused.finish(End::Closed, 1.0), &asked(3, 401), &[KEY], None);
        assert_eq!(summary.verdict, None);
        file += &text;

        assert!(!file.contains(KEY), "a key reached the log");
        assert_eq!(
            summaries.iter().map(|s| s.verdict).collect::<Vec<_>>(),
            [Some(Verdict::Pass), Some(Verdict::Fail), Some(Verdict::Fail)]
        );
        assert_eq!(summaries[0].model, "m", "the stream's model before the request's");
        assert!(!summaries[1].cut && summaries[2].cut);
        let saved = summaries[2].tokens_saved.unwrap();
        assert!(saved.0 > 0 && saved.1, "{saved:?}");

        let t = ingest::read(file.as_bytes());
        assert_eq!(t.format, Format::LiveCaptures);
        let judged = judge_transcript(&t);
        let verdicts: Vec<_> = judged.conversations.iter().map(|c| Some(c.verdict)).collect();
        assert_eq!(verdicts, summaries.iter().map(|s| s.verdict).collect::<Vec<_>>());
        assert_eq!(t.diagnostics.len(), 1, "{:?}", t.diagnostics);
        assert_eq!(t.diagnostics[0].message, "generation 4 has no capture: HTTP 401");

        let cut_line: Value = serde_json::from_slice(file.lines().nth(2).unwrap().as_bytes()).unwrap();
        assert_eq!(cut_line["proxy"]["ending"], "cut-by-proxy");
        assert_eq!(cut_line["proxy"]["cut"]["verdict"], "FAIL");
        assert_eq!(cut_line["generation"]["seed"], 3);
        assert!(cut_line["generation"]["error"].as_str().unwrap().starts_with("cut: the proxy cut it"));
    }
}
