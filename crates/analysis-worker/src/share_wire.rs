//! What travels between the two workers sharing a document's analysis: for a big log
//! ([`coherency_core::judge::split_in_two`]) the second worker's texts, and its reports back;
//! for a long text, the DEFLATE passes the second worker counted from the file. Each is one
//! postcard buffer (transferred, not copied, between the workers). Pure: the round trips are
//! unit-tested natively.

use coherency_core::analyze::deflate_passes::DeflatePasses;

pub use coherency_worker_wire::analyse::{decode_reports, decode_texts, encode_reports, encode_texts};

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
}
