//! The assertions of each test on one side of a file, each classified by strength.
//!
//! Built on the shared `assertions` query. A test's assertions are the ones inside its node,
//! plus those of same-file helper functions it calls, followed from helper to helper up to
//! [`HELPER_DEPTH`] calls deep, so assertions refactored into a helper (or a helper of a helper)
//! that is still called keep counting. Strength is read from the assertion's text:
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
//! `proptest!` token trees; `#[should_panic(expected = ..)]`, and a bare `#[should_panic]`
//! marked as a known failure by a comment next to it.
//!
//! An assertion inside an `if` that never runs (`if (false)`, `if False:`, `if false`, the
//! `else` of a true literal) is marked `dead` and does not count. An assertion wrapped in a
//! `try`/`except` that swallows its failure is `empty-catch`'s finding, not this one's.

use super::context::FileContext;
use super::inventory::{Test, node_at};
use crate::finding::Side;
use crate::lang::Language;
use std::collections::{HashMap, HashSet};

mod classify;

use crate::rules::inventory::squash;
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
    /// Its text as written, trimmed: the first line, and for a check over several lines also
    /// its last (`expect(() => { … }).toThrow(Bad);`). It may hold a secret, so it is shown
    /// only through [`Assertion::shown`].
    pub first_line: String,
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
    /// The same-file helpers it was counted through, from the one the test calls to the one
    /// that holds it (`check(..)` calls `build(..)`, which asserts); empty when written in the
    /// test itself.
    pub via: Vec<String>,
    /// A bare `#[should_panic]` that a comment next to it calls a known failure (`// FIXME`):
    /// it marks a test expected to fail, so dropping it makes the test stricter, not weaker.
    pub known_failure: bool,
    /// 1-based line (in its side's file).
    pub line: u32,
}

impl Assertion {
    /// The first line for messages: redacted, then shortened. Built on demand: redacting every
    /// assertion of a large file was most of the rule's time, and few are ever shown.
    pub fn shown(&self) -> String {
        crate::rules::markers::shorten(&self.first_line, 70)
    }
}

/// How many helper calls deep a test's checks are followed: test → `a` → `b` → `c`. Deeper
/// chains are rare; past the bound the test's count is marked uncertain instead of guessed.
pub const HELPER_DEPTH: usize = 3;

/// At most this many assertions are gathered for one test through its helpers, and at most this
/// many helper calls followed, so helpers that call each other many times over cannot multiply
/// the work. Past either, the test is cut like a chain past [`HELPER_DEPTH`].
const MAX_GATHERED: usize = 2_000;
const MAX_FOLLOWED: usize = 2_000;

/// The assertions of the tests asked about on one side of a file, and the file's helpers.
#[derive(Default)]
pub struct Checks {
    /// Per test key (cases of one test share them).
    pub by_test: HashMap<String, TestChecks>,
    /// Same-file functions outside the tests, with or without checks of their own, by name:
    /// their text (same-named ones joined). Where a helper went when a test still calls it.
    pub functions: HashMap<String, String>,
}

/// One test's assertions: its own and those of the same-file helpers it calls.
#[derive(Clone, Debug, Default)]
pub struct TestChecks {
    pub assertions: Vec<Assertion>,
    /// Where the helpers went deeper than [`HELPER_DEPTH`] (or past the work bound) and were not
    /// followed.
    pub past_depth: Option<PastDepth>,
}

/// Helpers a test reaches only through more than [`HELPER_DEPTH`] calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PastDepth {
    /// The first chain cut: the helpers from the test down to the one not followed.
    pub chain: Vec<String>,
    /// The helper at the cut and every function reachable past it, by name, with its text
    /// squashed: if both sides hold the same, the uncounted checks are the same on both.
    pub functions: std::collections::BTreeMap<String, String>,
}

