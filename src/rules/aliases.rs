//! Test functions under other names, in JavaScript-family files: the spellings an agent reaches
//! for once `it.skip` and `describe.only` are caught, and the names a project gives its own.
//!
//! - aliases made in the file: `import { describe as d }`, `const { it: t } = require(..)`,
//!   `const skip = it.skip`, `const focus = d.only`, `const { only } = describe`, chains of
//!   them, and string constants used as computed members (`const m = "skip"; it[m](..)`);
//! - the policy's `rules.<id>.test-functions` (`custom`, `foo.bar`, and `xcustom` for a skip);
//! - a conditional callee: `(process.env.CI ? it.skip : it)("title", fn)`, read as
//!   `it.skipIf(process.env.CI)`;
//! - markers imported by a marker's name from the project's own module (`import { only } from
//!   "./helpers"`), and the helper that exports such an alias (`export const only = it.only`).
//!
//! Each such call is rewritten into the plain spelling (`it.skip("title", () => {})`, function
//! arguments emptied), the rule's own query runs on that snippet, and its match is moved back
//! onto the call. So one query still decides what a marker is, whatever the spelling.
//! A plain test function declared again in a nested scope (`function f() { var it; it.only() }`)
//! is not the runner's: its matches are dropped.

use crate::lang::{Language, Parsed};
use crate::query::{self, KEY_SEPARATOR, QueryMatch};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;
use tree_sitter::Node;

/// The policy's own test-function names, per rule id.
pub type TestFunctions = HashMap<&'static str, Vec<String>>;

/// No names: the default.
pub fn no_test_functions() -> &'static TestFunctions {
    static EMPTY: OnceLock<TestFunctions> = OnceLock::new();
    EMPTY.get_or_init(HashMap::new)
}

/// Whether matches of query `name` are resolved through aliases.
pub fn resolves(name: &str) -> bool {
    matches!(name, "tests" | "focused-test" | "skipped-test")
}

/// The runners' own names for test and suite functions, the callees the queries know.
const TEST_BASES: &[&str] = &[
    "describe",
    "it",
    "test",
    "context",
    "suite",
    "specify",
    "fit",
    "fdescribe",
    "ftest",
    "fcontext",
    "xit",
    "xtest",
    "xdescribe",
    "xcontext",
    "xspecify",
    "xsuite",
];

/// Names under which a project's helper module hands out a marker, with the marker they stand
/// for; only trusted when imported from a relative path and called like a test.
const MARKER_NAMES: &[(&str, &str)] = &[
    ("only", "it.only"),
    ("itOnly", "it.only"),
    ("testOnly", "test.only"),
    ("describeOnly", "describe.only"),
    ("skip", "it.skip"),
    ("itSkip", "it.skip"),
    ("testSkip", "test.skip"),
    ("describeSkip", "describe.skip"),
    ("fit", "fit"),
    ("fdescribe", "fdescribe"),
    ("xit", "xit"),
    ("xtest", "xtest"),
    ("xdescribe", "xdescribe"),
];

/// A walk never visits more nodes than this (generated files stay cheap).
const MAX_NODES: usize = 400_000;
/// A snippet longer than this is not rewritten (a huge `.each` table).
const MAX_SNIPPET: usize = 16 * 1024;

/// One side's aliases of test functions.
#[derive(Default)]
pub struct Bindings {
    /// alias → the spelling it stands for (`skip` → `it.skip`, `d` → `describe`).
    names: HashMap<String, String>,
    /// constant → its string value, for computed members (`it[m]`).
    strings: HashMap<String, String>,
    /// Byte ranges of nested scopes that declare a plain test function's name again.
    shadowed: Vec<(String, Range<usize>)>,
    /// Declarations that export an alias of a marker: (alias, declaration range).
    exported: Vec<(String, Range<usize>)>,
    /// Calls worth rewriting: their callee starts from a name the file or policy binds.
    calls: Vec<Range<usize>>,
    /// Aliases taken on a marker's name from the project's own module: read as the marker
    /// only in a call shaped like a test (`only("title", () => ..)`).
    by_name: Vec<String>,
}

