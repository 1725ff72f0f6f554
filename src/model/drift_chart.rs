//! Geometry of the drift chart: the drift rule's series — the share of each window's words
//! that are topic words (the opening's, and the prompt's for a reply to one) — as a step line
//! along the text, the opening whose topic words are counted as a band, the tail where none
//! comes back as a band, the drift onset as a marker when the drift check WARNs, and the byte
//! under a click. Pure (no browser types), unit-tested natively; the component only draws it.

use coherency_core::analyze::DriftFigure;

pub use super::chart::{HEIGHT, WIDTH};

/// What the chart draws.
#[derive(Clone, Debug, PartialEq)]
pub struct DriftGeometry {
    /// The step line's `points` attribute: each window a level stretch over its bytes.
    pub points: String,
    /// The top of the y axis (a share, 0..=1; the axis starts at 0).
    pub y_max: f64,
    /// The opening whose topic words are counted, as an x range from 0.
    pub opening_x: f64,
    /// The tail where no topic word comes back, as an x range to the end.
    pub tail: (f64, f64),
    /// The x of the drift onset (the tail's start) when the drift check tripped.
    pub onset_x: Option<f64>,
}

/// Fewer windows than this make no series worth drawing.
pub const MIN_WINDOWS: usize = 2;

/// The chart of `d` for a text of `bytes` bytes; the onset marked when `tripped` (the drift
/// check WARNs: its span starts at the tail). `None` when there is nothing to draw.
pub fn geometry(d: &DriftFigure, bytes: usize, tripped: bool) -> Option<DriftGeometry> {
    if d.windows.len() < MIN_WINDOWS || bytes == 0 {
        return None;
    }
    let top = d.windows.iter().map(|w| w.1).fold(0.0, f64::max);
    // Room above the highest window; never so low that a few topic words fill the chart.
    let y_max = (top * 1.1).clamp(0.05, 1.0);
    let x = |byte: usize| byte.min(bytes) as f64 / bytes as f64 * WIDTH;
    let y = |share: f64| HEIGHT - (share / y_max).min(1.0) * HEIGHT;
    let mut points = String::new();
    for (i, w) in d.windows.iter().enumerate() {
        let end = d.windows.get(i + 1).map_or(bytes, |n| n.0);
        if !points.is_empty() {
            points.push(' ');
        }
        points.push_str(&format!("{:.1},{:.1} {:.1},{:.1}", x(w.0), y(w.1), x(end), y(w.1)));
    }
    Some(DriftGeometry {
        points,
        y_max,
        opening_x: x(d.opening),
        tail: (x(d.tail), WIDTH),
        onset_x: tripped.then(|| x(d.tail)),
    })
}

/// The byte offset under `x` (in SVG units): the start of the window there, so the text view
/// can go to it.
pub fn byte_at(d: &DriftFigure, bytes: usize, x: f64) -> usize {
    let target = (x / WIDTH).clamp(0.0, 1.0) * bytes as f64;
    let i = d.windows.partition_point(|w| (w.0 as f64) <= target).saturating_sub(1);
    d.windows.get(i).map_or(0, |w| w.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::{analyze, Metric, Verdict};

    fn figure(windows: Vec<(usize, f64)>, opening: usize, tail: usize) -> DriftFigure {
        DriftFigure { topic: vec!["kernel".into()], prompt_words: 0, opening, window: 1000, windows, tail }
    }

    #[test]
    fn each_window_is_a_level_step_and_the_onset_is_marked_only_when_tripped() {
        let d = figure(vec![(0, 0.2), (1000, 0.1), (2000, 0.0), (3000, 0.0)], 800, 1500);
        let g = geometry(&d, 4000, true).unwrap();
        // y_max 0.22: 0.2 at 120 − 0.2/0.22·120 = 10.9.
        assert_eq!(
            g.points,
            "0.0,10.9 150.0,10.9 150.0,65.5 300.0,65.5 300.0,120.0 450.0,120.0 450.0,120.0 600.0,120.0"
        );
        assert!((g.y_max - 0.22).abs() < 1e-9);
        assert_eq!(g.opening_x, 120.0);
        assert_eq!(g.tail, (225.0, 600.0));
        assert_eq!(g.onset_x, Some(225.0));
        assert_eq!(geometry(&d, 4000, false).unwrap().onset_x, None);
        assert_eq!(byte_at(&d, 4000, 0.0), 0);
        assert_eq!(byte_at(&d, 4000, 160.0), 1000);
        assert_eq!(byte_at(&d, 4000, 9999.0), 3000);
        assert_eq!(geometry(&figure(vec![(0, 0.2)], 800, 900), 1000, false), None, "one window says nothing");
        // A few topic words do not fill the chart: the axis goes to 5 % at least.
        let low = geometry(&figure(vec![(0, 0.01), (1000, 0.0)], 800, 1500), 2000, false).unwrap();
        assert_eq!(low.y_max, 0.05);
    }

    /// A paragraph of `words` between function words, as the core's drift tests write them.
    fn paragraph(words: &[&str], variant: usize) -> String {
        let mut s = String::new();
        for i in 0..60 {
            s.push_str(["the", "and", "of", "to", "is", "a"][(i * 7 + variant) % 6]);
            s.push(' ');
            s.push_str(words[(i * 5 + variant * 3) % words.len()]);
            s.push_str(if i % 12 == 11 { ". " } else { " " });
        }
        s.push_str("\n\n");
        s
    }

    const KERNEL: &[&str] = &["kernel", "scheduler", "memory", "pages", "threads", "latency", "cache", "reclaim"];
    const COOKING: &[&str] = &["butter", "onions", "garlic", "simmer", "saucepan", "pepper", "flour", "dough"];

    #[test]
    fn the_core_series_of_a_drifting_text_falls_to_the_floor_at_its_marked_onset() {
        let mut text: String = (0..5).map(|k| paragraph(KERNEL, k)).collect();
        text.extend((0..11).map(|k| paragraph(COOKING, k)));
        let r = analyze(&text);
        assert_eq!(r.check(Metric::Drift).level, Verdict::Warn);
        let d = r.metrics.drift.as_ref().expect("judged");
        let g = geometry(d, r.bytes, true).unwrap();
        let onset = g.onset_x.expect("marked");
        assert!(onset > 0.0 && onset < WIDTH / 2.0, "{onset}");
        // Every step right of the onset's window lies on the floor.
        let xs_ys: Vec<(f64, f64)> = g
            .points
            .split(' ')
            .map(|p| p.split_once(',').unwrap())
            .map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap()))
            .collect();
        let window = d.window as f64 / r.bytes as f64 * WIDTH;
        assert!(xs_ys.iter().filter(|p| p.0 > onset + window).all(|p| p.1 == HEIGHT), "{}", g.points);
        assert!(xs_ys.iter().filter(|p| p.0 < onset - window).all(|p| p.1 < HEIGHT), "{}", g.points);
        // An essay that keeps its subject: judged, never on the floor, no onset.
        let essay: String = (0..16).map(|k| paragraph(KERNEL, k)).collect();
        let r = analyze(&essay);
        assert_eq!(r.check(Metric::Drift).level, Verdict::Pass);
        let d = r.metrics.drift.as_ref().expect("judged");
        assert!(d.windows.iter().all(|w| w.1 > 0.1));
        // Structured text is not judged: no figure, no chart.
        let list: String =
            (0..200).map(|k| format!("- item {k}: the {} of the part under review\n", KERNEL[k % 8])).collect();
        assert_eq!(analyze(&list).metrics.drift, None);
    }
}
