//! A report the CLI saved (`coherency analyze --json`: one object per file per line), read back
//! so the page can show it again: each file's verdict, the worst judged text's report, the
//! conversations and the messages as the CLI judged them. The text is not in such a report, so
//! what needs it (highlights, the onset's excerpt) is not shown; nothing is recomputed.
//!
//! Reading never fails the whole input: a line that is not such an object, or one written in a
//! newer schema, becomes a problem with its line number, and the other files are still shown.

use serde_json::Value;

use crate::analyze::{Check, Direction, Metric, Thresholds, Verdict};
use crate::ingest::{Diagnostic, Format};

/// The `schema_version` this build writes and reads (docs/cli.md: raised when a field
/// changes meaning or goes).
pub const SCHEMA_VERSION: u32 = 1;

/// What a saved report holds: each file in order, and what could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedReports {
    pub files: Vec<SavedFile>,
    pub problems: Vec<Diagnostic>,
}

/// One file's line.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedFile {
    pub file: String,
    /// Its analysis, or why the CLI could not read the file (`error`).
    pub outcome: Result<SavedAnalysis, String>,
}

/// One file as the CLI analysed it: what the page shows of its line. The worst judged text's
/// report is at the top level of the line (for a plain text, the text's); its spans, metrics
/// and onset are left out (they point into a text the report does not hold).
#[derive(Clone, Debug, PartialEq)]
pub struct SavedAnalysis {
    /// The worst judged text's verdict, reasons and checks.
    pub verdict: Verdict,
    pub reasons: Vec<String>,
    pub checks: Vec<Check>,
    /// What the checks' rules are stated from (the seed's rules, and the bytes from which the
    /// gzip ratio is judged as saved).
    pub thresholds: Thresholds,
    /// `None` for a format this build does not know.
    pub format: Option<Format>,
    pub input_bytes: usize,
    pub replaced_invalid_utf8: usize,
    /// The file's verdict (of what is judged), which the CLI's exit status followed.
    pub judged_verdict: Verdict,
    /// Worst judged first, then the inputs.
    pub messages: Vec<SavedMessage>,
    pub conversations: Vec<SavedConversation>,
    pub diagnostics: Vec<Diagnostic>,
}

impl SavedAnalysis {
    /// The check that set the file's verdict, for its headline: the worst text's (from its
    /// checks, as the analysis chose it) when that text's verdict is the file's; `None` when a
    /// judgement across turns set it (read as repetition).
    pub fn tripped(&self) -> Option<Metric> {
        let (verdict, tripped) = crate::analyze::checks::verdict(&self.checks);
        (verdict == self.judged_verdict).then_some(tripped).flatten()
    }
}

/// One analysed text's row, as the CLI wrote it.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedMessage {
    pub conversation: usize,
    pub index: usize,
    pub line: Option<usize>,
    pub role: String,
    pub channel: String,
    pub name: Option<String>,
    pub bytes: usize,
    pub verdict: Verdict,
    pub judged: bool,
    /// "model output", "input — not judged".
    pub why: String,
    pub reasons: Vec<String>,
}

impl SavedMessage {
    /// Where it is: "conversation 0, turn 3, line 12".
    pub fn place(&self) -> String {
        super::place_of(self.conversation, self.index, self.line)
    }

    /// The channel in words, with the tool's name: "reasoning", "tool (get_weather)".
    pub fn channel_text(&self) -> String {
        match &self.name {
            Some(name) => format!("{} ({name})", self.channel),
            None => self.channel.clone(),
        }
    }
}

/// A conversation's judgement across its turns, as the CLI wrote it.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedConversation {
    pub conversation: usize,
    pub verdict: Verdict,
    /// The turn where it turns degenerate; `None` for PASS.
    pub onset_turn: Option<usize>,
    pub reasons: Vec<String>,
}