/// One same-file function outside the tests.
struct Function {
    name: String,
    range: std::ops::Range<usize>,
    /// The assertions written inside it.
    own: Vec<Assertion>,
    /// The same-file functions it calls, with how many times.
    callees: Vec<(usize, usize)>,
    /// Whether any assertion is reachable from it (its own or through what it calls).
    checks: bool,
}

/// The assertions of the collected tests given, on one side of the file: those written in each
/// test, plus those of the same-file helpers it calls, followed from helper to helper up to
/// [`HELPER_DEPTH`] calls deep (each function once per chain, so recursion ends).
pub fn by_test(context: &FileContext<'_>, side: Side, tests: &[&Test]) -> Checks {
    let mut out = Checks::default();
    let (Some(language), Some(text), Some(parsed)) =
        (context.language, context.side(side), context.parsed(side))
    else {
        return out;
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
        let snippet = without_comments(root, range.clone(), snippet);
        let mut assertion = classify(&snippet, kind, language, line);
        assertion.dead = in_dead_branch(root, range.clone(), source);
        assertion.arm = branch_arm(root, range.clone());
        if kind == "raises" && language == Language::Rust {
            assertion.known_failure = assertion.norm == "#[should_panic]"
                && known_failure_note(root, range.clone(), source);
        }
        found.push((range, anchor, assertion));
    }
    found.sort_by_key(|(range, _, _)| (range.start, std::cmp::Reverse(range.end)));
    // Sorted by start, so an entry lies inside an earlier one exactly when some earlier one
    // reaches as far: the furthest end so far decides, in one pass.
    // An assertion inside a callback that another assertion's arguments hold (`expect(await
    // run(css, { plugin: () => { expect(theme(..)).toEqual(..) } })).toMatchInlineSnapshot()`)
    // runs on its own: it is kept.
    let mut kept: Vec<(std::ops::Range<usize>, usize, Assertion)> = Vec::new();
    let mut outer: Option<std::ops::Range<usize>> = None;
    for entry in found {
        if let Some(around) = outer.as_ref().filter(|around| entry.0.end <= around.end) {
            if in_callback_within(root, entry.0.clone(), around) {
                kept.push(entry);
            }
            continue;
        }
        outer = Some(entry.0.clone());
        kept.push(entry);
    }
    // Anchors in order, to find a range's assertions by binary search (in `kept` order).
    let mut by_anchor: Vec<(usize, usize)> = kept
        .iter()
        .enumerate()
        .map(|(index, (_, anchor, _))| (*anchor, index))
        .collect();
    by_anchor.sort_unstable();
    let inside = |range: &std::ops::Range<usize>| -> Vec<Assertion> {
        let from = by_anchor.partition_point(|(anchor, _)| *anchor < range.start);
        let to = by_anchor.partition_point(|(anchor, _)| *anchor < range.end);
        let mut indexes: Vec<usize> = by_anchor[from..to]
            .iter()
            .map(|(_, index)| *index)
            .collect();
        indexes.sort_unstable();
        indexes
            .into_iter()
            .map(|index| kept[index].2.clone())
            .collect()
    };
    // Tests by start with the furthest end so far: whether a function lies inside some test
    // is one binary search.
    let mut test_ranges: Vec<std::ops::Range<usize>> =
        tests.iter().map(|test| test.byte_range.clone()).collect();
    test_ranges.sort_by_key(|range| range.start);
    let reach: Vec<usize> = test_ranges
        .iter()
        .scan(0, |furthest, range| {
            *furthest = (*furthest).max(range.end);
            Some(*furthest)
        })
        .collect();
    let in_some_test = |range: &std::ops::Range<usize>| {
        let count = test_ranges.partition_point(|test| test.start <= range.start);
        count > 0 && reach[count - 1] >= range.end
    };
    // Helpers: same-file functions that are neither tests nor nested inside a test (a route
    // handler defined in a test already counts where it stands, and its name, such as `get`,
    // says nothing about other tests that call `client.get(..)`). In a Rust source file, only
    // test code: a `debug_assert!` in the code under test is not one of the test's checks, and
    // an edit to it is not a change to the tests.
    let rust_source = language == Language::Rust && !rust_test_file(context.pair.path());
    let mut helpers: Vec<Function> = functions
        .iter()
        .filter(|(name, range)| {
            !name.is_empty()
                && !in_some_test(range)
                && (!rust_source || in_test_code(root, range.clone(), source))
        })
        .map(|(name, range)| Function {
            name: name.clone(),
            range: range.clone(),
            own: inside(range),
            callees: Vec::new(),
            checks: false,
        })
        .collect();
    link_helpers(&mut helpers, root, source);
    for helper in &helpers {
        let text = source.get(helper.range.clone()).unwrap_or_default();
        out.functions
            .entry(helper.name.clone())
            .and_modify(|joined| joined.push_str(text))
            .or_insert_with(|| text.to_string());
    }
    let checking: Vec<usize> = (0..helpers.len()).filter(|i| helpers[*i].checks).collect();
    // A call to a same-file helper that the other side does not have counts as the helper's
    // checks, followed below, not also as a check of its own: `self.assertQueryEqual(a, b)`
    // inlined as `assert sorted(..) == sorted(..)`, or moved to a module-level
    // `_assert_query_equal(a, b)`, checks as much; one gutted to check nothing counts nothing.
    // A helper both sides have keeps its calls, whose arguments carry the expected values.
    let other_side = match side {
        Side::Base => Side::Head,
        Side::Head => Side::Base,
    };
    let other_functions: HashSet<String> = context
        .matches(other_side, "assertions")
        .iter()
        .filter(|item| item.property("kind") == Some("function"))
        .map(|item| item.name.clone())
        .collect();
    let local: HashSet<&str> = helpers
        .iter()
        .map(|helper| helper.name.as_str())
        .filter(|name| !other_functions.contains(*name))
        .collect();
    // Only while the call's arguments, its expected values, live on the other side: a helper
    // inlined with an expected value the change deletes (`assert_paths(pg, independent_oracle())`
    // → the paths the code under test resolves) lost a check.
    let other_code: String = context
        .side(other_side)
        .map(|other| squash(other.text))
        .unwrap_or_default();
    for test in tests {
        if out.by_test.contains_key(&test.key) {
            continue;
        }
        let body = source.get(test.byte_range.clone()).unwrap_or_default();
        let implementations = passed_implementations(root, test, source);
        let words = identifiers(body);
        let mut gathered = Gathered {
            assertions: inside(&test.byte_range),
            followed: 0,
            cut: None,
        };
        for &index in &checking {
            let name = helpers[index].name.as_str();
            if !words.contains(name) {
                continue;
            }
            let uses = calls(body, name) + implementations.iter().filter(|i| **i == name).count();
            if uses > 0 {
                gathered.follow(&helpers, index, uses, &mut vec![index]);
            }
        }
        gathered.assertions.retain(|assertion| {
            !(calls_local_helper(&assertion.norm, &local)
                && arguments_live_on(&assertion.norm, &other_code))
        });
        let past_depth = gathered.cut.map(|(chain, reached)| PastDepth {
            chain: chain.iter().map(|i| helpers[*i].name.clone()).collect(),
            functions: reached.iter().fold(Default::default(), |mut map, i| {
                let text = source.get(helpers[*i].range.clone()).unwrap_or_default();
                map.entry(helpers[*i].name.clone())
                    .and_modify(|joined: &mut String| joined.push_str(&squash(text)))
                    .or_insert_with(|| squash(text));
                map
            }),
        });
        out.by_test.insert(
            test.key.clone(),
            TestChecks {
                assertions: gathered.assertions,
                past_depth,
            },
        );
    }
    out
}

