//! The browser side of live endpoint mode: `fetch` with a streamed body read through a
//! `ReadableStream` reader, an `AbortController` for Stop, and the browser's error values in
//! words. Only pumping: what the bytes mean is `coherency_core::live`'s business. The API key goes into
//! an `Authorization` header and nowhere else (never the URL, never the console), and a request
//! that carries one does not follow redirects (the key would go wherever they point).

use coherency_core::live::{body_too_big, MAX_BODY_BYTES, REDIRECT_REFUSED};

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, AbortSignal, Headers, ReadableStreamDefaultReader, RequestInit, RequestRedirect, Response,
    ResponseType,
};

/// Sends a request; resolves when the response headers arrive. `key` empty: no Authorization.
/// With a key, a redirect is not followed: it fails with [`REDIRECT_REFUSED`].
pub async fn send(
    method: &str,
    url: &str,
    body: Option<&str>,
    key: &str,
    signal: Option<&AbortSignal>,
) -> Result<Response, JsValue> {
    let headers = Headers::new()?;
    if body.is_some() {
        headers.set("Content-Type", "application/json")?;
    }
    let with_key = !key.trim().is_empty();
    if with_key {
        headers.set("Authorization", &format!("Bearer {}", key.trim()))?;
    }
    let init = RequestInit::new();
    if with_key {
        init.set_redirect(RequestRedirect::Manual);
    }
    init.set_method(method);
    init.set_headers(&headers);
    if let Some(body) = body {
        init.set_body(&JsValue::from_str(body));
    }
    if let Some(signal) = signal {
        init.set_signal(Some(signal));
    }
    let request = web_sys::Request::new_with_str_and_init(url, &init)?;
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let response = JsFuture::from(window.fetch_with_request(&request)).await?.dyn_into::<Response>()?;
    if response.type_() == ResponseType::Opaqueredirect {
        return Err(JsValue::from_str(&format!("{REDIRECT_REFUSED}: the server answered with a redirect")));
    }
    Ok(response)
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
    let result = JsFuture::from(reader.read()).await?;
    let done = js_sys::Reflect::get(&result, &JsValue::from_str("done"))?.as_bool().unwrap_or(true);
    if done {
        return Ok(None);
    }
    let value = js_sys::Reflect::get(&result, &JsValue::from_str("value"))?;
    Ok(Some(js_sys::Uint8Array::new(&value).to_vec()))
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
