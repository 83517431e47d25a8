//! The phase vocabulary the prover records (`prover/record.rs` lists what each mode and backend
//! must report), so that a threshold for a misspelt phase is refused instead of silently unused.

/// Every phase name a prover record may carry, plus the `total` pseudo-phase.
pub const KNOWN_PHASES: &[&str] = &[
    crate::model::TOTAL,
    "synthesis",
    "ntt_h",
    "intt",
    "coset_ntt",
    "coset_intt",
    "msm_h",
    "msm_l",
    "msm_a",
    "msm_b_g1",
    "msm_b_g2",
    "assemble",
    "msm_prep",
    "h2d",
    "batch_add",
    "tail_msm",
    "b_g2",
    "pin",
    "verify",
    "bellperson_prove",
    "verify_filecoin",
    // `setup` mode
    "record_shape",
    "qap_eval",
    "fixed_base_g1",
    "fixed_base_g2",
    "normalize",
    "write",
    "bellperson_generate",
];

/// Whether `name` is a known phase or one a suite of the config requires.
pub fn is_known(name: &str, required: &[&str]) -> bool {
    KNOWN_PHASES.contains(&name) || required.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ties the list to the prover's: every quoted phase of its required-phase list is known.
    #[test]
    fn every_phase_the_prover_requires_is_known() {
        let src = include_str!("../../prover/record.rs");
        let start = src
            .find("fn required_phases")
            .expect("the prover lists its required phases");
        let body = &src[start..start + src[start..].find("\n}\n").expect("end of the list")];
        let quoted: Vec<&str> = body.split('"').skip(1).step_by(2).collect();
        assert!(quoted.len() > 10, "{quoted:?}");
        for q in quoted
            .iter()
            .filter(|q| !matches!(**q, "setup" | "prove" | "cuda" | "bellperson" | "pin"))
        {
            assert!(KNOWN_PHASES.contains(q), "prover phase `{q}` is not in KNOWN_PHASES");
        }
        assert!(is_known("pin", &[]) && is_known("custom", &["custom"]) && !is_known("synthesys", &[]));
    }
}