/// Whether an assertion is a call of one of `local`'s functions, by its bare name or on
/// `self`/`this`/`cls` (`self.assertQueryEqual(..)`, `assert_rows(..)`), not a library call of
/// the same name (`subprocess.check_output(..)`).
fn calls_local_helper(norm: &str, local: &HashSet<&str>) -> bool {
    let callee = norm.split('(').next().unwrap_or_default();
    if callee.ends_with('!') {
        return false;
    }
    let name = ["self.", "this.", "cls."]
        .iter()
        .find_map(|receiver| callee.strip_prefix(receiver))
        .unwrap_or(callee);
    !name.is_empty() && local.contains(name)
}

/// Whether every name and literal among a call's arguments is written in `other_code` (the
/// other side's file, whitespace removed).
fn arguments_live_on(norm: &str, other_code: &str) -> bool {
    let Some((_, arguments)) = norm.split_once('(') else {
        return true;
    };
    let literals = crate::rules::likeness::literals_of(arguments);
    let names = arguments
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| word.len() >= 3 && !word.starts_with(|c: char| c.is_ascii_digit()))
        .filter(|word| !matches!(*word, "self" | "cls" | "this" | "None" | "True" | "False"));
    literals
        .into_iter()
        .chain(names)
        .all(|piece| other_code.contains(piece))
}

