//! The full analysis of the text picked in the message table or the conversation view: which
//! text it is, then the verdict card, the heuristics and the highlighted text, as for plain
//! text. Its "back" button returns to where it was opened from: the turn (focused, in view),
//! the conversation's stream button, or the table's row.

use std::rc::Rc;

use yew::prelude::*;

use super::checks_table::ChecksTable;
use super::too_short::too_short;
use super::turn_link::TurnLink;
use super::verdict_card::VerdictCard;
use crate::dom;
use crate::model::document::{row_place, Document};
use crate::model::Analysis;
use crate::state::Opener;
use crate::text_view::text_link::TextLink;
use crate::text_view::HighlightedText;
use coherency_core::analyze::Metric;
use coherency_core::wording::thousands;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
    pub analysis: Rc<Analysis>,
    pub on_jump: Callback<Metric>,
    /// Shows byte N of the text.
    pub on_show: Callback<usize>,
    pub link: TextLink,
    /// Where it was opened from (`None`: the page chose it).
    pub from: Option<Opener>,
    pub turn_link: TurnLink,
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
                { back_button(props.from, props.doc.selected, &props.turn_link) }
            </div>
            { for not_judged }
            { body }
            <HighlightedText {analysis} link={props.link.clone()} />
        </section>
    }
}

/// The button back to where the analysis was opened from: "↑ Back to turn 7" (that turn
/// focused, in view), "↑ Back to the conversation" (its stream's button), else "↑ All
/// messages" (the row of the table focused, or the table).
fn back_button(from: Option<Opener>, selected: Option<usize>, turn_link: &TurnLink) -> Html {
    let label = match from {
        Some(Opener::Turn { turn, .. }) => format!("↑ Back to turn {}", thousands(turn)),
        Some(Opener::Conversation(_)) => "↑ Back to the conversation".to_string(),
        Some(Opener::Table) | None => "↑ All messages".to_string(),
    };
    let turn_link = turn_link.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        let selected = selected.map(|i| i.to_string()).unwrap_or_default();
        match from {
            Some(Opener::Turn { conversation, row, .. }) => {
                if !turn_link.show(conversation, row) {
                    dom::reveal("conversation");
                }
            }
            Some(Opener::Conversation(_)) => {
                if !dom::focus_in_view(&format!("#conversation-streams .stream-open[data-report=\"{selected}\"]")) {
                    dom::reveal("conversation");
                }
            }
            Some(Opener::Table) | None => {
                if !dom::focus_in_view(&format!("#message-table tr[data-report=\"{selected}\"]")) {
                    dom::reveal("messages");
                }
            }
        }
    });
    html! {
        <button type="button" id="back-to-messages" class="button chip" data-back={back_key(from)} {onclick}>{ label }</button>
    }
}

/// Where the back button goes, for tests: "turn", "conversation" or "messages".
fn back_key(from: Option<Opener>) -> &'static str {
    match from {
        Some(Opener::Turn { .. }) => "turn",
        Some(Opener::Conversation(_)) => "conversation",
        Some(Opener::Table) | None => "messages",
    }
}
