//! One channel of a live run (the reasoning or the answer) as it grows, with its flagged spans
//! highlighted like the analysed text; the reasoning is set apart by colour and a label.

use std::rc::Rc;

use yew::prelude::*;

use super::view::channel_word;
use crate::dom;
use crate::model::{level_key, span_count_text, Analysis};
use crate::text_view::highlight::segment;
use coherency_core::ingest::Channel;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
    /// The reasoning or the content.
    pub channel: Channel,
    /// While the stream runs the view follows the end of the text.
    pub running: bool,
}

#[component]
pub fn LiveText(props: &Props) -> Html {
    let a = &props.analysis;
    let spans = &a.report.spans;
    let word = channel_word(props.channel);
    let prefix = format!("live-{word}-");
    let pre = use_node_ref();
    {
        let (pre, running) = (pre.clone(), props.running);
        use_effect_with(a.seq, move |_| {
            if running {
                if let Some(el) = pre.cast::<web_sys::Element>() {
                    el.set_scroll_top(el.scroll_height());
                }
            }
        });
    }
    let first = (!spans.is_empty()).then(|| {
        let id = format!("{prefix}span-0");
        html! {
            <button type="button" class="button chip show-first" onclick={Callback::from(move |_: MouseEvent| dom::reveal_id(&id))}>
                { "↧ Show the first" }
            </button>
        }
    });
    let pieces = a.segments.iter().map(|seg| segment(&a.text, seg, spans, &prefix));
    let title = if props.channel == Channel::Reasoning { "Reasoning" } else { "Answer" };
    let verdict = (!a.report.too_short).then(|| {
        let v = a.report.verdict;
        html! { <span class={classes!("badge", level_key(v))} data-verdict={v.as_str()}>{ v.as_str() }</span> }
    });
    html! {
        <section id={format!("live-{word}")} class={classes!("card", "text-card", "live-text", format!("channel-{word}"))}
            data-verdict={(!a.report.too_short).then(|| a.report.verdict.as_str())} data-bytes={a.text.len().to_string()}>
            <div class="text-head">
                <h3>{ title }{ " " }{ for verdict }</h3>
                <div class="text-tools">
                    <p class="span-count" data-count={spans.len().to_string()}>{ span_count_text(spans.len(), a.report.spans_not_listed) }</p>
                    { for first }
                </div>
            </div>
            <pre ref={pre} class="text" tabindex="0" aria-label={format!("{title} as streamed, repeated spans highlighted")}>{ for pieces }</pre>
        </section>
    }
}
