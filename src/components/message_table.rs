//! Every analysed text of a document, worst first: verdict, where it is (conversation, turn,
//! line), role, channel, size, and the metric that tripped; inputs marked "input — not judged".
//! A row is a control (click, Enter or Space) that shows that text's full analysis below; the
//! arrow keys move between rows. A document with inputs can be narrowed to the model's output
//! or to its inputs. Long tables render in pages.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use crate::model::document::Document;
use crate::model::level_key;
use crate::state::{Open, Opener};
use coherency_core::judge::{Author, MessageRow};
use coherency_core::wording::{plural, thousands};

/// Rows rendered at first, and added by "Show more".
const PAGE: usize = 200;

/// Which rows the table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    All,
    /// The model's output (what is judged).
    Model,
    /// Its inputs: system, user, tool results.
    Inputs,
}

impl Filter {
    fn keeps(self, row: &MessageRow) -> bool {
        match self {
            Filter::All => true,
            Filter::Model => row.author == Author::Model,
            Filter::Inputs => row.author == Author::Input,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Filter::All => "All",
            Filter::Model => "Model output",
            Filter::Inputs => "Inputs",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Filter::All => "all",
            Filter::Model => "model",
            Filter::Inputs => "inputs",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
    /// Called to show a row's text in full.
    pub on_select: Callback<Open>,
}

#[component]
pub fn MessageTable(props: &Props) -> Html {
    let shown = use_state(|| PAGE);
    let filter = use_state(|| Filter::All);
    let doc = &props.doc;
    let count = |f: Filter| doc.rows.iter().filter(|r| f.keeps(r)).count();
    let kept = count(*filter);
    let rows = doc.rows.iter().filter(|r| filter.keeps(r)).take(*shown).map(|row| row_view(doc, row, &props.on_select));
    let more = kept.saturating_sub(*shown);
    // Only a document with inputs has anything to narrow.
    let filters = (count(Filter::Inputs) > 0).then(|| {
        let button = |f: Filter| {
            let (filter_state, shown) = (filter.clone(), shown.clone());
            let on = *filter == f;
            html! {
                <button type="button" class={classes!("chip", "button", on.then_some("on"))} aria-pressed={on.to_string()}
                    data-filter={f.key()} onclick={Callback::from(move |_: MouseEvent| { filter_state.set(f); shown.set(PAGE); })}>
                    { format!("{} ({})", f.label(), thousands(count(f))) }
                </button>
            }
        };
        html! {
            <div id="message-filter" class="filter-bar" role="group" aria-label="Show rows">
                { button(Filter::All) }{ button(Filter::Model) }{ button(Filter::Inputs) }
            </div>
        }
    });
    let show_more = (more > 0).then(|| {
        let shown = shown.clone();
        html! {
            <button type="button" id="show-more" class="button chip" onclick={Callback::from(move |_: MouseEvent| shown.set(*shown + PAGE))}>
                { format!("Show {} more of {}", thousands(more.min(PAGE)), plural(more, "row", "rows")) }
            </button>
        }
    });
    html! {
        <section id="messages" class="card" aria-labelledby="messages-heading">
            <div class="text-head">
                <h2 id="messages-heading">{ "Messages, worst first" }</h2>
                <p class="help">{ "Click a row (or press Enter on it; ↑ ↓ move) to see that text's analysis below." }</p>
            </div>
            { for filters }
            <div class="table-wrap">
                <table id="message-table" class="checks messages">
                    <thead>
                        <tr>
                            <th scope="col">{ "Verdict" }</th>
                            <th scope="col" class="num" title="Conversation (0-based)">{ "Conv." }</th>
                            <th scope="col" class="num" title="Turn within the conversation (0-based)">{ "Turn" }</th>
                            <th scope="col" class="num">{ "Line" }</th>
                            <th scope="col">{ "Role" }</th>
                            <th scope="col">{ "Channel" }</th>
                            <th scope="col" class="num">{ "Bytes" }</th>
                            <th scope="col">{ "Tripped" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            { for show_more }
        </section>
    }
}

fn row_view(doc: &Document, row: &MessageRow, on_select: &Callback<Open>) -> Html {
    let index = row.report;
    let on_select = on_select.reform(move |()| Open::clicked(index, Opener::Table));
    let selected = doc.selected == Some(index);
    let short = doc.too_short(index);
    let onclick = {
        let on_select = on_select.clone();
        Callback::from(move |_: MouseEvent| on_select.emit(()))
    };
    let onkeydown = {
        let on_select = on_select.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" | " " => {
                e.prevent_default();
                on_select.emit(());
            }
            "ArrowDown" | "ArrowUp" => {
                // Move between rows; Enter then shows the one reached.
                // The row the key went to (Yew delegates events, so not `current_target`).
                let target: Option<Element> = e.target().and_then(|t| t.dyn_into().ok());
                let row = target.and_then(|t| t.closest("tr").ok().flatten());
                let next = row.and_then(|r| {
                    if e.key() == "ArrowDown" {
                        r.next_element_sibling()
                    } else {
                        r.previous_element_sibling()
                    }
                });
                if let Some(next) = next.and_then(|n| n.dyn_into::<HtmlElement>().ok()) {
                    e.prevent_default();
                    let _ = next.focus();
                }
            }
            _ => {}
        })
    };
    let verdict = if short {
        html! { <span class="short-tag" title="Too short to judge: under 20 non-blank bytes">{ "too short" }</span> }
    } else {
        html! { <span class={classes!("badge", level_key(row.verdict))}>{ row.verdict.as_str() }</span> }
    };
    let line = row.line.map(thousands).unwrap_or_default();
    let tripped = row.tripped.map(|m| m.label()).unwrap_or("");
    html! {
        <tr class={classes!("jumpable", selected.then_some("selected"), format!("row-{}", level_key(row.verdict)))}
            data-report={index.to_string()} data-verdict={row.verdict.as_str()} data-channel={row.channel}
            data-author={row.author.as_str()} data-judged={row.judged.to_string()}
            tabindex="0" aria-current={selected.then_some("true")}
            aria-label={format!("{}, {} {}, line {line}, {}: show its analysis", row.verdict.as_str(), row.role, row.channel_text(), row.why)}
            {onclick} {onkeydown}>
            <td>{ verdict }</td>
            <td class="num">{ thousands(row.conversation) }</td>
            <td class="num">{ thousands(row.index) }</td>
            <td class="num">{ line }</td>
            <td>{ &row.role }if !row.judged { <span class="input-tag">{ row.why }</span> }</td>
            <td title={(row.channel == "combined").then_some("reasoning and content of one reply, analysed together")}>{ row.channel_text() }</td>
            <td class="num">{ thousands(row.bytes) }</td>
            <td class="tripped">{ tripped }</td>
        </tr>
    }
}
