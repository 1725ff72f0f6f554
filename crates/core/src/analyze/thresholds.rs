//! Every WARN and FAIL threshold, in one type: the seed's three heuristics (the script's values
//! by default), the loop checks' rules and the tool-call check's (judged per conversation, in
//! `judge`). The checks read them from here, and the words that state a rule (the page's
//! checks table, the CLI, the docs, tested) are made from them.

use serde::{Deserialize, Serialize};

use crate::wording::{bytes_text, percent};

/// Where each check starts to WARN and to FAIL. Counts trip at or above their threshold;
/// the gzip ratio trips below its threshold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    pub maxrun_warn: usize,
    pub maxrun_fail: usize,
    pub maxline_warn: usize,
    pub maxline_fail: usize,
    pub gzip_ratio_warn: f64,
    pub gzip_ratio_fail: f64,
    /// Texts with fewer non-blank bytes than this are too short to judge, unless their blank
    /// part alone reaches `gzip_min_bytes` (see `analyzer::is_too_short`); texts of only
    /// whitespace always are.
    pub min_bytes: usize,
    /// The gzip ratio is judged only from this many bytes of text.
    #[serde(default = "gzip_min_bytes")]
    pub gzip_min_bytes: usize,
    /// The loop check's main thresholds, in copies said back to back: its WARN clauses and its
    /// FAIL clauses (see [`LoopRules`]) move with these from the seed's 3 (see
    /// [`Thresholds::loop_rules`]).
    #[serde(default = "loop_warn")]
    pub loop_warn: usize,
    #[serde(default = "loop_fail")]
    pub loop_fail: usize,
    /// The copies check's main thresholds, the share of the text looping copies cover to WARN
    /// and to FAIL; the rule's other shares move with them.
    #[serde(default = "copies_warn")]
    pub copies_warn: f64,
    #[serde(default = "copies_fail")]
    pub copies_fail: f64,
    /// The degenerate-end check's shares of the text ([`EndRules`]).
    #[serde(default = "degenerate_end_warn")]
    pub degenerate_end_warn: f64,
    #[serde(default = "degenerate_end_fail")]
    pub degenerate_end_fail: f64,
    /// The incoherence checks' main thresholds ([`IncoherenceRules`], see
    /// [`Thresholds::incoherence_rules`]): leaked template markers, odd words and glued words
    /// (and misplaced function-word pairs) in a window to WARN and to FAIL, the share of function words under which running text
    /// is in no language, and the share of drifted text that WARNs.
    #[serde(default = "template_leak_warn")]
    pub template_leak_warn: usize,
    #[serde(default = "template_leak_fail")]
    pub template_leak_fail: usize,
    #[serde(default = "token_soup_warn")]
    pub token_soup_warn: usize,
    #[serde(default = "token_soup_fail")]
    pub token_soup_fail: usize,
    #[serde(default = "token_soup_function_share")]
    pub token_soup_function_share: f64,
    #[serde(default = "word_salad_warn")]
    pub word_salad_warn: usize,
    #[serde(default = "word_salad_fail")]
    pub word_salad_fail: usize,
    #[serde(default = "word_salad_misplaced_warn")]
    pub word_salad_misplaced_warn: usize,
    #[serde(default = "word_salad_misplaced_fail")]
    pub word_salad_misplaced_fail: usize,
    #[serde(default = "word_salad_run_on_warn")]
    pub word_salad_run_on_warn: usize,
    #[serde(default = "word_salad_run_on_fail")]
    pub word_salad_run_on_fail: usize,
    #[serde(default = "drift_warn")]
    pub drift_warn: f64,
    /// The loop checks' rules, by reference: every `Report` carries its `Thresholds`, and the
    /// rules are a few hundred bytes. Not in the JSON report: the settings above move them
    /// ([`Thresholds::loop_rules`]), each check there carries the figures it was judged
    /// against, and `Metric::rule` says the rest in words.
    #[serde(skip, default = "seed_loop_rules")]
    pub loops: &'static LoopRules,
    /// The tool-call check's rules, by reference and out of the JSON report for the same
    /// reasons (a text's report never holds the check: it judges a conversation's calls).
    #[serde(skip, default = "seed_tool_rules")]
    pub tools: &'static ToolRules,
    /// How a comparison with a golden reference is judged (`compare`); out of the JSON report.
    #[serde(skip)]
    pub compare: super::compare_rules::CompareRules,
    /// The incoherence checks' rules (leaked chat templates, token soup), by reference and
    /// out of the JSON report for the same reasons as `loops`; the settings above move them
    /// ([`Thresholds::incoherence_rules`]).
    #[serde(skip, default = "seed_incoherence_rules")]
    pub incoherence: &'static IncoherenceRules,
}

