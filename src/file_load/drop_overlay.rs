//! Drag-and-drop anywhere on the page: while files are dragged over the window a full-page
//! overlay says where they go; a drop hands the files to the page. Drags without files (text
//! dragged into the text box) are left to the browser.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, EventTarget};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Called with the dropped files (at least one).
    pub on_drop: Callback<Vec<web_sys::File>>,
}

/// Whether a drag carries files.
fn has_files(e: &DragEvent) -> bool {
    e.data_transfer().is_some_and(|dt| dt.types().includes(&"Files".into(), 0))
}

#[component]
pub fn DropOverlay(props: &Props) -> Html {
    let visible = use_state(|| false);
    let overlay = use_node_ref();
    {
        let (visible, overlay, on_drop) = (visible.clone(), overlay.clone(), props.on_drop.clone());
        use_effect_with((), move |_| {
            let window: Option<EventTarget> = web_sys::window().map(Into::into);
            let show = {
                let visible = visible.clone();
                Closure::<dyn Fn(DragEvent)>::new(move |e: DragEvent| {
                    if has_files(&e) {
                        e.prevent_default();
                        if let Some(dt) = e.data_transfer() {
                            dt.set_drop_effect("copy");
                        }
                        visible.set(true);
                    }
                })
            };
            let leave = {
                let visible = visible.clone();
                Closure::<dyn Fn(DragEvent)>::new(move |e: DragEvent| {
                    // The overlay covers the window: leaving it is leaving the page.
                    let target: Option<web_sys::Element> = e.target().and_then(|t| t.dyn_into().ok());
                    if target.is_some() && target == overlay.cast::<web_sys::Element>() {
                        visible.set(false);
                    }
                })
            };
            let dropped = Closure::<dyn Fn(DragEvent)>::new(move |e: DragEvent| {
                if !has_files(&e) {
                    return;
                }
                // Stop the browser from opening the file in place of the page.
                e.prevent_default();
                visible.set(false);
                let files = e.data_transfer().and_then(|dt| dt.files());
                let files: Vec<web_sys::File> =
                    files.map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect()).unwrap_or_default();
                if !files.is_empty() {
                    on_drop.emit(files);
                }
            });
            if let Some(w) = &window {
                for (kind, f) in [("dragenter", &show), ("dragover", &show), ("dragleave", &leave), ("drop", &dropped)]
                {
                    let _ = w.add_event_listener_with_callback(kind, f.as_ref().unchecked_ref());
                }
            }
            // The closures live until the page drops the component, then stop listening.
            move || {
                if let Some(w) = &window {
                    for (kind, f) in
                        [("dragenter", &show), ("dragover", &show), ("dragleave", &leave), ("drop", &dropped)]
                    {
                        let _ = w.remove_event_listener_with_callback(kind, f.as_ref().unchecked_ref());
                    }
                }
            }
        });
    }
    // A click hides it, should a cancelled drag ever leave it up.
    let onclick = {
        let visible = visible.clone();
        Callback::from(move |_: MouseEvent| visible.set(false))
    };
    html! {
        <div ref={overlay} id="drop-overlay" {onclick} class={classes!("drop-overlay", (*visible).then_some("shown"))} aria-hidden="true">
            <div class="drop-box">
                <p class="drop-title">{ "Drop the file to analyse it" }</p>
                <p class="drop-help">{ "Plain text, chat-completion JSON, SSE captures, NDJSON and JSONL logs; two captures or more (or a golden file and captures) are compared. It stays in this browser." }</p>
            </div>
        </div>
    }
}