/// A test's assertions gathered through its helpers, and where the gathering stopped short.
struct Gathered {
    assertions: Vec<Assertion>,
    /// Helper calls followed so far.
    followed: usize,
    /// The first chain cut (test → .. → the helper not followed) and the helpers at or past
    /// every cut.
    cut: Option<(Vec<usize>, std::collections::BTreeSet<usize>)>,
}

impl Gathered {
    /// Add the assertions of `helpers[index]`, called `times` times at the end of `chain`, and
    /// follow what it calls while the chain is shorter than [`HELPER_DEPTH`].
    fn follow(&mut self, helpers: &[Function], index: usize, times: usize, chain: &mut Vec<usize>) {
        let helper = &helpers[index];
        self.followed += 1;
        let room = MAX_GATHERED.saturating_sub(self.assertions.len());
        let copies = times.min(room.checked_div(helper.own.len()).unwrap_or(times));
        if copies < times {
            self.stop(helpers, chain, index);
        }
        let via: Vec<String> = chain.iter().map(|i| helpers[*i].name.clone()).collect();
        for _ in 0..copies {
            self.assertions
                .extend(helper.own.iter().map(|assertion| Assertion {
                    via: via.clone(),
                    ..assertion.clone()
                }));
        }
        for &(callee, count) in &helper.callees {
            if !helpers[callee].checks || chain.contains(&callee) {
                continue;
            }
            chain.push(callee);
            if chain.len() > HELPER_DEPTH
                || self.assertions.len() >= MAX_GATHERED
                || self.followed >= MAX_FOLLOWED
            {
                self.stop(helpers, chain, index);
            } else {
                self.follow(helpers, callee, times.saturating_mul(count), chain);
            }
            chain.pop();
        }
    }

    /// Remember that `chain` was cut after `at`: `at` and everything reachable past it.
    fn stop(&mut self, helpers: &[Function], chain: &[usize], at: usize) {
        let (_, reached) = self
            .cut
            .get_or_insert_with(|| (chain.to_vec(), Default::default()));
        let mut queue = vec![at];
        while let Some(index) = queue.pop() {
            if reached.insert(index) {
                queue.extend(helpers[index].callees.iter().map(|(callee, _)| *callee));
            }
        }
    }
}

