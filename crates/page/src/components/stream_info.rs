//! What a stream capture says about itself: chunks, keep-alives, how it ended, finish reason,
//! usage, model, and any error the stream reported.

use yew::prelude::*;

use crate::model::document::stream_facts;
use coherency_core::ingest::Format;
use coherency_core::stream::StreamInfo;
use coherency_core::wording::thousands;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub format: Format,
    pub info: StreamInfo,
}

#[component]
pub fn StreamInfoView(props: &Props) -> Html {
    let facts = stream_facts(props.format, &props.info).into_iter().map(|(label, value)| {
        html! { <div class="fact"><dt>{ label }</dt><dd>{ value }</dd></div> }
    });
    let errors = props.info.errors.iter().map(|e| html! { <li>{ "The stream reported an error: " }{ e }</li> });
    let more = props.info.errors_not_listed;
    let more = (more > 0)
        .then(|| html! { <li class="more">{ format!("… and {} more errors not listed", thousands(more)) }</li> });
    html! {
        <section id="stream-info" class="subsection" aria-labelledby="stream-heading" data-done={props.info.saw_done.to_string()}
            data-chunks={props.info.chunks.to_string()}>
            <h3 id="stream-heading">{ "What the stream said" }</h3>
            <dl class="facts">{ for facts }</dl>
            if !props.info.errors.is_empty() {
                <ul id="stream-errors" class="problems">{ for errors }{ for more }</ul>
            }
        </section>
    }
}
