//! The upstream server: `--upstream`'s URL read and checked, and where each request the proxy
//! receives goes there. Agents are pointed at the proxy's `/v1` (`OPENAI_BASE_URL=
//! http://127.0.0.1:8090/v1`): a path under `/v1` goes to the upstream's base URL with the rest
//! of the path and the query as received; any other path goes to the upstream's origin as
//! received. An upstream with no path is the proxy's own origin: every path goes unchanged.

/// Where requests go: `http[s]://AUTHORITY[BASE]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upstream {
    /// `https://`: the connection to the upstream is TLS.
    pub tls: bool,
    /// `host:port` (or `host`, port 80), as typed.
    pub authority: String,
    /// The base URL's path without its trailing `/`: `/v1`, `/api/v1`, or empty.
    pub base_path: String,
}

/// The path prefix agents use in front of the proxy.
pub const CLIENT_BASE: &str = "/v1";

impl Upstream {
    /// Reads `--upstream`: `http://host[:port][/path]` or `https://…` (TLS to the upstream;
    /// the proxy itself listens on plain http); anything else is refused with the reason.
    pub fn parse(url: &str) -> Result<Upstream, String> {
        let url = url.trim();
        let lower = url.to_ascii_lowercase();
        let (tls, rest) = if lower.starts_with("https://") {
            (true, &url["https://".len()..])
        } else if lower.starts_with("http://") {
            (false, &url["http://".len()..])
        } else {
            return Err(format!(
                "{url}: the upstream must be an http:// or https:// URL, such as http://127.0.0.1:8080/v1"
            ));
        };
        if rest.contains(['?', '#']) {
            return Err(format!("{url}: the upstream is a base URL: no query or fragment"));
        }
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if authority.is_empty()
            || authority.contains('@')
            || authority.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(format!("{url}: no host (or credentials in the URL, which the proxy does not take)"));
        }
        // `host:port`; an IPv6 literal `[::1]` alone has colons but no port.
        let port = authority.rsplit_once(':').filter(|_| !authority.ends_with(']')).map(|(_, p)| p);
        if port.is_some_and(|p| p.parse::<u16>().is_err()) {
            return Err(format!("{url}: the port must be a number from 0 to 65535"));
        }
        if path.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!("{url}: the path holds spaces or control characters"));
        }
        Ok(Upstream { tls, authority: authority.to_string(), base_path: path.trim_end_matches('/').to_string() })
    }

    /// The upstream URL of a request the proxy received for `path_and_query`.
    pub fn target(&self, path_and_query: &str) -> String {
        let rest = path_and_query.strip_prefix(CLIENT_BASE).filter(|r| r.is_empty() || r.starts_with(['/', '?']));
        match rest {
            Some(rest) if !self.base_path.is_empty() => format!("{}{}{rest}", self.origin(), self.base_path),
            _ => format!("{}{path_and_query}", self.origin()),
        }
    }

    /// The base URL, as a person typed it (for messages).
    pub fn base_url(&self) -> String {
        format!("{}{}", self.origin(), self.base_path)
    }

    /// `http://host:port` or `https://host:port`.
    fn origin(&self) -> String {
        format!("{}://{}", if self.tls { "https" } else { "http" }, self.authority)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_v1_go_to_the_base_url_others_to_the_origin() {
        let up = Upstream::parse("http://10.0.0.5:8000/api/v1/").unwrap();
        assert_eq!(up.authority, "10.0.0.5:8000");
        assert_eq!(up.base_path, "/api/v1");
        assert_eq!(up.target("/v1/chat/completions"), "http://10.0.0.5:8000/api/v1/chat/completions");
        assert_eq!(up.target("/v1/models?x=1"), "http://10.0.0.5:8000/api/v1/models?x=1");
        assert_eq!(up.target("/v1"), "http://10.0.0.5:8000/api/v1");
        assert_eq!(up.target("/v10/x"), "http://10.0.0.5:8000/v10/x");
        assert_eq!(up.target("/health"), "http://10.0.0.5:8000/health");
        let same = Upstream::parse("http://127.0.0.1:30000/v1").unwrap();
        assert_eq!(same.target("/v1/chat/completions"), "http://127.0.0.1:30000/v1/chat/completions");
        let root = Upstream::parse("HTTP://localhost:11434").unwrap();
        assert_eq!(root.base_path, "");
        assert_eq!(root.target("/v1/models"), "http://localhost:11434/v1/models");
        assert_eq!(root.base_url(), "http://localhost:11434");
    }

    #[test]
    fn https_upstreams_keep_their_scheme() {
        let up = Upstream::parse("HTTPS://api.example.com/v1/").unwrap();
        assert!(up.tls);
        assert_eq!(up.target("/v1/chat/completions"), "https://api.example.com/v1/chat/completions");
        assert_eq!(up.target("/health"), "https://api.example.com/health");
        assert_eq!(up.base_url(), "https://api.example.com/v1");
        assert!(!Upstream::parse("http://h:1/v1").unwrap().tls);
    }

    #[test]
    fn other_urls_are_refused_with_the_reason() {
        let ftp = Upstream::parse("ftp://x/v1").unwrap_err();
        assert!(ftp.contains("must be an http:// or https:// URL"), "{ftp}");
        for bad in [
            "ftp://x/v1",
            "127.0.0.1:8080/v1",
            "http:///v1",
            "http://u:p@host/v1",
            "http://host:99999/v1",
            "http://h/v1?k=1",
            "https://",
        ] {
            assert!(Upstream::parse(bad).is_err(), "{bad}");
        }
        assert!(Upstream::parse("http://[::1]:8080/v1").is_ok());
    }
}
