//! The turns of one conversation in a scrolled box: only the rows on screen are rendered, however
//! many turns (every row is [`TURN_ROW_PX`] tall, laid out by the text view's [`Geometry`]),
//! with "Show the onset" and Next / Previous through the flagged turns, the arrow keys (↑ ↓ Home
//! End) moving between turns, and a click (Enter, Space) opening a turn's analysis. Its own
//! component, so that scrolling re-renders the rows and nothing else of the page.
//!
//! Hooks for tests: `#show-onset-turn`, `#prev-flagged`, `#next-flagged`, `#flagged-position`,
//! `#conversation-turns` (the scrolled box), and each rendered turn
//! `.turn[data-row][data-turn][data-author][data-judged][data-loop][data-onset]`.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, ScrollLogicalPosition};
use yew::prelude::*;

use crate::dom;
use crate::model::conversation::{
    flagged_position, flagged_rows, onset_row, preview, report_to_open, step_flagged, turn_label, PreviewLine,
    TURN_ROW_PX,
};
use crate::model::document::Document;
use crate::model::level_key;
use crate::model::turn_view::TurnView;
use crate::state::{Open, Opener};
use crate::text_view::scrolling::Geometry;
use coherency_core::analyze::Verdict;
use coherency_core::judge::Author;
use coherency_core::wording::{plural, thousands};

/// A conversation's turns, compared by identity (the view makes them once per conversation).
#[derive(Clone)]
pub struct Turns(pub Rc<Vec<TurnView>>);

impl PartialEq for Turns {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
    pub turns: Turns,
    /// The conversation's number (for the list's label).
    pub conversation: usize,
    /// A row to go to, asked from outside (the tool-call check), with a number that changes
    /// with every ask.
    pub goto: Option<(usize, u64)>,
    /// Called to show a turn's text in full.
    pub on_select: Callback<Open>,
}

