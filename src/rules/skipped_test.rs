//! `skipped-test`: a test that ran before no longer runs, or no longer counts.

use super::context::{Candidate, FactRef, FileContext, Moved, Output};
use super::declare_rule;
use super::markers::{
    self, Judged, MODULE_KEY, base_facts, dedupe, inventory, judge, marker_text, shorten,
};
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::query::KEY_SEPARATOR;
use std::collections::{HashMap, HashSet};

declare_rule! {
    /// ## What it flags
    /// A test that existed in base and is skipped, x-failed, ignored or compiled out in head:
    ///
    /// - JavaScript/TypeScript: `it.skip`, `describe.skip`, `test.concurrent.skip`, `.skip.each`,
    ///   `xit`/`xtest`/`xdescribe`, `.todo` replacing an existing test, vitest
    ///   `skipIf(<always true>)`/`runIf(<always false>)`, node:test `{ skip: true }` and
    ///   `t.skip()`, playwright `test.skip()`/`test.fixme()`, mocha `this.skip()`, jasmine
    ///   `pending()`.
    /// - Python: `@pytest.mark.skip`, `@pytest.mark.skipif(...)`, `@pytest.mark.xfail`,
    ///   `pytest.skip()`, `pytest.importorskip()`, module-level `pytestmark`, `@unittest.skip*`,
    ///   `@unittest.expectedFailure`, `self.skipTest()`, `raise SkipTest`, `__test__ = False`.
    /// - Rust: `#[ignore]`, a removed `#[test]` (or `#[tokio::test]`, ...) on a function that
    ///   still exists, and always-false cfgs (`#[cfg(any())]`, `#[cfg(FALSE)]`,
    ///   `#[cfg(not(all()))]`, `#![cfg(any())]`) on a test, a module or a file.
    ///
    /// A constant condition that always skips is an error; a condition that depends on the
    /// platform or environment is a warning, except one that skips exactly on CI, where the
    /// gate runs (`it.skipIf(process.env.CI)`, `(process.env.CI ? it.skip : it)(..)`,
    /// `skipif(os.environ.get("CI"))`, `"CI" in os.environ`, Rust `#[cfg_attr(ci, ignore)]`,
    /// `#[cfg(not(ci))]`): an error, as a skip of the check itself. A test added by the change already skipped
    /// (unconditionally, or under an always-true condition) is a warning (it never ran),
    /// unless the same test existed in base in any changed file: then it is judged as that
    /// test.
    /// ## Why it matters
    /// Skipping the failing test is the cheapest way for an agent to turn CI green without
    /// fixing anything. The skip is one short line that reviewers read past.
    /// ## Example
    /// Fires (base has `def test_login(): ...`, head adds a marker):
    ///
    /// ```python
    /// @pytest.mark.skip(reason="flaky")
    /// def test_login():
    ///     ...
    /// ```
    ///
    /// Fires: `it("rejects a bad token", ...)` becomes `it.skip("rejects a bad token", ...)`;
    /// `#[test] fn parses()` becomes `#[test] #[ignore] fn parses()`.
    /// ## Not flagged
    /// - Tests that were already skipped in base (paired by test name and enclosing suites,
    ///   never by line number), also when the file was renamed or the test moved to another file.
    /// - `skipif(False)`, `it.skipIf(false)`, `{ skip: false }`: conditions that never skip.
    /// - Rust cfgs that depend on the build (`#[cfg(feature = "slow")]`, `#[cfg(unix)]`).
    /// - `.todo("...")` placeholders for tests that did not exist in base, unless the change
    ///   removes a test from the same file: then the placeholder stands where a real test was
    ///   (a warning; `deleted-test` reports the removal).
    /// - A new test skipped only under a runtime condition (platform, version, optional
    ///   dependency: `skipif(sys.version_info < (3, 14))`, `skipif(sys.platform == "win32")`,
    ///   `skipUnless(hasattr(os, "fork"))`, `skipif(not HAS_X)`, `pytest.importorskip(..)`,
    ///   `if not HAS_X: pytest.skip(..)`, `it.skipIf(process.platform === 'win32')`): it runs
    ///   where the condition allows and never ran before, so nothing was lost.
    /// - A skip inside a function that is not a test and holds none (`def _skip_if_not_latest()`,
    ///   `def _apply(self): self.skipTest(..)`, `__test__ = False` on a helper class), unless
    ///   tests that existed in base call it: then they skip at that call, and the skip is
    ///   reported as theirs (`helper `connect` is now skipped ...`; a warning behind a runtime
    ///   condition).
    ///
    /// JavaScript markers are found through the file's aliases too (`const skip = it.skip`,
    /// `const { skip } = describe`, `import { it as check }`, `it[mode]` with a constant
    /// `mode = "skip"`, `(cond ? it.skip : it)(..)` read as `it.skipIf(cond)`), and a test
    /// declared without a function (`it("title")`), which mocha and vitest report pending.
    /// `this.skip()` counts where `this` is the runner's context (the function handed to
    /// `it`, a hook or a suite), not in a method of some class.
    /// ## Configuration
    /// `rules.skipped-test.test-functions: [scenario, api.case]` names the project's own test
    /// functions: `scenario.skip(..)` and `xscenario(..)` are then skips. Default: none.
    ///
    /// `rules.skipped-test.severity` in `.integrity-gate.yml`; a reasoned skip that already
    /// exists in base can carry `# integrity-gate: allow skipped-test -- <reason>`.
    ///
    /// A test file renamed out of the runner's collection is reported by `deleted-test`, which
    /// follows the base revision's pytest, jest and vitest file patterns (`python_files`,
    /// `testMatch`, `testRegex`, `include`, ...); see `integrity-gate explain deleted-test`.
    pub static SKIPPED_TEST = {
        id: "skipped-test",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a test that ran before is skipped, x-failed, ignored or compiled out",
        maturity: Stable,
        check: Some(check),
        group: "tests newly skipped in this file",
    }
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    out.facts
        .extend(base_facts(context, "skipped-test", "skipped"));
    let head = context.matches(Side::Head, "skipped-test");
    let base = context.matches(Side::Base, "skipped-test");
    let mut base_strength: HashMap<&str, Severity> = HashMap::new();
    for found in dedupe(&base) {
        if let Some(judged) = judge(found, language) {
            let entry = base_strength
                .entry(found.key.as_str())
                .or_insert(judged.severity);
            *entry = (*entry).max(judged.severity);
        }
    }
    let base_tests = inventory(context, Side::Base);
    let base_exists = context.side(Side::Base).is_some();
    let head_matches = context.matches(Side::Head, "tests");
    let head_tests: Vec<&str> = head_matches
        .iter()
        .filter(|found| matches!(found.property("kind"), Some("test" | "suite")))
        .map(|found| found.key.as_str())
        .collect();
    let head_text = context.side(Side::Head).map_or("", |side| side.text);
    for found in dedupe(&head) {
        let Some(judged) = judge(found, language) else {
            continue;
        };
        if this_is_another_object(context, found) {
            continue;
        }
        let key = found.key.as_str();
        if base_strength
            .get(key)
            .is_some_and(|base| *base >= judged.severity)
        {
            continue;
        }
        let scope_prefix = format!("{key}{KEY_SEPARATOR}");
        let encloses_tests = base_tests
            .iter()
            .any(|test| test.starts_with(&scope_prefix));
        let existed =
            base_tests.contains(key) || encloses_tests || (key == MODULE_KEY && base_exists);
        if found.property("kind") == Some("todo") && !existed {
            todo_for_a_removed_test(context, found, &base_tests, &head_tests, out);
            continue;
        }
        // A skip in a function that is no test and holds none (`def _skip_if_not_latest()`, a
        // `Test*` helper class in a non-test module) skips no test of its own.
        // A skipped declaration (`describe.skip(..)`, `xtest.each(..)(..)`) declares the test
        // or suite it skips, whether or not it holds tests yet.
        let is_test = key == MODULE_KEY
            || found.property("kind") == Some("declaration")
            || head_tests
                .iter()
                .any(|test| *test == key || test.starts_with(&scope_prefix));
        if !existed && !is_test {
            helper_skip(context, found, &judged, &head_matches, &base_tests, out);
            continue;
        }
        // A new test skipped only on some platforms, versions or without an optional
        // dependency runs where the condition allows and never ran before: nothing was lost.
        // It is kept (at note level) only to meet a test of that name that existed in another
        // file, where it becomes "is now skipped".
        let marker = marker_text(context, Side::Head, found);
        let conditional = judged.runtime_condition.is_some()
            || marker.contains("importorskip")
            || guarded_by_if(head_text, found.byte_range.start);
        let effect = describe_effect(found.property("message"), &marker, &judged);
        let kind = if encloses_tests && !base_tests.contains(key) {
            Some("module")
        } else {
            found.property("kind")
        };
        let subject = subject(key, kind);
        let existing_message = format!("{subject} is now {effect}");
        let new_message = match subject.strip_prefix("an untitled ") {
            Some(rest) => format!("a new untitled {rest} is added already {effect}"),
            // "every test in this file" / "every test in `TestX`": the whole is new.
            None if subject.starts_with("every test") => {
                format!("{subject} is added already {effect}")
            }
            None => format!("new {subject} is added already {effect}"),
        };
        let (severity, message) = if existed {
            (judged.severity, existing_message.clone())
        } else if conditional {
            (Severity::Note, new_message)
        } else {
            (Severity::Warning.min(judged.severity), new_message)
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line: found.line,
            end_line: found.end_line,
            severity,
            message,
            key: key.to_string(),
            moved: Some(Moved {
                family: language.family(),
                key: key.to_string(),
                already: FactRef::base("skipped"),
                existed: Some((FactRef::base("test"), judged.severity, existing_message)),
                also: Vec::new(),
                print: None,
                likely: Vec::new(),
            }),
            confidence: crate::finding::Confidence::Certain,
        });
    }
    if language == Language::Rust {
        removed_test_attributes(context, out);
    }
    if language.family() == "js" {
        pending_without_a_function(context, language, out);
    }
}

