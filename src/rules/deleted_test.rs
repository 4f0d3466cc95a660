//! `deleted-test`: a test in base whose identity survives nowhere in head.

use super::context::{Candidate, Fact, FactRef, FileContext, Moved, Output};
use super::declare_rule;
use super::inventory::{self, Test, similar_bodies};
use crate::changeset::Status;
use crate::finding::{Severity, Side};
use crate::lang::Language;
use std::collections::HashSet;

declare_rule! {
    /// ## What it flags
    /// A test collected in base whose identity (language, enclosing suite path, name and case)
    /// is collected nowhere in head:
    ///
    /// - a removed test function, `it`/`test` call or `#[test]` function, or a whole test file
    ///   deleted;
    /// - a removed `pytest.mark.parametrize` row, `.each` table row, `#[test_case(..)]` or
    ///   `#[case(..)]` attribute;
    /// - a test taken out of the runner's collection: `test_foo` renamed to `check_foo` or
    ///   `_test_foo`, a `Test*` class renamed to a name pytest ignores (or given `__init__`), a
    ///   test file renamed out of the runner's patterns (`test_x.py` → `x.py`,
    ///   `a.test.ts` → `a.ts`).
    ///
    /// The finding sits on the base side, at the test's line in base.
    /// ## Why it matters
    /// Deleting the failing test is as effective as skipping it, and leaves even less to see:
    /// nothing in head mentions it any more.
    /// ## Example
    /// Fires: `def test_refund_rounding(): ...` removed from `tests/test_billing.py`; the row
    /// `(0.1, 0.2, 0.3)` removed from a parametrize table; `tests/test_auth.py` renamed to
    /// `tests/auth_cases.py`.
    /// ## Not flagged
    /// - A test moved to another changed file (same suite path and name), a test file renamed
    ///   within the runner's patterns, a whole suite moved between files.
    /// - A test renamed with an unchanged or near-identical body (a rename, not a deletion).
    /// - Parametrize rows reordered, or a row edited in place (the table keeps its size).
    /// - A Rust function that lost its `#[test]` attribute (that is `skipped-test`).
    ///
    /// A swap, one test deleted and an unrelated one added, is still a deletion.
    /// Runner configuration (`python_files`, `testMatch`, ...) is not read: the runners'
    /// default patterns decide what a test file is.
    /// ## Configuration
    /// `rules.deleted-test.severity` in `.integrity-gate.yml`; a deliberate removal can be
    /// allowed per path with an `allow:` entry and a reason.
    pub static DELETED_TEST = {
        id: "deleted-test",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a test function, test case or test file is removed and does not reappear elsewhere",
        maturity: Stable,
        check: Some(check),
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    let family = language.family();
    let base = inventory::tests(context, Side::Base);
    let head = inventory::tests(context, Side::Head);
    for test in head.iter().filter(|test| test.collected()) {
        out.facts.push(Fact {
            side: Side::Head,
            name: "test",
            family,
            key: test.id.clone(),
            severity: Severity::Error,
        });
    }
    let base_ids: HashSet<&str> = base
        .iter()
        .filter(|test| test.collected())
        .map(|test| test.id.as_str())
        .collect();
    let head_ids: HashSet<&str> = head
        .iter()
        .filter(|test| test.collected())
        .map(|test| test.id.as_str())
        .collect();
    // Collected head tests that base did not have: candidates for renames and edited rows.
    let mut fresh: Vec<&Test> = head
        .iter()
        .filter(|test| test.collected() && !base_ids.contains(test.id.as_str()))
        .collect();
    let missing: Vec<&Test> = base
        .iter()
        .filter(|test| test.collected() && !head_ids.contains(test.id.as_str()))
        .collect();
    for test in missing {
        if let Some(message) = judge_missing(context, language, test, &head, &mut fresh) {
            let Some(message) = message else {
                continue;
            };
            out.candidates.push(Candidate {
                side: Side::Base,
                line: test.line,
                end_line: test.end_line,
                severity: Severity::Error,
                message,
                key: test.id.clone(),
                moved: Some(Moved {
                    family,
                    key: test.id.clone(),
                    already: FactRef::head("test"),
                    existed: None,
                }),
            });
        }
    }
}

/// `None`: not a deletion of this rule's kind. `Some(None)`: a rename or edited row, silent.
/// `Some(Some(message))`: report.
fn judge_missing(
    context: &FileContext<'_>,
    language: Language,
    test: &Test,
    head: &[Test],
    fresh: &mut Vec<&Test>,
) -> Option<Option<String>> {
    let name = &test.id;
    // Rust: the function is still there without its test attribute; skipped-test reports it.
    if language == Language::Rust
        && head
            .iter()
            .any(|other| !other.is_test && other.key == test.key)
    {
        return None;
    }
    // Replaced by a `.todo` placeholder: skipped-test reports it.
    if head.iter().any(|other| other.todo && other.id == test.id) {
        return None;
    }
    // Same identity, no longer collected: the file or the class left the runner's patterns.
    if let Some(other) = head
        .iter()
        .find(|other| other.is_test && other.id == test.id && !other.collected())
    {
        let why = other.not_collected.clone().unwrap_or_default();
        return Some(Some(format!(
            "test `{name}` is no longer collected by the runner: {why}"
        )));
    }
    // An edited parametrize row: the same test gained a row where it lost one.
    if test.case.is_some()
        && let Some(index) = fresh
            .iter()
            .position(|other| other.case.is_some() && other.key == test.key)
    {
        fresh.remove(index);
        return Some(None);
    }
    // A rename with the same (or nearly the same) body.
    if test.case.is_none()
        && let Some(index) = fresh
            .iter()
            .position(|other| other.case.is_none() && similar_bodies(&other.body, &test.body))
    {
        fresh.remove(index);
        return Some(None);
    }
    // Renamed to something the runner does not collect (`check_foo`, `_test_foo`).
    if test.case.is_none()
        && !test.body.is_empty()
        && let Some(other) = head
            .iter()
            .find(|other| !other.collected() && similar_bodies(&other.body, &test.body))
    {
        let why = other
            .not_collected
            .clone()
            .map_or_else(|| runner_names(language).to_string(), |why| why.to_string());
        return Some(Some(format!(
            "test `{name}` was renamed to `{}`, which is not collected: {why}",
            other.key
        )));
    }
    let message = match (&test.case, context.pair.status) {
        (Some(case), _) => format!(
            "case `{case}` of test `{}` was removed and is not in any other changed file",
            test.key
        ),
        (None, Status::Deleted) => {
            format!("test `{name}` was deleted with its file and does not reappear elsewhere")
        }
        (None, _) => format!("test `{name}` was deleted and does not reappear elsewhere"),
    };
    Some(Some(message))
}

/// Why a plain function is not a test, per language.
fn runner_names(language: Language) -> &'static str {
    match language {
        Language::Python => "pytest and unittest collect only `test*` functions",
        Language::Rust => "it has no test attribute",
        _ => "it is not an `it`/`test` call",
    }
}
