//! The "Thresholds" panel: every threshold a person may set (the core's
//! [`SETTINGS`]: name, meaning, default), its current value in a field to edit, the changed
//! ones marked, and "Reset to defaults". A value is taken when its field is left or Enter is
//! pressed, checked by the core as the CLI's `--threshold` is; a bad one ("abc", 0, a WARN past
//! its FAIL) is said in words beside its field, the value in effect is put back in the field,
//! and the thresholds stay as they were. Taken thresholds judge the document shown again and
//! every input after it, and travel in its result link. A component only for the message: it
//! keeps which field was refused and why.
//!
//! Hooks for tests: `#thresholds`, each field `input[name=NAME]`, the refusal
//! `#threshold-error[data-for=NAME]`.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use coherency_core::analyze::{Thresholds, SETTINGS};
use coherency_core::wording::plural;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub current: Thresholds,
    /// Gets thresholds checked and different from `current`.
    pub on_change: Callback<Thresholds>,
}

#[component]
pub fn ThresholdsPanel(props: &Props) -> Html {
    let current = props.current;
    // The field last refused, and what is said beside it.
    let refused = use_state_eq(|| None::<(String, String)>);
    let changed = current.changes().len();
    // One listener for every field (a change bubbles): the field's name is the setting's.
    let onchange = {
        let (on_change, refused) = (props.on_change.clone(), refused.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            let name = input.name();
            let mut next = current;
            match next.set_named(&name, &input.value()).and_then(|()| next.check_order()) {
                Ok(()) => {
                    refused.set(None);
                    on_change.emit(next);
                }
                Err(error) => {
                    // The value in effect goes back in the field; the reason is said beside it.
                    let kept = SETTINGS.iter().find(|s| s.name == name).map(|s| s.format(s.value(&current)));
                    if let Some(kept) = &kept {
                        input.set_value(kept);
                    }
                    let kept = kept.map(|k| format!("; {k} is kept")).unwrap_or_default();
                    refused.set(Some((name, format!("{error}{kept}."))));
                }
            }
        })
    };
    let rows = SETTINGS.iter().map(|s| {
        let is_changed = s.is_changed(&current);
        let default = format!(
            "{}default {} · {}",
            if is_changed { "changed · " } else { "" },
            s.format(s.default_value()),
            s.about
        );
        let error = refused.as_ref().filter(|(name, _)| name == s.name).map(|(_, message)| message.clone());
        html! {
            <label class={classes!("threshold", is_changed.then_some("changed"), error.is_some().then_some("refused"))}>
                <code>{ s.name }</code>
                <input name={s.name} value={s.format(s.value(&current))} inputmode="decimal"
                    aria-describedby={error.is_some().then_some("threshold-error")} />
                <span class="help">{ default }</span>
                if let Some(message) = error {
                    <span id="threshold-error" class="field-error" role="alert" data-for={s.name}>{ message }</span>
                }
            </label>
        }
    });
    let reset = {
        let (on_change, refused) = (props.on_change.clone(), refused.clone());
        Callback::from(move |_: MouseEvent| {
            refused.set(None);
            on_change.emit(Thresholds::SEED);
        })
    };
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