/// Fill in which same-file functions each helper calls, and which helpers reach an assertion.
fn link_helpers(helpers: &mut [Function], root: tree_sitter::Node<'_>, source: &str) {
    for index in 0..helpers.len() {
        let body = function_body(root, helpers[index].range.clone(), source);
        let words = identifiers(body);
        let range = helpers[index].range.clone();
        let callees: Vec<(usize, usize)> = helpers
            .iter()
            .enumerate()
            .filter(|(other, callee)| {
                *other != index
                    && words.contains(callee.name.as_str())
                    // Nested functions already count where they stand, and calling the
                    // function one is nested in is recursion.
                    && !(range.start <= callee.range.start && callee.range.end <= range.end)
                    && !(callee.range.start <= range.start && range.end <= callee.range.end)
            })
            .map(|(other, callee)| (other, calls(body, &callee.name)))
            .filter(|(_, count)| *count > 0)
            .collect();
        helpers[index].callees = callees;
    }
    // Which helpers reach an assertion: those with their own, then their callers, each once.
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); helpers.len()];
    for (index, helper) in helpers.iter().enumerate() {
        for (callee, _) in &helper.callees {
            callers[*callee].push(index);
        }
    }
    let mut queue: Vec<usize> = (0..helpers.len())
        .filter(|index| !helpers[*index].own.is_empty())
        .collect();
    while let Some(index) = queue.pop() {
        if std::mem::replace(&mut helpers[index].checks, true) {
            continue;
        }
        queue.extend(callers[index].iter().copied());
    }
}

/// Whether a Rust file holds only test code: under `tests/` or `benches/`, or named as tests
/// (`tests.rs`, `foo_tests.rs`, a module included with `#[cfg(test)] mod tests;`).
fn rust_test_file(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    crate::rules::todo_stub::is_test_path(path) || matches!(file, "tests.rs" | "test.rs")
}

/// Whether a Rust item is test code: it, or a module or item around it, carries
/// `#[cfg(test)]` (also `#[cfg(all(test, ..))]`), or sits in a module named `tests`/`test`.
pub(crate) fn in_test_code(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
    source: &str,
) -> bool {
    let Some(node) = node_at(root, range) else {
        return false;
    };
    let mut path = crate::lang::ancestors(root, node);
    path.push(node);
    path.iter().any(|item| {
        let named_tests = item.kind() == "mod_item"
            && item
                .child_by_field_name("name")
                .and_then(|name| source.get(name.byte_range()))
                .is_some_and(|name| matches!(name, "tests" | "test"));
        named_tests || cfg_test(*item, source)
    })
}

/// Whether the attributes right before an item include `#[cfg(test)]` or a `cfg` that requires
/// `test` (`#[cfg(all(test, feature = "x"))]`, not `#[cfg(not(test))]`).
fn cfg_test(item: tree_sitter::Node<'_>, source: &str) -> bool {
    let mut previous = item.prev_named_sibling();
    while let Some(node) = previous {
        match node.kind() {
            "attribute_item" => {
                let text = squash(source.get(node.byte_range()).unwrap_or_default());
                if text.starts_with("#[cfg(")
                    && !text.contains("not(test")
                    && text
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|word| word == "test")
                {
                    return true;
                }
            }
            "line_comment" | "block_comment" => {}
            _ => return false,
        }
        previous = node.prev_named_sibling();
    }
    false
}

/// A function's body (past its name and parameters, so its own name is not read as a call).
fn function_body<'s>(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
    source: &'s str,
) -> &'s str {
    let node = node_at(root, range.clone());
    let body = node
        .and_then(|node| node.child_by_field_name("body"))
        .or_else(|| {
            node.and_then(|node| node.child_by_field_name("value"))
                .and_then(|value| value.child_by_field_name("body"))
        });
    source
        .get(body.map_or(range, |body| body.byte_range()))
        .unwrap_or_default()
}

/// The words of a text (runs of letters, digits and `_`), for skipping helpers a text cannot
/// call before counting calls.
fn identifiers(text: &str) -> std::collections::HashSet<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .collect()
}

