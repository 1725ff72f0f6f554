//! What every endpoint check gives: its [`Outcome`] (PASS / FAIL / SKIP), a checklist line
//! ([`CheckResult`]) with its evidence in words, and the checks' letters and titles.

/// A check's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    Pass,
    Fail,
    Skip,
}

impl CheckOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            CheckOutcome::Pass => "PASS",
            CheckOutcome::Fail => "FAIL",
            CheckOutcome::Skip => "SKIP",
        }
    }
}

/// One line of the checklist.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    pub id: char,
    pub title: &'static str,
    pub outcome: CheckOutcome,
    pub evidence: String,
}

/// The checks' letters and titles, in order.
pub const CHECKS: [(char, &str); 7] = [
    ('A', "/models lists the model by name"),
    ('B', "A chat completion echoes the model and returns usage"),
    ('C', "The completion has the standard fields and types"),
    ('D', "Reasoning arrives in a reasoning field"),
    ('E', "Tool calls come back with JSON arguments"),
    ('F', "Streaming: several chunks, [DONE], first byte early"),
    ('G', "A bad key is rejected; CORS"),
];
pub(super) fn result(id: char, outcome: CheckOutcome, evidence: impl Into<String>) -> CheckResult {
    let title = CHECKS.iter().find(|(c, _)| *c == id).map_or("", |(_, t)| t);
    CheckResult { id, title, outcome, evidence: evidence.into() }
}

/// A check that could not run because its request failed before any response (`why` in words).
pub fn unreachable(id: char, why: &str) -> CheckResult {
    result(id, CheckOutcome::Fail, format!("No response: {why}"))
}
