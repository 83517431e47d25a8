//! Factorial design over the differing flags: the full 2^k design for k <= 6,
//! a half fraction (defining relation I = all flags, resolution k >= VII) for
//! k = 7 or 8. Least squares on log(median metric) with main effects and
//! pairwise interactions (0/1 coding: a main effect is the flag's effect with
//! every other flag off; an interaction is what two flags add together beyond
//! their main effects), with seeded bootstrap percentile intervals (samples
//! resampled within each design point). The design points are measured
//! together, interleaved in one call, and only such samples enter the fit.

use super::judge::Judge;
use super::space::{Space, Toggle};
use crate::stats::SeededRng as Rng;
use crate::HarnessError;

pub const MAX_FULL: usize = 6;
pub const MAX_FRACTIONAL: usize = 8;

#[derive(Clone, Debug)]
pub struct Term {
    /// One flag (main effect) or two (interaction).
    pub flags: Vec<String>,
    /// Log-ratio estimate and its 95% interval.
    pub estimate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

#[derive(Clone, Debug)]
pub struct FactorialFit {
    pub points: usize,
    pub fractional: bool,
    pub terms: Vec<Term>,
}

/// Design points (toggles) for `flags`.
pub fn design(flags: &[String]) -> Result<(Vec<Toggle>, bool), HarnessError> {
    let k = flags.len();
    if k > MAX_FRACTIONAL {
        return Err(HarnessError::Invalid(format!(
            "--factorial handles at most {MAX_FRACTIONAL} differing flags ({k} given); narrow --good/--bad"
        )));
    }
    let fractional = k > MAX_FULL;
    let pts = (0u32..1 << k)
        .filter(|m| !fractional || m.count_ones() % 2 == 0)
        .map(|m| (0..k).filter(|i| m >> i & 1 == 1).map(|i| flags[i].clone()).collect())
        .collect();
    Ok((pts, fractional))
}

fn row(t: &Toggle, flags: &[String]) -> Vec<f64> {
    let x: Vec<f64> = flags.iter().map(|f| if t.contains(f) { 1.0 } else { 0.0 }).collect();
    let mut r = vec![1.0];
    r.extend(&x);
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            r.push(x[i] * x[j]);
        }
    }
    r
}

/// (X'X)^-1 X' by Gauss-Jordan with partial pivoting.
fn hat(x: &[Vec<f64>]) -> Result<Vec<Vec<f64>>, HarnessError> {
    let p = x[0].len();
    let mut a: Vec<Vec<f64>> = (0..p)
        .map(|i| {
            let mut r: Vec<f64> = (0..p).map(|j| x.iter().map(|row| row[i] * row[j]).sum()).collect();
            r.extend((0..p).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for c in 0..p {
        let piv = (c..p)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        if a[piv][c].abs() < 1e-9 {
            return Err(HarnessError::Failed(
                "factorial design is singular for this model".into(),
            ));
        }
        a.swap(c, piv);
        let d = a[c][c];
        a[c].iter_mut().for_each(|v| *v /= d);
        for r in 0..p {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    let pivot_row = a[c].clone();
                    a[r].iter_mut().zip(pivot_row).for_each(|(v, pv)| *v -= f * pv);
                }
            }
        }
    }
    Ok((0..p)
        .map(|i| {
            (0..x.len())
                .map(|n| (0..p).map(|j| a[i][p + j] * x[n][j]).sum())
                .collect()
        })
        .collect())
}

fn median(v: &mut [f64]) -> f64 {
    crate::stats::quantile::median_in_place(v).unwrap_or(f64::NAN)
}

/// Fits the model from per-point samples of the metric (pure, seeded).
pub fn fit(
    flags: &[String],
    points: &[Toggle],
    samples: &[Vec<f64>],
    seed: u64,
    resamples: usize,
) -> Result<Vec<Term>, HarnessError> {
    let x: Vec<Vec<f64>> = points.iter().map(|t| row(t, flags)).collect();
    let h = hat(&x)?;
    let solve = |y: &[f64]| -> Vec<f64> { h.iter().map(|r| r.iter().zip(y).map(|(a, b)| a * b).sum()).collect() };
    let y: Vec<f64> = samples.iter().map(|s| median(&mut s.clone()).ln()).collect();
    let est = solve(&y);
    let mut rng = Rng::new(seed);
    let mut boots: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); est.len()];
    for _ in 0..resamples {
        let yb: Vec<f64> = samples
            .iter()
            .map(|s| {
                let mut b: Vec<f64> = (0..s.len()).map(|_| s[rng.index(s.len())]).collect();
                median(&mut b).ln()
            })
            .collect();
        for (i, b) in solve(&yb).into_iter().enumerate() {
            boots[i].push(b);
        }
    }
    let mut names: Vec<Vec<String>> = flags.iter().map(|f| vec![f.clone()]).collect();
    for i in 0..flags.len() {
        for j in i + 1..flags.len() {
            names.push(vec![flags[i].clone(), flags[j].clone()]);
        }
    }
    Ok(names
        .into_iter()
        .enumerate()
        .map(|(i, flags)| {
            let b = &mut boots[i + 1];
            b.sort_by(|a, c| a.total_cmp(c));
            let q = |p: f64| b[((b.len() - 1) as f64 * p).round() as usize];
            Term {
                flags,
                estimate: est[i + 1],
                ci_low: q(0.025),
                ci_high: q(0.975),
            }
        })
        .collect())
}

