//! The judges of probes A, B, C, E, F and G: what the page saw (status, body, stream figures)
//! in, a [`ProbeResult`] with its evidence out. Probe D is judged in `reasoning_probe.rs`.

use serde_json::Value;

use super::reasoning_probe::{reply_placement, ReasoningEvidence};
use super::result::{result, ProbeOutcome, ProbeResult};
use crate::live::session::LiveStats;

/// A: `GET /models` answered `status` with `body`; the form's model is `model`.
pub fn probe_models(status: u16, body: &str, model: &str) -> ProbeResult {
    if status != 200 {
        return result('A', ProbeOutcome::Fail, format!("GET /models answered HTTP {status}."));
    }
    let ids = match crate::live::request::parse_models(body) {
        Ok(ids) => ids,
        Err(e) => return result('A', ProbeOutcome::Fail, e),
    };
    let listed = format!("listed: {}", quote_list(&ids));
    let paths: Vec<&String> = ids.iter().filter(|id| looks_like_path(id)).collect();
    if let Some(p) = paths.first() {
        return result('A', ProbeOutcome::Fail, format!("Model ids are file paths (e.g. {p:?}), not names; {listed}."));
    }
    if ids.iter().any(|id| id == model.trim()) {
        result('A', ProbeOutcome::Pass, format!("{:?} is listed; {listed}.", model.trim()))
    } else {
        result('A', ProbeOutcome::Fail, format!("{:?} is not listed; {listed}.", model.trim()))
    }
}

fn looks_like_path(id: &str) -> bool {
    id.starts_with('/')
        || id.starts_with("./")
        || id.contains('\\')
        || [".gguf", ".bin", ".safetensors", ".pt"].iter().any(|ext| id.to_ascii_lowercase().ends_with(ext))
}

fn quote_list(ids: &[String]) -> String {
    let shown: Vec<String> = ids.iter().take(8).map(|i| format!("{i:?}")).collect();
    let more = ids.len().saturating_sub(8);
    match (shown.is_empty(), more) {
        (true, _) => "nothing".to_string(),
        (false, 0) => shown.join(", "),
        (false, n) => format!("{} and {n} more", shown.join(", ")),
    }
}

/// B, C and D from one non-streamed completion for `model`.
pub fn probe_completion(status: u16, body: &str, model: &str) -> [ProbeResult; 3] {
    let v: Value = match (status, serde_json::from_slice(body.as_bytes())) {
        (200, Ok(v)) => v,
        (200, Err(e)) => {
            let why = format!("The completion is not JSON ({e}).");
            return [
                result('B', ProbeOutcome::Fail, &why),
                result('C', ProbeOutcome::Fail, &why),
                result('D', ProbeOutcome::Skip, why),
            ];
        }
        (s, _) => {
            let why = format!("The completion request answered HTTP {s}.");
            return [
                result('B', ProbeOutcome::Fail, &why),
                result('C', ProbeOutcome::Fail, &why),
                result('D', ProbeOutcome::Skip, why),
            ];
        }
    };
    let reasoning = ReasoningEvidence { reply: Some(reply_placement(status, body)), ..Default::default() };
    let d = reasoning.judge().unwrap_or_else(|| result('D', ProbeOutcome::Skip, "No reply to judge."));
    [check_echo(&v, model), check_shape(&v), d]
}

fn check_echo(v: &Value, model: &str) -> ProbeResult {
    let echoed = v.get("model").and_then(Value::as_str);
    let usage = v.get("usage").filter(|u| u.is_object());
    let tokens = usage.and_then(|u| u.get("completion_tokens")).and_then(Value::as_u64);
    match (echoed, tokens) {
        (Some(m), Some(n)) if m == model.trim() => {
            result('B', ProbeOutcome::Pass, format!("model {m:?}; usage: {n} completion tokens."))
        }
        (Some(m), _) if m != model.trim() => {
            result('B', ProbeOutcome::Fail, format!("Asked for {:?}, the reply says model {m:?}.", model.trim()))
        }
        (None, _) => result('B', ProbeOutcome::Fail, "The reply has no \"model\"."),
        _ => result('B', ProbeOutcome::Fail, "The reply has no usage (completion_tokens)."),
    }
}