#[component]
pub fn TurnList(props: &Props) -> Html {
    let doc = &props.doc;
    let turns = Rc::clone(&props.turns.0);
    let scroll_top = use_state_eq(|| 0.0f64);
    // The row (position in the turn list) the keyboard and Next / Previous are at.
    let current = use_state_eq(|| None::<usize>);
    // A row to focus once it is rendered.
    let focus_row = use_mut_ref(|| None::<usize>);
    let scroller = use_node_ref();
    let flagged = {
        let turns = Rc::clone(&turns);
        use_memo(props.turns.clone(), move |_| flagged_rows(&turns))
    };
    let window_h = web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(900.0);
    let max_h = (window_h * 0.6).clamp(240.0, 620.0);
    let box_h = (turns.len() as f64 * TURN_ROW_PX).min(max_h).max(TURN_ROW_PX);
    let geo = Geometry { rows: turns.len(), row_h: TURN_ROW_PX, view_h: box_h };

    // A row rendered after a step: focus it (focusing brings it into the page's view too).
    {
        let (focus_row, scroller) = (Rc::clone(&focus_row), scroller.clone());
        use_effect(move || {
            let Some(row) = *focus_row.borrow() else { return };
            let Some(root) = scroller.cast::<Element>() else { return };
            if let Ok(Some(el)) = root.query_selector(&format!(".turn[data-row=\"{row}\"]")) {
                *focus_row.borrow_mut() = None;
                if let Ok(el) = el.dyn_into::<HtmlElement>() {
                    focus_in_view(&el);
                }
            }
        });
    }

    // Goes to row `k`: scrolls the box to it (centred unless already in view), makes it current
    // and focuses it once rendered.
    let go = {
        let (scroller, scroll_top, current, focus_row) =
            (scroller.clone(), scroll_top.clone(), current.clone(), Rc::clone(&focus_row));
        Callback::from(move |k: usize| {
            if k >= geo.rows {
                return;
            }
            if let Some(el) = scroller.cast::<Element>() {
                let top = el.scroll_top() as f64;
                let (row_top, row_bottom) = (k as f64 * TURN_ROW_PX, (k + 1) as f64 * TURN_ROW_PX);
                if row_top < top || row_bottom > top + geo.view_h {
                    el.set_scroll_top(geo.scroll_top_centering(k).round() as i32);
                }
                scroll_top.set(el.scroll_top() as f64);
            }
            current.set(Some(k));
            // Rendered already: focused now (no render may follow); else once it is rendered.
            let rendered = scroller
                .cast::<Element>()
                .and_then(|root| root.query_selector(&format!(".turn[data-row=\"{k}\"]")).ok().flatten())
                .and_then(|el| el.dyn_into::<HtmlElement>().ok());
            match rendered {
                Some(el) => {
                    *focus_row.borrow_mut() = None;
                    focus_in_view(&el);
                }
                None => *focus_row.borrow_mut() = Some(k),
            }
        })
    };

    // Asked from outside: go there.
    {
        let go = go.clone();
        use_effect_with(props.goto, move |goto| {
            if let Some((k, _)) = *goto {
                go.emit(k);
            }
        });
    }

    let onscroll = {
        let (scroll_top, scroller) = (scroll_top.clone(), scroller.clone());
        Callback::from(move |_: Event| {
            if let Some(el) = scroller.cast::<Element>() {
                scroll_top.set(el.scroll_top() as f64);
            }
        })
    };

    // Opens turn `k`'s analysis below; `reveal`: and brings it into view (a click, Enter), else
    // the page stays on the list (Next, Previous, Show the onset).
    let open_turn = {
        let (report, turns, on_select, conversation) =
            (Rc::clone(&doc.report), Rc::clone(&turns), props.on_select.clone(), props.conversation);
        Callback::from(move |(k, reveal): (usize, bool)| {
            let Some(turn) = turns.get(k) else { return };
            if let Some(index) = report_to_open(&report, turn) {
                let from = Opener::Turn { conversation, row: k, turn: turn.index };
                on_select.emit(Open { index, from, reveal });
            }
        })
    };
    let open = {
        let (open_turn, current) = (open_turn.clone(), current.clone());
        Callback::from(move |k: usize| {
            current.set(Some(k));
            open_turn.emit((k, true));
        })
    };
    // Goes to row `k` and shows its analysis below, the page kept on the list.
    let step_to = {
        let (go, open_turn) = (go.clone(), open_turn.clone());
        Callback::from(move |k: usize| {
            go.emit(k);
            open_turn.emit((k, false));
        })
    };

    let nav = {
        let onset = onset_row(&turns);
        let step = |forward: bool| {
            let (flagged, current, step_to) = (Rc::clone(&flagged), current.clone(), step_to.clone());
            Callback::from(move |_: MouseEvent| {
                if let Some(k) = step_flagged(&flagged, *current, forward) {
                    step_to.emit(k);
                }
            })
        };
        let show_onset = onset.map(|k| {
            let step_to = step_to.clone();
            let turn = turns[k].index;
            html! {
                <button type="button" id="show-onset-turn" class="button" onclick={Callback::from(move |_: MouseEvent| step_to.emit(k))}>
                    { format!("Show the onset (turn {})", thousands(turn)) }
                </button>
            }
        });
        let none = flagged.is_empty();
        html! {
            <div class="span-nav turn-nav">
                { for show_onset }
                <button type="button" id="prev-flagged" class="button chip" disabled={none} onclick={step(false)}
                    aria-label="Previous flagged turn">{ "← Previous" }</button>
                <span id="flagged-position" class="span-position" aria-live="polite" data-count={flagged.len().to_string()}>
                    { flagged_position(&flagged, *current) }
                </span>
                <button type="button" id="next-flagged" class="button chip" disabled={none} onclick={step(true)}
                    aria-label="Next flagged turn">{ "Next →" }</button>
            </div>
        }
    };

    let onkeydown = {
        let (go, open, current) = (go.clone(), open.clone(), current.clone());
        let rows = turns.len();
        Callback::from(move |e: KeyboardEvent| {
            // The row the key went to (Yew delegates events, so not `current_target`).
            let target: Option<Element> = e.target().and_then(|t| t.dyn_into().ok());
            let row = target
                .and_then(|t| t.closest(".turn").ok().flatten())
                .and_then(|r| r.get_attribute("data-row"))
                .and_then(|r| r.parse::<usize>().ok())
                .or(*current);
            let Some(k) = row else { return };
            let to = match e.key().as_str() {
                "ArrowDown" => Some((k + 1).min(rows.saturating_sub(1))),
                "ArrowUp" => Some(k.saturating_sub(1)),
                "Home" => Some(0),
                "End" => Some(rows.saturating_sub(1)),
                "Enter" | " " => {
                    e.prevent_default();
                    open.emit(k);
                    None
                }
                _ => None,
            };
            if let Some(to) = to {
                e.prevent_default();
                go.emit(to);
            }
        })
    };

    let visible = geo.visible_rows(*scroll_top);
    let selected = doc.selected;
    // Nothing judgeable (every text too short): no turn's own verdict is shown as a finding.
    let judgeable = !doc.report.all_too_short();
    // One tab stop in the list: the current turn while it is rendered, else the first in view.
    let tab_stop = current.filter(|&c| (visible.first..visible.end).contains(&c)).unwrap_or(visible.first_visible);
    let rows = (visible.first..visible.end).filter_map(|k| {
        let turn = turns.get(k)?;
        let own = turn.verdict.filter(|v| *v > Verdict::Pass && judgeable);
        let selected = selected.is_some_and(|s| turn.reports.contains(&s));
        Some(turn_row(doc, turn, k, own, (*current == Some(k), k == tab_stop), selected, &open))
    });

    html! {
        <>
            { nav }
            <p class="help">{ "The model's turns are judged; its inputs (system, user, tool results) are analysed and shown, marked “input — not judged”. Banded turns are part of a loop across turns. Click a turn (or press Enter on it; ↑ ↓ move), or step with Show the onset, Next and Previous, to see its analysis below." }</p>
            <div id="conversation-turns" ref={scroller} class="turns-box" role="list"
                aria-label={format!("{} of conversation {}", plural(turns.len(), "turn", "turns"), thousands(props.conversation))}
                style={format!("height: {box_h}px")} {onscroll} {onkeydown}>
                <div class="turns-extent" style={format!("height: {}px", geo.extent())}>
                    <div class="turns-window" style={format!("transform: translateY({}px)", visible.top_px)}>
                        { for rows }
                    </div>
                </div>
            </div>
        </>
    }
}

