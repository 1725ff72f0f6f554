//! Probes A–G, one button: each request is sent in turn to the endpoint in the form, judged by
//! `coherency_core::live::probes`, and its line (PASS / FAIL / SKIP with the evidence) appears as soon as
//! it is known. Probe D is judged from every reply seen (`live::reasoning_probe`): the probes'
//! own completion and stream, and the long run's and the soak's streams, which the panel
//! collects ([`ReasoningSeen`]).

use yew::prelude::*;

use super::fetch;
use super::probes_state::{ProbesAction, ProbesState};
use super::run::{self, NoStream};
use coherency_core::live::probes::{
    completion_body, probe_bad_key, probe_completion, probe_models, probe_stream, probe_tools, stream_body, tool_body,
    unreachable, ProbeOutcome, ProbeResult, BAD_KEY, PROBES,
};
use coherency_core::live::reasoning_probe::{reply_placement, ReasoningEvidence};
use coherency_core::live::{chat_url, explain_fetch_failure, models_url, LiveStats, PROBE_TIMEOUT_MS};
use coherency_core::stream::ReasoningPlacement;

/// A stream of the live panel ended: what it showed of the reasoning, for probe D.
pub enum ReasoningSeen {
    LongRun(ReasoningPlacement),
    SoakStarted,
    SoakGeneration(ReasoningPlacement),
}

