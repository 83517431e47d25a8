//! The phases a record must carry, by mode and backend: defined once here for
//! every runner (which checks its own records before writing them) and for
//! the harness (which refuses a record that lacks one). A suite of the config
//! may require more, never fewer.

use crate::mode::{Backend, Mode};
use crate::names::*;

/// What besides mode and backend decides the required phases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Requires {
    /// The proofs were verified (a `verify` phase).
    pub verify: bool,
    /// The runner pins host memory (feature `pin`, GPU backend).
    pub pin: bool,
}

impl Requires {
    /// From the record's verification flag and the runner's features.
    pub fn of(verify: bool, features: &[impl AsRef<str>]) -> Requires {
        Requires {
            verify,
            pin: features.iter().any(|f| f.as_ref() == "pin"),
        }
    }
}

/// Phases a record of `mode` on `backend` must contain.
pub fn required(mode: Mode, backend: Backend, r: Requires) -> Vec<&'static str> {
    let mut v = match (mode, backend) {
        (Mode::Setup, Backend::Bellperson) => return vec![BELLPERSON_GENERATE, WRITE],
        (Mode::Setup, _) => return vec![RECORD_SHAPE, QAP_EVAL, FIXED_BASE_G1, FIXED_BASE_G2, NORMALIZE, WRITE],
        (Mode::Synth, _) => return vec![SYNTHESIS],
        // bellperson synthesizes and proves inside one call: one phase.
        (Mode::Prove, Backend::Bellperson) => vec![BELLPERSON_PROVE],
        (Mode::Prove, Backend::Supraseal) => vec![SYNTHESIS, SUPRASEAL_PROVE],
        (Mode::Prove, Backend::Cpu | Backend::Cuda) => vec![
            SYNTHESIS, NTT_H, INTT, COSET_NTT, COSET_INTT, MSM_H, MSM_L, MSM_A, MSM_B_G1, MSM_B_G2, ASSEMBLE,
        ],
    };
    // B_G2 runs on the device as one `msm_b_g2` span per partition (its
    // `batch_add` and `tail_msm` under it); runners before that recorded a
    // CPU `b_g2` span, which stored records may still hold.
    if backend == Backend::Cuda {
        v.extend([MSM_PREP, H2D, BATCH_ADD, TAIL_MSM]);
        if r.pin {
            v.push(PIN);
        }
    }
    if r.verify {
        v.push(VERIFY);
    }
    v
}

/// The first phase of `required(...)` missing from `names`.
pub fn first_missing<'a>(
    mode: Mode,
    backend: Backend,
    r: Requires,
    mut names: impl FnMut(&str) -> bool + 'a,
) -> Option<&'static str> {
    required(mode, backend, r).into_iter().find(|p| !names(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_required_phase_is_known_and_each_backend_differs() {
        for m in Mode::ALL {
            for b in Backend::ALL {
                for r in [
                    Requires::default(),
                    Requires {
                        verify: true,
                        pin: true,
                    },
                ] {
                    for p in required(*m, *b, r) {
                        assert!(is_known(p), "{m}/{b}: `{p}` is not in names::KNOWN");
                    }
                }
            }
        }
        let cuda = required(Mode::Prove, Backend::Cuda, Requires::of(true, &["cuda", "pin"]));
        assert!(cuda.contains(&PIN) && cuda.contains(&BATCH_ADD) && cuda.ends_with(&[VERIFY]));
        assert!(!cuda.contains(&B_G2), "B_G2 is on the device: no CPU `b_g2` span");
        let cpu = required(Mode::Prove, Backend::Cpu, Requires::of(true, &["pin"]));
        assert!(!cpu.contains(&PIN) && !cpu.contains(&B_G2), "pin is inert on the CPU");
        assert_eq!(
            required(Mode::Prove, Backend::Supraseal, Requires::of(true, &[] as &[&str])),
            [SYNTHESIS, SUPRASEAL_PROVE, VERIFY]
        );
        assert_eq!(required(Mode::Synth, Backend::Cuda, Requires::default()), [SYNTHESIS]);
        let have = [SYNTHESIS, SUPRASEAL_PROVE];
        assert_eq!(
            first_missing(
                Mode::Prove,
                Backend::Supraseal,
                Requires {
                    verify: true,
                    pin: false
                },
                |n| have.contains(&n)
            ),
            Some(VERIFY)
        );
    }
}
