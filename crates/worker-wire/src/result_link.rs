//! Result links made in the analysis worker: a link holds its input DEFLATE-9 compressed
//! (`coherency_core::render::result_link`), and the page's wasm links no DEFLATE, so the worker makes a
//! link's fragment and inflates an opened link's data. A fragment made comes back as one
//! postcard buffer: the fragment, or its length when it is over the limit (the page says so).

/// What the worker answers for a link asked of it: the fragment (without `#`), or its length
/// when it is over [`MAX_LINK_CHARS`](coherency_core::render::result_link::MAX_LINK_CHARS).
pub type Made = Result<String, usize>;

/// The worker's answer, for [`decode_made`].
pub fn encode_made(made: &Made) -> Vec<u8> {
    postcard::to_allocvec(made).unwrap_or_default()
}

/// The answer [`encode_made`] wrote, or an error.
pub fn decode_made(bytes: &[u8]) -> Result<Made, String> {
    postcard::from_bytes(bytes).map_err(|_| "the worker's link did not read back".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_made_and_one_too_long_read_back_as_they_were() {
        for made in [Ok("v1;d=AAAA".to_string()), Err(40_123)] {
            assert_eq!(decode_made(&encode_made(&made)), Ok(made));
        }
        assert!(decode_made(&[]).is_err());
    }
}
