//! Sharing a result: "Copy link" (the input in the URL fragment, see `model::share`; the
//! fragment made in the analysis worker, `loader::make_link`: DEFLATE is not in the page's
//! wasm), "Copy as
//! Markdown" (the core's `render::markdown`), "Download report" (`render::html`, one
//! self-contained file) and "Download JSON" (`render::json`, the CLI's `--json`), with a line
//! saying what happened. The three reports are made in the analysis worker from the input
//! again (`loader::export`): they hold whole reports the page's wasm has no scorer to make.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::dom;
use crate::file_load::loader::{self, OneJob};
use crate::file_load::ReadAs;
use crate::model::document::Document;
use crate::model::share::{
    json_downloaded, link_made, link_too_long, markdown_copied, report_downloaded, report_file_name, report_name,
    result_link, too_big_for_a_link,
};
use coherency_worker_wire::result_link::Made as LinkMade;

/// What became of a report asked of the worker: made, or why not.
type Made = Result<Vec<u8>, String>;

/// Makes the report `what` of `doc`'s input (`held` bytes, or read from `file`) in the worker,
/// replacing (ending) the job in `job`; `done` gets it. `say` says why not, when it cannot.
fn export(
    doc: &Rc<Document>,
    (held, file): (Option<Rc<[u8]>>, Option<web_sys::File>),
    (what, job): (&'static str, &Rc<RefCell<Option<OneJob>>>),
    say: impl Fn(String) + 'static,
    done: impl Fn(Vec<u8>) + 'static,
) {
    let (doc, job) = (Rc::clone(doc), Rc::clone(job));
    let say = Rc::new(say);
    let start = move |bytes: Option<Vec<u8>>| {
        let Some(bytes) = bytes else {
            return say("The input is no longer at hand: open the file again to make its report.".into());
        };
        let said = Rc::clone(&say);
        let made = move |made: Made| match made {
            Ok(report) => done(report),
            Err(why) => said(format!("The report could not be made: {why}.")),
        };
        let name = report_name(&doc);
        match loader::export(
            &bytes,
            ReadAs { format: doc.chosen, thresholds: doc.thresholds() },
            (&name, what),
            Box::new(made),
        ) {
            Ok(started) => *job.borrow_mut() = Some(started),
            Err(why) => say(format!("The report could not be made: {why}.")),
        }
    };
    match (held, file) {
        (Some(bytes), _) => start(Some(bytes.to_vec())),
        (None, Some(f)) => dom::file_bytes(&f, start),
        (None, None) => start(None),
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub doc: Rc<Document>,
    /// The file the document was read from in the worker (its bytes are not kept in the page).
    pub file: Callback<(), Option<web_sys::File>>,
}

#[component]
pub fn ShareBar(props: &Props) -> Html {
    let status = use_state(|| None::<String>);
    // The report being made in the worker (a new one ends the last).
    let job = use_mut_ref(|| None::<OneJob>);
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
        let (doc, file, job, say) = (Rc::clone(&props.doc), props.file.clone(), job.clone(), say.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(refusal) = too_big_for_a_link(doc.size) {
                return say(refusal);
            }
            let (held, file) = (doc.bytes.clone(), file.emit(()));
            let (doc, job, say) = (Rc::clone(&doc), job.clone(), say.clone());
            let make = move |bytes: Option<Vec<u8>>| {
                let Some(bytes) = bytes else {
                    return say("The input is no longer at hand: open the file again to make a link.".into());
                };
                // The fragment is made in the analysis worker (the page's wasm has no DEFLATE).
                let said = say.clone();
                let made = move |made: Result<LinkMade, String>| match made {
                    Ok(Ok(fragment)) => {
                        let url = result_link(&dom::page_url(), &fragment);
                        dom::replace_url(&url);
                        let (said, url_said) = (said.clone(), url.clone());
                        dom::copy_text(url, move |copied| said(link_made(&url_said, copied)));
                    }
                    Ok(Err(chars)) => said(link_too_long(chars)),
                    Err(why) => said(format!("The link could not be made: {why}.")),
                };
                match loader::make_link(&bytes, (doc.chosen, doc.selected), &doc.thresholds(), Box::new(made)) {
                    Ok(started) => *job.borrow_mut() = Some(started),
                    Err(why) => say(format!("The link could not be made: {why}.")),
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
        let (doc, file, job, say) = (Rc::clone(&props.doc), props.file.clone(), job.clone(), say.clone());
        Callback::from(move |_: MouseEvent| {
            let say = say.clone();
            let copy = {
                let say = say.clone();
                move |bytes: Vec<u8>| {
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    let say = say.clone();
                    dom::copy_text(text.clone(), move |copied| {
                        if !copied {
                            dom::download("coherency-report.md", text.as_bytes());
                        }
                        say(markdown_copied(&text, copied));
                    });
                }
            };
            export(&doc, (doc.bytes.clone(), file.emit(())), ("markdown", &job), say, copy);
        })
    };
    let download = {
        let (doc, file, job, say) = (Rc::clone(&props.doc), props.file.clone(), job.clone(), say.clone());
        Callback::from(move |_: MouseEvent| {
            let (name, said) = (report_file_name(&doc, "html"), say.clone());
            let save = move |page: Vec<u8>| {
                dom::download(&name, &page);
                said(report_downloaded(&name, page.len()));
            };
            export(&doc, (doc.bytes.clone(), file.emit(())), ("html", &job), say.clone(), save);
        })
    };
    let download_json = {
        let (doc, file, job, say) = (Rc::clone(&props.doc), props.file.clone(), job, say);
        Callback::from(move |_: MouseEvent| {
            let (name, said) = (report_file_name(&doc, "json"), say.clone());
            let save = move |line: Vec<u8>| {
                dom::download(&name, &line);
                said(json_downloaded(&name, line.len()));
            };
            export(&doc, (doc.bytes.clone(), file.emit(())), ("json", &job), say.clone(), save);
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
