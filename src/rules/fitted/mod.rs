//! `test-fitted-code`: production code made to pass the tests instead of implementing the
//! behaviour.
//!
//! The link between tests and code is built from the change itself: the `test-fitted-code`
//! query reads, in every changed file, the calls tests check (callee, literal arguments,
//! expected literal) and the production functions' bodies (a literal, a short-circuit, a table,
//! branches on a literal input). Each file hands that over, and the change-level check pairs a
//! changed function with the tests that call it by its bare name. Test-runner detection and
//! self-mocking tests are judged within their own file.

mod extract;
mod literal;
mod related;

pub use related::{MAX_BYTES as RELATED_TEST_MAX_BYTES, read_related as related_tests};

use super::context::{Candidate, FileContext, Output};
use super::{ChangeInput, ChangeOutput, declare_rule, is_test_path};
use crate::finding::{Confidence, Severity, Side};
use crate::lang::Language;
use extract::{Expectation, Function, MAX_PER_KIND, Shape, node_of, text};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

declare_rule! {
    /// ## What it flags
    /// Production code changed to satisfy the tests rather than the behaviour they describe:
    ///
    /// - a function body **replaced by a literal** that a test expects for that call (`return
    ///   42` where base computed the value), also when the literal is computed trivially
    ///   (`6 * 7`) or looked up in a table keyed by the tests' inputs (`{3: 6, 4: 24}[n]`,
    ///   `match n { 3 => 6, 4 => 24, _ => 0 }`);
    /// - a body **short-circuited** by a new first statement returning such a literal;
    /// - a new branch that **special-cases a test's input** (`if n == 7: return 5040` where a
    ///   test calls `factorial(7)`);
    /// - production code that **detects the test runner**: `PYTEST_CURRENT_TEST`,
    ///   `"pytest" in sys.modules`, `NODE_ENV === "test"`, `JEST_WORKER_ID`, `VITEST`,
    ///   `import.meta.vitest` outside an in-source test block, `cfg!(test)` outside
    ///   `#[cfg(test)]` code (a note when the branch only logs);
    /// - a test that **mocks the unit it tests**: `jest.spyOn(mod, 'computeTax')
    ///   .mockReturnValue(42)` then `expect(computeTax(..)).toBe(42)`, or
    ///   `mocker.patch('billing.compute_tax', return_value=42)` then asserting `compute_tax`.
    ///
    /// How tests are linked to code: from the test bodies in the files the change touches (both
    /// their base and head versions, and Rust `#[cfg(test)]` modules), and from the base
    /// version of the conventional test files of each changed production file that the change
    /// leaves alone (`test_x.py`/`x_test.py` beside it or under a `tests/` folder above it,
    /// `x.test.ts`/`x.spec.js` beside it or under `__tests__/`, `tests/x.rs`), the rule reads
    /// which function each assertion calls (by bare name), with which literal arguments, and
    /// which literal it expects (`assert f(7) == 5040`, `expect(f(7)).toBe(5040)`,
    /// `assert_eq!(f(7), 5040)`, `assertEqual`, `assert.equal`). A changed production function
    /// of that name is then checked against those inputs and values; a call assigned to a
    /// local first (`result = f(7)`, `let got = f(7);`) counts as checked. Other unchanged
    /// test files are not read, and parametrized tables (`@pytest.mark.parametrize`,
    /// `it.each`) are not expanded.
    /// ## Why it matters
    /// Reward hacking: an agent that cannot make a failing test pass makes the code return what
    /// the test expects. The build is green and the behaviour is not implemented.
    /// ## Example
    /// Fires (base computed the product, a test asserts `factorial(7) == 5040`):
    ///
    /// ```python
    /// def factorial(n):
    ///     if n == 7:
    ///         return 5040
    ///     return n * factorial(n - 1) if n > 1 else 1
    /// ```
    ///
    /// Fires: `if (process.env.NODE_ENV === "test") return cached;` in `src/`.
    /// ## Not flagged
    /// - A genuinely constant function and its test: the body was a literal in base too, or
    ///   the function is new.
    /// - Base cases with trivial inputs (`if n == 0: return 1`, `1`, `""`, `None`).
    /// - `NODE_ENV === "production"` and other environment switches that are not the test
    ///   runner; test-runner checks in test files, test setup and tool configuration
    ///   (`jest.config.js`, `vitest.config.ts`, `conftest.py`), `if (import.meta.vitest)`
    ///   in-source test blocks.
    /// - Mocks of a collaborator while the test asserts another function.
    /// - Detections and special cases that already stood in base.
    /// ## Configuration
    /// `rules.test-fitted-code.severity` in `.integrity-gate.yml`.
    pub static TEST_FITTED_CODE = {
        id: "test-fitted-code",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "code returns what tests expect, special-cases their inputs or detects the test runner; self-mocks",
        maturity: Stable,
        check: Some(check),
        change_check: link,
    }
}

