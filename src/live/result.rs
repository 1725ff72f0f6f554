//! A live run's result: the verdict with the speed beside it and how the stream ended, the
//! stream's timings and counts, errors the stream reported, then the reasoning and the answer.

use std::rc::Rc;

use yew::prelude::*;

use super::text::LiveText;
use super::view::{live_headline, so_far_line, speed_line, stat_rows, worst_word, LiveView};
use crate::dom;
use crate::model::{level_key, verdict_icon};
use coherency_core::ingest::Channel;
use coherency_core::wording::thousands;

/// A live run's result `v`; `on_replay` reads the finished run's capture through the file path.
/// A plain function: it has no state of its own.
pub fn live_result(v: &LiveView, on_replay: &Callback<Rc<[u8]>>) -> Html {
    let shown = v.shown_verdict();
    let broken = v.broken.as_ref().filter(|_| shown.is_none());
    let badge = match (shown, v.worst, broken) {
        (_, _, Some(b)) => html! {
            <div id="live-verdict" class="badge badge-big fail" data-verdict={b.badge} data-text-verdict={v.worst.map(|(w, _)| w.as_str())}>
                <span class="badge-icon" aria-hidden="true">{ "⚠" }</span>
                <span class="badge-text">{ b.badge }</span>
            </div>
        },
        (Some(verdict), Some((_, channel)), None) => html! {
            <div id="live-verdict" class={classes!("badge", "badge-big", level_key(verdict))} data-verdict={verdict.as_str()}
                data-channel={worst_word(channel)}>
                <span class="badge-icon" aria-hidden="true">{ verdict_icon(verdict) }</span>
                <span class="badge-text">{ verdict.as_str() }</span>
            </div>
        },
        _ => html! { <div id="live-verdict" class="badge badge-big pending" data-verdict="">{ "…" }</div> },
    };
    let level = match (shown, broken) {
        (_, Some(_)) => "fail",
        (Some(verdict), None) => level_key(verdict),
        (None, None) => "pending",
    };
    let (headline, after) = match broken {
        Some(b) => (b.headline.clone(), Some(so_far_line(v.worst))),
        None => (live_headline(v.worst, v.running), None),
    };
    // A FAIL in a run that broke off: the loop leads, the breakage is said under it.
    let broken_too = v.broken.as_ref().filter(|_| broken.is_none()).map(|b| b.headline.clone());
    let facts = stat_rows(&v.stats, v.running)
        .into_iter()
        .map(|(label, value)| html! { <div class="fact"><dt>{ label }</dt><dd>{ value }</dd></div> });
    let errors = v.stats.errors().map(|e| html! { <li>{ "The server sent an error mid-stream: " }{ e }</li> });
    let more = v.stats.not_listed();
    let more =
        (more > 0).then(|| html! { <li class="more">{ format!("… and {} more not listed", thousands(more)) }</li> });
    let show_reasoning = !v.reasoning.text.is_empty();
    let capture_tools = v.capture.clone().map(|capture| {
        let replay = {
            let (on_replay, capture) = (on_replay.clone(), Rc::clone(&capture));
            Callback::from(move |_: MouseEvent| on_replay.emit(Rc::clone(&capture)))
        };
        let download = Callback::from(move |_: MouseEvent| dom::download("live-capture.sse", &capture));
        html! {
            <div class="actions">
                <button type="button" id="live-replay" class="button" onclick={replay}>{ "Analyse the capture as a file" }</button>
                <button type="button" id="live-download" class="button ghost" onclick={download}>{ "⤓ Save the capture (.sse)" }</button>
                <span class="help">{ "The response body as received: no request, no key." }</span>
            </div>
        }
    });
    html! {
        <>
            <section id="live-card" class={classes!("card", "verdict-card", format!("verdict-{level}"))} data-running={v.running.to_string()}
                data-ending={v.ending_key} data-broken={v.broken.as_ref().map(|b| b.key)} aria-labelledby="live-heading">
                <div class="verdict-head" role="status">
                    { badge }
                    <div>
                        <h2 id="live-heading">{ headline }</h2>
                        if let Some(after) = after { <p id="live-so-far" class="measured">{ after }</p> }
                        if let Some(also) = broken_too { <p id="live-broken" class="measured">{ also }</p> }
                        <p id="live-speed" class="measured">{ speed_line(&v.stats) }</p>
                        <p id="live-ending" class="measured" data-ending={v.ending_key}>{ &v.ending_text }</p>
                    </div>
                </div>
                if v.channels.len() > 1 {
                    <p id="live-channels" class="channels">
                        { for v.channels.iter().map(|(name, verdict)| html! {
                            <span class="channel" data-channel={*name} data-verdict={verdict.map(|v| v.as_str())}>
                                { *name }{ " " }
                                <span class={classes!("badge", verdict.map_or("pending", level_key))}>{ verdict.map_or("too short", |v| v.as_str()) }</span>
                            </span>
                        }) }
                    </p>
                }
                if v.worst.is_some() {
                    <ul class="reasons" aria-label="Reasons">{ for v.reasons().iter().map(|r| html! { <li>{ r }</li> }) }</ul>
                }
                if v.stats.errors().next().is_some() {
                    <ul id="live-errors" class="problems">{ for errors }{ for more }</ul>
                }
                <dl id="live-stats" class="facts" data-chunks={v.stats.stream.chunks.to_string()} data-done={v.stats.stream.saw_done.to_string()}
                    data-finish={v.stats.stream.finish_reason.clone().unwrap_or_default()}>{ for facts }</dl>
                { for capture_tools }
            </section>
            if show_reasoning {
                <LiveText analysis={Rc::clone(&v.reasoning)} channel={Channel::Reasoning} running={v.running} />
            }
            <LiveText analysis={Rc::clone(&v.content)} channel={Channel::Content} running={v.running} />
        </>
    }
}
