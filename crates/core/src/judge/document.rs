//! A document read in a format and judged: its size, the detected and chosen formats, the
//! transcript and its reports. What the page shows (the worker computes it for files) and the
//! CLI prints, for one input.

use super::authorship::JudgeOptions;
use std::collections::HashMap;

use super::kept_report::Analyzed;
use super::report::TranscriptReport;
use super::shares::{split_in_two, TextKey};
use super::transcript::Judging;
use crate::ingest::{self, Format, Transcript};
use crate::wording::plural;

/// One input read and judged.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedDocument {
    /// The input's size in bytes.
    pub size: usize,
    /// What [`ingest::detect`] said.
    pub detected: Format,
    /// The format asked for (`None`: the detected one).
    pub chosen: Option<Format>,
    pub transcript: Transcript,
    pub report: TranscriptReport,
}

impl JudgedDocument {
    /// Detects the format of `bytes`, reads them as `chosen` (`None`: as detected) and judges
    /// every text. (A document read in pieces through [`ingest::Reader`], as the page's worker
    /// reads files, is judged with [`super::Judging`] instead.)
    pub fn read(bytes: &[u8], chosen: Option<Format>) -> JudgedDocument {
        Self::read_with(bytes, chosen, &JudgeOptions::default())
    }

    /// [`Self::read`], judged under `options` (the CLI's `--judge-inputs`).
    pub fn read_with(bytes: &[u8], chosen: Option<Format>, options: &JudgeOptions) -> JudgedDocument {
        let detected = ingest::detect(bytes);
        let transcript = ingest::parse(bytes, chosen.unwrap_or(detected));
        let report = Judging::new(*options).judge(&transcript);
        JudgedDocument { size: bytes.len(), detected, chosen, transcript, report }
    }

    /// [`Self::read_with`], its texts analysed by `analyse` (given the transcript and the
    /// texts the judge analyses on their own, each distinct message text once and each reply
    /// joined: see [`split_in_two`]) before it is judged — the CLI analyses them on every core
    /// ([`Analyzed::of`] each); the same document as [`Self::read_with`].
    pub fn read_analyzing(
        bytes: &[u8],
        chosen: Option<Format>,
        options: &JudgeOptions,
        analyse: impl FnOnce(&Transcript, Vec<TextKey>) -> HashMap<TextKey, Analyzed>,
    ) -> JudgedDocument {
        let detected = ingest::detect(bytes);
        let transcript = ingest::parse(bytes, chosen.unwrap_or(detected));
        let [mut keys, other] = split_in_two(&transcript).shares;
        keys.extend(other);
        let analysed = analyse(&transcript, keys);
        let report = Judging::new(*options).analyzed(analysed).judge(&transcript);
        JudgedDocument { size: bytes.len(), detected, chosen, transcript, report }
    }

    /// Why the input holds no text, when it is read as plain text and is empty ("holds no
    /// text: it is empty") or only whitespace ("holds no text: only whitespace (5,000 bytes)").
    /// One answer for an empty download, a closed standard input and a blank file, whatever
    /// its size. `None` otherwise — in particular for a capture or log whose model output is
    /// blank: that is the model's output, judged as such.
    pub fn no_text(&self) -> Option<String> {
        let t = &self.transcript;
        if t.format != Format::Text || t.messages.iter().any(|m| !m.text.trim().is_empty()) {
            return None;
        }
        Some(match self.size {
            0 => "holds no text: it is empty".to_string(),
            n => format!("holds no text: only whitespace ({})", plural(n, "byte", "bytes")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{Thresholds, Verdict};
    use crate::judge::judge_transcript;

    #[test]
    fn a_document_is_read_as_detected_or_as_chosen() {
        let capture = b"data: {\"choices\":[{\"delta\":{\"content\":\"Hello there, how are you today?\"}}]}\n\n";
        let doc = JudgedDocument::read(capture, None);
        assert_eq!((doc.size, doc.detected, doc.chosen), (capture.len(), Format::Sse, None));
        assert_eq!(doc.transcript, ingest::read(capture));
        assert_eq!(doc.report, judge_transcript(&doc.transcript));
        let text = JudgedDocument::read(capture, Some(Format::Text));
        assert_eq!((text.detected, text.transcript.format), (Format::Sse, Format::Text));
        assert_eq!(text.report.reports[0].report.bytes(), capture.len());
        assert_eq!(JudgedDocument::read(b"", None).report.verdict, Some(Verdict::Pass));
    }

    #[test]
    fn a_document_whose_texts_are_analysed_before_is_the_same_document() {
        let looping = "I will check the file again. ".repeat(40);
        let mut log = String::new();
        for (k, reply) in ["Fine.", "The disk is full, so the job failed.", &looping, "Fine."].iter().enumerate() {
            log += &format!(
                "{{\"request\":{{\"messages\":[{{\"role\":\"user\",\"content\":\"Question {k}?\"}}]}},\
                 \"response\":{{\"choices\":[{{\"message\":{{\"role\":\"assistant\",\"content\":{reply:?},\
                 \"reasoning_content\":\"Let me think about question {k} first.\"}}}}]}}}}\n"
            );
        }
        for bytes in [
            log.as_bytes(),
            crate::samples::PROSE.as_bytes(),
            b"data: {\"choices\":[{\"delta\":{\"content\":\"Hi there, fine?\"}}]}\n\n",
        ] {
            let doc = JudgedDocument::read(bytes, None);
            let mut asked = 0;
            let analysed = JudgedDocument::read_analyzing(bytes, None, &JudgeOptions::default(), |t, keys| {
                asked = keys.len();
                keys.into_iter()
                    .filter_map(|k| Some((k, Analyzed::of(&super::super::text_of(t, k)?, &Thresholds::SEED))))
                    .collect()
            });
            assert!(asked > 0);
            assert_eq!(analysed, doc, "the same document, its texts analysed before");
        }
        let doc = JudgedDocument::read(log.as_bytes(), None);
        assert_eq!(doc.report.verdict, Some(Verdict::Fail), "the looping reply");
    }

    #[test]
    fn an_empty_or_blank_text_holds_no_text() {
        assert_eq!(JudgedDocument::read(b"", None).no_text().as_deref(), Some("holds no text: it is empty"));
        let blank = " \n\t\r\n".repeat(1_000);
        assert_eq!(
            JudgedDocument::read(blank.as_bytes(), None).no_text().as_deref(),
            Some("holds no text: only whitespace (5,000 bytes)")
        );
        assert_eq!(JudgedDocument::read(b"\n\nok\n", None).no_text(), None, "short is not blank");
        // A stream whose reply is blank was read: its output is judged, not refused.
        let capture = b"data: {\"choices\":[{\"delta\":{\"content\":\"\\n\\n\"}}]}\n\ndata: [DONE]\n\n";
        let doc = JudgedDocument::read(capture, None);
        assert_eq!((doc.detected, doc.no_text()), (Format::Sse, None));
    }
}