/// `it("title")` with no test function: mocha and vitest report it pending (jasmine too); it
/// never runs. An existing test emptied so is an error, a new one a warning, like a skip.
fn pending_without_a_function(context: &FileContext<'_>, language: Language, out: &mut Output) {
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    if !super::inventory::is_test_file(head.path, Side::Head, language, context.collection) {
        return;
    }
    let pending = |side: Side| -> Vec<(String, u32, u32)> {
        let Some(parsed) = context.parsed(side) else {
            return Vec::new();
        };
        let root = parsed.tree.root_node();
        let text = parsed.text.as_str();
        let own = locally_imported(root, text);
        context
            .matches(side, "tests")
            .iter()
            .filter(|found| found.property("kind") == Some("test"))
            .filter(|found| {
                super::inventory::node_at(root, found.byte_range.clone())
                    .is_some_and(|call| declared_without_a_function(call, text, &own))
            })
            .map(|found| (found.key.clone(), found.line, found.end_line))
            .collect()
    };
    let head_pending = pending(Side::Head);
    if head_pending.is_empty() {
        return;
    }
    let base_pending: HashSet<String> = pending(Side::Base)
        .into_iter()
        .map(|(key, _, _)| key)
        .collect();
    let base_tests = inventory(context, Side::Base);
    for (key, line, end_line) in head_pending {
        if base_pending.contains(&key) {
            continue;
        }
        let existed = base_tests.contains(&key);
        let (severity, message) = if existed {
            (
                Severity::Error,
                format!(
                    "test `{key}` is now declared without a test function: it is pending and never runs"
                ),
            )
        } else {
            (
                Severity::Warning,
                format!(
                    "new test `{key}` is declared without a test function: it is pending and never runs"
                ),
            )
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line,
            end_line,
            severity,
            message,
            key,
            moved: None,
            confidence: crate::finding::Confidence::Certain,
        });
    }
}

