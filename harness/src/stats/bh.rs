//! Benjamini-Hochberg adjustment of p-values (false discovery rate control).

/// BH-adjusted p-values ("q-values"), in the input order: `q_(i) = min_{j >= i} p_(j) * m / j`
/// over the ascending order, capped at 1. Rejecting every hypothesis with `q < alpha` keeps the
/// expected share of false discoveries among the rejections at or below `alpha` for independent
/// or positively dependent tests (Benjamini and Hochberg 1995; Benjamini and Yekutieli 2001).
/// NaN p-values are treated as 1.
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let clean: Vec<f64> = p
        .iter()
        .map(|&v| if v.is_nan() { 1.0 } else { v.clamp(0.0, 1.0) })
        .collect();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| clean[a].total_cmp(&clean[b]));
    let mut q = vec![1.0; m];
    let mut running = 1.0f64;
    for (pos, &i) in order.iter().enumerate().rev() {
        let adj = clean[i] * m as f64 / (pos + 1) as f64;
        running = running.min(adj).min(1.0);
        q[i] = running;
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_worked_example() {
        // Sorted 0.005, 0.01, 0.03, 0.04 -> 0.02, 0.02, 0.04, 0.04.
        let q = benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005]);
        let want = [0.02, 0.04, 0.04, 0.02];
        for (g, w) in q.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{q:?}");
        }
    }

    #[test]
    fn benjamini_hochberg_1995_example_rejects_four() {
        // The 15 p-values of the worked example in Benjamini and Hochberg (1995), section 4:
        // at level 0.05 the procedure rejects the four smallest.
        let p = [
            0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528,
            0.7590, 1.0,
        ];
        let q = benjamini_hochberg(&p);
        let rejected: Vec<usize> = (0..p.len()).filter(|&i| q[i] < 0.05).collect();
        assert_eq!(rejected, vec![0, 1, 2, 3]);
        // Adjusted values never fall below the raw ones and keep their order.
        for i in 0..p.len() {
            assert!(q[i] >= p[i] - 1e-15);
            if i > 0 {
                assert!(q[i] >= q[i - 1]);
            }
        }
    }

    #[test]
    fn edge_cases() {
        assert!(benjamini_hochberg(&[]).is_empty());
        assert_eq!(benjamini_hochberg(&[0.3]), vec![0.3]);
        assert_eq!(benjamini_hochberg(&[f64::NAN, 0.01]), vec![1.0, 0.02]);
    }
}
