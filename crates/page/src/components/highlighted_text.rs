//! The analysed text, virtualised: only the rows on screen are in the page, however long the
//! text (a single 50 MB line included), with every flagged span highlighted, loop copies
//! banded, copies of earlier text marked, the onset marked, a minimap of where the spans are,
//! and next / previous span buttons (keys `n` / `j` and `p` / `k` in the text). The geometry
//! and the pieces come from `text_window`; this component measures, scrolls and renders.
//!
//! Hooks for tests and other components: `#analysed-text` is the scrolled box, each span's
//! first piece carries class `span`, `id="span-N"` and `data-kind` (when its row is rendered),
//! `#span-count[data-count]` holds the total, and `dom::show_span(N)` scrolls to span N.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, ScrollLogicalPosition};
use yew::prelude::*;

use super::legend::Legend;
use crate::dom;
use crate::model::{kind_key, level_key, span_count_text, span_title, Analysis, Segment};
use crate::text_window::{
    fraction_of, minimap, pieces, position_text, span_at_fraction, step, Geometry, Layout, Piece,
};
use coherency_core::analyze::{Span, SpanKind};
use coherency_core::wording::thousands;

/// Slots of the minimap.
const MAP_BUCKETS: usize = 240;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
}

/// What the view measured: columns that fit, the row height and the visible height, in px.
#[derive(Clone, Copy, PartialEq)]
struct Measure {
    cols: usize,
    row_h: f64,
    /// The tallest the box may be (70 % of the window, at most 640 px).
    max_h: f64,
}

/// Space above and below the rows inside the box, in px.
const PAD: f64 = 6.0;

/// Where to go: a span (by index) or a byte (the onset or a copy's source), with a counter so
/// going to the same place twice scrolls and flashes again.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    Span(usize),
    Byte(usize),
}

thread_local! {
    static TOKENS: Cell<u64> = const { Cell::new(0) };
    /// The last measurement, so a view mounted for a new text lays it out once, at the right
    /// width, instead of at a guess and again (a 50 MB text takes a noticeable moment).
    static LAST_MEASURE: Cell<Option<Measure>> = const { Cell::new(None) };
}

