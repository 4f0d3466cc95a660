//! Twins: a test deleted while an identical test of the same file remains loses no check.
//!
//! Identical means the same test but for its name: the same decorators or attributes (so the
//! same parametrize rows, `.each` table, marks, `#[should_panic]`), the same parameters (so
//! the same pytest fixtures) and the same body, whitespace and comment lines aside; and the
//! same setting: in the same class, `describe` or `mod`, or in one whose code other than its
//! tests is the same (a class with another fixture, a `describe` with another `beforeEach`,
//! a `mod` with other imports runs the same body against something else). The survivor must
//! have been that twin in base already and stay one in head: a test that only now holds the
//! deleted one's code is a rename or a merge, judged elsewhere.

use super::{Test, node_at, text_of};
use crate::finding::Side;
use crate::lang::Language;
use crate::rules::context::FileContext;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::ops::Range;
use tree_sitter::Node;

/// Head tests compared in full with one deleted test (those with its very body).
const MAX_CANDIDATES: usize = 8;
/// Nodes walked to read the setting of one suite; a larger one is not compared.
const MAX_SETTING_NODES: usize = 100_000;
/// Attributes read above a Rust test.
const MAX_ATTRIBUTES: usize = 64;

/// Finds the twins of deleted tests in one file; caches what several comparisons share.
pub struct Twins<'c, 'a> {
    context: &'c FileContext<'a>,
    language: Language,
    /// Per side (base, head): where each test's text starts and ends, decorators included.
    test_ranges: [OnceCell<Vec<Range<usize>>>; 2],
    /// Per side and node range: the node's code other than its tests and suite names.
    settings: RefCell<HashMap<SettingKey, Option<String>>>,
}

/// A node on one side: the side's index and the node's byte range.
type SettingKey = (usize, Range<usize>);

/// A test's text apart from its name and body, and where it starts and ends.
struct Shape {
    outer: Range<usize>,
    header: String,
}

impl<'c, 'a> Twins<'c, 'a> {
    /// A finder for the file of `context`; `None` without a language.
    pub fn new(context: &'c FileContext<'a>) -> Option<Twins<'c, 'a>> {
        Some(Twins {
            context,
            language: context.language?,
            test_ranges: [OnceCell::new(), OnceCell::new()],
            settings: RefCell::new(HashMap::new()),
        })
    }

