//! CORS headers as browsers need them to read a cross-origin answer: an allowed origin on
//! every response, and for the preflight (`OPTIONS`, sent whenever a request carries
//! `Authorization` or a JSON content type) the allowed methods and headers.

use crate::config::Cors;
use crate::http::Headers;

/// The headers that let a page on `origin` read a response.
pub fn headers(mode: Cors, origin: Option<&str>) -> Headers {
    match (mode, origin) {
        (Cors::None, _) => Vec::new(),
        (Cors::Star, _) | (Cors::Echo, None) => vec![("Access-Control-Allow-Origin", "*".into())],
        (Cors::Echo, Some(o)) => vec![("Access-Control-Allow-Origin", o.into()), ("Vary", "Origin".into())],
    }
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
        assert!(preflight(Cors::None, None).is_empty());
        assert!(preflight(Cors::Star, None).iter().any(|(n, v)| *n == "Access-Control-Allow-Headers"
            && v.contains("authorization")
            && v.contains("content-type")));
    }
}
