//! The browser side of live endpoint mode: requests sent with gloo-net (`gloo_net::http`), the
//! streamed body read through its `ReadableStream`'s reader, an `AbortController` for Stop, and
//! the browser's error values in words. Only pumping: what the bytes mean is
//! `coherency_core::live`'s business. The API key goes into an `Authorization` header and
//! nowhere else (never the URL, never the console), and a request that carries one does not
//! follow redirects (the key would go wherever they point).
//!
//! gloo-net turns a rejected `fetch` into its error by assuming the rejection is an `Error`, and
//! panics otherwise (`unreachable!` in `gloo_net::error::js_to_js_error`; with `panic = "abort"`
//! that ends the page's wasm). A standard `fetch` rejects with a `TypeError` or with its abort
//! signal's reason — and a reason can be anything (`controller.abort("why")`). So the request
//! never gets the caller's signal: it gets one of its own, aborted when the caller's is, with
//! the caller's reason made an `Error` when it is not one ([`as_error`]).

use coherency_core::live::{body_too_big, MAX_BODY_BYTES, REDIRECT_REFUSED};

use gloo_net::http::{Method, RequestBuilder};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal, ReadableStreamDefaultReader, RequestRedirect, Response, ResponseType};

/// Sends a request; resolves when the response headers arrive. `key` empty: no Authorization.
/// With a key, a redirect is not followed: it fails with [`REDIRECT_REFUSED`].
pub async fn send(
    method: &str,
    url: &str,
    body: Option<&str>,
    key: &str,
    signal: Option<&AbortSignal>,
) -> Result<Response, JsValue> {
    let method = match method {
        "GET" => Method::GET,
        "POST" => Method::POST,
        other => return Err(js_sys::Error::new(&format!("the page sends no {other} request")).into()),
    };
    let mut request = RequestBuilder::new(url).method(method);
    if body.is_some() {
        request = request.header("Content-Type", "application/json");
    }
    let with_key = !key.trim().is_empty();
    if with_key {
        request = request.header("Authorization", &format!("Bearer {}", key.trim())).redirect(RequestRedirect::Manual);
    }
    let own = signal.and_then(follow);
    let request = request.abort_signal(own.as_ref());
    let request = match body {
        Some(body) => request.body(body).map_err(gloo_error)?,
        None => request.build().map_err(gloo_error)?,
    };
    let response: Response = request.send().await.map_err(gloo_error)?.into();
    if response.type_() == ResponseType::Opaqueredirect {
        return Err(JsValue::from_str(&format!("{REDIRECT_REFUSED}: the server answered with a redirect")));
    }
    Ok(response)
}

/// A signal of the request's own, aborted when `caller` is, with its reason as an `Error`
/// ([`as_error`]); `None` when the browser has no `AbortController` (then Stop only stops
/// reading).
fn follow(caller: &AbortSignal) -> Option<AbortSignal> {
    let own = AbortController::new().ok()?;
    let signal = own.signal();
    if caller.aborted() {
        own.abort_with_reason(&as_error(&caller.reason()));
        return Some(signal);
    }
    let on_abort = {
        let caller = caller.clone();
        // Called once at most; a request never stopped leaves this small closure behind.
        Closure::once_into_js(move || own.abort_with_reason(&as_error(&caller.reason())))
    };
    let _ = caller.add_event_listener_with_callback("abort", on_abort.unchecked_ref());
    Some(signal)
}

/// `reason` when it is an `Error` (a `DOMException` is one), else an `AbortError` saying it.
fn as_error(reason: &JsValue) -> JsValue {
    if reason.is_instance_of::<js_sys::Error>() {
        return reason.clone();
    }
    let said = reason.as_string().unwrap_or_else(|| "the request was stopped".to_string());
    let error = js_sys::Error::new(&said);
    error.set_name("AbortError");
    error.into()
}

/// gloo-net's error as the browser's error value ([`error_text`] words it).
fn gloo_error(e: gloo_net::Error) -> JsValue {
    let error = match e {
        gloo_net::Error::JsError(e) => {
            let error = js_sys::Error::new(&e.message);
            error.set_name(&e.name);
            error
        }
        other => js_sys::Error::new(&other.to_string()),
    };
    error.into()
}

/// The whole body as text (invalid UTF-8 replaced), read piece by piece; a body past
/// [`MAX_BODY_BYTES`] is not read further and is an error in words ([`body_too_big`]).
pub async fn text(response: &Response) -> Result<String, JsValue> {
    let mut body = Vec::new();
    if let Some(reader) = reader(response) {
        while let Some(piece) = read(&reader).await? {
            body.extend_from_slice(&piece);
            if body.len() > MAX_BODY_BYTES {
                let _ = reader.cancel();
                return Err(JsValue::from_str(&body_too_big()));
            }
        }
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// A reader of the body, `None` when the response has none.
pub fn reader(response: &Response) -> Option<ReadableStreamDefaultReader> {
    response.body()?.get_reader().dyn_into::<ReadableStreamDefaultReader>().ok()
}

/// The next piece of the body; `None` at its end.
pub async fn read(reader: &ReadableStreamDefaultReader) -> Result<Option<Vec<u8>>, JsValue> {
    Ok(read_array(reader).await?.map(|bytes| bytes.to_vec()))
}

/// The next piece of the body as the browser gave it (not copied into the wasm); `None` at its
/// end.
pub async fn read_array(reader: &ReadableStreamDefaultReader) -> Result<Option<js_sys::Uint8Array>, JsValue> {
    let result = JsFuture::from(reader.read()).await?;
    let done = js_sys::Reflect::get(&result, &JsValue::from_str("done"))?.as_bool().unwrap_or(true);
    if done {
        return Ok(None);
    }
    let value = js_sys::Reflect::get(&result, &JsValue::from_str("value"))?;
    Ok(Some(js_sys::Uint8Array::new(&value)))
}

/// A new controller for Stop, if the browser has them.
pub fn abort_controller() -> Option<AbortController> {
    AbortController::new().ok()
}

/// A signal that aborts a request after `ms` milliseconds (the browser then says
/// "TimeoutError").
pub fn timeout_signal(ms: u32) -> AbortSignal {
    AbortSignal::timeout_with_u32(ms)
}

/// "TypeError: Failed to fetch" and the like.
pub fn error_text(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => format!("{}: {}", String::from(err.name()), String::from(err.message())),
        None => e.as_string().unwrap_or_else(|| "no reason given".to_string()),
    }
}

/// The page's origin, e.g. `http://127.0.0.1:8080` (`null` for `file://`).
pub fn page_origin() -> String {
    web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_else(|| "unknown".to_string())
}
