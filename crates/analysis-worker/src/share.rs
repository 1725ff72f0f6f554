//! This worker's share of a big log's texts analysed, the progress told after each text: the
//! texts the judge analyses on their own split in two (`coherency_core::judge::split_in_two`),
//! one share analysed here and the other by a second worker (`share_wire` carries it), and both
//! shares' reports handed to the judge as made before
//! (`coherency_core::judge::Judging::analyzed`): the same reports as judging alone.

use coherency_core::analyze::{analyze_with, Thresholds};
use coherency_core::ingest::Transcript;
use coherency_core::judge::{text_of, AnalysisProgress, AnalyzedBefore, TextKey};

/// Analyses the texts of one share against `thresholds`, telling `on_progress` after each
/// (`progress` counts on from where it is: set its totals to the whole split's).
pub fn analyze_share(
    t: &Transcript,
    keys: &[TextKey],
    thresholds: &Thresholds,
    progress: &mut AnalysisProgress,
    on_progress: &mut dyn FnMut(AnalysisProgress),
) -> AnalyzedBefore {
    let mut out = AnalyzedBefore::with_capacity(keys.len());
    for &key in keys {
        let Some(text) = text_of(t, key) else { continue };
        let report = analyze_with(&text, thresholds);
        progress.texts_done += 1;
        progress.bytes_done += text.len();
        progress.worst = progress.worst.max(Some(report.verdict));
        out.insert(key, report);
        on_progress(*progress);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::ingest::{Channel, Format, Message};
    use coherency_core::judge::{judge_transcript, split_in_two, Judging};

    fn message(turn: usize, conversation: usize, role: &str, channel: Channel, text: &str) -> Message {
        Message {
            conversation,
            turn,
            role: role.into(),
            channel,
            name: None,
            call_id: None,
            text: text.to_string().into(),
            is_error: false,
            source: 0..0,
            line: None,
        }
    }

    /// Twelve turns in three conversations, each reply's reasoning a loop.
    fn log() -> Transcript {
        let mut t = Transcript::new(Format::Jsonl);
        let loop_text = "Wait, let me re-check the total.\n".repeat(40);
        for turn in 0..12 {
            let c = turn / 4;
            t.messages.push(message(2 * turn, c, "user", Channel::Content, "What is the total of the invoice lines?"));
            t.messages.push(message(2 * turn + 1, c, "assistant", Channel::Reasoning, &format!("{turn}: {loop_text}")));
            t.messages.push(message(2 * turn + 1, c, "assistant", Channel::Content, "The total is 42."));
        }
        t
    }

    #[test]
    fn two_shares_analysed_apart_judge_as_one_worker_does() {
        let t = log();
        let s = split_in_two(&t);
        let mut progress = AnalysisProgress { texts: s.texts, bytes: s.bytes, ..AnalysisProgress::default() };
        let mut seen = Vec::new();
        let mut analysed = analyze_share(&t, &s.shares[0], &Thresholds::SEED, &mut progress, &mut |p| seen.push(p));
        analysed.extend(analyze_share(&t, &s.shares[1], &Thresholds::SEED, &mut progress, &mut |p| seen.push(p)));
        assert_eq!((progress.texts_done, progress.bytes_done), (s.texts, s.bytes));
        assert_eq!(seen.len(), s.texts);
        assert_eq!(seen.last().and_then(|p| p.worst), Some(coherency_core::analyze::Verdict::Fail));
        let judged = Judging::default().analyzed(analysed).on_progress(&mut |_| {}).judge(&t);
        assert_eq!(judged, judge_transcript(&t));
    }

    #[test]
    fn a_key_that_names_nothing_is_left_out() {
        let t = log();
        let mut progress = AnalysisProgress::default();
        let analysed = analyze_share(
            &t,
            &[TextKey::Message(999), TextKey::Message(2)],
            &Thresholds::SEED,
            &mut progress,
            &mut |_| {},
        );
        assert_eq!(analysed.len(), 1);
        assert_eq!((progress.texts_done, progress.bytes_done), (1, "The total is 42.".len()));
    }
}
