//! The full analysis of the text picked in the message table: which text it is, then the
//! verdict card, the heuristics and the highlighted text, as for plain text.

use std::rc::Rc;

use yew::prelude::*;

use super::checks_table::ChecksTable;
use super::too_short::too_short;
use super::verdict_card::VerdictCard;
use crate::dom;
use crate::model::document::{row_place, Document};
use crate::model::Analysis;
use crate::text_view::link::TextLink;
use crate::text_view::HighlightedText;
use coherency_core::analyze::Metric;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
    pub analysis: Rc<Analysis>,
    pub on_jump: Callback<Metric>,
    /// Shows byte N of the text.
    pub on_show: Callback<usize>,
    pub link: TextLink,
}

#[component]
pub fn MessageDetail(props: &Props) -> Html {
    let row = props.doc.selected_row();
    let place = row.map(row_place).unwrap_or_default();
    // An input is analysed and shown, but says so: it does not count towards the verdict.
    let not_judged = row.filter(|r| !r.judged).map(|r| {
        html! {
            <p id="detail-not-judged" class="notice-line">
                <span class="input-tag">{ r.why }</span>
                { " The model did not write this text: its findings explain what came next, but they do not count towards the verdict." }
            </p>
        }
    });
    let analysis = Rc::clone(&props.analysis);
    let body = match analysis.too_short_message() {
        Some(message) => too_short(&message, &analysis),
        None => html! {
            <VerdictCard analysis={Rc::clone(&analysis)} on_show={props.on_show.clone()}>
                <ChecksTable analysis={Rc::clone(&analysis)} on_jump={props.on_jump.clone()} />
            </VerdictCard>
        },
    };
    html! {
        <section id="message-detail" class="message-detail" aria-labelledby="detail-heading">
            <div class="detail-head">
                <h2 id="detail-heading" class="detail-heading">
                    <span class="detail-kicker">{ "Analysis of " }</span>{ place }
                </h2>
                <button type="button" id="back-to-messages" class="button chip" onclick={Callback::from(|_: MouseEvent| dom::reveal("messages"))}>
                    { "↑ All messages" }
                </button>
            </div>
            { for not_judged }
            { body }
            <HighlightedText {analysis} link={props.link.clone()} />
        </section>
    }
}
