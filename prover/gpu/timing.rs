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

#[cfg(test)]
mod tests {
    use super::*;

    fn span(name: &str, parent: &str, lane: u32, start: f64, ms: f64, window: u32) -> crate::gpu::ffi::PlPhase {
        let mut p = PhaseBuf::new(1).items[0];
        p.name[..name.len()].copy_from_slice(name.as_bytes());
        p.parent[..parent.len()].copy_from_slice(parent.as_bytes());
        p.lane = lane;
        p.start_ms = start;
        p.ms = ms;
        p.window = window;
        p.count = 7;
        p.partition = 3;
        p
    }

    #[test]
    fn spans_keep_names_parents_lanes_and_offsets() {
        let mut buf = PhaseBuf::new(4);
        buf.items[0] = span("msm_l", "", 0, 1.0, 2.0, 0);
        buf.items[1] = span("tail_msm", "msm_l", 2, 1.5, 1.0, 12);
        buf.items[2] = span("pin", "", HOST_LANE, 0.0, 0.5, 0);
        buf.raw.len = 3;
        let rec = Recorder::new();
        let t0 = Instant::now();
        merge(&rec, t0, &buf, None, Some("test"));
        let ph = rec.into_phases();
        assert_eq!(ph.len(), 3);
        let tail = ph.iter().find(|p| p.name == "tail_msm").unwrap();
        assert_eq!(tail.parent.as_deref(), Some("msm_l"));
        assert_eq!(tail.thread, "gpu-stream2");
        assert_eq!(tail.extra["window"], 12);
        assert_eq!(tail.extra["partition"], 3);
        assert_eq!(tail.extra["what"], "test");
        let l = ph.iter().find(|p| p.name == "msm_l").unwrap();
        assert!(l.parent.is_none() && !l.extra.contains_key("window"));
        assert!((tail.start_ms - l.start_ms - 0.5).abs() < 1e-6);
        assert_eq!(ph.iter().find(|p| p.name == "pin").unwrap().thread, "gpu-host");
    }

    #[test]
    fn top_level_spans_nest_under_the_given_parent() {
        let mut buf = PhaseBuf::new(1);
        buf.items[0] = span("h2d", "", 0, 0.0, 1.0, 0);
        buf.raw.len = 1;
        buf.raw.dropped = 2;
        let rec = Recorder::new();
        merge(&rec, Instant::now(), &buf, Some("srs_upload"), None);
        let ph = rec.into_phases();
        assert_eq!(
            ph.iter().find(|p| p.name == "h2d").unwrap().parent.as_deref(),
            Some("srs_upload")
        );
        assert_eq!(
            ph.iter().find(|p| p.name == "gpu_spans_dropped").unwrap().extra["count"],
            2
        );
    }
}
