//! Golden transcripts: each fixture under `tests/data/formats/` (one capture per format and
//! server dialect) is detected, parsed and analysed message by message and conversation by
//! conversation; the result must equal `tests/data/formats/NAME.expected.json` (NAME = the
//! fixture's file name without extension).
//!
//! To refresh after an intended change: `UPDATE_GOLDEN=1 cargo test --test integration ingest::`, then
//! review the diff (a difference fails with a unified diff: `coherency_test_support::golden`).

use coherency_core::analyze::Verdict;
use coherency_core::ingest::{self, Channel, Format, Transcript};
use coherency_core::judge::{judge_transcript, ConversationReport, StreamKind};
use coherency_test_support::golden::assert_golden;
use serde::Serialize;
use std::fs;
use std::path::{Path, PathBuf};

const DIR: &str = "tests/data/formats";

/// Every fixture (not the golden files), sorted.
fn fixtures() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".expected.json"))
        .collect();
    out.sort();
    out
}

fn read(name: &str) -> (Vec<u8>, Transcript) {
    let bytes = fs::read(Path::new(DIR).join(name)).unwrap();
    let t = ingest::read(&bytes);
    (bytes, t)
}

/// What the golden file holds: the transcript, each report's verdict and reasons (the full
/// reports are pinned by the analysis tests), whether it is judged, and each conversation's
/// judgement across its turns.
#[derive(Serialize)]
struct GoldenView<'a> {
    transcript: &'a Transcript,
    reports: Vec<ReportView<'a>>,
    verdict: Option<Verdict>,
    conversations: &'a [ConversationReport],
}

#[derive(Serialize)]
struct ReportView<'a> {
    messages: &'a [usize],
    combined: bool,
    bytes: usize,
    verdict: Verdict,
    reasons: Vec<String>,
    judged: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream: Option<StreamKind>,
}

fn golden_json(t: &Transcript) -> String {
    let analysis = judge_transcript(t);
    let reports = analysis
        .reports
        .iter()
        .map(|r| ReportView {
            messages: &r.messages,
            combined: r.combined,
            bytes: r.report.bytes(),
            verdict: r.report.verdict(),
            // A passing short text keeps a summary: its reasons are those of its full report.
            reasons: r.full_report(t).reasons.clone(),
            judged: r.judged,
            stream: r.stream,
        })
        .collect();
    let view = GoldenView { transcript: t, reports, verdict: analysis.verdict, conversations: &analysis.conversations };
    serde_json::to_string_pretty(&view).unwrap() + "\n"
}

/// The one place that compares a fixture with its golden file.
fn check(path: &Path) {
    let bytes = fs::read(path).unwrap();
    let t = ingest::read(&bytes);
    let got = golden_json(&t);
    let stem = path.file_stem().unwrap().to_string_lossy();
    assert_golden(&path.with_file_name(format!("{stem}.expected.json")), &got);
}

#[test]
fn every_fixture_matches_its_golden_transcript() {
    let all = fixtures();
    for path in &all {
        check(path);
    }
    assert!(all.len() >= 21, "expected the fixtures under {DIR}, found {}", all.len());
}

