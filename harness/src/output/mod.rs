//! Export formats of comparisons and run summaries: one file per format behind [`Exporter`].
//! Exporters render to a `String`; writing it (atomically, to a file or stdout) is the caller's job.

pub(crate) mod cells;
mod csv;
mod exporter;
mod json;
mod markdown;
mod table;

pub use self::csv::Csv;
pub use self::json::Json;
pub use self::markdown::Markdown;
pub use self::table::Table;
pub use cells::is_tested;
pub use exporter::Exporter;

use crate::error::HarnessError;

/// The output formats (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned terminal table.
    Table,
    Json,
    Csv,
    /// Markdown, fit for a CI job summary.
    Markdown,
}

impl Format {
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            Format::Table => Box::new(Table),
            Format::Json => Box::new(Json),
            Format::Csv => Box::new(Csv),
            Format::Markdown => Box::new(Markdown),
        }
    }

    /// File extension for a file holding this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Table => "txt",
            Format::Json => "json",
            Format::Csv => "csv",
            Format::Markdown => "md",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = HarnessError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "table" => Ok(Format::Table),
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            "markdown" | "md" => Ok(Format::Markdown),
            other => Err(HarnessError::Invalid(format!(
                "unknown output format '{other}' (expected table, json, csv or markdown)"
            ))),
        }
    }
}

#[cfg(test)]
mod tests;
