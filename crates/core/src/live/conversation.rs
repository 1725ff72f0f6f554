//! A soak's prompts as one multi-turn conversation, so that the context grows from turn to
//! turn (a comparison's drift by context length needs a range to work on): prompt k of the set
//! is sent after prompts 0..k, each followed by the *reference's* own answer as the assistant
//! turn — so A, the reference and the reference's second run all see the same context. The
//! prompts rotate as in any soak; when prompt 0 comes again a new pass starts from the latest
//! answers. Deterministic: the same answers give the same bodies. Pure: the page's soak records
//! each reference answer and asks for each body before sending it.

use serde_json::{json, Value};

use super::soak::Planned;

/// The reference's answers, turn by turn, of the conversation being run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conversation {
    /// The set's prompts (turn k's user message is `prompts[k]`).
    prompts: Vec<String>,
    /// The reference's latest answer to each turn.
    answers: Vec<Option<String>>,
}

/// Whether `config` is the side whose answers become the assistant turns: B with A/B, else the
/// run's one configuration ("").
pub fn is_reference(config: &str) -> bool {
    matches!(config, "B" | "")
}

impl Conversation {
    pub fn new(prompts: &[String]) -> Conversation {
        Conversation { prompts: prompts.to_vec(), answers: vec![None; prompts.len()] }
    }

    /// The body to send for `planned`: its own body with the earlier turns (user prompt, then
    /// the reference's answer) before its last message; or why it cannot be sent (an earlier
    /// turn has no reference answer — the reference failed there — or the body is not a chat
    /// request).
    pub fn body(&self, planned: &Planned) -> Result<String, String> {
        let turn = planned.prompt;
        if turn == 0 || self.prompts.len() < 2 {
            return Ok(planned.request.body.clone());
        }
        let mut earlier = Vec::with_capacity(2 * turn);
        for k in 0..turn.min(self.prompts.len()) {
            let Some(answer) = self.answers.get(k).cloned().flatten() else {
                return Err(format!(
                    "turn {} of the conversation has no reference answer, so turn {} is not sent",
                    k + 1,
                    turn + 1
                ));
            };
            earlier.push(json!({"role": "user", "content": self.prompts[k]}));
            earlier.push(json!({"role": "assistant", "content": answer}));
        }
        let mut body: Value = serde_json::from_slice(planned.request.body.as_bytes()).map_err(|e| e.to_string())?;
        let Some(Value::Array(messages)) = body.get_mut("messages") else {
            return Err("the request has no messages to carry a conversation".into());
        };
        let last = messages.len().saturating_sub(1);
        messages.splice(last..last, earlier);
        Ok(body.to_string())
    }

    /// Keeps `answer` as turn `planned.prompt`'s when `planned` was the reference's; a failed
    /// reference turn (`None`) forgets the earlier answer, so that later turns are not sent on
    /// a context the reference did not give.
    pub fn record(&mut self, planned: &Planned, answer: Option<&str>) {
        if let (true, Some(slot)) = (is_reference(planned.config), self.answers.get_mut(planned.prompt)) {
            *slot = answer.map(str::to_string);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::request::RequestForm;
    use crate::live::soak::{plan_ab, with_reference_again};

    fn messages(body: &str) -> Vec<(String, String)> {
        let v: Value = serde_json::from_slice(body.as_bytes()).unwrap();
        v["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["role"].as_str().unwrap().to_string(), m["content"].as_str().unwrap().to_string()))
            .collect()
    }

    fn planned() -> Vec<Planned> {
        let form = RequestForm {
            base_url: "http://a/v1".into(),
            model: "m".into(),
            max_tokens: "64".into(),
            temperature: "0".into(),
            ..RequestForm::default()
        };
        let prompts: Vec<String> = ["one", "two", "three"].map(String::from).to_vec();
        with_reference_again(plan_ab(&form, &form, &prompts, 6, 1).unwrap())
    }

    #[test]
    fn each_turn_carries_the_earlier_prompts_and_the_references_answers() {
        let prompts: Vec<String> = ["one", "two", "three"].map(String::from).to_vec();
        let mut c = Conversation::new(&prompts);
        let plan = planned();
        let mut sent = Vec::new();
        for p in &plan {
            let body = c.body(p).unwrap();
            sent.push((p.config, p.prompt, messages(&body)));
            // Each side answers differently: only the reference's (B) answers become the context.
            c.record(p, Some(&format!("{} said {}", p.config, p.prompt)));
        }
        let turn = |config: &str, prompt: usize| {
            sent.iter().filter(|s| s.0 == config && s.1 == prompt).map(|s| s.2.clone()).collect::<Vec<_>>()
        };
        let u = |s: &str| ("user".to_string(), s.to_string());
        let a = |s: &str| ("assistant".to_string(), s.to_string());
        assert_eq!(turn("A", 0)[0], vec![u("one")]);
        assert_eq!(turn("A", 1)[0], vec![u("one"), a("B said 0"), u("two")]);
        let third = vec![u("one"), a("B said 0"), u("two"), a("B said 1"), u("three")];
        for config in ["A", "B", "R"] {
            assert_eq!(turn(config, 2)[0], third, "{config} sees the same context");
        }
        // The second pass starts again from turn 0, on the latest answers.
        assert_eq!(turn("A", 0)[1], vec![u("one")]);
        assert_eq!(turn("A", 2)[1], third);
        // The bodies keep everything else (seed, model).
        let first: Value = serde_json::from_slice(c.body(&plan[0]).unwrap().as_bytes()).unwrap();
        assert_eq!(first["seed"], 1);
        assert_eq!(first["model"], "m");
    }

    #[test]
    fn a_turn_whose_earlier_reference_answer_is_missing_is_not_sent() {
        let prompts: Vec<String> = ["one", "two", "three"].map(String::from).to_vec();
        let mut c = Conversation::new(&prompts);
        let plan = planned();
        let b0 = plan.iter().find(|p| p.config == "B" && p.prompt == 0).unwrap();
        let a1 = plan.iter().find(|p| p.config == "A" && p.prompt == 1).unwrap();
        let a2 = plan.iter().find(|p| p.config == "A" && p.prompt == 2).unwrap();
        assert_eq!(
            c.body(a1).unwrap_err(),
            "turn 1 of the conversation has no reference answer, so turn 2 is not sent"
        );
        c.record(b0, Some("fine"));
        assert!(c.body(a1).is_ok());
        assert!(c.body(a2).unwrap_err().starts_with("turn 2 of"));
        // A's answers are not the context; a failed reference turn forgets the earlier one.
        let a0 = plan.iter().find(|p| p.config == "A" && p.prompt == 0).unwrap();
        c.record(a0, None);
        assert!(c.body(a1).is_ok());
        c.record(b0, None);
        assert!(c.body(a1).is_err());
    }

    #[test]
    fn one_prompt_or_a_body_without_messages_is_said_plainly() {
        let mut plan = planned();
        let c = Conversation::new(&["only".to_string()]);
        assert_eq!(c.body(&plan[0]).unwrap(), plan[0].request.body);
        let mut c = Conversation::new(&["one".to_string(), "two".to_string()]);
        c.record(&plan[1], Some("x"));
        let a1 = plan.iter_mut().find(|p| p.config == "A" && p.prompt == 1).unwrap();
        a1.request.body = "{\"prompt\": \"two\"}".into();
        assert_eq!(c.body(a1).unwrap_err(), "the request has no messages to carry a conversation");
        a1.request.body = "not json".into();
        assert!(c.body(a1).is_err());
    }
}
