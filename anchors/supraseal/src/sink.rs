//! JSON Lines output: each record one line, flushed as soon as it is written.
//! The file is created only when the first record is ready, so a run that
//! fails before proving anything leaves an existing file untouched.

use crate::error::AnchorError;
use crate::record::Record;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub struct Sink {
    path: Option<PathBuf>,
    file: Option<BufWriter<File>>,
}

impl Sink {
    /// A file sink, or stdout when `path` is `None`.
    pub fn new(path: Option<&Path>) -> Self {
        Sink {
            path: path.map(Path::to_path_buf),
            file: None,
        }
    }

    pub fn put(&mut self, r: &Record) -> Result<(), AnchorError> {
        let line = serde_json::to_string(r).map_err(|e| AnchorError::InvalidArgument(e.to_string()))?;
        let name = self
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or("stdout".into());
        let io = |e| AnchorError::io(format!("writing records to {name}"), e);
        match (&self.path, &mut self.file) {
            (None, _) => {
                let mut out = std::io::stdout().lock();
                writeln!(out, "{line}").map_err(io)?;
                out.flush().map_err(io)
            }
            (Some(p), f) => {
                if f.is_none() {
                    *f = Some(BufWriter::new(File::create(p).map_err(io)?));
                }
                let w = f
                    .as_mut()
                    .ok_or_else(|| AnchorError::InvalidArgument("no output file".into()))?;
                writeln!(w, "{line}").map_err(io)?;
                w.flush().map_err(io)
            }
        }
    }
}
