//! What a stream capture says about itself: chunks, keep-alives, how it ended, finish reason,
//! usage, model, and any error the stream reported.

use yew::prelude::*;

use crate::model::document::stream_facts;
use coherency_core::ingest::Format;
use coherency_core::stream::StreamInfo;
use coherency_core::wording::thousands;

/// What a stream capture of `format` said about itself (a plain function: no state).
pub fn stream_info(format: Format, info: &StreamInfo) -> Html {
    let facts = stream_facts(format, info).into_iter().map(|(label, value)| {
        html! { <div class="fact"><dt>{ label }</dt><dd>{ value }</dd></div> }
    });
    let errors = info.errors.iter().map(|e| html! { <li>{ "The stream reported an error: " }{ e }</li> });
    let more = info.errors_not_listed;
    let more = (more > 0)
        .then(|| html! { <li class="more">{ format!("… and {} more errors not listed", thousands(more)) }</li> });
    html! {
        <section id="stream-info" class="subsection" aria-labelledby="stream-heading" data-done={info.saw_done.to_string()}
            data-chunks={info.chunks.to_string()}>
            <h3 id="stream-heading">{ "What the stream said" }</h3>
            <dl class="facts">{ for facts }</dl>
            if !info.errors.is_empty() {
                <ul id="stream-errors" class="problems">{ for errors }{ for more }</ul>
            }
        </section>
    }
}
