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

/// Whether every byte of `b` passes `f` (which gives the high bit of each byte of a `u64`
/// that passes), read eight bytes at a time in windows that may overlap (no copy).
#[inline]
pub fn all_bytes(b: &[u8], f: impl Fn(u64) -> u64) -> bool {
    let n = b.len();
    let load = |at: usize| {
        u64::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7]])
    };
    if n >= 8 {
        (0..n / 8).all(|k| f(load(8 * k)) == HIGH) && f(load(n - 8)) == HIGH
    } else if n >= 4 {
        let low = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let high = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
        f(u64::from(low) | u64::from(high) << 32) == HIGH
    } else {
        b.iter().all(|&c| f(ONES * u64::from(c)) == HIGH)
    }
}

/// Whether some byte of `b` passes `f` (see [`all_bytes`]).
#[inline]
pub fn any_bytes(b: &[u8], f: impl Fn(u64) -> u64) -> bool {
    !all_bytes(b, |x| !f(x) & HIGH)
}

/// The high bit of each lower-case ASCII letter of `x`.
#[inline]
pub fn lowercase(x: u64) -> u64 {
    low_bits_in(x, b'a', b'z') & !(x & HIGH)
}

/// The high bit of each ASCII letter of `x`, of either case.
#[inline]
pub fn letter(x: u64) -> u64 {
    low_bits_in(x | (ONES * 0x20), b'a', b'z') & !(x & HIGH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_bytes_says_what_iter_all_says() {
        let digit = |x: u64| low_bits_in(x, b'0', b'9') & !(x & HIGH);
        for n in 0..40 {
            for bad in 0..=n {
                let mut b = vec![b'7'; n];
                if bad < n {
                    b[bad] = b'x';
                }
                assert_eq!(all_bytes(&b, digit), b.iter().all(u8::is_ascii_digit), "{n} {bad}");
                assert_eq!(any_bytes(&b, |x| eq(x, b'x')), b.contains(&b'x'), "{n} {bad}");
                assert_eq!(all_bytes(&b, lowercase), b.iter().all(u8::is_ascii_lowercase), "{n} {bad}");
                assert_eq!(all_bytes(&b, letter), b.iter().all(u8::is_ascii_alphabetic), "{n} {bad}");
                let mut mixed = b.clone();
                mixed.iter_mut().for_each(|c| *c = if *c == b'7' { b'Q' } else { b'@' });
                assert_eq!(all_bytes(&mixed, letter), mixed.iter().all(u8::is_ascii_alphabetic), "{n} {bad}");
            }
        }
    }

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