/// Whether a bare `#[should_panic]` is marked as a known failure by a comment next to it
/// (`// FIXME`, `// currently fails`, `/// Known failure: ..`) among the function's attributes:
/// the test is expected to fail, and the attribute only keeps the suite green meanwhile.
fn known_failure_note(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
    source: &str,
) -> bool {
    let Some(attribute) = node_at(root, range) else {
        return false;
    };
    let is_run = |node: &tree_sitter::Node<'_>| {
        matches!(
            node.kind(),
            "attribute_item" | "line_comment" | "block_comment"
        )
    };
    // The run of attributes and comments the attribute belongs to, up to its function.
    let mut run = vec![attribute];
    let mut next = attribute.next_named_sibling();
    while let Some(node) = next.filter(is_run) {
        run.push(node);
        next = node.next_named_sibling();
    }
    if next.is_none_or(|node| node.kind() != "function_item") {
        return false;
    }
    let mut previous = attribute.prev_named_sibling();
    while let Some(node) = previous.filter(is_run) {
        run.push(node);
        previous = node.prev_named_sibling();
    }
    // A comment on the line where the item before ends belongs to that item.
    let taken_row = previous.map(|node| node.end_position().row);
    run.iter()
        .filter(|node| node.kind() != "attribute_item")
        .filter(|node| Some(node.start_position().row) != taken_row)
        .filter_map(|node| source.get(node.byte_range()))
        .any(says_known_failure)
}

/// Whether a comment calls its test a known failure.
fn says_known_failure(comment: &str) -> bool {
    const MARKS: &[&str] = &[
        "fixme",
        "todo",
        "known failure",
        "known bug",
        "known issue",
        "currently fail",
        "doesn't work",
        "does not work",
        "don't work",
        "not working",
        "not yet supported",
        "not supported yet",
        "not yet implemented",
    ];
    let lower = comment.to_lowercase().replace('’', "'");
    MARKS.iter().any(|mark| lower.contains(mark))
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
/// Most syntax nodes read to find the comments inside one assertion.
const MAX_COMMENT_SCAN: usize = 4_096;

/// `snippet` (the source at `range`) without the comments inside it: `undefined /* was: … */`
/// expects what `undefined,` does.
fn without_comments<'s>(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
    snippet: &'s str,
) -> std::borrow::Cow<'s, str> {
    if !(snippet.contains("/*") || snippet.contains("//") || snippet.contains('#')) {
        return std::borrow::Cow::Borrowed(snippet);
    }
    let Some(node) = root.descendant_for_byte_range(range.start, range.end) else {
        return std::borrow::Cow::Borrowed(snippet);
    };
    let mut comments: Vec<std::ops::Range<usize>> = Vec::new();
    let mut cursor = node.walk();
    let mut seen = 0;
    'walk: loop {
        let current = cursor.node();
        seen += 1;
        if current.kind().contains("comment") {
            let at = current.byte_range();
            if at.start >= range.start && at.end <= range.end {
                comments.push(at.start - range.start..at.end - range.start);
            }
        } else if seen < MAX_COMMENT_SCAN && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() || cursor.node() == node {
                break 'walk;
            }
        }
        if seen >= MAX_COMMENT_SCAN {
            break;
        }
    }
    if comments.is_empty() {
        return std::borrow::Cow::Borrowed(snippet);
    }
    let mut out = String::with_capacity(snippet.len());
    let mut from = 0;
    for comment in comments {
        out.push_str(snippet.get(from..comment.start).unwrap_or_default());
        from = comment.end.max(from);
    }
    out.push_str(snippet.get(from..).unwrap_or_default());
    std::borrow::Cow::Owned(out)
}

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
    if after_an_exit(root, node, source) {
        return true;
    }
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

