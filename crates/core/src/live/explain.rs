//! Words for a live run that failed: a fetch that got no response at all (the browser only says
//! "TypeError: Failed to fetch"), and an HTTP error status with its body.

use crate::stream::openai_wire::error_text;

/// What the page's fetch says when a request carrying a key was answered with a redirect,
/// which it does not follow (the key would go wherever the redirect points).
pub const REDIRECT_REFUSED: &str = "RedirectRefused";

/// How long one probe's request may take before the page gives up on it.
pub const PROBE_TIMEOUT_MS: u32 = 60_000;

/// Bytes of a body the page reads whole (a probe's answer, an error's body, the model list)
/// at most: such answers are kilobytes, and a server that sends more does not fill the tab.
pub const MAX_BODY_BYTES: usize = 4 << 20;

/// Why a body was not read whole: it passed [`MAX_BODY_BYTES`].
pub fn body_too_big() -> String {
    format!(
        "The server's answer passed {} MiB; the page stopped reading it (an answer here is a few KB).",
        MAX_BODY_BYTES >> 20
    )
}

/// Why a fetch of `url` from a page at `page_origin` most likely failed before any response:
/// CORS, a private-network block, or the server not running; or it timed out. `detail` is the
/// browser's message ("TimeoutError: …" when an `AbortSignal.timeout` fired).
pub fn explain_fetch_failure(url: &str, page_origin: &str, detail: &str) -> String {
    if detail.starts_with(REDIRECT_REFUSED) {
        return format!(
            "{url} answered with a redirect. The page does not follow a redirect with your key (the key would go \
             wherever it points): if the server moved, use the address it moved to as the base URL."
        );
    }
    if detail.starts_with("TimeoutError") {
        return format!(
            "No answer from {url} within {} s: the server took the request but did not answer in time. It may be \
             overloaded, still loading the model, or stuck; check its log.",
            PROBE_TIMEOUT_MS / 1000
        );
    }
    let mut out = format!(
        "No response from {url} (the browser said: {detail}). The browser hides the reason; most likely the server \
         does not allow this page's origin ({page_origin}) by CORS, or it is not running. To allow the page: vLLM \
         `--allowed-origins '[\"*\"]'`, SGLang allows any origin by default, Ollama `OLLAMA_ORIGINS=*` (or this \
         origin), llama.cpp's server `--cors-origins` / its CORS options (recent builds allow any origin). The \
         server must also allow the Authorization and Content-Type headers for a key to be sent."
    );
    if is_local(url) && !is_local(page_origin) {
        out.push_str(
            " This page is not served from localhost and the server is on a local address: Chromium's Local \
             Network Access may block that. Serve the page from localhost (scripts/serve) or allow local \
             network access for this site.",
        );
    }
    out
}

/// "HTTP 401 Unauthorized: Invalid API key — the server rejected the key" and the like.
pub fn http_error_text(status: u16, body: &str) -> String {
    let said = serde_json::from_slice::<serde_json::Value>(body.as_bytes())
        .map(|v| error_text(&v))
        .unwrap_or_else(|_| body.trim().chars().take(300).collect());
    let hint = match status {
        401 | 403 => " The server rejected the API key (or needs one): check the key field.",
        404 => " Check the base URL (it usually ends in /v1) and the model id.",
        _ => "",
    };
    let said = if said.is_empty() { String::new() } else { format!(": {said}") };
    format!("HTTP {status}{said}.{hint}")
}

/// Whether `url`'s host is loopback or a private address (a rough check, for wording only).
/// The warning to show before a key goes to `base_url` in the clear: a key is set and the URL
/// is plain `http://` to a host that is not this machine (loopback); `None` otherwise.
pub fn plain_http_key_warning(base_url: &str, key: &str) -> Option<String> {
    let url = base_url.trim();
    let plain = url.get(..7).is_some_and(|s| s.eq_ignore_ascii_case("http://"));
    if key.trim().is_empty() || !plain || is_loopback(url) {
        return None;
    }
    Some(format!(
        "This key would travel unencrypted to {}: anyone on the network path can read it. Use https://, or a \
         server on this machine.",
        host_of(url)
    ))
}

/// The host (and port) of `url`, without user info.
pub(crate) fn host_of(url: &str) -> &str {
    let rest = url.split("://").nth(1).unwrap_or(url);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    host.rsplit_once('@').map_or(host, |(_, h)| h)
}

