//! A live run between the page and the analysis worker: the worker holds the run's
//! [`LiveSession`](coherency_core::live::LiveSession) (the page's wasm holds no scorer), fed
//! each read the page takes from the response body, and answers the page's asks with a
//! [`LiveSnapshot`] in postcard; at the run's end the page says how it ended
//! ([`ending_parts`] / [`ending_from`]). Pure: the round trips are unit-tested natively.

use coherency_core::live::{Ending, LiveSnapshot};

/// A snapshot as it travels.
pub fn encode_snapshot(snapshot: &LiveSnapshot) -> Vec<u8> {
    postcard::to_allocvec(snapshot).unwrap_or_default()
}

/// The snapshot [`encode_snapshot`] wrote, or an error in words.
pub fn decode_snapshot(bytes: &[u8]) -> Result<LiveSnapshot, String> {
    postcard::from_bytes(bytes).map_err(|_| "the live run's snapshot did not read back".to_string())
}

/// How a run ended, as the page posts it: `closed`, `stopped` or `cut` (with the browser's
/// words); `running` for a run that has not.
pub fn ending_parts(ending: &Ending) -> (&'static str, Option<&str>) {
    match ending {
        Ending::Running => ("running", None),
        Ending::Closed => ("closed", None),
        Ending::Stopped => ("stopped", None),
        Ending::Cut(why) => ("cut", Some(why)),
    }
}

/// The [`Ending`] [`ending_parts`] wrote (an unknown word: cut, in words that say so).
pub fn ending_from(kind: &str, why: Option<String>) -> Ending {
    match kind {
        "running" => Ending::Running,
        "closed" => Ending::Closed,
        "stopped" => Ending::Stopped,
        "cut" => Ending::Cut(why.unwrap_or_default()),
        other => Ending::Cut(format!("the page ended the run as '{other}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::live::LiveSession;

    #[test]
    fn a_snapshot_comes_back_as_it_went() {
        let mut s = LiveSession::new(0.0);
        let lp = "Let me check the config file again.\n".repeat(20);
        for (t, delta) in
            [(5.0, serde_json::json!({"reasoning": "First, the cache. "})), (9.5, serde_json::json!({"content": lp}))]
        {
            let data = serde_json::json!({"choices":[{"index":0,"delta":delta}]});
            s.feed(format!("data: {data}\n\n").as_bytes(), t);
        }
        s.feed(b"data: {\"error\": {\"message\": \"overloaded\"}}\n\ndata: [DONE]\n\n", 12.25);
        s.end(Ending::Cut("network error".into()), 13.0);
        let snap = s.snapshot();
        assert_eq!(snap.placement.fields.first().map(|f| f.0), Some("reasoning"));
        assert!(snap.stats.tokens_per_s.is_some() && !snap.stats.stream.errors.is_empty());
        assert_eq!(decode_snapshot(&encode_snapshot(&snap)), Ok(snap.clone()), "floats and all");
        let bytes = encode_snapshot(&snap);
        assert!(decode_snapshot(&bytes[..bytes.len() / 2]).is_err());
    }

    #[test]
    fn an_ending_comes_back_as_it_went() {
        for ending in [Ending::Running, Ending::Closed, Ending::Stopped, Ending::Cut("TypeError: network".into())] {
            let (kind, why) = ending_parts(&ending);
            assert_eq!(ending_from(kind, why.map(str::to_string)), ending);
        }
        assert!(matches!(ending_from("lost", None), Ending::Cut(why) if why.contains("'lost'")));
    }
}