fn gzip_min_bytes() -> usize {
    Thresholds::SEED.gzip_min_bytes
}

fn loop_warn() -> usize {
    Thresholds::SEED.loop_warn
}

fn loop_fail() -> usize {
    Thresholds::SEED.loop_fail
}

fn copies_warn() -> f64 {
    Thresholds::SEED.copies_warn
}

fn copies_fail() -> f64 {
    Thresholds::SEED.copies_fail
}

fn degenerate_end_warn() -> f64 {
    Thresholds::SEED.degenerate_end_warn
}

fn degenerate_end_fail() -> f64 {
    Thresholds::SEED.degenerate_end_fail
}

fn template_leak_warn() -> usize {
    IncoherenceRules::SEED.leak_warn
}

fn template_leak_fail() -> usize {
    IncoherenceRules::SEED.leak_fail
}

fn token_soup_warn() -> usize {
    IncoherenceRules::SEED.soup_warn
}

fn token_soup_fail() -> usize {
    IncoherenceRules::SEED.soup_fail
}

fn token_soup_function_share() -> f64 {
    IncoherenceRules::SEED.soup_function_share
}

fn word_salad_warn() -> usize {
    IncoherenceRules::SEED.salad_warn
}

fn word_salad_fail() -> usize {
    IncoherenceRules::SEED.salad_fail
}

fn word_salad_misplaced_warn() -> usize {
    IncoherenceRules::SEED.salad_misplaced_warn
}

fn word_salad_misplaced_fail() -> usize {
    IncoherenceRules::SEED.salad_misplaced_fail
}

fn word_salad_run_on_warn() -> usize {
    IncoherenceRules::SEED.salad_run_on_warn
}

fn word_salad_run_on_fail() -> usize {
    IncoherenceRules::SEED.salad_run_on_fail
}

fn drift_warn() -> f64 {
    IncoherenceRules::SEED.drift_warn
}

fn seed_loop_rules() -> &'static LoopRules {
    &LoopRules::SEED
}

fn seed_tool_rules() -> &'static ToolRules {
    &ToolRules::SEED
}

fn seed_incoherence_rules() -> &'static IncoherenceRules {
    &IncoherenceRules::SEED
}

/// The incoherence checks beyond repetition (see `analyze::incoherence`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IncoherenceRules {
    /// The template-leak check: leaked chat-template markers or role lines (outside code and
    /// quotes) that WARN, at least…
    pub leak_warn: usize,
    /// …and that FAIL when one of them is followed by at least `leak_text_after` non-blank
    /// bytes of text (the server did not stop: the model wrote on, often a turn for the other
    /// side).
    pub leak_fail: usize,
    pub leak_text_after: usize,
    /// The token-soup check counts odd words (scripts mixed inside a word, byte-level tokenizer
    /// junk, mojibake, U+FFFD, byte-fallback tokens) in every window of this many words…
    pub soup_window: usize,
    /// …and WARNs when a window holds at least this many…
    pub soup_warn: usize,
    /// …and FAILs at this many.
    pub soup_fail: usize,
    /// Every word of a window of `soup_function_window` words of running text whose function
    /// words are fewer than `soup_function_share` of its words of letters is odd (words of no
    /// language: a model sampling its vocabulary at random; see `incoherence::no_language`).
    pub soup_function_window: usize,
    pub soup_function_share: f64,
    /// The word-salad check counts glued words (a function word run together with the words
    /// around it) in the same windows: WARN at this many…
    pub salad_warn: usize,
    /// …and FAIL at this many.
    pub salad_fail: usize,
    /// It also counts misplaced function-word pairs (`to to`, `the of`, `a the`: pairs English
    /// does not write, see `incoherence::misplaced`) in every window of this many words…
    pub salad_misplaced_window: usize,
    /// …WARN at this many…
    pub salad_misplaced_warn: usize,
    /// …and FAIL at this many. A text of fewer words than the window is judged at the same
    /// share of its words, WARN at no fewer than `salad_misplaced_least` pairs and FAIL at one
    /// more than its WARN count at least ([`IncoherenceRules::misplaced_counts_in`]).
    pub salad_misplaced_fail: usize,
    pub salad_misplaced_least: usize,
    /// It also measures sentences that never end (see `incoherence::run_on`: words with no
    /// stop and no line break, in English prose): WARN at a sentence of this many words…
    pub salad_run_on_warn: usize,
    /// …and FAIL at this many.
    pub salad_run_on_fail: usize,
    /// Topic drift WARNs when none of the opening's topic words comes back in this share of
    /// the text, at its end (unstructured English prose of 4 KiB or more); it never FAILs.
    pub drift_warn: f64,
}

