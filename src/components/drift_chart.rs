//! The drift chart: the drift rule's series along the text — the share of each window's words
//! that are topic words (the opening's, and the prompt's for a reply to one) — as a step line,
//! the opening shaded, the tail where no topic word comes back shaded, the drift onset as a
//! marker when the drift check WARNs. Drawn only where drift is judged (the report has a drift
//! figure). A click (or Enter on the focused chart, which goes to the drift onset) shows that
//! place in the text.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::drift_chart::{byte_at, geometry, HEIGHT, WIDTH};
use crate::model::Analysis;
use coherency_core::analyze::{Metric, Verdict};
use coherency_core::wording::{percent, thousands};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
    /// Shows byte N of the text.
    pub on_show: Callback<usize>,
}

#[component]
pub fn DriftChart(props: &Props) -> Html {
    let report = &props.analysis.report;
    // Hooks first, whatever is drawn: their order must not depend on the data.
    let svg = use_node_ref();
    let Some(d) = report.metrics.drift.as_ref() else { return html! {} };
    let tripped = report.check(Metric::Drift).level > Verdict::Pass;
    let Some(g) = geometry(d, report.bytes, tripped) else { return html! {} };
    let onset = tripped.then_some(d.tail);
    let onclick = {
        let (svg, on_show, d, bytes) = (svg.clone(), props.on_show.clone(), d.clone(), report.bytes);
        Callback::from(move |e: MouseEvent| {
            let Some(el) = svg.cast::<web_sys::Element>() else { return };
            let rect = el.get_bounding_client_rect();
            if rect.width() <= 0.0 {
                return;
            }
            let x = (e.client_x() as f64 - rect.left()) / rect.width() * WIDTH;
            on_show.emit(byte_at(&d, bytes, x));
        })
    };
    let onkeydown = {
        let on_show = props.on_show.clone();
        Callback::from(move |e: KeyboardEvent| {
            if let (Some(onset), "Enter" | " ") = (onset, e.key().as_str()) {
                e.prevent_default();
                on_show.emit(onset);
            }
        })
    };
    let topic = d.topic.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(", ");
    let prompt = match d.prompt_words {
        0 => String::new(),
        n => format!(" and the prompt's {n}"),
    };
    let tail_share = percent((report.bytes - d.tail.min(report.bytes)) as f64 / report.bytes as f64);
    let label = format!(
        "Share of topic words ({topic}{prompt}) in each window of {} along the text; none from byte {} to the end ({tail_share}){}. Select to show a place in the text.",
        bytes_label(d.window),
        thousands(d.tail),
        if tripped { "; the text drifts from there" } else { "" }
    );
    let marker = g.onset_x.map(|x| {
        html! { <line class="chart-onset" x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1="0" y2={HEIGHT.to_string()} /> }
    });
    html! {
        <figure id="drift-chart" class="profile-chart drift-chart" aria-label="Topic drift along the text" data-windows={d.windows.len().to_string()}
            data-tail={d.tail.to_string()} data-onset={onset.map(|o| o.to_string())}>
            <svg ref={svg} viewBox={format!("0 0 {WIDTH} {HEIGHT}")} preserveAspectRatio="none" role="img" tabindex="0"
                aria-label={label} {onclick} {onkeydown}>
                <rect class="chart-opening" x="0" y="0" width={format!("{:.1}", g.opening_x.max(1.0))} height={HEIGHT.to_string()} />
                <rect class="chart-tail" x={format!("{:.1}", g.tail.0)} y="0" width={format!("{:.1}", (g.tail.1 - g.tail.0).max(1.0))} height={HEIGHT.to_string()} />
                <polyline class="chart-line" points={g.points.clone()} />
                { for marker }
            </svg>
            <figcaption>
                <strong class="chart-title">{ "Topic drift along the text. " }</strong>
                { format!("Share of each {} window's words (five letters or more) that are the opening's topic words ({topic}){prompt}; axis 0 to {}. ", bytes_label(d.window), percent(g.y_max)) }
                { format!("Shaded: the opening, and from byte {} ({tail_share} of the text) where none comes back.", thousands(d.tail)) }
                if let Some(o) = onset { { format!(" Solid red: the drift onset, byte {}.", thousands(o)) } }
                { " Click to show that place." }
            </figcaption>
        </figure>
    }
}

/// A window's size in words: "512 B", "4 KiB", "39.1 KiB".
fn bytes_label(n: usize) -> String {
    if n < 1024 {
        format!("{n} B")
    } else if n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{:.1} KiB", n as f64 / 1024.0)
    }
}
