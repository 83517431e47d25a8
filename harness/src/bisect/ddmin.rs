//! Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating
//! Failure-Inducing Input", IEEE TSE 2002): the smallest subset of flags that
//! still reproduces the change, with tri-state tests (an unresolved test counts
//! as not reproducing, so nothing is concluded from it).

use super::space::Toggle;
use crate::HarnessError;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The subset reproduces the change.
    Fail,
    /// It decisively does not.
    Pass,
    /// Could not decide at the repetition cap.
    Unresolved,
}

/// Finds a 1-minimal subset of `items` for which `test` is `Fail` (every
/// subset that drops one more element was tested and did not fail, or the set has one element).
/// `items` itself must fail. Results are memoized per subset; returns the
/// subset and every test made, in order.
pub fn ddmin(
    items: &Toggle,
    test: &mut dyn FnMut(&Toggle) -> Result<Test, HarnessError>,
) -> Result<(Toggle, Vec<(Toggle, Test)>), HarnessError> {
    let mut memo: BTreeMap<Toggle, Test> = BTreeMap::new();
    let mut log = Vec::new();
    let mut t = |s: &Toggle, memo: &mut BTreeMap<Toggle, Test>| -> Result<Test, HarnessError> {
        if let Some(r) = memo.get(s) {
            return Ok(*r);
        }
        let r = test(s)?;
        memo.insert(s.clone(), r);
        log.push((s.clone(), r));
        Ok(r)
    };
    let mut c: Vec<String> = items.iter().cloned().collect();
    let mut n = 2usize;
    'outer: while c.len() >= 2 {
        let n_eff = n.min(c.len());
        let chunks = split(&c, n_eff);
        for d in &chunks {
            let s: Toggle = d.iter().cloned().collect();
            if t(&s, &mut memo)? == Test::Fail {
                c = d.clone();
                n = 2;
                continue 'outer;
            }
        }
        if n_eff > 2 {
            for d in &chunks {
                let comp: Toggle = c.iter().filter(|x| !d.contains(x)).cloned().collect();
                if t(&comp, &mut memo)? == Test::Fail {
                    c = comp.into_iter().collect();
                    n = (n_eff - 1).max(2);
                    continue 'outer;
                }
            }
        }
        if n_eff < c.len() {
            n = (2 * n_eff).min(c.len());
        } else {
            break;
        }
    }
    Ok((c.into_iter().collect(), log))
}

fn split(c: &[String], n: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..n {
        let end = start + (c.len() - start) / (n - i);
        out.push(c[start..end].to_vec());
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(xs: &[&str]) -> Toggle {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn finds_the_interacting_pair_and_single_culprits() {
        let all = set(&["a", "b", "c", "d", "e", "f"]);
        let mut pair = |s: &Toggle| {
            Ok(if s.contains("b") && s.contains("e") {
                Test::Fail
            } else {
                Test::Pass
            })
        };
        assert_eq!(ddmin(&all, &mut pair).unwrap().0, set(&["b", "e"]));
        let mut single = |s: &Toggle| Ok(if s.contains("d") { Test::Fail } else { Test::Pass });
        let (found, log) = ddmin(&all, &mut single).unwrap();
        assert_eq!(found, set(&["d"]));
        assert!(log.len() < 64, "ddmin tested {} subsets", log.len());
    }

    #[test]
    fn unresolved_never_counts_as_reproducing() {
        let all = set(&["a", "b", "c"]);
        let mut t = |s: &Toggle| Ok(if s.len() == 3 { Test::Fail } else { Test::Unresolved });
        assert_eq!(ddmin(&all, &mut t).unwrap().0, all);
    }
}