impl IncoherenceRules {
    /// Chosen on the labelled corpus (`crates/core/tests/incoherence_evidence.rs`).
    pub const SEED: IncoherenceRules = IncoherenceRules {
        leak_warn: 1,
        leak_fail: 1,
        leak_text_after: 8,
        soup_window: 64,
        soup_warn: 3,
        soup_fail: 6,
        soup_function_window: 128,
        soup_function_share: 0.1,
        salad_warn: 3,
        salad_fail: 6,
        salad_misplaced_window: 256,
        salad_misplaced_warn: 8,
        salad_misplaced_fail: 10,
        salad_misplaced_least: 3,
        salad_run_on_warn: 200,
        salad_run_on_fail: 400,
        drift_warn: 0.4,
    };

    /// The template-leak check's WARN rule in words.
    pub fn leak_warn_text(&self) -> String {
        format!("≥ {} chat-template marker or role line outside code and quotes", self.leak_warn)
    }

    /// The template-leak check's FAIL rule in words.
    pub fn leak_fail_text(&self) -> String {
        format!("≥ {} followed by ≥ {} non-blank bytes of text", self.leak_fail, self.leak_text_after)
    }

    /// The token-soup check's WARN rule in words.
    pub fn soup_warn_text(&self) -> String {
        format!("≥ {} odd words in {} words", self.soup_warn, self.soup_window)
    }

    /// The token-soup check's FAIL rule in words.
    pub fn soup_fail_text(&self) -> String {
        format!(
            "≥ {} odd words in {} words (in a text of fewer words, the same share, at least {})",
            self.soup_fail, self.soup_window, self.soup_warn
        )
    }

    /// The drift check's WARN rule in words.
    pub fn drift_warn_text(&self) -> String {
        format!("≥ {} of the text", percent(self.drift_warn))
    }

    /// The drift check's FAIL rule in words.
    pub fn drift_fail_text(&self) -> String {
        "never: drift alone is a WARN".to_string()
    }

    /// The word-salad check's WARN rule in words.
    pub fn salad_warn_text(&self) -> String {
        format!(
            "≥ {} glued words in {} words, ≥ {} misplaced function-word pairs in {} words, or a sentence of ≥ {} words that never ends",
            self.salad_warn, self.soup_window, self.salad_misplaced_warn, self.salad_misplaced_window, self.salad_run_on_warn
        )
    }

    /// The word-salad check's FAIL rule in words.
    pub fn salad_fail_text(&self) -> String {
        format!(
            "≥ {} glued words in {} words, ≥ {} misplaced pairs in {} words (in a text of fewer words, the same share: glued words at least the WARN count; misplaced pairs WARN at least {} and FAIL at one more), or a sentence of ≥ {} words",
            self.salad_fail, self.soup_window, self.salad_misplaced_fail, self.salad_misplaced_window, self.salad_misplaced_least, self.salad_run_on_fail
        )
    }

