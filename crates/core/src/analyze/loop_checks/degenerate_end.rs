//! The degenerate-end check: the share of the text from the windowed compression profile's
//! onset to the end, judged against the rules of the degenerate end, with its sentence and
//! its figure.

use super::share::share;
use crate::analyze::profile::{Profile, DEGENERATE_BELOW};
use crate::analyze::report::{Check, Direction, Metric, ProfileFigure, Verdict};
use crate::analyze::thresholds::EndRules;
use crate::wording::{percent_of, thousands};

/// The degenerate-end check of a text of `n` bytes whose windowed profile is `prof`, and its
/// sentence when it is at WARN or FAIL.
pub(super) fn degenerate_end_check(prof: &Profile, n: usize, end_rules: &EndRules) -> (Check, Option<String>) {
    let tail_share = prof.onset.map_or(0.0, |o| share(n - o, n));
    let profile_judged = n >= end_rules.min_bytes;
    let profile_level = if !profile_judged {
        Verdict::Pass
    } else if tail_share >= end_rules.fail {
        Verdict::Fail
    } else if tail_share >= end_rules.warn {
        Verdict::Warn
    } else {
        Verdict::Pass
    };
    let profile_why = (profile_level > Verdict::Pass).then(|| profile_sentence(prof, n));
    let check = Check {
        metric: Metric::Profile,
        value: tail_share,
        warn_at: end_rules.warn,
        fail_at: end_rules.fail,
        direction: Direction::AtLeast,
        level: profile_level,
        judged: profile_judged,
        data: false,
    };
    (check, profile_why)
}

fn profile_sentence(p: &Profile, n: usize) -> String {
    let onset = p.onset.unwrap_or(0);
    format!(
        "from byte {} to the end ({}) every {} KiB window compresses below {DEGENERATE_BELOW:.2} (lowest {:.3})",
        thousands(onset),
        percent_of(n - onset, n),
        p.window / 1024,
        p.min_ratio
    )
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

pub(super) fn profile_figure(p: &Profile, tail_share: f64) -> ProfileFigure {
    ProfileFigure {
        window: p.window,
        degenerate_below: DEGENERATE_BELOW,
        windows: p.windows.iter().map(|w| (w.start, round4(w.ratio))).collect(),
        onset: p.onset,
        min_ratio: round4(p.min_ratio),
        tail_share,
    }
}
