//! Reading a file off the main thread, as the page shows it: the worker's progress reports
//! (bytes read, messages found, texts analysed, the worst verdict so far), their wording, and
//! the size limit with its message. Pure: unit-tested natively.

use std::rc::Rc;

use coherency_core::analyze::Verdict;
use coherency_core::wording::{plural, thousands};

/// The biggest file the page reads. Measured (scripts/bench-page): a JSONL log costs the tab
/// about 4.5 × its size at the peak, one long plain text about 10 × (the loop checks' token and
/// shingle tables for the whole text live in the worker's wasm memory, which cannot exceed
/// 4 GiB): 100 MB stays inside what a browser tab may use. The CLI has no such limit.
pub const MAX_FILE_BYTES: usize = 100_000_000;

pub use coherency_worker_wire::progress::{Progress, Stage};

/// A file being read: what the progress panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Loading {
    pub name: Rc<str>,
    pub size: usize,
    pub progress: Progress,
    /// `performance.now()` when the page started on it.
    pub started: Option<f64>,
}

impl Loading {
    pub fn new(name: &str, size: usize, started: Option<f64>) -> Loading {
        Loading { name: name.into(), size, progress: Progress::default(), started }
    }

    /// "Reading big.jsonl · 50.0 MB".
    pub fn heading(&self) -> String {
        format!("Reading {} · {}", self.name, size_text(self.size))
    }

    /// "12.0 MB of 50.0 MB read".
    pub fn read_text(&self) -> String {
        format!("{} of {} read", size_text(self.progress.read.min(self.size)), size_text(self.size))
    }

    /// "40,840 messages found", or what is being done before that is known.
    pub fn messages_text(&self) -> String {
        match (self.progress.messages, self.progress.stage) {
            (Some(n), _) => format!("{} found", plural(n, "message", "messages")),
            (None, Stage::Parsing) => "Finding the messages…".to_string(),
            (None, _) => "Messages: counted once the file is read".to_string(),
        }
    }

    /// "1,234 of 44,834 texts analysed (12.0 MB of 47.5 MB)".
    pub fn analyzed_text(&self) -> String {
        match &self.progress.analysis {
            Some(a) => format!(
                "{} of {} analysed ({} of {})",
                thousands(a.texts_done),
                plural(a.texts, "text", "texts"),
                size_text(a.bytes_done),
                size_text(a.bytes)
            ),
            None => "Analysis: starts once the messages are found".to_string(),
        }
    }

    /// Analysed bytes and their total, for the progress bar.
    pub fn analyzed_fraction(&self) -> Option<(usize, usize)> {
        self.progress.analysis.map(|a| (a.bytes_done, a.bytes))
    }

    /// A single text longer than this is analysed in one go: its bar cannot move meanwhile.
    pub fn one_long_text(&self) -> bool {
        self.progress.analysis.is_some_and(|a| a.texts_done < a.texts && a.texts <= 2 && a.bytes >= 4_000_000)
    }

    /// What the worst text so far says about the file: a FAIL is already the file's verdict;
    /// a PASS or WARN of a part is provisional (`true`: shown in a neutral colour, "so far",
    /// never as the green verdict), as the rest may still FAIL.
    pub fn so_far(&self) -> Option<(Verdict, String, bool)> {
        let a = self.progress.analysis?;
        if let Some((head, verdict)) = a.preview.filter(|(_, v)| a.worst.is_none_or(|w| *v > w)) {
            let text = format!(
                "{} so far, in the first {} of a long text; analysing the whole of it…",
                verdict.as_str(),
                size_text(head)
            );
            return Some((verdict, text, verdict != Verdict::Fail));
        }
        let worst = a.worst?;
        let done = a.texts_done >= a.texts;
        let text = match (worst, done) {
            (_, true) => format!("{}: every text is analysed; showing the result…", worst.as_str()),
            (Verdict::Fail, false) => {
                "already the file's verdict: a text FAILs (the rest cannot undo it); analysing the others…".to_string()
            }
            (v, false) => format!("{} so far; analysing the rest…", v.as_str()),
        };
        Some((worst, text, !done && worst != Verdict::Fail))
    }

    /// "Preparing the result: 12 of 40 pieces".
    pub fn prepared_text(&self) -> Option<String> {
        let (done, of) = self.progress.prepared?;
        Some(format!("Showing the result: {} of {} pieces taken in", thousands(done), thousands(of)))
    }
}

/// "812 bytes", "12.3 KB", "50.0 MB", "1.20 GB" (decimal units).
pub fn size_text(bytes: usize) -> String {
    let b = bytes as f64;
    match bytes {
        0..=999 => format!("{bytes} bytes"),
        1_000..=999_999 => format!("{:.1} KB", b / 1e3),
        1_000_000..=999_999_999 => format!("{:.1} MB", b / 1e6),
        _ => format!("{:.2} GB", b / 1e9),
    }
}

/// The size limit in force: [`MAX_FILE_BYTES`], or lower when the page's URL says
/// `file-limit=BYTES` (for trying the message without a huge file).
pub fn file_limit(search: &str) -> usize {
    crate::model::limit_param(search, "file-limit=", MAX_FILE_BYTES)
}

