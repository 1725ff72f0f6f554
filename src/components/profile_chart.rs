//! The windowed-ratio chart: the compression ratio of each 4 KiB window along the text, the
//! degenerate threshold as a dashed line, degenerate stretches shaded, the onset as a marker.
//! A click (or Enter on the focused chart, which goes to the onset) shows that place in the text.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::chart::{byte_at, geometry, HEIGHT, WIDTH};
use crate::model::Analysis;
use coherency_core::analyze::onset_phrase;
use coherency_core::wording::{lowercase_first, thousands};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
    /// Shows byte N of the text.
    pub on_show: Callback<usize>,
}

#[component]
pub fn ProfileChart(props: &Props) -> Html {
    let report = &props.analysis.report;
    let profile = &report.metrics.profile;
    // Hooks first, whatever is drawn: their order must not depend on the data.
    let svg = use_node_ref();
    let Some(g) = geometry(profile, report.bytes, report.onset) else { return html! {} };
    let onclick = {
        let (svg, on_show, profile, bytes) = (svg.clone(), props.on_show.clone(), profile.clone(), report.bytes);
        Callback::from(move |e: MouseEvent| {
            let Some(el) = svg.cast::<web_sys::Element>() else { return };
            let rect = el.get_bounding_client_rect();
            if rect.width() <= 0.0 {
                return;
            }
            let x = (e.client_x() as f64 - rect.left()) / rect.width() * WIDTH;
            on_show.emit(byte_at(&profile, bytes, x));
        })
    };
    let onkeydown = {
        let (on_show, onset) = (props.on_show.clone(), report.onset);
        Callback::from(move |e: KeyboardEvent| {
            if let (Some(onset), "Enter" | " ") = (onset, e.key().as_str()) {
                e.prevent_default();
                on_show.emit(onset);
            }
        })
    };
    let bands = g.degenerate.iter().map(|&(a, b)| {
        html! { <rect class="chart-degenerate" x={format!("{a:.1}")} y="0" width={format!("{:.1}", (b - a).max(1.0))} height={HEIGHT.to_string()} /> }
    });
    // The SVG stretches to its box, so the onset is labelled in the caption, not in the SVG.
    let onset = g.onset_x.map(|x| {
        html! {
            <line class="chart-onset" x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1="0" y2={HEIGHT.to_string()} />
        }
    });
    let label = format!(
        "Compression ratio of each {} KiB window along the text, from {:.2} to {:.2}; degenerate below {:.2}{}. Select to show a place in the text.",
        profile.window / 1024,
        profile.windows.iter().map(|w| w.1).fold(f64::INFINITY, f64::min),
        profile.windows.iter().map(|w| w.1).fold(0.0, f64::max),
        profile.degenerate_below,
        report
            .onset
            .map(|o| format!("; {}", lowercase_first(&onset_phrase(report.tripped, o))))
            .unwrap_or_default()
    );
    html! {
        <figure id="profile-chart" class="profile-chart" data-windows={profile.windows.len().to_string()}
            data-onset={report.onset.map(|o| o.to_string())}>
            <svg ref={svg} viewBox={format!("0 0 {WIDTH} {HEIGHT}")} preserveAspectRatio="none" role="img" tabindex="0"
                aria-label={label} {onclick} {onkeydown}>
                { for bands }
                <line class="chart-threshold" x1="0" x2={WIDTH.to_string()} y1={format!("{:.1}", g.threshold_y)} y2={format!("{:.1}", g.threshold_y)} />
                <polyline class="chart-line" points={g.points.clone()} />
                { for onset }
            </svg>
            <figcaption>
                { format!("Compression ratio along the text ({} KiB windows, DEFLATE level 1; axis 0 to {:.2}). ", profile.window / 1024, g.y_max) }
                <span class="legend-threshold">{ format!("Dashed: degenerate below {:.2}.", profile.degenerate_below) }</span>
                if let Some(o) = report.onset { { format!(" Solid red: the onset, byte {}.", thousands(o)) } }
                { " Click the chart to show that place in the text." }
            </figcaption>
        </figure>
    }
}
