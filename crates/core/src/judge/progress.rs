//! How far judging a transcript has got, for a progress display (the page's worker posts it
//! to the page in postcard), and the preview a long text gets before its whole is judged.

use serde::{Deserialize, Serialize};

use crate::analyze::Verdict;

/// How far [`Judging`](super::Judging) has got:
/// texts and their bytes analysed so far (a text met again counts as analysed), of how many,
/// and the worst verdict so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisProgress {
    pub texts_done: usize,
    pub texts: usize,
    pub bytes_done: usize,
    pub bytes: usize,
    /// The worst verdict of the texts analysed so far (a FAIL here is the file's verdict).
    pub worst: Option<Verdict>,
    /// While a long text (≥ [`PREVIEW_OVER`] bytes) is analysed: the verdict of its first
    /// `.0` bytes, judged first so that a verdict so far comes in a fraction of the time.
    #[serde(default)]
    pub preview: Option<(usize, Verdict)>,
}

/// Texts at least this long get a preview: their first [`PREVIEW_BYTES`] judged first.
pub const PREVIEW_OVER: usize = 8 << 20;
/// How much of a long text the preview judges: enough for any loop that starts near the top
/// (256 KiB is some 65,000 tokens, eight long generations), little enough to cost the page
/// next to nothing of a long text's analysis (it is judged again with the whole; at 1 MiB the
/// early verdict took 0.2 s of the first worker's 4.5 s for 50 MB of prose, at 2 MiB 0.45 s).
pub const PREVIEW_BYTES: usize = 256 << 10;