impl Bindings {
    /// Collects the aliases of `parsed` (every rule's `test-functions` counted, so the calls to
    /// rewrite are found once).
    pub fn collect(parsed: &Parsed, test_functions: &TestFunctions) -> Bindings {
        let source = parsed.text.as_str();
        let mut bindings = Bindings::default();
        let mut reassigned: Vec<String> = Vec::new();
        let mut string_candidates: Vec<(String, String)> = Vec::new();
        walk(parsed.tree.root_node(), |node| match node.kind() {
            "import_specifier" => bindings.import_specifier(node, source),
            "variable_declarator" => {
                bindings.declarator(node, source, &mut string_candidates);
            }
            "assignment_expression" | "augmented_assignment_expression" => {
                if let Some(left) = node.child_by_field_name("left")
                    && left.kind() == "identifier"
                {
                    reassigned.push(text(left, source).to_string());
                }
            }
            _ => {}
        });
        for (name, value) in string_candidates {
            if !reassigned.contains(&name) {
                bindings.strings.insert(name, value);
            }
        }
        let custom: Vec<&str> = test_functions
            .values()
            .flatten()
            .map(String::as_str)
            .collect();
        walk(parsed.tree.root_node(), |node| {
            if node.kind() != "call_expression" {
                return;
            }
            let Some(callee) = node.child_by_field_name("function") else {
                return;
            };
            if callee.kind() == "parenthesized_expression" || bindings.rewrites(callee, source) {
                bindings.calls.push(node.byte_range());
                return;
            }
            let Some(root) = chain_root(callee) else {
                return;
            };
            let root_text = text(root, source);
            let custom_root = |name: &&str| {
                let first = name.split('.').next().unwrap_or_default();
                first == root_text || root_text.strip_prefix('x') == Some(first)
            };
            if custom.iter().any(custom_root) {
                bindings.calls.push(node.byte_range());
            }
        });
        bindings
    }

    fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.shadowed.is_empty() && self.exported.is_empty()
    }

    /// Whether the callee's chain starts from an alias or uses a constant as a member.
    fn rewrites(&self, callee: Node<'_>, source: &str) -> bool {
        let Some(root) = chain_root(callee) else {
            return false;
        };
        if self.names.contains_key(text(root, source)) {
            return true;
        }
        let mut current = callee;
        for _ in 0..16 {
            match current.kind() {
                "subscript_expression" => {
                    if let Some(index) = current.child_by_field_name("index")
                        && index.kind() == "identifier"
                        && self.strings.contains_key(text(index, source))
                    {
                        return true;
                    }
                    let Some(object) = current.child_by_field_name("object") else {
                        return false;
                    };
                    current = object;
                }
                "member_expression" => {
                    let Some(object) = current.child_by_field_name("object") else {
                        return false;
                    };
                    current = object;
                }
                "call_expression" => {
                    let Some(function) = current.child_by_field_name("function") else {
                        return false;
                    };
                    current = function;
                }
                _ => return false,
            }
        }
        false
    }

    /// `import { describe as d } from ".."` (any module: `@jest/globals`, `mocha`, `vitest`),
    /// and `import { only } from "./helpers"`.
    fn import_specifier(&mut self, node: Node<'_>, source: &str) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = text(name, source);
        let alias = node
            .child_by_field_name("alias")
            .map_or(name, |alias| text(alias, source));
        if TEST_BASES.contains(&name) {
            if alias != name {
                self.names.insert(alias.to_string(), name.to_string());
            }
            return;
        }
        if from_relative_module(node, source)
            && let Some((_, marker)) = MARKER_NAMES.iter().find(|(known, _)| *known == name)
        {
            self.names.insert(alias.to_string(), marker.to_string());
            self.by_name.push(alias.to_string());
        }
    }

    fn declarator(&mut self, node: Node<'_>, source: &str, strings: &mut Vec<(String, String)>) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let value = node.child_by_field_name("value");
        match name.kind() {
            "identifier" => {
                let alias = text(name, source);
                match value {
                    Some(value) if value.kind() == "string" => {
                        let literal = crate::lang::string_literal_text(value, source);
                        strings.push((alias.to_string(), literal));
                    }
                    Some(value) if matches!(value.kind(), "identifier" | "member_expression") => {
                        if let Some(resolved) = self.resolved_reference(value, source) {
                            if exported(node) && is_marker_spelling(&resolved) {
                                self.exported
                                    .push((alias.to_string(), declaration_range(node)));
                            }
                            self.names.insert(alias.to_string(), resolved);
                        } else {
                            self.shadow(alias, node);
                        }
                    }
                    None => self.shadow(alias, node),
                    Some(value)
                        if matches!(
                            value.kind(),
                            "number" | "null" | "undefined" | "object" | "array" | "true" | "false"
                        ) =>
                    {
                        self.shadow(alias, node)
                    }
                    Some(_) => {}
                }
            }
            "object_pattern" => {
                let Some(value) = value else {
                    return;
                };
                // `const { only } = describe`: the destructured members of a test function.
                let object = if matches!(value.kind(), "identifier" | "member_expression") {
                    self.resolved_reference(value, source)
                } else {
                    None
                };
                let required = required_module(value, source);
                let requires = required.is_some();
                let relative = required
                    .as_deref()
                    .is_some_and(|module| module.starts_with("./") || module.starts_with("../"));
                let mut cursor = name.walk();
                for property in name.named_children(&mut cursor) {
                    let (key, alias) = match property.kind() {
                        "shorthand_property_identifier_pattern" => {
                            (text(property, source), text(property, source))
                        }
                        "pair_pattern" => match (
                            property.child_by_field_name("key"),
                            property.child_by_field_name("value"),
                        ) {
                            (Some(key), Some(alias)) if alias.kind() == "identifier" => {
                                (text(key, source), text(alias, source))
                            }
                            _ => continue,
                        },
                        _ => continue,
                    };
                    if let Some(object) = &object {
                        self.names
                            .insert(alias.to_string(), format!("{object}.{key}"));
                    } else if requires && TEST_BASES.contains(&key) && alias != key {
                        self.names.insert(alias.to_string(), key.to_string());
                    } else if requires
                        && relative
                        && let Some((_, marker)) = MARKER_NAMES.iter().find(|(k, _)| *k == key)
                    {
                        self.names.insert(alias.to_string(), marker.to_string());
                        self.by_name.push(alias.to_string());
                    }
                }
            }
            _ => {}
        }
    }

    /// A plain test function's name declared again inside a function, with no value or a value
    /// that is no test function: inside that scope the name is not the runner's.
    fn shadow(&mut self, name: &str, declarator: Node<'_>) {
        if !TEST_BASES.contains(&name) {
            return;
        }
        let mut current = declarator.parent();
        for _ in 0..64 {
            let Some(node) = current else {
                return;
            };
            match node.kind() {
                "program" => return,
                "statement_block" | "function_body" => {
                    self.shadowed.push((name.to_string(), node.byte_range()));
                    return;
                }
                _ => current = node.parent(),
            }
        }
    }

    /// The spelling an identifier or member chain stands for, when it starts from a test
    /// function or an alias of one (`foo` → `it`, `d.only` → `describe.only`).
    fn resolved_reference(&self, value: Node<'_>, source: &str) -> Option<String> {
        let root = chain_root(value)?;
        let root_text = text(root, source);
        let replacement = match self.names.get(root_text) {
            Some(resolved) => resolved.as_str(),
            None if TEST_BASES.contains(&root_text) => root_text,
            None => return None,
        };
        let whole = text(value, source);
        let rest = whole.get(root.end_byte() - value.start_byte()..)?;
        Some(format!("{replacement}{rest}"))
    }
}