/// Why a file of `size` bytes is not read, or `None` when it is within `limit`.
pub fn too_big(size: usize, limit: usize) -> Option<String> {
    (size > limit).then(|| {
        format!(
            "it is {}, and this page reads files of up to {} (bigger ones would exhaust the browser tab's memory). \
             The command-line tool has no such limit: coherency analyze FILE",
            size_text(size),
            size_text(limit)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::judge::AnalysisProgress;

    fn loading(progress: Progress) -> Loading {
        Loading { progress, ..Loading::new("big.jsonl", 50_000_000, None) }
    }

    #[test]
    fn sizes_read_in_decimal_units() {
        assert_eq!(size_text(812), "812 bytes");
        assert_eq!(size_text(12_345), "12.3 KB");
        assert_eq!(size_text(50_000_000), "50.0 MB");
        assert_eq!(size_text(MAX_FILE_BYTES), "100.0 MB");
        assert_eq!(size_text(1_200_000_000), "1.20 GB");
    }

    #[test]
    fn the_limit_can_only_be_lowered_by_the_url() {
        assert_eq!(file_limit(""), MAX_FILE_BYTES);
        assert_eq!(file_limit("?file-limit=1000"), 1000);
        assert_eq!(file_limit("?mode=live&file-limit=5000"), 5000);
        assert_eq!(file_limit("?file-limit=99999999999"), MAX_FILE_BYTES);
        assert_eq!(file_limit("?file-limit=abc"), MAX_FILE_BYTES);
        assert_eq!(too_big(MAX_FILE_BYTES, MAX_FILE_BYTES), None);
        let msg = too_big(300_000_000, MAX_FILE_BYTES).unwrap_or_default();
        assert!(msg.starts_with("it is 300.0 MB, and this page reads files of up to 100.0 MB"), "{msg}");
    }

    #[test]
    fn progress_is_said_in_words_at_every_stage() {
        let l = loading(Progress::default());
        assert_eq!(l.heading(), "Reading big.jsonl · 50.0 MB");
        assert_eq!(l.read_text(), "0 bytes of 50.0 MB read");
        assert!(l.messages_text().starts_with("Messages: counted once"));
        assert_eq!(l.so_far(), None);

        let l = loading(Progress { stage: Stage::Parsing, read: 50_000_000, ..Progress::default() });
        assert_eq!(l.read_text(), "50.0 MB of 50.0 MB read");
        assert_eq!(l.messages_text(), "Finding the messages…");

        let analysis = AnalysisProgress {
            texts_done: 1234,
            texts: 44_834,
            bytes_done: 12_000_000,
            bytes: 47_500_000,
            worst: Some(Verdict::Fail),
            preview: None,
        };
        let l = loading(Progress {
            stage: Stage::Analyzing,
            read: 50_000_000,
            messages: Some(40_840),
            analysis: Some(analysis),
            prepared: None,
        });
        assert_eq!(l.messages_text(), "40,840 messages found");
        assert_eq!(l.analyzed_text(), "1,234 of 44,834 texts analysed (12.0 MB of 47.5 MB)");
        assert_eq!(l.analyzed_fraction(), Some((12_000_000, 47_500_000)));
        assert!(!l.one_long_text());
        let (v, text, provisional) = l.so_far().unwrap_or((Verdict::Pass, String::new(), true));
        assert_eq!(v, Verdict::Fail);
        assert!(text.starts_with("already the file's verdict"), "{text}");
        assert!(!provisional, "a FAIL is final");

        let one =
            AnalysisProgress { texts_done: 0, texts: 1, bytes_done: 0, bytes: 50_000_000, worst: None, preview: None };
        assert!(loading(Progress { analysis: Some(one), ..Progress::default() }).one_long_text());
        let previewed = AnalysisProgress { preview: Some((2_097_152, Verdict::Fail)), ..one };
        let (v, text, provisional) =
            loading(Progress { analysis: Some(previewed), ..Progress::default() }).so_far().unwrap();
        assert_eq!(
            (v, text.as_str(), provisional),
            (Verdict::Fail, "FAIL so far, in the first 2.1 MB of a long text; analysing the whole of it…", false)
        );
        // A PASS of a part is not the verdict: provisional until every text is analysed.
        let passed = AnalysisProgress { preview: Some((2_097_152, Verdict::Pass)), ..one };
        let (v, text, provisional) =
            loading(Progress { analysis: Some(passed), ..Progress::default() }).so_far().unwrap();
        assert_eq!((v, provisional), (Verdict::Pass, true), "{text}");
        assert!(text.starts_with("PASS so far"), "{text}");
        let some = AnalysisProgress { texts_done: 3, texts: 9, worst: Some(Verdict::Pass), ..one };
        assert_eq!(loading(Progress { analysis: Some(some), ..Progress::default() }).so_far().map(|s| s.2), Some(true));
        let all = AnalysisProgress { texts_done: 9, ..some };
        assert_eq!(loading(Progress { analysis: Some(all), ..Progress::default() }).so_far().map(|s| s.2), Some(false));
        let l = loading(Progress { stage: Stage::Preparing, prepared: Some((3, 40)), ..Progress::default() });
        assert_eq!(l.prepared_text().as_deref(), Some("Showing the result: 3 of 40 pieces taken in"));
    }

    #[test]
    fn progress_travels_in_postcard() {
        let analysis =
            AnalysisProgress { worst: Some(Verdict::Warn), preview: Some((9, Verdict::Fail)), ..Default::default() };
        for p in [
            Progress { stage: Stage::Reading, read: 4_194_304, ..Progress::default() },
            Progress {
                stage: Stage::Analyzing,
                messages: Some(7),
                analysis: Some(analysis),
                prepared: Some((1, 2)),
                read: 5,
            },
        ] {
            let bytes = postcard::to_allocvec(&p).unwrap_or_default();
            assert_eq!(postcard::from_bytes::<Progress>(&bytes).ok(), Some(p));
        }
    }
}
