//! What the highlight styles mean: one swatch per span kind and level.

use yew::prelude::*;

use crate::analyze::{SpanKind, Verdict};
use crate::app::model::{kind_key, level_key};

#[component]
pub fn Legend() -> Html {
    let items = [SpanKind::RepeatedLine, SpanKind::WordRun].into_iter().flat_map(|kind| {
        [Verdict::Warn, Verdict::Fail].into_iter().map(move |level| {
            html! {
                <li>
                    <mark class={classes!("hl", format!("k-{}", kind_key(kind)), format!("l-{}", level_key(level)))}>{ "sample" }</mark>
                    { format!(" {} ({})", kind.label(), level.as_str()) }
                </li>
            }
        })
    });
    html! { <ul class="legend" aria-label="Legend">{ for items }</ul> }
}
