//! Reporters: pure functions from a [`Report`] to bytes, one module per format.
//!
//! They never filter, re-rank or decide blocking; they only present what the engine decided.
//! Findings arrive already sorted and redacted.

mod github;
mod gitlab;
mod human;
mod json;
mod junit;
mod markdown;
#[cfg(test)]
mod sample;
mod sarif;

pub use github::escape_data as github_escape_data;
pub use github::escape_property as github_escape_property;

use crate::engine::Report;
use crate::finding::Severity;

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
    /// GitLab Code Quality (a Code Climate subset) for `artifacts:reports:codequality`.
    Gitlab,
    /// JUnit XML: one test case per rule, a failure per blocking finding.
    Junit,
    /// The check run's Markdown summary, for a pull-request comment elsewhere.
    Markdown,
}

impl Format {
    /// Formats a program reads: nothing but the report may reach their stream, and no
    /// progress is drawn while they are written.
    pub fn is_machine_readable(self) -> bool {
        matches!(
            self,
            Format::Json | Format::Sarif | Format::Gitlab | Format::Junit
        )
    }
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
        Format::Gitlab => gitlab::render(report),
        Format::Junit => junit::render(report).into_bytes(),
        Format::Markdown => markdown::render(report).into_bytes(),
    }
}

/// The lowest severity that blocks in `report`, or `None` when nothing blocks. The report
/// keeps only the blocking count, and blocking is `severity >= fail-on`, so the floor is the
/// lowest severity at and above which exactly that many findings stand (a lower one than the
/// policy's when no finding sits between them, which classifies every finding the same).
pub fn blocking_floor(report: &Report) -> Option<Severity> {
    if report.blocking == 0 {
        return None;
    }
    [Severity::Note, Severity::Warning, Severity::Error]
        .into_iter()
        .find(|floor| {
            report
                .findings
                .iter()
                .filter(|finding| finding.severity >= *floor)
                .count()
                == report.blocking
        })
}
