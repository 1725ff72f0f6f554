//! splitmix64, the one seeded generator and bit mixer: the needle probe's filler, the mock
//! endpoint's replies and the test generators draw from [`Rng`]; the scorers' hashes finish
//! with [`mix`]. Deterministic and fast — good enough to pick words and spread hash bits, not
//! for anything secret.

/// splitmix64's finaliser: every input bit changes about half the output bits.
#[inline(always)]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// splitmix64's increment (the golden ratio in 64 bits), also a good odd multiplier.
pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// A splitmix64 generator: the same seed gives the same numbers on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// One of `xs` (not empty).
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_sequence() {
        // splitmix64 seeded with 1234567 (the reference implementation's first outputs).
        let mut rng = Rng::new(1234567);
        assert_eq!(rng.next_u64(), 6457827717110365317);
        assert_eq!(rng.next_u64(), 3203168211198807973);
    }

    #[test]
    fn draws_stay_in_range() {
        let mut rng = Rng::new(7);
        for n in 1..50 {
            assert!(rng.below(n) < n);
            let x = rng.between(n, 2 * n);
            assert!((n..=2 * n).contains(&x));
        }
        assert!(!Rng::new(1).chance(0));
        assert!(Rng::new(1).chance(100));
    }
}
