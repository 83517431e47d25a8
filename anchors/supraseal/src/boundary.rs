//! Where bellperson's supraseal prover ends synthesis and hands the batch to
//! supraseal-c2. bellperson exposes one call for both; it marks the hand-over
//! with a fixed `log` event ("starting proof timer", target
//! `bellperson::groth16::prover::supraseal`). This logger keeps the instant of
//! that event as data; no text is printed or parsed for a duration.

use log::{Level, LevelFilter, Log, Metadata, Record};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Target and message of the event that ends synthesis in bellperson 0.27.
pub const TARGET: &str = "bellperson::groth16::prover::supraseal";
pub const MESSAGE: &str = "starting proof timer";

struct Boundary {
    last: Mutex<Option<Instant>>,
}

impl Log for Boundary {
    fn enabled(&self, m: &Metadata) -> bool {
        m.level() <= Level::Info && m.target() == TARGET
    }

    fn log(&self, r: &Record) {
        if r.target() == TARGET && r.args().as_str() == Some(MESSAGE) {
            let now = Instant::now();
            *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(now);
        }
    }

    fn flush(&self) {}
}

fn boundary() -> &'static Boundary {
    static B: OnceLock<Boundary> = OnceLock::new();
    B.get_or_init(|| Boundary { last: Mutex::new(None) })
}

/// Installs the logger (once per process). Fails if another logger is installed.
pub fn install() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        log::set_logger(boundary()).map_err(|e| format!("cannot install the phase logger: {e}"))?;
        log::set_max_level(LevelFilter::Info);
        Ok(())
    })
    .clone()
}

/// Takes the instant of the last hand-over event (none if it did not happen).
pub fn take() -> Option<Instant> {
    boundary().last.lock().unwrap_or_else(|e| e.into_inner()).take()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_the_handover_event() {
        install().unwrap();
        let _ = take();
        log::info!(target: TARGET, "synthesis time: {:?}", std::time::Duration::from_millis(1));
        log::info!(target: "elsewhere", "starting proof timer");
        assert!(take().is_none());
        let before = Instant::now();
        log::info!(target: TARGET, "starting proof timer");
        let t = take().expect("event recorded");
        assert!(t >= before);
        assert!(take().is_none(), "taken once");
    }
}
