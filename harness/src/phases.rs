//! The phase vocabulary the harness accepts: the runner protocol's
//! (`phaseline_record::names`), so that a threshold for a misspelt phase is
//! refused instead of silently unused.

pub use phaseline_record::names::KNOWN as KNOWN_PHASES;

/// Whether `name` is a known phase or one a suite of the config requires.
pub fn is_known(name: &str, required: &[&str]) -> bool {
    phaseline_record::names::is_known(name) || required.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_protocol_vocabulary_and_suite_phases_are_known() {
        assert!(KNOWN_PHASES.contains(&crate::model::TOTAL));
        assert!(is_known("pin", &[]) && is_known("custom", &["custom"]) && !is_known("synthesys", &[]));
    }
}
