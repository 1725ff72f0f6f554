//! The incremental [`Analyzer`]: push text as it arrives, ask for a [`Report`] at any time.
//!
//! Pasting a transcript is one `push`; a live stream pushes every delta. Both give the same
//! numbers because they run the same code. The word and line scanners only ever see complete
//! words and lines, so each byte is scanned once however the text was cut; the unfinished last
//! word and line are counted tentatively in `report` without changing the scanners.

use super::checks::{self, Evidence};
use super::content_lines;
#[cfg(not(target_arch = "wasm32"))]
use super::first_come::FirstCome;
use super::gzip_ratio::gzip_size;
use super::incoherence::{self, IncoherenceFindings};
use super::line_repeats::LineCounter;
use super::loop_checks;
use super::onset::{self, Finding};
use super::profile::Profile;
use super::report::{Metric, Metrics, Report, Span, SpanKind, Verdict};
use super::side_passes::SidePasses;
use super::text_units::{end_of_last, is_py_line_break, is_py_whitespace};
use super::thresholds::Thresholds;
use super::word_runs::{WordScan, MAX_WORD_RUNS};

/// Accumulates a text and analyses it.
#[derive(Clone, Debug, Default)]
pub struct Analyzer {
    text: String,
    thresholds: Thresholds,
    scans: Scans,
    /// The prompt the text answers, if known: the drift check measures against it too.
    prompt: Option<String>,
}

/// What the word and line scanners have seen of a text so far.
#[derive(Clone, Debug, Default)]
struct Scans {
    words: WordScan,
    lines: LineCounter,
    /// Lines are counted up to here (just after the last line break).
    lines_done: usize,
}

impl Analyzer {
    /// An analyzer with the seed's thresholds.
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_thresholds(thresholds: Thresholds) -> Self {
        Self { thresholds, ..Self::default() }
    }

    /// The text is a model's reply to `prompt`: its drift is measured against the prompt too
    /// (see [`analyze_with_prompt`]).
    pub fn set_prompt(&mut self, prompt: Option<String>) {
        self.prompt = prompt;
    }

    /// The text pushed so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Appends `chunk` and scans every word and line it completes.
    pub fn push(&mut self, chunk: &str) {
        let from = self.text.len();
        self.text.push_str(chunk);
        self.scans.scan(&self.text, from, &self.thresholds);
    }

    /// Analyses everything pushed so far. Costs one gzip pass over the text plus the
    /// unfinished last word and line; the text itself is not rescanned.
    pub fn report(&self) -> Report {
        let prompt = self.prompt.as_deref();
        let (gzip_bytes, found, incoherent, ()) = gzip_and_loop_checks(&self.text, prompt, &self.thresholds, || ());
        self.scans.report_with(&self.text, &self.thresholds, gzip_bytes, found, incoherent, Detail::Whole)
    }
}

impl Scans {
    /// Scans every word and line completed by `text[from..]` (the text before `from` was
    /// scanned already).
    fn scan(&mut self, text: &str, from: usize, t: &Thresholds) {
        self.words.scan(text, from, t.maxrun_warn);
        self.scan_lines(text, from, t);
    }

    /// Scans every line completed by `text[from..]`.
    fn scan_lines(&mut self, text: &str, from: usize, t: &Thresholds) {
        let to = text.len();
        if let Some(end) = end_of_last(text, from..to, is_py_line_break) {
            self.lines.add_lines(text, self.lines_done..end, t.maxline_warn);
            self.lines_done = end;
        }
    }

