//! Change points of a series by E-divisive means (Matteson & James 2014), the
//! method Apache Otava (formerly Hunter) applies to nightly benchmark series.
//!
//! The divergence of a split at `t` compares distances across the split with
//! distances within each side (energy statistic, exponent 1):
//! `Q(t) = t(n-t)/n * (2/(t(n-t)) Σ|a-b| - 1/C(t,2) Σ|a-a'| - 1/C(n-t,2) Σ|b-b'|)`.
//! The best split's significance comes from a permutation test (the series
//! shuffled, the best split searched again); a significant split is kept and
//! both sides are searched in turn (binary segmentation).
//!
//! Why written here: the maintained Rust change-point crates offer Bayesian
//! online detection (needs priors per series, gives no p-value) or PELT (a
//! penalty to tune, no confidence); neither gives the tested split with a
//! p-value that a nightly report states. Pure functions, no I/O.

use super::rng::SeededRng;

/// Parameters of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EDivisive {
    /// A split is kept when its permutation p-value is below this.
    pub alpha: f64,
    /// Permutations per tested split.
    pub permutations: usize,
    /// Fewest points on each side of a split.
    pub min_segment: usize,
    pub seed: u64,
}

impl Default for EDivisive {
    fn default() -> Self {
        EDivisive {
            alpha: 0.01,
            permutations: 499,
            min_segment: 3,
            seed: 1,
        }
    }
}

/// A significant split: `index` is the first point after the change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    pub index: usize,
    /// Permutation p-value of the split within its segment.
    pub p_value: f64,
    /// The divergence statistic `Q`.
    pub q: f64,
}

/// Best split of `x` through the indirection `idx` (a permutation of the
/// segment's points): `(index, Q)`, `None` when the segment is too short.
fn best_split(x: &[f64], idx: &[usize], min: usize) -> Option<(usize, f64)> {
    let n = idx.len();
    let min = min.max(2);
    if n < 2 * min {
        return None;
    }
    let d = |i: usize, j: usize| (x[idx[i]] - x[idx[j]]).abs();
    // Left = 0..t, right = t..n, starting at t = min.
    let (mut within_l, mut within_r, mut cross) = (0.0, 0.0, 0.0);
    for i in 0..n {
        for j in (i + 1)..n {
            match (i < min, j < min) {
                (true, true) => within_l += d(i, j),
                (false, false) => within_r += d(i, j),
                _ => cross += d(i, j),
            }
        }
    }
    let mut best: Option<(usize, f64)> = None;
    let mut t = min;
    loop {
        let (l, r, nf) = (t as f64, (n - t) as f64, n as f64);
        let q =
            l * r / nf * (2.0 * cross / (l * r) - within_l / (l * (l - 1.0) / 2.0) - within_r / (r * (r - 1.0) / 2.0));
        if best.is_none_or(|(_, b)| q > b) {
            best = Some((t, q));
        }
        if t + 1 > n - min {
            break;
        }
        // Move point t from the right side to the left.
        let to_left: f64 = (0..t).map(|i| d(i, t)).sum();
        let to_right: f64 = ((t + 1)..n).map(|j| d(t, j)).sum();
        within_l += to_left;
        within_r -= to_right;
        cross += to_right - to_left;
        t += 1;
    }
    best
}

/// Permutation p-value of the best split of `seg`: the share of shuffles whose
/// best `Q` reaches the observed one (counting the observed series itself).
/// Stops early once the split can no longer reach `alpha`.
fn permutation_p(seg: &[f64], q_obs: f64, p: &EDivisive, rng: &mut SeededRng) -> f64 {
    let mut idx: Vec<usize> = (0..seg.len()).collect();
    let r = p.permutations.max(1);
    let give_up = (p.alpha * (r + 1) as f64).ceil() as usize;
    let mut at_least = 0usize;
    for done in 1..=r {
        for i in (1..idx.len()).rev() {
            let j = rng.index(i + 1);
            idx.swap(i, j);
        }
        if best_split(seg, &idx, p.min_segment).is_some_and(|(_, q)| q >= q_obs * (1.0 - 1e-12)) {
            at_least += 1;
            if at_least >= give_up {
                return (1 + at_least) as f64 / (1 + done) as f64;
            }
        }
    }
    (1 + at_least) as f64 / (1 + r) as f64
}

