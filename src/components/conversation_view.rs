//! A conversation, turn by turn: its verdict across turns and why (the reasons, the tool-call
//! check with its rule, the streams of its turns), then its turns ([`TurnList`]: virtualised,
//! inputs marked "input — not judged", the turns of a loop banded, the onset turn marked, Next /
//! Previous through the flagged ones). A picker chooses the conversation, worst first. The model
//! is [`crate::model::conversation`].
//!
//! Hooks for tests: `#conversation[data-conversation]`, `#conversation-picker`,
//! `#conversation-number`, `#conversation-verdict`, `#conversation-reasons`,
//! `#conversation-checks`, `#conversation-streams`; the turn list's in [`super::turn_list`].

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::checks_table::{check_row, checks_head};
use super::turn_link::TurnLink;
use super::turn_list::{TurnList, Turns};
use crate::model::conversation::{choice_label, counts_sentence, first_conversation, onset_sentence, picker_choices};
use crate::model::document::Document;
use crate::model::level_key;
use crate::model::turn_view::{turns, TurnView};
use crate::state::{Open, Opener};
use coherency_core::analyze::Thresholds;
use coherency_core::judge::ConversationReport;
use coherency_core::wording::thousands;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
    /// Called to show a text in full.
    pub on_select: Callback<Open>,
    /// How the analysis below asks this view to go back to a turn.
    pub turn_link: TurnLink,
}

#[component]
pub fn ConversationView(props: &Props) -> Html {
    let doc = &props.doc;
    let conversation = use_state(|| first_conversation(&doc.report).unwrap_or(0));
    // A row the turn list should go to (the tool-call check's first call), numbered per ask.
    let goto = use_state_eq(|| None::<(usize, u64)>);
    let asks = use_mut_ref(|| 0u64);
    let turns = {
        let (transcript, report) = (Rc::clone(&doc.transcript), Rc::clone(&doc.report));
        use_memo((doc.seq, *conversation), move |&(_, c)| turns(&report, &transcript, c))
    };
    let choices = {
        let report = Rc::clone(&doc.report);
        use_memo(doc.seq, move |_| picker_choices(&report))
    };
    let judgement = doc.report.conversation(*conversation);

    // "Back to turn K" from the analysis below: that conversation shown, the turn focused.
    {
        let (conversation, goto, asks, link) =
            (conversation.clone(), goto.clone(), asks.clone(), props.turn_link.clone());
        let known = Rc::clone(&doc.report);
        use_effect_with((), move |_| {
            let show = Callback::from(move |(c, row): (usize, usize)| {
                if known.conversation(c).is_none() {
                    return;
                }
                conversation.set(c);
                let n = {
                    let mut n = asks.borrow_mut();
                    *n += 1;
                    *n
                };
                goto.set(Some((row, n)));
            });
            let ticket = link.attach(show);
            move || link.detach(ticket)
        });
    }

    let choose = {
        let (conversation, goto) = (conversation.clone(), goto.clone());
        let known = Rc::clone(&doc.report);
        Callback::from(move |n: usize| {
            if known.conversation(n).is_some() {
                goto.set(None);
                conversation.set(n);
            }
        })
    };
    let picker = (doc.report.conversations.len() > 1).then(|| {
        let shown = *conversation;
        let onchange = choose.reform(|e: Event| {
            e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).and_then(|s| s.value().parse().ok()).unwrap_or(usize::MAX)
        });
        // Conversations the list leaves out are reached by their number.
        let all = doc.report.conversations.len();
        let by_number = (all > choices.len()).then(|| {
            let onchange = choose.reform(|e: Event| {
                e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).and_then(|i| i.value().parse().ok()).unwrap_or(usize::MAX)
            });
            html! {
                <label class="picker">
                    { format!("or number (of {}) ", thousands(all)) }
                    <input id="conversation-number" type="number" min="0" value={shown.to_string()} {onchange} />
                </label>
            }
        });
        let listed = if all > choices.len() { format!("the worst {}", thousands(choices.len())) } else { String::new() };
        html! {
            <div class="pickers">
                <label class="picker" title={listed}>
                    { "Conversation " }
                    <select id="conversation-picker" {onchange}>
                        if choices.iter().all(|c| c.0 != shown) {
                            <option value={shown.to_string()} selected=true>{ format!("Conversation {}", thousands(shown)) }</option>
                        }
                        { for choices.iter().map(|c| html! {
                            <option value={c.0.to_string()} selected={c.0 == shown}>{ choice_label(c) }</option>
                        }) }
                    </select>
                </label>
                { for by_number }
            </div>
        }
    });

    let on_goto = {
        let (goto, asks) = (goto.clone(), asks.clone());
        Callback::from(move |k: usize| {
            let n = {
                let mut n = asks.borrow_mut();
                *n += 1;
                *n
            };
            goto.set(Some((k, n)));
        })
    };
    let head = judgement.map(|c| summary(doc, (*conversation, c), &on_goto, &props.on_select, &turns));
    html! {
        <section id="conversation" class="card conversation" aria-labelledby="conversation-heading"
            data-conversation={conversation.to_string()}>
            <div class="text-head">
                <h2 id="conversation-heading">{ format!("Conversation {}, turn by turn", thousands(*conversation)) }</h2>
                { for picker }
            </div>
            { for head }
            <TurnList key={format!("{}-{}", doc.seq, *conversation)} doc={Rc::clone(doc)} turns={Turns(Rc::clone(&turns))}
                conversation={*conversation} goto={*goto} on_select={props.on_select.clone()} />
        </section>
    }
}

