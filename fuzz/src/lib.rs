//! What the fuzz targets share: the invariants they assert ([`ranges`], [`stream`]) and the
//! cuts they make in an input ([`cuts`]). Each target in `fuzz_targets/` is a thin
//! `fuzz_target!` over one of these.

pub mod cuts;
pub mod ranges;
pub mod stream;
