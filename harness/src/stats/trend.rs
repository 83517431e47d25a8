//! A slow drift: the Theil-Sen slope (median of the pairwise slopes; Theil 1950,
//! Sen 1968) and the Mann-Kendall test of a monotonic trend (normal
//! approximation with the tie-corrected variance). Pure functions, no I/O.

use statrs::distribution::{ContinuousCDF, Normal};

/// Theil-Sen line of `y` against its index: `(slope, intercept)`, the
/// intercept being the median of `y[i] - slope * i`. `None` below two points.
pub fn theil_sen(y: &[f64]) -> Option<(f64, f64)> {
    let n = y.len();
    if n < 2 {
        return None;
    }
    let mut slopes = Vec::with_capacity(n * (n - 1) / 2);
    for i in 0..n {
        for j in (i + 1)..n {
            slopes.push((y[j] - y[i]) / (j - i) as f64);
        }
    }
    let slope = super::median(&slopes)?;
    let rest: Vec<f64> = y.iter().enumerate().map(|(i, v)| v - slope * i as f64).collect();
    Some((slope, super::median(&rest)?))
}

/// Mann-Kendall test of `y` (in index order): `(S, two-sided p-value)`.
/// `None` below three points or when every value is equal.
pub fn mann_kendall(y: &[f64]) -> Option<(i64, f64)> {
    let n = y.len();
    if n < 3 {
        return None;
    }
    let mut s: i64 = 0;
    for i in 0..n {
        for j in (i + 1)..n {
            s += match y[j].partial_cmp(&y[i]) {
                Some(std::cmp::Ordering::Greater) => 1,
                Some(std::cmp::Ordering::Less) => -1,
                _ => 0,
            };
        }
    }
    // Tie groups shrink the variance of S.
    let mut sorted: Vec<f64> = y.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut ties = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && sorted[j + 1] == sorted[i] {
            j += 1;
        }
        let t = (j - i + 1) as f64;
        ties += t * (t - 1.0) * (2.0 * t + 5.0);
        i = j + 1;
    }
    let nf = n as f64;
    let var = (nf * (nf - 1.0) * (2.0 * nf + 5.0) - ties) / 18.0;
    if var <= 0.0 {
        return None;
    }
    // Continuity correction: one step of S towards zero.
    let z = (s - s.signum()) as f64 / var.sqrt();
    let p = 2.0 * (1.0 - Normal::standard().cdf(z.abs()));
    Some((s, p.clamp(0.0, 1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn theil_sen_recovers_a_line_despite_an_outlier() {
        let mut y: Vec<f64> = (0..20).map(|i| 10.0 + 0.5 * i as f64).collect();
        y[7] = 1000.0;
        let (m, b) = theil_sen(&y).unwrap();
        assert!((m - 0.5).abs() < 1e-9, "{m}");
        assert!((b - 10.0).abs() < 1e-9, "{b}");
        assert!(theil_sen(&[1.0]).is_none());
    }

    #[test]
    fn mann_kendall_sees_a_rise_and_not_a_shuffle() {
        let up: Vec<f64> = (0..30).map(|i| i as f64 + if i % 2 == 0 { 3.0 } else { 0.0 }).collect();
        let (s, p) = mann_kendall(&up).unwrap();
        assert!(s > 0 && p < 1e-6, "{s} {p}");
        let flat = [5.0, 3.0, 6.0, 2.0, 5.5, 3.5, 4.0, 4.5, 2.5, 6.5];
        let (_, p) = mann_kendall(&flat).unwrap();
        assert!(p > 0.5, "{p}");
        assert!(mann_kendall(&[2.0; 10]).is_none());
        assert!(mann_kendall(&[1.0, 2.0]).is_none());
    }

    #[test]
    fn mann_kendall_exact_value_small_case() {
        // 1,2,3,4,5: S = 10, Var = 5*4*15/18 = 16.67, z = 9/4.082 = 2.205, p = 0.0275.
        let (s, p) = mann_kendall(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(s, 10);
        assert!((p - 0.0275).abs() < 0.001, "{p}");
    }
}