    /// The misplaced-pair counts that WARN and FAIL a text of `words` words: the window's
    /// counts, or in a text shorter than the window the same share of its words — WARN at
    /// `salad_misplaced_least` pairs at least, FAIL at one more than that at least (healthy
    /// English writes none of these pairs in a text of a few dozen words; three in 64 words
    /// is a third of what shuffled prose shows: `crates/core/tests/incoherence_evidence.rs`).
    pub fn misplaced_counts_in(&self, words: usize) -> (usize, usize) {
        let (window, warn, fail) = (self.salad_misplaced_window, self.salad_misplaced_warn, self.salad_misplaced_fail);
        if words >= window {
            return (warn, fail);
        }
        let warn_at = (warn * words).div_ceil(window).max(self.salad_misplaced_least).min(warn);
        (warn_at, (fail * words).div_ceil(window).max(warn_at + 1).min(fail.max(warn_at)))
    }

    /// The count that FAILs a text of `words` words in a check counted in windows of `window`
    /// words: `fail`, or in a text shorter than the window the same share of its words (never
    /// fewer than `warn`).
    pub fn fail_in(warn: usize, fail: usize, window: usize, words: usize) -> usize {
        if words >= window {
            return fail;
        }
        (fail * words).div_ceil(window).max(warn)
    }
}

impl Default for IncoherenceRules {
    fn default() -> Self {
        Self::SEED
    }
}

/// The loop, copies and degenerate-end checks' rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopRules {
    /// The loop check: a tandem repeat (a unit said back to back) FAILs when it meets every
    /// condition of one of these clauses…
    pub loop_fail: [TandemClause; 6],
    /// …and WARNs when it meets one of these.
    pub loop_warn: [TandemClause; 2],
    /// A bare count (numbers counting up by one with nothing but punctuation between them: an
    /// empty numbered list, "1 2 3 …") is judged by those clauses from this many numbers.
    pub bare_count_min: usize,
    /// A unit whose numbers change otherwise than one counting up by one (with words coming
    /// back: "The answer is 42." … "The answer is 17.") is judged from this many copies:
    /// similar code lines change several numbers at once.
    pub numbers_min: usize,
    pub copies: CopyRules,
    pub degenerate_end: EndRules,
}

/// One clause of the loop check's rule: a tandem repeat meets it when every condition holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TandemClause {
    /// Copies, at least: whole copies, or (with `partial`) copies counting a last partial one.
    pub copies: f64,
    pub partial: bool,
    /// Share of the text the run covers, at least.
    pub share: f64,
    /// Bytes the run spans, at least.
    pub bytes: usize,
    /// The run reaches the end of the text (within one unit, or 2 bytes).
    pub to_end: bool,
}

/// The copies check: copies of earlier text found by shingles of 8 tokens, with unbounded
/// look-back. A *long* copy has at least `long_tokens` tokens with at most `max_edits` of them
/// edited; a *looping* copy has at least `looping_tokens` (as few edits) and is at least twice
/// as long as its distance from its source (the text says the same thing three times or more).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyRules {
    pub long_tokens: usize,
    pub max_edits: f64,
    pub looping_tokens: usize,
    /// FAIL: one long copy covers this share of the text (a code block shown again, see
    /// `code_blocks`, counts only toward WARN)…
    pub fail_one_long: f64,
    /// …or looping copies cover this share.
    pub fail_looping: f64,
    /// WARN: long copies cover this share in all…
    pub warn_long: f64,
    /// …or looping copies this share…
    pub warn_looping: f64,
    /// …or copies of any length this share.
    pub warn_any: f64,
    /// Restarts (see `restarts`: one passage re-told at least twice, reworded): the
    /// re-tellings cover this share of the text to WARN…
    pub restart_warn: f64,
    /// …and this share to FAIL.
    pub restart_fail: f64,
}

