//! The checks (the seed's three heuristics and the three loop checks): meaning, value,
//! thresholds, the rule where a number alone does not say it, and whether each tripped. A row whose metric
//! has a highlighted span is a control (click, Enter or Space): it scrolls to that span.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::{level_key, Analysis};
use coherency_core::analyze::{threshold_cell, Check, Metric, Thresholds, Verdict};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
    pub on_jump: Callback<Metric>,
}

#[component]
pub fn ChecksTable(props: &Props) -> Html {
    let report = &props.analysis.report;
    let rows = report
        .checks
        .iter()
        .map(|c| row(c, &report.thresholds, props.analysis.first_span_index(c.metric), &props.on_jump));
    html! {
        <div class="table-wrap">
        <table class="checks">
            <caption>{ "Checks" }<span class="caption-help">{ " · select a row to jump to its first highlighted span" }</span></caption>
            { checks_head() }
            <tbody>{ for rows }</tbody>
        </table>
        </div>
    }
}

/// The head of a checks table, for the rows of [`check_row`].
pub fn checks_head() -> Html {
    html! {
        <thead>
            <tr>
                <th scope="col">{ "Check" }</th>
                <th scope="col" class="meaning">{ "Measures" }</th>
                <th scope="col" class="num">{ "Value" }</th>
                <th scope="col" class="num">{ "WARN at" }</th>
                <th scope="col" class="num">{ "FAIL at" }</th>
                <th scope="col">{ "Status" }</th>
            </tr>
        </thead>
    }
}

fn row(c: &Check, thresholds: &Thresholds, first_span: Option<usize>, on_jump: &Callback<Metric>) -> Html {
    let metric = c.metric;
    let on_activate = first_span.map(|_| on_jump.reform(move |()| metric));
    check_row(c, thresholds, on_activate, "Show its first highlighted span in the text.")
}

/// One check as a table row: its name, meaning and rule, value, thresholds and status. With
/// `on_activate` the row is a control (click, Enter or Space) that `action` describes.
pub fn check_row(c: &Check, thresholds: &Thresholds, on_activate: Option<Callback<()>>, action: &str) -> Html {
    let metric = c.metric;
    // A check that did not run is neither passed nor tripped: a neutral badge.
    let (badge, tone, status) = match c.level {
        Verdict::Pass if !c.judged && metric == Metric::ToolLoop => ("not judged", "skip", "no tool calls"),
        Verdict::Pass if !c.judged => ("not judged", "skip", "text too short"),
        Verdict::Pass => ("PASS", "pass", "not tripped"),
        Verdict::Warn | Verdict::Fail => (c.level.as_str(), level_key(c.level), "tripped"),
    };
    let key = serde_key(metric);
    let cells = html! {
        <>
            <th scope="row">
                { metric.label() }
                if on_activate.is_some() { <span class="jump" aria-hidden="true">{ " ↧" }</span> }
            </th>
            <td class="meaning">
                { metric.meaning() }
                if let Some(rule) = metric.rule(thresholds) { <span class="rule">{ rule }</span> }
            </td>
            // A check not judged (too little text) shows no number that could read as tripped.
            <td class="num value" title={(!c.judged).then(|| format!("computed: {}", c.value_text()))}>
                { if c.judged { c.value_text() } else { "—".to_string() } }
            </td>
            <td class="num">{ threshold_cell(c, false) }</td>
            <td class="num">{ threshold_cell(c, true) }</td>
            <td><span class={classes!("badge", tone)}>{ badge }</span>{ " " }<span class="status-text">{ status }</span></td>
        </>
    };
    let Some(on_activate) = on_activate else {
        return html! {
            <tr data-metric={key} data-level={c.level.as_str()} class={classes!(format!("row-{}", level_key(c.level)))}>{ cells }</tr>
        };
    };
    let onclick = on_activate.reform(|_: MouseEvent| ());
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            on_activate.emit(());
        }
    });
    html! {
        <tr data-metric={key} data-level={c.level.as_str()} class={classes!("jumpable", format!("row-{}", level_key(c.level)))} tabindex="0"
            aria-label={format!("{}: {}. {action}", metric.label(), c.value_text())}
            {onclick} {onkeydown}>
            { cells }
        </tr>
    }
}

/// The metric's JSON name, a stable hook for tests and styles.
fn serde_key(metric: Metric) -> &'static str {
    metric.key()
}