const QUERY: &str = "test-fitted-code";

/// What a file hands to the change-level link.
struct Handoff {
    /// Changed production functions of head.
    functions: Vec<Function>,
    /// Base's production functions by key.
    base: HashMap<String, Function>,
    /// What the file's tests check, on both sides.
    expectations: Vec<Expectation>,
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    let path = context.pair.path();
    let test_file = is_test_path(path) || is_test_support(path);
    let mut handoff = Handoff {
        functions: Vec::new(),
        base: HashMap::new(),
        expectations: Vec::new(),
    };
    let mut base_env: HashMap<String, usize> = HashMap::new();
    if let (Some(base), Some(parsed)) = (context.side(Side::Base), context.parsed(Side::Base)) {
        let root = parsed.tree.root_node();
        let matches = context.matches(Side::Base, QUERY);
        for found in matches.iter().take(MAX_PER_KIND * 4) {
            let Some(node) = node_of(root, found) else {
                continue;
            };
            let in_test = test_file || in_test_code(node, base.text, language);
            match found.property("kind") {
                Some("function") if !in_test => {
                    if let Some(function) =
                        extract::function(node, base.text, &found.name, &found.key)
                    {
                        handoff.base.insert(found.key.clone(), function);
                    }
                }
                Some("expect") if in_test => {
                    let test = enclosing_test(node, base.text, language);
                    handoff.expectations.extend(
                        extract::expectation(node, base.text, language, &test)
                            .map(|e| in_file(e, path)),
                    );
                }
                Some("env") if !in_test => {
                    *base_env.entry(env_key(found, node, base.text)).or_default() += 1;
                }
                _ => {}
            }
        }
    }
    let (Some(head), Some(parsed)) = (context.side(Side::Head), context.parsed(Side::Head)) else {
        out.handoffs.push(Box::new(handoff));
        return;
    };
    let root = parsed.tree.root_node();
    let matches = context.matches(Side::Head, QUERY);
    let mut mocks = Vec::new();
    let mut head_expectations = Vec::new();
    let mut env_seen: HashMap<String, usize> = HashMap::new();
    for found in matches.iter().take(MAX_PER_KIND * 4) {
        let Some(node) = node_of(root, found) else {
            continue;
        };
        let in_test = test_file || in_test_code(node, head.text, language);
        let touched = (found.line..=found.end_line).any(|line| context.is_added_line(line));
        match found.property("kind") {
            Some("function") if !in_test && touched => {
                handoff.functions.extend(extract::function(
                    node,
                    head.text,
                    &found.name,
                    &found.key,
                ));
            }
            Some("expect") if in_test => {
                let test = enclosing_test(node, head.text, language);
                head_expectations.extend(
                    extract::expectation(node, head.text, language, &test)
                        .map(|e| in_file(e, path)),
                );
            }
            Some("mock") if in_test && touched => mocks.push(node),
            Some("env") if !in_test => {
                let key = env_key(found, node, head.text);
                let seen = env_seen.entry(key.clone()).or_default();
                *seen += 1;
                if touched && *seen > base_env.get(&key).copied().unwrap_or(0) {
                    out.candidates
                        .extend(env_candidate(path, node, head.text, language, found));
                }
            }
            _ => {}
        }
    }
    for mock in mocks {
        out.candidates
            .extend(self_mock(mock, head.text, language, &head_expectations));
    }
    handoff.expectations.extend(head_expectations);
    out.handoffs.push(Box::new(handoff));
}

