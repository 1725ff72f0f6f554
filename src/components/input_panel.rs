//! The text box and the Analyze button (Ctrl/Cmd+Enter in the box does the same); the text is
//! read in the format it is detected as, like a file.
//!
//! The text box is uncontrolled: its text lives in the DOM and is read on Analyze, so typing
//! in a 1 MB transcript never re-renders the page, and the page never overwrites what the
//! user typed except when they pick a sample (and then offers it back).

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub textarea: NodeRef,
    pub on_analyze: Callback<()>,
    /// Puts back the user's text that a sample replaced; `None` when there is nothing to restore.
    pub on_restore: Option<Callback<()>>,
    /// More actions beside Analyze (the upload button).
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn InputPanel(props: &Props) -> Html {
    let onkeydown = {
        let on_analyze = props.on_analyze.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                on_analyze.emit(());
            }
        })
    };
    let onclick = {
        let on_analyze = props.on_analyze.clone();
        Callback::from(move |_: MouseEvent| on_analyze.emit(()))
    };
    let restore = props.on_restore.clone().map(|on_restore| {
        html! {
            <button type="button" id="restore" class="button ghost" onclick={Callback::from(move |_: MouseEvent| on_restore.emit(()))}>
                { "↩ Restore your text" }
            </button>
        }
    });
    html! {
        <div class="input-panel">
            <label for="input" class="label">{ "Model output to check" }</label>
            <textarea id="input" ref={props.textarea.clone()} rows="12" spellcheck="false" autocomplete="off"
                placeholder="Paste model output, a chat-completion JSON, an SSE capture or a JSONL log here…" aria-describedby="input-help" {onkeydown} />
            <div class="actions">
                <button type="button" id="analyze" class="button primary" {onclick}>{ "Analyze" }</button>
                { props.children.clone() }
                <span id="input-help" class="help"><kbd>{ "Ctrl" }</kbd>{ " + " }<kbd>{ "Enter" }</kbd>{ " (⌘ + Enter on a Mac) analyses from the text box." }</span>
                { for restore }
            </div>
        </div>
    }
}