impl ReasoningSeen {
    /// Adds what was seen to `evidence`.
    pub fn add_to(self, evidence: &mut ReasoningEvidence) {
        match self {
            ReasoningSeen::LongRun(p) => evidence.long_run = Some(p),
            ReasoningSeen::SoakStarted => evidence.soak_started(),
            ReasoningSeen::SoakGeneration(p) => evidence.soak_generation(&p),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub base_url: AttrValue,
    pub model: AttrValue,
    /// The user's API key (may be empty); sent as a header only.
    pub api_key: AttrValue,
    /// What the long run and the soak showed of the reasoning (probe D's other evidence).
    pub streamed: ReasoningEvidence,
}

#[component]
pub fn LiveProbes(props: &Props) -> Html {
    let state = use_reducer(ProbesState::default);
    let (results, running, own) = (&state.results, state.running, &state.own);

    let run = {
        let dispatcher = state.dispatcher();
        let (base, model, key) =
            (props.base_url.to_string(), props.model.trim().to_string(), props.api_key.to_string());
        Callback::from(move |_: MouseEvent| {
            if running {
                return;
            }
            if model.is_empty() {
                let why = "Choose a model first: the checks ask for it by name.".to_string();
                return dispatcher.dispatch(ProbesAction::Refused(why));
            }
            dispatcher.dispatch(ProbesAction::Started);
            let (base, model, key, dispatcher) = (base.clone(), model.clone(), key.clone(), dispatcher.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let add = |new: Vec<ProbeResult>| dispatcher.dispatch(ProbesAction::Found(new));
                add(vec![models(&base, &model, &key).await]);
                let (checks, reply) = completion(&base, &model, &key).await;
                dispatcher
                    .dispatch(ProbesAction::Own(ReasoningEvidence { reply: reply.clone(), ..Default::default() }));
                add(checks);
                add(vec![tools(&base, &model, &key).await]);
                let (check, probe_stream) = streaming(&base, &model, &key).await;
                dispatcher.dispatch(ProbesAction::Own(ReasoningEvidence { reply, probe_stream, ..Default::default() }));
                add(vec![check]);
                add(vec![bad_key(&base, &model).await]);
                dispatcher.dispatch(ProbesAction::Ended);
            });
        })
    };

    let reasoning = ReasoningEvidence {
        reply: own.reply.clone(),
        probe_stream: own.probe_stream.clone(),
        ..props.streamed.clone()
    };
    let d = reasoning.judge();
    let items = PROBES.iter().map(|(id, title)| {
        let found = d.as_ref().filter(|_| *id == 'D').or_else(|| results.iter().find(|r| r.id == *id));
        let (outcome, evidence) = match found {
            Some(r) => (r.outcome.as_str(), r.evidence.clone()),
            None if running => ("…", "waiting".to_string()),
            None => ("", String::new()),
        };
        let class = match found.map(|r| r.outcome) {
            Some(ProbeOutcome::Pass) => "pass",
            Some(ProbeOutcome::Fail) => "fail",
            Some(ProbeOutcome::Skip) => "skip",
            None => "pending",
        };
        html! {
            <li data-check={id.to_string()} data-outcome={outcome}>
                <span class={classes!("badge", class)}>{ if outcome.is_empty() { "–" } else { outcome } }</span>
                <strong>{ format!(" {id} ") }</strong>{ *title }
                if !evidence.is_empty() { <div class="help evidence">{ evidence }</div> }
            </li>
        }
    });
    html! {
        <section id="live-checks" class="subsection" aria-labelledby="live-checks-heading" data-running={running.to_string()}>
            <h3 id="live-checks-heading">{ "Endpoint health checks" }</h3>
            <div class="actions">
                <button type="button" id="live-run-checks" class="button" onclick={run} disabled={running}>{ "Run checks A–G" }</button>
                <span class="help">{ "Five short requests to the endpoint above (one with a made-up key, to see that it is refused)." }</span>
            </div>
            if let Some(n) = state.note.clone() { <p id="live-checks-note" class="status notice-line">{ n }</p> }
            <ol class="checklist">{ for items }</ol>
        </section>
    }
}

fn no_response(url: &str, e: &wasm_bindgen::JsValue) -> String {
    explain_fetch_failure(url, &fetch::page_origin(), &fetch::error_text(e))
}

async fn get(method: &str, url: &str, body: Option<&str>, key: &str) -> Result<(u16, String), String> {
    let r = fetch::send(method, url, body, key, Some(&fetch::timeout_signal(PROBE_TIMEOUT_MS)))
        .await
        .map_err(|e| no_response(url, &e))?;
    Ok((r.status(), fetch::text(&r).await.map_err(|e| fetch::error_text(&e))?))
}

async fn models(base: &str, model: &str, key: &str) -> ProbeResult {
    let u = models_url(base);
    match get("GET", &u, None, key).await {
        Ok((status, body)) => probe_models(status, &body, model),
        Err(why) => unreachable('A', &why),
    }
}

/// B, C and D, and where the reply put its reasoning (`None` when there was no reply).
async fn completion(
    base: &str,
    model: &str,
    key: &str,
) -> (Vec<ProbeResult>, Option<Result<ReasoningPlacement, String>>) {
    let u = chat_url(base);
    match get("POST", &u, Some(&completion_body(model)), key).await {
        Ok((status, body)) => (probe_completion(status, &body, model).to_vec(), Some(reply_placement(status, &body))),
        Err(why) => (['B', 'C', 'D'].iter().map(|id| unreachable(*id, &why)).collect(), None),
    }
}

async fn tools(base: &str, model: &str, key: &str) -> ProbeResult {
    let u = chat_url(base);
    match get("POST", &u, Some(&tool_body(model)), key).await {
        Ok((status, body)) => probe_tools(status, &body),
        Err(why) => unreachable('E', &why),
    }
}

/// F, and where the stream put its reasoning.
async fn streaming(base: &str, model: &str, key: &str) -> (ProbeResult, Option<ReasoningPlacement>) {
    let u = chat_url(base);
    let signal = fetch::timeout_signal(PROBE_TIMEOUT_MS);
    match run::stream(&u, &stream_body(model), key, Some(&signal), &|| false, None).await {
        Ok(s) => (probe_stream(s.status, &s.snapshot.stats, s.ended_ms - s.started_ms), Some(s.snapshot.placement)),
        // An error status fails on the status alone.
        Err(NoStream::Refused { status, .. }) => (probe_stream(status, &LiveStats::default(), 0.0), None),
        Err(e) => (unreachable('F', &e.text(&u)), None),
    }
}

async fn bad_key(base: &str, model: &str) -> ProbeResult {
    let u = chat_url(base);
    let response = match fetch::send(
        "POST",
        &u,
        Some(&completion_body(model)),
        BAD_KEY,
        Some(&fetch::timeout_signal(PROBE_TIMEOUT_MS)),
    )
    .await
    {
        Ok(r) => r,
        Err(e) => return unreachable('G', &no_response(&u, &e)),
    };
    let allow = response.headers().get("access-control-allow-origin").ok().flatten();
    let cors = match allow {
        Some(a) => format!("CORS: Access-Control-Allow-Origin: {a}."),
        None => format!(
            "CORS: the server let this page ({}) read its responses, so it allows this origin (the header itself is not exposed to the page).",
            fetch::page_origin()
        ),
    };
    match fetch::text(&response).await {
        Ok(body) => probe_bad_key(response.status(), &body, &cors),
        Err(e) => unreachable('G', &fetch::error_text(&e)),
    }
}
