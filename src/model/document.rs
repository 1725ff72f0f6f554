//! The page's view of one input document (pasted text, a sample or a file): its bytes, the
//! detected and chosen formats, the core's transcript and per-message reports, the table rows
//! worst first, and the analysis of the message shown in full. Pure: unit-tested natively;
//! every number comes from the core (`judge`, `analyze`).

use std::rc::Rc;

use super::{Analysis, Source};
use coherency_core::analyze::{Report, Thresholds, Verdict};
use coherency_core::ingest::{Format, Transcript};
#[cfg(test)]
use coherency_core::judge::JudgeOptions;
use coherency_core::judge::{ConversationReport, JudgedDocument, MessageRow, TranscriptReport};
use coherency_core::stream::StreamInfo;
use coherency_core::wording::{plural, thousands};

/// One input read and analysed, with one of its messages selected.
#[derive(Debug)]
pub struct Document {
    /// Increases with every new document or re-read; with `selected`, what equality compares.
    pub seq: u64,
    pub source: Source,
    /// The input's bytes, kept to read them again in another format; `None` for a file read
    /// in the worker (the page keeps the file itself and reads it again there).
    pub bytes: Option<Rc<[u8]>>,
    /// The input's size in bytes.
    pub size: usize,
    /// What `ingest::detect` said.
    pub detected: Format,
    /// The format-menu choice; `None` is Auto (the detected format).
    pub chosen: Option<Format>,
    pub transcript: Rc<Transcript>,
    pub report: Rc<TranscriptReport>,
    pub rows: Rc<[MessageRow]>,
    /// Index into `report.reports` of the text shown in full.
    pub selected: Option<usize>,
    /// The analysis of the selected text (for plain text: of the text).
    pub detail: Option<Rc<Analysis>>,
    /// The text to show in full whose whole report the analysis worker has yet to make (the
    /// transcript's report summed it up: a short text that passed); `detail` is the text shown
    /// before (or `None`) until it comes ([`Self::analysed`]).
    pub wanted: Option<WantedReport>,
    /// Wall time of reading and analysing, in milliseconds, when the caller measured it.
    pub millis: Option<f64>,
}

impl PartialEq for Document {
    /// The same input and selection (the analysis shown, which may come later, is compared by
    /// the views that show it: `Analysis` compares by its own `seq`).
    fn eq(&self, other: &Self) -> bool {
        (self.seq, self.selected) == (other.seq, other.selected)
    }
}

/// A text shown in full whose whole report is asked of the analysis worker (the page's wasm
/// holds no scorer): the analysis it will be (`seq`), which report (`index`), its text.
#[derive(Clone, Debug)]
pub struct WantedReport {
    pub seq: u64,
    pub index: usize,
    pub text: Rc<String>,
}

impl PartialEq for WantedReport {
    fn eq(&self, other: &Self) -> bool {
        (self.seq, self.index) == (other.seq, other.index)
    }
}

/// The document's verdict as the page states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overall {
    /// The worst message's verdict.
    Verdict(Verdict),
    /// There are texts, but every one is too short to judge.
    TooShort,
    /// Nothing to analyse: not text, or no message found.
    Nothing,
}

impl Document {
    /// Reads `bytes` in `chosen` (or the detected format) and analyses every message against
    /// the default thresholds.
    #[cfg(test)]
    pub fn read(seq: u64, source: Source, bytes: Rc<[u8]>, chosen: Option<Format>) -> Document {
        Self::read_with(seq, source, bytes, chosen, &Thresholds::SEED)
    }

    /// [`Self::read`] against `thresholds` (the page reads in a worker: for tests).
    #[cfg(test)]
    pub fn read_with(
        seq: u64,
        source: Source,
        bytes: Rc<[u8]>,
        chosen: Option<Format>,
        thresholds: &Thresholds,
    ) -> Document {
        let options = JudgeOptions { thresholds: *thresholds, ..JudgeOptions::default() };
        let mut doc = Document::from_loaded(seq, source, JudgedDocument::read_with(&bytes, chosen, &options));
        doc.bytes = Some(bytes);
        doc.with_wanted_report()
    }

