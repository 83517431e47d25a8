//! Circuit presets by NTT domain size, and `porep-32g`, the synthetic
//! stand-in for one partition of a 32 GiB PoRep C2 proof (docs/presets.md).

use crate::circuits::mix::{Mix, MixShares};
use crate::circuits::porep::PorepCircuit;
use crate::cs::Circuit;

pub const PRESETS: &[&str] = &["tiny", "small", "medium", "large", "xl", "xxl", "sha-32g", "porep-32g"];

/// (name, SHA rounds, compressions, Merkle depth) of the plain presets.
const TABLE: &[(&str, usize, usize, usize)] = &[
    ("tiny", 1, 1, 2),
    ("small", 64, 2, 18),
    ("medium", 64, 35, 20),
    ("large", 64, 140, 30),
    ("xl", 64, 560, 30),
    ("xxl", 64, 2250, 30),
    // `porep-32g` before it was matched to the real partition: its size
    // (2^27, 129M constraints), SHA-256 alone, 0.006% of aux neither 0 nor 1.
    ("sha-32g", 64, 4800, 30),
];

/// One partition of a 32 GiB sector's C2 proof (10 partitions), as
/// published: 130,278,869 constraints, 130,169,893 aux, A density 99.7%, B
/// density 25.4% (docs/presets.md says where from).
pub const PARTITION_32G_CONSTRAINTS: usize = 130_278_869;
pub const PARTITION_32G_AUX: usize = 130_169_893;

/// The scalar mix of a 32 GiB partition: values neither 0 nor 1 overall and
/// in B extrapolated from the measured 2 KiB, 8 MiB and 512 MiB partitions
/// by the circuit's structure (docs/presets.md), and the published B density.
pub const MIX_32G: MixShares = MixShares {
    other: 0.01294,
    b_other: 0.00948,
    b_density: Some(0.254),
};

/// SHA-256 compressions of `porep-32g`: with [`MIX_32G`]'s B density they
/// set the total (docs/presets.md).
pub const COMPRESSIONS_32G: usize = 4_621;

/// The `porep-32g` recipe at any size: `n_sha` A-dense compressions, a
/// Poseidon path of `depth`, [`MIX_32G`]. `porep-32g` is
/// `porep_32g_recipe(COMPRESSIONS_32G, 30, seed)`; tests check the shares on
/// smaller instances.
pub fn porep_32g_recipe(n_sha: usize, depth: usize, seed: u64) -> Result<PorepCircuit, String> {
    PorepCircuit::new(64, n_sha, depth, seed)
        .with_maj_a_dense()
        .with_mix(Mix::Shares(MIX_32G))
}

fn base(name: &str, seed: u64) -> Result<PorepCircuit, String> {
    if name == "porep-32g" {
        return porep_32g_recipe(COMPRESSIONS_32G, 30, seed);
    }
    TABLE
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, r, n, d)| PorepCircuit::new(r, n, d, seed))
        .ok_or_else(|| format!("unknown preset `{name}` (valid presets: {})", PRESETS.join(", ")))
}

/// A preset name, optionally with a scalar mix after `-mix` (see [`Mix::parse`]):
/// `medium-mix3` is `medium` with 3% of its aux added as squares,
/// `medium-mix3.3b2.39` is `medium` padded to 3.3% of its aux neither 0 nor 1,
/// 2.39% of them in B.
fn split_mix(name: &str) -> Result<(&str, Option<Mix>), String> {
    match name.rsplit_once("-mix") {
        Some((base, text)) => {
            let mix = Mix::parse(text).map_err(|e| format!("preset `{name}`: {e}"))?;
            Ok((base, Some(mix)))
        }
        None => Ok((name, None)),
    }
}

/// The preset `name` (`medium`, or with a scalar mix, `medium-mix3`) with witness seed `seed`.
pub fn preset(name: &str, seed: u64) -> Result<PorepCircuit, String> {
    let (base_name, mix) = split_mix(name)?;
    let c = base(base_name, seed)?;
    match mix {
        Some(m) => c.without_mix().with_mix(m).map_err(|e| format!("preset `{name}`: {e}")),
        None => Ok(c),
    }
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
        let want = [10, 16, 20, 22, 24, 26, 27, 27];
        for (name, k) in PRESETS.iter().zip(want) {
            let h = preset(name, 0).unwrap().size_hint();
            let fill = (h.constraints + h.inputs) as f64 / (1u64 << k) as f64;
            assert_eq!(domain_log2(name).unwrap(), k, "{name}");
            if !name.ends_with("-32g") {
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

    /// `porep-32g` against the published partition: constraints and aux
    /// within 2% (its counts come from the size hint; synthesizing 130M
    /// constraints is too slow for a test, the shares are checked on a smaller
    /// instance of the same recipe in `porep.rs`).
    #[test]
    fn porep_32g_is_the_size_of_the_published_partition() {
        let h = preset("porep-32g", 0).unwrap().size_hint();
        let off = |got: usize, want: usize| (got as f64 / want as f64 - 1.0).abs();
        eprintln!("porep-32g: {h:?}");
        assert!(off(h.constraints, PARTITION_32G_CONSTRAINTS) < 0.02, "{h:?}");
        assert!(off(h.aux, PARTITION_32G_AUX) < 0.02, "{h:?}");
        // the old preset keeps its shape (and its cached parameters) under its new name
        let old = preset("sha-32g", 0).unwrap();
        assert_eq!(old.shape_id(), "porep-v2-sha4800x64r-poseidon-d30");
        assert!(preset("porep-32g-mix3", 0).unwrap().shape_id().ends_with("-mix3"));
        assert!(preset("small-mix1.63b1.19", 0)
            .unwrap_err()
            .contains("above the target"));
        assert!(preset("medium-mix3b4", 0).unwrap_err().contains("exceeds"));
        assert!(preset("medium-mix1.63b1.19", 0).is_ok());
    }
}
