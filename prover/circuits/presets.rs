//! Circuit presets by size.

use super::PorepCircuit;

pub const PRESETS: &[&str] = &["tiny", "small", "medium", "large", "xl", "xxl", "porep-32g"];

/// The preset `name` with witness seed `seed`.
pub fn preset(name: &str, seed: u64) -> Result<PorepCircuit, String> {
    // (SHA compressions, rounds, x^5 rounds); a full compression is about 30k constraints
    let (n, r, p) = match name {
        "tiny" => (1, 1, 20),
        "small" => (2, 64, 200),
        "medium" => (32, 64, 1000),
        "large" => (128, 64, 4000),
        "xl" => (512, 64, 16000),
        "xxl" => (2048, 64, 64000),
        "porep-32g" => (4200, 64, 100000),
        _ => return Err(format!("`{name}` (valid presets: {})", PRESETS.join(", "))),
    };
    Ok(PorepCircuit::new(name, n, r, p, seed))
}
