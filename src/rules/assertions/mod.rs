//! The assertions of each test on one side of a file, each classified by strength.
//!
//! Built on the shared `assertions` query. A test's assertions are the ones inside its node,
//! plus those of same-file helper functions it calls (one level), so assertions refactored into
//! a helper that is still called keep counting. Strength is read from the assertion's text:
//! 0 trivially true (`assert True`, `t.pass()`, `t.is(x, x)`), 1 weak (truthiness, not-null,
//! `toHaveBeenCalled()`, `toThrow()`/`t.throws(fn)` without a message), 2 exact, 3 for a raise
//! check that also pins the message.
//!
//! Covered forms: jest/vitest `expect(..)` chains and `expect.assertions(n)`; node/chai
//! `assert.*`; ava/tap/node:test context assertions `t.is`/`t.deepEqual`/`t.throws`/
//! `t.equal`/`t.assert.*` and `t.plan(n)` (read like `expect.assertions(n)`); Python `assert`,
//! unittest `self.assert*`, `pytest.raises`/`warns`; Rust assertion macros including
//! `debug_assert*!` (counted: the test profile keeps debug assertions on), approx macros with
//! their `epsilon`, `assert_approx_eq!`'s third argument, and `prop_assert*!` inside
//! `proptest!` token trees; `#[should_panic(expected = ..)]`.
//!
//! An assertion inside an `if` that never runs (`if (false)`, `if False:`, `if false`, the
//! `else` of a true literal) is marked `dead` and does not count. An assertion wrapped in a
//! `try`/`except` that swallows its failure is `empty-catch`'s finding, not this one's.

use super::context::FileContext;
use super::inventory::{Test, node_at};
use crate::finding::Side;
use crate::lang::Language;
use std::collections::HashMap;

mod classify;

use classify::classify;

/// What an assertion checks, for pairing removed ones with added ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A value check.
    Check,
    /// An expected error or panic.
    Raises,
    /// `expect.assertions(n)`.
    Count,
}

/// One assertion.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// First line of its text, shortened, for messages.
    pub text: String,
    /// Text without whitespace, for pairing base and head.
    pub norm: String,
    /// What it checks.
    pub family: Family,
    /// 0 trivially true, 1 weak, 2 exact, 3 exact with message.
    pub strength: u8,
    /// A numeric tolerance, when it compares approximately.
    pub tolerance: Option<f64>,
    /// `expect.assertions(n)` / `t.plan(n)`: n.
    pub count: Option<u64>,
    /// Rust `debug_assert*!`: compiled out where debug assertions are off.
    pub debug_only: bool,
    /// Inside a branch that never runs (`if (false) { .. }`, `if False:`, the `else` of
    /// `if true`): it does not count.
    pub dead: bool,
    /// The innermost `if` with an `else` that holds it, as (the `if`'s start byte, its arm's
    /// start byte): only one arm runs, so a test's checks count once per `if`, by its largest
    /// arm.
    pub arm: Option<(usize, usize)>,
    /// The same-file helper it was counted through (`assert_response(r)` calls a helper
    /// defined in the file), when not written in the test itself.
    pub via: Option<String>,
    /// 1-based line (in its side's file).
    pub line: u32,
}

