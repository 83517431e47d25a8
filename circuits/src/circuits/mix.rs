//! The scalar mix of the synthetic circuits: how many aux values are neither
//! 0 nor 1 (the "other" scalars that the split MSMs' tails and B_G2's tail
//! pay for), overall and among the variables B covers, and optionally the
//! B density itself. Pure arithmetic: the counts of the plain shape in, the
//! padding chains that reach the targets out (docs/presets.md).

/// Counts of a synthesized witness that a mix is solved against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WitnessCounts {
    pub aux: usize,
    /// Aux values neither 0 nor 1.
    pub other: usize,
    /// Aux values neither 0 nor 1 whose variable appears in B.
    pub b_other: usize,
    /// Aux variables appearing in B.
    pub b: usize,
}

/// Target shares of the whole circuit's aux values (fractions, not percent).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MixShares {
    /// Aux values neither 0 nor 1.
    pub other: f64,
    /// Aux values neither 0 nor 1 whose variable appears in B.
    pub b_other: f64,
    /// Aux variables appearing in B (`None`: whatever the padding leaves).
    pub b_density: Option<f64>,
}

/// How a circuit's scalar mix is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mix {
    /// `-mixN`: N percent of the aux values added as squaring constraints
    /// `x * x = y` over seeded random x (x in A and B, y in C) on top of the
    /// plain shape's own.
    Squares(u32),
    /// `-mixObB[dD]`: the whole circuit's shares (see [`MixShares`]).
    Shares(MixShares),
}

impl Mix {
    /// The suffix that names this mix in presets and shape ids.
    pub fn suffix(&self) -> String {
        match self {
            Mix::Squares(p) => format!("-mix{p}"),
            Mix::Shares(s) => {
                let pct = |f: f64| {
                    let t = format!("{:.3}", f * 100.0);
                    t.trim_end_matches('0').trim_end_matches('.').to_string()
                };
                let d = s.b_density.map(|d| format!("d{}", pct(d))).unwrap_or_default();
                format!("-mix{}b{}{d}", pct(s.other), pct(s.b_other))
            }
        }
    }

    /// Parses the text after `-mix`: `N` (1 to 50, [`Mix::Squares`]) or
    /// `ObB` with an optional `dD`, each a percentage ([`Mix::Shares`]).
    pub fn parse(text: &str) -> Result<Mix, String> {
        if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
            let p: u32 = text.parse().map_err(|_| format!("mix `{text}` is not a percentage"))?;
            if !(1..=50).contains(&p) {
                return Err(format!("mix `{text}`: a mix of 1 to 50 percent"));
            }
            return Ok(Mix::Squares(p));
        }
        let bad = || {
            format!(
                "mix `{text}`: expected N (percent of aux added as squares, 1 to 50) or ObB[dD] \
                 (percent of aux neither 0 nor 1, of those in B, and the B density), e.g. 3.3b2.39"
            )
        };
        let (o, rest) = text.split_once('b').ok_or_else(bad)?;
        let (b, d) = match rest.split_once('d') {
            Some((b, d)) => (b, Some(d)),
            None => (rest, None),
        };
        let pct = |s: &str| -> Result<f64, String> {
            // Three decimals at most: the shape id carries three.
            if s.split_once('.').is_some_and(|(_, f)| f.len() > 3) {
                return Err(format!("mix `{text}`: `{s}` has more than 3 decimals"));
            }
            let v: f64 = s.parse().map_err(|_| bad())?;
            if !(0.0..100.0).contains(&v) || !v.is_finite() {
                return Err(format!("mix `{text}`: `{s}` is not a percentage below 100"));
            }
            Ok(v / 100.0)
        };
        let s = MixShares {
            other: pct(o)?,
            b_other: pct(b)?,
            b_density: d.map(pct).transpose()?,
        };
        if s.b_other > s.other {
            return Err(format!("mix `{text}`: the share in B exceeds the overall share"));
        }
        if let Some(d) = s.b_density {
            if d <= s.b_other {
                return Err(format!("mix `{text}`: the B density must exceed the share in B"));
            }
        }
        Ok(Mix::Shares(s))
    }
}

/// The padding that reaches a [`MixShares`] target: four chains of one
/// constraint and one new aux value per link, each link's value in A.
/// Values neither 0 nor 1 squared (`x * x = y`, in A and B) or scaled by a
/// constant (`x * 3 = y`, A only); bits copied (`b * 1 = c`, A only) or
/// squared (`b * b = c`, in A and B). A chain of n links has n + 1 values,
/// the last in C only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chains {
    pub other_ab: usize,
    pub other_a: usize,
    pub bits_a: usize,
    pub bits_ab: usize,
}

impl Chains {
    pub fn links(&self) -> [usize; 4] {
        [self.other_ab, self.other_a, self.bits_a, self.bits_ab]
    }
    pub fn constraints(&self) -> usize {
        self.links().iter().sum()
    }
    pub fn aux(&self) -> usize {
        self.links().iter().map(|&n| if n == 0 { 0 } else { n + 1 }).sum()
    }