fn check_shape(v: &Value) -> ProbeResult {
    let mut wrong = Vec::new();
    let mut need = |field: &str, ok: bool, kind: &str| {
        if !ok {
            wrong.push(format!("{field} should be {kind}"));
        }
    };
    need("id", v.get("id").is_some_and(Value::is_string), "a string");
    need("object", v.get("object").is_some_and(Value::is_string), "a string");
    need("created", v.get("created").is_some_and(Value::is_u64), "an integer");
    need("choices", v.get("choices").and_then(Value::as_array).is_some_and(|c| !c.is_empty()), "a non-empty array");
    need("usage", v.get("usage").is_some_and(Value::is_object), "an object");
    let usage = v.get("usage");
    for k in ["prompt_tokens", "completion_tokens", "total_tokens"] {
        need(&format!("usage.{k}"), usage.and_then(|u| u.get(k)).is_some_and(Value::is_u64), "an integer");
    }
    if wrong.is_empty() {
        let object = v.get("object").and_then(Value::as_str).unwrap_or_default();
        result(
            'C',
            ProbeOutcome::Pass,
            format!("id, object ({object:?}), created, choices and usage all present and typed."),
        )
    } else {
        result('C', ProbeOutcome::Fail, wrong.join("; ") + ".")
    }
}

/// E: the tool-call completion.
pub fn probe_tools(status: u16, body: &str) -> ProbeResult {
    if status != 200 {
        return result('E', ProbeOutcome::Fail, format!("The tool request answered HTTP {status}."));
    }
    let Ok(v) = serde_json::from_slice::<Value>(body.as_bytes()) else {
        return result('E', ProbeOutcome::Fail, "The tool reply is not JSON.");
    };
    let calls = v.pointer("/choices/0/message/tool_calls").and_then(Value::as_array);
    let Some(call) = calls.and_then(|c| c.first()) else {
        return result('E', ProbeOutcome::Fail, "No tool_calls in the reply, though tool_choice named the tool.");
    };
    let name = call.pointer("/function/name").and_then(Value::as_str).unwrap_or_default();
    let args = call.pointer("/function/arguments").and_then(Value::as_str).unwrap_or_default();
    let parsed: Value = match serde_json::from_slice(args.as_bytes()) {
        Ok(p) => p,
        Err(e) => return result('E', ProbeOutcome::Fail, format!("Arguments {args:?} are not JSON ({e}).")),
    };
    let missing: Vec<&str> = ["city", "unit"].into_iter().filter(|k| parsed.get(k).is_none()).collect();
    if name != "get_weather" {
        result('E', ProbeOutcome::Fail, format!("Called {name:?}, not \"get_weather\"."))
    } else if !missing.is_empty() {
        result('E', ProbeOutcome::Fail, format!("Arguments {args} lack required {}.", missing.join(", ")))
    } else {
        result('E', ProbeOutcome::Pass, format!("get_weather({args})"))
    }
}

/// F: a short streamed completion, read to its end in `total_ms` with the session's figures.
pub fn probe_stream(status: u16, stats: &LiveStats, total_ms: f64) -> ProbeResult {
    if status != 200 {
        return result('F', ProbeOutcome::Fail, format!("The streamed request answered HTTP {status}."));
    }
    let first = stats.to_first_byte_ms.unwrap_or(total_ms);
    let evidence = format!(
        "{} chunks, [DONE] {}, first byte at {first:.0} ms of {total_ms:.0} ms.",
        stats.stream.chunks,
        if stats.stream.saw_done { "received" } else { "missing" }
    );
    let early = first < total_ms * 0.8 || total_ms - first >= 20.0;
    let ok = stats.stream.chunks >= 3 && stats.stream.saw_done && early && stats.errors().next().is_none();
    result('F', if ok { ProbeOutcome::Pass } else { ProbeOutcome::Fail }, evidence)
}

