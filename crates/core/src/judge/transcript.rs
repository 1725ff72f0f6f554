//! Judging a transcript: every text [`judged_texts`] lists is analysed (identical messages
//! once: a request log repeats its history), each conversation is judged across its turns
//! ([`super::conversation`]: its streams are analysed here too, after every message), and the
//! overall verdict is the worst judged one — the model's output, unless inputs are judged on
//! request ([`JudgeOptions`]).

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use super::authorship::{Author, JudgeOptions};
use super::conversation::{judge_conversation, plan};
use super::judged_text::{judged_texts, JudgedText};
use super::kept_report::{Analyzed, KeptReport};
use super::model_stream::{StreamKind, StreamLayout};
use super::progress::{AnalysisProgress, PREVIEW_BYTES, PREVIEW_OVER};
use super::prompt::{against_prompt, prompt_of};
use super::reply_text::{join_reply, joined_len};
use super::report::{MessageReport, TranscriptReport};
use super::shares::TextKey;
use super::text_table::TextTable;
use super::turns::conversations;
use crate::analyze::incoherence::drift;
use crate::analyze::text_units::floor_boundary;
use crate::analyze::{analyze, Verdict};
use crate::ingest::Transcript;

/// Judges every message of `t` (identical texts once: request logs repeat their history),
/// every reply's reasoning + content, and every conversation across its turns; only the
/// model's output sets the verdict. With the defaults: [`Judging`] says how else.
pub fn judge_transcript(t: &Transcript) -> TranscriptReport {
    Judging::default().judge(t)
}

/// How a transcript is judged: under which [`JudgeOptions`], with which texts analysed before
/// (on other threads or workers; a text not among them is analysed here), telling whom how far
/// it got. `Judging::default().judge(t)` is [`judge_transcript`].
#[derive(Default)]
pub struct Judging<'a> {
    options: JudgeOptions,
    analyzed: HashMap<TextKey, Analyzed>,
    on_progress: Option<&'a mut dyn FnMut(AnalysisProgress)>,
}

impl<'a> Judging<'a> {
    /// Judging under `options` (the CLI's `--judge-inputs` and thresholds).
    pub fn new(options: JudgeOptions) -> Self {
        Self { options, ..Self::default() }
    }

    /// With the analyses of some texts made before, taken as they are: the CLI analyses a big
    /// log's texts on every core ([`Analyzed::of`] each), the page's workers share the work
    /// (their [`Report`](crate::analyze::Report)s: see [`super::split_in_two`]).
    pub fn analyzed<A: Into<Analyzed>>(mut self, analyzed: impl IntoIterator<Item = (TextKey, A)>) -> Self {
        self.analyzed = analyzed.into_iter().map(|(k, a)| (k, a.into())).collect();
        self
    }

    /// Calling `on_progress` before the first text and after each one (the caller decides how
    /// often to pass it on); a long text is previewed from its start first (see
    /// [`AnalysisProgress::preview`]). Without it no preview is analysed: nobody would see it.
    pub fn on_progress(mut self, on_progress: &'a mut dyn FnMut(AnalysisProgress)) -> Self {
        self.on_progress = Some(on_progress);
        self
    }

    /// Judges `t`.
    pub fn judge(self, t: &Transcript) -> TranscriptReport {
        judge(t, &self.options, self.analyzed, self.on_progress)
    }
}