    /// The head test that the base test `old` (whole, cases folded) duplicated: another test
    /// of this file, in base and unchanged in head, identical to it but for its name, in the
    /// same setting. `old` must do something (check a value or call code): two tests that
    /// are both `pass` or `assert True` are not a duplicated check. `alike` are the collected
    /// head tests with `old`'s very body, `base` the collected base tests.
    pub fn twin<'h>(&self, old: &Test, alike: &[&'h Test], base: &[Test]) -> Option<&'h Test> {
        if !substantial(&old.body) {
            return None;
        }
        let old_shape = self.shape(Side::Base, old)?;
        let mut seen: Vec<&str> = Vec::new();
        alike
            .iter()
            .copied()
            .filter(|kept| kept.key != old.key && kept.body == old.body)
            .filter(|kept| {
                let fresh = !seen.contains(&kept.key.as_str());
                seen.push(&kept.key);
                fresh
            })
            .take(MAX_CANDIDATES)
            .find(|kept| {
                let Some(kept_base) = base.iter().find(|test| test.key == kept.key) else {
                    return false;
                };
                kept_base.body == old.body
                    && self
                        .shape(Side::Head, kept)
                        .is_some_and(|shape| shape.header == old_shape.header)
                    && self
                        .shape(Side::Base, kept_base)
                        .is_some_and(|shape| shape.header == old_shape.header)
                    && self.same_setting(old, kept_base, kept)
            })
    }

    /// Whether `old` and `kept_base` (both in base) ran in the same setting, and `kept` (the
    /// same test in head) still does. Below the innermost scope the two share, each sits in
    /// its own branch (a class, a `describe` call, a `mod`, an `if`): those branches must hold
    /// the same code once their tests and names are cut out. In head, the survivor's branch
    /// (as many levels up) must hold that code still.
    fn same_setting(&self, old: &Test, kept_base: &Test, kept: &Test) -> bool {
        let (Some(base), Some(head)) = (
            self.context.parsed(Side::Base),
            self.context.parsed(Side::Head),
        ) else {
            return false;
        };
        let (base_root, head_root) = (base.tree.root_node(), head.tree.root_node());
        let (Some(old_node), Some(kept_node), Some(head_node)) = (
            node_at(base_root, old.byte_range.clone()),
            node_at(base_root, kept_base.byte_range.clone()),
            node_at(head_root, kept.byte_range.clone()),
        ) else {
            return false;
        };
        let (old_chain, kept_chain) = (chain(base_root, old_node), chain(base_root, kept_node));
        // The first ancestor of the survivor that also encloses the deleted test.
        let Some((kept_index, old_index)) = kept_chain.iter().enumerate().find_map(|(at, node)| {
            old_chain
                .iter()
                .position(|other| other.id() == node.id())
                .map(|other| (at, other))
        }) else {
            return false;
        };
        // One test inside the other (a `t.test` subtest): not twins.
        if kept_index == 0 || old_index == 0 {
            return false;
        }
        let (old_branch, kept_branch) = (old_chain[old_index - 1], kept_chain[kept_index - 1]);
        let within = |node: Node<'_>, test: &Test| {
            self.shape(Side::Base, test).is_some_and(|shape| {
                shape.outer.start <= node.start_byte() && node.end_byte() <= shape.outer.end
            })
        };
        if within(old_branch, old) && within(kept_branch, kept_base) {
            return true;
        }
        let kept_setting = self.setting(Side::Base, kept_branch);
        if kept_setting.is_none() || self.setting(Side::Base, old_branch) != kept_setting {
            return false;
        }
        let head_chain = chain(head_root, head_node);
        head_chain
            .get(kept_index - 1)
            .filter(|branch| branch.kind() == kept_branch.kind())
            .is_some_and(|branch| self.setting(Side::Head, *branch) == kept_setting)
    }

    /// The text of `test` on `side` without its name and body, normalised, and its extent
    /// with decorators or attributes.
    fn shape(&self, side: Side, test: &Test) -> Option<Shape> {
        let (text, parsed) = (self.context.side(side)?, self.context.parsed(side)?);
        let source = text.text;
        let node = node_at(parsed.tree.root_node(), test.byte_range.clone())?;
        let parts = parts(node, self.language)?;
        let mut cuts = vec![parts.name];
        cuts.extend(parts.body);
        Some(Shape {
            header: without(source, parts.outer.clone(), &mut cuts, self.language),
            outer: parts.outer,
        })
    }

    /// The code of `node` on `side` other than its tests and the names of the suites in it:
    /// what every test inside it runs with. `None` when it is too large to read.
    fn setting(&self, side: Side, node: Node<'_>) -> Option<String> {
        let index = side_index(side);
        let key = (index, node.byte_range());
        if let Some(known) = self.settings.borrow().get(&key) {
            return known.clone();
        }
        let found = self.read_setting(side, node);
        self.settings.borrow_mut().insert(key, found.clone());
        found
    }

    fn read_setting(&self, side: Side, node: Node<'_>) -> Option<String> {
        let source = self.context.side(side)?.text;
        let tests = self.test_ranges(side);
        let inside =
            |range: &Range<usize>| node.start_byte() <= range.start && range.end <= node.end_byte();
        let mut cuts: Vec<Range<usize>> = tests.iter().filter(|r| inside(r)).cloned().collect();
        // Suite names, found by a bounded walk that skips the tests.
        let mut pending = vec![node];
        let mut walked = 0;
        while let Some(current) = pending.pop() {
            walked += 1;
            if walked > MAX_SETTING_NODES {
                return None;
            }
            if within_any(tests, current.byte_range()) {
                continue;
            }
            cuts.extend(suite_name(current, source, self.language));
            let mut cursor = current.walk();
            pending.extend(current.named_children(&mut cursor));
        }
        Some(without(source, node.byte_range(), &mut cuts, self.language))
    }

    /// Where each test on `side` starts and ends, decorators included.
    fn test_ranges(&self, side: Side) -> &[Range<usize>] {
        self.test_ranges[side_index(side)].get_or_init(|| {
            let Some(parsed) = self.context.parsed(side) else {
                return Vec::new();
            };
            let root = parsed.tree.root_node();
            let mut ranges: Vec<Range<usize>> = super::tests(self.context, side)
                .iter()
                .filter(|test| test.is_test)
                .filter_map(|test| node_at(root, test.byte_range.clone()))
                .filter_map(|node| Some(parts(node, self.language)?.outer))
                .collect();
            ranges.sort_by_key(|range| (range.start, range.end));
            ranges.dedup();
            ranges
        })
    }
}