    /// The report on `text`, of which everything up to the scanned words and lines was
    /// scanned; the rest (the unfinished last word and line) is counted tentatively.
    /// `gzip_bytes` and `found` are the text's gzip size and the loop checks' findings; its
    /// reasons and onset are written only when `detail` asks for them.
    fn report_with(
        &self,
        text: &str,
        t: &Thresholds,
        gzip_bytes: usize,
        found: loop_checks::LoopFindings,
        incoherent: IncoherenceFindings,
        detail: Detail,
    ) -> Report {
        let mut runs = self.words.runs;
        let mut tail_runs = Vec::new();
        runs.scan(text, self.words.done..text.len(), t.maxrun_warn, &mut tail_runs);
        let longest_run = runs.finish(t.maxrun_warn, &mut tail_runs);
        let lines = self.lines.view(text, self.lines_done..text.len(), t.maxline_warn);

        let mut metrics = Metrics {
            maxrun: longest_run.as_ref().map_or(0, |r| r.count),
            maxline: lines.most_repeated.as_ref().map_or(0, |l| l.count),
            content_maxline: lines
                .most_repeated_content
                .as_ref()
                .filter(|_| lines.most_repeated.as_ref().is_some_and(|l| l.count >= t.maxline_warn))
                .map(|c| c.as_ref().map_or(0, |l| l.count)),
            gzip_ratio: if text.is_empty() { 1.0 } else { gzip_bytes as f64 / text.len() as f64 },
            gzip_bytes: if text.is_empty() { 0 } else { gzip_bytes },
            tandem: found.tandem,
            copy_coverage: found.copy_coverage,
            long_copy_share: found.long_copy_share,
            copy: found.copy,
            profile: found.profile,
            distinct: found.distinct,
            distinct_sample: found.distinct_sample,
            drift: incoherent.drift.clone(),
        };

        let level = |count: usize, fail_at: usize| if count >= fail_at { Verdict::Fail } else { Verdict::Warn };
        // Runs past the cap are counted, not listed (the tail's too, when the list is full).
        let tail_listed = MAX_WORD_RUNS.saturating_sub(self.words.flagged.len()).min(tail_runs.len());
        let spans_not_listed = self.words.not_listed
            + (tail_runs.len() - tail_listed)
            + lines.not_listed
            + found.spans_not_listed
            + incoherent.spans_not_listed;
        let mut spans: Vec<Span> = self
            .words
            .flagged
            .iter()
            .chain(&tail_runs[..tail_listed])
            .map(|r| Span {
                start: r.start,
                end: r.end,
                kind: SpanKind::WordRun,
                count: r.count,
                level: level(r.count, t.maxrun_fail),
                period: None,
                source: None,
            })
            .chain(lines.flagged.iter().map(|r| Span {
                start: r.range.start,
                end: r.range.end,
                kind: SpanKind::RepeatedLine,
                count: r.count,
                level: level(r.count, t.maxline_fail),
                period: r.period,
                source: None,
            }))
            .chain(found.spans)
            .chain(incoherent.spans.iter().cloned())
            .collect();
        spans.sort_by_key(|s| (s.start, s.end));

        let blank = text.trim_matches(is_py_whitespace).is_empty();
        let too_short = is_too_short(text, t);
        let mut checks = checks::seed_checks(&metrics, t, text.len());
        checks.extend(found.checks);
        checks.extend(incoherent.checks.iter().cloned());
        if too_short {
            // The loop checks judge nothing under the minimum size (the seed's keep their levels).
            for c in checks.iter_mut().filter(|c| !c.metric.is_seed()) {
                (c.level, c.judged) = (Verdict::Pass, false);
            }
            metrics.drift = None;
            spans.retain(|s| matches!(s.kind, SpanKind::WordRun | SpanKind::RepeatedLine));
        }
        // The product judges the maxline check on lines with content (see `content_lines`);
        // the report keeps the seed's check.
        let counted = metrics.content_maxline.is_some();
        let most_repeated = match &lines.most_repeated_content {
            Some(content) if counted => content.as_ref(),
            _ => lines.most_repeated.as_ref(),
        };
        let line_region = if counted { lines.content_region.clone() } else { lines.region.clone() };
        let judged = content_lines::as_judged(&checks, &metrics);
        let evidence = Evidence {
            longest_run: longest_run.as_ref().map(|r| (&text[r.word.clone()], r.start)),
            most_repeated_line: most_repeated.map(|l| &text[l.first.clone()]),
        };
        let why = |m: Metric| match m {
            Metric::Loop => found.why[0].clone(),
            Metric::Copies => found.why[1].clone(),
            Metric::Profile => found.why[2].clone(),
            Metric::TemplateLeak | Metric::TokenSoup | Metric::WordSalad | Metric::Drift => incoherent.why_of(m),
            _ => None,
        };
        let (verdict, tripped) = checks::verdict(&judged);
        if detail == Detail::Verdict {
            return Report {
                bytes: text.len(),
                verdict,
                tripped,
                seed_verdict: checks::seed_verdict(&metrics, t),
                onset: None,
                reasons: Vec::new(),
                metrics,
                checks,
                spans,
                spans_not_listed,
                too_short,
                thresholds: *t,
            };
        }
        let mut reasons = checks::reasons(
            &judged,
            t,
            &metrics,
            &evidence,
            &why,
            too_short.then_some(checks::TooShort { bytes: text.len(), min: t.min_bytes, blank }),
        );
        let no_content = lines.most_repeated.as_ref().map(|l| &text[l.first.clone()]);
        reasons.extend(content_lines::not_counted(&metrics, t, no_content).filter(|_| !too_short));
        // Where each tripped check's finding lies; the onset is where they agree the
        // degenerate part starts (see `onset`).
        let region_of = |m: Metric| match m {
            Metric::Maxrun => longest_run.as_ref().map(|r| r.start..r.end),
            Metric::Maxline => line_region.clone(),
            Metric::GzipRatio => metrics.profile.onset.map(|o| o..text.len()),
            Metric::Loop => found.regions[0].clone(),
            Metric::Copies => found.regions[1].clone(),
            Metric::Profile => found.regions[2].clone(),
            Metric::TemplateLeak | Metric::TokenSoup | Metric::WordSalad | Metric::Drift => incoherent.region_of(m),
            Metric::ToolLoop => None,
        };
        let findings: Vec<Finding> = judged
            .iter()
            .filter_map(|c| {
                let level = checks::effective_level(c, &judged);
                let region = region_of(c.metric).filter(|_| level > Verdict::Pass)?;
                // Where the finding starts when it decides alone: a copy's source, a line's
                // first occurrence.
                let first = match c.metric {
                    Metric::Copies => found.copy_source,
                    Metric::Maxline => line_region.as_ref().and(most_repeated).map(|m| m.first.start),
                    _ => None,
                }
                .unwrap_or(region.start);
                Some(Finding { metric: c.metric, level, first, region })
            })
            .collect();
        let onset = onset::onset(verdict, &findings).map(|at| onset::word_start(text, at));
        // A log keeps a report per message: no spare capacity in them.
        reasons.shrink_to_fit();
        checks.shrink_to_fit();
        spans.shrink_to_fit();
        metrics.profile.windows.shrink_to_fit();
        Report {
            bytes: text.len(),
            verdict,
            tripped,
            seed_verdict: checks::seed_verdict(&metrics, t),
            onset,
            reasons,
            metrics,
            checks,
            spans,
            spans_not_listed,
            too_short,
            thresholds: *t,
        }
    }
}

