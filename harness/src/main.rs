//! `phaseline`: parse, then dispatch.

use clap::Parser;
use phaseline::cli::{dispatch, Cli};
use phaseline::ExitCode;

fn main() {
    phaseline::exec::install_interrupt_handler();
    let cli = Cli::parse();
    let code = match dispatch(cli) {
        Ok(c) => c,
        Err(phaseline::HarnessError::Interrupted(sig)) => {
            eprintln!("error: interrupted by {}", phaseline::interrupt::name(sig));
            std::process::exit(phaseline::interrupt::exit_code(sig));
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::Error
        }
    };
    std::process::exit(code as i32);
}
