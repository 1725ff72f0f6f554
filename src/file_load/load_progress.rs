//! The progress panel shown while a file is read in the worker: bytes read, messages found,
//! texts analysed, the worst verdict so far, then the page taking in the result; and Cancel
//! (what was shown before stays).

use yew::prelude::*;

use super::load_view::Loading;
use crate::model::{level_key, verdict_icon};

/// The progress of the load `l`, with its Cancel button calling `on_cancel` (a plain function:
/// it has no state of its own).
pub fn load_progress(l: &Loading, on_cancel: &Callback<()>) -> Html {
    let p = &l.progress;
    let bar = |id: &'static str, label: String, value: Option<(usize, usize)>, busy: bool| {
        // Values in KB keep them small for the element; an unknown total shows an indeterminate bar.
        let bar = match value {
            Some((done, of)) if of > 0 && !busy => html! {
                <progress {id} max={(of / 1000).max(1).to_string()} value={(done / 1000).min(of / 1000).to_string()} aria-label={label.clone()} />
            },
            _ => html! { <progress {id} aria-label={label.clone()} /> },
        };
        html! {
            <div class="progress-row">
                { bar }
                <span class="progress-text">{ label }</span>
            </div>
        }
    };
    let so_far = l.so_far().map(|(v, text, provisional)| {
        // A part's PASS or WARN in a neutral colour, without the verdict's icon: not the verdict.
        let (tone, icon) = if provisional { ("pending", "…") } else { (level_key(v), verdict_icon(v)) };
        html! {
            <p id="verdict-so-far" class={classes!("so-far", tone)} data-verdict={v.as_str()} data-tone={tone}>
                <span class={classes!("badge", tone)}>
                    <span class="badge-icon" aria-hidden="true">{ icon }</span>{ v.as_str() }
                </span>
                { " " }{ text }
            </p>
        }
    });
    let prepared = l.prepared_text().map(|text| {
        let value = p.prepared.map(|(done, of)| (done * 1000, of * 1000));
        bar("progress-prepared", text, value, false)
    });
    let onclick = {
        let on_cancel = on_cancel.clone();
        Callback::from(move |_: MouseEvent| on_cancel.emit(()))
    };
    html! {
        <section id="load-progress" class="card progress-card" data-stage={p.stage.name()} aria-labelledby="progress-heading" aria-busy="true">
            <div class="progress-head">
                <h2 id="progress-heading">{ l.heading() }</h2>
                <button type="button" id="cancel-load" class="button" {onclick}>{ "Cancel" }</button>
            </div>
            <div role="status" aria-live="polite">
                { bar("progress-read", l.read_text(), Some((p.read, l.size)), false) }
                <p id="progress-messages" class="progress-text" data-count={p.messages.map(|n| n.to_string())}>{ l.messages_text() }</p>
                { bar("progress-analysed", l.analyzed_text(), l.analyzed_fraction(), l.one_long_text()) }
                { for prepared }
                { for so_far }
            </div>
            <p class="help">{ "The file is read and analysed in the background: the page stays usable, and Cancel keeps what was shown before." }</p>
        </section>
    }
}