/// Texts from this size have their gzip pass and profile (and, analysed whole, their words and
/// lines) scanned beside the token scorers (natively): below it a thread costs more than it saves.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
pub const PARALLEL_FROM_BYTES: usize = 256 * 1024;

/// The seed's gzip size of `text`, the loop checks' findings, the incoherence checks' (which
/// judge the whole text at every report), and what `also` returns. The gzip pass, the windowed
/// profile, the incoherence checks and `also` (the seed's word and line scans of a text
/// analysed whole) are independent of the token scorers: on a long text, natively, the gzip
/// pass runs on a second thread meanwhile, and the others on whichever thread is free first
/// (the gzip pass takes longer than the token scorers on prose, less on a loop). The wasm build
/// runs everything on one thread.
fn gzip_and_loop_checks<R: Send>(
    text: &str,
    prompt: Option<&str>,
    t: &Thresholds,
    also: impl FnOnce() -> R + Send,
) -> (usize, loop_checks::LoopFindings, IncoherenceFindings, R) {
    #[cfg(not(target_arch = "wasm32"))]
    if text.len() >= PARALLEL_FROM_BYTES {
        let profile = FirstCome::new(|| super::profile::profile(text));
        let also = FirstCome::new(also);
        let incoherent = FirstCome::new(|| incoherence::find_with_prompt(text, prompt, &t.incoherence_rules()));
        let both = || {
            profile.run();
            incoherent.run();
            also.run();
        };
        return std::thread::scope(|scope| {
            let side = scope.spawn(|| {
                let bytes = gzip_size(text.as_bytes());
                both();
                bytes
            });
            let gzip = std::cell::Cell::new(0);
            let rules = t.loop_rules();
            let found = loop_checks::find_with_profile(text, &rules, || {
                both();
                gzip.set(side.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
                profile.take()
            });
            (gzip.get(), found, incoherent.take(), also.take())
        });
    }
    let more = also();
    let found = loop_checks::find(text, &t.loop_rules());
    (gzip_size(text.as_bytes()), found, incoherence::find_with_prompt(text, prompt, &t.incoherence_rules()), more)
}

/// Too short to judge: nothing but whitespace, or under `min_bytes` non-blank bytes in a text
/// under `gzip_min_bytes` in all. A short reply followed by kilobytes of blank lines (a served
/// model emitting newlines until `max_tokens`) is long enough: its blank run is judged.
pub fn is_too_short(text: &str, t: &Thresholds) -> bool {
    let blank_free = text.trim_matches(is_py_whitespace).len();
    blank_free == 0 || blank_free < t.min_bytes && text.len() < t.gzip_min_bytes
}

/// Analyses a whole text at once: what one `push` and one `report` give, without copying
/// the text into an [`Analyzer`].
pub fn analyze(text: &str) -> Report {
    analyze_with(text, &Thresholds::default())
}

/// [`analyze`] against thresholds `t` (a person's, see [`Thresholds::assign`]).
pub fn analyze_with(text: &str, t: &Thresholds) -> Report {
    analyze_with_prompt(text, None, t)
}

/// [`analyze_with`] for a model's reply to `prompt` (the last user message before it in its
/// conversation), when it has one: the drift check measures the reply against the prompt's
/// topic too (see [`incoherence::drift`]); every other check reads the text alone.
pub fn analyze_with_prompt(text: &str, prompt: Option<&str>, t: &Thresholds) -> Report {
    let (gzip_bytes, found, incoherent, scans) = gzip_and_loop_checks(text, prompt, t, || {
        let mut scans = Scans::default();
        scans.scan(text, 0, t);
        scans
    });
    scans.report_with(text, t, gzip_bytes, found, incoherent, Detail::Whole)
}

/// Whether `text` PASSes against `t`, found without its two DEFLATE passes where they cannot
/// change its verdict: a text under `gzip_min_bytes` (its gzip ratio is not judged) and under
/// the degenerate end's `min_bytes` (nor is its profile). `Some(too_short)` when it passes;
/// `None` when it does not, or is long enough for its passes to count — then
/// [`analyze_with`] it. A log of 300,000 short replies spent most of its time resetting the
/// compressor (about 225 KB zeroed a pass) for figures no verdict reads; the figures
/// themselves are made, exactly, whenever the report is (`analyze_with`).
pub fn passes_without_deflate(text: &str, t: &Thresholds) -> Option<bool> {
    if text.len() >= t.gzip_min_bytes || text.len() >= t.loop_rules().degenerate_end.min_bytes {
        return None;
    }
    // Stand-ins no check judges at this size (a ratio over 1, a profile without windows);
    // the report made with them is dropped, only its verdict read.
    let unprofiled = Profile { window: super::profile::WINDOW, windows: Vec::new(), onset: None, min_ratio: 1.0 };
    let report = analyze_without_deflate(text, t).finish_with(text, text.len() + 1, unprofiled, Detail::Verdict);
    (report.verdict == Verdict::Pass).then_some(report.too_short)
}

/// How much of a report to write: all of it, or only what its verdict needs (no reasons in
/// words, no onset) when only the verdict is read — a log's short texts that pass spent a
/// sixth of their time writing sentences nobody reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Detail {
    Whole,
    Verdict,
}

