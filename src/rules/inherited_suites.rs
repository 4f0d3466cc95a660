//! Part of `deleted-test`: a Python test class that defines no tests of its own and runs the
//! ones it inherits (`class TestSqliteStore(StoreContract): backend = "sqlite"`). The test
//! inventory sees no test in it, so deleting it, or its file, took nothing from the inventory
//! while every inherited test stopped running with those settings.
//!
//! Read from the text, line by line, like [`super::inheritance`]: class headers, their bases
//! and their bodies (bounded by [`MAX_LINES`]).

use super::context::{Candidate, Fact, FactRef, FileContext, Moved, Output};
use crate::finding::{Confidence, Severity, Side};

/// Lines read per side; past it the file's classes are not read.
const MAX_LINES: usize = 20_000;

/// Fact name: a test class defined in a head file (a class moved to another file still runs).
const CLASS: &str = "test-class";

/// Fact name: a head test class by what it inherits and its first setting (renamed, it still
/// runs the same tests the same way).
const SHAPE: &str = "test-class-shape";

/// Bases that bring no tests: the frameworks' own classes and typing helpers.
const NO_TESTS: &[&str] = &[
    "object",
    "TestCase",
    "IsolatedAsyncioTestCase",
    "SimpleTestCase",
    "TransactionTestCase",
    "LiveServerTestCase",
    "APITestCase",
    "AsyncTestCase",
    "AioHTTPTestCase",
    "ABC",
    "Generic",
    "Protocol",
    "Enum",
    "Exception",
];

/// One class of a file, with what its body holds.
struct Suite {
    name: String,
    bases: Vec<String>,
    line: u32,
    /// Whether the body defines a `test*` method of its own.
    own_tests: bool,
    /// The first class-level assignment of its body (`backend = "sqlite"`), trimmed.
    setting: Option<String>,
    /// The number of `def test*` methods in the body.
    tests: usize,
}

pub(super) fn check(context: &FileContext<'_>, out: &mut Output) {
    let family = "python";
    if let Some(head) = context.side(Side::Head) {
        // Only a class the runner collects still runs what it inherits: renamed to
        // `_TestSqliteStore` with the same bases and settings, it runs nothing.
        for suite in suites(head.text)
            .into_iter()
            .filter(|suite| suite.name.starts_with("Test"))
        {
            out.facts.push(Fact {
                side: Side::Head,
                name: SHAPE,
                family,
                key: shape(&suite),
                severity: Severity::Error,
            });
            out.facts.push(Fact {
                side: Side::Head,
                name: CLASS,
                family,
                key: suite.name,
                severity: Severity::Error,
            });
        }
    }
    let Some(base) = context.side(Side::Base) else {
        return;
    };
    if !super::is_test_path(base.path) {
        return;
    }
    let base_suites = suites(base.text);
    let head_names: Vec<String> = context
        .side(Side::Head)
        .map(|head| {
            suites(head.text)
                .into_iter()
                .map(|suite| suite.name)
                .collect()
        })
        .unwrap_or_default();
    for suite in &base_suites {
        if !suite.name.starts_with("Test") || suite.own_tests || head_names.contains(&suite.name) {
            continue;
        }
        let parents: Vec<&String> = suite
            .bases
            .iter()
            .filter(|base| !NO_TESTS.contains(&base.as_str()))
            .collect();
        let Some(parent) = parents.first() else {
            continue;
        };
        // The parent's tests, when the file defines it; a parent elsewhere is named like a
        // suite or not (`StoreContract`, `BackendTests` say they hold tests).
        let defined_here = base_suites.iter().find(|other| &&other.name == parent);
        let (confidence, count) = match defined_here {
            // A parent with no tests of its own that inherits none either runs nothing.
            Some(other)
                if other.tests == 0
                    && other
                        .bases
                        .iter()
                        .all(|base| NO_TESTS.contains(&base.as_str())) =>
            {
                continue;
            }
            Some(other) if other.tests == 0 => (Confidence::Certain, None),
            Some(other) => (Confidence::Certain, Some(other.tests)),
            None if suite_like(parent) => (Confidence::Certain, None),
            None => (Confidence::Likely, None),
        };
        let tests = match count {
            Some(1) => "the test".to_string(),
            Some(n) => format!("the {n} tests"),
            None => "the tests".to_string(),
        };
        let settings = suite
            .setting
            .as_ref()
            .map(|setting| format!(" with its own settings (`{setting}`)"))
            .unwrap_or_default();
        let how = if context.side(Side::Head).is_some() {
            "was deleted"
        } else {
            "was deleted with its file"
        };
        out.candidates.push(Candidate {
            side: Side::Base,
            line: suite.line,
            end_line: suite.line,
            severity: Severity::Error,
            message: format!(
                "test class `{}` {how}: it ran {tests} it inherits from `{parent}`{settings}, and no longer does",
                suite.name
            ),
            key: format!("class {}", suite.name),
            moved: Some(Moved {
                family,
                key: suite.name.clone(),
                already: FactRef::head(CLASS),
                also: vec![(FactRef::head(SHAPE), shape(suite))],
                print: None,
                likely: Vec::new(),
                existed: None,
            }),
            confidence,
        });
    }
}

