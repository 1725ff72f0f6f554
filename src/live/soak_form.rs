//! The soak run's form and what its Start runs, pure: the fields ([`SoakForm`], changed by one
//! [`SoakEdit`] at a time through Yew's `use_reducer`, as the live panel's state is) and the
//! run they ask for ([`SoakForm::plan`]: the generations planned, how many streams at once, the
//! keys each side sends), or in words why there is none. Unit-tested natively; the soak's
//! component (`soak.rs`) runs the plan.

use std::rc::Rc;

use yew::Reducible;

use coherency_core::live::soak::{for_comparison, plan, plan_ab, with_reference_again, Planned, MAX_CONCURRENCY};
use coherency_core::live::RequestForm;

/// The soak's fields as typed (numbers are parsed when the run starts).
#[derive(Clone, Debug, PartialEq)]
pub struct SoakForm {
    pub count: String,
    pub concurrency: String,
    pub first_seed: String,
    /// One per line; empty: the prompt above.
    pub prompts: String,
    /// A/B: a second configuration; its empty fields are A's (its key only for A's own URL).
    pub ab: bool,
    pub b_base: String,
    pub b_model: String,
    pub b_key: String,
    pub b_extra: String,
    /// "Compare with a reference": A/B run greedy with logprobs, then A compared with B.
    pub reference: bool,
    /// With a reference: the prompts as one conversation whose context grows turn by turn.
    pub conversation: bool,
}

impl Default for SoakForm {
    fn default() -> Self {
        SoakForm {
            count: "10".to_string(),
            concurrency: "1".to_string(),
            first_seed: "1".to_string(),
            prompts: String::new(),
            ab: false,
            b_base: String::new(),
            b_model: String::new(),
            b_key: String::new(),
            b_extra: String::new(),
            reference: false,
            conversation: false,
        }
    }
}

/// One change of the soak's form.
pub enum SoakEdit {
    /// A text field: its setter and the new value.
    Set(fn(&mut SoakForm, String), String),
    /// A check box ticked or unticked: the field it flips.
    Toggle(fn(&mut SoakForm) -> &mut bool),
}

impl Reducible for SoakForm {
    type Action = SoakEdit;

    fn reduce(self: Rc<Self>, edit: SoakEdit) -> Rc<Self> {
        let mut next = (*self).clone();
        match edit {
            SoakEdit::Set(set, value) => set(&mut next, value),
            SoakEdit::Toggle(field) => {
                let on = field(&mut next);
                *on = !*on;
            }
        }
        Rc::new(next)
    }
}

/// What a soak run sends: its generations in order, how many streams at once, and A's and B's
/// key and model.
#[derive(Debug, PartialEq)]
pub struct SoakPlan {
    pub planned: Vec<Planned>,
    pub streams: usize,
    pub keys: [(String, String); 2],
    /// The prompts as one conversation (a comparison's growing context: one stream): its prompts.
    pub conversation: Option<Vec<String>>,
}

