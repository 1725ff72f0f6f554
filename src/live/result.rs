//! A live run's result: the verdict with the speed beside it and how the stream ended, the
//! stream's timings and counts, errors the stream reported, then the reasoning and the answer.

use std::rc::Rc;

use yew::prelude::*;

use super::channel_text::LiveText;
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
    // The badge: the run's breakage (ERROR, CUT) when it stands for the verdict, else the verdict.
    let (word, level, icon) = match (broken, shown) {
        (Some(b), _) => (b.badge, "fail", "⚠"),
        (None, Some(verdict)) => (verdict.as_str(), level_key(verdict), verdict_icon(verdict)),
        (None, None) => ("", "pending", "…"),
    };
    let badge = html! {
        <div id="live-verdict" class={classes!("badge", "badge-big", level)} data-verdict={word}
            data-text-verdict={v.worst.map(|(w, _)| w.as_str())} data-channel={v.worst.map(|(_, c)| worst_word(c))}>
            <span class="badge-icon" aria-hidden="true">{ icon }</span>
            <span class="badge-text">{ word }</span>
        </div>
    };
    let (headline, after) = match broken {
        Some(b) => (b.headline.clone(), Some(so_far_line(v.worst, v.tripped()))),
        None => (live_headline(v.worst, v.tripped(), v.running), None),
    };
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
