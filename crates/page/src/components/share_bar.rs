//! Sharing a result: "Copy link" (the input in the URL fragment, see `model::share`), "Copy as
//! Markdown" (the core's `render::markdown`) and "Download report" (`render::html`, one
//! self-contained file), with a line saying what happened.

use std::rc::Rc;

use yew::prelude::*;

use crate::dom;
use crate::model::document::Document;
use crate::model::share::{link_made, link_too_long, report_file_name, report_name, result_link, MAX_LINKED_INPUT};
use coherency_core::render::{html, markdown, Summary};
use coherency_core::wording::{bytes_text, thousands};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
    /// The file the document was read from in the worker (its bytes are not kept in the page).
    pub file: Callback<(), Option<web_sys::File>>,
}

#[component]
pub fn ShareBar(props: &Props) -> Html {
    let status = use_state(|| None::<String>);
    // A new document: what was said of the last one goes.
    {
        let status = status.clone();
        use_effect_with(props.doc.seq, move |_| status.set(None));
    }

    let copy_link = {
        let (doc, file, status) = (Rc::clone(&props.doc), props.file.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            let (doc, file, status) = (Rc::clone(&doc), file.clone(), status.clone());
            wasm_bindgen_futures::spawn_local(async move {
                if doc.size > MAX_LINKED_INPUT {
                    status.set(Some(format!(
                        "No link: the input is {}, and a link carries at most {} (compressed to 32,000 characters). Download the report instead.",
                        bytes_text(doc.size),
                        bytes_text(MAX_LINKED_INPUT)
                    )));
                    return;
                }
                let bytes = match &doc.bytes {
                    Some(bytes) => Some(bytes.to_vec()),
                    None => match file.emit(()) {
                        Some(f) => dom::file_bytes(&f).await,
                        None => None,
                    },
                };
                let Some(bytes) = bytes else {
                    status.set(Some("The input is no longer at hand: open the file again to make a link.".into()));
                    return;
                };
                match result_link(&dom::page_url(), &bytes, doc.chosen, doc.selected) {
                    Ok(url) => {
                        dom::replace_url(&url);
                        let copied = dom::copy_text(&url).await;
                        status.set(Some(link_made(&url, copied)));
                    }
                    Err(chars) => status.set(Some(link_too_long(chars))),
                }
            });
        })
    };
    let copy_markdown = {
        let (doc, status) = (Rc::clone(&props.doc), status.clone());
        Callback::from(move |_: MouseEvent| {
            let name = report_name(&doc);
            let text = markdown::markdown(&Summary::new(&name, &doc.transcript, &doc.report));
            let status = status.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let lines = thousands(text.lines().count());
                if dom::copy_text(&text).await {
                    status.set(Some(format!("Markdown copied ({lines} lines): paste it into an issue or a chat.")));
                } else {
                    dom::download("coherency-report.md", text.as_bytes());
                    status.set(Some(format!(
                        "The browser did not allow copying: the Markdown ({lines} lines) was downloaded instead."
                    )));
                }
            });
        })
    };
    let download = {
        let (doc, status) = (Rc::clone(&props.doc), status.clone());
        Callback::from(move |_: MouseEvent| {
            let name = report_name(&doc);
            let page = html::html(&Summary::new(&name, &doc.transcript, &doc.report));
            let file = report_file_name(&doc);
            dom::download(&file, page.as_bytes());
            status.set(Some(format!(
                "Downloaded {file} ({}): one file, readable offline and with JavaScript off.",
                bytes_text(page.len())
            )));
        })
    };
    html! {
        <section class="share-bar" aria-label="Share this result">
            <button type="button" id="copy-link" class="button chip" onclick={copy_link}>{ "🔗 Copy link" }</button>
            <button type="button" id="copy-markdown" class="button chip" onclick={copy_markdown}>{ "Copy as Markdown" }</button>
            <button type="button" id="download-report" class="button chip" onclick={download}>{ "⤓ Download report" }</button>
            <p id="share-status" class="share-status" role="status" aria-live="polite">{ (*status).clone().unwrap_or_default() }</p>
        </section>
    }
}