/// A whole text analysed but for its two DEFLATE passes (its gzip-9 size and its windowed
/// profile), which are counted elsewhere meanwhile. [`AnalysisWithoutDeflate::finish`] with the
/// text's passes gives what [`analyze`] gives.
#[derive(Debug)]
pub struct AnalysisWithoutDeflate {
    tokens: TokenAnalysis,
    incoherent: IncoherenceFindings,
}

/// Everything [`analyze_with`] does to `text` against `t` except its DEFLATE passes.
pub fn analyze_without_deflate(text: &str, t: &Thresholds) -> AnalysisWithoutDeflate {
    AnalysisWithoutDeflate {
        tokens: TokenAnalysis::new(text, t),
        incoherent: incoherence::find(text, &t.incoherence_rules()),
    }
}

impl AnalysisWithoutDeflate {
    /// The report on `text` (the text this was made from), whose gzip-9 size is `gzip_bytes`
    /// ([`gzip_size`]) and windowed profile `profile` ([`super::profile::profile`]).
    pub fn finish(self, text: &str, gzip_bytes: usize, profile: Profile) -> Report {
        self.finish_with(text, gzip_bytes, profile, Detail::Whole)
    }

    fn finish_with(self, text: &str, gzip_bytes: usize, profile: Profile, detail: Detail) -> Report {
        self.tokens.finish_with(text, gzip_bytes, profile, self.incoherent, detail)
    }
}

