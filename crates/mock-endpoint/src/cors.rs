//! CORS headers as browsers need them to read a cross-origin answer: an allowed origin on
//! every response, and for the preflight (`OPTIONS`, sent whenever a request carries
//! `Authorization` or a JSON content type) the allowed methods and headers. An `Origin` is
//! echoed only when it is one (`scheme://host[:port]` or `null`): a value with a line break in
//! it would otherwise write a header line of the client's choosing into the response.

use crate::config::Cors;
use crate::http::Headers;

/// The headers that let a page on `origin` read a response.
pub fn headers(mode: Cors, origin: Option<&str>) -> Headers {
    match (mode, origin) {
        (Cors::None, _) => Vec::new(),
        (Cors::Star, _) | (Cors::Echo, None) => vec![("Access-Control-Allow-Origin", "*".into())],
        (Cors::Echo, Some(o)) if is_origin(o) => {
            vec![("Access-Control-Allow-Origin", o.into()), ("Vary", "Origin".into())]
        }
        (Cors::Echo, Some(_)) => vec![("Vary", "Origin".into())],
    }
}

/// Whether `value` is an origin as browsers send it: `null`, or a scheme, `://`, and a host
/// with an optional port, in printable ASCII without spaces or a path.
pub fn is_origin(value: &str) -> bool {
    if value == "null" {
        return true;
    }
    let Some((scheme, host)) = value.split_once("://") else { return false };
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    let host_ok = !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || "-.:[]_".contains(c));
    scheme_ok && host_ok
}

/// The headers of a preflight answer (204).
pub fn preflight(mode: Cors, origin: Option<&str>) -> Headers {
    let mut h = headers(mode, origin);
    if mode != Cors::None {
        h.push(("Access-Control-Allow-Methods", "GET, POST, OPTIONS".into()));
        h.push(("Access-Control-Allow-Headers", "authorization, content-type".into()));
        // No preflight caching: a test that restarts a server with other flags on the same
        // port must see the new answer.
        h.push(("Access-Control-Max-Age", "0".into()));
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        assert_eq!(headers(Cors::Star, Some("http://x")), vec![("Access-Control-Allow-Origin", "*".to_string())]);
        assert_eq!(headers(Cors::Echo, Some("http://x"))[0].1, "http://x");
        assert!(headers(Cors::None, Some("http://x")).is_empty());
        // An Origin with a line break (or anything that is not an origin) is not echoed.
        for bad in ["http://x\nSet-Cookie: a=b", "http://x\r\nX: y", "http://x/path", "x", "http://", "http://a b"] {
            assert!(!is_origin(bad), "{bad:?}");
            assert!(headers(Cors::Echo, Some(bad)).iter().all(|(n, _)| *n != "Access-Control-Allow-Origin"), "{bad:?}");
        }
        for good in ["http://127.0.0.1:8080", "https://example.org", "null", "http://[::1]:3000"] {
            assert!(is_origin(good), "{good:?}");
        }
        assert!(preflight(Cors::None, None).is_empty());
        assert!(preflight(Cors::Star, None).iter().any(|(n, v)| *n == "Access-Control-Allow-Headers"
            && v.contains("authorization")
            && v.contains("content-type")));
    }
}
