//! gzip ratio: compressed size / raw size (the seed's third heuristic).
//!
//! Value: `len(gzip level 9 of the UTF-8 bytes) / len(bytes)`, 1.0 for an empty text. A text
//! that says the same thing over and over compresses to almost nothing ("the" × 4000 → 0.0035);
//! coherent prose stays around 0.3–0.6, falling slowly with length. The seed WARNs below 0.15
//! and FAILs below 0.10.
//!
//! The reference is Python's `gzip.compress` (zlib, level 9): a 10-byte header, the DEFLATE
//! stream, an 8-byte trailer. We use flate2's pure-Rust backend, miniz_oxide. Its encoder
//! finds the same matches as zlib on most texts, but it keeps dynamic Huffman blocks where zlib
//! picks fixed-code blocks when they are smaller, which on short, very repetitive texts costs a
//! few bytes. So texts up to [`DUAL_ENCODING_LIMIT`] are also encoded with fixed codes only and
//! the smaller size is kept, as zlib would. Above that size a block's header is a negligible
//! share of the size. The output is only counted, never stored.

use flate2::{Compress, Compression, FlushCompress, Status};
use miniz_oxide::deflate::core::{
    compress, create_comp_flags_from_zip_params, CompressionStrategy, CompressorOxide, TDEFLFlush, TDEFLStatus,
};

/// gzip's fixed framing around the DEFLATE stream: 10-byte header, CRC-32 and size trailer.
const GZIP_FRAMING_BYTES: usize = 18;

/// Texts up to this many bytes are compressed twice (dynamic and fixed Huffman codes).
pub const DUAL_ENCODING_LIMIT: usize = 64 * 1024;

/// Size of `gzip.compress(bytes, compresslevel=9)`, as closely as miniz_oxide can match zlib.
pub fn gzip_size(bytes: &[u8]) -> usize {
    let dynamic = deflate_size(bytes);
    let size = if bytes.len() <= DUAL_ENCODING_LIMIT { dynamic.min(fixed_code_deflate_size(bytes)) } else { dynamic };
    size + GZIP_FRAMING_BYTES
}

/// The seed's ratio: gzip size over raw size, 1.0 for no bytes.
pub fn gzip_ratio(bytes: &[u8]) -> f64 {
    if bytes.is_empty() {
        return 1.0;
    }
    gzip_size(bytes) as f64 / bytes.len() as f64
}

/// Raw DEFLATE size at level 9 through flate2, counting the output in a scratch buffer.
fn deflate_size(bytes: &[u8]) -> usize {
    let mut c = Compress::new(Compression::new(9), false);
    let mut out = vec![0u8; 64 * 1024];
    loop {
        let consumed = c.total_in() as usize;
        let before = c.total_out();
        let status = c
            .compress(&bytes[consumed..], &mut out, FlushCompress::Finish)
            .expect("in-memory DEFLATE into a scratch buffer cannot fail");
        if status == Status::StreamEnd {
            return c.total_out() as usize;
        }
        debug_assert!(c.total_out() > before || c.total_in() as usize > consumed, "DEFLATE made no progress");
    }
}

/// Raw DEFLATE size at level 9 with only fixed-code blocks (zlib's choice for short texts).
fn fixed_code_deflate_size(bytes: &[u8]) -> usize {
    let flags = create_comp_flags_from_zip_params(9, -15, CompressionStrategy::Fixed as i32);
    let mut d = CompressorOxide::new(flags);
    let mut out = vec![0u8; 64 * 1024];
    let (mut pos, mut total) = (0, 0);
    loop {
        let (status, read, written) = compress(&mut d, &bytes[pos..], &mut out, TDEFLFlush::Finish);
        pos += read;
        total += written;
        match status {
            TDEFLStatus::Done => return total,
            TDEFLStatus::Okay => {}
            other => unreachable!("DEFLATE into a scratch buffer failed: {other:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_calibration_table() {
        let the = "the ".repeat(4000);
        let the = the.trim_end();
        assert_eq!(the.len(), 15_999);
        assert_eq!(format!("{:.4}", gzip_ratio(the.as_bytes())), "0.0035");
        let line = "All work and no play makes Jack a dull boy.\n".repeat(400);
        let line = line.trim_end();
        assert_eq!(line.len(), 17_599);
        assert_eq!(format!("{:.4}", gzip_ratio(line.as_bytes())), "0.0074");
    }

    #[test]
    fn gzip_size_is_the_real_gzip_size() {
        use std::io::Write;
        let text = "a coherent sentence about kernels, schedulers and page tables. ".repeat(3000);
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), Compression::new(9));
        enc.write_all(text.as_bytes()).unwrap();
        let real = enc.finish().unwrap().len();
        assert!(text.len() > DUAL_ENCODING_LIMIT);
        assert_eq!(gzip_size(text.as_bytes()), real);
    }

    #[test]
    fn empty_text_has_ratio_one() {
        assert_eq!(gzip_ratio(b""), 1.0);
    }
}