/// Whether `bytes` start like a saved report: a JSON object whose first key is
/// `schema_version`, as the CLI writes it (compact or pretty-printed).
pub fn is_saved_report(bytes: &[u8]) -> bool {
    let rest = skip_space(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
    match rest.strip_prefix(b"{") {
        Some(rest) => skip_space(rest).starts_with(b"\"schema_version\""),
        None => false,
    }
}

fn skip_space(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    &bytes[start..]
}

/// Reads every JSON value in `bytes` (one per line, or pretty-printed across lines) as a file's
/// saved report.
pub fn read_saved_reports(bytes: &[u8]) -> SavedReports {
    let mut out = SavedReports { files: Vec::new(), problems: Vec::new() };
    // A `Value` walked by hand: derived deserialisers for these types would cost the page's
    // wasm several KB, and serde_json's `Value` reader is in it already.
    let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<Value>();
    let mut start = 0;
    loop {
        let next = values.next();
        let end = values.byte_offset();
        let at = start + (bytes[start..end].iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(end - start));
        let line = line_of(bytes, at);
        match next {
            None => break,
            Some(Err(e)) => {
                // The stream's errors count lines from the start of `bytes`.
                out.problems.push(problem(e.line().max(line), at..bytes.len(), format!("not JSON: {e}")));
                break;
            }
            Some(Ok(value)) => match read_one(&value) {
                Ok(file) => out.files.push(file),
                Err(message) => out.problems.push(problem(line, at..end, message)),
            },
        }
        start = end;
    }
    if out.files.is_empty() && out.problems.is_empty() {
        out.problems.push(problem(1, 0..bytes.len(), "holds no report".to_string()));
    }
    out
}

fn read_one(v: &Value) -> Result<SavedFile, String> {
    let not_ours = || "not a report saved by `coherency analyze --json`".to_string();
    let schema = v.get("schema_version").and_then(Value::as_u64).ok_or_else(not_ours)?;
    let file = v.get("file").and_then(Value::as_str).ok_or_else(not_ours)?.to_string();
    if schema != u64::from(SCHEMA_VERSION) {
        return Err(format!("{file}: written in schema {schema}, this build reads schema {SCHEMA_VERSION}"));
    }
    let outcome = match v.get("error") {
        Some(error) => Err(error.as_str().unwrap_or_default().to_string()),
        None => Ok(analysis(v).map_err(|field| format!("{file}: a damaged report (`{field}` is missing or wrong)"))?),
    };
    Ok(SavedFile { file, outcome })
}

/// The analysis in a file's line; `Err` names the first field that is missing or wrong.
fn analysis(v: &Value) -> Result<SavedAnalysis, &'static str> {
    let checks = items(v, "checks")?.iter().map(check).collect::<Result<_, _>>()?;
    let gzip_min_bytes =
        v.get("thresholds").map_or(Ok(Thresholds::SEED.gzip_min_bytes), |t| count(t, "gzip_min_bytes"))?;
    let messages = items(v, "messages")?.iter().map(message).collect::<Result<_, _>>()?;
    let conversations = items(v, "conversations")?.iter().map(conversation).collect::<Result<_, _>>()?;
    let diagnostics = items(v, "diagnostics")?
        .iter()
        .map(|d| -> Result<Diagnostic, &'static str> {
            let line = d.get("line").and_then(Value::as_u64).map(|l| l as usize);
            let range = d.get("range").ok_or("range")?;
            let range = count(range, "start")?..count(range, "end")?;
            Ok(Diagnostic { line, range, message: text(d, "message")? })
        })
        .collect::<Result<_, _>>()?;
    Ok(SavedAnalysis {
        verdict: verdict(v, "verdict")?,
        reasons: texts(v, "reasons")?,
        checks,
        thresholds: Thresholds { gzip_min_bytes, ..Thresholds::SEED },
        format: v.get("format").and_then(Value::as_str).and_then(Format::from_name),
        input_bytes: count(v, "input_bytes")?,
        replaced_invalid_utf8: count(v, "replaced_invalid_utf8").unwrap_or(0),
        judged_verdict: verdict(v, "judged_verdict")?,
        messages,
        conversations,
        diagnostics,
    })
}

fn check(v: &Value) -> Result<Check, &'static str> {
    let key = text(v, "metric")?;
    let metric = Metric::ALL.into_iter().find(|m| m.key() == key).ok_or("metric")?;
    let direction = match text(v, "direction")?.as_str() {
        "at_least" => Direction::AtLeast,
        "below" => Direction::Below,
        _ => return Err("direction"),
    };
    Ok(Check {
        metric,
        value: number(v, "value")?,
        warn_at: number(v, "warn_at")?,
        fail_at: number(v, "fail_at")?,
        direction,
        level: verdict(v, "level")?,
        judged: v.get("judged").and_then(Value::as_bool).unwrap_or(true),
        data: v.get("data").and_then(Value::as_bool).unwrap_or(false),
    })
}

