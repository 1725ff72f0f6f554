//! Probe D from every reply the page saw, streamed or not: does the endpoint put a reasoning
//! model's reasoning in a reasoning field (`reasoning_content`, `reasoning`,
//! `reasoning_details`, `thinking`), where clients look for it, or inline in the content as
//! `<think>…</think>`, where a client shows it as the answer? The evidence comes from the
//! non-streamed completion of probes B–D, probe F's short stream, the long run and a soak's
//! generations, each read by the chat assembler that rebuilds the text (the seed's section H
//! finds and places streamed reasoning the same way).
//!
//! The rule, stated once: D FAILs when any reply put reasoning inline in the content (however
//! the others placed it: a client that meets it there shows it as the answer); else it PASSes
//! when any reply placed reasoning in a field; else it is SKIPped (the model did not reason).
//! The evidence names each source and where its reasoning was.

use super::result::{result, ProbeOutcome, ProbeResult};
use crate::stream::{ChatAssembler, ReasoningPlacement, Tally};
use crate::wording::plural;

/// What probe D is judged from. Sources not seen yet are `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReasoningEvidence {
    /// The non-streamed completion of probes B–D: where its reasoning was, or why it could
    /// not be read (an HTTP error, a body that is not JSON).
    pub reply: Option<Result<ReasoningPlacement, String>>,
    /// Probe F's short stream.
    pub probe_stream: Option<ReasoningPlacement>,
    /// The last long run (Start streaming), when it ended.
    pub long_run: Option<ReasoningPlacement>,
    /// The current soak's finished generations: how many, and their placements summed.
    pub soak: Option<(usize, ReasoningPlacement)>,
}

impl ReasoningEvidence {
    /// A new soak run started: the last one's generations no longer count.
    pub fn soak_started(&mut self) {
        self.soak = None;
    }

    /// A generation of the current soak finished, its reasoning placed as `placement`.
    pub fn soak_generation(&mut self, placement: &ReasoningPlacement) {
        let (n, sum) = self.soak.get_or_insert_with(Default::default);
        *n += 1;
        sum.merge(placement);
    }

    /// Probe D by the rule in the module doc; `None` before any reply was seen.
    pub fn judge(&self) -> Option<ProbeResult> {
        let soak_name = self.soak.as_ref().map(|(n, _)| plural(*n, "soak generation", "soak generations"));
        let reply = self.reply.as_ref().and_then(|r| r.as_ref().ok());
        let seen: Vec<Seen> = [
            (reply, "the non-streamed reply", false),
            (self.probe_stream.as_ref(), "check F's stream", true),
            (self.long_run.as_ref(), "the long run", true),
            (self.soak.as_ref().map(|(_, p)| p), soak_name.as_deref().unwrap_or_default(), true),
        ]
        .into_iter()
        .filter_map(|(placement, source, streamed)| placement.map(|placement| Seen { placement, source, streamed }))
        .collect();
        let why_no_reply = self.reply.as_ref().and_then(|r| r.as_ref().err());
        if seen.is_empty() && why_no_reply.is_none() {
            return None;
        }
        let inline: Vec<String> = seen.iter().filter_map(Seen::inline_sentence).collect();
        let fields: Vec<String> = seen.iter().filter_map(Seen::field_sentence).collect();
        Some(if !inline.is_empty() {
            result('D', ProbeOutcome::Fail, [inline, fields].concat().join(" "))
        } else if !fields.is_empty() {
            result('D', ProbeOutcome::Pass, fields.join(" "))
        } else {
            let mut said: Vec<String> = why_no_reply.cloned().into_iter().collect();
            let silent: Vec<&str> = seen.iter().map(|s| s.source).collect();
            if !silent.is_empty() {
                said.push(format!("The model did not reason in {}, so there was nothing to place.", or_list(&silent)));
            }
            result('D', ProbeOutcome::Skip, said.join(" "))
        })
    }
}

/// Where a non-streamed chat completion put its reasoning (its body read as one chunk by the
/// same assembler as a stream), or why it could not be read.
pub fn reply_placement(status: u16, body: &str) -> Result<ReasoningPlacement, String> {
    if status != 200 {
        return Err(format!("The completion request answered HTTP {status}."));
    }
    let mut assembler = ChatAssembler::new();
    assembler.push(body, 0..body.len()).map_err(|e| format!("The completion is not a chat completion ({e})."))?;
    Ok(assembler.reasoning_placement())
}

/// One source of evidence and where its reasoning was.
struct Seen<'a> {
    placement: &'a ReasoningPlacement,
    source: &'a str,
    streamed: bool,
}

impl Seen<'_> {
    /// `Reasoning streamed in "reasoning" (2,100 bytes, in 480 chunks) in the long run.`
    fn field_sentence(&self) -> Option<String> {
        if self.placement.fields.is_empty() {
            return None;
        }
        let each: Vec<String> = self
            .placement
            .fields
            .iter()
            .map(|(field, tally)| format!("\"{field}\" ({})", self.amount(*tally)))
            .collect();
        let verb = if self.streamed { "Reasoning streamed in" } else { "Reasoning in" };
        Some(format!("{verb} {} in {}.", each.join(" and "), self.source))
    }

    /// `Reasoning streamed inline in the content (<think>…</think>, 2,048 bytes), not in a
    /// reasoning field, in the long run.`
    fn inline_sentence(&self) -> Option<String> {
        let tally = self.placement.inline?;
        let verb = if self.streamed { "Reasoning streamed inline" } else { "Reasoning inline" };
        Some(format!(
            "{verb} in the content (<think>…</think>, {}), not in a reasoning field, in {}.",
            self.amount(tally),
            self.source
        ))
    }

    /// "312 bytes" for a reply, "1,234 bytes, in 56 chunks" for a stream.
    fn amount(&self, tally: Tally) -> String {
        let bytes = plural(tally.bytes, "byte", "bytes");
        if self.streamed {
            format!("{bytes}, in {}", plural(tally.chunks, "chunk", "chunks"))
        } else {
            bytes
        }
    }
}