#[component]
pub fn HighlightedText(props: &Props) -> Html {
    let a = Rc::clone(&props.analysis);
    let spans = &a.report.spans;
    let scroller = use_node_ref();
    let probe = use_node_ref();
    let map = use_node_ref();
    // `None` until the view has measured itself: the text is laid out only then.
    let measured = use_state_eq(|| LAST_MEASURE.with(Cell::get));
    let measure = measured.unwrap_or(Measure { cols: 100, row_h: 22.0, max_h: 600.0 });
    let scroll_top = use_state_eq(|| 0.0f64);
    let current = use_state_eq(|| None::<usize>);
    let go = use_state_eq(|| None::<(Target, u64)>);
    let flash = use_state_eq(|| None::<(usize, u64)>);
    let source_mark = use_state_eq(|| None::<usize>);
    let nonce = use_mut_ref(|| 0u64);

    let layout = {
        let text = Rc::clone(&a.text);
        let cols = measured.map(|m| m.cols);
        use_memo((a.seq, cols), move |&(_, cols)| match cols {
            Some(cols) => Layout::new(&text, cols),
            None => Layout::new("", 100),
        })
    };
    let marks = {
        let (layout, report) = (Rc::clone(&layout), Rc::clone(&a.report));
        use_memo((a.seq, measured.map(|m| m.cols)), move |_| minimap(&layout, &report.spans, MAP_BUCKETS))
    };
    // The box is as tall as the text, up to `max_h`; the rows scroll inside it (its 1 px
    // borders come on top).
    let box_h = measure.max_h.min(layout.rows() as f64 * measure.row_h + 2.0 * PAD).max(measure.row_h + 2.0 * PAD);
    let geo = Geometry { rows: layout.rows(), row_h: measure.row_h, view_h: box_h - 2.0 * PAD };

    // Measures the character and row size and the box, now and on every resize.
    {
        let (scroller, probe, measured) = (scroller.clone(), probe.clone(), measured.clone());
        use_effect_with((), move |_| {
            let measure_now = Rc::new(move || {
                let (Some(el), Some(p)) = (scroller.cast::<Element>(), probe.cast::<Element>()) else { return };
                let r = p.get_bounding_client_rect();
                let char_w = r.width() / 10.0;
                let row_h = r.height();
                if !(char_w > 0.0 && row_h > 0.0) {
                    return;
                }
                let usable = (el.client_width() as f64 - 28.0).max(char_w * 8.0);
                let cols = ((usable / char_w).floor() as usize).clamp(8, 2000);
                let inner =
                    web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(900.0);
                let m = Measure { cols, row_h, max_h: (inner * 0.7).clamp(160.0, 640.0) };
                LAST_MEASURE.with(|last| last.set(Some(m)));
                measured.set(Some(m));
            });
            measure_now();
            let on_resize = {
                let measure_now = Rc::clone(&measure_now);
                Closure::<dyn Fn()>::new(move || measure_now())
            };
            let window = web_sys::window();
            if let Some(w) = &window {
                let _ = w.add_event_listener_with_callback("resize", on_resize.as_ref().unchecked_ref());
            }
            move || {
                if let Some(w) = window {
                    let _ = w.remove_event_listener_with_callback("resize", on_resize.as_ref().unchecked_ref());
                }
                drop(on_resize);
            }
        });
    }

    // A new text starts at its top, with no span picked.
    {
        let (scroller, scroll_top, current, source_mark) =
            (scroller.clone(), scroll_top.clone(), current.clone(), source_mark.clone());
        use_effect_with(a.seq, move |_| {
            if let Some(el) = scroller.cast::<Element>() {
                el.set_scroll_top(0);
            }
            scroll_top.set(0.0);
            current.set(None);
            source_mark.set(None);
        });
    }

    let go_to = {
        let (go, nonce) = (go.clone(), nonce.clone());
        Callback::from(move |target: Target| {
            let n = {
                let mut n = nonce.borrow_mut();
                *n += 1;
                *n
            };
            go.set(Some((target, n)));
        })
    };

    // `dom::show_span(N)` and `dom::show_byte` (the checks table, the chart) come here.
    {
        let go_to = go_to.clone();
        use_effect_with((), move |_| {
            let token = TOKENS.with(|t| {
                t.set(t.get() + 1);
                t.get()
            });
            let show = Callback::from(move |place: dom::Place| {
                go_to.emit(match place {
                    dom::Place::Span(i) => Target::Span(i),
                    dom::Place::Byte(b) => Target::Byte(b),
                })
            });
            dom::register_span_view(token, show);
            move || dom::unregister_span_view(token)
        });
    }

    // Going somewhere: scroll the box so its row is centred, then (next render) reveal and flash.
    {
        let (scroller, scroll_top, current, flash, source_mark) =
            (scroller.clone(), scroll_top.clone(), current.clone(), flash.clone(), source_mark.clone());
        let (layout, report) = (Rc::clone(&layout), Rc::clone(&a.report));
        use_effect_with(*go, move |go| {
            let Some((target, n)) = *go else { return };
            let byte = match target {
                Target::Span(i) => match report.spans.get(i) {
                    Some(s) => s.start,
                    None => return,
                },
                Target::Byte(b) => b,
            };
            if let Some(el) = scroller.cast::<Element>() {
                el.set_scroll_top((geo.scroll_top_centering(layout.row_of(byte)) + PAD).round() as i32);
                scroll_top.set(el.scroll_top() as f64);
                dom::scroll_to(&el, ScrollLogicalPosition::Nearest);
            }
            if let Target::Span(i) = target {
                current.set(Some(i));
                flash.set(Some((i, n)));
            } else {
                flash.set(None);
            }
            if matches!(target, Target::Span(_)) {
                source_mark.set(None);
            }
        });
    }
    {
        let scroller = scroller.clone();
        use_effect_with(*flash, move |flash| {
            let Some((i, _)) = *flash else { return };
            let Some(root) = scroller.cast::<Element>() else { return };
            if let Ok(Some(first)) = root.query_selector(&format!("#span-{i}")) {
                dom::scroll_to(&first, ScrollLogicalPosition::Center);
            }
            dom::flash_span(&root, i);
        });
    }

    let onscroll = {
        let (scroll_top, scroller) = (scroll_top.clone(), scroller.clone());
        Callback::from(move |_: Event| {
            if let Some(el) = scroller.cast::<Element>() {
                scroll_top.set(el.scroll_top() as f64);
            }
        })
    };

    let win = geo.window(*scroll_top - PAD);
    // The current span counts only while the view still shows it; else steps start from the view.
    let view_from = layout.row_range(win.first_visible).0;
    let view_to = layout.row_range(win.end_visible.saturating_sub(1)).1;
    let shown =
        current.filter(|&c| spans.get(c).is_some_and(|s| s.start < view_to.max(view_from + 1) && s.end >= view_from));
    // A step not yet rendered: two key presses in one frame must make two steps.
    let pending = use_mut_ref(|| None::<usize>);
    {
        let pending = Rc::clone(&pending);
        // Rendered, or the view moved: steps start from what is shown again.
        use_effect_with((*current, *scroll_top), move |_| *pending.borrow_mut() = None);
    }
    let stepper = |forward: bool| {
        let (go_to, spans_rc, pending) = (go_to.clone(), Rc::clone(&a.report), Rc::clone(&pending));
        move || {
            let from = pending.borrow().or(shown);
            if let Some(i) = step(&spans_rc.spans, from, view_from, forward) {
                *pending.borrow_mut() = Some(i);
                go_to.emit(Target::Span(i));
            }
        }
    };
    let (next, prev) = (stepper(true), stepper(false));
    let onkeydown = {
        let (next, prev) = (next.clone(), prev.clone());
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            match e.key().as_str() {
                "n" | "j" => {
                    e.prevent_default();
                    next();
                }
                "p" | "k" => {
                    e.prevent_default();
                    prev();
                }
                _ => {}
            }
        })
    };
    // A click on a highlight makes its span the current one (the innermost span clicked).
    let onclick_text = {
        let current = current.clone();
        Callback::from(move |e: MouseEvent| {
            let mark = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|t| t.closest("[data-span]").ok().flatten());
            if let Some(i) = mark.and_then(|m| m.get_attribute("data-span")).and_then(|v| v.parse().ok()) {
                current.set(Some(i));
            }
        })
    };

    let onset = a.report.onset.filter(|&o| o < a.text.len());
    let mut markers: Vec<(usize, &'static str)> = Vec::new();
    if let Some(o) = onset {
        markers.push((o, "onset"));
    }
    if let Some(s) = *source_mark {
        markers.push((s, "source"));
    }
    markers.sort_unstable();
    let marker_bytes: Vec<usize> = markers.iter().map(|m| m.0).collect();
    let flashed = flash.map(|(i, _)| i);
    let rows = (win.first..win.end).map(|r| {
        let (s, e) = layout.row_range(r);
        let ps = pieces(&a.text, &a.segments, spans, s, e, &marker_bytes);
        html! {
            <div key={r} class="vrow" data-start={s.to_string()}>
                { for ps.iter().map(|p| piece(&a.text, p, spans, &markers, flashed)) }
            </div>
        }
    });

    let nav_button = |id: &'static str, label: &'static str, keys: &'static str, act: Rc<dyn Fn()>| {
        html! {
            <button type="button" {id} class="button chip" aria-keyshortcuts={keys} disabled={spans.is_empty()}
                onclick={Callback::from(move |_: MouseEvent| act())}>{ label }</button>
        }
    };
    let current_copy = shown.and_then(|c| spans.get(c)).filter(|s| s.kind == SpanKind::Copy).and_then(|s| s.source);
    let source_button = current_copy.map(|src| {
        let (go_to, source_mark) = (go_to.clone(), source_mark.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            source_mark.set(Some(src));
            go_to.emit(Target::Byte(src));
        });
        html! {
            <button type="button" id="copy-source" class="button chip" {onclick}>{ format!("↥ Copied from byte {}", thousands(src)) }</button>
        }
    });
    let onset_button = onset.map(|o| {
        let go_to = go_to.clone();
        html! {
            <button type="button" id="text-onset" class="button chip" onclick={Callback::from(move |_: MouseEvent| go_to.emit(Target::Byte(o)))}
                title={format!("The text turns degenerate at byte {}", thousands(o))}>{ "⚑ Onset" }</button>
        }
    });
    let first = (!spans.is_empty()).then(|| {
        let go_to = go_to.clone();
        html! {
            <button type="button" id="show-first" class="button chip" onclick={Callback::from(move |_: MouseEvent| go_to.emit(Target::Span(0)))}>
                { "↧ Show the first" }
            </button>
        }
    });

    // The minimap: marks by level, the onset, the visible part; a click scrolls there.
    let onmapclick = {
        let (go_to, scroller, layout, report) =
            (go_to.clone(), scroller.clone(), Rc::clone(&layout), Rc::clone(&a.report));
        let map = map.clone();
        // (Not the event's current target: Yew delegates events to the app's root.)
        Callback::from(move |e: MouseEvent| {
            let Some(map) = map.cast::<Element>() else { return };
            // Marks are placed in the padding box: measure from inside the border.
            let (top, height) =
                (map.get_bounding_client_rect().top() + map.client_top() as f64, map.client_height() as f64);
            if height <= 0.0 {
                return;
            }
            let fraction = ((e.client_y() as f64 - top) / height).clamp(0.0, 1.0);
            match span_at_fraction(&layout, &report.spans, fraction, MAP_BUCKETS) {
                Some(i) => go_to.emit(Target::Span(i)),
                None => {
                    if let Some(el) = scroller.cast::<Element>() {
                        el.set_scroll_top((geo.scroll_top_at(fraction) + PAD).round() as i32);
                    }
                }
            }
        })
    };
    let map_marks = marks.iter().map(|m| {
        html! {
            <div class={classes!("map-mark", level_key(m.level))} style={format!("top:{:.3}%;height:{:.3}%", m.top * 100.0, m.height * 100.0)}></div>
        }
    });
    let map_onset = onset.map(|o| {
        html! { <div class="map-onset" style={format!("top:{:.3}%", fraction_of(&layout, o) * 100.0)}></div> }
    });
    let (thumb_top, thumb_h) = geo.thumb(*scroll_top);

    html! {
        <section class="card text-card" aria-labelledby="text-heading">
            <div class="text-head">
                <h2 id="text-heading">{ "The analysed text" }</h2>
                <div class="text-tools">
                    <p id="span-count" class="span-count" data-count={spans.len().to_string()}>{ span_count_text(spans.len()) }</p>
                    { for first }
                </div>
            </div>
            if !spans.is_empty() { <Legend /> }
            <div class="span-nav" role="group" aria-label="Flagged spans">
                { nav_button("prev-span", "↑ Previous", "p k", Rc::new(prev)) }
                <span id="span-position" class="span-position" aria-live="polite" data-current={shown.map(|c| c.to_string())}>
                    { position_text(shown, spans.len()) }
                </span>
                { nav_button("next-span", "↓ Next", "n j", Rc::new(next)) }
                { for onset_button }
                { for source_button }
                <span class="help nav-help">{ "Keys in the text: n / j next, p / k previous." }</span>
            </div>
            <div class="vtext">
                <div id="analysed-text" ref={scroller.clone()} class="text vtext-scroll" tabindex="0" role="region" style={format!("height:{}px", box_h + 2.0)}
                    aria-label="The analysed text with repeated spans highlighted" data-rows={layout.rows().to_string()}
                    {onscroll} {onkeydown} onclick={onclick_text}>
                    <div class="vtext-spacer" style={format!("height:{}px", (geo.extent() + 2.0 * PAD).ceil())}>
                        <div class="vtext-rows" style={format!("transform:translateY({}px)", win.top_px + PAD)}>{ for rows }</div>
                    </div>
                </div>
                <div id="minimap" ref={map} class="minimap" style={format!("height:{}px", box_h + 2.0)} aria-hidden="true" onclick={onmapclick} title="Where the flagged spans are: click to go there">
                    { for map_marks }
                    { for map_onset }
                    <div class="map-thumb" style={format!("top:{:.3}%;height:{:.3}%", thumb_top * 100.0, thumb_h * 100.0)}></div>
                </div>
                <span ref={probe} class="vtext-probe" aria-hidden="true">{ "0000000000" }</span>
            </div>
        </section>
    }
}