/// Whether `range` lies within the last of the sorted `ranges` that starts at or before it.
fn within_any(ranges: &[Range<usize>], range: Range<usize>) -> bool {
    let after = ranges.partition_point(|other| other.start <= range.start);
    after
        .checked_sub(1)
        .and_then(|index| ranges.get(index))
        .is_some_and(|other| range.end <= other.end)
}

/// `node` and its ancestors, nearest first, `root` last.
fn chain<'t>(root: Node<'t>, node: Node<'t>) -> Vec<Node<'t>> {
    let mut chain = vec![node];
    chain.extend(crate::lang::ancestors(root, node));
    chain
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Base => 0,
        Side::Head => 1,
    }
}

/// Where a test's text lies: its whole extent (with its decorators, attributes or
/// statement), its name (or title) and its body.
struct Parts {
    outer: Range<usize>,
    name: Range<usize>,
    body: Option<Range<usize>>,
}

/// The [`Parts`] of a test node of a known form.
fn parts(node: Node<'_>, language: Language) -> Option<Parts> {
    match language {
        Language::Python => {
            if node.kind() != "function_definition" {
                return None;
            }
            let outer = node
                .parent()
                .filter(|parent| parent.kind() == "decorated_definition")
                .unwrap_or(node);
            Some(Parts {
                outer: outer.byte_range(),
                name: node.child_by_field_name("name")?.byte_range(),
                body: node
                    .child_by_field_name("body")
                    .map(|body| body.byte_range()),
            })
        }
        Language::Rust => {
            // A test inside `proptest! { .. }` is a token tree, not an item: not compared.
            if node.kind() != "function_item" {
                return None;
            }
            let mut start = node.start_byte();
            let mut previous = node.prev_sibling();
            for _ in 0..MAX_ATTRIBUTES {
                match previous {
                    Some(item) if item.kind() == "attribute_item" => {
                        start = item.start_byte();
                        previous = item.prev_sibling();
                    }
                    Some(item) if item.kind().ends_with("comment") => {
                        previous = item.prev_sibling();
                    }
                    _ => break,
                }
            }
            Some(Parts {
                outer: start..node.end_byte(),
                name: node.child_by_field_name("name")?.byte_range(),
                body: node
                    .child_by_field_name("body")
                    .map(|body| body.byte_range()),
            })
        }
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            if node.kind() != "call_expression" {
                return None;
            }
            let arguments = node.child_by_field_name("arguments")?;
            let title = arguments.named_child(0)?;
            let last = arguments
                .named_child_count()
                .checked_sub(1)
                .and_then(|last| arguments.named_child(u32::try_from(last).ok()?))
                .filter(|last| {
                    last.id() != title.id()
                        && matches!(last.kind(), "arrow_function" | "function_expression")
                });
            let outer = node
                .parent()
                .filter(|parent| parent.kind() == "expression_statement")
                .unwrap_or(node);
            Some(Parts {
                outer: outer.byte_range(),
                name: title.byte_range(),
                body: last.map(|last| last.byte_range()),
            })
        }
    }
}