/// Judges `t` under `options`, telling `on_progress` how far it got when there is one to tell
/// (without one, no preview is analysed: nobody would see it).
fn judge(
    t: &Transcript,
    options: &JudgeOptions,
    mut analysed: HashMap<TextKey, Analyzed>,
    on_progress: Option<&mut dyn FnMut(AnalysisProgress)>,
) -> TranscriptReport {
    let previews = on_progress.is_some();
    let mut no_progress = |_: AnalysisProgress| {};
    let on_progress = on_progress.unwrap_or(&mut no_progress);
    let msgs = &t.messages;
    let plans: Vec<_> = conversations(t).into_iter().map(|c| plan(t, c, &options.thresholds)).collect();
    let mut texts = judged_texts(t);
    for p in &plans {
        for (kind, messages) in &p.streams {
            let len = StreamLayout::new(t, messages).text.len();
            texts.push(JudgedText::Stream { kind: *kind, messages: messages.clone(), len });
        }
    }
    let bytes = texts.iter().map(|j| j.len(t)).sum();
    // A tool loop is known before any text is analysed: already the file's verdict so far.
    let tools = plans.iter().map(|p| p.tool_calls.level()).max().filter(|&v| v > Verdict::Pass);
    let mut progress = AnalysisProgress { texts: texts.len(), bytes, worst: tools, ..AnalysisProgress::default() };
    on_progress(progress);
    let mut reports: Vec<MessageReport> = Vec::with_capacity(texts.len());
    let mut seen: TextTable<usize> = TextTable::default();
    let mut prompted: HashMap<(&str, &str), KeptReport> = HashMap::new();
    for judged in texts {
        let size = judged.len(t);
        let report = match judged {
            JudgedText::Message(k) => {
                let m = &msgs[k];
                let report = match seen.entry(m.text.as_str()) {
                    Entry::Occupied(r) => reports[*r.get()].report.clone(),
                    Entry::Vacant(v) => {
                        v.insert(reports.len());
                        analysed.remove(&TextKey::Message(k)).map_or_else(
                            || {
                                preview(previews, &m.text, &mut progress, on_progress);
                                KeptReport::analysed(&m.text, &options.thresholds)
                            },
                            Analyzed::kept,
                        )
                    }
                };
                // A reply long enough for drift, measured against its prompt (once per text and
                // prompt: a request log repeats its history).
                let prompt = (m.text.len() >= drift::MIN_BYTES).then(|| prompt_of(t, k)).flatten();
                let report = match prompt {
                    Some(p) => prompted
                        .entry((m.text.as_str(), p))
                        .or_insert_with(|| against_prompt(report, &m.text, prompt, &options.thresholds))
                        .clone(),
                    None => report,
                };
                message_report(vec![k], false, None, report, Author::of(m), options)
            }
            JudgedText::Reply(parts) => {
                let report = analysed.remove(&TextKey::Reply(parts[0])).map_or_else(
                    || {
                        let text = join_reply(parts.iter().map(|&k| msgs[k].text.as_str()));
                        preview(previews, &text, &mut progress, on_progress);
                        KeptReport::analysed(&text, &options.thresholds)
                    },
                    Analyzed::kept,
                );
                let long = joined_len(parts.iter().map(|&k| msgs[k].text.len())) >= drift::MIN_BYTES;
                let report = match long.then(|| prompt_of(t, parts[0])).flatten() {
                    Some(prompt) => {
                        let text = join_reply(parts.iter().map(|&k| msgs[k].text.as_str()));
                        against_prompt(report, &text, Some(prompt), &options.thresholds)
                    }
                    None => report,
                };
                let author = Author::of(&msgs[parts[0]]);
                message_report(parts, true, None, report, author, options)
            }
            JudgedText::Stream { kind, messages, .. } => {
                let text = StreamLayout::new(t, &messages).text;
                preview(previews, &text, &mut progress, on_progress);
                message_report(
                    messages,
                    false,
                    Some(kind),
                    KeptReport::analysed(&text, &options.thresholds),
                    Author::Model,
                    options,
                )
            }
        };
        progress.texts_done += 1;
        progress.bytes_done += size;
        progress.preview = None;
        progress.worst = progress.worst.max(report.judged_verdict());
        reports.push(report);
        on_progress(progress);
    }

    let mut of_conversation: Vec<Vec<usize>> = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        let Some(m) = r.messages.first().and_then(|&m| msgs.get(m)) else { continue };
        if of_conversation.len() <= m.conversation {
            of_conversation.resize_with(m.conversation + 1, Vec::new);
        }
        of_conversation[m.conversation].push(i);
    }
    let conversations: Vec<_> = plans
        .into_iter()
        .map(|p| {
            let mine = of_conversation.get(p.conversation.id).map_or(&[][..], Vec::as_slice);
            judge_conversation(t, p, &reports, mine)
        })
        .collect();
    let verdict = (!reports.is_empty()).then(|| conversations.iter().map(|c| c.verdict).max().unwrap_or(Verdict::Pass));
    TranscriptReport { reports, verdict, conversations }
}

