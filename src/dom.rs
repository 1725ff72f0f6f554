//! Small browser helpers for the components: text box access, scrolling and flashing a span,
//! theme storage, the clock, the URL, downloads. Failures (no window, storage disabled)
//! degrade quietly.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement, HtmlTextAreaElement, ScrollIntoViewOptions, ScrollLogicalPosition};
use yew::NodeRef;

const THEME_KEY: &str = "coherency-theme";

pub fn element_by_id(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// The text box's current value ("" if it is not mounted). It comes in through the browser's
/// own UTF-8 encoder (`TextEncoder.encode`) and one copy: wasm-bindgen's string passing walks
/// the string a character at a time in JavaScript, which took 60 ms of a 5 MB paste's click
/// (2026-12-07, load 5) — most of its one long main-thread task.
pub fn textarea_value(node: &NodeRef) -> String {
    let Some(area) = node.cast::<HtmlTextAreaElement>() else { return String::new() };
    let value = js_sys::Reflect::get(&area, &JsValue::from_str("value")).unwrap_or(JsValue::UNDEFINED);
    if !value.is_string() {
        return area.value();
    }
    let bytes = Utf8Encoder::new().encode(&value).to_vec();
    // The encoder writes UTF-8 (a lone surrogate as U+FFFD, as wasm-bindgen does).
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `TextEncoder` (web-sys's `encode` takes a Rust `&str`: the string would
    /// be passed in the slow way first).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Utf8Encoder;
    #[wasm_bindgen(method, js_class = "TextEncoder")]
    fn encode(this: &Utf8Encoder, text: &JsValue) -> js_sys::Uint8Array;
}

pub fn set_textarea_value(node: &NodeRef, text: &str) {
    if let Some(t) = node.cast::<HtmlTextAreaElement>() {
        t.set_value(text);
    }
}

/// Milliseconds from `performance.now()`.
pub fn now_ms() -> Option<f64> {
    Some(web_sys::window()?.performance()?.now())
}

/// The page's query string, e.g. `?sample=line-loop`.
pub fn location_search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The page's path, e.g. `/` or `/tools/coherency/`.
pub fn location_path() -> String {
    web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default()
}

/// The page's fragment, e.g. `#v1;d=…` ("" when there is none).
pub fn location_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// The page's address without its fragment.
pub fn page_url() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_string()
}

/// Puts `url` in the address bar, without loading it or adding a history entry.
pub fn replace_url(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(url));
    }
}

/// Calls `handler` on each `event` the window fires, until the returned listener is dropped.
pub fn on_window_event(event: &'static str, handler: impl Fn() + 'static) -> Option<WindowListener> {
    let window = web_sys::window()?;
    let closure = wasm_bindgen::closure::Closure::<dyn Fn()>::new(handler);
    window.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref()).ok()?;
    Some(WindowListener { event, closure })
}

/// A window event listener, removed when dropped.
pub struct WindowListener {
    event: &'static str,
    closure: wasm_bindgen::closure::Closure<dyn Fn()>,
}

impl Drop for WindowListener {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(self.event, self.closure.as_ref().unchecked_ref());
        }
    }
}

/// Copies `text` to the clipboard, then calls `done` with whether the browser allowed it (not on
/// every origin).
pub fn copy_text(text: String, done: impl FnOnce(bool) + 'static) {
    let Some(window) = web_sys::window() else { return done(false) };
    let clipboard = window.navigator().clipboard();
    // An origin without the Clipboard API has no `navigator.clipboard`.
    if clipboard.is_undefined() {
        return done(false);
    }
    let promise = clipboard.write_text(&text);
    wasm_bindgen_futures::spawn_local(async move { done(JsFuture::from(promise).await.is_ok()) });
}

/// Reads `file` again, then calls `done` with its bytes (`None` when the browser cannot).
pub fn file_bytes(file: &web_sys::File, done: impl FnOnce(Option<Vec<u8>>) + 'static) {
    blob_bytes(file, done)
}

/// Reads the first `n` bytes of `file`, then calls `done` with them (`None` when the browser
/// cannot).
pub fn file_head(file: &web_sys::File, n: usize, done: impl FnOnce(Option<Vec<u8>>) + 'static) {
    match file.slice_with_f64_and_f64(0.0, n as f64) {
        Ok(head) => blob_bytes(&head, done),
        Err(_) => done(None),
    }
}

fn blob_bytes(blob: &web_sys::Blob, done: impl FnOnce(Option<Vec<u8>>) + 'static) {
    let promise = blob.array_buffer();
    wasm_bindgen_futures::spawn_local(async move {
        let buffer = JsFuture::from(promise).await.ok();
        done(buffer.map(|b| js_sys::Uint8Array::new(&b).to_vec()))
    });
}