/// Test setup and tool configuration, where checking for the test runner is the point.
fn is_test_support(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.contains(".config.")
        || name == "conftest.py"
        || name.starts_with("setuptests")
        || name.starts_with("setup-tests")
        || name.starts_with("test-setup")
        || name.starts_with("jest.")
        || name.starts_with("vitest.")
        || name.starts_with("babel.")
        || name.starts_with("karma.")
        || name == "build.rs"
        || path.split('/').any(|dir| {
            matches!(
                dir,
                "test-utils" | "test_utils" | "testing" | "testutils" | "__mocks__" | "fixtures"
            )
        })
}

/// Whether a node is test code inside a production file: a Rust `#[cfg(test)]` module or
/// `#[test]` function, a Python `test_*` function, a JavaScript `if (import.meta.vitest)`
/// in-source test block.
fn in_test_code(node: Node<'_>, source: &str, language: Language) -> bool {
    let mut current = node.parent();
    let mut steps = 0;
    while let Some(ancestor) = current {
        steps += 1;
        if steps > 512 {
            return false;
        }
        match (language, ancestor.kind()) {
            (Language::Rust, "mod_item" | "function_item" | "impl_item") => {
                let mut attribute = ancestor.prev_named_sibling();
                while let Some(item) = attribute.filter(|item| item.kind() == "attribute_item") {
                    let attribute_text = text(item, source);
                    if attribute_text.contains("cfg(test)") || attribute_text.ends_with("test]") {
                        return true;
                    }
                    attribute = item.prev_named_sibling();
                }
            }
            (Language::Python, "function_definition")
                if ancestor
                    .child_by_field_name("name")
                    .is_some_and(|name| text(name, source).starts_with("test")) =>
            {
                return true;
            }
            (_, "if_statement")
                if language.family() == "js"
                    && ancestor
                        .child_by_field_name("condition")
                        .is_some_and(|c| is_vitest_condition(c, source))
                    && ancestor
                        .child_by_field_name("consequence")
                        .is_some_and(|c| c.byte_range().contains(&node.start_byte())) =>
            {
                return true;
            }
            _ => {}
        }
        current = ancestor.parent();
    }
    false
}

fn is_vitest_condition(condition: Node<'_>, source: &str) -> bool {
    let shown: String = text(condition, source)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    shown == "(import.meta.vitest)"
}

/// The name of the test around a node: the `it`/`test` title, else the enclosing function.
fn enclosing_test(node: Node<'_>, source: &str, language: Language) -> String {
    let mut current = node.parent();
    while let Some(ancestor) = current {
        match ancestor.kind() {
            "function_definition" | "function_item" | "function_declaration" => {
                if let Some(name) = ancestor.child_by_field_name("name") {
                    return text(name, source).to_string();
                }
            }
            "call_expression" if language.family() == "js" => {
                let callee = ancestor
                    .child_by_field_name("function")
                    .map(|f| text(f, source))
                    .unwrap_or_default();
                if matches!(callee, "it" | "test")
                    || callee.starts_with("it.")
                    || callee.starts_with("test.")
                {
                    let title = ancestor
                        .child_by_field_name("arguments")
                        .and_then(|args| args.named_child(0))
                        .map(|title| crate::lang::string_literal_text(title, source));
                    if let Some(title) = title {
                        return title;
                    }
                }
            }
            _ => {}
        }
        current = ancestor.parent();
    }
    "(top level)".to_string()
}

/// Pairs base and head detections: the enclosing function and the detection's text.
fn env_key(found: &crate::query::QueryMatch, node: Node<'_>, source: &str) -> String {
    let shown: String = text(node, source)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    format!("{}|{shown}", found.key)
}