#[test]
fn each_fixture_is_detected_as_its_format() {
    let want = [
        ("anthropic.sse", Format::AnthropicSse),
        ("anthropic_message.json", Format::AnthropicJson),
        ("anthropic_request.json", Format::AnthropicJson),
        ("anthropic_overloaded.sse", Format::AnthropicSse),
        ("binary.bin", Format::Binary),
        ("chat.json", Format::OpenaiJson),
        ("chat_array.json", Format::OpenaiJson),
        ("chunks.jsonl", Format::Jsonl),
        ("claude_session.jsonl", Format::SessionJsonl),
        ("next_file_please.jsonl", Format::SessionJsonl),
        ("edit_test_progress.jsonl", Format::SessionJsonl),
        ("curl_i_401.http", Format::OpenaiJson),
        ("curl_i_stream.http", Format::Sse),
        ("deepseek_reasoning_loop.sse", Format::Sse),
        ("live_captures.jsonl", Format::LiveCaptures),
        ("llamacpp.sse", Format::Sse),
        ("no_blank_lines.sse", Format::Sse),
        ("ollama.ndjson", Format::OllamaNdjson),
        ("ollama_v1.sse", Format::Sse),
        ("openai_functions.json", Format::OpenaiJson),
        ("openai_midstream_error.sse", Format::Sse),
        ("openai_request.json", Format::OpenaiJson),
        ("openrouter.sse", Format::Sse),
        ("plain_bom.txt", Format::Text),
        ("requests.jsonl", Format::Jsonl),
        ("requests_history.jsonl", Format::Jsonl),
        ("responses.sse", Format::ResponsesSse),
        ("responses_request.json", Format::ResponsesJson),
        ("responses_response.json", Format::ResponsesJson),
        ("sglang.sse", Format::Sse),
        ("vllm.sse", Format::Sse),
        ("harness_aider_healthy.md", Format::Aider),
        ("harness_aider_loop.md", Format::Aider),
        ("harness_cline_healthy.json", Format::Cline),
        ("harness_cline_loop.json", Format::Cline),
        ("harness_codex_jsonl_healthy.jsonl", Format::CodexJsonl),
        ("harness_codex_jsonl_loop.jsonl", Format::CodexJsonl),
        ("harness_gemini_cli_healthy.jsonl", Format::GeminiCli),
        ("harness_gemini_cli_loop.jsonl", Format::GeminiCli),
        ("harness_opencode_healthy.json", Format::Opencode),
        ("harness_opencode_loop.json", Format::Opencode),
        ("harness_openhands_healthy.json", Format::OpenHands),
        ("harness_openhands_loop.json", Format::OpenHands),
        ("harness_swe_agent_healthy.traj", Format::SweAgent),
        ("harness_swe_agent_loop.traj", Format::SweAgent),
    ];
    for (name, format) in want {
        assert_eq!(read(name).1.format, format, "{name}");
    }
    assert_eq!(fixtures().len(), want.len(), "a fixture is missing from this table");
}

/// Issue 3: a loop hidden in the reasoning behind a clean answer cannot pass.
#[test]
fn reasoning_loop_behind_a_clean_answer_fails_on_the_reasoning_message() {
    let (_, t) = read("deepseek_reasoning_loop.sse");
    let analysis = judge_transcript(&t);
    assert_eq!(analysis.verdict, Some(Verdict::Fail));
    let worst = analysis.worst().unwrap();
    assert!(!worst.combined);
    assert_eq!(t.messages[worst.messages[0]].channel, Channel::Reasoning);
    let content = t.messages.iter().position(|m| m.channel == Channel::Content).unwrap();
    let content_report = analysis.reports.iter().find(|r| r.messages == [content]).unwrap();
    assert_eq!(content_report.report.verdict(), Verdict::Pass);
    assert_eq!(t.messages[content].text.as_str(), "The three invoices total 245 euros (120 + 80 + 45).");
    let stream = t.stream.as_ref().unwrap();
    assert_eq!((stream.comments, stream.saw_done, stream.finish_reason.as_deref()), (2, true, Some("stop")));
}

#[test]
fn cut_stream_keeps_its_text_and_says_it_was_cut() {
    let (_, t) = read("llamacpp.sse");
    let s = t.stream.as_ref().unwrap();
    assert!(!s.saw_done);
    assert_eq!(s.finish_reason, None);
    assert_eq!(s.comments, 2);
    assert_eq!(t.messages[0].channel, Channel::Reasoning);
    assert!(t.messages[0].text.starts_with("\nTwo trains leave"));
    assert_eq!(t.messages[1].text.as_str(), "\n\nThey meet at 6 pm, 240 km from the station.");
    assert_eq!(t.diagnostics.len(), 1, "the half-received last chunk is reported");
}

#[test]
fn escapes_emoji_and_crlf() {
    let (_, t) = read("sglang.sse");
    assert_eq!(t.messages[1].text.as_str(), "Essayez le café « Olimpico » sur Saint-Viateur 😀\r\n☕ Bon appétit !");
    assert!(t.diagnostics.is_empty());
    assert_eq!(t.stream.as_ref().unwrap().usage.as_ref().unwrap().total_tokens, Some(64));
}

