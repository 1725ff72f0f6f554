//! Soak statistics: many generations of one endpoint (or two, A/B) summed up the way a team
//! quotes them — the loop rate (FAIL and WARN shares apart) with a Wilson 95 % interval, the
//! rate of generations that FAIL an incoherence check (gibberish, word salad, a leaked
//! template) apart from the loops, speed
//! (median and p90 tokens/s) of the coherent and the looping generations apart, time to first
//! token, how many ended without the stream's end marker, and a plain sentence comparing A and
//! B. Pure: the page's soak run feeds it one [`Generation`] per finished run.
//!
//! Percentiles are nearest-rank (the smallest value with at least p % of the values at or
//! below it), so every figure shown is one that was measured.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::request::{build_request, ChatRequest, RequestForm};
use super::session::{Ending, LiveSnapshot};
use crate::analyze::Verdict;

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Generations a soak run may ask for.
pub const MAX_GENERATIONS: usize = 100;
/// Streams a soak run may hold open at once.
pub const MAX_CONCURRENCY: usize = 4;

/// One generation to run: which prompt of the set, its seed, and the request.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    pub index: usize,
    /// Which configuration sends it: "A", "B", "R" (B again, for a comparison's noise floor),
    /// or "" when there is one.
    pub config: &'static str,
    pub prompt: usize,
    pub seed: u64,
    pub request: ChatRequest,
}

/// The requests of a soak run of `n` generations from `form`: the prompts rotate (an empty set
/// is the form's own prompt), generation i is sent with seed `first_seed + i` (over any seed
/// in the advanced JSON), or says in words what is wrong with the form.
pub fn plan(form: &RequestForm, prompts: &[String], n: usize, first_seed: u64) -> Result<Vec<Planned>, String> {
    if !(1..=MAX_GENERATIONS).contains(&n) {
        return Err(format!("Run 1 to {MAX_GENERATIONS} generations (got {n})."));
    }
    let own = [form.prompt.clone()];
    let prompts: &[String] = if prompts.is_empty() { &own } else { prompts };
    let mut planned = Vec::with_capacity(n);
    for index in 0..n {
        let prompt = index % prompts.len();
        let seed = first_seed.wrapping_add(index as u64);
        let mut request = build_request(&RequestForm { prompt: prompts[prompt].clone(), ..form.clone() })?;
        let mut body: Value = serde_json::from_slice(request.body.as_bytes()).map_err(|e| e.to_string())?;
        if let Value::Object(o) = &mut body {
            o.insert("seed".to_string(), seed.into());
        }
        request.body = body.to_string();
        planned.push(Planned { index, config: "", prompt, seed, request });
    }
    Ok(planned)
}

/// The requests of an A/B soak: `n` generations of each configuration on the same prompts and
/// seeds, alternating A, B, A, B (so that a drift in time touches both alike).
pub fn plan_ab(
    a: &RequestForm,
    b: &RequestForm,
    prompts: &[String],
    n: usize,
    first_seed: u64,
) -> Result<Vec<Planned>, String> {
    let side = |form: &RequestForm, config: &'static str| {
        plan(form, prompts, n, first_seed)
            .map(|p| p.into_iter().map(|g| Planned { config, ..g }).collect::<Vec<_>>())
            .map_err(|e| format!("{config}: {e}"))
    };
    let (a, b) = (side(a, "A")?, side(b, "B")?);
    let mut planned = Vec::with_capacity(2 * n);
    for (i, (a, b)) in a.into_iter().zip(b).enumerate() {
        planned.push(Planned { index: 2 * i, ..a });
        planned.push(Planned { index: 2 * i + 1, ..b });
    }
    Ok(planned)
}

/// Top alternatives asked per token when a soak is run for a comparison.
pub const COMPARE_TOP_LOGPROBS: u64 = 5;