fn env_candidate(
    path: &str,
    node: Node<'_>,
    source: &str,
    language: Language,
    found: &crate::query::QueryMatch,
) -> Option<Candidate> {
    let shown = crate::rules::markers::shorten(text(node, source), 80);
    // `import.meta.vitest` as the condition of an in-source test block is vitest's own idiom.
    if shown.starts_with("import.meta") && is_in_source_block_condition(node, source) {
        return None;
    }
    // A member or string inside a larger detection is reported once, by the larger one.
    if let Some(parent) = node.parent()
        && matches!(parent.kind(), "binary_expression" | "comparison_operator")
        && parent.parent().is_some()
        && language.family() == "js"
        && text(parent, source).contains("NODE_ENV")
        && !shown.contains("NODE_ENV")
    {
        return None;
    }
    let only_logs = guarded_branch_only_logs(node, source);
    let (severity, tail) = if is_runner_code(path) {
        (
            Severity::Note,
            "; this looks like a test runner's or plugin's own code, where that is the job",
        )
    } else if only_logs {
        (
            Severity::Note,
            "; the branch only logs, so behaviour does not change",
        )
    } else {
        (
            Severity::Error,
            ", so what the tests run is not what production runs",
        )
    };
    Some(Candidate::at_line(
        Side::Head,
        found.line,
        severity,
        format!("production code detects that it runs under test (`{shown}`){tail}"),
        format!("env:{}:{shown}", found.key),
    ))
}

/// A test runner's own packages (`packages/jest-reporters/`, `_pytest/`, `vitest/`) and
/// plugins (`pytest_django/`, `eslint-plugin-jest`), which read the runner's variables by design.
fn is_runner_code(path: &str) -> bool {
    path.split('/').rev().skip(1).any(|dir| {
        let dir = dir.to_ascii_lowercase();
        [
            "jest",
            "vitest",
            "pytest",
            "mocha",
            "nextest",
            "test-runner",
            "testing-library",
        ]
        .iter()
        .any(|runner| dir.contains(runner))
    })
}

fn is_in_source_block_condition(node: Node<'_>, source: &str) -> bool {
    let Some(parenthesized) = node.parent() else {
        return false;
    };
    parenthesized.parent().is_some_and(|statement| {
        statement.kind() == "if_statement"
            && statement
                .child_by_field_name("condition")
                .is_some_and(|c| c == parenthesized && is_vitest_condition(c, source))
    }) || parenthesized.kind() == "variable_declarator"
}

/// Whether the detection guards an `if` whose branches only log (`console.warn`, `logger.`).
fn guarded_branch_only_logs(node: Node<'_>, source: &str) -> bool {
    let mut current = node.parent();
    let mut steps = 0;
    while let Some(ancestor) = current {
        steps += 1;
        if steps > 6 {
            return false;
        }
        if matches!(ancestor.kind(), "if_statement" | "if_expression") {
            let Some(consequence) = ancestor.child_by_field_name("consequence") else {
                return false;
            };
            let body = text(consequence, source)
                .trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim()
                .trim_start_matches(':')
                .trim();
            return !body.is_empty()
                && body
                    .lines()
                    .map(str::trim)
                    .filter(|line| !line.is_empty())
                    .all(|line| {
                        [
                            "console.",
                            "logger.",
                            "log.",
                            "logging.",
                            "print(",
                            "warnings.warn(",
                            "eprintln!",
                            "println!",
                            "log::",
                            "tracing::",
                        ]
                        .iter()
                        .any(|prefix| line.starts_with(prefix))
                    });
        }
        if matches!(
            ancestor.kind(),
            "function_definition" | "function_declaration" | "function_item" | "statement_block"
        ) {
            return false;
        }
        current = ancestor.parent();
    }
    false
}