    /// This document with the report it wants made here, as the analysis worker makes it (for
    /// tests: the page's wasm holds no scorer).
    #[cfg(test)]
    pub fn with_wanted_report(self) -> Document {
        match self.wanted.clone() {
            Some(w) => self.analysed(&w, coherency_core::analyze::analyze(&w.text)).unwrap_or(self),
            None => self,
        }
    }

    /// The thresholds the document was judged against: its worst text's (a report that
    /// passed is summed up only under the defaults, so a summed-up one means the defaults).
    pub fn thresholds(&self) -> Thresholds {
        let worst = self.report.worst().and_then(|w| w.report.whole());
        worst.map_or(Thresholds::SEED, |r| r.thresholds)
    }

    /// A document from what the worker read and analysed (no bytes kept: see [`Self::bytes`]).
    pub fn from_loaded(seq: u64, source: Source, loaded: JudgedDocument) -> Document {
        let JudgedDocument { size, detected, chosen, transcript, report } = loaded;
        let rows: Rc<[MessageRow]> = report.rows(&transcript).into();
        let mut doc = Document {
            seq,
            source,
            bytes: None,
            size,
            detected,
            chosen,
            transcript: Rc::new(transcript),
            report: Rc::new(report),
            rows,
            selected: None,
            detail: None,
            wanted: None,
            millis: None,
        };
        if doc.is_plain_text() {
            // Exactly as before formats existed: the text (BOM dropped) and the core's report of
            // it (for a short text that passed, made in the worker: `wanted`).
            let text = doc.transcript.messages.first().map(|m| m.text.clone()).unwrap_or_default();
            let report =
                doc.report.reports.first().and_then(|r| r.report.whole().cloned()).filter(|r| r.bytes == text.len());
            match report {
                Some(report) => {
                    doc.detail = Some(Rc::new(Analysis::with_report(seq, doc.source.clone(), text, report)))
                }
                None => doc.wanted = Some(WantedReport { seq, index: 0, text }),
            }
        } else if let Some(first) = default_selection(&doc.report, &doc.rows) {
            doc = doc.select(seq, first);
        }
        doc
    }

    /// This document with report `select` shown, when it names one of its reports (a result
    /// link's selection); as it is otherwise.
    pub fn selecting(self, detail_seq: u64, select: Option<usize>) -> Document {
        match select.filter(|&i| i < self.report.reports.len() && self.selected != Some(i)) {
            // A document just read: nothing of its first selection stays while the one asked for
            // is made.
            Some(i) => self.showing(None, None, None).select(detail_seq, i),
            None => self,
        }
    }

    /// This document with report `index` shown in full (`detail_seq` numbers its analysis).
    pub fn select(&self, detail_seq: u64, index: usize) -> Document {
        let Some(r) = self.report.reports.get(index) else {
            return self.showing(None, None, None);
        };
        let text: Rc<String> = r.text(&self.transcript).into_owned().into();
        // The core analysed exactly this text and kept its report, or a summary when the text
        // is short and passed: then (or if the sizes ever disagree, rather than highlight the
        // wrong bytes) its whole report is asked of the analysis worker, which for such a text
        // is quick.
        match r.report.whole() {
            Some(whole) if whole.bytes == text.len() => {
                let analysis = Analysis::with_report(detail_seq, self.source.clone(), text, Rc::clone(whole));
                self.showing(Some(index), Some(Rc::new(analysis)), None)
            }
            // Meanwhile the text shown before stays (the page keeps its height and where it is
            // scrolled to), until the new one comes.
            _ => self.showing(Some(index), self.detail.clone(), Some(WantedReport { seq: detail_seq, index, text })),
        }
    }

