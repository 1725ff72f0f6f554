//! What travels between the two workers sharing a document's analysis: for a big log
//! ([`coherency_core::verdict::split_in_two`]) the second worker's texts, and its reports back;
//! for a long text, the DEFLATE passes the second worker counted from the file. Each is one
//! postcard buffer (transferred, not copied, between the workers). Pure: the round trips are
//! unit-tested natively.

use coherency_core::analyze::deflate_passes::DeflatePasses;
use coherency_core::analyze::Report;

/// The texts of the second worker's share, in the share's order.
pub fn encode_texts<S: AsRef<str>>(texts: &[S]) -> Vec<u8> {
    let texts: Vec<&str> = texts.iter().map(AsRef::as_ref).collect();
    postcard::to_allocvec(&texts).unwrap_or_default()
}

/// The texts [`encode_texts`] wrote, borrowed from `bytes`.
pub fn decode_texts(bytes: &[u8]) -> Result<Vec<&str>, String> {
    postcard::from_bytes(bytes).map_err(|_| "the texts to analyse did not read back".to_string())
}

/// The second worker's reports, in its texts' order.
pub fn encode_reports(reports: &[Report]) -> Vec<u8> {
    postcard::to_allocvec(reports).unwrap_or_default()
}

/// The reports [`encode_reports`] wrote; exactly `expected` of them, or an error.
pub fn decode_reports(bytes: &[u8], expected: usize) -> Result<Vec<Report>, String> {
    let reports: Vec<Report> =
        postcard::from_bytes(bytes).map_err(|_| "the other worker's reports did not read back".to_string())?;
    if reports.len() != expected {
        return Err(format!("the other worker sent {} reports for {expected} texts", reports.len()));
    }
    Ok(reports)
}

/// A long text's DEFLATE passes, counted by the second worker.
pub fn encode_passes(passes: &DeflatePasses) -> Vec<u8> {
    postcard::to_allocvec(passes).unwrap_or_default()
}

/// The passes [`encode_passes`] wrote, for a text of `text_len` bytes (its profile's windows
/// must tile it), or an error.
pub fn decode_passes(bytes: &[u8], text_len: usize) -> Result<DeflatePasses, String> {
    let passes: DeflatePasses =
        postcard::from_bytes(bytes).map_err(|_| "the other worker's DEFLATE passes did not read back".to_string())?;
    let (windows, onset) = (&passes.profile.windows, passes.profile.onset);
    let tiled = windows.first().is_none_or(|w| w.start == 0)
        && windows.windows(2).all(|p| p[0].end == p[1].start)
        && windows.last().map_or(text_len == 0, |w| w.end == text_len)
        && onset.is_none_or(|o| o <= text_len);
    if !tiled {
        return Err(format!("the other worker's profile is not of a text of {text_len} bytes"));
    }
    Ok(passes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::analyze;

    #[test]
    fn texts_and_reports_read_back_as_they_were() {
        let texts = ["Let me check the file again.\n".repeat(30), "A fine answer.".to_string(), String::new()];
        let bytes = encode_texts(&texts);
        let read = decode_texts(&bytes).unwrap();
        assert_eq!(read, texts.iter().map(String::as_str).collect::<Vec<_>>());
        let reports: Vec<Report> = read.iter().map(|t| analyze(t)).collect();
        let back = decode_reports(&encode_reports(&reports), 3).unwrap();
        assert_eq!(back, reports, "floats and all");
    }

    #[test]
    fn a_long_texts_deflate_passes_read_back_as_they_were_and_only_for_its_length() {
        use coherency_core::analyze::deflate_passes::deflate_passes;
        let text =
            format!("{}{}", "A sentence about page tables and caches. ".repeat(300), "Let me check. ".repeat(900));
        let passes = deflate_passes(&text);
        let bytes = encode_passes(&passes);
        assert_eq!(decode_passes(&bytes, text.len()).unwrap(), passes, "floats and all");
        assert!(decode_passes(&bytes, text.len() + 1).unwrap_err().contains("not of a text of"));
        assert!(decode_passes(&bytes[..bytes.len() / 2], text.len()).is_err());
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
