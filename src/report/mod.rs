//! Reporters: pure functions from a [`Report`] to bytes, one module per format.
//!
//! They never filter, re-rank or decide blocking; they only present what the engine decided.
//! Findings arrive already sorted and redacted.

mod github;
mod human;
mod json;
mod sarif;

pub use github::escape_data as github_escape_data;
pub use github::escape_property as github_escape_property;

use crate::engine::Report;

/// Output formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Source snippets with markers, like rustc or ruff.
    Human,
    /// The contract's JSON, version 1.
    Json,
    /// SARIF 2.1.0, as GitHub code scanning reads it.
    Sarif,
    /// GitHub workflow commands (`::error file=…`).
    Github,
}

/// Presentation options that do not change content.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// ANSI colour in the human format.
    pub color: bool,
}

/// Renders a report in `format`.
pub fn render(format: Format, report: &Report, style: Style) -> Vec<u8> {
    match format {
        Format::Human => human::render(report, style).into_bytes(),
        Format::Json => json::render(report),
        Format::Sarif => sarif::render(report),
        Format::Github => github::render(report).into_bytes(),
    }
}
