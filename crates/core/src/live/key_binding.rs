//! A remembered API key is bound to the endpoint it was typed for: its origin (scheme, host and
//! port of the base URL at the time). Sent only to that origin; when the base URL points
//! elsewhere, the key stays in its field but is not sent, and the page says so — a key for one
//! server never goes to another without the person typing it again. What the page keeps in
//! `localStorage` ("remember on this device") is the origin and the key together.

use super::explain::host_of;

/// The origin of `base_url`: its scheme and host (with port), lower-cased, without user info
/// or path ("http://127.0.0.1:8000"); empty when the URL has no scheme.
pub fn origin_of(base_url: &str) -> String {
    let url = base_url.trim();
    match url.split_once("://") {
        Some((scheme, _)) => format!("{}://{}", scheme.to_ascii_lowercase(), host_of(url).to_ascii_lowercase()),
        None => String::new(),
    }
}

/// A key and the origin it was typed for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoundKey {
    pub key: String,
    /// [`origin_of`] the base URL when the key was typed.
    pub origin: String,
}

impl BoundKey {
    /// `key`, typed while the base URL was `base_url`.
    pub fn typed(key: String, base_url: &str) -> BoundKey {
        BoundKey { key, origin: origin_of(base_url) }
    }

    /// What `localStorage` keeps: the origin, a newline, the key.
    pub fn stored(&self) -> String {
        format!("{}\n{}", self.origin, self.key)
    }

    /// A key [`Self::stored`] wrote; `None` for anything else (a key stored before keys were
    /// bound has no origin: it is forgotten rather than sent anywhere).
    pub fn from_stored(text: &str) -> Option<BoundKey> {
        let (origin, key) = text.split_once('\n')?;
        (!origin.is_empty() && !key.is_empty()).then(|| BoundKey { key: key.to_string(), origin: origin.to_string() })
    }

    /// The key to send to `base_url`: the key for its own origin, none (`Err` with why, for
    /// the page to say) for another; `Ok("")` when there is no key.
    pub fn for_endpoint(&self, base_url: &str) -> Result<&str, String> {
        let origin = origin_of(base_url);
        if self.key.trim().is_empty() || origin == self.origin {
            return Ok(&self.key);
        }
        Err(format!(
            "This key was given for {}, so it is not sent to {}. Type it again to use it with this endpoint.",
            self.origin,
            if origin.is_empty() { "this address" } else { &origin }
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_scheme_host_and_port_without_user_or_path() {
        assert_eq!(origin_of(" HTTP://User:pw@GPU-Box:8000/v1/chat "), "http://gpu-box:8000");
        assert_eq!(origin_of("https://api.example.com/v1"), "https://api.example.com");
        assert_eq!(origin_of("http://[::1]:30000/v1"), "http://[::1]:30000");
        assert_eq!(origin_of("127.0.0.1:8000/v1"), "", "no scheme, no origin");
    }

    #[test]
    fn a_key_goes_only_to_the_origin_it_was_typed_for() {
        let key = BoundKey::typed("sk-1".into(), "http://127.0.0.1:8000/v1");
        assert_eq!(key.for_endpoint("http://127.0.0.1:8000/v1"), Ok("sk-1"));
        assert_eq!(key.for_endpoint("http://127.0.0.1:8000/other/v1"), Ok("sk-1"), "same origin, other path");
        for other in ["http://127.0.0.1:8001/v1", "https://127.0.0.1:8000/v1", "http://evil.example/v1", "nonsense"] {
            let refused = key.for_endpoint(other).unwrap_err();
            assert!(
                refused.starts_with("This key was given for http://127.0.0.1:8000, so it is not sent to "),
                "{refused}"
            );
        }
        assert_eq!(
            BoundKey::typed(String::new(), "http://a").for_endpoint("http://b"),
            Ok(""),
            "no key: nothing to refuse"
        );
    }

    #[test]
    fn what_is_stored_reads_back_and_an_unbound_key_is_forgotten() {
        let key = BoundKey::typed("sk-1".into(), "https://api.example.com/v1");
        assert_eq!(BoundKey::from_stored(&key.stored()), Some(key));
        assert_eq!(BoundKey::from_stored("sk-from-before"), None);
        assert_eq!(BoundKey::from_stored("\nsk"), None);
    }
}
