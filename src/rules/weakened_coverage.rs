//! `weakened-coverage`: a coverage threshold lowered, removed or made non-blocking, or code
//! taken out of the measurement. The detection core is [`crate::coverage`]; this rule feeds it
//! the change and maps its results.

use super::context::{Candidate, FileContext, Output};
use super::{ChangeInput, ChangeOutput, declare_rule};
use crate::changeset::FilePair;
use crate::coverage::{self, CoverageFinding, FileChange};
use crate::finding::{Note, Severity, Side};
use crate::workspace::Ownership;

declare_rule! {
    /// ## What it flags
    /// A coverage threshold lowered, removed, hidden behind a non-literal, or made
    /// non-blocking, wherever projects keep one: jest `coverageThreshold` (config files and
    /// `package.json`), vitest `test.coverage.thresholds`, nyc and c8 (`check-coverage`,
    /// `--lines N`), coverage.py `fail_under` (`.coveragerc`, `setup.cfg`, `pyproject.toml`),
    /// pytest-cov `--cov-fail-under` (`addopts`, tox, CI commands), codecov (`target`
    /// lowered, `threshold` raised, `informational: true`, a status removed), tarpaulin
    /// `fail-under`, cargo-llvm-cov `--fail-under-*`, and the same flags in GitHub workflows,
    /// Makefiles, justfiles, shell scripts, noxfiles and JavaScript build scripts
    /// (`Makefile.js`: `istanbul check-coverage --statements N`), a coverage step removed or
    /// made `continue-on-error`. A threshold given through a variable is read through it
    /// (`COV_MIN ?= 95` with `--cov-fail-under=$(COV_MIN)`, a workflow `env:`, `${COV_MIN:-90}`),
    /// so lowering the variable lowers the threshold. A `--cov-config` that switches to
    /// another configuration file is a warning (that file's omissions are read as its own).
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
    /// - Raised thresholds, reordering and formatting; a threshold variable renamed with
    ///   its value kept.
    /// - A threshold moved to another file with the same or a higher value
    ///   (package.json `jest` → `jest.config.js`).
    /// - A pragma on a line that only moved.
    /// - Tool configurations in test-fixture copies of other projects (a third-party
    ///   `pyproject.toml` under `test/ecosystem/<project>/`; see `new-dependency` for what counts
    ///   as one) that no workspace of the project takes in: they gate nothing here, and the
    ///   report's notes list what changed. A threshold moved from the project's own files into
    ///   such a copy is a removal.
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

/// Prose and tables: a pragma there is quoted, not obeyed.
const PROSE: &[&str] = &["md", "markdown", "rst", "adoc", "txt", "tsv", "csv"];

/// Exclusion pragmas on added lines of any text file but prose and tables.
fn pragmas(context: &FileContext<'_>, out: &mut Output) {
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    let extension = context
        .pair
        .path()
        .rsplit_once('.')
        .map_or("", |(_, extension)| extension);
    if PROSE.contains(&extension.to_ascii_lowercase().as_str()) {
        return;
    }
    if context.pair.added.is_empty() {
        return;
    }
    let added: Vec<u32> = context.pair.added.iter().collect();
    let base = context.side(Side::Base).map(|base| base.text);
    for finding in coverage::pragma_findings(base, head.text, &added) {
        out.candidates.push(candidate(finding));
    }
}

/// A pair with its index in the change.
type Indexed<'a> = (usize, &'a &'a FilePair);

/// Thresholds across every coverage source the change touched, compared together so that a
/// threshold moved between files is judged by value. Tool configurations in test-fixture
/// copies (a third-party `pyproject.toml` kept as test data) gate nothing in this project: they
/// are compared among themselves and only mentioned in the report's notes, and never pair with
/// the project's own files, so a threshold moved from the project into a fixture copy is a
/// removal.
fn thresholds(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    let (copies, own): (Vec<Indexed<'_>>, Vec<Indexed<'_>>) = input
        .pairs
        .iter()
        .enumerate()
        .filter(|(_, pair)| coverage::is_coverage_source(pair.path()))
        .partition(|(_, pair)| {
            coverage::is_tool_config(pair.path())
                && input.workspaces.ownership(pair.path()) == Ownership::FixtureCopy
        });
    compare_group(&own, out);
    let mut ignored = ChangeOutput::default();
    compare_group(&copies, &mut ignored);
    let mut by_file: Vec<(usize, Vec<String>)> = Vec::new();
    for (index, candidate) in ignored.candidates {
        match by_file.iter_mut().find(|(i, _)| *i == index) {
            Some((_, messages)) => messages.push(candidate.message),
            None => by_file.push((index, vec![candidate.message])),
        }
    }
    for (index, messages) in by_file {
        let Some(pair) = input.pairs.get(index) else {
            continue;
        };
        out.notes.push(Note {
            path: pair.path().to_string(),
            message: format!(
                "coverage settings of a test fixture manifest that no workspace of the project \
                 takes in, not reported: {}",
                messages.join("; ")
            ),
        });
    }
}

fn compare_group(group: &[Indexed<'_>], out: &mut ChangeOutput) {
    let sources: Vec<(usize, FileChange<'_>)> = group
        .iter()
        .map(|&(index, pair)| {
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
