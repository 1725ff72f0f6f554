//! Sharing a result: "Copy link" (the input in the URL fragment, see `model::share`), "Copy as
//! Markdown" (the core's `render::markdown`), "Download report" (`render::html`, one
//! self-contained file) and "Download JSON" (`render::json`, the CLI's `--json`), with a line
//! saying what happened.

use std::rc::Rc;

use yew::prelude::*;

use crate::dom;
use crate::model::document::Document;
use crate::model::share::{
    html_report, json_downloaded, json_report, link_made, link_too_long, markdown_copied, markdown_report,
    report_downloaded, report_file_name, result_link, too_big_for_a_link,
};

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

    let say = {
        let status = status.clone();
        move |text: String| status.set(Some(text))
    };
    let copy_link = {
        let (doc, file, say) = (Rc::clone(&props.doc), props.file.clone(), say.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(refusal) = too_big_for_a_link(doc.size) {
                return say(refusal);
            }
            let (held, file) = (doc.bytes.clone(), file.emit(()));
            let (doc, say) = (Rc::clone(&doc), say.clone());
            let make = move |bytes: Option<Vec<u8>>| match bytes {
                None => say("The input is no longer at hand: open the file again to make a link.".into()),
                Some(bytes) => {
                    match result_link(&dom::page_url(), &bytes, (doc.chosen, doc.selected), doc.thresholds()) {
                        Ok(url) => {
                            dom::replace_url(&url);
                            let said = url.clone();
                            dom::copy_text(url, move |copied| say(link_made(&said, copied)));
                        }
                        Err(chars) => say(link_too_long(chars)),
                    }
                }
            };
            match (held, file) {
                (Some(bytes), _) => make(Some(bytes.to_vec())),
                (None, Some(f)) => dom::file_bytes(&f, make),
                (None, None) => make(None),
            }
        })
    };
    let copy_markdown = {
        let (doc, say) = (Rc::clone(&props.doc), say.clone());
        Callback::from(move |_: MouseEvent| {
            let text = markdown_report(&doc);
            let say = say.clone();
            dom::copy_text(text.clone(), move |copied| {
                if !copied {
                    dom::download("coherency-report.md", text.as_bytes());
                }
                say(markdown_copied(&text, copied));
            });
        })
    };
    let download = {
        let (doc, say) = (Rc::clone(&props.doc), say.clone());
        Callback::from(move |_: MouseEvent| {
            let (file, page) = (report_file_name(&doc, "html"), html_report(&doc));
            dom::download(&file, page.as_bytes());
            say(report_downloaded(&file, page.len()));
        })
    };
    let download_json = {
        let (doc, file, say) = (Rc::clone(&props.doc), props.file.clone(), say);
        Callback::from(move |_: MouseEvent| {
            let (held, file) = (doc.bytes.clone(), file.emit(()));
            let (doc, say) = (Rc::clone(&doc), say.clone());
            let write = move |bytes: Option<Vec<u8>>| match bytes.and_then(|b| json_report(&doc, &b)) {
                Some(line) => {
                    let name = report_file_name(&doc, "json");
                    dom::download(&name, &line);
                    say(json_downloaded(&name, line.len()));
                }
                None => say("The input is no longer at hand: open the file again to save its JSON.".into()),
            };
            // The input's bytes, for the count of invalid UTF-8 replaced, as the CLI counts it.
            match (held, file) {
                (Some(bytes), _) => write(Some(bytes.to_vec())),
                (None, Some(f)) => dom::file_bytes(&f, write),
                (None, None) => write(None),
            }
        })
    };
    html! {
        <section class="share-bar" aria-label="Share this result">
            <button type="button" id="copy-link" class="button chip" onclick={copy_link}>{ "Copy link" }</button>
            <button type="button" id="copy-markdown" class="button chip" onclick={copy_markdown}>{ "Copy as Markdown" }</button>
            <button type="button" id="download-report" class="button chip" onclick={download}>{ "⤓ Download report" }</button>
            <button type="button" id="download-json" class="button chip" onclick={download_json}>{ "⤓ JSON" }</button>
            <p id="share-status" class="share-status" role="status" aria-live="polite">{ (*status).clone().unwrap_or_default() }</p>
        </section>
    }
}