/// The requests of a soak made for a comparison (`crate::compare`, B the reference): greedy
/// (`temperature: 0`) whatever the form says, with `logprobs` and `top_logprobs` asked, the
/// planned seeds kept (A's and B's the same on each prompt) — so that the two differ only by
/// their servers. A body that is not a JSON object is left as it is.
pub fn for_comparison(planned: Vec<Planned>) -> Vec<Planned> {
    planned
        .into_iter()
        .map(|mut p| {
            if let Ok(Value::Object(mut o)) = serde_json::from_slice::<Value>(p.request.body.as_bytes()) {
                o.insert("temperature".into(), 0.into());
                o.insert("logprobs".into(), true.into());
                o.insert("top_logprobs".into(), COMPARE_TOP_LOGPROBS.into());
                p.request.body = Value::Object(o).to_string();
            }
            p
        })
        .collect()
}

/// [`for_comparison`] with the reference run twice: after each B generation the same request
/// again as "R" (B's second run, the noise floor: how far the reference differs from itself).
pub fn with_reference_again(planned: Vec<Planned>) -> Vec<Planned> {
    let mut out = Vec::with_capacity(planned.len() * 3 / 2);
    for p in planned {
        let again = (p.config == "B").then(|| Planned { config: "R", ..p.clone() });
        out.push(p);
        out.extend(again);
    }
    for (index, p) in out.iter_mut().enumerate() {
        p.index = index;
    }
    out
}

/// One finished generation of a soak run: what a row shows and an export line holds (never the
/// key: it is not in the request body or the URL).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// 0-based, in the order they were started.
    pub index: usize,
    /// Which endpoint configuration ran it: "A", "B", or "" when there is one.
    pub config: String,
    /// The endpoint and the model asked.
    pub url: String,
    pub model: String,
    /// Which prompt of the set (they rotate), and the seed sent, when one was.
    pub prompt: usize,
    pub seed: Option<u64>,
    /// The verdict of its whole text (reasoning and answer); `None` when it failed before any
    /// text (a network or HTTP error, see `error`).
    pub verdict: Option<Verdict>,
    /// Byte of the text where it turns degenerate.
    pub onset: Option<usize>,
    /// It FAILs a repetition check (a loop, copies, the seed's three, a degenerate end)…
    #[serde(default)]
    pub looped: bool,
    /// …or an incoherence check (template leak, token soup, word salad): both may hold.
    #[serde(default)]
    pub incoherent: bool,
    pub tokens: u64,
    pub tokens_estimated: bool,
    pub tokens_per_s: Option<f64>,
    /// Milliseconds from the request to the first token.
    pub ttft_ms: Option<f64>,
    pub finish_reason: Option<String>,
    /// The stream's own end marker arrived (`[DONE]`, `message_stop`…).
    pub saw_done: bool,
    /// Why it produced nothing to judge, when it did not.
    pub error: Option<String>,
}

impl Generation {
    /// The generation `planned` as its ended session streamed it (the session's last
    /// snapshot) under `config`, or, with no session, as it failed (`error`: the request was
    /// refused or never answered).
    pub fn of(planned: &Planned, model: &str, session: Result<&LiveSnapshot, String>) -> Generation {
        let mut g = Generation {
            index: planned.index,
            config: planned.config.to_string(),
            url: planned.request.url.clone(),
            model: model.to_string(),
            prompt: planned.prompt,
            seed: Some(planned.seed),
            verdict: None,
            onset: None,
            looped: false,
            incoherent: false,
            tokens: 0,
            tokens_estimated: false,
            tokens_per_s: None,
            ttft_ms: None,
            finish_reason: None,
            saw_done: false,
            error: None,
        };
        let session = match session {
            Ok(s) => s,
            Err(error) => {
                g.error = Some(error);
                return g;
            }
        };
        let (stats, combined) = (&session.stats, &session.combined_report);
        let has_text = !(session.reasoning.is_empty() && session.content.is_empty());
        if has_text {
            g.verdict = Some(combined.verdict);
            g.onset = combined.onset;
            let fails = |incoherence: bool| {
                combined.checks.iter().any(|c| c.metric.is_incoherence() == incoherence && c.level == Verdict::Fail)
            };
            (g.looped, g.incoherent) = (fails(false), fails(true));
        }
        g.tokens = stats.tokens;
        g.tokens_estimated = stats.tokens_estimated;
        g.tokens_per_s = stats.tokens_per_s;
        g.ttft_ms = stats.to_first_token_ms;
        g.finish_reason = stats.stream.finish_reason.clone();
        g.saw_done = stats.stream.saw_done;
        g.error = match &session.ending {
            Ending::Cut(why) => Some(format!("cut: {why}")),
            Ending::Stopped => Some("stopped".to_string()),
            _ if !has_text => Some(stats.errors().next().unwrap_or("no text").to_string()),
            _ => None,
        };
        g
    }
}

