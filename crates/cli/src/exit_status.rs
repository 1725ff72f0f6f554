//! The exit status of `analyze`: 0 every input PASSes, 1 the worst is WARN, 2 the worst is
//! FAIL, 3 an input could not be read or holds no text, 64 a bad command line. `--fail-on fail`
//! lets a WARN exit 0; `--fail-on warn` is what happens without the flag.

use coherency_core::analyze::Verdict;

use crate::args::FailOn;

pub const UNREADABLE: u8 = 3;
pub const USAGE: u8 = 64;

/// The status for a run whose worst judged verdict is `worst` (`None`: nothing was judged)
/// and where some input could not be read when `unreadable`.
pub fn of_run(worst: Option<Verdict>, unreadable: bool, fail_on: Option<FailOn>) -> u8 {
    match (unreadable, worst) {
        (true, _) => UNREADABLE,
        (false, Some(Verdict::Fail)) => 2,
        (false, Some(Verdict::Warn)) if fail_on != Some(FailOn::Fail) => 1,
        (false, _) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_on_decides_whether_a_warn_fails() {
        let (w, f, p) = (Some(Verdict::Warn), Some(Verdict::Fail), Some(Verdict::Pass));
        for fail_on in [None, Some(FailOn::Warn)] {
            assert_eq!([of_run(p, false, fail_on), of_run(w, false, fail_on), of_run(f, false, fail_on)], [0, 1, 2]);
        }
        let only_fail = Some(FailOn::Fail);
        assert_eq!([of_run(p, false, only_fail), of_run(w, false, only_fail), of_run(f, false, only_fail)], [0, 0, 2]);
        assert_eq!(of_run(f, true, only_fail), UNREADABLE, "an unreadable input is never a pass");
        assert_eq!(of_run(None, false, None), 0);
    }
}