/// Matches of query `name` with the aliases resolved: the rewritten calls' matches added, the
/// shadowed ones dropped. `None` when nothing changes.
pub fn resolve(
    raw: &[QueryMatch],
    parsed: &Parsed,
    language: Language,
    name: &'static str,
    bindings: &Bindings,
    test_functions: &TestFunctions,
) -> Option<Vec<QueryMatch>> {
    if bindings.is_empty() {
        return None;
    }
    let custom: Vec<&str> = match name {
        "tests" => test_functions
            .values()
            .flatten()
            .map(String::as_str)
            .collect(),
        rule => test_functions
            .get(rule)
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect(),
    };
    let source = parsed.text.as_str();
    let root = parsed.tree.root_node();
    // A match on a call through an alias is the alias's, judged from its rewrite below
    // (`import { describe as fdescribe }` makes `fdescribe(..)` a plain suite).
    let mut out: Vec<QueryMatch> = raw
        .iter()
        .filter(|found| !bindings.is_shadowed(root, source, found.byte_range.clone()))
        .filter(|found| !bindings.calls.contains(&found.byte_range))
        .cloned()
        .collect();
    let kept = out.len();
    let compiled = query::compiled(language, name)?;
    for range in &bindings.calls {
        let Some(call) = super::inventory::node_at(root, range.clone()) else {
            continue;
        };
        let Some((snippet, note)) = rewrite(call, source, bindings, &custom, name) else {
            // Not rewritten (a custom name of another rule): the plain query's reading stands.
            out.extend(
                raw.iter()
                    .filter(|found| found.byte_range == *range)
                    .cloned(),
            );
            continue;
        };
        out.extend(
            snippet_matches(&snippet, call, root, source, language, compiled)
                .into_iter()
                .map(|mut found| {
                    if let Some(note) = &note {
                        found
                            .properties
                            .entry("message")
                            .or_insert_with(|| note.clone());
                    }
                    found
                }),
        );
    }
    if name == "focused-test" {
        for (alias, range) in &bindings.exported {
            let Some(resolved) = bindings.names.get(alias) else {
                continue;
            };
            let snippet = format!("{resolved}(\"{alias}\", () => {{}})");
            let Some(node) = root.descendant_for_byte_range(range.start, range.end) else {
                continue;
            };
            for mut found in snippet_matches(&snippet, node, root, source, language, compiled) {
                found.key = super::markers::MODULE_KEY.to_string();
                found.name = String::new();
                found.properties.insert(
                    "message",
                    format!(
                        "the focus marker `{resolved}` is exported as `{alias}`: every test \
                         declared through it is focused, and the tests next to it stop running"
                    ),
                );
                found.properties.insert("kind", "export".to_string());
                out.push(found);
            }
        }
    }
    let changed = kept != raw.len() || out.len() != kept;
    changed.then_some(out)
}

impl Bindings {
    /// Whether the call at `range` names a plain test function that a nested scope declared
    /// again.
    fn is_shadowed(&self, root: Node<'_>, source: &str, range: Range<usize>) -> bool {
        if self.shadowed.is_empty() {
            return false;
        }
        let Some(call) = super::inventory::node_at(root, range.clone()) else {
            return false;
        };
        let Some(root_name) = call
            .child_by_field_name("function")
            .and_then(chain_root)
            .map(|node| text(node, source))
        else {
            return false;
        };
        self.shadowed.iter().any(|(name, scope)| {
            name == root_name && scope.start <= range.start && range.end <= scope.end
        })
    }
}

/// The call rewritten into the runner's plain spelling, its function arguments emptied, and
/// for the marker rules what the marker is called here (`skipped by `it.skip` through `s``).
fn rewrite(
    call: Node<'_>,
    source: &str,
    bindings: &Bindings,
    custom: &[&str],
    name: &str,
) -> Option<(String, Option<String>)> {
    let callee = call.child_by_field_name("function")?;
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    if callee.kind() == "parenthesized_expression" {
        edits.push((
            callee.byte_range(),
            conditional_callee(callee, source, bindings)?,
        ));
    } else {
        let root = chain_root(callee)?;
        let root_text = text(root, source);
        if let Some(resolved) = bindings.names.get(root_text) {
            if bindings.by_name.iter().any(|name| name == root_text) && !test_shaped(call) {
                return None;
            }
            edits.push((root.byte_range(), resolved.clone()));
        } else if let Some(end) = custom_prefix(callee, root, source, custom) {
            let plain = if custom.contains(&root_text) || end != root.end_byte() {
                "it"
            } else {
                "xit"
            };
            edits.push((root.start_byte()..end, plain.to_string()));
        }
        constant_members(callee, source, bindings, &mut edits);
    }
    if edits.is_empty() {
        return None;
    }
    if let Some(arguments) = call.child_by_field_name("arguments") {
        let mut cursor = arguments.walk();
        for argument in arguments.named_children(&mut cursor) {
            if matches!(
                argument.kind(),
                "arrow_function" | "function_expression" | "function"
            ) {
                edits.push((argument.byte_range(), "() => {}".to_string()));
            }
        }
    }
    edits.sort_by_key(|(range, _)| range.start);
    let mut snippet = String::new();
    let mut at = call.start_byte();
    for (range, replacement) in edits {
        if range.start < at {
            return None;
        }
        snippet.push_str(source.get(at..range.start)?);
        snippet.push_str(&replacement);
        at = range.end;
    }
    snippet.push_str(source.get(at..call.end_byte())?);
    if snippet.len() > MAX_SNIPPET {
        return None;
    }
    let spelled = |text: &str| {
        let first = text.lines().next().unwrap_or_default();
        let cut = first
            .find(['(', '`'])
            .filter(|at| *at > 0)
            .unwrap_or(first.len());
        super::markers::shorten(first[..cut].trim(), 60)
    };
    let original = spelled(text(callee, source));
    let plain = spelled(&snippet);
    let note = match name {
        "focused-test" => Some(format!("focused with `{plain}` (spelled `{original}`)")),
        "skipped-test" => Some(format!("skipped by `{plain}` (spelled `{original}`)")),
        _ => None,
    };
    Some((snippet, note))
}