/// A soak run as JSONL: one line per generation.
pub fn export_jsonl(generations: &[Generation]) -> String {
    let mut out = String::new();
    for g in generations {
        out += &serde_json::to_string(g).unwrap_or_default();
        out.push('\n');
    }
    out
}

/// A share with its Wilson 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub k: usize,
    pub n: usize,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    /// `k` of `n`, with the Wilson score interval: (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n).
    pub fn of(k: usize, n: usize) -> Rate {
        if n == 0 {
            return Rate { k, n, low: 0.0, high: 1.0 };
        }
        let (kf, nf, z2) = (k as f64, n as f64, Z95 * Z95);
        let p = kf / nf;
        let centre = p + z2 / (2.0 * nf);
        let spread = Z95 * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
        let denominator = 1.0 + z2 / nf;
        Rate { k, n, low: ((centre - spread) / denominator).max(0.0), high: ((centre + spread) / denominator).min(1.0) }
    }

    pub fn share(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.k as f64 / self.n as f64
        }
    }

    /// "3/20 (15 %, 95 % interval 5–36 %)".
    pub fn text(&self) -> String {
        let percent = |share: f64| (share * 100.0).round() as u64;
        format!(
            "{}/{} ({} %, 95 % interval {}–{} %)",
            self.k,
            self.n,
            percent(self.share()),
            percent(self.low),
            percent(self.high)
        )
    }
}

/// Median and p90 of some measurements (nearest rank).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub n: usize,
    pub median: f64,
    pub p90: f64,
}

impl Spread {
    /// `None` when there is nothing to measure.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Spread> {
        let mut v: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        sort_total(&mut v);
        Some(Spread { n: v.len(), median: nearest_rank(&v, 50), p90: nearest_rank(&v, 90) })
    }
}

/// Sorts `v` as `sort_unstable_by(f64::total_cmp)` does, by sorting each value's bits made a
/// `u64` in the same order, with the small sort (`order`): no sort of its own in the wasm.
fn sort_total(v: &mut [f64]) {
    const SIGN: u64 = 1 << 63;
    let key = |x: f64| {
        let bits = x.to_bits();
        if bits & SIGN == 0 {
            bits | SIGN
        } else {
            !bits
        }
    };
    let mut keys: Vec<u64> = v.iter().map(|&x| key(x)).collect();
    keys.sort_by_key(|&k| k);
    for (x, k) in v.iter_mut().zip(keys) {
        *x = f64::from_bits(if k & SIGN == 0 { !k } else { k & !SIGN });
    }
}

/// The value of sorted `v` at percentile `p` by nearest rank: the ⌈p/100 · n⌉-th smallest.
fn nearest_rank(v: &[f64], p: usize) -> f64 {
    let rank = (p * v.len()).div_ceil(100).max(1);
    v[rank - 1]
}