/// Whether the node comes after a statement of its own function that always leaves it: a
/// `return` (`return;`, `return Ok(())`), or an `if` on a true literal whose body starts with
/// one (`if (true) return;`, `if True: return`). The test then passes without reaching it.
fn after_an_exit(root: tree_sitter::Node<'_>, node: tree_sitter::Node<'_>, source: &str) -> bool {
    let mut child = node;
    for parent in crate::lang::ancestors(root, node) {
        if is_function(parent.kind()) {
            return false;
        }
        if matches!(parent.kind(), "statement_block" | "block" | "module") {
            let mut cursor = parent.walk();
            let exits = parent
                .named_children(&mut cursor)
                .take_while(|statement| statement.end_byte() <= child.start_byte())
                .any(|statement| always_exits(statement, source));
            if exits {
                return true;
            }
        }
        child = parent;
    }
    false
}

/// Whether `range` lies in a function (a callback) that itself lies inside `around`.
fn in_callback_within(
    root: tree_sitter::Node<'_>,
    range: std::ops::Range<usize>,
    around: &std::ops::Range<usize>,
) -> bool {
    let mut node = node_at(root, range);
    // Bounded: a crafted file nests deeper than any real assertion does.
    for _ in 0..MAX_CALLBACK_DEPTH {
        let Some(current) = node else {
            return false;
        };
        if current.start_byte() < around.start || current.end_byte() > around.end {
            return false;
        }
        if is_function(current.kind()) {
            return true;
        }
        node = current.parent();
    }
    false
}

/// Ancestors climbed from a nested assertion looking for the callback it sits in.
const MAX_CALLBACK_DEPTH: usize = 64;

fn is_function(kind: &str) -> bool {
    matches!(
        kind,
        "function_declaration"
            | "function_expression"
            | "function"
            | "arrow_function"
            | "method_definition"
            | "generator_function_declaration"
            | "function_definition"
            | "lambda"
            | "function_item"
            | "closure_expression"
    )
}

/// `return ..`, or `if <true literal>` whose body starts with a `return`.
fn always_exits(statement: tree_sitter::Node<'_>, source: &str) -> bool {
    let statement = match statement.kind() {
        // Rust: `return;` and `if true { .. }` are expression statements.
        "expression_statement" => match statement.named_child(0) {
            Some(inner) => inner,
            None => return false,
        },
        _ => statement,
    };
    match statement.kind() {
        "return_statement" | "return_expression" => true,
        "if_statement" | "if_expression" => {
            let Some(condition) = statement.child_by_field_name("condition") else {
                return false;
            };
            let text = crate::rules::inventory::squash(
                source.get(condition.byte_range()).unwrap_or_default(),
            );
            if classify::literal_truth(&text) != Some(true) {
                return false;
            }
            let Some(body) = statement.child_by_field_name("consequence") else {
                return false;
            };
            if always_exits(body, source) {
                return true;
            }
            let mut cursor = body.walk();
            let first = body
                .named_children(&mut cursor)
                .find(|n| !n.kind().contains("comment"));
            first.is_some_and(|first| always_exits(first, source))
        }
        _ => false,
    }
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
    use super::{calls, rust_test_file, says_known_failure};

    #[test]
    fn known_failure_notes_are_told_apart() {
        assert!(says_known_failure("// FIXME"));
        assert!(says_known_failure(
            "// macros in this position are not yet supported"
        ));
        assert!(says_known_failure(
            "/// Known failure: spans of nested macros are lost"
        ));
        assert!(says_known_failure("// currently fails on Windows"));
        assert!(says_known_failure("// This doesn’t work yet"));
        assert!(!says_known_failure(
            "// the parser must reject an empty name"
        ));
        assert!(!says_known_failure("/// Panics on overflow."));
    }

    #[test]
    fn rust_test_files_are_read_from_the_path() {
        assert!(rust_test_file("tests/cli.rs"));
        assert!(rust_test_file("crates/hir-ty/src/consteval/tests.rs"));
        assert!(rust_test_file("src/parser_tests.rs"));
        assert!(!rust_test_file("crates/nu-protocol/src/span.rs"));
        assert!(!rust_test_file("src/testing_utils.rs"));
    }

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
