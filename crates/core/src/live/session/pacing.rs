//! When to recompute a full report while a stream is still arriving.
//!
//! `Analyzer::push` is incremental, but `Analyzer::report` runs one gzip-9 pass over the whole
//! text so far, so reporting after every chunk would cost time quadratic in the length of the
//! stream. A [`ReportPacer`] reports at most every `min_interval_ms`, and after a report that
//! took `c` ms waits at least `c / budget` ms, so full reports never take more than `budget`
//! of the stream's wall time however long the text grows. The final report is always made
//! when the stream ends, so the numbers at the end are exact.

/// Decides when the next full report is due. Times are milliseconds on any monotonic clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportPacer {
    min_interval_ms: f64,
    budget: f64,
    next_due_ms: f64,
}

impl ReportPacer {
    /// Reports at most every `min_interval_ms`, spending at most `budget` (a fraction, e.g.
    /// 0.03) of wall time on reports.
    pub fn new(min_interval_ms: f64, budget: f64) -> Self {
        Self { min_interval_ms, budget: budget.max(1e-6), next_due_ms: f64::NEG_INFINITY }
    }

    /// Whether a report is due at `now_ms`.
    pub fn due(&self, now_ms: f64) -> bool {
        now_ms >= self.next_due_ms
    }

    /// Records a report made at `now_ms` that took `cost_ms`.
    pub fn reported(&mut self, now_ms: f64, cost_ms: f64) {
        self.next_due_ms = now_ms + self.min_interval_ms.max(cost_ms / self.budget);
    }
}

impl Default for ReportPacer {
    /// Four reports a second at most, at most 3 % of the time spent on them.
    fn default() -> Self {
        Self::new(250.0, 0.03)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_report_is_due_at_once_then_at_the_minimum_interval() {
        let mut p = ReportPacer::new(250.0, 0.03);
        assert!(p.due(0.0));
        p.reported(0.0, 1.0);
        assert!(!p.due(249.0));
        assert!(p.due(250.0));
    }

    #[test]
    fn costly_reports_are_spaced_to_stay_within_the_budget() {
        let mut p = ReportPacer::new(250.0, 0.03);
        p.reported(1000.0, 30.0);
        assert!(!p.due(1999.0));
        assert!(p.due(2000.0));
    }
}
