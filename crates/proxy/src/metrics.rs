//! The proxy's counters, and `/metrics` in the Prometheus text format (0.0.4): requests,
//! generations by model and verdict, cuts and the tokens they saved, faults, and a histogram
//! of the time the proxy adds to each read of a reply. Model names come from clients and
//! servers: the first [`MAX_MODELS`] are labels, later ones count as `"other"`.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::log_line::GenerationSummary;

/// Distinct model labels kept, at most.
pub const MAX_MODELS: usize = 100;

/// Upper bounds (seconds) of the added-latency histogram's buckets.
pub const LATENCY_BUCKETS: [f64; 12] =
    [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25];

/// Every counter. See the module doc.
#[derive(Clone, Debug, Default)]
pub struct Metrics {
    /// Requests forwarded (every path), and those the upstream could not be reached for.
    pub requests: u64,
    pub upstream_unreachable: u64,
    /// (model, verdict) → generations; verdict `PASS`, `WARN`, `FAIL` or `none`.
    generations: BTreeMap<(String, &'static str), u64>,
    /// (model, ending) → generations, by how they ended (`done`, `no-done`, `cut-by-proxy`,
    /// `upstream-failed`, `client-gone`).
    endings: BTreeMap<(String, &'static str), u64>,
    cuts: BTreeMap<String, u64>,
    /// (model, verdict) → tool-call checks across turns (requests carrying a history with calls).
    tool_calls: BTreeMap<(String, &'static str), u64>,
    /// (model, estimated) → tokens saved.
    tokens_saved: BTreeMap<(String, bool), u64>,
    /// Cuts whose request set no limit: their saving is not known.
    pub cuts_saving_unknown: u64,
    /// Log lines not written (the log could not keep up, or the file failed).
    pub log_lines_lost: u64,
    /// Generations whose reply is passing now.
    pub in_flight: u64,
    latency_counts: [u64; LATENCY_BUCKETS.len()],
    latency_count: u64,
    latency_sum: f64,
}

impl Metrics {
    /// Counts a finished generation.
    pub fn generation(&mut self, s: &GenerationSummary) {
        let model = self.label(&s.model);
        let verdict = s.verdict.map_or("none", |v| v.as_str());
        *self.generations.entry((model.clone(), verdict)).or_default() += 1;
        *self.endings.entry((model.clone(), s.end)).or_default() += 1;
        if let Some(v) = s.tool_calls {
            *self.tool_calls.entry((model.clone(), v.as_str())).or_default() += 1;
        }
        if s.cut {
            *self.cuts.entry(model.clone()).or_default() += 1;
            match s.tokens_saved {
                Some((tokens, estimated)) => *self.tokens_saved.entry((model, estimated)).or_default() += tokens,
                None => self.cuts_saving_unknown += 1,
            }
        }
    }

    /// Counts the time added to one read, in seconds.
    pub fn added(&mut self, seconds: f64) {
        if let Some(i) = LATENCY_BUCKETS.iter().position(|&b| seconds <= b) {
            self.latency_counts[i] += 1;
        }
        self.latency_count += 1;
        self.latency_sum += seconds;
    }

    /// Generations counted so far.
    pub fn generations(&self) -> u64 {
        self.generations.values().sum()
    }

    /// The counts in one line, for the proxy's last words: `12 generations (10 PASS, 2 FAIL),
    /// 2 cut, 3,400 tokens saved, 1 log line lost`.
    pub fn summary(&self) -> String {
        use coherency_core::wording::thousands;
        let mut by_verdict = Vec::new();
        for verdict in ["PASS", "WARN", "FAIL", "none"] {
            let n: u64 = self.generations.iter().filter(|((_, v), _)| *v == verdict).map(|(_, n)| n).sum();
            if n > 0 {
                by_verdict.push(format!("{} {verdict}", thousands(n as usize)));
            }
        }
        let total = self.generations();
        let mut text = format!("{} generation{}", thousands(total as usize), if total == 1 { "" } else { "s" });
        if !by_verdict.is_empty() {
            text += &format!(" ({})", by_verdict.join(", "));
        }
        let cuts: u64 = self.cuts.values().sum();
        text += &format!(", {} cut", thousands(cuts as usize));
        let saved: u64 = self.tokens_saved.values().sum();
        if saved > 0 {
            text += &format!(", {} tokens saved", thousands(saved as usize));
        }
        if self.log_lines_lost > 0 {
            text += &format!(", {} log lines lost", thousands(self.log_lines_lost as usize));
        }
        text
    }

    fn label(&self, model: &str) -> String {
        let known = self.generations.keys().any(|(m, _)| m == model);
        let distinct = {
            let mut models: Vec<&String> = self.generations.keys().map(|(m, _)| m).collect();
            models.dedup();
            models.len()
        };
        if known || distinct < MAX_MODELS {
            model.to_string()
        } else {
            "other".to_string()
        }
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        head(&mut out, "coherency_proxy_requests_total", "counter", "Requests forwarded to the upstream, every path.");
        let _ = writeln!(out, "coherency_proxy_requests_total {}", self.requests);
        head(
            &mut out,
            "coherency_proxy_upstream_unreachable_total",
            "counter",
            "Requests the upstream could not be reached for (answered 502).",
        );
        let _ = writeln!(out, "coherency_proxy_upstream_unreachable_total {}", self.upstream_unreachable);
        head(
            &mut out,
            "coherency_proxy_generations_in_flight",
            "gauge",
            "Generations whose reply is passing through now.",
        );
        let _ = writeln!(out, "coherency_proxy_generations_in_flight {}", self.in_flight);
        head(
            &mut out,
            "coherency_proxy_generations_total",
            "counter",
            "Generations (chat and text completions, Responses, Anthropic Messages, Ollama) by model and verdict; none: nothing judged.",
        );
        for ((model, verdict), n) in &self.generations {
            let _ = writeln!(
                out,
                "coherency_proxy_generations_total{{model=\"{}\",verdict=\"{verdict}\"}} {n}",
                escape(model)
            );
        }
        head(
            &mut out,
            "coherency_proxy_generation_endings_total",
            "counter",
            "Generations by model and how they ended.",
        );
        for ((model, end), n) in &self.endings {
            let _ = writeln!(
                out,
                "coherency_proxy_generation_endings_total{{model=\"{}\",ending=\"{end}\"}} {n}",
                escape(model)
            );
        }
        head(
            &mut out,
            "coherency_proxy_tool_call_checks_total",
            "counter",
            "The tool-call check across turns, by model and verdict, for requests whose history holds tool calls.",
        );
        for ((model, verdict), n) in &self.tool_calls {
            let _ = writeln!(
                out,
                "coherency_proxy_tool_call_checks_total{{model=\"{}\",verdict=\"{verdict}\"}} {n}",
                escape(model)
            );
        }
        head(&mut out, "coherency_proxy_cuts_total", "counter", "Streams the proxy cut (--cut-on) by model.");
        for (model, n) in &self.cuts {
            let _ = writeln!(out, "coherency_proxy_cuts_total{{model=\"{}\"}} {n}", escape(model));
        }
        head(&mut out, "coherency_proxy_tokens_saved_total", "counter", "Tokens not generated thanks to cuts: the request's max_tokens less the tokens generated; estimated=\"true\" when those were counted from the text (4 bytes a token), not the server's usage.");
        for ((model, estimated), n) in &self.tokens_saved {
            let _ = writeln!(
                out,
                "coherency_proxy_tokens_saved_total{{model=\"{}\",estimated=\"{estimated}\"}} {n}",
                escape(model)
            );
        }
        head(
            &mut out,
            "coherency_proxy_cuts_saving_unknown_total",
            "counter",
            "Cuts whose request set no max_tokens, so that the tokens saved are not known.",
        );
        let _ = writeln!(out, "coherency_proxy_cuts_saving_unknown_total {}", self.cuts_saving_unknown);
        head(
            &mut out,
            "coherency_proxy_log_lines_lost_total",
            "counter",
            "Log lines not written (the log could not keep up, or writing failed).",
        );
        let _ = writeln!(out, "coherency_proxy_log_lines_lost_total {}", self.log_lines_lost);
        head(
            &mut out,
            "coherency_proxy_added_latency_seconds",
            "histogram",
            "Time the proxy added to each read of a generation's reply (scoring included).",
        );
        let mut cumulative = 0;
        for (bound, n) in LATENCY_BUCKETS.iter().zip(self.latency_counts) {
            cumulative += n;
            let _ = writeln!(out, "coherency_proxy_added_latency_seconds_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        let _ = writeln!(out, "coherency_proxy_added_latency_seconds_bucket{{le=\"+Inf\"}} {}", self.latency_count);
        let _ = writeln!(out, "coherency_proxy_added_latency_seconds_sum {}", self.latency_sum);
        let _ = writeln!(out, "coherency_proxy_added_latency_seconds_count {}", self.latency_count);
        out
    }
}

fn head(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

/// A label value as the text format wants it: `\`, `"` and line feeds escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::Verdict;

    fn summary(model: &str, verdict: Option<Verdict>, cut: bool, saved: Option<(u64, bool)>) -> GenerationSummary {
        GenerationSummary {
            model: model.into(),
            verdict,
            cut,
            tokens_saved: saved,
            end: if cut { "cut-by-proxy" } else { "done" },
            tool_calls: (model == "qwen").then_some(Verdict::Fail),
        }
    }

    #[test]
    fn the_exposition_counts_generations_cuts_savings_and_latency() {
        let mut m = Metrics { requests: 5, in_flight: 2, ..Metrics::default() };
        m.generation(&summary("llama \"8b\"\n", Some(Verdict::Pass), false, None));
        m.generation(&summary("qwen", Some(Verdict::Fail), true, Some((1500, true))));
        m.generation(&summary("qwen", Some(Verdict::Fail), true, Some((500, true))));
        m.generation(&summary("qwen", Some(Verdict::Fail), true, None));
        m.generation(&summary("qwen", None, false, None));
        for s in [0.000_003, 0.000_3, 2.0] {
            m.added(s);
        }
        let text = m.render();
        for want in [
            "coherency_proxy_requests_total 5\n",
            "coherency_proxy_generations_in_flight 2\n",
            "# TYPE coherency_proxy_generations_in_flight gauge\n",
            "coherency_proxy_generations_total{model=\"llama \\\"8b\\\"\\n\",verdict=\"PASS\"} 1\n",
            "coherency_proxy_generations_total{model=\"qwen\",verdict=\"FAIL\"} 3\n",
            "coherency_proxy_generations_total{model=\"qwen\",verdict=\"none\"} 1\n",
            "coherency_proxy_generation_endings_total{model=\"qwen\",ending=\"cut-by-proxy\"} 3\n",
            "coherency_proxy_cuts_total{model=\"qwen\"} 3\n",
            "coherency_proxy_tool_call_checks_total{model=\"qwen\",verdict=\"FAIL\"} 4\n",
            "coherency_proxy_tokens_saved_total{model=\"qwen\",estimated=\"true\"} 2000\n",
            "coherency_proxy_cuts_saving_unknown_total 1\n",
            "coherency_proxy_added_latency_seconds_bucket{le=\"0.00001\"} 1\n",
            "coherency_proxy_added_latency_seconds_bucket{le=\"0.0005\"} 2\n",
            "coherency_proxy_added_latency_seconds_bucket{le=\"0.25\"} 2\n",
            "coherency_proxy_added_latency_seconds_bucket{le=\"+Inf\"} 3\n",
            "coherency_proxy_added_latency_seconds_count 3\n",
            "# TYPE coherency_proxy_added_latency_seconds histogram\n",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
        // Every sample line is `name{labels} value` or `name value`, after its family's TYPE.
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (_, value) = line.rsplit_once(' ').unwrap();
            assert!(value.parse::<f64>().is_ok(), "{line}");
        }
        assert_eq!(m.generations(), 5);
    }

    #[test]
    fn model_labels_are_bounded() {
        let mut m = Metrics::default();
        for i in 0..MAX_MODELS + 20 {
            m.generation(&summary(&format!("model-{i}"), Some(Verdict::Pass), false, None));
        }
        m.generation(&summary("model-3", Some(Verdict::Pass), false, None));
        let text = m.render();
        assert!(text.contains("model=\"other\",verdict=\"PASS\"} 20"), "{text}");
        assert!(text.contains("model=\"model-3\",verdict=\"PASS\"} 2"));
    }
}