/// The tool-call check, judged per conversation: a call is its tool's name and its arguments made
/// canonical (JSON keys sorted, insignificant whitespace dropped); a *repeat* is a call identical
/// to the call before it that got the same result; a *cycle* is a sequence of `cycle_periods`
/// calls said again back to back, each call with the same result as in the copy before.
///
/// The anchors, from agents that stop themselves: gemini-cli stops at 5 identical calls in a row;
/// opencode's doom-loop prompt and Roo Code at 3; Cline warns at 3 and escalates at 5; OpenHands'
/// stuck detector counts 4 identical action + observation pairs, 3 identical action + error
/// pairs, and an A, B alternation over 6 steps (3 copies of a cycle of 2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToolRules {
    /// Identical calls in a row, each with the same result: WARN at this many…
    pub same_warn: usize,
    /// …and FAIL at this many…
    pub same_fail: usize,
    /// …or at this many when that result is an error.
    pub error_fail: usize,
    /// The shortest and longest cycle, in calls.
    pub cycle_periods: [usize; 2],
    /// A cycle said this many times back to back (whole copies) WARNs…
    pub cycle_warn: usize,
    /// …and this many FAILs.
    pub cycle_fail: usize,
    /// A result is an error when its first non-blank line starts with one of these, ignoring
    /// case (the inputs do not all say whether a result is an error).
    pub error_starts: &'static [&'static str],
    /// Across turns: a turn that says again at most this many words of earlier turns (a
    /// formula: "Done.", "Running the tests again.") while the work moved on since (a call with
    /// new arguments or a new result, a user's message) is left out of the streams.
    pub formula_words: usize,
}

/// The degenerate-end check: the share of the text from the windowed profile's onset to the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndRules {
    pub warn: f64,
    pub fail: f64,
    /// Judged only from this many bytes of text (two of the profile's windows).
    pub min_bytes: usize,
}

impl Thresholds {
    /// The seed script's thresholds (section H of the original diagnostic) and the loop checks'
    /// rules, chosen on the labelled corpus (`crates/core/tests/scorer_evidence.rs`).
    pub const SEED: Thresholds = Thresholds {
        maxrun_warn: 6,
        maxrun_fail: 12,
        maxline_warn: 5,
        maxline_fail: 12,
        gzip_ratio_warn: 0.15,
        gzip_ratio_fail: 0.10,
        min_bytes: 20,
        gzip_min_bytes: 1024,
        loop_warn: LOOP_COPIES_ANCHOR,
        loop_fail: LOOP_COPIES_ANCHOR,
        copies_warn: LoopRules::SEED.copies.warn_looping,
        copies_fail: LoopRules::SEED.copies.fail_looping,
        degenerate_end_warn: LoopRules::SEED.degenerate_end.warn,
        degenerate_end_fail: LoopRules::SEED.degenerate_end.fail,
        template_leak_warn: IncoherenceRules::SEED.leak_warn,
        template_leak_fail: IncoherenceRules::SEED.leak_fail,
        token_soup_warn: IncoherenceRules::SEED.soup_warn,
        token_soup_fail: IncoherenceRules::SEED.soup_fail,
        token_soup_function_share: IncoherenceRules::SEED.soup_function_share,
        word_salad_warn: IncoherenceRules::SEED.salad_warn,
        word_salad_fail: IncoherenceRules::SEED.salad_fail,
        word_salad_misplaced_warn: IncoherenceRules::SEED.salad_misplaced_warn,
        word_salad_misplaced_fail: IncoherenceRules::SEED.salad_misplaced_fail,
        word_salad_run_on_warn: IncoherenceRules::SEED.salad_run_on_warn,
        word_salad_run_on_fail: IncoherenceRules::SEED.salad_run_on_fail,
        drift_warn: IncoherenceRules::SEED.drift_warn,
        loops: &LoopRules::SEED,
        tools: &ToolRules::SEED,
        compare: super::compare_rules::CompareRules::DEFAULT,
        incoherence: &IncoherenceRules::SEED,
    };
}

/// The copies the loop check's settings (`loop.warn`, `loop.fail`) are counted from: the
/// seed's clauses with this value are [`LoopRules::SEED`]'s.
const LOOP_COPIES_ANCHOR: usize = 3;