    /// This document with the whole report `wanted` asked for shown, when it is still wanted
    /// (`None` otherwise: another text was shown since).
    pub fn analysed(&self, wanted: &WantedReport, report: Report) -> Option<Document> {
        let asked = self.wanted.as_ref().filter(|w| *w == wanted)?;
        let mut analysis = Analysis::with_report(asked.seq, self.source.clone(), Rc::clone(&asked.text), report);
        if self.is_plain_text() {
            analysis.millis = self.millis;
        }
        Some(self.showing(self.selected, Some(Rc::new(analysis)), None))
    }

    /// This document with `selected` shown as `detail`, or `wanted`.
    fn showing(&self, selected: Option<usize>, detail: Option<Rc<Analysis>>, wanted: Option<WantedReport>) -> Document {
        Document {
            seq: self.seq,
            source: self.source.clone(),
            bytes: self.bytes.clone(),
            size: self.size,
            detected: self.detected,
            chosen: self.chosen,
            transcript: Rc::clone(&self.transcript),
            report: Rc::clone(&self.report),
            rows: Rc::clone(&self.rows),
            selected,
            detail,
            wanted,
            millis: self.millis,
        }
    }

    /// The format the document was read in.
    pub fn format(&self) -> Format {
        self.chosen.unwrap_or(self.detected)
    }

    /// Plain text: one message, shown as the page always did (no table).
    pub fn is_plain_text(&self) -> bool {
        self.format() == Format::Text
    }

    pub fn overall(&self) -> Overall {
        match self.report.verdict {
            None => Overall::Nothing,
            Some(_) if self.report.all_too_short() => Overall::TooShort,
            Some(v) => Overall::Verdict(v),
        }
    }

    /// The one message the page shows instead of any result when the input is not text.
    pub fn not_text_message(&self) -> Option<&str> {
        (self.format() == Format::Binary).then(|| {
            self.transcript.diagnostics.first().map_or("This file is not text: nothing to analyse.", |d| &d.message)
        })
    }

    /// The row shown in full, if any.
    pub fn selected_row(&self) -> Option<&MessageRow> {
        let selected = self.selected?;
        self.rows.iter().find(|r| r.report == selected)
    }

    /// Whether report `index` is too short to judge.
    pub fn too_short(&self, index: usize) -> bool {
        self.report.reports.get(index).is_some_and(|r| r.report.too_short())
    }

    /// "3 analysed texts: 2 FAIL, 1 PASS" (too-short texts counted apart).
    pub fn counts_line(&self) -> String {
        let reports = &self.report.reports;
        let short = reports.iter().filter(|r| r.report.too_short()).count();
        let mut parts = Vec::new();
        for v in [Verdict::Fail, Verdict::Warn, Verdict::Pass] {
            let n = reports.iter().filter(|r| !r.report.too_short() && r.report.verdict() == v).count();
            if n > 0 {
                parts.push(format!("{} {}", thousands(n), v.as_str()));
            }
        }
        if short > 0 {
            parts.push(format!("{} too short to judge", thousands(short)));
        }
        let inputs = reports.iter().filter(|r| !r.judged).count();
        let not_judged = match inputs {
            0 => String::new(),
            n => format!(" · {} not judged", plural(n, "input", "inputs")),
        };
        format!("{}: {}{not_judged}", plural(reports.len(), "analysed text", "analysed texts"), parts.join(", "))
    }

    /// The conversation whose judgement across turns the verdict states: one of two turns or
    /// more whose verdict is the document's, above PASS (the first such). `None` when the
    /// verdict comes from texts alone (a single reply, a stream) or is PASS.
    pub fn deciding_conversation(&self) -> Option<&ConversationReport> {
        coherency_core::render::deciding_conversation(&self.report)
    }

    /// The check that set the document's verdict, for its headline (see
    /// `coherency_core::render::deciding_check`).
    pub fn tripped(&self) -> Option<coherency_core::analyze::Metric> {
        coherency_core::render::deciding_check(&self.report)
    }

