//! `todo-stub`: a function body that only defers the work, and new TODO-style comments.
//!
//! The `todo-stub` query lists the functions with a body on each side; this module reads each
//! body (comments and a docstring set aside) and decides whether it is a placeholder. Base and
//! head are paired by the function's qualified name, never by line number.

use super::comments::{self, Comment};
use super::context::{Candidate, FileContext, Moved, Output};
use super::declare_rule;
use super::markers::shorten;
use crate::finding::{Severity, Side};
use crate::lang::Language;
use crate::query::QueryMatch;
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;
use tree_sitter::Node;

declare_rule! {
    /// ## What it flags
    /// A function or method body in head that only defers the work:
    ///
    /// - Rust: `todo!()`, `unimplemented!()`, `panic!("not implemented")`-like messages;
    ///   `todo!()`/`unimplemented!()` anywhere else in a body is a warning;
    /// - Python: `raise NotImplementedError`, a body of `pass` or `...` alone;
    /// - JavaScript/TypeScript: `throw new Error("not implemented")` (or `"TODO"`);
    /// - any language: a body that is only a TODO/FIXME comment, or `return null`/`None`/
    ///   `undefined` (or another placeholder value) together with a TODO comment.
    ///
    /// It is an error when base had a real body for the same function (logic replaced by a
    /// stub), a warning for a new function. A new `TODO`/`FIXME`/`XXX`/`HACK` comment in
    /// non-test code is a note.
    /// ## Why it matters
    /// Replacing the logic that a failing test exercised with a stub makes the failure go away
    /// from view (or turns it into a skip), and the stub is easy to read past in review.
    /// ## Example
    /// Fires as an error (base summed the items):
    ///
    /// ```rust
    /// fn total(&self) -> u64 {
    ///     todo!()
    /// }
    /// ```
    ///
    /// Fires: `def refund(order): raise NotImplementedError` where base computed the refund;
    /// `charge() { throw new Error("not implemented") }` in a new class (warning).
    /// ## Not flagged
    /// - `@abstractmethod`, `@overload`, members of `Protocol` classes, functions under
    ///   `if TYPE_CHECKING:`, `.pyi` stub files.
    /// - Trait and interface method declarations without a body, TypeScript overload signatures.
    /// - Stubs that were already stubs in base (same qualified name, in any changed file).
    /// - A stub added beside a definition of the same function that keeps its body (the real
    ///   one under `#[cfg(unix)]`, a `#[cfg(windows)]` stub; `if sys.platform == "win32":`) is a
    ///   warning, like a new stub, not an error; unless the body is kept only where tests build
    ///   (`#[cfg(test)]`, `#[cfg(debug_assertions)]`, `#[cfg(any())]`).
    /// - Empty bodies without a TODO (`noop() {}`), `unreachable!()`, other `panic!` messages.
    /// - New stubs in test files and test inputs (`tests/`, `*.test.ts`, `fixtures/`,
    ///   `testdata/`, `resources/`): test inputs such as parser or UI-test cases are full of
    ///   stub functions that hide no logic. A body replaced by a stub is reported there too,
    ///   unless it raises a message saying it must never run (`raise NotImplementedError("Should
    ///   not be called!")`, `unimplemented!("not called in this test")`): a fake that fails the
    ///   test if the product calls it is a check, not a stub.
    /// - TODO comments in test files (no note).
    /// ## Configuration
    /// `rules.todo-stub.severity` in `.integrity-gate.yml` (it replaces the severity of every
    /// finding of the rule, notes included).
    pub static TODO_STUB = {
        id: "todo-stub",
        severity: Error,
        engine: Query,
        languages: [JavaScript, TypeScript, Tsx, Python, Rust],
        summary: "a body is replaced by a placeholder: todo!(), raise NotImplementedError, pass, a TODO",
        maturity: Stable,
        check: Some(check),
    }
}

/// What a placeholder body looks like.
struct Stub {
    /// How the message names it: "`todo!()`", "`pass`", "a TODO comment".
    what: String,
    /// 1-based lines of the placeholder statement (or comment).
    line: u32,
    end_line: u32,
    /// `todo!()` inside a longer body, rather than a body that is only a placeholder.
    partial: bool,
    /// `raise NotImplementedError` / `throw new Error("not implemented")`: in a method, the
    /// idiom of a base class whose subclasses implement it.
    overridable: bool,
    /// `pass` or `...`: in a dunder method, an intentional no-op (`__enter__`, `__init__`).
    no_op: bool,
    /// The raise says the code must never run (`NotImplementedError("Should not be called!")`):
    /// in a test, a fake that fails the test if the product calls it, not a stub.
    must_not_run: bool,
}

