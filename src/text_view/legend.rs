//! What the highlight styles mean: one pair of swatches (WARN, FAIL) per span kind, loops shown
//! banded as in the text, and the onset marker.

use yew::prelude::*;

use super::highlight::mark_classes;
use crate::model::kind_key;
use coherency_core::analyze::{SpanKind, Verdict};

/// The legend (a plain function: it has no state or props).
pub fn legend() -> Html {
    let items = SpanKind::ALL.into_iter().map(|kind| {
        let swatches = [Verdict::Warn, Verdict::Fail].into_iter().map(move |level| {
            let class = |band: &'static str| mark_classes(kind, level, false, band.into());
            let title = format!("{} ({})", kind.label(), level.as_str());
            if kind == SpanKind::Loop {
                html! {
                    <span class="swatches" {title}>
                        <mark class={class("band-even")}>{ "ab" }</mark><mark class={class("band-odd")}>{ "ab" }</mark>
                    </span>
                }
            } else {
                html! { <mark class={class("")} {title}>{ "abcd" }</mark> }
            }
        });
        html! {
            <li data-kind={kind_key(kind)}>
                <span class="swatches">{ for swatches }</span>
                { format!(" {} (WARN, FAIL)", kind.label()) }
            </li>
        }
    });
    html! {
        <ul class="legend" aria-label="Legend">
            { for items }
            <li><span class="marker onset-mark legend-onset" aria-hidden="true"></span>{ " onset: where the text starts to go wrong" }</li>
        </ul>
    }
}