impl SoakForm {
    /// The run this form asks for, A being `form` sent with `key`, or in words what is wrong.
    pub fn plan(&self, form: &RequestForm, key: &str) -> Result<SoakPlan, String> {
        let (Ok(n), Ok(streams), Ok(seed)) = (
            self.count.trim().parse::<usize>(),
            self.concurrency.trim().parse::<usize>(),
            self.first_seed.trim().parse::<u64>(),
        ) else {
            return Err("Generations, streams at once and the first seed are whole numbers.".into());
        };
        if !(1..=MAX_CONCURRENCY).contains(&streams) {
            return Err(format!("Run 1 to {MAX_CONCURRENCY} streams at once (got {streams})."));
        }
        let set: Vec<String> =
            self.prompts.lines().map(str::trim).filter(|p| !p.is_empty()).map(str::to_string).collect();
        let or_a = |b: &str, a: &str| if b.trim().is_empty() { a.to_string() } else { b.to_string() };
        let form_b = RequestForm {
            base_url: or_a(&self.b_base, &form.base_url),
            model: or_a(&self.b_model, &form.model),
            extra_json: or_a(&self.b_extra, &form.extra_json),
            ..form.clone()
        };
        // A's key goes to A's URL only: B without a key of its own sends none elsewhere.
        let key_b = match (self.b_key.is_empty(), form_b.base_url.trim() == form.base_url.trim()) {
            (false, _) => self.b_key.clone(),
            (true, true) => key.to_string(),
            (true, false) => String::new(),
        };
        let planned = if self.ab { plan_ab(form, &form_b, &set, n, seed) } else { plan(form, &set, n, seed) }?;
        let planned = match (self.ab, self.reference) {
            (true, true) => with_reference_again(for_comparison(planned)),
            (false, true) => for_comparison(planned),
            _ => planned,
        };
        // A conversation's turn needs the reference's answer to the turn before: one stream.
        let conversation = (self.reference && self.conversation).then_some(set);
        Ok(SoakPlan {
            planned,
            streams: if conversation.is_some() { 1 } else { streams },
            keys: [(key.to_string(), form.model.trim().to_string()), (key_b, form_b.model.trim().to_string())],
            conversation,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a() -> RequestForm {
        RequestForm {
            base_url: "http://127.0.0.1:30000/v1".into(),
            model: " qwen3 ".into(),
            prompt: "Tell me a story.".into(),
            max_tokens: "200".into(),
            temperature: "0.6".into(),
            extra_json: String::new(),
        }
    }

    fn edited(edits: impl IntoIterator<Item = SoakEdit>) -> SoakForm {
        let mut form = Rc::new(SoakForm::default());
        for edit in edits {
            form = Reducible::reduce(form, edit);
        }
        (*form).clone()
    }

    #[test]
    fn the_defaults_plan_ten_generations_of_the_prompt_above_one_stream() {
        let p = SoakForm::default().plan(&a(), "sk-a").unwrap();
        assert_eq!((p.planned.len(), p.streams, p.conversation), (10, 1, None));
        assert!(p.planned.iter().all(|g| g.config.is_empty() && g.prompt == 0));
        assert_eq!(p.planned.iter().map(|g| g.seed).collect::<Vec<_>>(), (1..=10).collect::<Vec<u64>>());
        assert_eq!(p.keys[0], ("sk-a".to_string(), "qwen3".to_string()));
    }

    #[test]
    fn numbers_and_streams_out_of_range_are_said_in_words() {
        let words = edited([SoakEdit::Set(|f, v| f.count = v, "ten".into())]);
        assert_eq!(
            words.plan(&a(), "").unwrap_err(),
            "Generations, streams at once and the first seed are whole numbers."
        );
        let five = edited([SoakEdit::Set(|f, v| f.concurrency = v, " 5 ".into())]);
        assert_eq!(five.plan(&a(), "").unwrap_err(), "Run 1 to 4 streams at once (got 5).");
        let none = edited([SoakEdit::Set(|f, v| f.count = v, "0".into())]);
        assert!(none.plan(&a(), "").unwrap_err().starts_with("Run 1 to 100 generations"));
    }

    #[test]
    fn b_takes_as_empty_fields_and_as_key_only_for_as_own_url() {
        // Each side runs the generations asked for, alternating.
        let ab = edited([SoakEdit::Toggle(|f| &mut f.ab), SoakEdit::Set(|f, v| f.count = v, "2".into())]);
        let same_url = ab.plan(&a(), "sk-a").unwrap();
        assert_eq!(same_url.planned.iter().map(|g| g.config).collect::<Vec<_>>(), ["A", "B", "A", "B"]);
        assert_eq!(same_url.keys[1], ("sk-a".to_string(), "qwen3".to_string()), "B is A's endpoint: A's key");
        let elsewhere = edited([
            SoakEdit::Toggle(|f| &mut f.ab),
            SoakEdit::Set(|f, v| f.b_base = v, "https://other.example/v1".into()),
            SoakEdit::Set(|f, v| f.b_model = v, "llama".into()),
        ]);
        assert_eq!(elsewhere.plan(&a(), "sk-a").unwrap().keys[1], (String::new(), "llama".to_string()), "no key sent");
        let own = edited([
            SoakEdit::Toggle(|f| &mut f.ab),
            SoakEdit::Set(|f, v| f.b_base = v, "https://other.example/v1".into()),
            SoakEdit::Set(|f, v| f.b_key = v, "sk-b".into()),
        ]);
        assert_eq!(own.plan(&a(), "sk-a").unwrap().keys[1].0, "sk-b");
    }

    #[test]
    fn a_reference_runs_greedy_b_twice_and_a_conversation_in_one_stream() {
        let reference = edited([
            SoakEdit::Toggle(|f| &mut f.ab),
            SoakEdit::Toggle(|f| &mut f.reference),
            SoakEdit::Set(|f, v| f.count = v, "2".into()),
            SoakEdit::Set(|f, v| f.concurrency = v, "3".into()),
        ]);
        let p = reference.plan(&a(), "").unwrap();
        assert_eq!(p.planned.iter().map(|g| g.config).collect::<Vec<_>>(), ["A", "B", "R", "A", "B", "R"]);
        assert!(
            p.planned.iter().all(|g| g.request.body.contains("\"logprobs\":true")),
            "{:?}",
            p.planned[0].request.body
        );
        assert_eq!((p.streams, p.conversation), (3, None));
        let talk = edited([
            SoakEdit::Toggle(|f| &mut f.reference),
            SoakEdit::Toggle(|f| &mut f.conversation),
            SoakEdit::Set(|f, v| f.prompts = v, "One?\n\n  Two?  \n".into()),
            SoakEdit::Set(|f, v| f.concurrency = v, "4".into()),
        ]);
        let p = talk.plan(&a(), "").unwrap();
        assert_eq!((p.streams, p.conversation), (1, Some(vec!["One?".to_string(), "Two?".to_string()])));
        let unticked = edited([SoakEdit::Toggle(|f| &mut f.conversation)]);
        assert_eq!(unticked.plan(&a(), "").unwrap().conversation, None, "a conversation only with a reference");
    }
}
