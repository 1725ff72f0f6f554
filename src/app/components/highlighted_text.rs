//! The analysed text as text, with every flagged span highlighted. Overlapping and nested spans
//! come pre-split into segments by the view model; each segment nests one `<mark>` per span that
//! covers it, and each span's first piece carries class `span`, `id="span-N"` and `data-kind`.

use std::rc::Rc;

use yew::prelude::*;

use super::legend::Legend;
use crate::analyze::Span;
use crate::app::dom;
use crate::app::model::{kind_key, level_key, span_count_text, span_title, Analysis, Segment};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
}

#[component]
pub fn HighlightedText(props: &Props) -> Html {
    let a = &props.analysis;
    let spans = &a.report.spans;
    let pieces = a.segments.iter().map(|seg| segment(&a.text, seg, spans, ""));
    let first = (!spans.is_empty()).then(|| {
        html! {
            <button type="button" id="show-first" class="button chip" onclick={Callback::from(|_: MouseEvent| dom::show_span(0))}>
                { "↧ Show the first" }
            </button>
        }
    });
    html! {
        <section class="card text-card" aria-labelledby="text-heading">
            <div class="text-head">
                <h2 id="text-heading">{ "The analysed text" }</h2>
                <div class="text-tools">
                    <p id="span-count" class="span-count" data-count={spans.len().to_string()}>{ span_count_text(spans.len()) }</p>
                    { for first }
                </div>
            </div>
            if !spans.is_empty() { <Legend /> }
            <pre id="analysed-text" class="text" tabindex="0" aria-label="The analysed text with repeated spans highlighted">{ for pieces }</pre>
        </section>
    }
}

/// One segment of `text` inside its `<mark>`s; the first piece of span N gets `id="{id_prefix}span-N"`.
pub(super) fn segment(text: &str, seg: &Segment, spans: &[Span], id_prefix: &str) -> Html {
    let mut node = Html::from(text.get(seg.start..seg.end).unwrap_or_default().to_string());
    for layer in seg.layers.iter().rev() {
        let Some(span) = spans.get(layer.span) else { continue };
        let class = classes!(
            "hl",
            layer.first.then_some("span"),
            format!("k-{}", kind_key(span.kind)),
            format!("l-{}", level_key(span.level))
        );
        let index = layer.span.to_string();
        let id = layer.first.then(|| format!("{id_prefix}span-{index}"));
        node = html! {
            <mark {class} {id} data-span={index} data-kind={kind_key(span.kind)} data-level={span.level.as_str()}
                title={span_title(span)}>{ node }</mark>
        };
    }
    node
}
