//! One colour per phase, the same in every chart and report.
//!
//! The prover's known phases have fixed colours; any other phase name gets a
//! colour from a second table chosen by a hash of its name, so a phase keeps
//! its colour across runs, charts and program versions.

use phaseline_record::names;
use plotters::style::RGBColor;

/// Fixed colours of the runners' phases (and the two pseudo-phases): every
/// phase of the protocol's vocabulary that a proof's timeline shows.
const KNOWN: &[(&str, RGBColor)] = &[
    (names::SYNTHESIS, RGBColor(31, 119, 180)),
    (names::NTT_H, RGBColor(255, 127, 14)),
    (names::INTT, RGBColor(255, 187, 120)),
    (names::COSET_NTT, RGBColor(214, 162, 40)),
    (names::COSET_INTT, RGBColor(188, 120, 20)),
    (names::MSM_H, RGBColor(44, 160, 44)),
    (names::MSM_L, RGBColor(214, 39, 40)),
    (names::MSM_A, RGBColor(148, 103, 189)),
    (names::MSM_B_G1, RGBColor(140, 86, 75)),
    (names::MSM_B_G2, RGBColor(227, 119, 194)),
    (names::ASSEMBLE, RGBColor(23, 190, 207)),
    (names::VERIFY, RGBColor(188, 189, 34)),
    (names::VERIFY_FILECOIN, RGBColor(219, 219, 141)),
    (names::MSM_PREP, RGBColor(158, 218, 229)),
    (names::PIN, RGBColor(255, 152, 150)),
    (names::UNPIN, RGBColor(247, 182, 210)),
    (names::H2D, RGBColor(174, 199, 232)),
    (names::BATCH_ADD, RGBColor(152, 223, 138)),
    (names::TAIL_MSM, RGBColor(197, 176, 213)),
    (names::B_G2, RGBColor(196, 156, 148)),
    (names::SUPRASEAL_PROVE, RGBColor(107, 110, 207)),
    (names::BELLPERSON_PROVE, RGBColor(156, 158, 222)),
    (names::TOTAL, RGBColor(60, 60, 60)),
    (UNACCOUNTED, RGBColor(199, 199, 199)),
];

/// Colours for phases not in [`KNOWN`], picked by name hash.
const EXTRA: &[RGBColor] = &[
    RGBColor(57, 59, 121),
    RGBColor(82, 84, 163),
    RGBColor(99, 121, 57),
    RGBColor(140, 162, 82),
    RGBColor(140, 109, 49),
    RGBColor(189, 158, 57),
    RGBColor(132, 60, 57),
    RGBColor(173, 73, 74),
    RGBColor(123, 65, 115),
    RGBColor(165, 81, 148),
    RGBColor(49, 130, 189),
    RGBColor(230, 85, 13),
];

/// Name of the stacked-bar segment for wall time no top-level phase covers.
pub const UNACCOUNTED: &str = "unaccounted";

/// The colour of `phase`, stable across charts and runs.
pub fn phase_color(phase: &str) -> RGBColor {
    if let Some((_, c)) = KNOWN.iter().find(|(n, _)| *n == phase) {
        return *c;
    }
    EXTRA[(fnv1a(phase) % EXTRA.len() as u64) as usize]
}

/// `#rrggbb` of a phase colour (HTML tables use it as a swatch).
pub fn phase_hex(phase: &str) -> String {
    let RGBColor(r, g, b) = phase_color(phase);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Colours of the memory series and chart marks that are not phases.
pub mod marks {
    use plotters::style::RGBColor;
    pub const REGRESSED: RGBColor = RGBColor(200, 0, 0);
    pub const IMPROVED: RGBColor = RGBColor(0, 130, 0);
    pub const NEUTRAL: RGBColor = RGBColor(110, 110, 110);
    pub const BAND: RGBColor = RGBColor(150, 150, 150);
    pub const RSS: RGBColor = RGBColor(0, 63, 92);
    pub const SYSTEM: RGBColor = RGBColor(127, 127, 127);
    pub const GPU: RGBColor = RGBColor(118, 185, 0);
}

/// 64-bit FNV-1a: a fixed hash, so colours never change between builds.
fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_phases_have_distinct_fixed_colours() {
        let mut seen: Vec<RGBColor> = KNOWN.iter().map(|(_, c)| *c).collect();
        let n = seen.len();
        seen.sort_by_key(|c| (c.0, c.1, c.2));
        seen.dedup();
        assert_eq!(seen.len(), n, "two known phases share a colour");
        assert_eq!(phase_hex("synthesis"), "#1f77b4");
    }

    #[test]
    fn memory_series_colours_are_not_phase_colours() {
        for m in [marks::RSS, marks::SYSTEM, marks::GPU] {
            assert!(!KNOWN.iter().any(|(_, c)| *c == m) && !EXTRA.contains(&m));
        }
    }

    #[test]
    fn unknown_phase_colour_is_stable() {
        let a = phase_color("my_new_phase");
        assert_eq!(a, phase_color("my_new_phase"));
        assert!(EXTRA.contains(&a));
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
