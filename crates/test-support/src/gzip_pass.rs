//! One plain gzip-9 pass, the yardstick the benches measure analysis against.

use flate2::{write::GzEncoder, Compression};
use std::io::Write;

/// Counts the bytes written to it, so the gzip pass allocates no output.
struct ByteCounter(usize);

impl Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Compresses `bytes` with gzip level 9 the way the seed script measures its ratio; returns
/// the compressed size.
pub fn gzip_pass(bytes: &[u8]) -> usize {
    let mut enc = GzEncoder::new(ByteCounter(0), Compression::new(9));
    enc.write_all(bytes).expect("writing to a counter cannot fail");
    enc.finish().expect("writing to a counter cannot fail").0
}