impl Thresholds {
    /// The loop, copies and degenerate-end checks' rules with this person's settings in them:
    /// the seed's ([`Self::loops`]) with each WARN (FAIL) clause of the loop check asking
    /// `loop_warn − 3` (`loop_fail − 3`) copies more, each WARN (FAIL) share of the copies
    /// check moved by `copies_warn − 25 %` (`copies_fail − 40 %`, kept within 1 %–100 %), and
    /// the degenerate end's shares set. The defaults give [`LoopRules::SEED`] exactly.
    pub fn loop_rules(&self) -> LoopRules {
        let mut rules = *self.loops;
        let shift = |clauses: &mut [TandemClause], to: usize| {
            for c in clauses {
                c.copies = (c.copies + to as f64 - LOOP_COPIES_ANCHOR as f64).max(1.0);
            }
        };
        shift(&mut rules.loop_warn, self.loop_warn);
        shift(&mut rules.loop_fail, self.loop_fail);
        let moved = |share: f64, by: f64| (share + by).clamp(0.01, 1.0);
        let c = &mut rules.copies;
        let by = self.copies_warn - c.warn_looping;
        (c.warn_long, c.warn_any, c.restart_warn) =
            (moved(c.warn_long, by), moved(c.warn_any, by), moved(c.restart_warn, by));
        c.warn_looping = self.copies_warn;
        let by = self.copies_fail - c.fail_looping;
        (c.fail_one_long, c.restart_fail) = (moved(c.fail_one_long, by), moved(c.restart_fail, by));
        c.fail_looping = self.copies_fail;
        rules.degenerate_end.warn = self.degenerate_end_warn;
        rules.degenerate_end.fail = self.degenerate_end_fail;
        rules
    }
}

impl Thresholds {
    /// The incoherence checks' rules with this person's settings in them (the rest the
    /// seed's, [`Self::incoherence`]). The defaults give [`IncoherenceRules::SEED`] exactly.
    pub fn incoherence_rules(&self) -> IncoherenceRules {
        IncoherenceRules {
            leak_warn: self.template_leak_warn,
            leak_fail: self.template_leak_fail,
            soup_warn: self.token_soup_warn,
            soup_fail: self.token_soup_fail,
            soup_function_share: self.token_soup_function_share,
            salad_warn: self.word_salad_warn,
            salad_fail: self.word_salad_fail,
            salad_misplaced_warn: self.word_salad_misplaced_warn,
            salad_misplaced_fail: self.word_salad_misplaced_fail,
            salad_run_on_warn: self.word_salad_run_on_warn,
            salad_run_on_fail: self.word_salad_run_on_fail,
            drift_warn: self.drift_warn,
            ..*self.incoherence
        }
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Self::SEED
    }
}

const fn clause(copies: f64, share: f64, bytes: usize, to_end: bool) -> TandemClause {
    TandemClause { copies, partial: false, share, bytes, to_end }
}

impl LoopRules {
    pub const SEED: LoopRules = LoopRules {
        loop_fail: [
            clause(4.0, 0.5, 0, false),
            clause(3.0, 0.75, 0, false),
            clause(3.0, 0.4, 0, true),
            clause(5.0, 0.25, 0, true),
            clause(12.0, 0.0, 1024, false),
            TandemClause { copies: 2.5, partial: true, share: 0.9, bytes: 0, to_end: false },
        ],
        loop_warn: [clause(3.0, 0.25, 0, false), clause(8.0, 0.0, 256, false)],
        bare_count_min: 20,
        numbers_min: 8,
        copies: CopyRules {
            long_tokens: 32,
            max_edits: 0.12,
            looping_tokens: 16,
            fail_one_long: 0.3,
            fail_looping: 0.4,
            warn_long: 0.3,
            warn_looping: 0.25,
            warn_any: 0.5,
            restart_warn: 0.25,
            restart_fail: 0.4,
        },
        degenerate_end: EndRules { warn: 0.10, fail: 0.25, min_bytes: 8192 },
    };

    /// The loop check's WARN rule in words: "≥ 3 copies over 25 % of the text, or …".
    pub fn loop_warn_text(&self) -> String {
        clauses_text(&self.loop_warn)
    }

