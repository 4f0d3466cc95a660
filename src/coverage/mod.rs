//! Detection core of the `weakened-coverage` rule.
//!
//! Sits in the manifest engine of the pipeline: the engine hands over one
//! changed file at a time (repo-relative path, base text, head text) and turns
//! the returned [`CoverageFinding`]s into contract findings. This module never
//! reads files, prints or exits.
//!
//! Every coverage source (jest, vitest, nyc, c8, coverage.py, pytest-cov,
//! codecov, tarpaulin, cargo-llvm-cov, CI commands) is normalised into a flat
//! list of settings keyed by a readable path such as
//! `jest coverageThreshold.global.lines` or
//! `ci pytest --cov-fail-under (job test, step Run tests)`. Base and head lists
//! are then compared key by key, and leftovers are paired by *family* (the key
//! without its location) so that moving a threshold between jobs, between
//! spellings (`coverage.lines` → `coverage.thresholds.lines`) or, through
//! [`compare_changes`], between files is judged by value instead of being
//! reported as a removal.
//!
//! Direction per setting kind:
//! - minimum percentages (`lines`, `fail_under`, codecov `target`): lower is
//!   weaker; jest/vitest negative numbers are "max uncovered" counts, where a
//!   larger magnitude is weaker; a switch between a percentage and a count is
//!   not comparable and reported as a warning; `0` never enforces anything.
//! - codecov `threshold` (allowed drop) and llvm-cov `--fail-uncovered-*`
//!   (allowed uncovered count): higher is weaker; absent means 0.
//! - flags that enforce (`check-coverage`, `100: true`, `perFile`, a codecov
//!   status being enabled) and flags that disable (`informational`, `--no-cov`).
//! - codecov `target: auto` compares against the base commit's coverage, so
//!   the gate cannot order it against a number: a switch in either direction
//!   is a warning, except `auto → 100`, which is never weaker.
//! - a value that stops being a literal (a variable, an env var, a call) is an
//!   error: the gate can no longer see what is enforced.
//!
//! Exclusions (new `omit`/`exclude` entries, pragmas such as
//! `# pragma: no cover`) are warnings: they lower coverage without touching a
//! number.

mod command;
mod compare;
mod pragma;
mod sources;
mod tree;
mod variables;

#[cfg(test)]
mod tests;

pub use compare::{FileChange, compare, compare_changes};
pub use pragma::{exclusion_pragma, pragma_findings};
pub use sources::{is_coverage_source, is_tool_config};

/// How serious a finding is; maps onto the contract's `error|warning|note`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Informational only.
    Note,
    /// Lowers coverage without touching a threshold (exclusions, pragmas), or a
    /// change whose direction cannot be decided (`target: auto`).
    Warning,
    /// A threshold lowered, removed, hidden behind a non-literal or made non-blocking.
    Error,
}

/// One detection, located in the base or head text of the file it was reported for.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageFinding {
    /// Severity before policy overrides.
    pub severity: Severity,
    /// True when the finding points at a line that exists only in base
    /// (a removed threshold, a deleted file).
    pub side_is_base: bool,
    /// 1-based first line in that side's text.
    pub line: u32,
    /// 1-based last line in that side's text.
    pub end_line: u32,
    /// Human message naming the setting and old → new, e.g.
    /// "jest coverageThreshold.global.lines 90 → 60".
    pub message: String,
}
