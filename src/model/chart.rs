//! Geometry of the windowed-ratio chart: the compression ratio of each window along the text as
//! a polyline, the degenerate threshold as a line, the onset as a marker, and the byte under a
//! click. Pure (no browser types), unit-tested natively; the component only draws it.

use coherency_core::analyze::ProfileFigure;

/// Chart width and height in SVG user units (the SVG scales to its box).
pub const WIDTH: f64 = 600.0;
pub const HEIGHT: f64 = 120.0;
/// At most this many points are drawn; windows are pooled into buckets, keeping each bucket's
/// lowest ratio so a short loop stays visible on a long text.
pub const MAX_POINTS: usize = 300;

/// What the chart draws.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartGeometry {
    /// The polyline's `points` attribute.
    pub points: String,
    /// The y of the degenerate threshold.
    pub threshold_y: f64,
    /// The top of the y axis (a ratio).
    pub y_max: f64,
    /// The x of the onset, if any.
    pub onset_x: Option<f64>,
    /// Windows below the threshold, as x ranges (drawn as a band under the curve).
    pub degenerate: Vec<(f64, f64)>,
}

/// Fewer windows than this make no profile worth drawing (two or three points say nothing the
/// figures do not): the page then shows no chart.
pub const MIN_WINDOWS: usize = 4;

/// The chart of `p` for a text of `bytes` bytes, the marker at `onset` (the report's onset,
/// which the page names elsewhere; the profile's own is only window-precise).
pub fn geometry(p: &ProfileFigure, bytes: usize, onset: Option<usize>) -> Option<ChartGeometry> {
    if p.windows.len() < MIN_WINDOWS || bytes == 0 {
        return None;
    }
    let top = p.windows.iter().map(|w| w.1).fold(0.0, f64::max);
    // Room above prose's usual 0.3–0.6, and never so low that the threshold hugs the top.
    let y_max = (top * 1.1).clamp(0.25, 1.1);
    let x = |byte: usize| byte as f64 / bytes as f64 * WIDTH;
    let y = |ratio: f64| HEIGHT - (ratio / y_max).min(1.0) * HEIGHT;
    let per_bucket = p.windows.len().div_ceil(MAX_POINTS);
    let mut points = String::new();
    for (k, bucket) in p.windows.chunks(per_bucket).enumerate() {
        let low = bucket.iter().map(|w| w.1).fold(f64::INFINITY, f64::min);
        // Each bucket is drawn at its middle.
        let end = p.windows.get((k + 1) * per_bucket).map_or(bytes, |w| w.0);
        let mid = (bucket[0].0 + end) / 2;
        if !points.is_empty() {
            points.push(' ');
        }
        points.push_str(&format!("{:.1},{:.1}", x(mid), y(low)));
    }
    let mut degenerate: Vec<(f64, f64)> = Vec::new();
    for (i, w) in p.windows.iter().enumerate() {
        if w.1 >= p.degenerate_below {
            continue;
        }
        let (a, b) = (x(w.0), x(p.windows.get(i + 1).map_or(bytes, |n| n.0)));
        match degenerate.last_mut() {
            Some(last) if (last.1 - a).abs() < 1e-9 => last.1 = b,
            _ => degenerate.push((a, b)),
        }
    }
    Some(ChartGeometry { points, threshold_y: y(p.degenerate_below), y_max, onset_x: onset.map(x), degenerate })
}

/// The byte offset under `x` (in SVG units), on a window start so the text view can go there.
pub fn byte_at(p: &ProfileFigure, bytes: usize, x: f64) -> usize {
    let target = (x / WIDTH).clamp(0.0, 1.0) * bytes as f64;
    let i = p.windows.partition_point(|w| (w.0 as f64) <= target).saturating_sub(1);
    p.windows.get(i).map_or(0, |w| w.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use coherency_core::analyze::analyze;

    fn profile(windows: Vec<(usize, f64)>, onset: Option<usize>) -> ProfileFigure {
        ProfileFigure { window: 4096, degenerate_below: 0.08, windows, onset, min_ratio: 0.0, tail_share: 0.0 }
    }

    #[test]
    fn a_loop_after_prose_drops_below_the_line_at_the_onset() {
        let p = profile(vec![(0, 0.5), (4096, 0.45), (8192, 0.02), (12288, 0.02)], Some(8000));
        let g = geometry(&p, 16384, p.onset).unwrap();
        assert_eq!(g.points, "75.0,10.9 225.0,21.8 375.0,115.6 525.0,115.6");
        assert!((g.threshold_y - (HEIGHT - 0.08 / 0.55 * HEIGHT)).abs() < 1e-9);
        assert_eq!(g.onset_x, Some(8000.0 / 16384.0 * WIDTH));
        assert_eq!(g.degenerate, vec![(300.0, 600.0)]);
        assert_eq!(byte_at(&p, 16384, 0.0), 0);
        assert_eq!(byte_at(&p, 16384, 310.0), 8192);
        assert_eq!(byte_at(&p, 16384, 9999.0), 12288);
    }

    #[test]
    fn one_window_is_no_chart_and_long_texts_are_pooled_keeping_the_lowest() {
        let three = profile(vec![(0, 0.4), (4096, 0.4), (8192, 0.4)], None);
        assert_eq!(geometry(&three, 12000, None), None);
        let windows: Vec<(usize, f64)> = (0..1000).map(|i| (i * 4096, if i == 501 { 0.01 } else { 0.4 })).collect();
        let g = geometry(&profile(windows, None), 1000 * 4096, None).unwrap();
        let ys: Vec<f64> = g.points.split(' ').map(|p| p.split(',').nth(1).unwrap().parse().unwrap()).collect();
        assert_eq!(ys.len(), 250, "4 windows per point");
        assert_eq!(ys.iter().filter(|&&y| y > 100.0).count(), 1, "the one degenerate window survives pooling");
    }

    #[test]
    fn the_core_profile_of_a_late_loop_has_its_onset_on_the_chart() {
        let text = format!(
            "{}{}",
            "Prose that wanders through memory, pages and queues, never quite the same. ".to_string()
                + &(0..400).map(|i| format!("word{i} ")).collect::<String>(),
            "Let me check the file again. ".repeat(600)
        );
        let r = analyze(&text);
        let g = geometry(&r.metrics.profile, r.bytes, r.onset).unwrap();
        let onset = g.onset_x.expect("an onset");
        assert!(onset > 0.0 && onset < WIDTH / 2.0, "{onset}");
        assert!(!g.degenerate.is_empty());
    }
}
