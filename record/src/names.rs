//! The phase vocabulary: every span name a runner may record, as constants,
//! so that the prover, the CUDA code's spans, the harness's checks and the
//! charts' palette speak of one list. A name outside it is a typo, and the
//! config refuses thresholds for it.

/// The harness's pseudo-phase holding a sample's end-to-end time.
pub const TOTAL: &str = "total";

/// A span's extra field: the CPU time the runner's process used during the
/// span (every thread, user and system), in ms. Judged instead of the span's
/// wall time by suites with `clock = "cpu"`.
pub const CPU_MS: &str = "cpu_ms";
/// A record's top-level counter: the process's CPU time over the whole
/// repetition, in ms (what `total` is on the CPU clock).
pub const TOTAL_CPU_MS: &str = "total_cpu_ms";

// Proving, every backend of ours.
pub const SYNTHESIS: &str = "synthesis";
pub const NTT_H: &str = "ntt_h";
pub const INTT: &str = "intt";
pub const COSET_NTT: &str = "coset_ntt";
pub const COSET_INTT: &str = "coset_intt";
pub const MSM_H: &str = "msm_h";
pub const MSM_L: &str = "msm_l";
pub const MSM_A: &str = "msm_a";
pub const MSM_B_G1: &str = "msm_b_g1";
pub const MSM_B_G2: &str = "msm_b_g2";
pub const ASSEMBLE: &str = "assemble";
pub const VERIFY: &str = "verify";
/// filecoin-proofs' own verifier, on real PoRep proofs.
pub const VERIFY_FILECOIN: &str = "verify_filecoin";
/// The scalar split made once per circuit before the MSMs.
pub const MSM_PREP: &str = "msm_prep";
/// Synthesis of one circuit to learn its shape (real circuits).
pub const SYNTHESIZE_SHAPE: &str = "synthesize_shape";
pub const SIZE_HINT: &str = "size_hint";
/// Synthesis from the recorded shape (`shape-synth`), under `synthesis`: the
/// witness-only synthesis, then A, B, C as sparse matrix-vector products.
pub const WITNESS: &str = "witness";
pub const ABC_MATVEC: &str = "abc_matvec";

// The GPU backend (CUDA device events and host spans).
pub const CUDA_INIT: &str = "cuda_init";
pub const SRS_UPLOAD: &str = "srs_upload";
pub const H2D: &str = "h2d";
pub const BATCH_ADD: &str = "batch_add";
pub const TAIL_MSM: &str = "tail_msm";
pub const B_G2: &str = "b_g2";
pub const PIN: &str = "pin";
pub const UNPIN: &str = "unpin";
/// A standalone MSM (the GPU self-test's operation).
pub const MSM: &str = "msm";

// Anchors: provers that are not ours, timed as one call.
pub const BELLPERSON_PROVE: &str = "bellperson_prove";
pub const SUPRASEAL_PROVE: &str = "supraseal_prove";

// Setup.
pub const RECORD_SHAPE: &str = "record_shape";
pub const WRITE_SHAPE: &str = "write_shape";
pub const QAP_EVAL: &str = "qap_eval";
pub const FIXED_BASE_G1: &str = "fixed_base_g1";
pub const FIXED_BASE_G2: &str = "fixed_base_g2";
pub const FB_TABLE: &str = "fb_table";
pub const FB_H2D: &str = "fb_h2d";
pub const FB_MUL: &str = "fb_mul";
pub const FB_NORM: &str = "fb_norm";
pub const FB_D2H: &str = "fb_d2h";
pub const NORMALIZE: &str = "normalize";
pub const WRITE: &str = "write";
pub const BELLPERSON_GENERATE: &str = "bellperson_generate";

/// Every phase a record may carry, plus [`TOTAL`].
pub const KNOWN: &[&str] = &[
    TOTAL,
    SYNTHESIS,
    NTT_H,
    INTT,
    COSET_NTT,
    COSET_INTT,
    MSM_H,
    MSM_L,
    MSM_A,
    MSM_B_G1,
    MSM_B_G2,
    ASSEMBLE,
    VERIFY,
    VERIFY_FILECOIN,
    MSM_PREP,
    SYNTHESIZE_SHAPE,
    SIZE_HINT,
    WITNESS,
    ABC_MATVEC,
    CUDA_INIT,
    SRS_UPLOAD,
    H2D,
    BATCH_ADD,
    TAIL_MSM,
    B_G2,
    PIN,
    UNPIN,
    MSM,
    BELLPERSON_PROVE,
    SUPRASEAL_PROVE,
    RECORD_SHAPE,
    WRITE_SHAPE,
    QAP_EVAL,
    FIXED_BASE_G1,
    FIXED_BASE_G2,
    FB_TABLE,
    FB_H2D,
    FB_MUL,
    FB_NORM,
    FB_D2H,
    NORMALIZE,
    WRITE,
    BELLPERSON_GENERATE,
];

/// Whether `name` is in the vocabulary.
pub fn is_known(name: &str) -> bool {
    KNOWN.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_snake_case() {
        let mut seen = std::collections::BTreeSet::new();
        for n in KNOWN {
            assert!(seen.insert(*n), "`{n}` twice");
            assert!(
                n.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{n}"
            );
        }
        assert!(is_known(MSM_L) && !is_known("msm_ll"));
    }
}