    /// The chains that bring a shape with counts `plain` to the shares `t`.
    /// Solved over the total aux T: other = O T, in B and other = Bo T, and
    /// with a B density target B = D T, padding bits in A only when the
    /// shape's own B density is above D, in A and B when it is below.
    pub fn solve(plain: WitnessCounts, t: MixShares) -> Result<Chains, String> {
        let (n0, o0, bo0, bd0) = (
            plain.aux as f64,
            plain.other as f64,
            plain.b_other as f64,
            plain.b as f64,
        );
        let (o, bo) = (t.other, t.b_other);
        let own = |k: f64| 100.0 * k / n0.max(1.0);
        // The links of the two value chains once T is known.
        let values = |total: f64| (bo * total - bo0, o * total - o0 - (bo * total - bo0));
        let (total, bits_a, bits_ab) = match t.b_density {
            None => ((n0 - o0) / (1.0 - o), 0.0, 0.0),
            Some(d) => {
                // B lowered by bits in A only: B = bd0 + other_ab.
                let lower = (bd0 - bo0) / (d - bo);
                let (ab, a) = values(lower);
                let bits = lower - n0 - ab - a;
                if bits >= -0.5 {
                    (lower, bits, 0.0)
                } else {
                    // B raised by bits in A and B.
                    let raise = (n0 - o0 - bd0 + bo0) / (1.0 - o - d + bo);
                    let (ab, a) = values(raise);
                    (raise, 0.0, raise - n0 - ab - a)
                }
            }
        };
        let (other_ab, other_a) = values(total);
        if other_ab < -0.5 {
            return Err(format!(
                "the shape's own share of values neither 0 nor 1 in B ({:.3}%) is above the target {:.3}%",
                own(bo0),
                100.0 * bo
            ));
        }
        if other_a < -0.5 {
            return Err(format!(
                "the shape's own share of values neither 0 nor 1 ({:.3}%) is above the target {:.3}%",
                own(o0),
                100.0 * o
            ));
        }
        if bits_ab < -0.5 {
            return Err(format!(
                "the B density {:.3}% cannot be reached with these shares",
                100.0 * t.b_density.unwrap_or(0.0)
            ));
        }
        if !total.is_finite() || total < n0 {
            return Err("these shares cannot be reached by adding values".into());
        }
        let n = |x: f64| x.round().max(0.0) as usize;
        Ok(Chains {
            other_ab: n(other_ab),
            other_a: n(other_a),
            bits_a: n(bits_a),
            bits_ab: n(bits_ab),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shares(o: f64, b: f64, d: Option<f64>) -> MixShares {
        MixShares {
            other: o,
            b_other: b,
            b_density: d,
        }
    }

    /// The counts after padding, as the chains add them (ends included).
    fn after(p: WitnessCounts, c: Chains) -> (f64, f64, f64) {
        let ends = |n: usize| usize::from(n > 0);
        let aux = p.aux + c.aux();
        let other = p.other + c.other_ab + ends(c.other_ab) + c.other_a + ends(c.other_a);
        let b_other = p.b_other + c.other_ab;
        let b = p.b + c.other_ab + c.bits_ab;
        let f = |k: usize| k as f64 / aux as f64;
        (f(other), f(b_other), f(b))
    }

    const PLAIN: WitnessCounts = WitnessCounts {
        aux: 1_000_000,
        other: 5_000,
        b_other: 3_000,
        b: 330_000,
    };

    #[test]
    fn solved_chains_reach_every_target() {
        for t in [
            shares(0.0163, 0.0119, None),
            shares(0.0330, 0.0239, None),
            shares(0.0129, 0.0095, Some(0.254)),
            shares(0.0330, 0.0239, Some(0.40)),
        ] {
            let c = Chains::solve(PLAIN, t).unwrap();
            let (o, b, d) = after(PLAIN, c);
            assert!((o - t.other).abs() < 1e-5, "{t:?}: other {o}");
            assert!((b - t.b_other).abs() < 1e-5, "{t:?}: B other {b}");
            if let Some(want) = t.b_density {
                assert!((d - want).abs() < 1e-5, "{t:?}: B density {d}");
                // lowering B pads with bits in A only, raising it with bits in A and B
                assert_eq!(c.bits_a > 0, want < 0.33, "{c:?}");
                assert_eq!(c.bits_ab > 0, want > 0.33, "{c:?}");
            }
        }
    }

    #[test]
    fn unreachable_targets_are_errors() {
        let below = Chains::solve(PLAIN, shares(0.004, 0.001, None)).unwrap_err();
        assert!(below.contains("above the target"), "{below}");
        let b_below = Chains::solve(PLAIN, shares(0.02, 0.002, None)).unwrap_err();
        assert!(b_below.contains("in B"), "{b_below}");
    }

    #[test]
    fn parse_and_suffix_round_trip() {
        assert_eq!(Mix::parse("3").unwrap(), Mix::Squares(3));
        assert!(Mix::parse("0").unwrap_err().contains("1 to 50"));
        assert!(Mix::parse("51").unwrap_err().contains("1 to 50"));
        let m = Mix::parse("3.3b2.39d26.6").unwrap();
        assert_eq!(m, Mix::Shares(shares(0.033, 0.0239, Some(0.266))));
        assert_eq!(m.suffix(), "-mix3.3b2.39d26.6");
        assert_eq!(Mix::parse("1.63b1.19").unwrap().suffix(), "-mix1.63b1.19");
        assert!(Mix::parse("1.2944b1").unwrap_err().contains("3 decimals"));
        for bad in [
            "", "x", "3b", "b2", "3.3b2.4d", "3b4", "120b1", "3b2d1", "3bxd2", "-1b0",
        ] {
            assert!(Mix::parse(bad).is_err(), "`{bad}` accepted");
        }
    }
}
