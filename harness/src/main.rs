//! `phaseline`: parse, then dispatch.

fn main() {
    eprintln!("phaseline: no commands yet");
    std::process::exit(2);
}
