//! `phaseline build`: build (or reuse from the cache) the runner of each variant.

use super::run::VariantArgs;
use crate::builder::{self, BuildSettings};
use crate::config::Config;
use crate::error::{ExitCode, HarnessError};
use crate::run_request::or_default;
use clap::Args;

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub v: VariantArgs,
}

pub fn build(cfg: &Config, a: &BuildArgs) -> Result<ExitCode, HarnessError> {
    let specs = or_default(&a.v.variants, &cfg.default.variants);
    let variants = crate::variant::parse_all(&specs, cfg)?;
    let s = BuildSettings::from_config(cfg, a.v.runner.clone());
    let (ok, failed) = builder::prepare_all(&s, &variants, &mut |m| eprintln!("{m}"));
    if let Some(sig) = crate::interrupt::received() {
        return Err(HarnessError::Interrupted(sig));
    }
    for b in &ok {
        println!(
            "{:<12} [{}] {} {} {}",
            b.variant.name,
            b.variant.feature_list(),
            b.fingerprint,
            if b.cached { "cached" } else { "built" },
            b.binary
        );
    }
    for (v, e) in &failed {
        eprintln!("error: variant `{v}`: {e}");
    }
    Ok(if failed.is_empty() {
        ExitCode::Ok
    } else {
        ExitCode::Error
    })
}