/// A test that replaces `name` with a mock and asserts what `name` returns.
fn self_mock(
    mock: Node<'_>,
    source: &str,
    language: Language,
    expectations: &[Expectation],
) -> Option<Candidate> {
    let (target, owner, value, scope) = match language {
        Language::Python => python_mock(mock, source)?,
        Language::Rust => return None,
        _ => js_mock(mock, source)?,
    };
    // The asserted call must reach the mocked function: a bare call, or one on the object
    // (or module) that was patched, not a same-named method of another object.
    let checked = expectations.iter().find(|expectation| {
        expectation.callee == target
            && scope.start_byte() <= expectation.range.start
            && expectation.range.end <= scope.end_byte()
            && match (&expectation.receiver, &owner) {
                (None, _) | (_, None) => true,
                (Some(receiver), Some(owner)) => {
                    receiver == owner || receiver.rsplit('.').next() == Some(owner.as_str())
                }
            }
    })?;
    let returning = value
        .map(|value| format!(" (returning `{value}`)"))
        .unwrap_or_default();
    let line = u32::try_from(mock.start_position().row + 1).unwrap_or(u32::MAX);
    Some(Candidate {
        side: Side::Head,
        line,
        end_line: line,
        severity: Severity::Error,
        message: format!(
            "test `{}` replaces `{target}` with a mock{returning} and then asserts what `{target}` returns: it checks the mock, not the code",
            checked.test
        ),
        key: format!("mock:{}:{target}", checked.test),
        moved: None,
        confidence: Confidence::Certain,
    })
}

/// `mocker.patch("billing.compute_tax", return_value=42)`, `@patch("billing.compute_tax")`,
/// `patch.object(billing, "compute_tax", ...)`, `monkeypatch.setattr(billing, "compute_tax",
/// lambda *a: 42)`: the patched name, the value, and the test function around it.
fn python_mock<'t>(call: Node<'t>, source: &str) -> Option<Mocked<'t>> {
    let function = call.child_by_field_name("function")?;
    let method = match function.kind() {
        "attribute" => text(function.child_by_field_name("attribute")?, source),
        _ => text(function, source),
    };
    let arguments = call.child_by_field_name("arguments")?;
    let mut positional = Vec::new();
    let mut value = None;
    let mut cursor = arguments.walk();
    for argument in arguments.named_children(&mut cursor) {
        if argument.kind() == "keyword_argument" {
            let name = argument
                .child_by_field_name("name")
                .map(|n| text(n, source));
            if matches!(name, Some("return_value" | "new")) {
                value = argument
                    .child_by_field_name("value")
                    .and_then(|v| literal::literal(v, source))
                    .map(|lit| lit.text);
            }
        } else if !argument.kind().contains("comment") {
            positional.push(argument);
        }
    }
    let string_at = |index: usize| -> Option<String> {
        let node = positional.get(index)?;
        (node.kind() == "string").then(|| crate::lang::string_literal_text(*node, source))
    };
    let dotted = |dotted: String| -> Option<(String, Option<String>)> {
        let mut parts = dotted.rsplit('.');
        let name = parts.next()?.to_string();
        Some((name, parts.next().map(str::to_string)))
    };
    let object_text = || {
        positional
            .first()
            .map(|node| text(*node, source).to_string())
    };
    let (target, owner) = match method {
        "patch" => dotted(string_at(0)?)?,
        "object" => (string_at(1)?, object_text()),
        "setattr" => match string_at(0) {
            Some(path) if path.contains('.') => dotted(path)?,
            _ => (string_at(1)?, object_text()),
        },
        _ => return None,
    };
    if value.is_none() {
        let replacement = match method {
            "setattr" if string_at(0).is_some_and(|d| d.contains('.')) => positional.get(1),
            "setattr" | "object" => positional.get(2),
            _ => positional.get(1),
        };
        value = replacement.and_then(|node| match node.kind() {
            "lambda" => node
                .child_by_field_name("body")
                .and_then(|body| literal::literal(body, source))
                .map(|lit| lit.text),
            _ => literal::literal(*node, source).map(|lit| lit.text),
        });
    }
    // The test function: the one the call is in, or the one a decorator call decorates.
    let mut current = call.parent();
    while let Some(ancestor) = current {
        match ancestor.kind() {
            "function_definition" => return Some((target, owner, value, ancestor)),
            "decorated_definition" => {
                let definition = ancestor.child_by_field_name("definition")?;
                return Some((target, owner, value, definition));
            }
            _ => current = ancestor.parent(),
        }
    }
    None
}