    /// "conversation 0, from turn 3": where the deciding conversation turns degenerate.
    pub fn conversation_place(c: &ConversationReport) -> String {
        coherency_core::render::conversation_place(c)
    }

    /// "file vllm.sse · 2,771 bytes", "your text · 120 bytes", "a built-in sample · 3,210 bytes",
    /// "the input a result link carried · 900 bytes".
    pub fn origin_text(&self) -> String {
        let what = match &self.source {
            Source::Input => "your text".to_string(),
            Source::Sample(_) => "a built-in sample".to_string(),
            Source::File(name) => format!("file {name}"),
            Source::Live => "the live stream".to_string(),
            Source::Link => "the input a result link carried".to_string(),
        };
        format!("{what} · {}", plural(self.size, "byte", "bytes"))
    }
}

/// The report shown first: the worst row, skipping texts too short to judge when another
/// text of the same verdict can be judged.
pub fn default_selection(report: &TranscriptReport, rows: &[MessageRow]) -> Option<usize> {
    let first = rows.first()?;
    let judged = rows
        .iter()
        .find(|r| r.verdict == first.verdict && report.reports.get(r.report).is_some_and(|m| !m.report.too_short()));
    Some(judged.unwrap_or(first).report)
}

/// "assistant reasoning · conversation 1, turn 0 · line 3": where a row's text is.
pub fn row_place(row: &MessageRow) -> String {
    let line = row.line.map(|l| format!(" · line {}", thousands(l))).unwrap_or_default();
    // A tool's result says "tool (bash)", not "tool tool (bash)".
    let what =
        if row.role == row.channel { row.channel_text() } else { format!("{} {}", row.role, row.channel_text()) };
    format!("{what} · conversation {}, turn {}{line}", thousands(row.conversation), thousands(row.index))
}

/// What a stream capture says about itself, as `(label, value)` pairs for a definition list.
pub fn stream_facts(format: Format, s: &StreamInfo) -> Vec<(&'static str, String)> {
    let n = |v: Option<u64>| v.map_or("?".to_string(), |v| thousands(v as usize));
    let marker = match format {
        Format::Sse => "data: [DONE]",
        Format::ResponsesSse => "response.completed",
        Format::AnthropicSse => "message_stop",
        Format::OllamaNdjson => "\"done\": true",
        _ => "its end marker",
    };
    let ended = if s.saw_done {
        format!("cleanly, with {marker}")
    } else {
        format!("without {marker}: the stream was cut or is incomplete")
    };
    let mut facts = vec![
        ("Chunks", thousands(s.chunks)),
        ("Keep-alive comments", thousands(s.comments)),
        ("Ended", ended),
        ("Finish reason", s.finish_reason.clone().unwrap_or_else(|| "not given".to_string())),
    ];
    let usage = s.usage.as_ref().map_or("not reported".to_string(), |u| {
        let mut text = format!("{} prompt + {} completion tokens", n(u.prompt_tokens), n(u.completion_tokens));
        if let Some(r) = u.reasoning_tokens {
            text += &format!(" ({} reasoning)", thousands(r as usize));
        }
        text
    });
    facts.push(("Usage", usage));
    if let Some(model) = &s.model {
        facts.push(("Model", model.clone()));
    }
    facts
}

/// The format menu's entries: `(value, label)`, Auto first, then every format but binary.
pub fn format_options(detected: Format) -> Vec<(&'static str, String)> {
    let mut out = vec![("auto", format!("Auto: {}", detected.label()))];
    out.extend(Format::ALL.into_iter().filter(|f| *f != Format::Binary).map(|f| (f.name(), f.label().to_string())));
    out
}

