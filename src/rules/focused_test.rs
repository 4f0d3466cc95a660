//! `focused-test`: a focus marker that makes the runner skip every other test.

use super::context::{Candidate, FactRef, FileContext, Moved, Output};
use super::declare_rule;
use super::markers::{base_facts, dedupe, judge, marker_text};
use crate::finding::{Severity, Side};
use crate::lang::Language;
use std::collections::HashSet;

declare_rule! {
    /// ## What it flags
    /// A focus marker added by the change: `it.only`, `describe.only`, `test.only.each`,
    /// `test.concurrent.only`, `test.describe.only` (playwright), `fit`, `fdescribe`, `ftest`,
    /// node:test `{ only: true }`; in Python the `pytest-only` / `pytest-focus` markers
    /// `@pytest.mark.only` and `@pytest.mark.focus`.
    /// ## Why it matters
    /// With a focused test in a file, the runner silently skips every other test there (and
    /// with `--only` flags, in the whole run). CI stays green while most of the suite no longer
    /// runs. Usually an accident; for an agent also a way to run only what passes.
    /// ## Example
    /// Fires:
    ///
    /// ```js
    /// describe("auth", () => {
    ///   it.only("accepts a valid token", () => { ... });
    ///   it("rejects an expired token", () => { ... });   // no longer runs
    /// });
    /// ```
    /// ## Not flagged
    /// - `.only` that already existed in base (paired by test name, also across renamed and
    ///   moved files).
    /// - `{ only: false }`, and removing a focus marker.
    /// - Identifiers that merely contain `only` (`onlyOnce()`, `it.onlyIf` of other libraries).
    ///
    /// A focus marker inside an `if` whose condition is only known at run time, in a helper
    /// file the runner does not collect (jest's own `skipSuiteWithoutWatchman()`: `if
    /// (!isWatchmanAvailable()) test.only('requires watchman', ..)`), is a warning: called from
    /// a suite, it skips that suite's other tests where the condition holds, a platform skip.
    /// Behind a constant condition (`if (true)`), with no condition, or in a test file, it is
    /// an error as any focus.
    /// - A focus marker in a file named like a test that the runner does not collect (jest's
    ///   `e2e/<case>/__tests__/` fixtures under `testPathIgnorePatterns`, a nested
    ///   configuration that the root's explicit `projects` leave out) focuses nothing: a note.
    ///
    /// The marker is found through the file's aliases as well: `import { describe as d }`,
    /// `const focus = it.only`, `const { only } = describe`, an `only` imported from the
    /// project's own helper module and called like a test, and the helper that exports such
    /// an alias (`export const only = it.only`). A plain test function declared again in a
    /// nested scope (`var it;`) is not the runner's.
    /// ## Configuration
    /// `rules.focused-test.severity` in `.integrity-gate.yml`;
    /// `rules.focused-test.test-functions: [scenario, api.case]` names the project's own test
    /// and suite functions (wrappers, global aliases such as mocha's `additionalCustomNames` or
    /// jest's `globalAliases`): `scenario.only(..)` is then a focus marker. Default: none.
    pub static FOCUSED_TEST = {
        id: "focused-test",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python],
        summary: "a focus marker (.only, fit, fdescribe) makes the other tests stop running",
        maturity: Stable,
        check: Some(check),
        group: "tests newly focused in this file",
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    out.facts.extend(
        base_facts(context, "focused-test", "focused")
            .into_iter()
            .filter(|fact| fact.name == "focused"),
    );
    let head = context.matches(Side::Head, "focused-test");
    if head.is_empty() {
        return;
    }
    let base = context.matches(Side::Base, "focused-test");
    let base_focused: HashSet<&str> = dedupe(&base)
        .into_iter()
        .filter(|found| judge(found, language).is_some())
        .map(|found| found.key.as_str())
        .collect();
    for found in dedupe(&head) {
        let Some(judged) = judge(found, language) else {
            continue;
        };
        if base_focused.contains(found.key.as_str()) {
            continue;
        }
        let marker = marker_text(context, Side::Head, found);
        let what = if found.key == super::markers::MODULE_KEY {
            "a test in this file".to_string()
        } else {
            format!("`{}`", found.key)
        };
        let how = found
            .property("message")
            .map_or_else(|| format!("focused with `{marker}`"), str::to_string);
        let uncollected = uncollected_test_file(context, language);
        let (severity, message) = match conditional_helper(context, language, found) {
            _ if uncollected.is_some() => (
                Severity::Note,
                format!(
                    "{what} is {how} in a file the runner does not collect ({}): it focuses \
                     nothing in the suite (a fixture for the runner's own tests?)",
                    uncollected.unwrap_or_default()
                ),
            ),
            Some(condition) => (
                judged.severity.min(Severity::Warning),
                format!(
                    "{what} is {how} inside `if ({condition})` in a helper the runner does not \
                     collect: a suite that calls it runs only this placeholder when the \
                     condition holds (a conditional skip of that suite)"
                ),
            ),
            None if found.property("kind") == Some("export") => (judged.severity, how),
            None => (
                judged.severity,
                format!("{what} is {how}: the other tests next to it stop running"),
            ),
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line: found.line,
            end_line: found.end_line,
            severity,
            message,
            key: found.key.clone(),
            moved: Some(Moved {
                family: language.family(),
                key: found.key.clone(),
                already: FactRef::base("focused"),
                existed: None,
                also: Vec::new(),
                print: None,
                likely: Vec::new(),
            }),
            confidence: crate::finding::Confidence::Certain,
        });
    }
}

