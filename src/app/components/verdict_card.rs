//! The verdict at a glance: a PASS / WARN / FAIL badge, the reasons in words, what was measured,
//! then (as children) the table of heuristics.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::model::{level_key, measured_line, verdict_headline, verdict_icon, Analysis};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn VerdictCard(props: &Props) -> Html {
    let report = &props.analysis.report;
    let verdict = report.verdict;
    let level = level_key(verdict);
    html! {
        <section id="verdict-card" class={classes!("card", "verdict-card", format!("verdict-{level}"))} aria-labelledby="verdict-heading">
            <div class="verdict-head" role="status">
                <div id="verdict" class={classes!("badge", "badge-big", level)} data-verdict={verdict.as_str()}>
                    <span class="badge-icon" aria-hidden="true">{ verdict_icon(verdict) }</span>
                    <span class="badge-text">{ verdict.as_str() }</span>
                </div>
                <div>
                    <h2 id="verdict-heading">{ verdict_headline(verdict) }</h2>
                    <p class="measured">{ measured_line(report, props.analysis.millis) }</p>
                </div>
            </div>
            <ul class="reasons" aria-label="Reasons">
                { for report.reasons.iter().map(|r| html! { <li>{ r }</li> }) }
            </ul>
            { props.children.clone() }
        </section>
    }
}