/// Assertions per test key (cases of one test share them), for the collected tests given, and
/// the names of the same-file helpers whose assertions were counted.
pub fn by_test(
    context: &FileContext<'_>,
    side: Side,
    tests: &[&Test],
) -> (HashMap<String, Vec<Assertion>>, Vec<String>) {
    let mut out: HashMap<String, Vec<Assertion>> = HashMap::new();
    let (Some(language), Some(text), Some(parsed)) =
        (context.language, context.side(side), context.parsed(side))
    else {
        return (out, Vec::new());
    };
    let source = text.text;
    let root = parsed.tree.root_node();
    let matches = context.matches(side, "assertions");
    // Each assertion once, outermost only (`expect(x).toBe(1)` holds `expect(x)`).
    let mut found: Vec<(std::ops::Range<usize>, usize, Assertion)> = Vec::new();
    let mut functions: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    for item in matches.iter() {
        let kind = match item.property("kind").unwrap_or_default() {
            // One JS pattern matches expect/assert/helper calls; the callee tells them apart.
            "call" => {
                let callee = source
                    .get(item.byte_range.clone())
                    .and_then(|text| text.split('(').next())
                    .unwrap_or_default()
                    .trim();
                // `expect.poll(fn)` (retried until it passes), `expect.soft(x)` (reported at
                // the end) and vitest's `expect.element(locator)` check like `expect(x)`.
                let squashed: String = callee.chars().filter(|c| !c.is_whitespace()).collect();
                if matches!(
                    squashed.as_str(),
                    "expect" | "expect.poll" | "expect.soft" | "expect.element"
                ) {
                    "expect"
                } else if callee == "assert"
                    || callee.starts_with("assert.")
                    || squashed == "expect.assert"
                {
                    // `expect.assert(x)` is chai's `assert(x)` on vitest's `expect`.
                    "assert"
                } else if callee.starts_with("t.") || callee.starts_with("tt.") {
                    // ava/tap/node:test: `t.plan(n)` pins the count like `expect.assertions(n)`.
                    if callee.ends_with(".plan") {
                        "count"
                    } else {
                        "context"
                    }
                } else {
                    "helper"
                }
            }
            other => other,
        };
        if kind == "function" {
            functions.push((item.name.clone(), item.byte_range.clone()));
            continue;
        }
        let mut range = item.byte_range.clone();
        let mut anchor = range.start;
        if kind == "expect" {
            range = expect_chain(root, range);
        }
        if kind == "assert" && language == Language::Rust {
            // Inside another macro (`proptest! { .. }`) an assertion is only tokens: the name,
            // `!` and its arguments. Grow the name to the arguments.
            range = macro_in_tokens(root, range);
        }
        if kind == "raises" && language == Language::Rust {
            // `#[should_panic]` sits before the function; anchor it inside the function.
            anchor = following_function(root, range.clone()).unwrap_or(anchor);
        }
        let Some(snippet) = source.get(range.clone()) else {
            continue;
        };
        let line = item.line;
        let mut assertion = classify(snippet, kind, language, line);
        assertion.dead = in_dead_branch(root, range.clone(), source);
        assertion.arm = branch_arm(root, range.clone());
        found.push((range, anchor, assertion));
    }
    found.sort_by_key(|(range, _, _)| (range.start, std::cmp::Reverse(range.end)));
    let mut kept: Vec<(std::ops::Range<usize>, usize, Assertion)> = Vec::new();
    for entry in found {
        if kept
            .iter()
            .any(|(range, _, _)| range.start <= entry.0.start && entry.0.end <= range.end)
        {
            continue;
        }
        kept.push(entry);
    }
    let inside = |range: &std::ops::Range<usize>| -> Vec<Assertion> {
        kept.iter()
            .filter(|(_, anchor, _)| range.contains(anchor))
            .map(|(_, _, assertion)| assertion.clone())
            .collect()
    };
    // Helpers: same-file functions with assertions that are neither tests nor nested inside a
    // test (a route handler defined in a test already counts where it stands, and its name,
    // such as `get`, says nothing about other tests that call `client.get(..)`).
    let helpers: Vec<(String, Vec<Assertion>)> = functions
        .iter()
        .filter(|(_, range)| {
            !tests.iter().any(|test| {
                test.byte_range.start <= range.start && range.end <= test.byte_range.end
            })
        })
        .map(|(name, range)| (name.clone(), inside(range)))
        .filter(|(name, list)| !list.is_empty() && !name.is_empty())
        .collect();
    for test in tests {
        if out.contains_key(&test.key) {
            continue;
        }
        let mut list = inside(&test.byte_range);
        let body = source.get(test.byte_range.clone()).unwrap_or_default();
        let implementations = passed_implementations(root, test, source);
        for (name, assertions) in &helpers {
            let uses = calls(body, name) + implementations.iter().filter(|i| *i == name).count();
            for _ in 0..uses {
                list.extend(assertions.iter().map(|assertion| Assertion {
                    via: Some(name.clone()),
                    ..assertion.clone()
                }));
            }
        }
        out.insert(test.key.clone(), list);
    }
    let names = helpers.into_iter().map(|(name, _)| name).collect();
    (out, names)
}

