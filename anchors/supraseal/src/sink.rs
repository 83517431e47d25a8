//! JSON Lines output: each record one line, flushed as soon as it is written.

use crate::error::AnchorError;
use crate::record::Record;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

pub struct Sink(Option<BufWriter<File>>, String);

impl Sink {
    /// A file sink, or stdout when `path` is `None`.
    pub fn open(path: Option<&Path>) -> Result<Self, AnchorError> {
        match path {
            Some(p) => {
                let f = File::create(p).map_err(|e| AnchorError::io(format!("cannot create {}", p.display()), e))?;
                Ok(Sink(Some(BufWriter::new(f)), p.display().to_string()))
            }
            None => Ok(Sink(None, "stdout".into())),
        }
    }

    pub fn put(&mut self, r: &Record) -> Result<(), AnchorError> {
        let line = serde_json::to_string(r).map_err(|e| AnchorError::InvalidArgument(e.to_string()))?;
        let io = |e| AnchorError::io(format!("writing records to {}", self.1), e);
        match &mut self.0 {
            Some(w) => {
                writeln!(w, "{line}").map_err(io)?;
                w.flush().map_err(io)
            }
            None => {
                let mut out = std::io::stdout().lock();
                writeln!(out, "{line}").map_err(io)?;
                out.flush().map_err(io)
            }
        }
    }
}
