//! Least squares of a series on a level, an optional slope and steps at given
//! indices (normal equations, Gaussian elimination with partial pivoting),
//! and the Bayesian information criterion that compares such models.
//! Pure functions, no I/O.

/// A fitted model: `y[i] = level + slope * i + Σ steps[j] * [i >= cuts[j]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub level: f64,
    pub slope: f64,
    /// One size per cut, in the order of the cuts.
    pub steps: Vec<f64>,
    /// Residual sum of squares.
    pub rss: f64,
    /// Parameters fitted (level, slope when fitted, one per step, one location per step).
    pub params: usize,
}

impl Fit {
    /// BIC of the fit to `n` points (Gaussian errors): smaller is better.
    pub fn bic(&self, n: usize) -> f64 {
        let nf = n as f64;
        nf * (self.rss / nf).max(1e-300).ln() + self.params as f64 * nf.ln()
    }
}

/// Solves `a x = b` (a square); `None` when singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let k = b.len();
    for col in 0..k {
        let piv = (col..k).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[piv][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        for r in (col + 1)..k {
            let f = a[r][col] / a[col][col];
            let (top, rest) = a.split_at_mut(r);
            for (x, p) in rest[0][col..].iter_mut().zip(&top[col][col..]) {
                *x -= f * p;
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = vec![0.0; k];
    for r in (0..k).rev() {
        let s: f64 = ((r + 1)..k).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

/// Least-squares fit of `y` on a level, a slope when `with_slope`, and a step at each of `cuts`.
pub fn fit(y: &[f64], with_slope: bool, cuts: &[usize]) -> Option<Fit> {
    let n = y.len();
    let row = |i: usize| {
        let mut r = vec![1.0];
        if with_slope {
            r.push(i as f64);
        }
        r.extend(cuts.iter().map(|&c| if i >= c { 1.0 } else { 0.0 }));
        r
    };
    let k = 1 + usize::from(with_slope) + cuts.len();
    if n < k {
        return None;
    }
    let mut ata = vec![vec![0.0; k]; k];
    let mut aty = vec![0.0; k];
    for (i, v) in y.iter().enumerate() {
        let r = row(i);
        for a in 0..k {
            aty[a] += r[a] * v;
            for b in 0..k {
                ata[a][b] += r[a] * r[b];
            }
        }
    }
    let x = solve(ata, aty)?;
    let rss = y
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let f: f64 = row(i).iter().zip(&x).map(|(a, b)| a * b).sum();
            (v - f).powi(2)
        })
        .sum();
    let s = usize::from(with_slope);
    Some(Fit {
        level: x[0],
        slope: if with_slope { x[1] } else { 0.0 },
        steps: x[1 + s..].to_vec(),
        rss,
        params: k + cuts.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_line_with_a_step_is_recovered() {
        let y: Vec<f64> = (0..20)
            .map(|i| 10.0 + 0.5 * i as f64 + if i >= 12 { 3.0 } else { 0.0 })
            .collect();
        let f = fit(&y, true, &[12]).unwrap();
        assert!((f.level - 10.0).abs() < 1e-9 && (f.slope - 0.5).abs() < 1e-9, "{f:?}");
        assert!((f.steps[0] - 3.0).abs() < 1e-9 && f.rss < 1e-12, "{f:?}");
        assert_eq!(f.params, 4);
        let flat = fit(&y, false, &[]).unwrap();
        assert!(flat.rss > 100.0 && flat.bic(20) > f.bic(20));
        assert!(fit(&[1.0], true, &[]).is_none());
        // Two identical cuts: singular.
        assert!(fit(&y, false, &[5, 5]).is_none());
    }
}
