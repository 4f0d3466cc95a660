//! The analysis results this module presents, re-exported from where the pipeline defines them.

pub use crate::engine::{Report, TestSummary};
pub use crate::finding::{Finding, Severity, Side};