/// Names the file imports from the project's own modules (`import { test } from
/// "./test-utils"`): wrappers whose arguments the runner's rules do not describe.
fn locally_imported(root: tree_sitter::Node<'_>, text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        if statement.kind() != "import_statement" {
            continue;
        }
        let relative = statement
            .child_by_field_name("source")
            .map(|module| crate::lang::string_literal_text(module, text))
            .is_some_and(|module| module.starts_with('.'));
        let Some(clause) = text.get(statement.byte_range()).filter(|_| relative) else {
            continue;
        };
        for name in ["it", "test", "specify"] {
            let bound = clause
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .any(|word| word == name);
            if bound {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// `it("title")` / `test("title")` / `specify("title")`: a plain test call with only a title.
fn declared_without_a_function(call: tree_sitter::Node<'_>, text: &str, own: &[String]) -> bool {
    let callee = call
        .child_by_field_name("function")
        .and_then(|callee| text.get(callee.byte_range()));
    if !matches!(callee, Some("it" | "test" | "specify"))
        || own.iter().any(|n| Some(n.as_str()) == callee)
    {
        return false;
    }
    let Some(arguments) = call.child_by_field_name("arguments") else {
        return false;
    };
    arguments.named_child_count() == 1
        && arguments
            .named_child(0)
            .is_some_and(|title| matches!(title.kind(), "string" | "template_string"))
}

/// A new `it.todo("..")` in a file whose change removes a test: the placeholder stands where a
/// real test was (`deleted-test` reports the removal itself). A warning: the placeholder may
/// be an honest note, but the suite counts it and no longer runs the test.
fn todo_for_a_removed_test(
    context: &FileContext<'_>,
    found: &crate::query::QueryMatch,
    base_tests: &HashSet<String>,
    head_tests: &[&str],
    out: &mut Output,
) {
    let base_matches = context.matches(Side::Base, "tests");
    let mut removed: Vec<&str> = base_matches
        .iter()
        .filter(|test| test.property("kind") == Some("test"))
        .map(|test| test.key.as_str())
        .filter(|key| base_tests.contains(*key) && !head_tests.contains(key))
        .collect();
    removed.dedup();
    let Some(first) = removed.first() else {
        return;
    };
    let marker = marker_text(context, Side::Head, found);
    let others = match removed.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    out.candidates.push(Candidate {
        side: Side::Head,
        line: found.line,
        end_line: found.end_line,
        severity: Severity::Warning,
        message: format!(
            "placeholder `{marker}(\"{}\")` added where test `{first}`{others} was removed: \
             the suite counts a test that does not run",
            shorten(&found.name, 60)
        ),
        key: format!("todo:{}", found.key),
        moved: None,
        confidence: crate::finding::Confidence::Certain,
    });
}

/// `this.skip()` whose `this` is not mocha's context: mocha binds `this` only in the function
/// it is handed (`it("..", function () { this.skip() })`, hooks, suites); in a method or a
/// nested `function` it is that function's own receiver (`class Reader { read() {
/// this.skip() } }`).
fn this_is_another_object(context: &FileContext<'_>, found: &crate::query::QueryMatch) -> bool {
    let Some(parsed) = context.parsed(Side::Head) else {
        return false;
    };
    let text = parsed.text.as_str();
    if !text
        .get(found.byte_range.clone())
        .is_some_and(|call| call.starts_with("this.skip"))
    {
        return false;
    }
    let Some(call) = super::inventory::node_at(parsed.tree.root_node(), found.byte_range.clone())
    else {
        return false;
    };
    let mut current = call.parent();
    for _ in 0..64 {
        let Some(node) = current else {
            return false;
        };
        match node.kind() {
            // Arrow functions take `this` from where they stand.
            "arrow_function" => {}
            "function_expression" | "function" => {
                let handed_to = node
                    .parent()
                    .filter(|parent| parent.kind() == "arguments")
                    .and_then(|arguments| arguments.parent())
                    .and_then(|call| call.child_by_field_name("function"))
                    .and_then(|callee| text.get(callee.byte_range()));
                return handed_to.is_none_or(|callee| {
                    let base = callee.split(['.', '[']).next().unwrap_or_default();
                    !RUNNER_CALLEES.contains(&base)
                });
            }
            "function_declaration" | "method_definition" | "generator_function_declaration" => {
                return true;
            }
            _ => {}
        }
        current = node.parent();
    }
    false
}

/// Functions that hand mocha's context to their callback.
const RUNNER_CALLEES: &[&str] = &[
    "it",
    "test",
    "specify",
    "describe",
    "context",
    "suite",
    "before",
    "after",
    "beforeEach",
    "afterEach",
    "beforeAll",
    "afterAll",
    "setup",
    "teardown",
    "suiteSetup",
    "suiteTeardown",
];

/// A skip call added to a helper that tests call: the helper skips no test of its own, but
/// every test that calls it now skips at that call (`def setup_db(): pytest.skip(..)`). Tests
/// that existed in base and call the helper are lost from the run: the skip is judged as theirs
/// (a warning when it is behind a runtime condition). A helper no surviving test calls, or a
/// marker on a helper (a no-op: pytest marks only tests), is not reported.
fn helper_skip(
    context: &FileContext<'_>,
    found: &crate::query::QueryMatch,
    judged: &Judged<'_>,
    head_tests: &[crate::query::QueryMatch],
    base_tests: &HashSet<String>,
    out: &mut Output,
) {
    let Some(head_text) = context.side(Side::Head).map(|side| side.text) else {
        return;
    };
    let helper = found
        .key
        .rsplit(KEY_SEPARATOR)
        .next()
        .unwrap_or_default()
        .trim();
    let is_call = found.property("kind") == Some("in-body")
        && head_text
            .get(found.byte_range.clone())
            .is_some_and(|text| text.contains('('));
    if helper.is_empty() || helper == MODULE_KEY || !is_call {
        return;
    }
    let call = format!("{helper}(");
    let callers: Vec<&str> = head_tests
        .iter()
        .filter(|test| test.property("kind") == Some("test"))
        .filter(|test| base_tests.contains(test.key.as_str()))
        .filter(|test| {
            head_text
                .get(test.byte_range.clone())
                .is_some_and(|body| body.contains(&call))
        })
        .map(|test| test.key.as_str())
        .collect();
    let Some(first) = callers.first() else {
        return;
    };
    let marker = marker_text(context, Side::Head, found);
    let conditional =
        judged.runtime_condition.is_some() || guarded_by_if(head_text, found.byte_range.start);
    let effect = describe_effect(found.property("message"), &marker, judged);
    let others = match callers.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    let severity = if conditional {
        Severity::Warning.min(judged.severity)
    } else {
        judged.severity
    };
    out.candidates.push(Candidate {
        side: Side::Head,
        line: found.line,
        end_line: found.end_line,
        severity,
        message: format!(
            "helper `{helper}` is now {effect}: the tests that call it (`{first}`{others}) are skipped with it"
        ),
        key: format!("helper:{helper}"),
        moved: None,
        confidence: crate::finding::Confidence::Certain,
    });
}

/// Whether the skip call at `start` runs under an `if` (`if not HAS_X: pytest.skip(..)`,
/// `if (process.platform === 'win32') this.skip()`): on its line, or on the line above.
fn guarded_by_if(text: &str, start: usize) -> bool {
    let Some(before) = text.get(..start) else {
        return false;
    };
    let mut lines = before.rsplit('\n');
    let current = lines.next().unwrap_or_default().trim_start();
    let opens_if = |line: &str| {
        let line = line.trim_start().trim_start_matches('}').trim_start();
        ["if ", "if(", "elif ", "else"]
            .iter()
            .any(|keyword| line.starts_with(keyword))
    };
    if opens_if(current) {
        return true;
    }
    lines
        .map(str::trim)
        .find(|line| !line.is_empty())
        .is_some_and(opens_if)
}

/// "test `a › b`", "every test in this file", "every test in `TestX`".
fn subject(key: &str, kind: Option<&str>) -> String {
    if key == MODULE_KEY && kind == Some("declaration") {
        "an untitled test".to_string()
    } else if key == MODULE_KEY {
        "every test in this file".to_string()
    } else if kind == Some("module") {
        format!("every test in `{key}`")
    } else {
        format!("test `{key}`")
    }
}

fn describe_effect(template: Option<&str>, marker: &str, judged: &markers::Judged<'_>) -> String {
    let base = match template {
        Some(template) => template.replace("{text}", marker),
        None => format!("skipped by `{marker}`"),
    };
    if judged.found.property("kind") == Some("todo") {
        return format!("replaced by a `{marker}` placeholder");
    }
    if let Some(condition) = &judged.ci_condition {
        return format!(
            "{} under `{}`, which skips it on CI: it never runs where this gate runs",
            base.replace("an always-false ", "a "),
            shorten(condition, 60)
        );
    }
    match (&judged.constant_condition, &judged.runtime_condition) {
        (Some(condition), _) => format!(
            "{base} (condition `{}` is always {})",
            shorten(condition, 60),
            if judged.found.property("condition") == Some("skip-when-false") {
                "false"
            } else {
                "true"
            },
        ),
        (None, Some(condition)) => format!("{base} when `{}`", shorten(condition, 60)),
        (None, None) => base,
    }
}

/// Rust: a function that was a test in base and still exists in head without its test
/// attribute compiles fine and silently stops running.
fn removed_test_attributes(context: &FileContext<'_>, out: &mut Output) {
    let base = context.matches(Side::Base, "tests");
    let head = context.matches(Side::Head, "tests");
    let head_tests: std::collections::HashSet<&str> = head
        .iter()
        .filter(|found| found.property("kind") == Some("test"))
        .map(|found| found.key.as_str())
        .collect();
    for base_test in base
        .iter()
        .filter(|found| found.property("kind") == Some("test"))
    {
        let key = base_test.key.as_str();
        if head_tests.contains(key) {
            continue;
        }
        let Some(function) = head
            .iter()
            .find(|found| found.property("kind") == Some("function") && found.key == key)
        else {
            continue;
        };
        out.candidates.push(Candidate {
            side: Side::Head,
            line: function.line,
            end_line: function.line,
            severity: Severity::Error,
            message: format!(
                "test `{key}` lost its test attribute: it still compiles but no longer runs"
            ),
            key: key.to_string(),
            moved: None,
            confidence: crate::finding::Confidence::Certain,
        });
    }
}
