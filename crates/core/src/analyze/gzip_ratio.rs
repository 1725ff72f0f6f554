//! gzip ratio: compressed size / raw size (the seed's third heuristic).
//!
//! Value: `len(gzip level 9 of the UTF-8 bytes) / len(bytes)`, 1.0 for an empty text. A text
//! that says the same thing over and over compresses to almost nothing ("the" × 4000 → 0.0035);
//! coherent prose stays around 0.3–0.6, falling slowly with length. The seed WARNs below 0.15
//! and FAILs below 0.10.
//!
//! The reference is Python's `gzip.compress` (zlib, level 9): a 10-byte header, the DEFLATE
//! stream, an 8-byte trailer. We use flate2's pure-Rust backend, miniz_oxide (its core encoder,
//! called directly: see [`DeflateCounter`]). Its encoder
//! finds the same matches as zlib on most texts, but it keeps dynamic Huffman blocks where zlib
//! picks fixed-code blocks when they are smaller, which on short, very repetitive texts costs a
//! few bytes. So texts up to [`DUAL_ENCODING_LIMIT`] are also encoded with fixed codes only and
//! the smaller size is kept, as zlib would. Above that size a block's header is a negligible
//! share of the size. The output is only counted, never stored.

use std::cell::RefCell;

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

thread_local! {
    /// This thread's counters by level and strategy, reused from text to text: a log of
    /// 300,000 short replies would otherwise build (and zero) three compressors and their
    /// buffers per reply.
    static COUNTERS: RefCell<Vec<(u8, bool, DeflateCounter)>> = const { RefCell::new(Vec::new()) };
}

/// The raw DEFLATE size of `bytes` at `level` with `strategy` (Default or Fixed), from this
/// thread's reused counter (a fresh one if it is in use).
pub fn counted_size(level: u8, strategy: CompressionStrategy, bytes: &[u8]) -> usize {
    let fixed = matches!(strategy, CompressionStrategy::Fixed);
    COUNTERS.with(|counters| match counters.try_borrow_mut() {
        Ok(mut counters) => {
            let at = match counters.iter().position(|(l, f, _)| (*l, *f) == (level, fixed)) {
                Some(at) => at,
                None => {
                    counters.push((level, fixed, DeflateCounter::new(level, strategy)));
                    counters.len() - 1
                }
            };
            counters[at].2.size(bytes)
        }
        Err(_) => DeflateCounter::new(level, strategy).size(bytes),
    })
}

/// Raw DEFLATE size at level 9 (what flate2's miniz_oxide backend writes for
/// `Compression::new(9)`).
fn deflate_size(bytes: &[u8]) -> usize {
    counted_size(9, CompressionStrategy::Default, bytes)
}

/// Raw DEFLATE size at level 9 with only fixed-code blocks (zlib's choice for short texts).
fn fixed_code_deflate_size(bytes: &[u8]) -> usize {
    counted_size(9, CompressionStrategy::Fixed, bytes)
}

/// Counts the size of raw DEFLATE streams at one level and strategy, reusing its compressor
/// and a scratch buffer (the output is never kept). miniz_oxide's core is called directly —
/// the same encoder flate2 wraps — so one copy of it is in the page's wasm.
pub struct DeflateCounter {
    c: CompressorOxide,
    out: Vec<u8>,
}

impl DeflateCounter {
    pub fn new(level: u8, strategy: CompressionStrategy) -> Self {
        let flags = create_comp_flags_from_zip_params(level.into(), -15, strategy as i32);
        Self { c: CompressorOxide::new(flags), out: vec![0; 64 * 1024] }
    }

    /// The raw DEFLATE size of `bytes` (a stream of its own, finished).
    pub fn size(&mut self, bytes: &[u8]) -> usize {
        self.c.reset();
        let (mut pos, mut total) = (0, 0);
        loop {
            let (status, read, written) = compress(&mut self.c, &bytes[pos..], &mut self.out, TDEFLFlush::Finish);
            pos += read;
            total += written;
            match status {
                TDEFLStatus::Done => return total,
                TDEFLStatus::Okay => {}
                other => unreachable!("DEFLATE into a scratch buffer failed: {other:?}"),
            }
        }
    }
}

/// The gzip size of a long text counted from its bytes in pieces (the page's second worker reads
/// a file's text this way beside the analysis): [`GzipSizeCounter::finish`] gives what
/// [`gzip_size`] gives for the pieces joined, for texts over [`DUAL_ENCODING_LIMIT`] (a
/// shorter one is also counted with fixed codes only, which needs the bytes at once).
pub struct GzipSizeCounter {
    c: CompressorOxide,
    out: Vec<u8>,
    bytes: usize,
    written: usize,
}

impl Default for GzipSizeCounter {
    fn default() -> Self {
        Self::new()
    }
}

impl GzipSizeCounter {
    pub fn new() -> Self {
        let flags = create_comp_flags_from_zip_params(9, -15, CompressionStrategy::Default as i32);
        Self { c: CompressorOxide::new(flags), out: vec![0; 64 * 1024], bytes: 0, written: 0 }
    }

    /// Counts the next piece: the encoder keeps its window and lookahead across pieces, so
    /// where the pieces are cut does not change the size.
    pub fn feed(&mut self, mut piece: &[u8]) {
        self.bytes += piece.len();
        while !piece.is_empty() {
            let (status, read, written) = compress(&mut self.c, piece, &mut self.out, TDEFLFlush::None);
            piece = &piece[read..];
            self.written += written;
            if !matches!(status, TDEFLStatus::Okay) || (read == 0 && written == 0) {
                unreachable!("DEFLATE into a scratch buffer failed: {status:?}");
            }
        }
    }

    /// Bytes fed so far.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The gzip size of everything fed.
    pub fn finish(mut self) -> usize {
        loop {
            let (status, _, written) = compress(&mut self.c, &[], &mut self.out, TDEFLFlush::Finish);
            self.written += written;
            match status {
                TDEFLStatus::Done => return self.written + GZIP_FRAMING_BYTES,
                TDEFLStatus::Okay => {}
                other => unreachable!("DEFLATE into a scratch buffer failed: {other:?}"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_counted_in_pieces_has_its_gzip_size_wherever_it_is_cut() {
        let prose = crate::samples::PROSE;
        let text = format!("{}{}", prose.repeat(40), "Let me check the configuration once more.\n".repeat(2_000));
        assert!(text.len() > DUAL_ENCODING_LIMIT);
        let whole = gzip_size(text.as_bytes());
        for piece in [1, 7, 258, 4095, 32 * 1024 + 3, 1 << 20, text.len()] {
            let mut counter = GzipSizeCounter::new();
            for chunk in text.as_bytes().chunks(piece) {
                counter.feed(chunk);
            }
            assert_eq!(counter.bytes(), text.len());
            assert_eq!(counter.finish(), whole, "pieces of {piece} bytes");
        }
    }

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
        use flate2::Compression;
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