/// `jest.spyOn(mod, 'computeTax').mockReturnValue(42)`: the spied name, the value, and the
/// test callback around it.
fn js_mock<'t>(call: Node<'t>, source: &str) -> Option<Mocked<'t>> {
    let function = call.child_by_field_name("function")?;
    let spy = function.child_by_field_name("object")?;
    let spy_args = spy.child_by_field_name("arguments")?;
    let name = spy_args.named_child(1)?;
    let target = crate::lang::string_literal_text(name, source);
    let owner = spy_args
        .named_child(0)
        .map(|node| text(node, source).to_string());
    let value = call
        .child_by_field_name("arguments")
        .and_then(|args| args.named_child(0))
        .and_then(|value| match value.kind() {
            "arrow_function" => value
                .child_by_field_name("body")
                .and_then(|body| literal::literal(body, source)),
            _ => literal::literal(value, source),
        })
        .map(|lit| lit.text);
    let mut current = call.parent();
    while let Some(ancestor) = current {
        if matches!(
            ancestor.kind(),
            "arrow_function" | "function_expression" | "function_declaration" | "method_definition"
        ) {
            return Some((target, owner, value, ancestor));
        }
        current = ancestor.parent();
    }
    None
}

/// A mock: the replaced function's name, the object or module it belongs to, the value it now
/// returns, and the test around it.
type Mocked<'t> = (String, Option<String>, Option<String>, Node<'t>);

/// The change-level link: changed production functions against what the tests expect.
fn link(input: &ChangeInput<'_>, out: &mut ChangeOutput) {
    let handoffs: Vec<(usize, &Handoff)> = input
        .handoffs
        .iter()
        .filter_map(|(index, handoff)| Some((*index, handoff.downcast_ref::<Handoff>()?)))
        .collect();
    let suspicious = handoffs.iter().any(|(_, handoff)| {
        handoff
            .functions
            .iter()
            .any(|function| function.shape.is_some() || !function.special.is_empty())
    });
    if !suspicious {
        return;
    }
    // The tests the change leaves alone are parsed only now that some function looks fitted.
    let related: Vec<Expectation> = input
        .related_tests
        .iter()
        .flat_map(|(path, text)| related_expectations(path, text))
        .collect();
    let mut by_callee: HashMap<&str, Vec<&Expectation>> = HashMap::new();
    for expectation in handoffs
        .iter()
        .flat_map(|(_, handoff)| &handoff.expectations)
        .chain(&related)
    {
        by_callee
            .entry(expectation.callee.as_str())
            .or_default()
            .push(expectation);
    }
    if by_callee.is_empty() {
        return;
    }
    // A function's base version, in any changed file (a function moved between files keeps
    // its history).
    let base_by_key: HashMap<&str, &Function> = handoffs
        .iter()
        .flat_map(|(_, handoff)| handoff.base.iter())
        .map(|(key, function)| (key.as_str(), function))
        .collect();
    for (index, handoff) in &handoffs {
        for function in &handoff.functions {
            let Some(expectations) = by_callee.get(function.name.as_str()) else {
                continue;
            };
            let base = base_by_key.get(function.key.as_str()).copied();
            let mut reported = HashSet::new();
            if let Some(candidate) = fitted_body(function, base, expectations) {
                reported.insert(candidate.line);
                out.candidates.push((*index, candidate));
            }
            for candidate in special_cases(function, base, expectations) {
                if reported.insert(candidate.line) {
                    out.candidates.push((*index, candidate));
                }
            }
        }
    }
}

/// What a test file that the change does not touch checks.
fn related_expectations(path: &str, text: &str) -> Vec<Expectation> {
    let Some(language) = Language::from_path(path) else {
        return Vec::new();
    };
    let Some(compiled) = crate::query::compiled(language, QUERY) else {
        return Vec::new();
    };
    let Ok(parsed) = crate::lang::parse(language, text.to_string()) else {
        return Vec::new();
    };
    let root = parsed.tree.root_node();
    crate::query::run(compiled, &parsed, language)
        .iter()
        .filter(|found| found.property("kind") == Some("expect"))
        .take(MAX_PER_KIND)
        .filter_map(|found| {
            let node = node_of(root, found)?;
            let test = enclosing_test(node, text, language);
            extract::expectation(node, text, language, &test).map(|e| in_file(e, path))
        })
        .collect()
}