static NOT_IMPLEMENTED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)not\s*(yet\s*)?implemented|unimplemented|\btodo\b|\bnot\s+supported\s+yet\b")
        .ok()
});

fn says_not_implemented(text: &str) -> bool {
    NOT_IMPLEMENTED
        .as_ref()
        .is_some_and(|regex| regex.is_match(text))
}

static MUST_NOT_RUN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(should|must|shall|will)\s*(n't|\s+not|\s+never)\s+(be\s+)?(called|reached|run|invoked|used|happen)|\bunexpected(ly)?\s+(call|invocation)|\bnot\s+(be\s+)?(called|reached)\s+in\s+(this|these)\s+tests?",
    )
    .ok()
});

/// A message saying the code must never run (`"Should not be called!"`), not that it is unfinished.
fn says_must_not_run(text: &str) -> bool {
    MUST_NOT_RUN
        .as_ref()
        .is_some_and(|regex| regex.is_match(text))
}

fn check(context: &FileContext<'_>, out: &mut Output) {
    let Some(language) = context.language else {
        return;
    };
    if context.pair.path().ends_with(".pyi") {
        return;
    }
    let Some(head) = context.side(Side::Head) else {
        return;
    };
    let head_comments = comments::collect(context, Side::Head);
    let base_comments = comments::collect(context, Side::Base);
    let family = language.family();

    // Base: which functions existed, and which were already stubs.
    let mut base_state: HashMap<String, BaseState> = HashMap::new();
    if let (Some(base), Some(parsed)) = (context.side(Side::Base), context.parsed(Side::Base)) {
        for found in context.matches(Side::Base, "todo-stub").iter() {
            let Some(function) = function_node(parsed.tree.root_node(), found, language) else {
                continue;
            };
            let stub = classify(function, base.text, &base_comments, language);
            let state = base_state.entry(found.key.clone()).or_default();
            match stub {
                Some(stub) if stub.partial => state.partial = true,
                Some(_) => state.stub = true,
                None => state.real = true,
            }
        }
    }
    for (key, state) in &base_state {
        if state.stub || state.partial {
            out.facts.push(super::context::Fact {
                side: Side::Base,
                name: "stub",
                family,
                key: key.clone(),
                severity: Severity::Error,
            });
        }
    }

    let in_tests = is_test_path(context.pair.path()) || is_test_input_path(context.pair.path());
    let mut stub_ranges: Vec<(u32, u32)> = Vec::new();
    if let Some(parsed) = context.parsed(Side::Head) {
        // Functions base had a body for that head still defines with a body somewhere (the
        // real one kept under `#[cfg(unix)]`, a stub added for `#[cfg(windows)]`): a stub
        // beside them is a new variant, not the logic replaced.
        let kept_real: std::collections::HashSet<String> = context
            .matches(Side::Head, "todo-stub")
            .iter()
            .filter(|found| base_state.get(&found.key).is_some_and(|state| state.real))
            .filter(|found| {
                function_node(parsed.tree.root_node(), found, language).is_some_and(|function| {
                    classify(function, head.text, &head_comments, language).is_none()
                        && !only_under_test(function, head.text)
                })
            })
            .map(|found| found.key.clone())
            .collect();
        let mut seen = std::collections::HashSet::new();
        for found in context.matches(Side::Head, "todo-stub").iter() {
            if !seen.insert(found.byte_range.clone()) {
                continue;
            }
            let root = parsed.tree.root_node();
            let Some(function) = function_node(root, found, language) else {
                continue;
            };
            // Found once, by one descent: climbing with `Node::parent` is O(depth) per step.
            let ancestors = crate::lang::ancestors(root, function);
            if exempt(&ancestors, head.text, language) {
                continue;
            }
            let method = is_method(function, &ancestors, language);
            let Some(stub) = classify(function, head.text, &head_comments, language) else {
                if method {
                    out.facts.push(super::context::Fact {
                        side: Side::Head,
                        name: "implemented",
                        family,
                        key: format!("method:{}", found.name),
                        severity: Severity::Error,
                    });
                }
                continue;
            };
            if stub.no_op && found.name.starts_with("__") && found.name.ends_with("__") {
                continue;
            }
            stub_ranges.push((found.line, found.end_line));
            if !context.pair.added.overlaps(stub.line, stub.end_line) {
                continue;
            }
            let key = found.key.as_str();
            let mut state = base_state.get(key).copied().unwrap_or_default();
            let variant = state.real && kept_real.contains(key);
            if variant {
                state.real = false;
            }
            // New stubs in tests and test inputs (parser fixtures, UI tests) hide no logic;
            // a body replaced by a stub is reported everywhere.
            if in_tests && !state.real {
                continue;
            }
            let test_code = || {
                in_tests
                    || (language == Language::Rust
                        && crate::rules::assertions::in_test_code(
                            root,
                            function.byte_range(),
                            head.text,
                        ))
            };
            if stub.must_not_run && test_code() {
                continue;
            }
            let (severity, message) = if stub.partial {
                if state.partial || state.stub {
                    continue;
                }
                let subject = if state.real { "" } else { "new " };
                (
                    Severity::Warning,
                    format!(
                        "{subject}function `{key}` defers part of its work to {}",
                        stub.what
                    ),
                )
            } else if state.stub {
                continue;
            } else if state.real {
                (
                    Severity::Error,
                    format!("the body of `{key}` was replaced by {}", stub.what),
                )
            } else if variant {
                (
                    Severity::Warning,
                    format!(
                        "new variant of `{key}` is only a stub: {}; another definition of it keeps its body (a platform or feature the code does not support yet?)",
                        stub.what
                    ),
                )
            } else {
                (
                    Severity::Warning,
                    format!("new function `{key}` is only a stub: {}", stub.what),
                )
            };
            // A new method that raises "not implemented" while some class in the change
            // implements the same method is a base-class hook, not a stub.
            let moved = if method && stub.overridable && severity == Severity::Warning {
                Moved {
                    family,
                    key: format!("method:{}", found.name),
                    already: super::context::FactRef::head("implemented"),
                    existed: None,
                    also: Vec::new(),
                    print: None,
                    likely: Vec::new(),
                }
            } else {
                Moved {
                    family,
                    key: key.to_string(),
                    already: super::context::FactRef::base("stub"),
                    existed: None,
                    also: Vec::new(),
                    print: None,
                    likely: Vec::new(),
                }
            };
            out.candidates.push(Candidate {
                side: Side::Head,
                line: stub.line,
                end_line: stub.end_line,
                severity,
                message,
                key: key.to_string(),
                moved: Some(moved),
                confidence: crate::finding::Confidence::Certain,
            });
        }
    }

    todo_notes(context, &head_comments, &stub_ranges, out);
}

