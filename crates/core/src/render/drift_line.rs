//! The drift rule's series in one line, for the text, Markdown and HTML reports (the page draws
//! it as a chart): the topic words looked for, their share per window as a strip of blocks
//! (`·` a window with none), and where none comes back any more. Only where drift is judged
//! (the report has a drift figure); the drift check's row and sentence say the rest.

use crate::analyze::{DriftFigure, Report};
use crate::wording::{percent, thousands};

/// Characters of the strip at most: windows are pooled beyond it.
pub const STRIP_MAX: usize = 48;

/// Block heights, lowest first, for a share above 0 (a window with none is `·`).
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The strip of `d`'s windows: each character a window (or the mean of a few, pooled), its
/// height the share against the highest; `·` where none of the pooled windows has a topic word.
pub fn strip(d: &DriftFigure) -> String {
    let top = d.windows.iter().map(|w| w.1).fold(0.0, f64::max);
    let per = d.windows.len().div_ceil(STRIP_MAX).max(1);
    d.windows
        .chunks(per)
        .map(|c| {
            let mean = c.iter().map(|w| w.1).sum::<f64>() / c.len() as f64;
            if mean <= 0.0 || top <= 0.0 {
                '·'
            } else {
                BLOCKS[((mean / top * 8.0).ceil() as usize).clamp(1, 8) - 1]
            }
        })
        .collect()
}

/// The line for `report`, if drift is judged: "topic words along the text ('kernel', 'pages';
/// share per 512 B window, highest 20 %): ▇▅▅▁····· — none from byte 1,810 to the end (61 %)".
/// Words from the input are as they are: the caller escapes the line for where it goes.
pub fn drift_line(report: &Report) -> Option<String> {
    let d = report.metrics.drift.as_ref()?;
    if d.windows.is_empty() || report.bytes == 0 {
        return None;
    }
    let topic = d.topic.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(", ");
    let prompt = match d.prompt_words {
        0 => String::new(),
        n => format!(" and the prompt's {n}"),
    };
    let per = d.windows.len().div_ceil(STRIP_MAX).max(1);
    let window =
        if per == 1 { format!("{} B", thousands(d.window)) } else { format!("{} B", thousands(d.window * per)) };
    let top = d.windows.iter().map(|w| w.1).fold(0.0, f64::max);
    let tail = report.bytes.saturating_sub(d.tail);
    Some(format!(
        "topic words along the text ({topic}{prompt}; share per {window} window, highest {}): {} — none from byte {} to the end ({})",
        percent(top),
        strip(d),
        thousands(d.tail),
        percent(tail as f64 / report.bytes as f64)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::analyze;

    fn figure(windows: Vec<(usize, f64)>) -> DriftFigure {
        DriftFigure { topic: vec!["kernel".into()], prompt_words: 0, opening: 900, window: 512, windows, tail: 1810 }
    }

    #[test]
    fn the_strip_is_a_block_per_window_and_a_dot_where_none_comes_back() {
        let d = figure(vec![(0, 0.2), (512, 0.1316), (1024, 0.122), (1536, 0.0256), (2048, 0.0), (2560, 0.0)]);
        assert_eq!(strip(&d), "█▆▅▂··");
        // Pooled past STRIP_MAX: still a dot only where every pooled window has none.
        let long: Vec<(usize, f64)> = (0..200).map(|i| (i * 512, if i < 101 { 0.1 } else { 0.0 })).collect();
        let s = strip(&figure(long));
        assert_eq!(s.chars().count(), 40, "5 windows a character");
        assert_eq!(s.chars().filter(|&c| c == '·').count(), 19, "{s}");
    }

    #[test]
    fn the_drift_sample_s_line_and_none_where_drift_is_not_judged() {
        let text = crate::samples::samples().into_iter().find(|s| s.id == "drift").expect("the sample").text;
        let line = drift_line(&analyze(&text)).expect("judged");
        assert!(line.starts_with("topic words along the text ('kernel', 'pages', 'memory'"), "{line}");
        assert!(line.contains("share per 512 B window, highest 20 %"), "{line}");
        assert!(line.ends_with("····· — none from byte 1,810 to the end (61 %)"), "{line}");
        assert_eq!(drift_line(&analyze(&"- a list item of some length\n".repeat(300))), None);
        assert_eq!(drift_line(&analyze("short")), None);
    }

    #[test]
    fn the_markdown_and_html_reports_carry_the_line_once_where_drift_is_judged() {
        use crate::judge::JudgedDocument;
        use crate::render::{html::html, markdown::markdown, DocumentSummary};
        let text = crate::samples::samples().into_iter().find(|s| s.id == "drift").expect("the sample").text;
        let doc = JudgedDocument::read(text.as_bytes(), None);
        let summary = DocumentSummary::new("drift.txt", &doc.transcript, &doc.report);
        let (md, page) = (markdown(&summary), html(&summary));
        assert_eq!(md.matches("\nDrift: topic words along the text (").count(), 1, "{md}");
        assert!(md.contains("none from byte 1,810 to the end (61 %)."), "{md}");
        assert_eq!(page.matches("<p id=\"drift-line\">Drift: topic words along the text (&#39;kernel&#39;").count(), 1);
        let loop_text = "Let me check the file again. ".repeat(400);
        let doc = JudgedDocument::read(loop_text.as_bytes(), None);
        let summary = DocumentSummary::new("loop.txt", &doc.transcript, &doc.report);
        assert!(!markdown(&summary).contains("Drift:") && !html(&summary).contains("drift-line"));
    }
}
