//! Sharing what the page shows: the result link for a document's input (the core's
//! `render::result_link`), the report's file name, and what the page says about each.

use coherency_core::render::result_link::MAX_LINK_CHARS;
use coherency_core::wording::thousands;

use super::document::Document;
use super::Source;
use crate::file_load::load_view::size_text;

/// Inputs larger than this get no link without trying: compressing them would hold the page
/// up, and few would fit [`MAX_LINK_CHARS`] anyway.
pub const MAX_LINKED_INPUT: usize = 8 << 20;

/// Why an input of `size` bytes gets no link without trying, if it does not.
pub fn too_big_for_a_link(size: usize) -> Option<String> {
    (size > MAX_LINKED_INPUT).then(|| {
        format!(
            "No link: the input is {}, and a link holds 32,000 characters — a few hundred KB of looping text compressed, far less of varied text. Download the report instead.",
            size_text(size)
        )
    })
}

/// The result link on the page at `page_url` (its fragment replaced) whose fragment (made in
/// the analysis worker: `render::result_link::encode`, `loader::make_link`) is `fragment`.
pub fn result_link(page_url: &str, fragment: &str) -> String {
    format!("{}#{fragment}", page_url.split('#').next().unwrap_or_default())
}

/// What the page says once a link is made: copied, or left in the address bar to copy.
pub fn link_made(url: &str, copied: bool) -> String {
    let chars = url.len();
    // The one-file page opened from disk: its links name a file on this machine.
    if url.starts_with("file:") {
        let made = if copied { "Link copied" } else { "The link is in the address bar" };
        return format!(
            "{made} ({} characters), but it opens only on this computer: it names this page's file on this disk. To share, use a link from the page served over http(s), or download the report.",
            thousands(chars)
        );
    }
    if copied {
        format!(
            "Link copied ({} characters). It carries the input itself, compressed, after the # — which browsers never send to a server.",
            thousands(chars)
        )
    } else {
        format!("The link is in the address bar ({} characters): copy it from there.", thousands(chars))
    }
}

/// What the page says when the input is too long for a link.
pub fn link_too_long(chars: usize) -> String {
    format!(
        "No link: this input makes {} characters, over the {} that chat messages and browsers carry reliably (a Slack message holds 40,000). Download the report and attach it instead.",
        thousands(chars),
        thousands(MAX_LINK_CHARS)
    )
}

/// What the page says once the Markdown is copied, or downloaded when copying was refused.
pub fn markdown_copied(text: &str, copied: bool) -> String {
    let lines = thousands(text.lines().count());
    if copied {
        format!("Markdown copied ({lines} lines): paste it into an issue or a chat.")
    } else {
        format!("The browser did not allow copying: the Markdown ({lines} lines) was downloaded instead.")
    }
}

/// What the page says once the report is downloaded.
pub fn report_downloaded(file: &str, bytes: usize) -> String {
    format!("Downloaded {file} ({}): one file, readable offline and with JavaScript off.", size_text(bytes))
}

/// What the page says once the JSON report is downloaded.
pub fn json_downloaded(file: &str, bytes: usize) -> String {
    format!("Downloaded {file} ({}): the CLI's --json report, which this page opens again.", size_text(bytes))
}

/// A downloaded report's file name, `ext` its extension: "coherency-report-vllm.sse.html",
/// "coherency-report.json".
pub fn report_file_name(doc: &Document, ext: &str) -> String {
    match &doc.source {
        Source::File(name) => {
            let safe: String = name
                .chars()
                .map(|c| if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' })
                .collect();
            format!("coherency-report-{safe}.{ext}")
        }
        _ => format!("coherency-report.{ext}"),
    }
}

/// The name the report goes by: the file's, or what the input was.
pub fn report_name(doc: &Document) -> String {
    doc.source.name()
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::Thresholds;
    use coherency_core::ingest::Format;
    use coherency_core::render::result_link::{self, SharedInput};
    use std::rc::Rc;

    #[test]
    fn a_link_holds_the_input_after_the_pages_address() {
        let text = "Let me check again.\n".repeat(300);
        let shared = SharedInput {
            bytes: text.clone().into_bytes(),
            format: Some(Format::Text),
            selected: Some(0),
            thresholds: Thresholds::SEED,
        };
        let url = result_link("https://example.org/tools/coherency/?x=1#old", &result_link::encode(&shared).unwrap());
        let (page, fragment) = url.split_once('#').unwrap();
        assert_eq!(page, "https://example.org/tools/coherency/?x=1");
        let back = result_link::decode(fragment).unwrap();
        assert_eq!((back.bytes, back.format, back.selected), (text.into_bytes(), Some(Format::Text), Some(0)));
        assert!(link_made(&url, true).starts_with(&format!("Link copied ({} characters)", url.len())));
        assert!(link_made(&url, false).contains("address bar"));
    }

    #[test]
    fn a_long_input_gets_no_link_and_the_page_says_why() {
        let mut x = 9u64;
        let noise: Vec<u8> = (0..60_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b'a' + (x % 26) as u8
            })
            .collect();
        let shared = SharedInput { bytes: noise, format: None, selected: None, thresholds: Thresholds::SEED };
        let chars = result_link::encode(&shared).unwrap_err();
        let said = link_too_long(chars);
        assert!(
            said.contains(&thousands(chars)) && said.contains("32,000") && said.contains("Download the report"),
            "{said}"
        );
    }

    #[test]
    fn the_reports_and_what_is_said_of_them() {
        // The reports themselves are made in the analysis worker (its `export`).
        let md = "### Coherency Analyzer: **FAIL** · pasted text\n\nline\n";
        assert!(markdown_copied(md, true).starts_with(&format!("Markdown copied ({} lines)", md.lines().count())));
        assert!(markdown_copied(md, false).contains("downloaded instead"));
        assert_eq!(too_big_for_a_link(100), None);
        let refusal = too_big_for_a_link(9 << 20).unwrap_or_default();
        assert!(refusal.starts_with("No link: the input is 9.4 MB, and a link holds 32,000 characters"), "{refusal}");
        assert!(
            link_made("file:///home/me/coherency-analyzer.html#v1;d=x", true).contains("opens only on this computer")
        );
        assert!(report_downloaded("r.html", 2048).contains("(2.0 KB)"));
    }

    #[test]
    fn the_json_report_is_named_and_said() {
        assert!(json_downloaded("r.json", 2048).contains("(2.0 KB)"));
    }

    #[test]
    fn report_names_are_safe_file_names() {
        let doc = |source: Source| Document::read(1, source, Rc::from(&b"hello there, some text"[..]), None);
        assert_eq!(
            report_file_name(&doc(Source::File("my log (1).jsonl".into())), "html"),
            "coherency-report-my_log__1_.jsonl.html"
        );
        assert_eq!(report_file_name(&doc(Source::Input), "json"), "coherency-report.json");
        assert_eq!(report_name(&doc(Source::Sample("line-loop"))), "sample line-loop");
    }
}
