//! One stream dialect fuzzed: the input through `SsePump` with the dialect's assembler, fed
//! whole and fed in two pieces cut at an offset the input chooses; both must give the same
//! problems, replies and stream info, with every range inside the input.

use crate::cuts::one_offset;
use crate::ranges;
use coherency_core::stream::{Assembler, SsePump};

/// Runs the invariants for one dialect; `new` makes a fresh assembler.
pub fn check<A: Assembler>(data: &[u8], new: impl Fn() -> A) {
    let mut whole = SsePump::new(new());
    let mut problems = whole.feed(data);
    let (last, turns, info) = whole.finish();
    problems.extend(last);
    ranges::problems(&problems, data.len());
    ranges::turns(&turns, data.len());

    let at = one_offset(data);
    let mut cut = SsePump::new(new());
    let mut cut_problems = cut.feed(&data[..at]);
    cut_problems.extend(cut.feed(&data[at..]));
    let (last, cut_turns, cut_info) = cut.finish();
    cut_problems.extend(last);
    assert_eq!(problems, cut_problems, "problems differ when cut at {at}");
    assert_eq!(turns, cut_turns, "replies differ when cut at {at}");
    assert_eq!(info, cut_info, "stream info differs when cut at {at}");
}