/// The name node of a suite: a Python class, a Rust `mod`, a `describe` call's title.
fn suite_name(node: Node<'_>, source: &str, language: Language) -> Option<Range<usize>> {
    match language {
        Language::Python if node.kind() == "class_definition" => {
            Some(node.child_by_field_name("name")?.byte_range())
        }
        Language::Rust if node.kind() == "mod_item" => {
            Some(node.child_by_field_name("name")?.byte_range())
        }
        Language::JavaScript | Language::TypeScript | Language::Tsx
            if node.kind() == "call_expression" =>
        {
            let callee = text_of(node.child_by_field_name("function")?, source);
            let first = callee
                .split(['.', '(', '`'])
                .next()
                .unwrap_or_default()
                .trim();
            let suite = matches!(
                first,
                "describe" | "context" | "suite" | "fdescribe" | "xdescribe"
            ) || callee.contains(".describe");
            if !suite {
                return None;
            }
            let title = node.child_by_field_name("arguments")?.named_child(0)?;
            Some(title.byte_range())
        }
        _ => None,
    }
}

/// The text of `range` with `cuts` left out, normalised: each line without whitespace, empty
/// and comment-only lines dropped.
fn without(
    source: &str,
    range: Range<usize>,
    cuts: &mut [Range<usize>],
    language: Language,
) -> String {
    cuts.sort_by_key(|cut| (cut.start, cut.end));
    let mut kept = String::new();
    let mut at = range.start;
    for cut in cuts.iter() {
        let (start, end) = (cut.start.max(at), cut.end.min(range.end));
        if start >= end {
            continue;
        }
        kept.push_str(source.get(at..start).unwrap_or_default());
        at = end;
    }
    kept.push_str(source.get(at..range.end).unwrap_or_default());
    super::normalised(&kept, language)
}

/// Whether a body does something: checks a value (`assert total == 3`, not `assert True`) or
/// calls code (`check_roundtrip("a", 3)`, `main()`); `pass`, `...`, `print("x")` and
/// `expect(true).toBe(true)` do not.
pub fn substantial(body: &str) -> bool {
    // Squashed lines join keywords to what follows (`async function(` is `asyncfunction(`).
    const IDLE: &[&str] = &[
        "async",
        "function",
        "asyncfunction",
        "print",
        "log",
        "done",
        "pass",
        "skip",
        "todo",
        "expect",
        "assert",
        "assertTrue",
        "assertFalse",
        "toBe",
        "toBeTruthy",
        "toBeFalsy",
        "toEqual",
        "ok",
        "true",
        "false",
        "end",
    ];
    body.split('\n').any(|line| {
        crate::rules::likeness::real_check(line)
            || line.match_indices('(').any(|(at, _)| {
                let callee = line[..at]
                    .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default();
                !callee.is_empty() && !IDLE.contains(&callee)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trivial_bodies_are_not_substantial() {
        assert!(!substantial("pass"));
        assert!(!substantial("assertTrue"));
        assert!(!substantial("..."));
        assert!(!substantial("()=>{\nexpect(true).toBe(true)\n}"));
        assert!(!substantial("asyncfunction(){\n}"));
        assert!(!substantial("t.pass()"));
        assert!(!substantial("print(\"x\")"));
        assert!(substantial("main()"));
        assert!(substantial("assertf(1)==2"));
        assert!(substantial("check_roundtrip(\"a\",3)"));
        assert!(substantial("()=>{\nexpect(sum(1,2)).toBe(3)\n}"));
    }
}