/// `name("title", () => ..)`: a title and a function, as tests are declared.
fn test_shaped(call: Node<'_>) -> bool {
    let Some(arguments) = call.child_by_field_name("arguments") else {
        return false;
    };
    let mut cursor = arguments.walk();
    let kinds: Vec<&str> = arguments
        .named_children(&mut cursor)
        .map(|node| node.kind())
        .collect();
    matches!(kinds.first(), Some(&("string" | "template_string")))
        && kinds
            .iter()
            .skip(1)
            .any(|kind| matches!(*kind, "arrow_function" | "function_expression" | "function"))
}

/// The module a `require("..")` call loads.
fn required_module(value: Node<'_>, source: &str) -> Option<String> {
    if value.kind() != "call_expression"
        || value
            .child_by_field_name("function")
            .is_none_or(|function| text(function, source) != "require")
    {
        return None;
    }
    let argument = value.child_by_field_name("arguments")?.named_child(0)?;
    (argument.kind() == "string").then(|| crate::lang::string_literal_text(argument, source))
}

/// `(cond ? it.skip : it)` → `it.skipIf(cond)`, `(cond ? it : it.skip)` → `it.runIf(cond)`.
fn conditional_callee(callee: Node<'_>, source: &str, bindings: &Bindings) -> Option<String> {
    let ternary = callee.named_child(0)?;
    if ternary.kind() != "ternary_expression" {
        return None;
    }
    let condition = text(ternary.child_by_field_name("condition")?, source);
    let branch = |field: &str| {
        let node = ternary.child_by_field_name(field)?;
        match node.kind() {
            "identifier" | "member_expression" => bindings.resolved_reference(node, source),
            _ => None,
        }
    };
    let (when_true, when_false) = (branch("consequence")?, branch("alternative")?);
    let plain = |spelling: &str| TEST_BASES[..6].contains(&spelling);
    let skipped = |spelling: &str| spelling.strip_suffix(".skip").is_some_and(&plain);
    if skipped(&when_true) && plain(&when_false) {
        Some(format!("{when_false}.skipIf({condition})"))
    } else if plain(&when_true) && skipped(&when_false) {
        Some(format!("{when_true}.runIf({condition})"))
    } else {
        None
    }
}

/// Where a policy test-function name ends in the callee (`foo.bar` in `foo["bar"].only`), or
/// the root's end for `xcustom`.
fn custom_prefix(callee: Node<'_>, root: Node<'_>, source: &str, custom: &[&str]) -> Option<usize> {
    let root_text = text(root, source);
    if custom
        .iter()
        .any(|name| root_text.strip_prefix('x') == Some(*name))
    {
        return Some(root.end_byte());
    }
    // The chain from the root outwards: each member's name and where it ends.
    let mut segments: Vec<(String, usize)> = vec![(root_text.to_string(), root.end_byte())];
    let mut node = root;
    while let Some(parent) = node.parent() {
        if parent.byte_range().end > callee.end_byte() || segments.len() > 16 {
            break;
        }
        let name = match parent.kind() {
            "member_expression" => parent
                .child_by_field_name("property")
                .map(|property| text(property, source).to_string()),
            "subscript_expression" => parent
                .child_by_field_name("index")
                .filter(|index| index.kind() == "string")
                .map(|index| crate::lang::string_literal_text(index, source)),
            _ => None,
        };
        let Some(name) = name else {
            break;
        };
        segments.push((name, parent.end_byte()));
        node = parent;
    }
    custom
        .iter()
        .filter_map(|name| {
            let parts: Vec<&str> = name.split('.').collect();
            let matches = parts.len() <= segments.len()
                && parts
                    .iter()
                    .zip(&segments)
                    .all(|(part, (segment, _))| part == segment);
            matches.then(|| segments[parts.len() - 1].1)
        })
        .max()
}