/// What a set of generations of one configuration sums up to.
#[derive(Clone, Debug, PartialEq)]
pub struct SoakSummary {
    /// Generations that gave a text to judge (the rates' n); `failed` gave none.
    pub judged: usize,
    pub failed: usize,
    /// FAIL and WARN shares of the judged generations.
    pub fail: Rate,
    pub warn: Rate,
    /// Of the judged generations, those that FAIL by looping (a FAIL not told apart, from
    /// an export of before, counts here), and those that FAIL an incoherence check.
    pub loops: Rate,
    pub gibberish: Rate,
    /// Tokens per second of the PASS generations, and of the FAIL ones.
    pub speed_coherent: Option<Spread>,
    pub speed_looping: Option<Spread>,
    /// Time to first token, in ms, over every generation that gave one.
    pub ttft: Option<Spread>,
    /// Judged generations whose stream ended without its end marker.
    pub without_done: usize,
}

impl SoakSummary {
    pub fn of<'a>(generations: impl IntoIterator<Item = &'a Generation>) -> SoakSummary {
        let all: Vec<&Generation> = generations.into_iter().collect();
        let judged: Vec<&Generation> = all.iter().copied().filter(|g| g.verdict.is_some()).collect();
        let count = |v: Verdict| judged.iter().filter(|g| g.verdict == Some(v)).count();
        let speed =
            |v: Verdict| Spread::of(judged.iter().filter(|g| g.verdict == Some(v)).filter_map(|g| g.tokens_per_s));
        SoakSummary {
            judged: judged.len(),
            failed: all.len() - judged.len(),
            fail: Rate::of(count(Verdict::Fail), judged.len()),
            warn: Rate::of(count(Verdict::Warn), judged.len()),
            loops: Rate::of(
                judged.iter().filter(|g| g.verdict == Some(Verdict::Fail) && (g.looped || !g.incoherent)).count(),
                judged.len(),
            ),
            gibberish: Rate::of(
                judged.iter().filter(|g| g.verdict == Some(Verdict::Fail) && g.incoherent).count(),
                judged.len(),
            ),
            speed_coherent: speed(Verdict::Pass),
            speed_looping: speed(Verdict::Fail),
            ttft: Spread::of(all.iter().filter_map(|g| g.ttft_ms)),
            without_done: judged.iter().filter(|g| !g.saw_done).count(),
        }
    }
}

/// The plain sentences comparing A's loop rate with B's ("B loops more: 7/20 vs 1/20") and,
/// when either side wrote incoherent generations, their rates apart ("A writes gibberish
/// more: …"); a difference is said only when the two 95 % intervals do not overlap;
/// otherwise that it may be chance.
pub fn compare(a: &SoakSummary, b: &SoakSummary) -> String {
    if a.judged == 0 || b.judged == 0 {
        return "Not enough generations to compare: each side needs at least one judged.".to_string();
    }
    let loops = compare_rates(a.loops, b.loops, "loops more", "loop alike", "");
    if a.gibberish.k == 0 && b.gibberish.k == 0 {
        return loops;
    }
    let gibberish = compare_rates(
        a.gibberish,
        b.gibberish,
        "writes gibberish more",
        "write gibberish alike",
        " in incoherent generations",
    );
    format!("{loops} {gibberish}")
}