/// A text's report, judged or not as its author and `options` say.
fn message_report(
    messages: Vec<usize>,
    combined: bool,
    stream: Option<StreamKind>,
    report: KeptReport,
    author: Author,
    options: &JudgeOptions,
) -> MessageReport {
    MessageReport { messages, combined, report, stream, author, judged: author.judged(options) }
}

/// The first `max` bytes of `text`, cut on a character boundary.
fn prefix(text: &str, max: usize) -> &str {
    &text[..floor_boundary(text, max)]
}

/// Judges the start of a long text and says so, before the whole is analysed (when `wanted`:
/// someone is shown the progress).
fn preview(wanted: bool, text: &str, progress: &mut AnalysisProgress, on_progress: &mut dyn FnMut(AnalysisProgress)) {
    if wanted && text.len() >= PREVIEW_OVER {
        progress.preview = Some(preview_of(text));
        on_progress(*progress);
    }
}

/// The verdict of a long text's first [`PREVIEW_BYTES`] (at a character boundary), and their
/// length: the preview [`Judging::on_progress`] gives of a text of [`PREVIEW_OVER`]
/// bytes or more.
pub fn preview_of(text: &str) -> (usize, Verdict) {
    let head = prefix(text, PREVIEW_BYTES);
    (head.len(), analyze(head).verdict)
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::message;
    use super::*;
    use crate::analyze::{Metric, Verdict};
    use crate::ingest::{Channel, Format, Message};

    fn msg(index: usize, channel: Channel, text: String) -> Message {
        message(index, "assistant", channel, &text)
    }

    #[test]
    fn loop_in_reasoning_behind_clean_answer_fails_the_reasoning() {
        let mut t = Transcript::new(Format::Sse);
        t.messages.push(msg(0, Channel::Reasoning, "Wait, let me re-check the total.\n".repeat(35)));
        t.messages.push(msg(0, Channel::Content, "The total is 42, as computed from the three invoices.".into()));
        let r = judge_transcript(&t);
        assert_eq!(r.verdict, Some(Verdict::Fail));
        assert_eq!(r.reports.len(), 3);
        assert_eq!(r.reports[1].report.verdict(), Verdict::Pass);
        assert!(r.reports[2].combined);
        let worst = r.worst().unwrap();
        assert_eq!((worst.messages.as_slice(), worst.combined), (&[0][..], false));
        for m in &r.reports {
            assert_eq!(m.text(&t).len(), m.report.bytes(), "each report's text is the text it analysed");
            // Kept whole or summed up, the full report is the text's.
            assert_eq!(*m.full_report(&t), analyze(&m.text(&t)));
        }
        let rows = r.rows(&t);
        let got: Vec<(&str, Verdict, Option<Metric>, usize)> =
            rows.iter().map(|row| (row.channel, row.verdict, row.tripped, row.report)).collect();
        assert_eq!(
            got,
            vec![
                ("reasoning", Verdict::Fail, Some(Metric::Loop), 0),
                ("combined", Verdict::Fail, Some(Metric::Loop), 2),
                ("content", Verdict::Pass, None, 1),
            ]
        );
    }

    #[test]
    fn nothing_to_analyse_has_no_verdict_and_duplicates_share_reports() {
        assert_eq!(judge_transcript(&Transcript::new(Format::Binary)).verdict, None);
        let mut t = Transcript::new(Format::Jsonl);
        t.messages.push(msg(0, Channel::Content, "same text here, long enough to judge".into()));
        t.messages.push(msg(1, Channel::Content, "same text here, long enough to judge".into()));
        let r = judge_transcript(&t);
        assert_eq!(r.reports[0].report, r.reports[1].report);
        assert_eq!(r.verdict, Some(Verdict::Pass));
    }

    #[test]
    fn among_passes_a_text_long_enough_to_judge_comes_first() {
        let mut t = Transcript::new(Format::Jsonl);
        t.messages.push(msg(0, Channel::Content, "ok".into()));
        t.messages.push(msg(1, Channel::Content, "A reply long enough to be judged on its own merits.".into()));
        let r = judge_transcript(&t);
        assert_eq!(r.worst_first_order(), vec![1, 0]);
    }

    #[test]
    fn progress_counts_every_text_and_its_bytes_and_the_worst_so_far() {
        let mut t = Transcript::new(Format::Sse);
        t.messages.push(msg(0, Channel::Content, "A reply long enough to be judged on its own merits.".into()));
        t.messages.push(msg(1, Channel::Reasoning, "Wait, let me re-check the total.\n".repeat(35)));
        t.messages.push(msg(1, Channel::Content, "The total is 42.".into()));
        let mut seen = Vec::new();
        let r = Judging::default().on_progress(&mut |p| seen.push(p)).judge(&t);
        assert_eq!(r, judge_transcript(&t), "the same reports with or without progress");
        let total = t.messages.iter().map(|m| m.text.len()).sum::<usize>() + 35 * 33 + 2 + 16;
        assert_eq!(seen.len(), r.reports.len() + 1, "once before, once per text");
        assert_eq!((seen[0].texts_done, seen[0].bytes_done, seen[0].worst), (0, 0, None));
        let last = seen[seen.len() - 1];
        assert_eq!((last.texts_done, last.texts, last.bytes_done, last.bytes), (4, 4, total, total));
        let worst: Vec<Option<Verdict>> = seen.iter().map(|p| p.worst).collect();
        assert_eq!(
            worst,
            vec![None, Some(Verdict::Pass), Some(Verdict::Fail), Some(Verdict::Fail), Some(Verdict::Fail)]
        );
        assert!(seen.windows(2).all(|w| w[0].bytes_done <= w[1].bytes_done));
        assert!(seen.iter().all(|p| p.preview.is_none()), "short texts need no preview");
    }

    #[test]
    fn a_long_text_is_previewed_from_its_start() {
        let mut t = Transcript::new(Format::Text);
        let text = format!("{}{}", "Let me check the file again. ".repeat(80_000), "é".repeat(4_000_000));
        t.messages.push(msg(0, Channel::Content, text));
        let mut seen = Vec::new();
        Judging::default().on_progress(&mut |p| seen.push(p)).judge(&t);
        assert_eq!(seen.len(), 3, "before, the preview, after");
        assert_eq!(seen[1].preview, Some((PREVIEW_BYTES, Verdict::Fail)), "1 MiB of the loop");
        assert_eq!((seen[1].texts_done, seen[2].preview), (0, None));
        assert_eq!(prefix("aé", 2), "a");
    }

    #[test]
    fn a_message_analysed_before_keeps_the_report_it_was_given() {
        let mut t = Transcript::new(Format::Text);
        t.messages.push(msg(0, Channel::Content, "Let me check the file again. ".repeat(200)));
        let whole = judge_transcript(&t);
        let mut given = analyze(&t.messages[0].text);
        assert_eq!(given.verdict, Verdict::Fail);
        let mut seen = Vec::new();
        let same = Judging::default()
            .analyzed([(TextKey::Message(0), given.clone())])
            .on_progress(&mut |p| seen.push(p))
            .judge(&t);
        assert_eq!(same, whole, "the caller's report is the one analyze gives");
        // The given report is taken as it is (nothing analysed again): a PASS given stays PASS.
        given.verdict = Verdict::Pass;
        given.tripped = None;
        let r = Judging::default().analyzed([(TextKey::Message(0), given.clone())]).on_progress(&mut |_| {}).judge(&t);
        assert_eq!(r.reports[0].report.verdict(), Verdict::Pass);
        assert_eq!(seen.len(), 2, "before and after its one text");
    }

    /// Issue 18: every text is judged against the thresholds asked for, and a short text that
    /// passes against them keeps its whole report (its summary would be judged again with the
    /// defaults when opened).
    #[test]
    fn texts_are_judged_against_the_thresholds_asked_for() {
        let refrain = coherency_test_support::textgen::refrain_poem();
        let mut t = Transcript::new(Format::Sse);
        t.messages.push(msg(0, Channel::Content, refrain));
        assert_eq!(judge_transcript(&t).verdict, Some(Verdict::Warn));
        let mut loose = crate::analyze::Thresholds::SEED;
        loose.assign("maxline.warn=7").expect("a setting");
        let options = JudgeOptions { thresholds: loose, ..JudgeOptions::default() };
        let r = Judging::new(options).judge(&t);
        assert_eq!(r.verdict, Some(Verdict::Pass));
        let kept = &r.reports[0];
        assert_eq!(kept.report.whole().map(|w| w.thresholds), Some(loose), "kept whole, with its thresholds");
        assert_eq!(kept.full_report(&t).checks[1].warn_at, 7.0);
    }
}