/// Scrolls `element` into view at `block` (smoothly unless the user prefers reduced motion: the
/// stylesheet's `scroll-behavior` decides).
pub fn scroll_to(element: &Element, block: ScrollLogicalPosition) {
    let options = ScrollIntoViewOptions::new();
    options.set_block(block);
    element.scroll_into_view_with_scroll_into_view_options(&options);
}

/// The page's `<html>` element.
pub fn document_element() -> Option<Element> {
    web_sys::window()?.document()?.document_element()
}

/// Briefly emphasises every rendered mark of span `index` inside `root` (elements with
/// `data-span="INDEX"`).
pub fn flash_span(root: &Element, index: usize) {
    let Ok(marks) = root.query_selector_all(&format!("[data-span=\"{index}\"]")) else { return };
    for i in 0..marks.length() {
        let Some(mark) = marks.get(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()) else { continue };
        let classes = mark.class_list();
        let _ = classes.remove_1("flash");
        // Reading the layout restarts the CSS animation when the class comes back.
        let _ = mark.offset_width();
        let _ = classes.add_1("flash");
    }
}

/// Whether the page is dark now: the stored choice, else the system preference.
pub fn dark_theme_active() -> bool {
    match stored(THEME_KEY).as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    }
}

/// Applies and remembers the theme (`data-theme` on `<html>`, `localStorage`).
pub fn set_theme(dark: bool) {
    let name = if dark { "dark" } else { "light" };
    if let Some(window) = web_sys::window() {
        if let Some(root) = window.document().and_then(|d| d.document_element()) {
            let _ = root.set_attribute("data-theme", name);
        }
        if let Ok(Some(storage)) = window.local_storage() {
            let _ = storage.set_item(THEME_KEY, name);
        }
    }
}

/// Puts an alert at the top of the page after an internal error (the app may be stuck after it).
pub fn show_fatal_error(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let (Some(body), Ok(alert)) = (document.body(), document.create_element("p")) else { return };
    alert.set_class_name("load-error fatal");
    let _ = alert.set_attribute("role", "alert");
    alert.set_text_content(Some(&format!(
        "The analyzer stopped on an internal error ({message}). Your text is still in the text box: copy it, then reload the page."
    )));
    let _ = body.prepend_with_node_1(&alert);
}

/// Waits for the next turn of the event loop, so the page can paint a status first.
pub async fn next_tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let scheduled = web_sys::window()
            .map(|w| w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0).is_ok())
            .unwrap_or(false);
        if !scheduled {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// Scrolls element `id` to the top of the view unless its top is already in the upper part
/// of the view (a row picked in a long table brings its analysis into sight).
pub fn reveal(id: &str) {
    let Some(el) = element_by_id(id) else { return };
    let height = web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(0.0);
    let top = el.get_bounding_client_rect().top();
    if top < 0.0 || top > height * 0.6 {
        scroll_to(&el, ScrollLogicalPosition::Start);
    }
}

/// A value from `localStorage` (`None` when absent or storage is disabled).
pub fn stored(key: &str) -> Option<String> {
    web_sys::window()?.local_storage().ok()??.get_item(key).ok()?
}

/// Stores `value` under `key` in `localStorage`, or removes the key when `value` is `None`.
pub fn store(key: &str, value: Option<&str>) {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else { return };
    let _ = match value {
        Some(v) => storage.set_item(key, v),
        None => storage.remove_item(key),
    };
}

/// Offers `bytes` as a download named `name` (a Blob URL on a temporary link).
pub fn download(name: &str, bytes: &[u8]) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence(&parts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Some(link) = document.create_element("a").ok().and_then(|a| a.dyn_into::<HtmlElement>().ok()) {
        let _ = link.set_attribute("href", &url);
        let _ = link.set_attribute("download", name);
        link.click();
    }
    // Freed a minute later: revoking at once can cancel the download.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
    }
}

/// Scrolls element `id` to the middle of the view (inside any scrolled box around it); one
/// taller than a third of the window to its start.
pub fn reveal_id(id: &str) {
    if let Some(el) = element_by_id(id) {
        // A long span (a loop, lines said back to back) is shown from its start: centred, its
        // start would lie above the view.
        let tall = web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .is_some_and(|h| el.get_bounding_client_rect().height() > h / 3.0);
        scroll_to(&el, if tall { ScrollLogicalPosition::Start } else { ScrollLogicalPosition::Center });
    }
}

/// Focuses the first element matching `css` and scrolls it to the middle of the view; `false`
/// when there is none.
pub fn focus_in_view(css: &str) -> bool {
    let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector(css).ok().flatten())
    else {
        return false;
    };
    let Ok(el) = el.dyn_into::<HtmlElement>() else { return false };
    let _ = el.focus();
    scroll_to(&el, ScrollLogicalPosition::Center);
    true
}
