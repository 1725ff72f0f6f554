//! A reply's prompt: the last user message before a model's text in its conversation, which
//! the drift check measures the reply against (see `analyze::incoherence::drift`). A plain
//! text, an input's message and a conversation's stream have none.
//!
//! Texts are analysed on their own first (anywhere: the CLI's threads, the page's second
//! worker, see [`super::shares`]); the judge then measures a reply's drift against its prompt,
//! which takes one scan of its words, and analyses it again with the prompt only where that
//! changes the drift check ([`against_prompt`]) — the report is then what
//! [`analyze_with_prompt`] gives, wherever the text was analysed first.

use std::rc::Rc;

use super::authorship::Author;
use super::kept_report::KeptReport;
use crate::analyze::incoherence::{drift, judge_drift};
use crate::analyze::{analyze_with_prompt, Thresholds};
use crate::ingest::{Channel, Transcript};

/// The prompt of message `k`: the last non-blank user message before it in its conversation
/// (at an earlier turn), when `k` is the model's; `None` otherwise.
pub fn prompt_of(t: &Transcript, k: usize) -> Option<&str> {
    let m = t.messages.get(k)?;
    if Author::of(m) != Author::Model {
        return None;
    }
    t.messages[..k]
        .iter()
        .rev()
        .take_while(|p| p.conversation == m.conversation)
        .filter(|p| p.turn < m.turn && p.channel == Channel::Content)
        .find(|p| p.role.eq_ignore_ascii_case("user") && !p.text.trim().is_empty())
        .map(|p| p.text.as_str())
}

/// `report`, made of `text` alone, as it is for a reply to `prompt`: the same unless measuring
/// the drift against the prompt changes the drift check, then `text` analysed with it. When
/// only the drift's series changes (the prompt's words counted along the text), the report
/// takes the series measured with the prompt, as [`analyze_with_prompt`] gives it.
pub(super) fn against_prompt(report: KeptReport, text: &str, prompt: Option<&str>, t: &Thresholds) -> KeptReport {
    let Some(prompt) = prompt.filter(|_| text.len() >= drift::MIN_BYTES) else { return report };
    let rules = t.incoherence_rules();
    let (asked, alone) = (judge_drift(text, Some(prompt), &rules), judge_drift(text, None, &rules));
    if (&asked.check, &asked.region, &asked.why, &asked.span) != (&alone.check, &alone.region, &alone.why, &alone.span)
    {
        return KeptReport::of(analyze_with_prompt(text, Some(prompt), t));
    }
    let mut report = report;
    if let KeptReport::Whole(r) = &mut report {
        if r.metrics.drift.is_some() && r.metrics.drift != asked.figure {
            Rc::make_mut(r).metrics.drift = asked.figure;
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::super::test_messages::message;
    use super::*;
    use crate::ingest::Format;

    #[test]
    fn a_reply_s_prompt_is_the_last_user_message_before_it_in_its_conversation() {
        let mut t = Transcript::new(Format::OpenaiJson);
        t.messages.push(message(0, "system", Channel::Content, "Be brief."));
        t.messages.push(message(1, "user", Channel::Content, "First question?"));
        t.messages.push(message(2, "assistant", Channel::Content, "First answer."));
        t.messages.push(message(3, "user", Channel::Content, "Second question?"));
        t.messages.push(message(4, "assistant", Channel::Reasoning, "Thinking."));
        t.messages.push(message(4, "assistant", Channel::Content, "Second answer."));
        let mut other = message(0, "assistant", Channel::Content, "Another conversation.");
        other.conversation = 1;
        t.messages.push(other);
        let prompts: Vec<Option<&str>> = (0..t.messages.len()).map(|k| prompt_of(&t, k)).collect();
        assert_eq!(
            prompts,
            vec![None, None, Some("First question?"), None, Some("Second question?"), Some("Second question?"), None]
        );
    }

    /// A reply that gives background before answering WARNs alone and PASSes as a reply to its
    /// prompt in a request log (the next request repeats it as history), its full report too.
    #[test]
    fn a_reply_is_judged_with_its_prompt_in_a_request_log() {
        use crate::analyze::{analyze, Metric, Verdict};
        use coherency_test_support::prompted;
        let kind = prompted::KINDS.iter().find(|k| k.label == "reply_background_then_answer").expect("a kind");
        let case = prompted::generate(kind, 12_000, 7, false);
        assert_eq!(analyze(&case.reply).check(Metric::Drift).level, Verdict::Warn, "alone");
        // The second request repeats the first exchange as its history and asks again.
        let first: serde_json::Value = serde_json::from_slice(case.json.as_bytes()).expect("JSON");
        let mut second = first.clone();
        let messages = second["messages"].as_array_mut().expect("messages");
        messages.push(serde_json::json!({"role": "user", "content": "Thanks, that helps."}));
        messages.push(serde_json::json!({"role": "assistant", "content": "You are welcome."}));
        let log = format!("{first}\n{second}\n");
        let doc = super::super::JudgedDocument::read(log.as_bytes(), None);
        let t = &doc.transcript;
        assert_eq!(doc.report.verdict, Some(Verdict::Pass));
        // The reader keeps one copy of the history the second request repeats.
        let replies: Vec<_> =
            doc.report.reports.iter().filter(|r| t.messages[r.messages[0]].text.as_str() == case.reply).collect();
        assert_eq!(replies.len(), 1);
        for r in replies {
            let full = r.full_report(t);
            let prompt = prompt_of(t, r.messages[0]);
            assert_eq!(prompt, Some(case.prompt.as_str()));
            assert_eq!(*full, analyze_with_prompt(&case.reply, prompt, &Thresholds::default()));
            assert_eq!(full.check(Metric::Drift).level, Verdict::Pass);
        }
    }

    /// A long reply whose drift check is the same with its prompt or without keeps the report
    /// made alone, with the drift series measured with the prompt: the report is still the one
    /// made with the prompt.
    #[test]
    fn a_reply_s_drift_series_counts_its_prompt_s_words_when_its_check_does_not_change() {
        use crate::analyze::{analyze, Metric};
        use coherency_test_support::prompted;
        for label in ["reply_on_topic", "reply_leaves_at_once"] {
            let kind = prompted::KINDS.iter().find(|k| k.label == label).expect("a kind");
            let case = prompted::generate(kind, 80_000, 3, false);
            let alone = analyze(&case.reply);
            let asked = analyze_with_prompt(&case.reply, Some(&case.prompt), &Thresholds::default());
            assert_eq!(alone.check(Metric::Drift), asked.check(Metric::Drift), "{label}: the check alike");
            let figure = asked.metrics.drift.as_ref().expect("judged");
            assert!(figure.prompt_words > 0, "{label}");
            assert_eq!(alone.metrics.drift.as_ref().expect("judged").prompt_words, 0);
            let kept = against_prompt(KeptReport::of(alone), &case.reply, Some(&case.prompt), &Thresholds::default());
            assert_eq!(kept.whole().map(|r| &**r), Some(&asked), "{label}");
        }
    }
}
