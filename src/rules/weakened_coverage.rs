//! `weakened-coverage`: a coverage threshold lowered, removed or made non-blocking, or code
//! taken out of the measurement. The detection core is [`crate::coverage`]; this rule feeds it
//! the change and maps its results.

use super::context::{Candidate, FileContext, Output};
use super::{ChangeInput, ChangeOutput, declare_rule};
use crate::coverage::{self, CoverageFinding, FileChange};
use crate::finding::{Note, Severity, Side};

declare_rule! {
    /// ## What it flags
    /// A coverage threshold lowered, removed, hidden behind a non-literal, or made
    /// non-blocking, wherever projects keep one: jest `coverageThreshold` (config files and
    /// `package.json`), vitest `test.coverage.thresholds`, nyc and c8 (`check-coverage`,
    /// `--lines N`), coverage.py `fail_under` (`.coveragerc`, `setup.cfg`, `pyproject.toml`),
    /// pytest-cov `--cov-fail-under` (`addopts`, tox, CI commands), codecov (`target`
    /// lowered, `threshold` raised, `informational: true`, a status removed), tarpaulin
    /// `fail-under`, cargo-llvm-cov `--fail-under-*`, and the same flags in GitHub workflows,
    /// Makefiles and justfiles (a coverage step removed, or made `continue-on-error`).
    ///
    /// Code taken out of the measurement is a warning: new `# pragma: no cover`,
    /// `/* istanbul ignore */`, `/* c8 ignore */`, `/* v8 ignore */`, `#[coverage(off)]`, and
    /// new `omit`/`exclude` entries. The message names the setting and old → new.
    /// ## Why it matters
    /// After deleting or skipping tests, coverage drops; lowering the bar is the quiet way to
    /// keep the coverage gate green.
    /// ## Example
    /// Fires: `.coveragerc` `fail_under = 90` → `fail_under = 60`
    /// ("coverage.py report.fail_under 90 → 60"); jest `coverageThreshold.global.lines: 80`
    /// removed; a workflow step `pytest --cov-fail-under=85` → `pytest --cov`.
    /// ## Not flagged
    /// - Raised thresholds, reordering and formatting.
    /// - A threshold moved to another file with the same or a higher value
    ///   (package.json `jest` → `jest.config.js`).
    /// - A pragma on a line that only moved.
    /// ## Configuration
    /// `rules.weakened-coverage.severity` in `.integrity-gate.yml`.
    pub static WEAKENED_COVERAGE = {
        id: "weakened-coverage",
        severity: Error,
        engine: Manifest,
        languages: [],
        summary: "a coverage threshold is lowered, removed or made non-blocking",
        maturity: Stable,
        check: Some(pragmas),
        change_check: thresholds,
    }
}

/// Exclusion pragmas on added lines of any text file.
fn pragmas(context: &FileContext<'_>, out: &mut Output) {
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    if context.pair.added.is_empty() {
        return;
    }
    let added: Vec<u32> = context.pair.added.iter().collect();
    let base = context.side(Side::Base).map(|base| base.text);
    for finding in coverage::pragma_findings(base, head.text, &added) {
        out.candidates.push(candidate(finding));
    }
}

/// Thresholds across every coverage source the change touched, compared together so that a
/// threshold moved between files is judged by value.
fn thresholds(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    let pairs = input.pairs;
    let sources: Vec<(usize, FileChange<'_>)> = pairs
        .iter()
        .enumerate()
        .filter(|(_, pair)| coverage::is_coverage_source(pair.path()))
        .map(|(index, pair)| {
            (
                index,
                FileChange {
                    path: pair.path(),
                    base: pair.base.text(),
                    head: pair.head.text(),
                },
            )
        })
        .collect();
    if sources.is_empty() {
        return;
    }
    let changes: Vec<FileChange<'_>> = sources.iter().map(|(_, change)| *change).collect();
    for ((index, change), result) in sources.iter().zip(coverage::compare_changes(&changes)) {
        match result {
            Ok(findings) => out.candidates.extend(
                findings
                    .into_iter()
                    .map(|finding| (*index, candidate(finding))),
            ),
            Err(message) => out.notes.push(Note {
                path: change.path.to_string(),
                message: format!("coverage settings not checked: {message}"),
            }),
        }
    }
}

fn candidate(finding: CoverageFinding) -> Candidate {
    let severity = match finding.severity {
        coverage::Severity::Error => Severity::Error,
        coverage::Severity::Warning => Severity::Warning,
        coverage::Severity::Note => Severity::Note,
    };
    Candidate {
        side: if finding.side_is_base {
            Side::Base
        } else {
            Side::Head
        },
        line: finding.line.max(1),
        end_line: finding.end_line.max(finding.line).max(1),
        severity,
        key: finding.message.clone(),
        message: finding.message,
        moved: None,
        confidence: crate::finding::Confidence::Certain,
    }
}