/// JavaScript: the functions a test call passes by name as its implementation, as ava macros
/// do (`test('title', testOutput, 'a', 'b')`, `test(title, [macroA, macroB])`): the helper runs
/// as the test body, so its assertions are the test's.
fn passed_implementations<'s>(
    root: tree_sitter::Node<'_>,
    test: &Test,
    source: &'s str,
) -> Vec<&'s str> {
    let Some(arguments) = node_at(root, test.byte_range.clone())
        .filter(|node| node.kind() == "call_expression")
        .and_then(|node| node.child_by_field_name("arguments"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cursor = arguments.walk();
    for argument in arguments.named_children(&mut cursor).skip(1) {
        match argument.kind() {
            "identifier" => out.extend(source.get(argument.byte_range())),
            "array" => {
                let mut inner = argument.walk();
                out.extend(
                    argument
                        .named_children(&mut inner)
                        .filter(|item| item.kind() == "identifier")
                        .filter_map(|item| source.get(item.byte_range())),
                );
            }
            _ => {}
        }
    }
    out
}

/// How many times `body` calls the helper `name(`: as a free function, or as a method of the
/// test's own object (`self.name(`, `this.name(`), never as a method of something else
/// (`client.get(` is not a call of a helper named `get`).
pub fn calls(body: &str, name: &str) -> usize {
    let pattern = format!("{name}(");
    body.match_indices(&pattern)
        .filter(|(index, _)| {
            let before = &body[..*index];
            match before.chars().next_back() {
                None => true,
                Some('.') => {
                    let receiver = before[..before.len() - 1]
                        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or_default();
                    matches!(receiver, "self" | "this" | "cls" | "Self")
                }
                Some(c) => !(c.is_alphanumeric() || c == '_'),
            }
        })
        .count()
}

/// `expect(x)` grown to the whole chain `expect(x).not.toBe(1)`.
fn expect_chain(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
) -> std::ops::Range<usize> {
    let Some(mut node) = node_at(root, range.clone()) else {
        return range;
    };
    for parent in crate::lang::ancestors(root, node) {
        let continues = match parent.kind() {
            "member_expression" => parent.child_by_field_name("object") == Some(node),
            "call_expression" => parent.child_by_field_name("function") == Some(node),
            "await_expression" => true,
            _ => false,
        };
        if !continues {
            break;
        }
        node = parent;
    }
    node.byte_range()
}

/// Whether `range` sits in a branch of an `if` that never runs: the body of an `if` whose
/// condition is a false literal, or the `else` of one whose condition is a true literal.
fn in_dead_branch(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
    source: &str,
) -> bool {
    let Some(node) = root.descendant_for_byte_range(range.start, range.end) else {
        return false;
    };
    for parent in crate::lang::ancestors(root, node) {
        if matches!(parent.kind(), "if_statement" | "if_expression")
            && let Some(condition) = parent.child_by_field_name("condition")
        {
            let text = crate::rules::inventory::squash(
                source.get(condition.byte_range()).unwrap_or_default(),
            );
            let in_body = parent
                .child_by_field_name("consequence")
                .is_some_and(|body| body.byte_range().contains(&range.start));
            let in_else = parent
                .child_by_field_name("alternative")
                .is_some_and(|body| body.byte_range().contains(&range.start));
            match classify::literal_truth(&text) {
                Some(false) if in_body => return true,
                Some(true) if in_else => return true,
                _ => {}
            }
        }
    }
    false
}

/// The innermost `if` with an `else` (or `elif`) around `range`, and which of its arms holds
/// it: see [`Assertion::arm`].
fn branch_arm(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
) -> Option<(usize, usize)> {
    let node = root.descendant_for_byte_range(range.start, range.end)?;
    for parent in crate::lang::ancestors(root, node) {
        if !matches!(parent.kind(), "if_statement" | "if_expression") {
            continue;
        }
        let mut cursor = parent.walk();
        let alternatives: Vec<tree_sitter::Node<'_>> = parent
            .children_by_field_name("alternative", &mut cursor)
            .collect();
        if alternatives.is_empty() {
            continue;
        }
        let consequence = parent.child_by_field_name("consequence");
        let arm = consequence
            .into_iter()
            .chain(alternatives)
            .find(|arm| arm.byte_range().contains(&range.start))?;
        return Some((parent.start_byte(), arm.start_byte()));
    }
    None
}

/// How many checks a list of assertions makes on one run: the count of those that count, with
/// the checks of an `if`/`else` counted once by its largest arm (only one arm runs).
pub fn checks_per_run(list: &[Assertion], counts: impl Fn(&Assertion) -> bool) -> usize {
    let mut plain = 0;
    let mut arms: Vec<((usize, usize), usize)> = Vec::new();
    for assertion in list.iter().filter(|assertion| counts(assertion)) {
        match assertion.arm {
            None => plain += 1,
            Some(arm) => match arms.iter_mut().find(|(seen, _)| *seen == arm) {
                Some((_, count)) => *count += 1,
                None => arms.push((arm, 1)),
            },
        }
    }
    let mut by_if: Vec<(usize, usize)> = Vec::new();
    for ((start, _), count) in arms {
        match by_if.iter_mut().find(|(seen, _)| *seen == start) {
            Some((_, best)) => *best = (*best).max(count),
            None => by_if.push((start, count)),
        }
    }
    plain + by_if.iter().map(|(_, count)| count).sum::<usize>()
}

/// `prop_assert_eq` (an identifier in a token tree) grown to `prop_assert_eq!(a, b)`.
fn macro_in_tokens(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
) -> std::ops::Range<usize> {
    let Some(node) = node_at(root, range.clone()) else {
        return range;
    };
    if node.kind() != "identifier" {
        return range;
    }
    let mut start = node.start_byte();
    // A path (`approx::assert_relative_eq!`) starts at its first segment.
    let mut previous = node.prev_sibling();
    while let Some(sep) = previous.filter(|sep| sep.kind() == "::") {
        match sep
            .prev_sibling()
            .filter(|segment| segment.kind() == "identifier")
        {
            Some(segment) => {
                start = segment.start_byte();
                previous = segment.prev_sibling();
            }
            None => break,
        }
    }
    let bang = node.next_sibling().filter(|bang| bang.kind() == "!");
    match bang.and_then(|bang| bang.next_sibling()) {
        Some(arguments) if arguments.kind() == "token_tree" => start..arguments.end_byte(),
        _ => range,
    }
}

/// The start of the function an attribute belongs to.
fn following_function(root: tree_sitter::Node<'_>, range: std::ops::Range<usize>) -> Option<usize> {
    let mut node = node_at(root, range)?.next_named_sibling();
    while let Some(sibling) = node {
        match sibling.kind() {
            "function_item" => return Some(sibling.start_byte()),
            "attribute_item" | "line_comment" | "block_comment" => {}
            _ => return None,
        }
        node = sibling.next_named_sibling();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::calls;

    #[test]
    fn helper_calls_are_free_or_on_the_tests_own_object() {
        assert_eq!(
            calls("check_total(x)\nself.check_total(y)", "check_total"),
            2
        );
        assert_eq!(calls("this.verify(a)", "verify"), 1);
        assert_eq!(calls("client.get('/')\nrecheck_total(x)", "get"), 0);
        assert_eq!(calls("client.get('/')", "get"), 0);
        assert_eq!(calls("rv = get()", "get"), 1);
    }
}
