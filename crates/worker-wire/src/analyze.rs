//! Texts to analyse and their reports, between the page or a worker and an analysis worker
//! (`analyzeInWorker` in `www/worker.js`): a big log's second share, and a text the page
//! opens whose report was summed up (a short text that passed: its full report is made in the
//! worker, the page's wasm holds no scorer). Postcard buffers, transferred. Pure: the round
//! trips are unit-tested natively.

use coherency_core::analyze::Report;

/// Texts to analyse, in order (a second worker's share: in the share's order).
pub fn encode_texts<S: AsRef<str>>(texts: &[S]) -> Vec<u8> {
    let texts: Vec<&str> = texts.iter().map(AsRef::as_ref).collect();
    postcard::to_allocvec(&texts).unwrap_or_default()
}

/// The texts [`encode_texts`] wrote, borrowed from `bytes`.
pub fn decode_texts(bytes: &[u8]) -> Result<Vec<&str>, String> {
    postcard::from_bytes(bytes).map_err(|_| "the texts to analyse did not read back".to_string())
}

/// The texts' reports, in their order.
pub fn encode_reports(reports: &[Report]) -> Vec<u8> {
    postcard::to_allocvec(reports).unwrap_or_default()
}

/// The reports [`encode_reports`] wrote; exactly `expected` of them, or an error.
pub fn decode_reports(bytes: &[u8], expected: usize) -> Result<Vec<Report>, String> {
    let reports: Vec<Report> =
        postcard::from_bytes(bytes).map_err(|_| "the analysis worker's reports did not read back".to_string())?;
    if reports.len() != expected {
        return Err(format!("the analysis worker sent {} reports for {expected} texts", reports.len()));
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::analyze;

    #[test]
    fn texts_and_reports_read_back_as_they_were() {
        // The drift sample's report carries a drift figure (the others' is `None`).
        let drift = coherency_core::samples::samples().into_iter().find(|s| s.id == "drift").expect("a sample").text;
        let texts = ["Let me check the file again.\n".repeat(30), "A fine answer.".to_string(), String::new(), drift];
        let bytes = encode_texts(&texts);
        let read = decode_texts(&bytes).unwrap();
        assert_eq!(read, texts.iter().map(String::as_str).collect::<Vec<_>>());
        let reports: Vec<Report> = read.iter().map(|t| analyze(t)).collect();
        assert!(reports[3].metrics.drift.is_some() && reports[0].metrics.drift.is_none());
        let back = decode_reports(&encode_reports(&reports), 4).unwrap();
        assert_eq!(back, reports, "floats and all");
    }

    #[test]
    fn a_damaged_or_short_answer_is_an_error_not_a_panic() {
        let reports = vec![analyze("Let me check the file again.\n")];
        let bytes = encode_reports(&reports);
        assert!(decode_reports(&bytes, 2).unwrap_err().contains("1 reports for 2 texts"));
        assert!(decode_reports(&bytes[..bytes.len() / 2], 1).is_err());
        assert!(decode_texts(&[0xff, 0xff, 0xff]).is_err());
    }
}