/// The format-menu value back to a choice: `None` for Auto (or anything unknown).
pub fn format_choice(value: &str) -> Option<Format> {
    Format::from_name(value).filter(|f| *f != Format::Binary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::{analyze, Metric};
    use coherency_core::samples::capture_samples;

    fn doc(bytes: &[u8]) -> Document {
        Document::read(1, Source::File("f".into()), bytes.into(), None)
    }

    fn fixture(name: &str) -> Vec<u8> {
        let path = coherency_test_support::fixture(&format!("formats/{name}"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn plain_text_is_analysed_as_before() {
        let text = format!("intro\n{}", "Let me look again.\n".repeat(20));
        let d = Document::read(1, Source::Input, text.as_bytes().into(), None);
        assert!(d.is_plain_text());
        let a = d.detail.as_ref().map(|a| (a.text.to_string(), a.report.clone()));
        assert_eq!(a, Some((text.clone(), Rc::new(analyze(&text)))));
        assert_eq!(d.overall(), Overall::Verdict(Verdict::Fail));
        // BOM dropped, as the core reads text.
        let d = doc("\u{feff}hello there, plain words".as_bytes());
        assert_eq!(d.detail.as_ref().map(|a| a.text.to_string()), Some("hello there, plain words".to_string()));
    }

    #[test]
    fn empty_text_still_gets_the_calm_message() {
        let d = Document::read(1, Source::Input, Rc::from(&b""[..]), None);
        let msg = d.detail.as_ref().and_then(|a| a.too_short_message()).unwrap_or_default();
        assert!(msg.starts_with("The text box is empty"), "{msg}");
        let d = doc(b"   ");
        let msg = d.detail.as_ref().and_then(|a| a.too_short_message()).unwrap_or_default();
        assert!(msg.starts_with("The file holds only whitespace"), "{msg}");
    }

    #[test]
    fn reasoning_loop_stream_selects_the_reasoning_and_highlights_it() {
        let d = doc(&fixture("deepseek_reasoning_loop.sse"));
        assert_eq!((d.detected, d.format()), (Format::Sse, Format::Sse));
        assert_eq!(d.overall(), Overall::Verdict(Verdict::Fail));
        let first = &d.rows[0];
        assert_eq!((first.channel, first.tripped), ("reasoning", Some(Metric::Loop)));
        assert_eq!(d.selected, Some(first.report));
        let a = d.detail.as_ref().expect("a detail");
        assert_eq!(a.report.verdict, Verdict::Fail);
        assert!(a.text.starts_with("The invoices are"), "{}", &a.text[..40]);
        assert_eq!(a.report.spans.len(), 2, "36 repeated lines back to back as one span, and the loop");
        assert_eq!(d.counts_line(), "3 analysed texts: 2 FAIL, 1 PASS");
        assert_eq!(row_place(first), "assistant reasoning · conversation 0, turn 0 · line 3");
    }

    #[test]
    fn a_combined_row_shows_reasoning_and_content_joined() {
        let d = doc(&fixture("deepseek_reasoning_loop.sse"));
        let combined = d.rows.iter().find(|r| r.channel == "combined").expect("a combined row");
        let s = d.select(7, combined.report);
        let a = s.detail.as_ref().expect("a detail");
        assert_eq!(a.seq, 7);
        assert_eq!(a.text.len(), combined.bytes);
        assert!(a.text.contains("invoices.\n\n\nThe three invoices total"), "joined by a blank line");
        let kept = d.report.reports[combined.report].report.whole().expect("a FAIL keeps its report");
        assert!(Rc::ptr_eq(&a.report, kept), "the core's report, not a new one");
        // A short reply that passed keeps a summary: opened, its report is made again, the same.
        let passed = d.rows.iter().find(|r| r.verdict == Verdict::Pass).expect("a passing row");
        assert!(d.report.reports[passed.report].report.whole().is_none());
        let opened = d.select(9, passed.report);
        // Its whole report is asked of the worker; the text shown before stays meanwhile.
        assert_eq!(opened.detail.as_ref().map(|a| a.seq), d.detail.as_ref().map(|a| a.seq));
        assert_eq!(s.select(10, passed.report).detail.as_ref().map(|a| a.seq), Some(7));
        let wanted = opened.wanted.clone().expect("wanted");
        assert_eq!((wanted.seq, wanted.index), (9, passed.report));
        let opened = opened.analysed(&wanted, analyze(&wanted.text)).expect("still wanted");
        assert!(opened.analysed(&wanted, analyze(&wanted.text)).is_none(), "no longer wanted");
        let a = opened.detail.as_ref().expect("a detail");
        assert_eq!(*a.report, analyze(&a.text));
        assert_eq!((a.text.len(), a.report.verdict), (passed.bytes, Verdict::Pass));
        assert_ne!(s, d, "another selection is another view");
        assert_eq!(s.select(8, 99).detail, None, "an unknown row selects nothing");
    }

    #[test]
    fn overriding_the_format_rereads_the_same_bytes() {
        let d = doc(&fixture("vllm.sse"));
        let reread = |d: &Document, seq, chosen| {
            let bytes = Rc::clone(d.bytes.as_ref().expect("the bytes are kept"));
            Document::read(seq, d.source.clone(), bytes, chosen)
        };
        let t = reread(&d, 2, Some(Format::Text));
        assert_eq!((t.detected, t.format(), t.is_plain_text()), (Format::Sse, Format::Text, true));
        assert_eq!(t.detail.as_ref().map(|a| a.text.len()), Some(d.size));
        assert_eq!(reread(&t, 3, None).format(), Format::Sse);
        assert_eq!(format_choice("auto"), None);
        assert_eq!(format_choice("binary"), None);
        assert_eq!(format_choice("jsonl"), Some(Format::Jsonl));
        let options = format_options(Format::Sse);
        assert_eq!(options.len(), Format::ALL.len());
        assert_eq!(options[0], ("auto", "Auto: OpenAI chat completion stream (SSE)".to_string()));
    }

    #[test]
    fn binary_gets_one_message_and_nothing_else() {
        let d = doc(&fixture("binary.bin"));
        assert_eq!(d.overall(), Overall::Nothing);
        assert!(d.rows.is_empty() && d.detail.is_none());
        let msg = d.not_text_message().unwrap_or_default();
        assert!(msg.starts_with("Not a text file: this is a PNG image"), "{msg}");
    }

    #[test]
    fn all_too_short_is_said_and_judged_texts_are_shown_first() {
        let d = doc(&fixture("anthropic_overloaded.sse"));
        assert_eq!(d.overall(), Overall::TooShort);
        // requests.jsonl: the FAIL first; a PASS log shows a judged text before short ones.
        let d = doc(&fixture("requests.jsonl"));
        assert_eq!(d.overall(), Overall::Verdict(Verdict::Fail));
        assert_eq!(d.selected, Some(d.rows[0].report));
        let d = doc(&fixture("claude_session.jsonl"));
        let shown = d.selected.expect("a selection");
        assert!(!d.too_short(shown));
    }

    #[test]
    fn a_tool_loop_of_short_texts_is_a_verdict_not_too_short() {
        // Six identical calls, each with the same short result: every text is too short to judge
        // on its own, but the tool-call check FAILs the conversation, and so the document.
        let mut lines = vec![r#"{"type":"user","message":{"role":"user","content":"fix it"}}"#.to_string()];
        for k in 0..6 {
            let call = serde_json::json!({"type": "assistant", "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": format!("c{k}"), "name": "Read", "input": {"p": 1}}]}});
            let result = serde_json::json!({"type": "user", "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": format!("c{k}"), "content": "x"}]}});
            lines.push(call.to_string());
            lines.push(result.to_string());
        }
        let d = doc(lines.join("\n").as_bytes());
        assert_eq!(d.format(), Format::SessionJsonl);
        assert!(d.report.reports.iter().filter(|r| r.stream.is_none()).all(|r| r.report.too_short()), "short texts");
        assert_eq!(d.overall(), Overall::Verdict(Verdict::Fail));
        // Without the stream of its turns (the calls said again), every text is too short, and
        // the tool loop still stands.
        let mut texts = (*d.report).clone();
        texts.reports.retain(|r| r.stream.is_none());
        assert!(!texts.all_too_short(), "the tool loop is a finding");
        texts.conversations.clear();
        assert!(texts.all_too_short());
        let c = d.deciding_conversation().expect("the conversation decides");
        assert!(c.reasons[0].starts_with("tool loop: `Read {p: 1}` called 6 times in a row"), "{:?}", c.reasons);
        assert_eq!(Document::conversation_place(c), "conversation 0, from turn 1");
    }

    #[test]
    fn stream_facts_say_how_the_stream_ended() {
        let d = doc(&fixture("vllm.sse"));
        let facts = stream_facts(d.format(), d.transcript.stream.as_ref().expect("stream info"));
        let get = |k: &str| facts.iter().find(|(l, _)| *l == k).map(|(_, v)| v.as_str());
        assert_eq!(get("Chunks"), Some("12"));
        assert_eq!(get("Ended"), Some("cleanly, with data: [DONE]"));
        assert_eq!(get("Finish reason"), Some("tool_calls"));
        assert_eq!(get("Usage"), Some("187 prompt + 49 completion tokens"));
        let cut = stream_facts(Format::Sse, &StreamInfo::default());
        assert!(cut.iter().any(|(l, v)| *l == "Ended" && v.contains("cut")));
        assert!(cut.iter().any(|(l, v)| *l == "Usage" && v == "not reported"));
    }

    #[test]
    fn the_stream_sample_reads_as_a_stream() {
        let sample = &capture_samples()[0];
        let d = Document::read(1, Source::Sample(sample.id), sample.text.as_bytes().into(), None);
        assert_eq!(d.format(), Format::Sse);
        assert_eq!(d.overall(), Overall::Verdict(Verdict::Fail));
        assert_eq!(d.selected_row().map(|r| r.channel), Some("reasoning"));
        assert_eq!(d.origin_text(), format!("a built-in sample · {} bytes", thousands(sample.text.len())));
    }

    #[test]
    fn a_document_from_the_worker_shows_what_a_direct_read_shows() {
        for name in ["deepseek_reasoning_loop.sse", "requests.jsonl", "plain_bom.txt", "binary.bin"] {
            let bytes = fixture(name);
            let direct = doc(&bytes);
            let wire = coherency_worker_wire::wire::encode_all(JudgedDocument::read(&bytes, None));
            let back = coherency_worker_wire::wire::decode(&wire, &bytes).expect("the wire reads back");
            // A text whose report was summed up has it made by the analysis worker, as here.
            let w = Document::from_loaded(1, Source::File("f".into()), back).with_wanted_report();
            assert_eq!((w.bytes.is_none(), w.size, w.format()), (true, bytes.len(), direct.format()), "{name}");
            assert_eq!((&w.transcript, &w.rows), (&direct.transcript, &direct.rows), "{name}");
            assert_eq!(w.selected, direct.selected, "{name}");
            // Verdicts as data; ratios may differ in the last bit (see `wire`).
            let verdicts = |d: &Document| d.report.reports.iter().map(|r| r.report.verdict()).collect::<Vec<_>>();
            assert_eq!(verdicts(&w), verdicts(&direct), "{name}");
            let shown = |d: &Document| {
                d.detail.as_ref().map(|a| (a.text.to_string(), a.report.verdict, a.report.spans.clone()))
            };
            assert_eq!(shown(&w), shown(&direct), "{name}");
            assert_eq!(w.origin_text(), direct.origin_text());
            assert!(w.bytes.is_none(), "a worker's file is read again by the worker (Effect::ReadFileAgain)");
        }
    }
}
