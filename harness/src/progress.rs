//! Progress of a run: a bar with variant, repetition and ETA on a terminal,
//! plain lines otherwise (CI logs).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Bar on a terminal, lines otherwise.
    Auto,
    Lines,
    Quiet,
}

pub enum Progress {
    Bar(ProgressBar),
    Lines { total: usize, done: usize },
    Quiet,
}

impl Progress {
    pub fn new(total: usize, mode: Mode) -> Progress {
        match mode {
            Mode::Quiet => Progress::Quiet,
            Mode::Auto if std::io::stderr().is_terminal() => {
                let pb = ProgressBar::new(total as u64);
                let style = ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} ETA {eta} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar());
                pb.set_style(style);
                Progress::Bar(pb)
            }
            _ => Progress::Lines { total, done: 0 },
        }
    }

    /// A child is starting.
    pub fn start(&mut self, what: &str) {
        if let Progress::Bar(pb) = self {
            pb.set_message(what.to_string());
        }
    }

    /// A child finished with `result` (e.g. `812 ms` or `FAILED: ...`).
    pub fn done(&mut self, what: &str, result: &str) {
        match self {
            Progress::Bar(pb) => {
                pb.inc(1);
                if result.starts_with("FAILED") {
                    pb.println(format!("{what}: {result}"));
                }
            }
            Progress::Lines { total, done } => {
                *done += 1;
                eprintln!("[{done}/{total}] {what}: {result}");
            }
            Progress::Quiet => {}
        }
    }

    /// A message that must not break the bar.
    pub fn say(&self, msg: &str) {
        match self {
            Progress::Bar(pb) => pb.println(msg),
            Progress::Lines { .. } => eprintln!("{msg}"),
            Progress::Quiet => {}
        }
    }

    pub fn finish(self) {
        if let Progress::Bar(pb) = self {
            pb.finish_and_clear();
        }
    }
}