/// Whether `url`'s host is this machine: `localhost` (and `*.localhost`), 127.0.0.0/8, `[::1]`.
fn is_loopback(url: &str) -> bool {
    let host = host_of(url);
    let host = if host.starts_with('[') {
        host.split(']').next().unwrap_or(host)
    } else {
        host.split(':').next().unwrap_or(host)
    };
    let host = host.trim_start_matches('[').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost") || host.starts_with("127.") || host == "::1"
}

fn is_local(url: &str) -> bool {
    let rest = url.split("://").nth(1).unwrap_or(url);
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = if host.starts_with('[') {
        host.split(']').next().unwrap_or(host)
    } else {
        host.split(':').next().unwrap_or(host)
    };
    let host = host.trim_start_matches('[');
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "::1"
        || host.starts_with("10.")
        || host.starts_with("192.168.")
        || (host.starts_with("172.")
            && host.split('.').nth(1).and_then(|o| o.parse::<u8>().ok()).is_some_and(|o| (16..32).contains(&o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_fetch_names_cors_and_the_server_flags() {
        let e = explain_fetch_failure("http://127.0.0.1:1/v1/chat/completions", "http://127.0.0.1:8080", "TypeError");
        for flag in ["CORS", "--allowed-origins", "OLLAMA_ORIGINS", "llama.cpp", "http://127.0.0.1:8080"] {
            assert!(e.contains(flag), "{flag} in {e}");
        }
        assert!(!e.contains("Local Network Access"), "a localhost page is not blocked that way");
    }

    #[test]
    fn a_key_bound_for_plain_http_off_this_machine_is_warned_about() {
        let warned = plain_http_key_warning("http://gpu-box.lan:8000/v1", "sk-1").unwrap();
        assert!(warned.contains("unencrypted to gpu-box.lan:8000"), "{warned}");
        assert!(plain_http_key_warning("HTTP://10.0.0.5/v1", "k").is_some(), "a LAN address is the network too");
        assert!(plain_http_key_warning("http://user@example.org/v1", "k").unwrap().contains("to example.org:"));
        for quiet in [
            ("https://api.example.org/v1", "k"),
            ("http://127.0.0.1:8000/v1", "k"),
            ("http://localhost:11434/v1", "k"),
            ("http://[::1]:8080/v1", "k"),
            ("http://gpu-box.lan:8000/v1", " "),
        ] {
            assert_eq!(plain_http_key_warning(quiet.0, quiet.1), None, "{quiet:?}");
        }
    }

    #[test]
    fn a_refused_redirect_says_so_and_not_cors() {
        let e = explain_fetch_failure(
            "http://127.0.0.1:1/moved/v1/models",
            "http://127.0.0.1:8080",
            &format!("{REDIRECT_REFUSED}: the server answered with a redirect"),
        );
        assert!(e.starts_with("http://127.0.0.1:1/moved/v1/models answered with a redirect."), "{e}");
        assert!(e.contains("your key") && !e.contains("CORS"), "{e}");
    }

    #[test]
    fn a_timeout_is_not_blamed_on_cors() {
        let e = explain_fetch_failure(
            "http://127.0.0.1:1/v1/models",
            "http://127.0.0.1:8080",
            "TimeoutError: signal timed out",
        );
        assert!(e.starts_with("No answer from http://127.0.0.1:1/v1/models within 60 s"), "{e}");
        assert!(!e.contains("CORS"), "{e}");
    }

    #[test]
    fn a_public_page_fetching_a_local_server_hears_about_private_network_access() {
        let e = explain_fetch_failure("http://localhost:30000/v1/models", "https://example.org", "TypeError");
        assert!(e.contains("Local Network Access"), "{e}");
        assert!(is_local("http://[::1]:8000/v1") && is_local("http://172.20.0.1/v1"));
        assert!(!is_local("https://api.example.com/v1") && !is_local("http://172.40.0.1/"));
    }

    #[test]
    fn http_errors_quote_the_servers_message() {
        let e = http_error_text(401, r#"{"error":{"message":"Invalid API key","type":"auth"}}"#);
        assert_eq!(
            e,
            "HTTP 401: Invalid API key. The server rejected the API key (or needs one): check the key field."
        );
        assert_eq!(http_error_text(500, "boom\n"), "HTTP 500: boom.");
        assert_eq!(http_error_text(502, ""), "HTTP 502.");
        assert!(http_error_text(401, r#"{"detail":"Invalid API key"}"#).contains("Invalid API key"));
    }
}