fn in_file(mut expectation: Expectation, path: &str) -> Expectation {
    expectation.path = path.to_string();
    expectation
}

/// How a message names the test: `test_x` (tests/test_y.py).
fn test_label(expectation: &Expectation) -> String {
    format!("`{}` ({})", expectation.test, expectation.path)
}

fn call_text(name: &str, expectation: &Expectation) -> String {
    let args: Vec<&str> = expectation
        .args
        .iter()
        .map(|arg| arg.as_deref().unwrap_or("…"))
        .collect();
    format!("{name}({})", args.join(", "))
}

/// A body that is (or starts with) the literal a test expects, or a table of them.
fn fitted_body(
    function: &Function,
    base: Option<&Function>,
    expectations: &[&Expectation],
) -> Option<Candidate> {
    let (shape, line) = function.shape.as_ref()?;
    let base_shape = base
        .and_then(|base| base.shape.as_ref())
        .map(|(shape, _)| shape);
    let (expectation, what) = match shape {
        Shape::Constant(lit) => {
            // A function that was constant in base, or is new, is what it says.
            base?;
            if matches!(base_shape, Some(Shape::Constant(_))) {
                return None;
            }
            let found = expectations
                .iter()
                .find(|e| e.expected.as_deref() == Some(lit.text.as_str()))?;
            let how = if lit.computed {
                ", computed from literals,"
            } else {
                ""
            };
            (
                found,
                format!(
                    "now returns `{}`{how} where base computed its result",
                    lit.text
                ),
            )
        }
        Shape::ShortCircuit(lit) => {
            if let Some(Shape::ShortCircuit(old)) = base_shape
                && old.text == lit.text
            {
                return None;
            }
            let found = expectations
                .iter()
                .find(|e| e.expected.as_deref() == Some(lit.text.as_str()))?;
            (
                found,
                format!(
                    "now returns `{}` before the rest of its body runs",
                    lit.text
                ),
            )
        }
        Shape::Table(entries) => {
            base?;
            if matches!(base_shape, Some(Shape::Table(_))) {
                return None;
            }
            let (found, (key, value)) = expectations.iter().find_map(|e| {
                let entry = entries.iter().find(|(key, value)| {
                    e.args.first().and_then(|a| a.as_deref()) == Some(key.as_str())
                        && e.expected.as_deref() == Some(value.as_str())
                })?;
                Some((e, entry))
            })?;
            (
                found,
                format!(
                    "now looks its result up in a table of {} literal answers (`{key}` → `{value}`) where base computed it",
                    entries.len()
                ),
            )
        }
    };
    Some(Candidate::at_line(
        Side::Head,
        *line,
        Severity::Error,
        format!(
            "`{}` {what}: test {} expects exactly that for `{}`; the code is fitted to the test, not the behaviour",
            function.name,
            test_label(expectation),
            call_text(&function.name, expectation)
        ),
        format!("fitted:{}", function.key),
    ))
}

/// New branches on a literal input a test passes.
fn special_cases(
    function: &Function,
    base: Option<&Function>,
    expectations: &[&Expectation],
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for case in &function.special {
        if literal::is_trivial(&case.input) {
            continue;
        }
        if base.is_some_and(|base| base.special.iter().any(|old| old.input == case.input)) {
            continue;
        }
        let Some(expectation) = expectations.iter().find(|e| {
            e.args
                .iter()
                .any(|arg| arg.as_deref() == Some(case.input.as_str()))
        }) else {
            continue;
        };
        let returns = if expectation.expected.as_deref() == Some(case.output.as_str()) {
            format!("the `{}` the test expects", case.output)
        } else {
            format!("`{}`", case.output)
        };
        out.push(Candidate::at_line(
            Side::Head,
            case.line,
            Severity::Error,
            format!(
                "`{}` gains a branch for the input `{}`, which test {} passes (`{}`), returning {returns}: code special-cased to the test",
                function.name,
                case.input,
                test_label(expectation),
                call_text(&function.name, expectation)
            ),
            format!("special:{}:{}", function.key, case.input),
        ));
    }
    out
}