/// One sentence comparing two rates: "{side} {more}: …", "A and B {alike}: …", or "No clear
/// difference{what}: …".
fn compare_rates(ra: Rate, rb: Rate, more: &str, alike: &str, what: &str) -> String {
    if rb.low > ra.high {
        format!("B {more}: {}/{} vs {}/{} (A's and B's 95 % intervals do not overlap).", rb.k, rb.n, ra.k, ra.n)
    } else if ra.low > rb.high {
        format!("A {more}: {}/{} vs {}/{} (the 95 % intervals do not overlap).", ra.k, ra.n, rb.k, rb.n)
    } else if ra.k * rb.n == rb.k * ra.n {
        format!("A and B {alike}: {}/{} and {}/{}.", ra.k, ra.n, rb.k, rb.n)
    } else {
        format!(
            "No clear difference{what}: A {}/{}, B {}/{} — the 95 % intervals overlap; more generations would tell.",
            ra.k, ra.n, rb.k, rb.n
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::LiveSession;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn the_wilson_interval_matches_published_values() {
        // Newcombe (1998), table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605;
        // 0/20 → 0–0.1611; 1/29 → 0.0061–0.1718.
        for (k, n, low, high) in
            [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)]
        {
            let r = Rate::of(k, n);
            assert!(close(r.low, low) && close(r.high, high), "{k}/{n}: {r:?}");
        }
        let none = Rate::of(0, 0);
        assert_eq!((none.low, none.high, none.share()), (0.0, 1.0, 0.0));
        assert_eq!(Rate::of(3, 20).text(), "3/20 (15 %, 95 % interval 5–36 %)");
    }

    #[test]
    fn percentiles_are_nearest_rank_values_that_were_measured() {
        let s = Spread::of((1..=10).map(f64::from)).unwrap();
        assert_eq!((s.n, s.median, s.p90), (10, 5.0, 9.0));
        let s = Spread::of([7.0, f64::NAN, 3.0]).unwrap();
        assert_eq!((s.n, s.median, s.p90), (2, 3.0, 7.0));
        assert_eq!(Spread::of([]), None);
    }

    proptest::proptest! {
        #[test]
        fn values_sort_as_by_total_cmp(v in proptest::collection::vec(proptest::num::f64::ANY, 0..40)) {
            let mut ours = v.clone();
            sort_total(&mut ours);
            let mut std = v;
            std.sort_unstable_by(f64::total_cmp);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            proptest::prop_assert_eq!(bits(&ours), bits(&std));
        }
    }

    fn generation(index: usize, verdict: Option<Verdict>, tps: f64, done: bool) -> Generation {
        Generation {
            index,
            config: String::new(),
            url: "http://127.0.0.1:30000/v1/chat/completions".into(),
            model: "m".into(),
            prompt: index % 3,
            seed: Some(index as u64),
            verdict,
            onset: None,
            tokens: 8000,
            tokens_estimated: false,
            tokens_per_s: Some(tps),
            ttft_ms: Some(100.0 + index as f64),
            finish_reason: Some("length".into()),
            saw_done: done,
            error: verdict.is_none().then(|| "HTTP 500".into()),
            looped: verdict == Some(Verdict::Fail),
            incoherent: false,
        }
    }

    #[test]
    fn a_summary_keeps_looping_and_coherent_speeds_apart() {
        let mut runs: Vec<Generation> =
            (0..8).map(|i| generation(i, Some(Verdict::Pass), 40.0 + i as f64, true)).collect();
        runs.push(generation(8, Some(Verdict::Fail), 90.0, false));
        runs.push(generation(9, Some(Verdict::Warn), 45.0, true));
        runs.push(generation(10, None, 0.0, false));
        let s = SoakSummary::of(&runs);
        assert_eq!((s.judged, s.failed, s.fail.k, s.warn.k, s.without_done), (10, 1, 1, 1, 1));
        assert_eq!(s.speed_coherent.map(|x| (x.median, x.p90)), Some((43.0, 47.0)));
        assert_eq!(s.speed_looping.map(|x| x.median), Some(90.0));
        assert_eq!(s.ttft.map(|t| (t.n, t.median)), Some((11, 105.0)));
    }

    #[test]
    fn a_plan_rotates_the_prompts_and_gives_each_generation_its_seed() {
        let form = RequestForm {
            base_url: "http://127.0.0.1:30000/v1".into(),
            model: "mock-loops-25".into(),
            prompt: "own".into(),
            max_tokens: "100".into(),
            temperature: "0.6".into(),
            extra_json: r#"{"seed": 1, "top_p": 0.9}"#.into(),
        };
        let plan = plan(&form, &["p0".into(), "p1".into()], 3, 40).unwrap();
        let bodies: Vec<Value> =
            plan.iter().map(|p| serde_json::from_slice(p.request.body.as_bytes()).unwrap()).collect();
        assert_eq!(plan.iter().map(|p| (p.prompt, p.seed)).collect::<Vec<_>>(), [(0, 40), (1, 41), (0, 42)]);
        assert_eq!(bodies[1]["messages"][0]["content"], "p1");
        assert_eq!((bodies[2]["seed"].as_u64(), bodies[2]["top_p"].as_f64()), (Some(42), Some(0.9)));
        let own = super::plan(&form, &[], 1, 0).unwrap();
        assert!(own[0].request.body.contains("\"own\""));
        assert!(super::plan(&form, &[], 101, 0).unwrap_err().contains("1 to 100"));
        let other = RequestForm { base_url: "http://other:8000/v1".into(), ..form.clone() };
        let ab = plan_ab(&form, &other, &["p0".into(), "p1".into()], 2, 40).unwrap();
        let shape: Vec<_> = ab.iter().map(|p| (p.index, p.config, p.prompt, p.seed)).collect();
        assert_eq!(shape, [(0, "A", 0, 40), (1, "B", 0, 40), (2, "A", 1, 41), (3, "B", 1, 41)]);
        assert!(ab[1].request.url.starts_with("http://other:8000/v1/"));
        let broken = RequestForm { model: String::new(), ..form.clone() };
        assert!(plan_ab(&form, &broken, &[], 2, 0).unwrap_err().starts_with("B: Choose a model"));
        assert!(super::plan(&broken, &[], 2, 0).is_err());
    }

    #[test]
    fn a_generation_is_read_from_its_session_and_exported_without_the_key() {
        let form = RequestForm {
            base_url: "http://h/v1".into(),
            model: "m".into(),
            prompt: "p".into(),
            max_tokens: "10".into(),
            temperature: "0".into(),
            extra_json: String::new(),
        };
        let planned = plan(&form, &[], 1, 7).unwrap().remove(0);
        let mut session = LiveSession::new(0.0);
        session.headers(5.0);
        let line = |t: &str| format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{t:?}}}}}]}}\n\n");
        session.feed(line("Let me check the lock again.\n").as_bytes(), 20.0);
        for i in 0..60 {
            session.feed(line("Let me check the lock again.\n").as_bytes(), 21.0 + f64::from(i));
        }
        session.feed(
            b"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n",
            90.0,
        );
        session.end(Ending::Closed, 91.0);
        let g = Generation::of(&planned, "m", Ok(&session.snapshot()));
        assert_eq!((g.verdict, g.seed, g.ttft_ms, g.saw_done), (Some(Verdict::Fail), Some(7), Some(20.0), true));
        assert_eq!((g.finish_reason.as_deref(), g.error.as_deref()), (Some("length"), None));
        let refused = Generation::of(&planned, "m", Err("HTTP 500".into()));
        assert_eq!((refused.verdict, refused.error.as_deref()), (None, Some("HTTP 500")));
        let jsonl = export_jsonl(&[g, refused]);
        assert_eq!(jsonl.lines().count(), 2);
        assert!(jsonl.contains("\"url\":\"http://h/v1/chat/completions\"") && !jsonl.contains("Bearer"));
    }

    #[test]
    fn a_and_b_are_compared_in_a_sentence_that_respects_chance() {
        let side = |fails: usize, n: usize| {
            let runs: Vec<Generation> = (0..n)
                .map(|i| generation(i, Some(if i < fails { Verdict::Fail } else { Verdict::Pass }), 40.0, true))
                .collect();
            SoakSummary::of(&runs)
        };
        assert_eq!(
            compare(&side(1, 20), &side(12, 20)),
            "B loops more: 12/20 vs 1/20 (A's and B's 95 % intervals do not overlap)."
        );
        assert!(compare(&side(12, 20), &side(1, 20)).starts_with("A loops more: 12/20 vs 1/20"));
        assert_eq!(compare(&side(2, 20), &side(2, 20)), "A and B loop alike: 2/20 and 2/20.");
        let unsure = compare(&side(1, 20), &side(3, 20));
        assert!(unsure.starts_with("No clear difference: A 1/20, B 3/20"), "{unsure}");
        assert!(compare(&side(0, 0), &side(1, 2)).starts_with("Not enough generations"));
    }

    #[test]
    fn loops_and_gibberish_are_compared_apart() {
        // A loops on 12 of 20 generations; B writes gibberish on 12 of 20 and loops on 1.
        let a: Vec<Generation> = (0..20)
            .map(|i| generation(i, Some(if i < 12 { Verdict::Fail } else { Verdict::Pass }), 40.0, true))
            .collect();
        let b: Vec<Generation> = (0..20)
            .map(|i| Generation {
                looped: i == 0,
                incoherent: (1..13).contains(&i),
                ..generation(i, Some(if i < 13 { Verdict::Fail } else { Verdict::Pass }), 40.0, true)
            })
            .collect();
        let (a, b) = (SoakSummary::of(&a), SoakSummary::of(&b));
        assert_eq!((a.loops.k, a.gibberish.k, b.loops.k, b.gibberish.k), (12, 0, 1, 12));
        assert_eq!(
            compare(&a, &b),
            "A loops more: 12/20 vs 1/20 (the 95 % intervals do not overlap). \
             B writes gibberish more: 12/20 vs 0/20 (A's and B's 95 % intervals do not overlap)."
        );
    }

    #[test]
    fn a_soak_for_a_comparison_is_greedy_with_logprobs_on_the_same_seeds() {
        let a = RequestForm {
            base_url: "http://a/v1".into(),
            model: "m".into(),
            max_tokens: "64".into(),
            temperature: "0.7".into(),
            ..RequestForm::default()
        };
        let b = RequestForm { base_url: "http://b/v1".into(), ..a.clone() };
        let planned = for_comparison(plan_ab(&a, &b, &["one".into(), "two".into()], 3, 40).unwrap());
        assert_eq!(planned.len(), 6);
        for pair in planned.chunks(2) {
            let bodies: Vec<Value> =
                pair.iter().map(|p| serde_json::from_slice(p.request.body.as_bytes()).unwrap()).collect();
            for body in &bodies {
                assert_eq!((body["temperature"].as_f64(), body["logprobs"].as_bool()), (Some(0.0), Some(true)));
                assert_eq!(body["top_logprobs"].as_u64(), Some(COMPARE_TOP_LOGPROBS));
            }
            assert_eq!(bodies[0]["seed"], bodies[1]["seed"], "A and B on the same seed");
            assert_eq!(bodies[0]["messages"], bodies[1]["messages"], "and the same prompt");
            assert_eq!((pair[0].config, pair[1].config), ("A", "B"));
        }
    }

    #[test]
    fn the_reference_again_follows_each_reference_generation_with_the_same_request() {
        let a = RequestForm {
            base_url: "http://a/v1".into(),
            model: "m".into(),
            max_tokens: "8".into(),
            temperature: "0".into(),
            ..RequestForm::default()
        };
        let b = RequestForm { base_url: "http://b/v1".into(), ..a.clone() };
        let planned = with_reference_again(for_comparison(plan_ab(&a, &b, &["one".into()], 2, 7).unwrap()));
        let configs: Vec<&str> = planned.iter().map(|p| p.config).collect();
        assert_eq!(configs, ["A", "B", "R", "A", "B", "R"]);
        assert_eq!(planned.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
        assert_eq!((&planned[2].request, planned[2].seed), (&planned[1].request, planned[1].seed));
        assert_ne!(planned[1].seed, planned[4].seed);
    }
}
