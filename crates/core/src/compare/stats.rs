//! The few statistics a comparison states, each with a 95 % interval: a median (a
//! distribution-free interval from order statistics), a share (Wilson's interval), a mean
//! (Student's t), and a trend as Spearman's rank correlation (Fisher's z with Fieller's
//! variance 1.06 / (n − 3)). Plain arithmetic on slices, checked against naive oracles.

/// A figure with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// How many values it is made from.
    pub n: usize,
}

/// The values sorted (NaN-free input assumed; NaNs sort last).
fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v
}

/// The median of `values` with quartiles, and a distribution-free 95 % interval: the order
/// statistics `x(j)`, `x(k)` with P(j ≤ B < k) ≥ 95 % for B ~ Binomial(n, ½) (the interval
/// widens to the extremes when n is too small to reach 95 %).
pub fn median(values: &[f64]) -> Option<(Estimate, f64, f64)> {
    let v = sorted(values);
    let n = v.len();
    if n == 0 {
        return None;
    }
    let quantile = |q: f64| {
        let pos = q * (n - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
    };
    // The largest j (1-based) with P(B < j) ≤ 2.5 %, B ~ Binomial(n, ½).
    let mut cumulative = 0.0;
    let mut j = 0;
    for i in 0..n {
        cumulative += binomial_half(n, i);
        if cumulative > 0.025 {
            break;
        }
        j = i + 1;
    }
    let low = if j == 0 { v[0] } else { v[j - 1] };
    let high = if j == 0 { v[n - 1] } else { v[n - j] };
    Some((Estimate { value: quantile(0.5), low, high, n }, quantile(0.25), quantile(0.75)))
}

/// P(B = i) for B ~ Binomial(n, ½), in logs so that large n does not overflow.
fn binomial_half(n: usize, i: usize) -> f64 {
    let ln_choose = ln_factorial(n) - ln_factorial(i) - ln_factorial(n - i);
    (ln_choose - n as f64 * std::f64::consts::LN_2).exp()
}

fn ln_factorial(n: usize) -> f64 {
    (2..=n).map(|k| (k as f64).ln()).sum()
}

/// The share `k / n` with Wilson's 95 % interval.
pub fn share(k: usize, n: usize) -> Option<Estimate> {
    if n == 0 {
        return None;
    }
    let (z, nf) = (1.96f64, n as f64);
    let p = k as f64 / nf;
    let centre = (p + z * z / (2.0 * nf)) / (1.0 + z * z / nf);
    let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / (1.0 + z * z / nf);
    Some(Estimate { value: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0), n })
}

/// Student's t for a two-sided 95 % interval with `df` degrees of freedom.
fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => T[df - 1],
        31..=60 => 2.00,
        61..=120 => 1.98,
        _ => 1.96,
    }
}

/// The mean of `values` with Student's 95 % interval (of zero width for one value: no spread
/// can be measured from one).
pub fn mean(values: &[f64]) -> Option<Estimate> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let m = values.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Some(Estimate { value: m, low: m, high: m, n });
    }
    let var = values.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
    let half = t95(n - 1) * (var / n as f64).sqrt();
    Some(Estimate { value: m, low: m - half, high: m + half, n })
}

/// Ranks from 1, ties given their average rank.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Pearson's correlation; `None` when either side does not vary.
fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Spearman's rank correlation of `x` and `y` (the same length), with a 95 % interval from
/// Fisher's z (variance 1.06 / (n − 3)). `None` under 4 pairs or when a side does not vary.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<Estimate> {
    let n = x.len().min(y.len());
    if n < 4 {
        return None;
    }
    let rho = pearson(&ranks(&x[..n]), &ranks(&y[..n]))?;
    let z = rho.clamp(-0.999_999, 0.999_999).atanh();
    let half = 1.96 * (1.06 / (n as f64 - 3.0)).sqrt();
    Some(Estimate { value: rho, low: (z - half).tanh(), high: (z + half).tanh(), n })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spearman's rho from its textbook formula, for data without ties.
    fn naive_spearman(x: &[f64], y: &[f64]) -> f64 {
        let rank = |v: &[f64], i: usize| 1.0 + v.iter().filter(|&&o| o < v[i]).count() as f64;
        let n = x.len() as f64;
        let d2: f64 = (0..x.len()).map(|i| (rank(x, i) - rank(y, i)).powi(2)).sum();
        1.0 - 6.0 * d2 / (n * (n * n - 1.0))
    }

    fn lcg(state: &mut u64) -> f64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*state >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn spearman_equals_the_textbook_formula_without_ties() {
        let mut rng_state = 3;
        for n in [4, 5, 10, 37, 200] {
            let x: Vec<f64> = (0..n).map(|_| lcg(&mut rng_state)).collect();
            let y: Vec<f64> = x.iter().map(|v| v * 0.5 + lcg(&mut rng_state)).collect();
            let got = spearman(&x, &y).unwrap();
            assert!((got.value - naive_spearman(&x, &y)).abs() < 1e-9, "n {n}");
            assert!(got.low <= got.value && got.value <= got.high);
        }
        let up: Vec<f64> = (0..20).map(f64::from).collect();
        assert!((spearman(&up, &up).unwrap().value - 1.0).abs() < 1e-12);
        assert!(spearman(&up, &[1.0; 20]).is_none(), "a side that does not vary");
        assert!(spearman(&up[..3], &up[..3]).is_none());
    }

    #[test]
    fn ties_get_their_average_rank() {
        assert_eq!(ranks(&[10.0, 20.0, 10.0, 5.0]), vec![2.5, 4.0, 2.5, 1.0]);
    }

    #[test]
    fn the_median_interval_covers_the_median_as_often_as_it_says() {
        // Sorted-list oracle for the median; coverage of the interval over many samples.
        let mut rng_state = 11;
        let mut covered = 0;
        let trials = 2000;
        for _ in 0..trials {
            let v: Vec<f64> = (0..25).map(|_| lcg(&mut rng_state)).collect();
            let (m, q1, q3) = median(&v).unwrap();
            let s = sorted(&v);
            assert_eq!(m.value, s[12]);
            assert!(q1 <= m.value && m.value <= q3 && m.low <= m.value && m.value <= m.high);
            // The true median of U(0,1) is ½.
            if m.low <= 0.5 && 0.5 <= m.high {
                covered += 1;
            }
        }
        let rate = covered as f64 / trials as f64;
        assert!((0.94..=0.99).contains(&rate), "coverage {rate}");
        let (one, _, _) = median(&[4.0]).unwrap();
        assert_eq!((one.value, one.low, one.high), (4.0, 4.0, 4.0));
        assert_eq!(median(&[1.0, 2.0, 3.0, 4.0]).unwrap().0.value, 2.5);
        assert!(median(&[]).is_none());
    }

    #[test]
    fn shares_and_means_against_direct_sums() {
        let s = share(0, 10).unwrap();
        assert_eq!((s.value, s.low), (0.0, 0.0));
        assert!((s.high - 0.2775).abs() < 1e-3, "Wilson's upper bound for 0/10 is 0.2775: {}", s.high);
        let s = share(5, 10).unwrap();
        assert!((s.low - 0.2366).abs() < 1e-3 && (s.high - 0.7634).abs() < 1e-3);
        let m = mean(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        // sd = 1.29099, se = 0.645497, t(3) = 3.182.
        assert!((m.value - 2.5).abs() < 1e-12 && (m.high - (2.5 + 3.182 * 0.645_497)).abs() < 1e-4);
        assert!(mean(&[]).is_none() && share(1, 0).is_none());
    }
}
