//! What every endpoint probe gives: its [`ProbeOutcome`] (PASS / FAIL / SKIP), a checklist line
//! ([`ProbeResult`]) with its evidence in words, and the probes' letters and titles.

/// A probe's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeOutcome {
    Pass,
    Fail,
    Skip,
}

impl ProbeOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            ProbeOutcome::Pass => "PASS",
            ProbeOutcome::Fail => "FAIL",
            ProbeOutcome::Skip => "SKIP",
        }
    }
}

/// One line of the checklist.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeResult {
    pub id: char,
    pub title: &'static str,
    pub outcome: ProbeOutcome,
    pub evidence: String,
}

/// The probes' letters and titles, in order.
pub const PROBES: [(char, &str); 7] = [
    ('A', "/models lists the model by name"),
    ('B', "A chat completion echoes the model and returns usage"),
    ('C', "The completion has the standard fields and types"),
    ('D', "Reasoning arrives in a reasoning field"),
    ('E', "Tool calls come back with JSON arguments"),
    ('F', "Streaming: several chunks, [DONE], first byte early"),
    ('G', "A bad key is rejected; CORS"),
];
pub(super) fn result(id: char, outcome: ProbeOutcome, evidence: impl Into<String>) -> ProbeResult {
    let title = PROBES.iter().find(|(c, _)| *c == id).map_or("", |(_, t)| t);
    ProbeResult { id, title, outcome, evidence: evidence.into() }
}

/// A probe that could not run because its request failed before any response (`why` in words).
pub fn unreachable(id: char, why: &str) -> ProbeResult {
    result(id, ProbeOutcome::Fail, format!("No response: {why}"))
}