/// Significant change points of `x`, in index order. A constant or short
/// series has none.
pub fn change_points(x: &[f64], p: &EDivisive) -> Vec<Split> {
    let mut rng = SeededRng::new(p.seed);
    let mut found = Vec::new();
    // Segments still to search: (start, end) half-open.
    let mut todo = vec![(0usize, x.len())];
    while let Some((a, b)) = todo.pop() {
        let seg = &x[a..b];
        let idx: Vec<usize> = (0..seg.len()).collect();
        let Some((t, q)) = best_split(seg, &idx, p.min_segment) else {
            continue;
        };
        if q.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            continue;
        }
        let pv = permutation_p(seg, q, p, &mut rng);
        if pv < p.alpha {
            found.push(Split {
                index: a + t,
                p_value: pv,
                q,
            });
            todo.push((a + t, b));
            todo.push((a, a + t));
        }
    }
    found.sort_by_key(|s| s.index);
    found
}

#[cfg(test)]
mod tests {
    use super::super::rng::series;
    use super::*;

    #[test]
    fn one_step_is_found_where_it_is() {
        for seed in 0..10 {
            let x = series(30, 0.01, seed, |i| if i >= 17 { 104.0 } else { 100.0 });
            let cps = change_points(&x, &EDivisive::default());
            assert_eq!(cps.len(), 1, "seed {seed}: {cps:?}");
            assert!((16..=18).contains(&cps[0].index), "seed {seed}: {cps:?}");
            assert!(cps[0].p_value < 0.01);
        }
    }

    #[test]
    fn two_steps_both_found() {
        let x = series(40, 0.005, 3, |i| match i {
            0..=11 => 100.0,
            12..=27 => 106.0,
            _ => 101.0,
        });
        let idx: Vec<usize> = change_points(&x, &EDivisive::default())
            .iter()
            .map(|s| s.index)
            .collect();
        assert_eq!(idx, vec![12, 28]);
    }

    #[test]
    fn noise_alone_gives_no_change_point_mostly() {
        let hits = (0..40)
            .filter(|&s| !change_points(&series(30, 0.01, 100 + s, |_| 100.0), &EDivisive::default()).is_empty())
            .count();
        // alpha 0.01: a false split now and then, never often.
        assert!(hits <= 2, "{hits} of 40 noise series split");
    }

    #[test]
    fn constant_short_and_empty_series() {
        assert!(change_points(&[5.0; 20], &EDivisive::default()).is_empty());
        assert!(change_points(&[1.0, 2.0, 3.0], &EDivisive::default()).is_empty());
        assert!(change_points(&[], &EDivisive::default()).is_empty());
    }

    #[test]
    fn incremental_statistic_matches_the_definition() {
        let x = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0];
        let n = x.len();
        let idx: Vec<usize> = (0..n).collect();
        let (t, q) = best_split(&x, &idx, 2).unwrap();
        let direct = |t: usize| {
            let (l, r) = (&x[..t], &x[t..]);
            let s = |a: &[f64], b: &[f64]| a.iter().flat_map(|u| b.iter().map(move |v| (u - v).abs())).sum::<f64>();
            let (lf, rf) = (t as f64, (n - t) as f64);
            lf * rf / n as f64 * (2.0 * s(l, r) / (lf * rf) - s(l, l) / (lf * (lf - 1.0)) - s(r, r) / (rf * (rf - 1.0)))
        };
        let best = (2..=n - 2).map(direct).fold(f64::MIN, f64::max);
        assert!((q - best).abs() < 1e-9, "{q} vs {best}");
        assert!((direct(t) - q).abs() < 1e-9);
    }
}
