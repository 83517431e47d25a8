//! An in-process recorder of named phases: name, parent, start offset,
//! duration and thread, kept as data (never printed as log lines).

pub use phaseline_record::{covered_ms, Phase};
use std::sync::Mutex;
use std::time::Instant;

/// Collects phases; shareable across threads.
pub struct Recorder {
    origin: Instant,
    phases: Mutex<Vec<Phase>>,
    /// Harness self-test: extra sleep inside the named phases, in ms.
    delays: std::collections::BTreeMap<String, f64>,
}

impl Default for Recorder {
    fn default() -> Self {
        Self::new()
    }
}

impl Recorder {
    pub fn new() -> Self {
        Recorder {
            origin: Instant::now(),
            phases: Mutex::new(Vec::new()),
            delays: Default::default(),
        }
    }

    /// A recorder that sleeps `ms` inside each named phase (harness self-test only).
    pub fn with_delays(delays: std::collections::BTreeMap<String, f64>) -> Self {
        Recorder { delays, ..Self::new() }
    }

    pub fn elapsed_ms(&self) -> f64 {
        self.origin.elapsed().as_secs_f64() * 1e3
    }

    /// Times `f` as phase `name` (top level).
    pub fn time<T>(&self, name: &str, f: impl FnOnce() -> T) -> T {
        self.time_in(name, None, f)
    }

    /// Times `f` as phase `name` nested under `parent`.
    pub fn time_in<T>(&self, name: &str, parent: Option<&str>, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        if let Some(ms) = self.delays.get(name) {
            std::thread::sleep(std::time::Duration::from_secs_f64(ms / 1e3));
        }
        let out = f();
        self.push_span(name, parent, start, Instant::now(), serde_json::Map::new());
        out
    }

    /// Records a span measured elsewhere.
    pub fn push_span(
        &self,
        name: &str,
        parent: Option<&str>,
        start: Instant,
        end: Instant,
        extra: serde_json::Map<String, serde_json::Value>,
    ) {
        let start_ms = start.saturating_duration_since(self.origin).as_secs_f64() * 1e3;
        let ms = end.saturating_duration_since(start).as_secs_f64() * 1e3;
        let thread = std::thread::current()
            .name()
            .map(String::from)
            .unwrap_or_else(|| format!("{:?}", std::thread::current().id()));
        let p = Phase {
            name: name.into(),
            parent: parent.map(String::from),
            start_ms,
            ms,
            thread,
            extra,
        };
        self.phases.lock().unwrap_or_else(|e| e.into_inner()).push(p);
    }

    /// Records a span measured elsewhere (a GPU stream, a foreign call) on the
    /// named lane: it started at `start` and lasted `ms`.
    pub fn push_at(
        &self,
        name: &str,
        parent: Option<&str>,
        start: Instant,
        ms: f64,
        lane: &str,
        extra: serde_json::Map<String, serde_json::Value>,
    ) {
        let p = Phase {
            name: name.into(),
            parent: parent.map(String::from),
            start_ms: start.saturating_duration_since(self.origin).as_secs_f64() * 1e3,
            ms,
            thread: lane.into(),
            extra,
        };
        self.phases.lock().unwrap_or_else(|e| e.into_inner()).push(p);
    }

    /// Adds extra fields to the most recent phase named `name`.
    pub fn annotate(&self, name: &str, key: &str, value: serde_json::Value) {
        let mut g = self.phases.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = g.iter_mut().rev().find(|p| p.name == name) {
            p.extra.insert(key.into(), value);
        }
    }

    /// An empty recorder on this one's clock, with its delays: its phases
    /// can be moved here later ([`Self::absorb`]) with their offsets intact.
    pub fn sibling(&self) -> Recorder {
        Recorder {
            origin: self.origin,
            phases: Mutex::new(Vec::new()),
            delays: self.delays.clone(),
        }
    }

    /// Moves the phases of `other` (a [`Self::sibling`]) here, each with
    /// `key: value` added to its extra fields.
    pub fn absorb(&self, other: Recorder, key: &str, value: serde_json::Value) {
        let mut moved = other.phases.into_inner().unwrap_or_else(|e| e.into_inner());
        for p in &mut moved {
            p.extra.insert(key.into(), value.clone());
        }
        self.phases.lock().unwrap_or_else(|e| e.into_inner()).append(&mut moved);
    }

    pub fn into_phases(self) -> Vec<Phase> {
        let mut v = self.phases.into_inner().unwrap_or_else(|e| e.into_inner());
        v.sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorder_nests() {
        let r = Recorder::new();
        r.time("outer", || r.time_in("inner", Some("outer"), || 1));
        let ph = r.into_phases();
        assert_eq!(ph.len(), 2);
        assert!(ph
            .iter()
            .any(|p| p.name == "inner" && p.parent.as_deref() == Some("outer")));
    }

    #[test]
    fn a_sibling_shares_the_clock_and_tags_what_it_hands_over() {
        let r = Recorder::new();
        r.time("first", || std::thread::sleep(std::time::Duration::from_millis(2)));
        let s = r.sibling();
        s.time("second", || ());
        r.absorb(s, "partition", 3.into());
        let ph = r.into_phases();
        assert_eq!(
            ph.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
            ["first", "second"]
        );
        assert!(ph[1].start_ms >= ph[0].start_ms + ph[0].ms);
        assert_eq!(ph[1].extra["partition"], 3);
        assert!(!ph[0].extra.contains_key("partition"));
    }
}
