//! A report the CLI saved (`coherency analyze --json`), opened in the page: for each file its
//! verdict, the worst judged text's reasons and checks, the conversations with findings across
//! turns and the messages worst first, as the CLI judged them. Such a report holds no text, so
//! the page says so and shows no highlights; nothing is analysed again.

use std::rc::Rc;

use yew::prelude::*;

use super::checks_table::{check_row, checks_head};
use crate::model::saved::SavedView;
use crate::model::{level_key, verdict_headline, verdict_icon};
use coherency_core::render::saved_report::{SavedAnalysis, SavedFile};
use coherency_core::wording::{bytes_text, plural, thousands};

/// Messages listed per file, worst first.
const MESSAGES_LISTED: usize = 50;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: Rc<SavedView>,
}

#[component]
pub fn SavedReportView(props: &Props) -> Html {
    let reports = &props.view.reports;
    let problems = reports.problems.iter().map(|d| {
        html! {
            <li data-line={d.line.map(|l| l.to_string())}>
                if let Some(l) = d.line { <span class="at">{ format!("Line {l}: ") }</span> }
                { &d.message }
            </li>
        }
    });
    html! {
        <section id="saved-report" aria-label="Saved report">
            <p id="saved-summary" class="status notice-line" role="status">
                { format!("{} ({}). It holds what the CLI found, not the texts: open a file itself to see its text with the highlights.", props.view.summary(), props.view.name) }
            </p>
            if !reports.problems.is_empty() {
                <section id="diagnostics" class="card" aria-label="Not read">
                    <h3>{ format!("Not read ({})", thousands(reports.problems.len())) }</h3>
                    <ul class="problems">{ for problems }</ul>
                </section>
            }
            { for reports.files.iter().map(file_view) }
        </section>
    }
}

fn file_view(file: &SavedFile) -> Html {
    let a = match &file.outcome {
        Ok(a) => a,
        Err(error) => {
            return html! {
                <article class="card saved-file" data-file={file.file.clone()}>
                    <h2>{ &file.file }</h2>
                    <p class="notice-line">{ format!("The CLI could not read it: {error}") }</p>
                </article>
            };
        }
    };
    let verdict = a.judged_verdict;
    let level = level_key(verdict);
    html! {
        <article class={classes!("card", "verdict-card", "saved-file", format!("verdict-{level}"))} data-file={file.file.clone()}>
            <div class="verdict-head">
                <div class={classes!("badge", "badge-big", level)} data-verdict={verdict.as_str()}>
                    <span class="badge-icon" aria-hidden="true">{ verdict_icon(verdict) }</span>
                    <span class="badge-text">{ verdict.as_str() }</span>
                </div>
                <div>
                    <h2>{ &file.file }</h2>
                    <p class="measured">{ what(a) }</p>
                    <p class="measured">{ verdict_headline(verdict, a.tripped()) }</p>
                </div>
            </div>
            <ul class="reasons" aria-label="Reasons">
                { for a.reasons.iter().map(|r| html! { <li>{ r }</li> }) }
            </ul>
            <div class="table-wrap">
                <table class="checks">
                    <caption>{ "Checks of the worst judged text" }</caption>
                    { checks_head() }
                    <tbody>{ for a.checks.iter().map(|c| check_row(c, &a.thresholds, None, "")) }</tbody>
                </table>
            </div>
            { findings(a) }
        </article>
    }
}

/// "request/response log (JSONL), 4.1 KB · 12 analysed texts · worst: conversation 0, turn 3".
fn what(a: &SavedAnalysis) -> String {
    let mut out = format!(
        "{}, {}",
        a.format.map_or("a format this page does not know", |f| f.label()),
        bytes_text(a.input_bytes)
    );
    if a.messages.len() > 1 {
        out += &format!(" · {}", plural(a.messages.len(), "analysed text", "analysed texts"));
        if let Some(worst) = a.messages.first() {
            out += &format!(" · worst: {} ({} {})", worst.place(), worst.role, worst.channel_text());
        }
    }
    if a.replaced_invalid_utf8 > 0 {
        out += &format!(
            " · {} replaced",
            plural(a.replaced_invalid_utf8, "invalid UTF-8 sequence", "invalid UTF-8 sequences")
        );
    }
    out
}

/// The conversations with findings across turns, then the messages worst first, a line each.
fn findings(a: &SavedAnalysis) -> Html {
    // A single text's conversation says again what its reasons say.
    let several = a.messages.len() > 1;
    let conversations = a.conversations.iter().filter(|c| several && !c.reasons.is_empty()).map(|c| {
        let from = c.onset_turn.map(|t| format!(" from turn {t}")).unwrap_or_default();
        (c.verdict, format!("conversation {}{from}, across turns: {}", c.conversation, c.reasons.join("; ")))
    });
    let shown = if several { MESSAGES_LISTED } else { 0 };
    let messages = a.messages.iter().take(shown).map(|m| {
        let why = if m.judged {
            m.reasons.first().map_or(String::new(), |r| format!(" · {r}"))
        } else {
            format!(" · {}", m.why)
        };
        (
            m.verdict,
            format!("{} · {} {} · {}{why}", m.place(), m.role, m.channel_text(), plural(m.bytes, "byte", "bytes")),
        )
    });
    let more = a.messages.len().saturating_sub(shown.max(1));
    let items = conversations.chain(messages).map(|(verdict, text)| {
        html! {
            <li data-verdict={verdict.as_str()}>
                <span class={classes!("badge", level_key(verdict))}>{ verdict.as_str() }</span>{ " " }{ text }
            </li>
        }
    });
    html! {
        <>
            <ul class="saved-findings" aria-label="Conversations and messages, worst first">{ for items }</ul>
            if more > 0 && shown > 0 { <p class="help">{ format!("… and {} more in the report.", plural(more, "message", "messages")) }</p> }
        </>
    }
}
