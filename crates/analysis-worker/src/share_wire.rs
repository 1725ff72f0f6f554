//! What travels between the two workers sharing a document's analysis: for a big log
//! ([`coherency_core::judge::split_in_two`]) the second worker's texts, and its reports back;
//! for a long text, the side passes (the gzip-9 size, the word scan and the incoherence checks)
//! the second worker counted from the file. Each is one
//! postcard buffer (transferred, not copied, between the workers). Pure: the round trips are
//! unit-tested natively.

use coherency_core::analyze::side_passes::SidePasses;

pub use coherency_worker_wire::analyze::{decode_reports, decode_texts, encode_reports, encode_texts};

/// A long text's side passes, counted by the second worker.
pub fn encode_passes(passes: &SidePasses) -> Vec<u8> {
    postcard::to_allocvec(passes).unwrap_or_default()
}

/// The passes [`encode_passes`] wrote, for `text` (their spans and regions must lie in it, the
/// word scan's places on its character boundaries), or an error.
pub fn decode_passes(bytes: &[u8], text: &str) -> Result<SidePasses, String> {
    let passes: SidePasses =
        postcard::from_bytes(bytes).map_err(|_| "the other worker's side passes did not read back".to_string())?;
    let incoherent = &passes.incoherent;
    let inside = |r: &std::ops::Range<usize>| r.start <= r.end && r.end <= text.len();
    let fits = incoherent.spans.iter().all(|s| inside(&(s.start..s.end)))
        && incoherent.regions.iter().flatten().all(inside)
        && passes.words.fits(text);
    if !fits {
        return Err(format!("the other worker's findings are not of a text of {} bytes", text.len()));
    }
    Ok(passes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_texts_side_passes_read_back_as_they_were_and_only_for_its_length() {
        use coherency_core::analyze::side_passes::side_passes;
        use coherency_core::analyze::Thresholds;
        let text = format!(
            "{}{}{}",
            "A sentence about page tables and caches. ".repeat(300),
            "Let me check. ".repeat(900),
            "<|im_end|>\n<|im_start|>user\n".repeat(20)
        );
        let passes = side_passes(&text, &Thresholds::default());
        assert!(!passes.incoherent.spans.is_empty(), "the leaked template is shown");
        let bytes = encode_passes(&passes);
        assert_eq!(decode_passes(&bytes, &text).unwrap(), passes, "floats and all");
        let last = passes.incoherent.spans.iter().map(|s| s.end).max().expect("a span");
        assert!(decode_passes(&bytes, &text[..last - 1]).unwrap_err().contains("not of a text of"));
        assert!(decode_passes(&bytes[..bytes.len() / 2], &text).is_err());
        // A word scan of other text (a character boundary there is not one here) is refused.
        let other = format!("é{}", &text[2..]);
        assert!(!passes.words.fits(&other) || passes.words.done < 2);
        let mut shifted = passes.clone();
        shifted.words.done = 1;
        assert!(decode_passes(&encode_passes(&shifted), &other).is_err());
    }
}
