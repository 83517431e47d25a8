//! Medians and quantiles of a sample.

use std::cmp::Ordering;

/// Sorts a copy of `values` (NaN last, by IEEE total order).
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Quantile `q` in `[0, 1]` of an already sorted slice, by linear interpolation
/// between order statistics (Hyndman and Fan's type 7, the default of R and NumPy).
/// `None` for an empty slice or a `q` outside `[0, 1]`.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() || !(0.0..=1.0).contains(&q) {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    let frac = h - lo as f64;
    Some(sorted[lo] + (sorted[hi] - sorted[lo]) * frac)
}

/// Quantile `q` of an unsorted sample (see [`quantile_sorted`]).
pub fn quantile(values: &[f64], q: f64) -> Option<f64> {
    quantile_sorted(&sorted(values), q)
}

/// Median of a sample (mean of the two middle values for even sizes); `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v = values.to_vec();
    median_in_place(&mut v)
}

/// Median that reorders `buf` instead of allocating (the bootstrap's hot path).
pub fn median_in_place(buf: &mut [f64]) -> Option<f64> {
    let n = buf.len();
    if n == 0 {
        return None;
    }
    let mid = n / 2;
    let (left, m, _) = buf.select_nth_unstable_by(mid, f64::total_cmp);
    let upper = *m;
    if n % 2 == 1 {
        return Some(upper);
    }
    let lower = left
        .iter()
        .copied()
        .max_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal))?;
    Some((lower + upper) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[7.5]), Some(7.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn quantiles_match_type_7() {
        // R: quantile(c(1, 2, 3, 4, 10), c(0, .25, .5, .9, 1)) = 1, 2, 3, 7.6, 10
        let x = [10.0, 1.0, 3.0, 2.0, 4.0];
        let got: Vec<f64> = [0.0, 0.25, 0.5, 0.9, 1.0]
            .iter()
            .map(|&q| quantile(&x, q).unwrap())
            .collect();
        let want = [1.0, 2.0, 3.0, 7.6, 10.0];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{got:?}");
        }
        assert_eq!(quantile(&x, 1.5), None);
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn median_in_place_agrees_with_sorting() {
        let x: Vec<f64> = (0..50).map(|i| ((i * 37) % 23) as f64 * 0.5).collect();
        for len in 1..x.len() {
            let s = sorted(&x[..len]);
            let want = quantile_sorted(&s, 0.5).unwrap();
            assert_eq!(median(&x[..len]), Some(want), "len {len}");
        }
    }
}
