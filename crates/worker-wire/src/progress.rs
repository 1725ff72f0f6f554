//! The worker's progress reports as they travel to the page (in postcard): what stage the work
//! is at, bytes read, messages found, texts analysed, the worst verdict so far. The page words
//! them (`src/file_load/load_view.rs`).

use serde::{Deserialize, Serialize};

use coherency_core::judge::AnalysisProgress;

/// What the worker is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Starting the worker.
    #[default]
    Starting,
    /// Reading the file in slices.
    Reading,
    /// Finding the messages in the bytes read.
    Parsing,
    /// Analysing each text.
    Analyzing,
    /// The page takes in the result, piece by piece.
    Preparing,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Starting => "starting",
            Stage::Reading => "reading",
            Stage::Parsing => "parsing",
            Stage::Analyzing => "analysing",
            Stage::Preparing => "preparing",
        }
    }
}

/// One progress report (the worker sends it in postcard; the page adds `Preparing` itself).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub stage: Stage,
    /// Bytes of the file read so far.
    pub read: usize,
    /// Messages found (known once the file is parsed).
    pub messages: Option<usize>,
    pub analysis: Option<AnalysisProgress>,
    /// Pieces of the result taken in by the page, of how many.
    pub prepared: Option<(usize, usize)>,
}
