//! `phaseline`: parse, then dispatch; the error's kind decides the exit code.

use clap::Parser;
use phaseline::cli::{dispatch, Cli};
use phaseline::HarnessError;

fn main() {
    phaseline::exec::install_interrupt_handler();
    let cli = Cli::parse();
    let code = match dispatch(cli) {
        Ok(c) => c as i32,
        Err(e) => {
            match &e {
                HarnessError::Interrupted(sig) => {
                    eprintln!("error: interrupted by {}", phaseline::interrupt::name(*sig))
                }
                other => eprintln!("error: {other}"),
            }
            e.exit_code()
        }
    };
    std::process::exit(code);
}
