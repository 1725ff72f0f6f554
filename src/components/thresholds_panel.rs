//! The "Thresholds" panel: every threshold a person may set (the core's
//! [`SETTINGS`]: name, meaning, default), its current value in a field to edit, the changed
//! ones marked, and "Reset to defaults". A value is taken when its field is left or Enter is
//! pressed, checked by the core as the CLI's `--threshold` is; a bad one is the field's own
//! validity message (the browser shows it, the field stays marked invalid) and the thresholds
//! stay as they were. Taken thresholds judge the document shown again and every input after
//! it, and travel in its result link. A plain function, not a component: it keeps no state.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use coherency_core::analyze::{Thresholds, SETTINGS};
use coherency_core::wording::plural;

/// The panel for `current`; `on_change` gets thresholds checked and different from them.
pub fn thresholds_panel(current: Thresholds, on_change: &Callback<Thresholds>) -> Html {
    let changed = current.changes().len();
    // One listener for every field (a change bubbles): the field's name is the setting's.
    let onchange = on_change.reform(move |e: Event| {
        let mut next = current;
        if let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) {
            match next.set_named(&input.name(), &input.value()).and_then(|()| next.check_order()) {
                Ok(()) => input.set_custom_validity(""),
                Err(e) => {
                    input.set_custom_validity(&e.to_string());
                    input.report_validity();
                    next = current;
                }
            }
        }
        next
    });
    let rows = SETTINGS.iter().map(|s| {
        let is_changed = s.is_changed(&current);
        let default = format!(
            "{}default {} · {}",
            if is_changed { "changed · " } else { "" },
            s.format(s.default_value()),
            s.about
        );
        html! {
            <label class={classes!("threshold", is_changed.then_some("changed"))}>
                <code>{ s.name }</code>
                <input name={s.name} value={s.format(s.value(&current))} />
                <span class="help">{ default }</span>
            </label>
        }
    });
    let reset = on_change.reform(|_: MouseEvent| Thresholds::SEED);
    let state = if changed == 0 {
        " · the defaults".to_string()
    } else {
        format!(" · {} changed", plural(changed, "threshold", "thresholds"))
    };
    html! {
        <details id="thresholds" class="thresholds">
            <summary>{ "Thresholds" }<span class="help">{ state }</span></summary>
            <p class="hint">{ "Where each check WARNs and FAILs, for texts and files (the live mode keeps the defaults). A value is taken when you leave its field or press Enter; the input shown is judged again, and a result link carries them." }</p>
            <div class="threshold-grid" {onchange}>{ for rows }</div>
            <button type="button" id="thresholds-reset" class="button" onclick={reset} disabled={changed == 0}>{ "Reset to defaults" }</button>
        </details>
    }
}
