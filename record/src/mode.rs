//! What a runner was asked to do (`Mode`) and which prover did it (`Backend`):
//! the closed sets the record's `mode` and `backend` fields hold.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A runner command that writes records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Synthesis only.
    Synth,
    /// Synthesis, proving and verification.
    Prove,
    /// Parameter generation.
    Setup,
}

/// The prover that made a record's proofs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    /// Ours, on the CPU.
    Cpu,
    /// Ours, on the GPU.
    Cuda,
    /// bellperson's own CPU prover (an anchor inside our runner).
    Bellperson,
    /// supraseal-c2 (the anchor runner `phaseline-anchor-supraseal`).
    Supraseal,
}

macro_rules! names {
    ($t:ty, $what:literal, $($v:ident => $s:literal),+) => {
        impl $t {
            /// Every value, in declaration order.
            pub const ALL: &'static [$t] = &[$(<$t>::$v),+];

            /// The name the record and the command line use.
            pub fn as_str(self) -> &'static str {
                match self { $(<$t>::$v => $s),+ }
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($s => Ok(<$t>::$v),)+
                    _ => Err(format!(
                        concat!("unknown ", $what, " `{}` (known: {})"),
                        s,
                        [$($s),+].join(", ")
                    )),
                }
            }
        }
    };
}

names!(Mode, "mode", Synth => "synth", Prove => "prove", Setup => "setup");
names!(Backend, "backend", Cpu => "cpu", Cuda => "cuda", Bellperson => "bellperson", Supraseal => "supraseal");

impl Backend {
    /// Whether the backend proves on a GPU.
    pub fn is_gpu(self) -> bool {
        matches!(self, Backend::Cuda | Backend::Supraseal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text_and_json() {
        for b in Backend::ALL {
            assert_eq!(b.as_str().parse::<Backend>().unwrap(), *b);
            assert_eq!(serde_json::to_string(b).unwrap(), format!("\"{b}\""));
        }
        for m in Mode::ALL {
            assert_eq!(m.as_str().parse::<Mode>().unwrap(), *m);
        }
        let e = "gpu".parse::<Backend>().unwrap_err();
        assert!(e.contains("unknown backend `gpu`") && e.contains("cuda"), "{e}");
    }
}