/// What a class runs: its bases and its first setting.
fn shape(suite: &Suite) -> String {
    format!(
        "{}|{}",
        suite.bases.join(","),
        suite.setting.as_deref().unwrap_or_default()
    )
}

/// Whether a class name says it holds tests for others to run.
fn suite_like(name: &str) -> bool {
    [
        "Test", "Tests", "Contract", "Suite", "Mixin", "Base", "Cases", "Checks",
    ]
    .iter()
    .any(|word| name.contains(word))
}

/// The classes of a Python file with their bodies' tests and first setting.
fn suites(text: &str) -> Vec<Suite> {
    let lines: Vec<&str> = text.lines().take(MAX_LINES + 1).collect();
    if lines.len() > MAX_LINES {
        return Vec::new();
    }
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut out = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let depth = indent(line);
        let Some(header) = line.trim_start().strip_prefix("class ") else {
            continue;
        };
        let Some(super::inheritance::Class { name, bases }) = super::inheritance::header(header)
        else {
            continue;
        };
        let mut suite = Suite {
            name,
            bases,
            line: at as u32 + 1,
            own_tests: false,
            setting: None,
            tests: 0,
        };
        let mut body_depth = None;
        for inner in lines.iter().skip(at + 1) {
            if inner.trim().is_empty() {
                continue;
            }
            let inner_depth = indent(inner);
            if inner_depth <= depth {
                break;
            }
            let body_depth = *body_depth.get_or_insert(inner_depth);
            if inner_depth != body_depth {
                continue;
            }
            let statement = inner.trim();
            let def = statement
                .strip_prefix("async ")
                .unwrap_or(statement)
                .strip_prefix("def ");
            if let Some(def) = def {
                if def.starts_with("test") {
                    suite.own_tests = true;
                    suite.tests += 1;
                }
            } else if suite.setting.is_none()
                && !statement.starts_with(['#', '@', '"', '\''])
                && statement.contains('=')
                && !statement.contains("==")
            {
                suite.setting = Some(super::markers::shorten(statement, 60));
            }
        }
        out.push(suite);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_body_is_read_for_its_tests_and_first_setting() {
        let text = "class StoreContract:\n    backend = None\n\n    def test_put(self):\n        x = 1\n        assert x\n\n    async def test_get(self):\n        pass\n\n\nclass TestSqlite(StoreContract):\n    \"\"\"Runs the contract on sqlite.\"\"\"\n    backend = \"sqlite\"\n\n    def helper(self):\n        return 1\n";
        let found = suites(text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].tests, 2);
        assert!(found[0].own_tests);
        assert_eq!(found[1].name, "TestSqlite");
        assert_eq!(found[1].bases, ["StoreContract"]);
        assert!(!found[1].own_tests);
        assert_eq!(found[1].setting.as_deref(), Some("backend = \"sqlite\""));
        assert_eq!(found[1].line, 12);
    }
}
