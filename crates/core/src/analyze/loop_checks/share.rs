//! A part of a text as a share of the whole: the unit of the loop checks' values and figures,
//! below the three checks that report them.

/// `bytes` of a text of `n` bytes as a share of it (0 for an empty text).
pub(super) fn share(bytes: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        bytes as f64 / n as f64
    }
}