#[test]
fn tool_calls_rebuilt_from_fragments_and_by_id() {
    let (_, t) = read("vllm.sse");
    let tool = t.messages.iter().find(|m| m.channel == Channel::Tool).unwrap();
    assert_eq!(
        (tool.name.as_deref(), tool.text.as_str()),
        (Some("get_weather"), r#"{"city": "Paris", "unit": "celsius"}"#)
    );
    let (_, t) = read("ollama_v1.sse");
    let calls: Vec<&str> = t.messages.iter().filter(|m| m.channel == Channel::Tool).map(|m| m.text.as_str()).collect();
    assert_eq!(calls, vec![r#"{"zone":"Europe/Paris"}"#, r#"{"zone":"Asia/Tokyo"}"#]);
}

#[test]
fn bad_lines_are_diagnostics_and_the_rest_is_read() {
    let (bytes, t) = read("requests.jsonl");
    assert_eq!(t.diagnostics.len(), 1);
    let d = &t.diagnostics[0];
    assert_eq!(d.line, Some(3));
    assert!(bytes[d.range.clone()].starts_with(b"{\"ts\""));
    let conversations: std::collections::BTreeSet<usize> = t.messages.iter().map(|m| m.conversation).collect();
    assert_eq!(conversations.len(), 3);
    let analysis = judge_transcript(&t);
    assert_eq!(analysis.verdict, Some(Verdict::Fail), "the looping list in the batch record fails");
}

#[test]
fn sources_point_at_the_input() {
    for path in fixtures() {
        let bytes = fs::read(&path).unwrap();
        let t = ingest::read(&bytes);
        for m in &t.messages {
            assert!(m.source.end <= bytes.len() && m.source.start <= m.source.end, "{}", path.display());
            assert!(m.line.is_some());
        }
    }
}

/// A capture cut anywhere (a dropped connection, a partial copy) still reads: no panic,
/// sources inside the input, and what was complete before the cut is kept.
#[test]
fn every_cut_of_every_fixture_reads_in_every_format() {
    let files: Vec<(String, Vec<u8>)> =
        fixtures().into_iter().map(|p| (p.display().to_string(), fs::read(&p).unwrap())).collect();
    // About 400 cuts a fixture: 200 evenly spaced (at least 13 bytes apart), and up to 200 at
    // or just after a line break (where the line readers decide), evenly picked among them;
    // shared out over the machine's cores.
    let cuts: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, (_, b))| {
            let step = (b.len() / 200).max(13);
            let breaks: Vec<usize> = (1..=b.len()).filter(|&at| b[at.saturating_sub(2)..at].contains(&b'\n')).collect();
            let every = breaks.len().div_ceil(200).max(1);
            let mut at: Vec<usize> = (0..=b.len()).step_by(step).chain([b.len()]).collect();
            at.extend(breaks.into_iter().step_by(every));
            at.sort_unstable();
            at.dedup();
            at.into_iter().map(move |at| (i, at))
        })
        .collect();
    let problems = coherency_test_support::parallel::map(&cuts, |&(i, at)| {
        let (name, bytes) = &files[i];
        let cut = &bytes[..at];
        let mut problems = Vec::new();
        for f in [ingest::detect(bytes), Format::Text, Format::Sse, Format::Jsonl] {
            let t = ingest::parse(cut, f);
            let inside = |r: &std::ops::Range<usize>| r.start <= r.end && r.end <= at;
            if !t.messages.iter().all(|m| inside(&m.source)) || !t.diagnostics.iter().all(|d| inside(&d.range)) {
                problems.push(format!("{name} cut at {at} as {f}: a range outside the cut"));
            }
        }
        problems
    });
    let problems: Vec<String> = problems.into_iter().flatten().collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn saved_http_responses_are_read_from_their_body() {
    let (bytes, t) = read("curl_i_stream.http");
    assert_eq!(t.messages[0].text.as_str(), "Headers first, then the stream.");
    assert!(bytes[t.messages[0].source.clone()].starts_with(b"data: "));
    assert_eq!(t.messages[0].line, Some(9));
    assert!(t.diagnostics.is_empty());
    let (_, t) = read("curl_i_401.http");
    let said: Vec<&str> = t.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(said, ["the server answered HTTP/1.1 401 Unauthorized", "the reply is an error: Invalid API key"]);
}

#[test]
fn binary_input_gets_one_clear_message() {
    let (_, t) = read("binary.bin");
    assert!(t.messages.is_empty());
    assert_eq!(t.diagnostics.len(), 1);
    assert!(t.diagnostics[0].message.contains("PNG"), "{}", t.diagnostics[0].message);
    assert_eq!(judge_transcript(&t).verdict, None);
}