fn message(v: &Value) -> Result<SavedMessage, &'static str> {
    Ok(SavedMessage {
        conversation: count(v, "conversation")?,
        index: count(v, "index")?,
        line: v.get("line").and_then(Value::as_u64).map(|l| l as usize),
        role: text(v, "role")?,
        channel: text(v, "channel")?,
        name: v.get("name").and_then(Value::as_str).map(str::to_string),
        bytes: count(v, "bytes")?,
        verdict: verdict(v, "verdict")?,
        judged: v.get("judged").and_then(Value::as_bool).ok_or("judged")?,
        why: text(v, "why")?,
        reasons: texts(v, "reasons")?,
    })
}

fn conversation(v: &Value) -> Result<SavedConversation, &'static str> {
    Ok(SavedConversation {
        conversation: count(v, "conversation")?,
        verdict: verdict(v, "verdict")?,
        onset_turn: v.get("onset_turn").and_then(Value::as_u64).map(|t| t as usize),
        reasons: texts(v, "reasons")?,
    })
}

fn items<'v>(v: &'v Value, field: &'static str) -> Result<&'v Vec<Value>, &'static str> {
    v.get(field).and_then(Value::as_array).ok_or(field)
}

fn text(v: &Value, field: &'static str) -> Result<String, &'static str> {
    v.get(field).and_then(Value::as_str).map(str::to_string).ok_or(field)
}

fn texts(v: &Value, field: &'static str) -> Result<Vec<String>, &'static str> {
    items(v, field)?.iter().map(|s| s.as_str().map(str::to_string).ok_or(field)).collect()
}

fn count(v: &Value, field: &'static str) -> Result<usize, &'static str> {
    v.get(field).and_then(Value::as_u64).map(|n| n as usize).ok_or(field)
}

fn number(v: &Value, field: &'static str) -> Result<f64, &'static str> {
    v.get(field).and_then(Value::as_f64).ok_or(field)
}

fn verdict(v: &Value, field: &'static str) -> Result<Verdict, &'static str> {
    match v.get(field).and_then(Value::as_str) {
        Some("PASS") => Ok(Verdict::Pass),
        Some("WARN") => Ok(Verdict::Warn),
        Some("FAIL") => Ok(Verdict::Fail),
        _ => Err(field),
    }
}

fn line_of(bytes: &[u8], at: usize) -> usize {
    1 + bytes[..at].iter().filter(|&&b| b == b'\n').count()
}

fn problem(line: usize, range: std::ops::Range<usize>, message: String) -> Diagnostic {
    Diagnostic { line: Some(line), range, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_object_that_opens_with_schema_version_is_a_saved_report() {
        assert!(is_saved_report(b"{\"schema_version\":1,\"file\":\"a\"}"));
        assert!(is_saved_report(b"\xEF\xBB\xBF\n{\n  \"schema_version\": 1"));
        assert!(!is_saved_report(b"{\"file\":\"a\",\"schema_version\":1}"));
        assert!(!is_saved_report(b"[{\"schema_version\":1}]"));
        assert!(!is_saved_report(b"schema_version"));
        assert!(!is_saved_report(b""));
    }

    #[test]
    fn bad_lines_are_problems_with_their_line_numbers_and_the_rest_is_read() {
        let input = b"{\"schema_version\":1,\"file\":\"gone.txt\",\"error\":\"No such file\"}\n\
            {\"schema_version\":2,\"file\":\"new.txt\"}\n\
            {\"schema_version\":1,\"file\":\"half.txt\",\"format\":\"text\"}\n\
            [1, 2]\n\
            {\"schema_version\":1,\"file\":\"cut";
        let saved = read_saved_reports(input);
        assert_eq!(saved.files, [SavedFile { file: "gone.txt".into(), outcome: Err("No such file".into()) }]);
        let problems: Vec<_> = saved.problems.iter().map(|p| (p.line.unwrap(), p.message.as_str())).collect();
        assert_eq!(problems.len(), 4, "{problems:?}");
        assert_eq!(problems[0], (2, "new.txt: written in schema 2, this build reads schema 1"));
        assert_eq!(problems[1].0, 3);
        assert_eq!(problems[1].1, "half.txt: a damaged report (`checks` is missing or wrong)");
        assert_eq!(problems[2].0, 4);
        assert!(problems[2].1.starts_with("not a report saved by"), "{problems:?}");
        assert_eq!(problems[3].0, 5);
        assert!(problems[3].1.starts_with("not JSON: EOF"), "{problems:?}");
    }

    #[test]
    fn an_empty_input_says_it_holds_no_report() {
        let saved = read_saved_reports(b"  \n");
        assert!(saved.files.is_empty());
        assert_eq!(saved.problems[0].message, "holds no report");
    }
}