    /// The loop check's FAIL rule in words.
    pub fn loop_fail_text(&self) -> String {
        clauses_text(&self.loop_fail)
    }

    /// What the copies check counts, in words: "copies of ≥ 32 tokens with ≤ 12 % edits".
    pub fn copies_counted_text(&self) -> String {
        format!("copies of ≥ {} tokens with ≤ {} edits", self.copies.long_tokens, percent(self.copies.max_edits))
    }

    /// The copies check's WARN rule in words.
    pub fn copies_warn_text(&self) -> String {
        let c = &self.copies;
        format!(
            "long copies cover {} of the text, looping copies {}, copies of any length {}, or re-tellings of a \
             passage told ≥ 3 times {}",
            percent(c.warn_long),
            percent(c.warn_looping),
            percent(c.warn_any),
            percent(c.restart_warn)
        )
    }

    /// The copies check's FAIL rule in words.
    pub fn copies_fail_text(&self) -> String {
        let c = &self.copies;
        format!(
            "one long copy covers {} (a code block shown again counts only toward WARN), looping copies cover {}, or re-tellings of a passage told ≥ 3 times cover {}",
            percent(c.fail_one_long),
            percent(c.fail_looping),
            percent(c.restart_fail)
        )
    }
}

impl ToolRules {
    /// The anchors' thresholds, confirmed on the labelled agent sessions
    /// (`crates/core/tests/agent_evidence.rs`).
    pub const SEED: ToolRules = ToolRules {
        same_warn: 3,
        same_fail: 5,
        error_fail: 3,
        cycle_periods: [2, 4],
        cycle_warn: 3,
        cycle_fail: 4,
        error_starts: &["error", "fatal", "failed", "traceback", "exception", "<tool_use_error>"],
        formula_words: 12,
    };

    /// The WARN rule in words: "≥ 3 identical calls in a row with the same result, or a cycle
    /// of 2–4 calls said ≥ 3 times".
    pub fn warn_text(&self) -> String {
        let [shortest, longest] = self.cycle_periods;
        format!(
            "≥ {} identical calls in a row with the same result, or a cycle of {shortest}–{longest} calls said ≥ {} times",
            self.same_warn, self.cycle_warn
        )
    }

    /// The FAIL rule in words.
    pub fn fail_text(&self) -> String {
        format!(
            "≥ {} identical calls in a row with the same result, ≥ {} with the same error, or a cycle said ≥ {} times",
            self.same_fail, self.error_fail, self.cycle_fail
        )
    }

    /// What makes a result an error, in words.
    pub fn error_text(&self) -> String {
        let starts: Vec<String> = self.error_starts.iter().map(|s| format!("'{s}'")).collect();
        let starts = match starts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => starts.concat(),
        };
        format!("a result is an error when its format marks it failed (an error status, a non-zero exit code) or its first line starts with {starts}")
    }

    /// Whether a tool's result reads as an error (see [`Self::error_starts`]).
    pub fn is_error(&self, result: &str) -> bool {
        let first = result.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
        self.error_starts.iter().any(|s| first.get(..s.len()).is_some_and(|head| head.eq_ignore_ascii_case(s)))
    }
}

impl Default for ToolRules {
    fn default() -> Self {
        Self::SEED
    }
}

impl Default for LoopRules {
    fn default() -> Self {
        Self::SEED
    }
}

impl TandemClause {
    /// Whether a run of `count` whole copies (`copies` counting a last partial one) spanning
    /// `bytes` bytes of a text, a `share` of it, meets this clause.
    pub fn holds(&self, count: usize, copies: f64, bytes: usize, share: f64, to_end: bool) -> bool {
        let counted = if self.partial { copies } else { count as f64 };
        counted >= self.copies && share >= self.share && bytes >= self.bytes && (to_end || !self.to_end)
    }