/// The conversation's verdict across turns and why: its reasons, the tool-call check (a row
/// that goes to the decisive loop's first turn), and its streams (each opens its analysis).
fn summary(
    doc: &Document,
    (number, c): (usize, &ConversationReport),
    go: &Callback<usize>,
    on_select: &Callback<Open>,
    turns: &[TurnView],
) -> Html {
    let v = c.verdict;
    let counts = counts_sentence(c);
    let onset = onset_sentence(&doc.transcript, &doc.report, c).unwrap_or_default();
    let to_loop = c.tool_calls.decisive().and_then(|l| turns.iter().position(|t| t.index == l.first_turn)).map(|k| {
        let go = go.clone();
        Callback::from(move |()| go.emit(k))
    });
    let tool_row =
        check_row(&c.tool_calls.check, &Thresholds::default(), to_loop, "Show its first call in the conversation.");
    let streams = c.streams.iter().filter_map(|&i| {
        let r = doc.report.reports.get(i)?;
        let kind = r.stream?;
        let on_select = on_select.reform(move |_: MouseEvent| Open::clicked(i, Opener::Conversation(number)));
        let tripped = r.report.tripped().map(|m| format!(" · {} tripped", m.label())).unwrap_or_default();
        Some(html! {
            <li>
                <button type="button" class="link-button stream-open" data-report={i.to_string()} data-stream={kind.label()}
                    onclick={on_select}>
                    <span class={classes!("badge", level_key(r.report.verdict()))}>{ r.report.verdict().as_str() }</span>
                    { format!(" {}: {} as one text{tripped} — show its analysis", kind.label(), kind.of_what()) }
                </button>
            </li>
        })
    });
    html! {
        <div class="conversation-summary" role="status">
            <p class="conversation-verdict">
                <span id="conversation-verdict" class={classes!("badge", level_key(v))} data-verdict={v.as_str()}>{ v.as_str() }</span>
                { format!(" across turns · {counts}. {onset}") }
            </p>
            <ul id="conversation-reasons" class="reasons">
                { for c.reasons.iter().map(|r| html! { <li>{ r }</li> }) }
            </ul>
            <div class="table-wrap">
                <table id="conversation-checks" class="checks">
                    <caption>{ "Checks across turns" }</caption>
                    { checks_head() }
                    <tbody>{ tool_row }</tbody>
                </table>
            </div>
            if !c.streams.is_empty() {
                <ul id="conversation-streams" class="streams">{ for streams }</ul>
            }
        </div>
    }
}
