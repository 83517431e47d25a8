//! GPU facts and telemetry through NVML, loaded at run time. No GPU or no
//! driver is a normal state: every query then answers `None`.

use crate::model::MemPoint;
use nvml_wrapper::enum_wrappers::device::{Clock, TemperatureSensor};
use nvml_wrapper::Nvml;
use std::sync::OnceLock;

fn nvml() -> Option<&'static Nvml> {
    static NVML: OnceLock<Option<Nvml>> = OnceLock::new();
    NVML.get_or_init(|| Nvml::init().ok()).as_ref()
}

/// Model and driver of GPU 0, when NVML loads and sees one.
pub fn model_and_driver() -> Option<(String, String)> {
    let n = nvml()?;
    let d = n.device_by_index(0).ok()?;
    let name = d.name().ok()?;
    let driver = n.sys_driver_version().unwrap_or_else(|_| "unknown".into());
    Some((name, driver))
}

/// Fills the GPU fields of `p` from GPU 0; leaves them empty without a GPU.
pub fn sample_into(p: &mut MemPoint) {
    let Some(n) = nvml() else { return };
    let Ok(d) = n.device_by_index(0) else { return };
    p.gpu_used_bytes = d.memory_info().ok().map(|m| m.used);
    p.gpu_util_pct = d.utilization_rates().ok().map(|u| u.gpu);
    p.sm_clock_mhz = d.clock_info(Clock::SM).ok();
    p.power_w = d.power_usage().ok().map(|mw| mw as f64 / 1e3);
    p.temp_c = d.temperature(TemperatureSensor::Gpu).ok();
    if let Ok(r) = d.current_throttle_reasons() {
        p.throttle = r.iter_names().map(|(name, _)| name.to_lowercase()).collect();
    }
}
