//! Eight bytes at a time in a `u64` ("SWAR"): which bytes equal a value or lie in a range, as
//! the high bit of each byte, computed without a branch and exactly (no carry crosses from one
//! byte into the next), and those bits gathered into a byte's mask. The word scans and the
//! function-word lookup test every byte of a long text this way.

/// Each byte of a `u64`'s worth.
pub const ONES: u64 = 0x0101_0101_0101_0101;
/// Each byte's high bit.
pub const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that equals `c` (exact: no carry crosses a byte).
#[inline]
pub fn eq(x: u64, c: u8) -> u64 {
    let t = x ^ (ONES * u64::from(c));
    !(((t & !HIGH) + !HIGH) | t) & HIGH
}

/// The high bit of each byte of `x` whose low seven bits lie in `lo..=hi` (`hi` < 0x7F).
#[inline]
pub fn low_bits_in(x: u64, lo: u8, hi: u8) -> u64 {
    let y = x & !HIGH;
    let at_least = (y + ONES * u64::from(0x80 - lo)) & HIGH;
    let above = (y + ONES * u64::from(0x7F - hi)) & HIGH;
    at_least & !above
}

/// The high bits of a `u64`'s bytes as the 8 low bits of a byte's mask.
#[inline]
pub fn gather(high: u64) -> u64 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_told_exactly() {
        for b in 0..=255u8 {
            for other in [0u8, 0x20, 0x7F, 0x80, 0xFF, b.wrapping_add(1), b.wrapping_sub(1)] {
                let x = u64::from_le_bytes([other, b, other, b, b, other, 0, 0xFF]);
                let bytes = x.to_le_bytes();
                let high = |f: &dyn Fn(u8) -> bool| -> u64 {
                    bytes.iter().enumerate().map(|(i, &y)| u64::from(f(y)) << (8 * i + 7)).sum()
                };
                for c in [0u8, b' ', b'\'', 0xC2, 0xE3, b, other] {
                    assert_eq!(eq(x, c), high(&|y| y == c), "{b:#x} {other:#x} {c:#x}");
                }
                for (lo, hi) in [(9, 13), (0x41, 0x5A), (0x61, 0x7A), (0x61, 0x63), (0, 0x7E), (0x7E, 0x7E)] {
                    assert_eq!(low_bits_in(x, lo, hi), high(&|y| (lo..=hi).contains(&(y & 0x7F))));
                }
                let g = gather(eq(x, b));
                assert_eq!(g, (0..8).map(|i| u64::from(bytes[i] == b) << i).sum::<u64>());
            }
        }
    }
}