/// G: the same request with [`BAD_KEY`](super::requests::BAD_KEY); `cors` is what the page could see of CORS.
pub fn probe_bad_key(status: u16, body: &str, cors: &str) -> ProbeResult {
    match status {
        401 | 403 => result('G', ProbeOutcome::Pass, format!("A bad key got HTTP {status}. {cors}")),
        200..=299 => result(
            'G',
            ProbeOutcome::Skip,
            format!("The server took a made-up key (HTTP {status}): it does not check keys. {cors}"),
        ),
        s => {
            let said: String = body.chars().take(120).collect();
            result('G', ProbeOutcome::Fail, format!("A bad key got HTTP {s}, not 401 ({said}). {cors}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::probes::requests::tool_body;
    use crate::stream::StreamInfo;
    use serde_json::json;

    #[test]
    fn a_models_list_with_the_model_passes_and_paths_fail() {
        let ok = probe_models(200, r#"{"data":[{"id":"qwen3"},{"id":"other"}]}"#, "qwen3");
        assert_eq!(ok.outcome, ProbeOutcome::Pass, "{}", ok.evidence);
        let missing = probe_models(200, r#"{"data":[{"id":"other"}]}"#, "qwen3");
        assert_eq!(missing.outcome, ProbeOutcome::Fail);
        assert!(missing.evidence.contains("not listed"));
        let paths = probe_models(200, r#"{"data":[{"id":"/models/qwen3.gguf"}]}"#, "/models/qwen3.gguf");
        assert_eq!(paths.outcome, ProbeOutcome::Fail);
        assert!(paths.evidence.contains("file paths"));
        assert_eq!(probe_models(404, "", "m").outcome, ProbeOutcome::Fail);
    }

    #[test]
    fn a_good_completion_passes_b_and_c_and_d_follows_the_reasoning() {
        let body = r#"{"id":"c1","object":"chat.completion","created":1,"model":"m",
            "choices":[{"index":0,"message":{"role":"assistant","content":"Hi","reasoning_content":"hmm"},"finish_reason":"stop"}],
            "usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}"#;
        let [b, c, d] = probe_completion(200, body, "m");
        assert_eq!(
            (b.outcome, c.outcome, d.outcome),
            (ProbeOutcome::Pass, ProbeOutcome::Pass, ProbeOutcome::Pass),
            "{b:?} {c:?} {d:?}"
        );
        assert!(d.evidence.contains("reasoning_content"));
        let [b, _, _] = probe_completion(200, body, "other");
        assert_eq!(b.outcome, ProbeOutcome::Fail);

        let plain = body.replace(r#","reasoning_content":"hmm""#, "");
        assert_eq!(probe_completion(200, &plain, "m")[2].outcome, ProbeOutcome::Skip);
        let inline = plain.replace(r#""content":"Hi""#, r#""content":"<think>x</think>Hi""#);
        assert_eq!(probe_completion(200, &inline, "m")[2].outcome, ProbeOutcome::Fail);
    }

    #[test]
    fn wrong_types_and_missing_usage_are_named() {
        let body = r#"{"id":7,"object":"chat.completion","created":"now","model":"m","choices":[{"message":{"content":"x"}}]}"#;
        let [b, c, _] = probe_completion(200, body, "m");
        assert_eq!(b.outcome, ProbeOutcome::Fail);
        assert!(b.evidence.contains("usage"));
        assert_eq!(c.outcome, ProbeOutcome::Fail);
        for field in ["id should be a string", "created should be an integer", "usage should be an object"] {
            assert!(c.evidence.contains(field), "{field} in {}", c.evidence);
        }
        assert_eq!(probe_completion(500, "", "m")[0].outcome, ProbeOutcome::Fail);
    }

    #[test]
    fn tool_calls_need_json_arguments_with_the_required_keys() {
        let reply = |args: &str| {
            json!({"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"get_weather","arguments":args}}]}}]})
                .to_string()
        };
        assert_eq!(probe_tools(200, &reply(r#"{"city":"Paris","unit":"celsius"}"#)).outcome, ProbeOutcome::Pass);
        let missing = probe_tools(200, &reply(r#"{"city":"Paris"}"#));
        assert!(missing.outcome == ProbeOutcome::Fail && missing.evidence.contains("unit"));
        assert_eq!(probe_tools(200, &reply("{city")).outcome, ProbeOutcome::Fail);
        assert_eq!(probe_tools(200, r#"{"choices":[{"message":{"content":"sunny"}}]}"#).outcome, ProbeOutcome::Fail);
        let body: Value = serde_json::from_slice(tool_body("m").as_bytes()).unwrap();
        assert_eq!(body["tool_choice"]["function"]["name"], "get_weather");
    }

    #[test]
    fn streaming_needs_chunks_done_and_an_early_first_byte() {
        let stream = |chunks, saw_done| StreamInfo { chunks, saw_done, ..Default::default() };
        let good = LiveStats { stream: stream(10, true), to_first_byte_ms: Some(20.0), ..Default::default() };
        assert_eq!(probe_stream(200, &good, 500.0).outcome, ProbeOutcome::Pass);
        let no_done = LiveStats { stream: stream(10, false), ..good.clone() };
        assert_eq!(probe_stream(200, &no_done, 500.0).outcome, ProbeOutcome::Fail);
        let buffered = LiveStats { to_first_byte_ms: Some(499.0), ..good.clone() };
        assert_eq!(probe_stream(200, &buffered, 500.0).outcome, ProbeOutcome::Fail, "all at once is not streaming");
        let one = LiveStats { stream: stream(1, true), ..good };
        assert_eq!(probe_stream(200, &one, 500.0).outcome, ProbeOutcome::Fail);
    }

    #[test]
    fn a_bad_key_must_get_401_and_a_keyless_server_is_skipped() {
        assert_eq!(probe_bad_key(401, "", "").outcome, ProbeOutcome::Pass);
        let skip = probe_bad_key(200, "", "CORS: allowed.");
        assert!(skip.outcome == ProbeOutcome::Skip && skip.evidence.contains("does not check keys"));
        assert_eq!(probe_bad_key(500, "oops", "").outcome, ProbeOutcome::Fail);
    }
}
