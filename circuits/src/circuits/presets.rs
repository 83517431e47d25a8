//! Circuit presets by NTT domain size.

use crate::circuits::porep::PorepCircuit;
use crate::cs::Circuit;

pub const PRESETS: &[&str] = &["tiny", "small", "medium", "large", "xl", "xxl", "porep-32g"];

/// (name, SHA rounds, compressions, Merkle depth).
const TABLE: &[(&str, usize, usize, usize)] = &[
    ("tiny", 1, 1, 2),
    ("small", 64, 2, 18),
    ("medium", 64, 35, 20),
    ("large", 64, 140, 30),
    ("xl", 64, 560, 30),
    ("xxl", 64, 2250, 30),
    ("porep-32g", 64, 4800, 30),
];

fn lookup(name: &str) -> Result<(usize, usize, usize), String> {
    TABLE
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, r, n, d)| (r, n, d))
        .ok_or_else(|| format!("unknown preset `{name}` (valid presets: {})", PRESETS.join(", ")))
}

/// A preset name, optionally with a scalar mix: `medium-mix3` is `medium`
/// with 3% more of its aux values neither 0 nor 1 (1 to 50).
fn split_mix(name: &str) -> Result<(&str, u32), String> {
    match name.rsplit_once("-mix") {
        Some((base, pct)) if !pct.is_empty() && pct.chars().all(|c| c.is_ascii_digit()) => {
            let p: u32 = pct
                .parse()
                .map_err(|_| format!("preset `{name}`: mix `{pct}` is not a percentage"))?;
            if !(1..=50).contains(&p) {
                return Err(format!("preset `{name}`: a mix of 1 to 50 percent"));
            }
            Ok((base, p))
        }
        _ => Ok((name, 0)),
    }
}

/// The preset `name` (`medium`, or `medium-mix3` with a scalar mix) with witness seed `seed`.
pub fn preset(name: &str, seed: u64) -> Result<PorepCircuit, String> {
    let (base, mix) = split_mix(name)?;
    let (r, n, d) = lookup(base)?;
    Ok(PorepCircuit::new(r, n, d, seed).with_mix(mix))
}

/// The witness seed of partition `partition` in repetition `rep` of a run
/// seeded `seed`. Every runner derives it here, so runners and anchors given
/// the same seed prove the same witnesses.
pub fn witness_seed(seed: u64, rep: usize, partition: usize) -> u64 {
    seed.wrapping_add((rep as u64) << 16).wrapping_add(partition as u64)
}

/// The circuits of repetition `rep`: preset `name` once per partition, each
/// with its [`witness_seed`].
pub fn rep_circuits(name: &str, partitions: usize, seed: u64, rep: usize) -> Result<Vec<PorepCircuit>, String> {
    (0..partitions)
        .map(|i| preset(name, witness_seed(seed, rep, i)))
        .collect()
}

/// log2 of the NTT domain (`constraints + inputs` rounded up to a power of two).
pub fn domain_log2(name: &str) -> Result<u32, String> {
    let h = preset(name, 0)?.size_hint();
    Ok((h.constraints + h.inputs).next_power_of_two().trailing_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_counts() {
        for name in PRESETS {
            let c = preset(name, 0).unwrap();
            let h = c.size_hint();
            let rows = h.constraints + h.inputs;
            let k = domain_log2(name).unwrap();
            eprintln!(
                "{name}: constraints {} aux {} inputs {} rows {rows} domain 2^{k} fill {:.1}%",
                h.constraints,
                h.aux,
                h.inputs,
                100.0 * rows as f64 / (1u64 << k) as f64
            );
        }
    }

    #[test]
    fn domains_and_fill() {
        let want = [10, 16, 20, 22, 24, 26, 27];
        for (name, k) in PRESETS.iter().zip(want) {
            let h = preset(name, 0).unwrap().size_hint();
            let fill = (h.constraints + h.inputs) as f64 / (1u64 << k) as f64;
            assert_eq!(domain_log2(name).unwrap(), k, "{name}");
            if *name != "porep-32g" {
                assert!((0.80..1.0).contains(&fill), "{name} fill {fill}");
            }
        }
        assert!(preset("nope", 0).unwrap_err().contains("porep-32g"));
        assert!(preset("medium-mix0", 0).unwrap_err().contains("1 to 50"));
        assert!(preset("medium-mix51", 0).unwrap_err().contains("1 to 50"));
        assert!(preset("nope-mix3", 0).unwrap_err().contains("unknown preset"));
        // The mix keeps the domain of its preset.
        for name in ["medium-mix3", "large-mix3"] {
            let base = name.split("-mix").next().unwrap();
            assert_eq!(domain_log2(name).unwrap(), domain_log2(base).unwrap(), "{name}");
        }
    }

    #[test]
    fn repetition_circuits_have_one_seed_per_partition() {
        let cs = rep_circuits("tiny", 3, 7, 2).unwrap();
        let seeds: Vec<u64> = cs.iter().map(|c| c.seed).collect();
        assert_eq!(seeds, vec![7 + (2 << 16), 7 + (2 << 16) + 1, 7 + (2 << 16) + 2]);
        assert_eq!(seeds[0], witness_seed(7, 2, 0));
        // another repetition proves other witnesses
        assert_ne!(witness_seed(7, 1, 0), witness_seed(7, 2, 0));
        assert_eq!(witness_seed(u64::MAX, 0, 1), 0, "wraps instead of overflowing");
        assert!(rep_circuits("nope", 1, 0, 0).unwrap_err().contains("unknown preset"));
    }
}