/// Whether a Rust function's own `cfg` attributes keep it out of the product build
/// (`#[cfg(test)]`, `#[cfg(any())]`, `#[cfg(debug_assertions)]`): a body kept there while the
/// build gets a stub is how tests pass on code the product no longer runs.
fn only_under_test(function: Node<'_>, source: &str) -> bool {
    let mut previous = function.prev_named_sibling();
    // Attributes stand right before the item; a few at most.
    for _ in 0..16 {
        let Some(node) = previous else {
            break;
        };
        match node.kind() {
            "attribute_item" => {
                let text: String = source
                    .get(node.byte_range())
                    .unwrap_or_default()
                    .split_whitespace()
                    .collect();
                if text.starts_with("#[cfg(")
                    && !text.contains("not(test")
                    && (text.contains("test")
                        || text.contains("any()")
                        || text.contains("debug_assertions"))
                {
                    return true;
                }
            }
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        previous = node.prev_named_sibling();
    }
    false
}

/// What base had under a qualified name (several definitions may share one).
#[derive(Clone, Copy, Debug, Default)]
struct BaseState {
    real: bool,
    stub: bool,
    partial: bool,
}

/// A note for each new TODO-style comment outside tests and outside reported stubs.
fn todo_notes(
    context: &FileContext<'_>,
    head_comments: &[Comment],
    stub_ranges: &[(u32, u32)],
    out: &mut Output,
) {
    if is_test_path(context.pair.path()) {
        return;
    }
    let base_lines: std::collections::HashSet<&str> = context
        .side(Side::Base)
        .map(|base| base.text.lines().map(str::trim).collect())
        .unwrap_or_default();
    let head_lines: Vec<&str> = context
        .side(Side::Head)
        .map(|head| head.text.lines().collect())
        .unwrap_or_default();
    for comment in head_comments {
        for (offset, text) in comments::uncomment(comment).iter().enumerate() {
            let line = comment.line + offset as u32;
            if !context.is_added_line(line) {
                continue;
            }
            let Some(tag) = comments::todo_tag(text) else {
                continue;
            };
            let raw = head_lines
                .get(line as usize - 1)
                .map(|raw| raw.trim())
                .unwrap_or_default();
            if base_lines.contains(raw) {
                continue;
            }
            if stub_ranges
                .iter()
                .any(|(first, last)| *first <= line && line <= *last)
            {
                continue;
            }
            let shown = shorten(
                text.trim().trim_start_matches(['*', '/', '#', '!']).trim(),
                80,
            );
            out.candidates.push(Candidate {
                side: Side::Head,
                line,
                end_line: line,
                severity: Severity::Note,
                message: format!("new {tag} comment: `{shown}`"),
                key: format!("todo:{shown}"),
                moved: None,
                confidence: crate::finding::Confidence::Certain,
            });
        }
    }
}

/// Test files by path convention, where TODO notes are not reported.
pub(crate) fn is_test_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let mut parts = lower.split('/');
    let file = parts.next_back().unwrap_or_default();
    let in_test_dir = lower.split('/').rev().skip(1).any(|dir| {
        matches!(
            dir,
            "test" | "tests" | "__tests__" | "spec" | "specs" | "testing" | "e2e" | "benches"
        )
    });
    in_test_dir
        || file.starts_with("test_")
        || file == "conftest.py"
        || file.contains(".test.")
        || file.contains(".spec.")
        || file.ends_with("_test.py")
        || file.ends_with("_tests.py")
        || file.ends_with("_test.rs")
        || file.ends_with("_tests.rs")
}

