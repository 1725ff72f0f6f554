//! A document of messages at a glance: the overall verdict (the worst message's), which message
//! it is and what tripped, how many texts were analysed; then (as children) what the stream
//! said and what could not be read.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::document::{row_place, Document, Overall};
use crate::model::{duration_text, level_key, verdict_headline, verdict_icon};
use coherency_core::analyze::Verdict;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn DocumentSummary(props: &Props) -> Html {
    let doc = &props.doc;
    let took = doc.millis.map(|ms| format!(" · read and analysed in {}", duration_text(ms))).unwrap_or_default();
    let measured = html! { <p class="measured">{ doc.counts_line() }{ took }</p> };
    let (key, head) = match doc.overall() {
        Overall::Verdict(v) => {
            // "Worst" only means something when a text tripped a heuristic.
            // Across turns when a conversation's judgement decides, else the worst judged text.
            let across = doc.deciding_conversation().map(|c| {
                let why = c.reasons.first().cloned().unwrap_or_default();
                html! {
                    <p id="worst" class="worst" data-conversation={c.conversation.to_string()}>
                        { "Worst: " }<strong>{ Document::conversation_place(c) }</strong>{ " — " }{ why }
                    </p>
                }
            });
            let worst = across.or_else(|| {
                doc.rows.first().filter(|_| v != Verdict::Pass).map(|row| {
                    let tripped = row.tripped.map(|m| format!(": {} tripped", m.label())).unwrap_or_default();
                    html! { <p id="worst" class="worst">{ "Worst: " }<strong>{ row_place(row) }</strong>{ tripped }</p> }
                })
            });
            let head = html! {
                <div class="verdict-head" role="status">
                    <div id="overall-verdict" class={classes!("badge", "badge-big", level_key(v))} data-verdict={v.as_str()}>
                        <span class="badge-icon" aria-hidden="true">{ verdict_icon(v) }</span>
                        <span class="badge-text">{ v.as_str() }</span>
                    </div>
                    <div>
                        <h2 id="document-heading">{ verdict_headline(v, doc.tripped()) }</h2>
                        { for worst }
                        { measured }
                    </div>
                </div>
            };
            (level_key(v), head)
        }
        Overall::TooShort => {
            let head = html! {
                <div role="status">
                    <h2 id="document-heading">{ "Nothing to judge yet" }</h2>
                    <p class="notice-text">{ "Every text in this document is too short to judge (the heuristics need at least 20 non-blank bytes)." }</p>
                    { measured }
                </div>
            };
            ("too-short", head)
        }
        Overall::Nothing => {
            let head = html! {
                <div role="status">
                    <h2 id="document-heading">{ "No text to analyse" }</h2>
                    <p class="notice-text">{ format!("No message text was found reading this as {}.", doc.format().label()) }</p>
                </div>
            };
            ("nothing", head)
        }
    };
    html! {
        <section id="document" class={classes!("card", "verdict-card", format!("verdict-{key}"))} data-overall={key}
            aria-labelledby="document-heading">
            { head }
            { props.children.clone() }
        </section>
    }
}