/// One piece of a row inside its `<mark>`s, after its marker (onset, copy source) if any.
/// The pieces of span `flashed` keep class `flash` (rows re-rendered while scrolling keep it).
fn piece(text: &str, p: &Piece, spans: &[Span], markers: &[(usize, &'static str)], flashed: Option<usize>) -> Html {
    let mut node = Html::from(text.get(p.start..p.end).unwrap_or_default().to_string());
    // The band of the innermost loop shows on the innermost mark, above any other background.
    let band = p.layers.iter().rev().find_map(|l| l.band);
    for (depth, layer) in p.layers.iter().enumerate().rev() {
        let Some(span) = spans.get(layer.span) else { continue };
        let innermost = depth + 1 == p.layers.len();
        let class = classes!(
            "hl",
            layer.first.then_some("span"),
            format!("k-{}", kind_key(span.kind)),
            format!("l-{}", level_key(span.level)),
            (flashed == Some(layer.span)).then_some("flash"),
            layer.band.map(|b| if b.odd() { "band-odd" } else { "band-even" }),
            (innermost && layer.band.is_none())
                .then(|| band.map(|b| if b.odd() { "bar-odd" } else { "bar-even" }))
                .flatten()
        );
        let index = layer.span.to_string();
        let id = layer.first.then(|| format!("span-{index}"));
        let title = match layer.band {
            Some(b) => format!("{} · {}", span_title(span), b.describe(span.count)),
            None => span_title(span),
        };
        node = html! {
            <mark {class} {id} data-span={index} data-kind={kind_key(span.kind)} data-level={span.level.as_str()}
                data-band={layer.band.map(|b| b.index.to_string())} {title}>{ node }</mark>
        };
    }
    match p.marker.and_then(|m| markers.get(m)) {
        Some(&(byte, "onset")) => html! {
            <>
                <span class="marker onset-mark" role="img" aria-label={format!("onset: byte {byte}")} data-byte={byte.to_string()}
                    title={format!("Onset: the text turns degenerate here (byte {})", thousands(byte))}></span>
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

/// One segment of `text` inside its `<mark>`s (the live view renders whole texts this way); the
/// first piece of span N gets `id="{id_prefix}span-N"`.
pub(crate) fn segment(text: &str, seg: &Segment, spans: &[Span], id_prefix: &str) -> Html {
    let mut node = Html::from(text.get(seg.start..seg.end).unwrap_or_default().to_string());
    for layer in seg.layers.iter().rev() {
        let Some(span) = spans.get(layer.span) else { continue };
        let class = classes!(
            "hl",
            layer.first.then_some("span"),
            format!("k-{}", kind_key(span.kind)),
            format!("l-{}", level_key(span.level))
        );
        let index = layer.span.to_string();
        let id = layer.first.then(|| format!("{id_prefix}span-{index}"));
        node = html! {
            <mark {class} {id} data-span={index} data-kind={kind_key(span.kind)} data-level={span.level.as_str()}
                title={span_title(span)}>{ node }</mark>
        };
    }
    node
}