/// Measures every design point together, interleaved in one call (unless
/// that was done already). `bisect flags --factorial` does this first: every
/// comparison between two design points then has both sides from that call.
pub fn measure_design(judge: &mut Judge, space: &Space) -> Result<(), HarnessError> {
    let (points, fractional) = design(&space.flags)?;
    let variants: Vec<_> = points.iter().map(|t| space.variant(t)).collect();
    let refs: Vec<_> = variants.iter().collect();
    if judge.joint_count(&refs) < judge.opts.reps {
        judge.say(format!(
            "[factorial] {} design points ({}), {} reps each, interleaved in one call",
            points.len(),
            if fractional { "half fraction" } else { "full 2^k" },
            judge.opts.reps
        ));
    }
    judge.ensure_joint(&refs, judge.opts.reps)
}

/// Measures every design point (if not yet done) and fits the model on the metric.
pub fn factorial(judge: &mut Judge, space: &Space) -> Result<FactorialFit, HarnessError> {
    let (points, fractional) = design(&space.flags)?;
    let variants: Vec<_> = points.iter().map(|t| space.variant(t)).collect();
    let refs: Vec<_> = variants.iter().collect();
    // Every design point from the same call(s), interleaved: drift between
    // calls must not read as an effect (samples of other calls are not used).
    measure_design(judge, space)?;
    let metric = judge.opts.metric.clone();
    let joint = judge.run_joint(&refs);
    let mut samples = Vec::new();
    for v in &variants {
        let run = &joint;
        let vals: Vec<f64> = run
            .cases
            .iter()
            .flat_map(|c| run.values(&v.name, c, &metric))
            .filter(|x| *x > 0.0)
            .collect();
        if vals.is_empty() {
            return Err(HarnessError::Failed(format!(
                "factorial: variant `{}` has no positive `{metric}` values",
                v.name
            )));
        }
        samples.push(vals);
    }
    let terms = fit(&space.flags, &points, &samples, judge.opts.compare.bootstrap_seed, 400)?;
    Ok(FactorialFit {
        points: points.len(),
        fractional,
        terms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_main_effects_and_interaction_exactly_without_noise() {
        let flags: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let (pts, frac) = design(&flags).unwrap();
        assert_eq!((pts.len(), frac), (8, false));
        let y = |t: &Toggle| {
            let (a, b) = (t.contains("a"), t.contains("b"));
            100.0 * if a { 1.2 } else { 1.0 } * if a && b { 1.5 } else { 1.0 }
        };
        let samples: Vec<Vec<f64>> = pts.iter().map(|t| vec![y(t); 3]).collect();
        let terms = fit(&flags, &pts, &samples, 1, 50).unwrap();
        let get = |n: &[&str]| terms.iter().find(|t| t.flags == n).unwrap().estimate;
        assert!((get(&["a"]) - 1.2f64.ln()).abs() < 1e-9);
        assert!(get(&["b"]).abs() < 1e-9 && get(&["c"]).abs() < 1e-9);
        assert!((get(&["a", "b"]) - 1.5f64.ln()).abs() < 1e-9);
        let (half, frac) = design(&(0..7).map(|i| format!("f{i}")).collect::<Vec<_>>()).unwrap();
        assert_eq!((half.len(), frac), (64, true));
        assert!(design(&(0..9).map(|i| format!("f{i}")).collect::<Vec<_>>()).is_err());
    }
}