/// Why the runner does not collect head's file, when it is named like a test file
/// (`e2e/collect-tests/__tests__/focused.test.js` under `testPathIgnorePatterns:
/// ['/e2e/.*/__tests__']`): a fixture for the project's own e2e tests of a runner, whose focus
/// stops nothing. A helper named otherwise may be called from tests: not this.
pub(crate) fn uncollected_test_file(
    context: &FileContext<'_>,
    language: Language,
) -> Option<String> {
    if language.family() != "js" {
        return None;
    }
    let head = context.side(Side::Head)?;
    if !super::collection::js::default_test_file(head.path)
        || super::inventory::is_test_file(head.path, Side::Head, language, context.collection)
    {
        return None;
    }
    Some(context.collection.js_file_patterns(head.path))
}

/// A focus marker the way jest's own `ConditionalTest` helpers use it: inside an `if` whose
/// condition is only known at run time, in a file the runner does not collect (`export
/// function skipSuiteWithoutWatchman() { if (!watchman()) test.only('requires watchman', ..) }`).
/// It focuses nothing where it stands; called from a suite, it skips that suite's other tests
/// on the machines where the condition holds: a platform skip, not a focus. The condition's
/// text, when so.
fn conditional_helper(
    context: &FileContext<'_>,
    language: Language,
    found: &crate::query::QueryMatch,
) -> Option<String> {
    let head = context.side(Side::Head)?;
    if super::inventory::is_test_file(head.path, Side::Head, language, context.collection) {
        return None;
    }
    let parsed = context.parsed(Side::Head)?;
    let node = super::inventory::node_at(parsed.tree.root_node(), found.byte_range.clone())?;
    // The nearest enclosing `if`, within a few levels (the call's statement and its block).
    let mut current = node.parent();
    for _ in 0..6 {
        let candidate = current?;
        if candidate.kind() == "if_statement" {
            let condition = candidate.child_by_field_name("condition")?;
            let text = head.text.get(condition.byte_range())?;
            let text = text.trim();
            // The condition's own parentheses (`(!ready())`), one pair.
            let text = text
                .strip_prefix('(')
                .and_then(|inner| inner.strip_suffix(')'))
                .unwrap_or(text)
                .trim();
            return (super::condition::evaluate(text, language)
                == super::condition::Truth::Unknown)
                .then(|| crate::rules::markers::shorten(text, 80));
        }
        current = candidate.parent();
    }
    None
}