/// Folders of test inputs: files that are data for a test, not code that runs.
fn is_test_input_path(path: &str) -> bool {
    path.to_ascii_lowercase()
        .split('/')
        .rev()
        .skip(1)
        .any(|dir| {
            matches!(
                dir,
                "fixtures" | "fixture" | "testdata" | "test_data" | "test-data" | "resources"
            )
        })
}

/// The function node for a query match: the match is the function itself, or the declarator,
/// pair or assignment that holds one.
fn function_node<'t>(root: Node<'t>, found: &QueryMatch, language: Language) -> Option<Node<'t>> {
    let mut node = root.descendant_for_byte_range(found.byte_range.start, found.byte_range.end)?;
    while node.byte_range() != found.byte_range {
        node = node.parent()?;
    }
    match (language, node.kind()) {
        (_, "variable_declarator") => node.child_by_field_name("value"),
        (_, "pair") => node.child_by_field_name("value"),
        (_, "assignment_expression") => node.child_by_field_name("right"),
        _ => Some(node),
    }
}

/// Python functions whose placeholder body is the point: abstract methods, overloads, Protocol
/// and zope `Interface` members, declarations under `if TYPE_CHECKING:`.
fn exempt(ancestors: &[Node<'_>], source: &str, language: Language) -> bool {
    if language != Language::Python {
        return false;
    }
    let text = |node: Node<'_>| source.get(node.byte_range()).unwrap_or_default();
    if let Some(parent) = ancestors
        .first()
        .filter(|p| p.kind() == "decorated_definition")
    {
        let mut cursor = parent.walk();
        let decorated = parent
            .named_children(&mut cursor)
            .filter(|child| child.kind() == "decorator")
            .any(|decorator| {
                let name = text(decorator);
                [
                    "abstractmethod",
                    "abstractproperty",
                    "abstractclassmethod",
                    "abstractstaticmethod",
                    "overload",
                ]
                .iter()
                .any(|word| name.contains(word))
            });
        if decorated {
            return true;
        }
    }
    for ancestor in ancestors {
        match ancestor.kind() {
            "class_definition" => {
                let protocol = ancestor
                    .child_by_field_name("superclasses")
                    .is_some_and(|bases| {
                        let bases = text(bases);
                        // A zope `Interface` declares its methods the way a Protocol does.
                        bases.contains("Protocol")
                            || bases
                                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                                .any(|word| word == "Interface")
                    });
                if protocol {
                    return true;
                }
            }
            "if_statement"
                if ancestor
                    .child_by_field_name("condition")
                    .is_some_and(|condition| text(condition).contains("TYPE_CHECKING")) =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// A method of a class (Python), a class or object (JavaScript), an impl or trait (Rust).
fn is_method(function: Node<'_>, ancestors: &[Node<'_>], language: Language) -> bool {
    let containers: &[&str] = match language {
        Language::Python => &["class_definition"],
        Language::Rust => &["impl_item", "trait_item"],
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            return function.kind() == "method_definition";
        }
    };
    for ancestor in ancestors {
        if containers.contains(&ancestor.kind()) {
            return true;
        }
        if matches!(
            ancestor.kind(),
            "function_definition" | "function_item" | "mod_item"
        ) {
            return false;
        }
    }
    false
}

/// Whether `function`'s body only defers the work, and how.
fn classify(function: Node<'_>, source: &str, all: &[Comment], language: Language) -> Option<Stub> {
    let body = function.child_by_field_name("body")?;
    let first_line = function.start_position().row as u32 + 1;
    let last_line = function.end_position().row as u32 + 1;
    // Comments come in document order: the function's are one run, found by binary search
    // (a scan per function was quadratic in a large file).
    let from = all.partition_point(|comment| comment.line < first_line);
    let todo_comment = all[from..]
        .iter()
        .take_while(|comment| comment.line <= last_line)
        .filter(|comment| comment.end_line <= last_line)
        .find(|comment| {
            comments::uncomment(comment)
                .iter()
                .any(|text| comments::todo_tag(text).is_some())
        });
    let text = |node: Node<'_>| source.get(node.byte_range()).unwrap_or_default();
    let lines = |node: Node<'_>| {
        (
            node.start_position().row as u32 + 1,
            node.end_position().row as u32 + 1,
        )
    };
    let mut cursor = body.walk();
    let mut statements: Vec<Node<'_>> = body
        .named_children(&mut cursor)
        .filter(|child| !child.kind().ends_with("comment"))
        .collect();
    if language == Language::Python
        && statements.first().is_some_and(|first| {
            first.kind() == "expression_statement"
                && first.named_child(0).is_some_and(|c| c.kind() == "string")
        })
    {
        statements.remove(0);
    }
    let stub = |what: String, node: Node<'_>| {
        let (line, end_line) = lines(node);
        let overridable = matches!(node.kind(), "raise_statement" | "throw_statement")
            || node
                .named_child(0)
                .is_some_and(|inner| matches!(inner.kind(), "raise_statement" | "throw_statement"));
        Some(Stub {
            no_op: what == "`pass`" || what == "`...`",
            must_not_run: says_must_not_run(text(node)),
            what,
            line,
            end_line,
            partial: false,
            overridable,
        })
    };
    let todo_stub = |what: &str| {
        let comment = todo_comment?;
        Some(Stub {
            what: what.to_string(),
            line: comment.line,
            end_line: comment.end_line,
            partial: false,
            overridable: false,
            no_op: false,
            must_not_run: false,
        })
    };
    match statements.as_slice() {
        [] => return todo_stub("a TODO comment"),
        [only] => {
            let only = *only;
            let inner = if only.kind() == "expression_statement" {
                only.named_child(0).unwrap_or(only)
            } else {
                only
            };
            match (language, inner.kind()) {
                (Language::Python, "pass_statement") => {
                    return stub("`pass`".to_string(), only);
                }
                (Language::Python, "ellipsis") => return stub("`...`".to_string(), only),
                (Language::Python, "raise_statement") => {
                    let raised = text(inner).trim_start_matches("raise").trim_start();
                    if raised.starts_with("NotImplementedError")
                        || raised.starts_with("NotImplemented")
                    {
                        return stub("`raise NotImplementedError`".to_string(), only);
                    }
                }
                (
                    Language::JavaScript | Language::TypeScript | Language::Tsx,
                    "throw_statement",
                ) if says_not_implemented(text(inner)) => {
                    return stub(format!("`{}`", shorten(text(inner).trim(), 60)), only);
                }
                (Language::Rust, "macro_invocation") => {
                    let name = macro_name(inner, source);
                    if matches!(name, "todo" | "unimplemented") {
                        return stub(format!("`{name}!()`"), only);
                    }
                    if name == "panic" && says_not_implemented(text(inner)) {
                        return stub(format!("`{}`", shorten(text(inner).trim(), 60)), only);
                    }
                }
                _ => {}
            }
            if placeholder_value(inner, source, language)
                && let Some(mut found) = todo_stub("")
            {
                found.what = format!("`{}` with a TODO comment", shorten(text(inner).trim(), 40));
                return Some(found);
            }
        }
        _ => {}
    }
    if language == Language::Rust {
        return partial_todo(body, source);
    }
    None
}