/// "a", "a or b", "a, b or c".
fn or_list(items: &[&str]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placement(fields: &[(&'static str, usize, usize)], inline: Option<(usize, usize)>) -> ReasoningPlacement {
        ReasoningPlacement {
            fields: fields.iter().map(|&(f, bytes, chunks)| (f, Tally { bytes, chunks })).collect(),
            inline: inline.map(|(bytes, chunks)| Tally { bytes, chunks }),
        }
    }

    fn judge(e: &ReasoningEvidence) -> (ProbeOutcome, String) {
        let d = e.judge().expect("evidence to judge");
        assert_eq!((d.id, d.title), ('D', "Reasoning arrives in a reasoning field"));
        (d.outcome, d.evidence)
    }

    #[test]
    fn nothing_seen_is_no_row_and_a_stream_alone_decides() {
        assert_eq!(ReasoningEvidence::default().judge(), None);
        let streamed = ReasoningEvidence {
            probe_stream: Some(placement(&[("reasoning_content", 1234, 56)], None)),
            ..Default::default()
        };
        assert_eq!(
            judge(&streamed),
            (
                ProbeOutcome::Pass,
                "Reasoning streamed in \"reasoning_content\" (1,234 bytes, in 56 chunks) in check F's stream.".into()
            )
        );
    }

    #[test]
    fn every_source_that_placed_reasoning_is_named() {
        let mut e = ReasoningEvidence {
            reply: Some(Ok(placement(&[("reasoning", 312, 1)], None))),
            probe_stream: Some(ReasoningPlacement::default()),
            long_run: Some(placement(&[("reasoning", 9000, 2000), ("reasoning_details", 10, 1)], None)),
            soak: None,
        };
        e.soak_generation(&placement(&[("reasoning", 100, 10)], None));
        e.soak_generation(&placement(&[("reasoning", 50, 5)], None));
        let (outcome, evidence) = judge(&e);
        assert_eq!(outcome, ProbeOutcome::Pass);
        assert_eq!(
            evidence,
            "Reasoning in \"reasoning\" (312 bytes) in the non-streamed reply. \
             Reasoning streamed in \"reasoning\" (9,000 bytes, in 2,000 chunks) and \"reasoning_details\" (10 bytes, in 1 chunk) in the long run. \
             Reasoning streamed in \"reasoning\" (150 bytes, in 15 chunks) in 2 soak generations."
        );
        e.soak_started();
        assert_eq!(e.soak, None);
    }

    #[test]
    fn inline_reasoning_anywhere_fails_and_says_where_the_rest_went() {
        let e = ReasoningEvidence {
            reply: Some(Ok(placement(&[("reasoning_content", 300, 1)], None))),
            long_run: Some(placement(&[], Some((2048, 400)))),
            ..Default::default()
        };
        let (outcome, evidence) = judge(&e);
        assert_eq!(outcome, ProbeOutcome::Fail);
        assert_eq!(
            evidence,
            "Reasoning streamed inline in the content (<think>…</think>, 2,048 bytes, in 400 chunks), not in a reasoning field, in the long run. \
             Reasoning in \"reasoning_content\" (300 bytes) in the non-streamed reply."
        );
    }

    #[test]
    fn no_reasoning_anywhere_is_skipped_with_the_sources_named() {
        let e = ReasoningEvidence {
            reply: Some(Ok(ReasoningPlacement::default())),
            probe_stream: Some(ReasoningPlacement::default()),
            ..Default::default()
        };
        assert_eq!(
            judge(&e),
            (
                ProbeOutcome::Skip,
                "The model did not reason in the non-streamed reply or check F's stream, so there was nothing to place."
                    .into()
            )
        );
        let refused = ReasoningEvidence { reply: Some(Err("The completion request answered HTTP 500.".into())), ..e };
        assert_eq!(
            judge(&refused).1,
            "The completion request answered HTTP 500. The model did not reason in check F's stream, so there was nothing to place."
        );
    }

    #[test]
    fn a_non_streamed_reply_is_read_by_the_streams_assembler() {
        let body = |message: &str| format!(r#"{{"choices":[{{"index":0,"message":{message}}}]}}"#);
        let p = reply_placement(200, &body(r#"{"content":"Hi","reasoning_content":"hmm"}"#)).unwrap();
        assert_eq!(p, placement(&[("reasoning_content", 3, 1)], None));
        let p = reply_placement(200, &body(r#"{"content":"Hi","thinking":"hmm"}"#)).unwrap();
        assert_eq!(p.fields[0].0, "thinking");
        let p = reply_placement(200, &body(r#"{"content":"<think>x</think>Hi"}"#)).unwrap();
        assert_eq!(p, placement(&[], Some((1, 1))));
        assert!(reply_placement(200, &body(r#"{"content":"Hi"}"#)).unwrap().is_empty());
        assert_eq!(reply_placement(401, "").unwrap_err(), "The completion request answered HTTP 401.");
        assert!(reply_placement(200, "<html>").unwrap_err().starts_with("The completion is not a chat completion"));
    }
}
