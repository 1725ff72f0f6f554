//! The verdict at a glance: a PASS / WARN / FAIL badge and what was measured, then where the
//! text turns degenerate (the onset, the windowed-ratio chart, and where drift is judged the drift
//! chart), then the reasons in words,
//! then (as children) the table of checks.

use std::rc::Rc;

use yew::prelude::*;

use super::drift_chart::DriftChart;
use super::profile_chart::ProfileChart;
use crate::model::{level_key, measured_line, verdict_headline, verdict_icon, Analysis};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
    /// Shows byte N of the text (the onset, a place on the chart).
    pub on_show: Callback<usize>,
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn VerdictCard(props: &Props) -> Html {
    let report = &props.analysis.report;
    let verdict = report.verdict;
    let level = level_key(verdict);
    let show = &props.on_show;
    let onset = props.analysis.onset_text().zip(report.onset).map(|(text, at)| {
        let show = show.clone();
        html! {
            <p id="onset" class="onset" data-onset={at.to_string()}>
                // The mark and its sentence wrap as one: a narrow screen keeps them together.
                <span class="onset-text"><span class="onset-mark" aria-hidden="true">{ "▼ " }</span>{ text }</span>{ " " }
                <button type="button" id="show-onset" class="button chip" onclick={Callback::from(move |_: MouseEvent| show.emit(at))}>
                    { "↧ Show the onset" }
                </button>
            </p>
        }
    });
    html! {
        <section id="verdict-card" class={classes!("card", "verdict-card", format!("verdict-{level}"))} aria-labelledby="verdict-heading">
            <div class="verdict-head" role="status">
                <div id="verdict" class={classes!("badge", "badge-big", level)} data-verdict={verdict.as_str()}>
                    <span class="badge-icon" aria-hidden="true">{ verdict_icon(verdict) }</span>
                    <span class="badge-text">{ verdict.as_str() }</span>
                </div>
                <div>
                    <h2 id="verdict-heading">{ verdict_headline(verdict, report.tripped) }</h2>
                    <p class="measured">{ measured_line(report, props.analysis.millis) }</p>
                </div>
            </div>
            { for onset }
            <ProfileChart analysis={Rc::clone(&props.analysis)} on_show={show.clone()} />
            <DriftChart analysis={Rc::clone(&props.analysis)} on_show={show.clone()} />
            <ul class="reasons" aria-label="Reasons">
                { for report.reasons.iter().map(|r| html! { <li>{ r }</li> }) }
            </ul>
            { props.children.clone() }
        </section>
    }
}