/// A whole text analysed but for its side passes (its gzip-9 size, the seed's word scan and its
/// incoherence checks: [`SidePasses`]), which are counted elsewhere meanwhile — the page counts
/// a long file's in a second worker, from the file's bytes, while the first runs the token
/// scorers, the seed's line scan and the windowed profile (the wasm build has one thread per
/// worker).
/// [`AnalysisWithoutSidePasses::finish`] with the text's side passes gives what [`analyze`]
/// gives.
#[derive(Debug)]
pub struct AnalysisWithoutSidePasses {
    tokens: TokenAnalysis,
    profile: Profile,
}

/// Everything [`analyze_with`] does to `text` against `t` except its side passes
/// ([`side_passes`](super::side_passes::side_passes)).
pub fn analyze_without_side_passes(text: &str, t: &Thresholds) -> AnalysisWithoutSidePasses {
    let mut scans = Scans::default();
    scans.scan_lines(text, 0, t);
    let tokens = TokenAnalysis::with_scans(text, t, scans);
    AnalysisWithoutSidePasses { tokens, profile: super::profile::profile(text) }
}

impl AnalysisWithoutSidePasses {
    /// The report on `text` (the text this was made from), whose side passes are `side`
    /// ([`side_passes`](super::side_passes::side_passes), counted against the same thresholds).
    pub fn finish(mut self, text: &str, side: SidePasses) -> Report {
        let SidePasses { gzip_bytes, words, incoherent } = side;
        self.tokens.scans.words = words;
        self.tokens.finish_with(text, gzip_bytes, self.profile, incoherent, Detail::Whole)
    }
}

/// What both of the above hold: a text's token scorers' findings and the seed's word and line
/// scans, against the thresholds they were made with.
#[derive(Debug)]
struct TokenAnalysis {
    thresholds: Thresholds,
    scans: Scans,
    found: loop_checks::TokenFindings,
}

impl TokenAnalysis {
    fn new(text: &str, t: &Thresholds) -> Self {
        let mut scans = Scans::default();
        scans.scan(text, 0, t);
        Self::with_scans(text, t, scans)
    }

    fn with_scans(text: &str, t: &Thresholds, scans: Scans) -> Self {
        Self { thresholds: *t, scans, found: loop_checks::find_by_tokens(text, &t.loop_rules()) }
    }

