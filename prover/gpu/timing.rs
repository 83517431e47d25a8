//! Merges the spans a GPU call returns (CUDA events for device work, a
//! steady clock for host work, both relative to the call's entry) into the
//! run's phase [`Recorder`].

use super::ffi::{cstr, PhaseBuf};
use crate::phases::Recorder;
use std::time::{Duration, Instant};

const HOST_LANE: u32 = 99;

fn lane_name(lane: u32) -> String {
    if lane == HOST_LANE {
        "gpu-host".into()
    } else {
        format!("gpu-stream{lane}")
    }
}

/// Adds every span of `buf` to `rec`; `t0` is the host instant of the call.
/// Top-level spans are nested under `parent` when given; `what` tags each.
pub fn merge(rec: &Recorder, t0: Instant, buf: &PhaseBuf, parent: Option<&str>, what: Option<&str>) {
    let outer = parent;
    for p in buf.filled() {
        let name = cstr(&p.name);
        let parent = cstr(&p.parent);
        let start = t0 + Duration::from_secs_f64(p.start_ms.max(0.0) / 1e3);
        let mut extra = serde_json::Map::new();
        extra.insert("partition".into(), p.partition.into());
        if let Some(w) = what {
            extra.insert("what".into(), w.into());
        }
        extra.insert("count".into(), p.count.into());
        if p.window != 0 {
            extra.insert("window".into(), p.window.into());
        }
        let parent = if parent.is_empty() {
            outer
        } else {
            Some(parent.as_str())
        };
        rec.push_at(&name, parent, start, p.ms, &lane_name(p.lane), extra);
    }
    if buf.raw.dropped > 0 {
        rec.push_at(
            "gpu_spans_dropped",
            None,
            t0,
            0.0,
            "gpu-host",
            [("count".to_string(), serde_json::Value::from(buf.raw.dropped))]
                .into_iter()
                .collect(),
        );
    }
}
