//! The analysed text, virtualised (the module doc of [`crate::text_view`] says how): this
//! component measures itself, keeps the scroll position, the current span and the place it was
//! asked to go, and renders the rows on screen, the navigation and the minimap.
//!
//! Hooks for tests and other components: `#analysed-text` is the scrolled box, each span's
//! first mark carries class `span`, `id="span-N"` and `data-kind` (when its row is rendered),
//! `#span-count[data-count]` holds the total, and [`TextLink::show`] (the link the page gives
//! it) scrolls to span N or to a byte.

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, ScrollLogicalPosition};
use yew::prelude::*;

use super::fragments::fragments;
use super::highlight::fragment;
use super::layout::Layout;
use super::legend::legend;
use super::minimap::{fraction_of, minimap, span_at_fraction, MAP_BUCKETS};
use super::navigation::{position_text, step, still_shown, Place};
use super::scrolling::{Measure, PAD};
use super::text_link::TextLink;
use crate::dom;
use crate::model::{level_key, span_count_text, Analysis};
use coherency_core::analyze::SpanKind;
use coherency_core::wording::thousands;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub analysis: Rc<Analysis>,
    /// The page's link to this view: others ask it to show a place through it.
    pub link: TextLink,
}

#[component]
pub fn HighlightedText(props: &Props) -> Html {
    let a = Rc::clone(&props.analysis);
    let spans = &a.report.spans;
    let link = &props.link;
    let scroller = use_node_ref();
    let probe = use_node_ref();
    let map = use_node_ref();
    // `None` until the view has measured itself: the text is laid out only then.
    let measured = use_state_eq(|| link.measure());
    let measure = measured.unwrap_or(Measure::GUESS);
    let scroll_top = use_state_eq(|| 0.0f64);
    let current = use_state_eq(|| None::<usize>);
    // Where to go, numbered per ask, and whether the view takes the focus there.
    let go = use_state_eq(|| None::<(Place, u64, bool)>);
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
    let minimap_marks = {
        let (layout, report) = (Rc::clone(&layout), Rc::clone(&a.report));
        use_memo((a.seq, measured.map(|m| m.cols)), move |_| minimap(&layout, &report.spans, MAP_BUCKETS))
    };
    let (box_h, geo) = measure.fit(layout.rows());

    // Measures the character and row size and the box, now and on every resize.
    {
        let (scroller, probe, measured, link) = (scroller.clone(), probe.clone(), measured.clone(), link.clone());
        use_effect_with((), move |_| {
            let measure_now = Rc::new(move || {
                let (Some(el), Some(p)) = (scroller.cast::<Element>(), probe.cast::<Element>()) else { return };
                let r = p.get_bounding_client_rect();
                let window_h =
                    web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(900.0);
                let Some(m) = Measure::from_probe(r.width() / 10.0, r.height(), el.client_width() as f64, window_h)
                else {
                    return;
                };
                link.set_measure(m);
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

    // Goes to a place; `focus`: and moves the focus into the text there.
    let go_focused = {
        let (go, nonce) = (go.clone(), nonce.clone());
        Callback::from(move |(target, focus): (Place, bool)| {
            let n = {
                let mut n = nonce.borrow_mut();
                *n += 1;
                *n
            };
            go.set(Some((target, n, focus)));
        })
    };
    let go_to = go_focused.reform(|target: Place| (target, false));

    // The page's link (the checks table, the onset button, the chart) comes here, and the focus
    // with it: the keys of the text (n, p) then work at once from there.
    {
        let link = link.clone();
        let go_from_page = go_focused.reform(|target: Place| (target, true));
        use_effect_with((), move |_| {
            let ticket = link.attach(go_from_page);
            move || link.detach(ticket)
        });
    }

    // Going somewhere: scroll the box so its row is centred, then (next render) reveal and flash.
    {
        let (scroller, scroll_top, current, flash, source_mark) =
            (scroller.clone(), scroll_top.clone(), current.clone(), flash.clone(), source_mark.clone());
        let (layout, report) = (Rc::clone(&layout), Rc::clone(&a.report));
        use_effect_with(*go, move |go| {
            let Some((target, n, focus)) = *go else { return };
            let byte = match target {
                Place::Span(i) => match report.spans.get(i) {
                    Some(s) => s.start,
                    None => return,
                },
                Place::Byte(b) => b,
            };
            if let Some(el) = scroller.cast::<Element>() {
                el.set_scroll_top((geo.scroll_top_centering(layout.row_of(byte)) + PAD).round() as i32);
                scroll_top.set(el.scroll_top() as f64);
                if focus {
                    if let Some(el) = el.dyn_ref::<web_sys::HtmlElement>() {
                        let _ = el.focus();
                    }
                }
                dom::scroll_to(&el, ScrollLogicalPosition::Nearest);
            }
            if let Place::Span(i) = target {
                current.set(Some(i));
                flash.set(Some((i, n)));
            } else {
                flash.set(None);
            }
            if matches!(target, Place::Span(_)) {
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

    let visible = geo.visible_rows(*scroll_top - PAD);
    // The current span counts only while the view still shows it; else steps start from the view.
    let view_from = layout.row_range(visible.first_visible).0;
    let view_to = layout.row_range(visible.end_visible.saturating_sub(1)).1;
    let shown = still_shown(spans, *current, view_from, view_to);
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
                go_to.emit(Place::Span(i));
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
    // Two at most, in byte order (the onset first at the same byte, as pushed).
    if markers.len() == 2 && markers[1].0 < markers[0].0 {
        markers.swap(0, 1);
    }
    let marker_bytes: Vec<usize> = markers.iter().map(|m| m.0).collect();
    let flashed = flash.map(|(i, _)| i);
    let rows = (visible.first..visible.end).map(|r| {
        let (s, e) = layout.row_range(r);
        let row = fragments(&a.text, &a.segments, spans, s, e, &marker_bytes);
        html! {
            <div key={r} class="vrow" data-start={s.to_string()}>
                { for row.iter().map(|f| fragment(&a.text, f, spans, &markers, flashed)) }
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
            go_to.emit(Place::Byte(src));
        });
        html! {
            <button type="button" id="copy-source" class="button chip" {onclick}>{ format!("↥ Copied from byte {}", thousands(src)) }</button>
        }
    });
    let tripped = a.report.tripped;
    let onset_button = onset.map(|o| {
        let go_to = go_to.clone();
        html! {
            <button type="button" id="text-onset" class="button chip" onclick={Callback::from(move |_: MouseEvent| go_to.emit(Place::Byte(o)))}
                title={coherency_core::analyze::onset_phrase(tripped, o)}>{ "⚑ Onset" }</button>
        }
    });
    let first = (!spans.is_empty()).then(|| {
        let go_to = go_to.clone();
        html! {
            <button type="button" id="show-first" class="button chip" onclick={Callback::from(move |_: MouseEvent| go_to.emit(Place::Span(0)))}>
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
                Some(i) => go_to.emit(Place::Span(i)),
                None => {
                    if let Some(el) = scroller.cast::<Element>() {
                        el.set_scroll_top((geo.scroll_top_at(fraction) + PAD).round() as i32);
                    }
                }
            }
        })
    };
    let map_marks = minimap_marks.iter().map(|m| {
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
                    <p id="span-count" class="span-count" data-count={spans.len().to_string()}>{ span_count_text(spans.len(), a.report.spans_not_listed) }</p>
                    { for first }
                </div>
            </div>
            if !spans.is_empty() { { legend() } }
            // Previous and Next only when there is somewhere to go.
            if !spans.is_empty() {
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
            }
            <div class="vtext">
                <div id="analysed-text" ref={scroller.clone()} class="text vtext-scroll" tabindex="0" role="region" style={format!("height:{}px", box_h + 2.0)}
                    aria-label="The analysed text with repeated spans highlighted" data-rows={layout.rows().to_string()}
                    {onscroll} {onkeydown} onclick={onclick_text}>
                    <div class="vtext-spacer" style={format!("height:{}px", (geo.extent() + 2.0 * PAD).ceil())}>
                        <div class="vtext-rows" style={format!("transform:translateY({}px)", visible.top_px + PAD)}>{ for rows }</div>
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