/// `return None`, `return null;`, `None`, `Ok(())`, `Default::default()`: values that stand in
/// for a result (only a stub together with a TODO comment).
fn placeholder_value(node: Node<'_>, source: &str, language: Language) -> bool {
    let text = source.get(node.byte_range()).unwrap_or_default().trim();
    let text = text.trim_end_matches(';').trim();
    let value = text.strip_prefix("return").map_or(text, str::trim);
    if node.kind() != "return_statement"
        && node.kind() != "return_expression"
        && language != Language::Rust
    {
        return false;
    }
    matches!(
        value,
        "" | "None"
            | "null"
            | "undefined"
            | "{}"
            | "[]"
            | "\"\""
            | "''"
            | "0"
            | "false"
            | "False"
            | "()"
            | "Ok(())"
            | "Ok(None)"
            | "Default::default()"
            | "Vec::new()"
            | "vec![]"
            | "String::new()"
    )
}

fn macro_name<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    node.child_by_field_name("macro")
        .map(|name| {
            let name = source.get(name.byte_range()).unwrap_or_default();
            name.rsplit("::").next().unwrap_or(name)
        })
        .unwrap_or_default()
}

/// A `todo!()`/`unimplemented!()` anywhere in a Rust body (outside nested functions).
fn partial_todo(body: Node<'_>, source: &str) -> Option<Stub> {
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        if node.kind() == "macro_invocation" {
            let name = macro_name(node, source);
            if matches!(name, "todo" | "unimplemented") {
                return Some(Stub {
                    what: format!("`{name}!()`"),
                    line: node.start_position().row as u32 + 1,
                    end_line: node.end_position().row as u32 + 1,
                    partial: true,
                    overridable: false,
                    no_op: false,
                    must_not_run: false,
                });
            }
        }
        let mut cursor = node.walk();
        let mut children: Vec<Node<'_>> = node
            .named_children(&mut cursor)
            .filter(|child| child.kind() != "function_item")
            .collect();
        children.reverse();
        stack.extend(children);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths_are_recognised() {
        assert!(is_test_path("tests/test_api.py"));
        assert!(is_test_path("src/__tests__/a.js"));
        assert!(is_test_path("src/a.spec.ts"));
        assert!(is_test_path("pkg/api_test.py"));
        assert!(!is_test_path("src/api.py"));
        assert!(!is_test_path("src/contest.rs"));
    }

    #[test]
    fn not_implemented_messages() {
        assert!(says_not_implemented("throw new Error('Not implemented')"));
        assert!(says_not_implemented("throw new Error(\"TODO\")"));
        assert!(says_not_implemented("panic!(\"not yet implemented\")"));
        assert!(!says_not_implemented("panic!(\"invalid state\")"));
        assert!(!says_not_implemented(
            "throw new Error('todos must be an array')"
        ));
    }

    #[test]
    fn must_not_run_messages() {
        assert!(says_must_not_run(
            "raise NotImplementedError(\"Should not be called!\")"
        ));
        assert!(says_must_not_run(
            "unimplemented!(\"must never be reached\")"
        ));
        assert!(says_must_not_run("raise AssertionError('unexpected call')"));
        assert!(says_must_not_run(
            "unimplemented!(\"not called in this test\")"
        ));
        assert!(!says_must_not_run("raise NotImplementedError"));
        assert!(!says_must_not_run(
            "raise NotImplementedError('called too early')"
        ));
    }
}
