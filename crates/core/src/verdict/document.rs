//! A document read in a format and judged: its size, the detected and chosen formats, the
//! transcript and its reports. What the page shows (the worker computes it for files) and the
//! CLI prints, for one input.

use super::authorship::JudgeOptions;
use super::judge::judge_transcript_with;
use super::report::TranscriptReport;
use crate::ingest::{self, Format, Transcript};

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
    /// reads files, is judged with [`super::judge_transcript_with_progress`] instead.)
    pub fn read(bytes: &[u8], chosen: Option<Format>) -> JudgedDocument {
        Self::read_with(bytes, chosen, &JudgeOptions::default())
    }

    /// [`Self::read`], judged under `options` (the CLI's `--judge-inputs`).
    pub fn read_with(bytes: &[u8], chosen: Option<Format>, options: &JudgeOptions) -> JudgedDocument {
        let detected = ingest::detect(bytes);
        let transcript = ingest::parse(bytes, chosen.unwrap_or(detected));
        let report = judge_transcript_with(&transcript, options, &mut |_| {});
        JudgedDocument { size: bytes.len(), detected, chosen, transcript, report }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::Verdict;
    use crate::verdict::judge_transcript;

    #[test]
    fn a_document_is_read_as_detected_or_as_chosen() {
        let capture = b"data: {\"choices\":[{\"delta\":{\"content\":\"Hello there, how are you today?\"}}]}\n\n";
        let doc = JudgedDocument::read(capture, None);
        assert_eq!((doc.size, doc.detected, doc.chosen), (capture.len(), Format::Sse, None));
        assert_eq!(doc.transcript, ingest::read(capture));
        assert_eq!(doc.report, judge_transcript(&doc.transcript));
        let text = JudgedDocument::read(capture, Some(Format::Text));
        assert_eq!((text.detected, text.transcript.format), (Format::Sse, Format::Text));
        assert_eq!(text.report.reports[0].report.bytes, capture.len());
        assert_eq!(JudgedDocument::read(b"", None).report.verdict, Some(Verdict::Pass));
    }
}
