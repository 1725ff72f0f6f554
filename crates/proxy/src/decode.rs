//! A compressed reply decoded on the side, to be scored. The proxy asks the upstream for an
//! uncompressed generation (`accept-encoding: identity`), so this is for a server that
//! compresses anyway: a `gzip` (or `x-gzip`) or `deflate` body is passed on to the client as
//! sent, compressed, and its decoded bytes go to the scoring. (Brotli and zstd are not
//! decoded: such a reply passes unscored, and the log says why.) The input is decoded 1 KiB
//! at a time and each piece's output handed on at once, so a small body that decodes to a
//! huge one (a "zip bomb") holds at most about 1 MiB at a time.

use std::io::Write;

use flate2::write::{GzDecoder, ZlibDecoder};

/// Compressed bytes decoded per step, at most (deflate expands 1,032 times at most).
const STEP: usize = 1024;

/// A body's decoder. See the module doc.
pub enum Decoder {
    Gzip(GzDecoder<Vec<u8>>),
    /// HTTP's `deflate` is the zlib format (RFC 9110 §8.4.1.2).
    Deflate(ZlibDecoder<Vec<u8>>),
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Decoder {
    /// The decoder of a `content-encoding` (one coding, any case); `None` for one it does not
    /// decode.
    pub fn of(encoding: &str) -> Option<Decoder> {
        match encoding.trim().to_ascii_lowercase().as_str() {
            "gzip" | "x-gzip" => Some(Decoder::Gzip(GzDecoder::new(Vec::new()))),
            "deflate" => Some(Decoder::Deflate(ZlibDecoder::new(Vec::new()))),
            _ => None,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Decoder::Gzip(_) => "gzip",
            Decoder::Deflate(_) => "deflate",
        }
    }

    /// Decodes the next bytes of the body, handing each piece of output to `out`; an error
    /// (in words) when the body is not what its encoding says.
    pub fn feed(&mut self, bytes: &[u8], mut out: impl FnMut(&[u8])) -> Result<(), String> {
        for step in bytes.chunks(STEP) {
            let written = match self {
                Decoder::Gzip(d) => d.write_all(step),
                Decoder::Deflate(d) => d.write_all(step),
            };
            self.drain(&mut out);
            written.map_err(|e| format!("the {} body could not be decoded: {e}", self.name()))?;
        }
        Ok(())
    }

    /// The body ended: hands on what the decoder still holds.
    pub fn finish(&mut self, mut out: impl FnMut(&[u8])) -> Result<(), String> {
        let done = match self {
            Decoder::Gzip(d) => d.try_finish(),
            Decoder::Deflate(d) => d.try_finish(),
        };
        self.drain(&mut out);
        done.map_err(|e| format!("the {} body could not be decoded: {e}", self.name()))
    }

    fn drain(&mut self, out: &mut impl FnMut(&[u8])) {
        let buf = match self {
            Decoder::Gzip(d) => d.get_mut(),
            Decoder::Deflate(d) => d.get_mut(),
        };
        if !buf.is_empty() {
            out(buf);
            buf.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::{GzEncoder, ZlibEncoder};
    use flate2::Compression;

    fn decode_all(mut d: Decoder, body: &[u8], read: usize) -> (Vec<u8>, usize) {
        let (mut plain, mut most) = (Vec::new(), 0);
        for piece in body.chunks(read) {
            d.feed(piece, |p| {
                most = most.max(p.len());
                plain.extend_from_slice(p)
            })
            .unwrap();
        }
        d.finish(|p| plain.extend_from_slice(p)).unwrap();
        (plain, most)
    }

    #[test]
    fn gzip_and_deflate_bodies_decode_however_they_are_read_and_a_bomb_comes_in_pieces() {
        let text = "data: {\"choices\":[{\"delta\":{\"content\":\"the lock\"}}]}\n\n".repeat(20_000);
        let mut gz = GzEncoder::new(Vec::new(), Compression::best());
        gz.write_all(text.as_bytes()).unwrap();
        let gz = gz.finish().unwrap();
        let mut zl = ZlibEncoder::new(Vec::new(), Compression::best());
        zl.write_all(text.as_bytes()).unwrap();
        let zl = zl.finish().unwrap();
        for read in [1, 100, 1 << 20] {
            let (plain, most) = decode_all(Decoder::of("GZIP").unwrap(), &gz, read);
            assert_eq!(plain, text.as_bytes());
            assert!(most <= (STEP * 1100).max(read), "at most about a step's output at a time: {most}");
            assert_eq!(decode_all(Decoder::of("deflate").unwrap(), &zl, read).0, text.as_bytes());
        }
        assert!(Decoder::of("br").is_none() && Decoder::of("zstd").is_none());
        let mut d = Decoder::of("gzip").unwrap();
        assert!(d.feed(b"this is not gzip at all", |_| {}).is_err());
    }
}