/// Focuses a turn's row and brings all of it into the window (focusing alone may leave it
/// half out of sight).
fn focus_in_view(row: &HtmlElement) {
    let _ = row.focus();
    dom::scroll_to(row, ScrollLogicalPosition::Nearest);
}

/// One turn as a row of the view.
fn turn_row(
    doc: &Document,
    turn: &TurnView,
    k: usize,
    own: Option<Verdict>,
    (current, tab_stop): (bool, bool),
    selected: bool,
    open: &Callback<usize>,
) -> Html {
    let (lines, more) = preview(&doc.transcript, turn);
    let role = turn.messages.first().and_then(|&m| doc.transcript.messages.get(m)).map_or("?", |m| m.role.as_str());
    let onclick = open.reform(move |_: MouseEvent| k);
    let loop_class = turn.in_loop.map(|l| format!("loop-{}", level_key(l)));
    let band = turn.in_loop.map(|_| if k.is_multiple_of(2) { "band-even" } else { "band-odd" });
    html! {
        <div key={k} class={classes!("turn", format!("author-{}", turn.author.as_str()), loop_class, band,
                turn.onset.then_some("turn-onset"), current.then_some("current"), selected.then_some("selected"))}
            role="listitem" tabindex={if tab_stop { "0" } else { "-1" }}
            style={format!("height: {TURN_ROW_PX}px")}
            data-row={k.to_string()} data-turn={turn.index.to_string()} data-author={turn.author.as_str()}
            data-judged={turn.judged.to_string()} data-loop={turn.in_loop.map(|l| l.as_str()).unwrap_or("")}
            data-onset={turn.onset.to_string()} aria-current={selected.then_some("true")}
            aria-label={turn_label(&doc.transcript, turn)} {onclick}>
            <div class="turn-head">
                <span class="turn-no">{ format!("Turn {}", thousands(turn.index)) }</span>
                <span class="turn-role">{ role }</span>
                if turn.author == Author::Input && !turn.judged {
                    <span class="input-tag">{ "input — not judged" }</span>
                }
                if let Some(v) = own {
                    <span class={classes!("badge", level_key(v))} title="this turn's own texts">{ v.as_str() }</span>
                }
                if let Some(level) = turn.in_loop {
                    <span class={classes!("loop-tag", level_key(level))}>{ format!("{} loop across turns", level.as_str()) }</span>
                }
                if turn.poll { <span class="poll-tag">{ "polls" }</span> }
                if turn.onset { <span class="onset-tag">{ "◆ the loop starts here" }</span> }
                if more > 0 { <span class="turn-more">{ format!("+ {} more", plural(more, "text", "texts")) }</span> }
            </div>
            { for lines.iter().map(line_view) }
        </div>
    }
}

fn line_view(line: &PreviewLine) -> Html {
    html! {
        <div class={classes!("turn-line", format!("kind-{}", line.kind))}>
            <span class="line-label">{ &line.label }</span>
            <span class="line-text">{ &line.text }</span>
            if !line.size.is_empty() { <span class="line-size">{ &line.size }</span> }
        </div>
    }
}