    /// The report on `text` given the passes the others count.
    fn finish_with(
        self,
        text: &str,
        gzip_bytes: usize,
        profile: Profile,
        incoherent: IncoherenceFindings,
        detail: Detail,
    ) -> Report {
        let found = self.found.judge(text, &self.thresholds.loop_rules(), profile);
        self.scans.report_with(text, &self.thresholds, gzip_bytes, found, incoherent, detail)
    }
}

#[cfg(test)]
mod tests {
    use super::super::profile::profile;
    use super::*;

    #[test]
    fn a_short_text_passes_without_its_deflate_passes_exactly_when_its_full_report_passes() {
        let mut texts: Vec<String> = vec![
            String::new(),
            "ok".into(),
            "   \n\n  ".into(),
            "The answer is 42.".into(),
            "Short and fine, really: the disk is full.".into(),
            "model model model model".into(),
            "no no no no no no no no no no no no no".into(),
            "set set set set set set set".into(),
            "line\n".repeat(12),
            "Wait, let me check.\n".repeat(6),
            "x".repeat(1023),
            "x".repeat(1024),
            format!("Here is the answer:{}", "\n".repeat(2000)),
            crate::samples::PROSE.chars().take(900).collect(),
            crate::samples::PROSE.repeat(5),
        ];
        // Every prefix of a loop and of prose, across the sizes a short reply has.
        let looping = format!("{}{}", &crate::samples::PROSE[..300], "I will check the file again. ".repeat(40));
        for end in (0..looping.len()).step_by(37) {
            texts.push(looping[..crate::analyze::text_units::floor_boundary(&looping, end)].to_string());
        }
        let mut loose = Thresholds::SEED;
        loose.assign("maxrun.warn=3").expect("a setting");
        for t in [Thresholds::SEED, loose] {
            for text in &texts {
                let full = analyze_with(text, &t);
                let quick = passes_without_deflate(text, &t);
                if text.len() < t.gzip_min_bytes && text.len() < t.loops.degenerate_end.min_bytes {
                    let expected = (full.verdict == Verdict::Pass).then_some(full.too_short);
                    assert_eq!(quick, expected, "{text:?}");
                } else {
                    assert_eq!(quick, None, "long enough for its DEFLATE passes to count: {}", text.len());
                }
            }
        }
    }

    #[test]
    fn a_text_analysed_without_its_deflate_passes_and_given_them_gets_the_same_report() {
        let prose = crate::samples::PROSE;
        for text in [
            prose.to_string(),
            format!("{}{}", prose.repeat(60), "Let me check the configuration once more.\n".repeat(3_000)),
            "word ".repeat(50),
            String::new(),
        ] {
            let report = analyze_without_deflate(&text, &Thresholds::SEED).finish(
                &text,
                gzip_size(text.as_bytes()),
                profile(&text),
            );
            assert_eq!(report, analyze(&text));
            let mut loose = Thresholds::SEED;
            loose.assign("maxline.fail=5000").expect("a setting");
            let report =
                analyze_without_deflate(&text, &loose).finish(&text, gzip_size(text.as_bytes()), profile(&text));
            assert_eq!(report, analyze_with(&text, &loose), "the thresholds given are the ones judged against");
        }
    }

    #[test]
    fn a_long_text_gets_the_same_findings_with_its_gzip_pass_on_another_thread() {
        let prose = crate::samples::PROSE;
        let text = format!("{}{}", prose.repeat(60), "Let me check the configuration once more.\n".repeat(3_000));
        assert!(text.len() >= PARALLEL_FROM_BYTES);
        let t = Thresholds::default();
        let (gzip, found, incoherent, ()) = gzip_and_loop_checks(&text, None, &t, || ());
        assert_eq!(incoherent, incoherence::find(&text, &t.incoherence_rules()));
        assert_eq!(gzip, gzip_size(text.as_bytes()));
        assert_eq!(format!("{found:?}"), format!("{:?}", loop_checks::find(&text, &t.loop_rules())));
        // Its words and lines scanned on that thread too: the report of one push.
        let mut pushed = Analyzer::new();
        pushed.push(&text);
        assert_eq!(analyze(&text), pushed.report());
    }
}
