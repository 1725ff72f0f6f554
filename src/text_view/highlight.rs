//! The page's one highlight element: a `<mark>` per span around a stretch of text, with the
//! span's kind and level as classes and data attributes, the `id` of the span's first mark and
//! its tooltip. The text view renders its row fragments through it ([`fragment`], loop copies
//! banded, markers before them), the live mode its whole segments ([`segment`]); the legend's
//! swatches take its classes ([`mark_classes`]).

use std::ops::Range;

use yew::prelude::*;

use super::fragments::{Band, Fragment};
use crate::model::{kind_key, level_key, span_title, Segment};
use coherency_core::analyze::{Span, SpanKind, Verdict};
use coherency_core::wording::thousands;

/// One span's mark around a stretch of text.
#[derive(Clone, Copy, Default)]
struct Mark {
    /// Index into the report's spans.
    span: usize,
    /// The stretch starts the span: the mark gets class `span` and an `id`.
    first: bool,
    /// A loop's band of copies this stretch is in.
    band: Option<Band>,
    /// The innermost mark inside a banded loop (and not itself banded) shows the loop's band.
    bar: Option<Band>,
    flash: bool,
}

/// The classes of a highlight of `kind` at `level`: `hl`, `span` on a span's first mark,
/// `k-KIND`, `l-LEVEL`, then `extra`.
pub fn mark_classes(kind: SpanKind, level: Verdict, first: bool, extra: Classes) -> Classes {
    classes!("hl", first.then_some("span"), format!("k-{}", kind_key(kind)), format!("l-{}", level_key(level)), extra)
}

/// `text[range]` inside one `<mark>` per entry of `marks`, innermost first; the first mark of
/// span N gets `id="{id_prefix}span-N"`. Marks of spans not in `spans` are left out.
fn highlight(
    text: &str,
    range: Range<usize>,
    marks: &mut dyn Iterator<Item = Mark>,
    spans: &[Span],
    id_prefix: &str,
) -> Html {
    let mut node = Html::from(text.get(range).unwrap_or_default().to_string());
    for m in marks {
        let Some(span) = spans.get(m.span) else { continue };
        let parity = |b: Band, odd, even| if b.odd() { odd } else { even };
        let extra = classes!(
            m.flash.then_some("flash"),
            m.band.map(|b| parity(b, "band-odd", "band-even")),
            m.bar.map(|b| parity(b, "bar-odd", "bar-even"))
        );
        let class = mark_classes(span.kind, span.level, m.first, extra);
        let index = m.span.to_string();
        let id = m.first.then(|| format!("{id_prefix}span-{index}"));
        let title = match m.band {
            Some(b) => format!("{} · {}", span_title(span), b.describe(span.count)),
            None => span_title(span),
        };
        node = html! {
            <mark {class} {id} data-span={index} data-kind={kind_key(span.kind)} data-level={span.level.as_str()}
                data-band={m.band.map(|b| b.index.to_string())} {title}>{ node }</mark>
        };
    }
    node
}

/// One segment of `text` inside its marks (the live mode renders whole texts this way).
pub fn segment(text: &str, seg: &Segment, spans: &[Span], id_prefix: &str) -> Html {
    let mut marks = seg.layers.iter().rev().map(|l| Mark { span: l.span, first: l.first, ..Mark::default() });
    highlight(text, seg.start..seg.end, &mut marks, spans, id_prefix)
}

/// One fragment of a row inside its marks, after its marker (onset, copy source) if any. The
/// band of the innermost loop shows on the innermost mark, above any other background; the
/// marks of span `flashed` keep class `flash` (rows re-rendered while scrolling keep it).
pub fn fragment(
    text: &str,
    f: &Fragment,
    spans: &[Span],
    markers: &[(usize, &'static str)],
    flashed: Option<usize>,
) -> Html {
    let band = f.layers.iter().rev().find_map(|l| l.band);
    let innermost = f.layers.len().saturating_sub(1);
    let mut marks = f.layers.iter().enumerate().rev().map(|(depth, l)| Mark {
        span: l.span,
        first: l.first,
        band: l.band,
        bar: band.filter(|_| depth == innermost && l.band.is_none()),
        flash: flashed == Some(l.span),
    });
    let node = highlight(text, f.start..f.end, &mut marks, spans, "");
    match f.marker.and_then(|m| markers.get(m)) {
        Some(&(byte, "onset")) => html! {
            <>
                <span class="marker onset-mark" role="img" aria-label={format!("onset: byte {byte}")} data-byte={byte.to_string()}
                    title={format!("Onset: where the text starts to go wrong (byte {})", thousands(byte))}></span>
                { node }
            </>
        },
        Some(&(byte, _)) => html! {
            <>
                <span class="marker source-mark" role="img" aria-label={format!("copy source: byte {byte}")} data-byte={byte.to_string()}
                    title={format!("The copied text starts here (byte {})", thousands(byte))}></span>
                { node }
            </>
        },
        None => node,
    }
}
