//! The supraseal anchor: proves phaseline's benchmark circuits and the real
//! PoRep C2 circuit with
//! supraseal-c2 through bellperson's `cuda-supraseal` feature and writes the
//! runner's record shape. One module per concern.

pub mod boundary;
pub mod error;
pub mod params;
pub mod prove;
pub mod record;
pub mod rss;
pub mod shape;
pub mod sink;
pub mod workload;

pub use error::AnchorError;