    /// "≥ 5 copies running to the end over 25 %"; the first clause of a rule also says
    /// "of the text".
    fn text(&self, first: bool) -> String {
        // Precision formatting: `{}` on a float would link a second float printer into the wasm.
        let copies = if self.copies.fract() == 0.0 {
            format!("≥ {:.0} copies", self.copies)
        } else {
            format!("≥ {:.1} copies", self.copies)
        };
        let mut out = if self.partial { format!("{copies} (the last one may be partial)") } else { copies };
        if self.to_end {
            out.push_str(" running to the end");
        }
        if self.share > 0.0 {
            out.push_str(&format!(" over {}", percent(self.share)));
            if first {
                out.push_str(" of the text");
            }
        }
        if self.bytes > 0 {
            out.push_str(&format!(" over {}", bytes_text(self.bytes)));
        }
        out
    }
}

/// Clauses joined as a sentence: "a, b, or c".
fn clauses_text(clauses: &[TandemClause]) -> String {
    let parts: Vec<String> = clauses.iter().enumerate().map(|(i, c)| c.text(i == 0)).collect();
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{}, or {last}", rest.join(", ")),
        _ => parts.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_rules_in_words() {
        let r = LoopRules::SEED;
        assert_eq!(r.loop_warn_text(), "≥ 3 copies over 25 % of the text, or ≥ 8 copies over 256 bytes");
        assert_eq!(
            r.loop_fail_text(),
            "≥ 4 copies over 50 % of the text, ≥ 3 copies over 75 %, ≥ 3 copies running to the end over 40 %, \
             ≥ 5 copies running to the end over 25 %, ≥ 12 copies over 1 KiB, or ≥ 2.5 copies (the last one may \
             be partial) over 90 %"
        );
        assert_eq!(r.copies_counted_text(), "copies of ≥ 32 tokens with ≤ 12 % edits");
        assert_eq!(
            r.copies_warn_text(),
            "long copies cover 30 % of the text, looping copies 25 %, copies of any length 50 %, or re-tellings of \
             a passage told ≥ 3 times 25 %"
        );
        assert_eq!(
            r.copies_fail_text(),
            "one long copy covers 30 % (a code block shown again counts only toward WARN), looping copies cover 40 %, or re-tellings of a passage told ≥ 3 times cover 40 %"
        );
    }

    #[test]
    fn the_tool_rules_in_words() {
        let r = ToolRules::SEED;
        assert_eq!(
            r.warn_text(),
            "≥ 3 identical calls in a row with the same result, or a cycle of 2–4 calls said ≥ 3 times"
        );
        assert_eq!(
            r.fail_text(),
            "≥ 5 identical calls in a row with the same result, ≥ 3 with the same error, or a cycle said ≥ 4 times"
        );
        assert_eq!(
            r.error_text(),
            "a result is an error when its format marks it failed (an error status, a non-zero exit code) or \
             its first line starts with 'error', 'fatal', 'failed', 'traceback', 'exception' or '<tool_use_error>'"
        );
    }

    #[test]
    fn an_error_is_said_on_the_first_line() {
        let r = ToolRules::SEED;
        for (result, error) in [
            ("Error: no such file src/dates.rs", true),
            ("\n  error[E0425]: cannot find value `y`", true),
            ("<tool_use_error>File has not been read yet</tool_use_error>", true),
            ("Traceback (most recent call last):\n  File …", true),
            ("running 12 tests\ntest result: FAILED. 11 passed; 1 failed", false),
            ("fn parse() -> Result<Date, Error> {", false),
            ("", false),
            ("é", false),
        ] {
            assert_eq!(r.is_error(result), error, "{result:?}");
        }
    }

    #[test]
    fn a_clause_holds_only_when_every_condition_does() {
        let (to_end, partial) = (LoopRules::SEED.loop_fail[2], LoopRules::SEED.loop_fail[5]);
        assert!(to_end.holds(3, 3.0, 400, 0.4, true));
        assert!(!to_end.holds(3, 3.0, 400, 0.4, false), "must reach the end");
        assert!(!to_end.holds(2, 3.0, 400, 0.4, true), "whole copies are counted");
        assert!(partial.holds(2, 2.5, 90, 0.9, false), "a partial copy counts");
        assert!(!partial.holds(2, 2.4, 90, 0.95, false));
    }
}