/// `it[mode]` with `const mode = "skip"` → `it["skip"]`.
fn constant_members(
    callee: Node<'_>,
    source: &str,
    bindings: &Bindings,
    edits: &mut Vec<(Range<usize>, String)>,
) {
    let mut current = callee;
    for _ in 0..16 {
        let next = match current.kind() {
            "subscript_expression" => {
                if let Some(index) = current.child_by_field_name("index")
                    && index.kind() == "identifier"
                    && let Some(value) = bindings.strings.get(text(index, source))
                {
                    edits.push((index.byte_range(), format!("{value:?}")));
                }
                current.child_by_field_name("object")
            }
            "member_expression" => current.child_by_field_name("object"),
            "call_expression" => current.child_by_field_name("function"),
            _ => None,
        };
        match next {
            Some(next) => current = next,
            None => return,
        }
    }
}

/// The query's matches on the snippet that cover the whole rewritten call, moved onto `node`.
fn snippet_matches(
    snippet: &str,
    node: Node<'_>,
    root: Node<'_>,
    source: &str,
    language: Language,
    compiled: &query::CompiledQuery,
) -> Vec<QueryMatch> {
    let Ok(parsed) = crate::lang::parse(language, snippet.to_string()) else {
        return Vec::new();
    };
    let scope = crate::lang::qualified_scope(root, node, source, language);
    query::run(compiled, &parsed, language)
        .into_iter()
        .filter(|found| found.byte_range == (0..snippet.len()))
        .map(|mut found| {
            let keyless = found.key == super::markers::MODULE_KEY && found.name.is_empty();
            if keyless {
                found.name = scope.last().cloned().unwrap_or_default();
                found.key = if scope.is_empty() {
                    super::markers::MODULE_KEY.to_string()
                } else {
                    scope.join(KEY_SEPARATOR)
                };
            } else {
                let mut parts = scope.clone();
                parts.push(found.name.clone());
                found.key = parts.join(KEY_SEPARATOR);
            }
            found.byte_range = node.byte_range();
            found.line = to_line(node.start_position().row);
            found.end_line = to_line(node.end_position().row);
            found
        })
        .collect()
}

fn to_line(row: usize) -> u32 {
    u32::try_from(row).unwrap_or(u32::MAX - 1).saturating_add(1)
}

/// Whether the spelling is a skip or focus marker (not a plain test function).
fn is_marker_spelling(spelling: &str) -> bool {
    let base = spelling.split(['.', '[']).next().unwrap_or_default();
    spelling.contains(".only")
        || spelling.contains(".skip")
        || (TEST_BASES.contains(&base) && (base.starts_with('f') || base.starts_with('x')))
}

/// The identifier a callee chain starts from: `it` in `it.skip.each(..)`, `foo` in `foo["a"]`.
fn chain_root(mut node: Node<'_>) -> Option<Node<'_>> {
    for _ in 0..32 {
        node = match node.kind() {
            "identifier" => return Some(node),
            "member_expression" | "subscript_expression" => node.child_by_field_name("object")?,
            "call_expression" => node.child_by_field_name("function")?,
            _ => return None,
        };
    }
    None
}

/// Whether a declarator is exported (`export const x = ..`).
fn exported(declarator: Node<'_>) -> bool {
    declarator
        .parent()
        .and_then(|declaration| declaration.parent())
        .is_some_and(|parent| parent.kind() == "export_statement")
}

/// The whole `export const ..` statement a declarator belongs to.
fn declaration_range(declarator: Node<'_>) -> Range<usize> {
    declarator
        .parent()
        .and_then(|declaration| declaration.parent())
        .map_or_else(|| declarator.byte_range(), |node| node.byte_range())
}

/// Whether an import specifier's statement imports from a relative path (`"./helpers"`).
fn from_relative_module(specifier: Node<'_>, source: &str) -> bool {
    let mut current = specifier.parent();
    for _ in 0..4 {
        let Some(node) = current else {
            return false;
        };
        if node.kind() == "import_statement" {
            return node.child_by_field_name("source").is_some_and(|module| {
                let module = crate::lang::string_literal_text(module, source);
                module.starts_with("./") || module.starts_with("../")
            });
        }
        current = node.parent();
    }
    false
}

fn text<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or_default()
}

/// Visits nodes in document order, at most [`MAX_NODES`].
fn walk(root: Node<'_>, mut visit: impl FnMut(Node<'_>)) {
    let mut cursor = root.walk();
    let mut visited = 0usize;
    loop {
        visit(cursor.node());
        visited += 1;
        if visited >= MAX_NODES {
            return;
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}
