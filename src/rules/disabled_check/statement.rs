//! The statement or item a suppression applies to, named so that the name survives what a
//! refactoring does to it: a signature rewrapped over several lines, attributes reordered, a
//! relative import moved into a subpackage, the statement copied or moved to another file.
//!
//! Python: the statement whose code precedes the comment on its line (the header of a
//! compound statement; a `def` or `class` by its qualified name), or for a comment alone on
//! its line the statement that follows, kept apart (`next:`) because such a comment reaches
//! further (`# type: ignore` before the first statement ignores the module). Rust: the item an
//! outer attribute is attached to (functions, types, fields by kind and qualified name), or
//! for an inner attribute the module it opens. Other languages: none; their suppressions are
//! compared by line.

use crate::lang::{self, Language, Parsed};
use tree_sitter::Node;

/// How many suppressions per file side get a statement: a generated file can carry thousands,
/// and past this the line comparison alone judges them (stricter, never silent).
pub const MAX_NAMED: usize = 2_000;

/// How many tokens of a statement make its name; longer statements are named by their start.
const MAX_TOKENS: usize = 400;

/// Attributes and comments skipped between an attribute and its item, at most.
const MAX_SIBLINGS: usize = 256;

/// How many tokens a statement needs before its copy in another file counts as the same
/// statement: `import os` or `return x` recur everywhere, a copied line rarely does.
const MIN_SHARED_TOKENS: usize = 5;

/// The statement or item a suppression applies to.
#[derive(Debug, PartialEq, Eq)]
pub struct Statement {
    /// Its name within the file: a definition's or item's qualified name, another statement's
    /// tokens with the names of its enclosing scopes.
    pub local: String,
    /// Its name across files, where a suppression moved or copied with its statement lands:
    /// the qualified tokens of the statement (a definition's or item's header). `None` for a
    /// suppression alone on its line or an inner attribute, which reach as far as their module
    /// (the same text elsewhere is another module's), and for statements too short to tell
    /// apart.
    pub shared: Option<String>,
}

/// The statement or item the suppression at `range` applies to.
pub fn of(
    parsed: &Parsed,
    language: Language,
    range: std::ops::Range<usize>,
    inner: bool,
) -> Option<Statement> {
    match language {
        Language::Python => python(parsed, range.start),
        Language::Rust => rust(parsed, range, inner),
        Language::JavaScript | Language::TypeScript | Language::Tsx => None,
    }
}

/// The name of a statement across files, from its enclosing scopes and its tokens.
fn shared(scope: &str, kind: &str, tokens: &[&str]) -> Option<String> {
    (tokens.len() >= MIN_SHARED_TOKENS).then(|| format!("{scope}: {kind} {}", tokens.join(" ")))
}

fn python(parsed: &Parsed, comment_start: usize) -> Option<Statement> {
    let text = parsed.text.as_str();
    let root = parsed.tree.root_node();
    let comment_start = comment_start.min(text.len());
    let line_start = text
        .get(..comment_start)?
        .rfind('\n')
        .map_or(0, |at| at + 1);
    let before = text.get(line_start..comment_start)?;
    // The code the comment follows on its line, or else the next line of code.
    let (position, alone) = match before.trim_end().char_indices().next_back() {
        Some((at, _)) => (line_start + at, false),
        None => (next_code(text, comment_start)?, true),
    };
    let leaf = root.descendant_for_byte_range(position, position + 1)?;
    let mut path = vec![leaf];
    path.extend(lang::ancestors(root, leaf));
    let statement = path.windows(2).find_map(|pair| {
        let (node, parent) = (pair[0], pair[1]);
        let is_statement = matches!(parent.kind(), "block" | "module")
            || matches!(
                node.kind(),
                "elif_clause" | "else_clause" | "except_clause" | "finally_clause" | "case_clause"
            );
        is_statement.then_some(node)
    })?;
    let statement = match statement.kind() {
        "decorated_definition" => statement.child_by_field_name("definition")?,
        _ => statement,
    };
    let scope = lang::qualified_scope(root, statement, text, Language::Python).join(" › ");
    // A compound statement is named by its header, not by its body.
    let mut cursor = statement.walk();
    let end = statement
        .child_by_field_name("body")
        .or_else(|| statement.child_by_field_name("consequence"))
        .or_else(|| {
            statement
                .named_children(&mut cursor)
                .find(|child| child.kind() == "block")
        })
        .map_or(statement.end_byte(), |body| body.start_byte());
    let header = tokens(statement, end, text);
    let kind = statement.kind();
    let local = match kind {
        "function_definition" | "class_definition" => {
            let name = statement.child_by_field_name("name")?;
            format!("{kind} {}", text.get(name.byte_range())?)
        }
        // A module or class attribute (`Encodable: TypeAlias = "…"`, `BaseModel = Any`) is
        // named by what it assigns: its value rewritten is the same statement. Inside a
        // function the same target is assigned over and over; there the tokens name it.
        _ => match assigned_name(statement, text) {
            Some(name)
                if !lang::ancestors(root, statement)
                    .iter()
                    .any(|n| n.kind() == "function_definition") =>
            {
                format!("assignment {name}")
            }
            _ => header.join(" "),
        },
    };
    let prefix = if alone { "next:" } else { "" };
    Some(Statement {
        local: format!("{prefix}{scope}: {local}"),
        shared: shared(&scope, kind, &header).filter(|_| !alone),
    })
}

/// The plain name an expression statement assigns (`x = …`, `x: T = …`), if it is one.
fn assigned_name<'t>(statement: Node<'_>, text: &'t str) -> Option<&'t str> {
    if statement.kind() != "expression_statement" {
        return None;
    }
    let assignment = statement.named_child(0)?;
    let left = assignment.child_by_field_name("left")?;
    (assignment.kind() == "assignment" && left.kind() == "identifier")
        .then(|| text.get(left.byte_range()))
        .flatten()
}

/// The first byte of the next line of code after `from`: blank lines and comment lines skipped.
fn next_code(text: &str, from: usize) -> Option<usize> {
    let rest = text.get(from..)?;
    let mut offset = from + rest.find('\n')? + 1;
    for line in text.get(offset..)?.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            return Some(offset + (line.len() - trimmed.len()));
        }
        offset += line.len();
    }
    None
}

fn rust(parsed: &Parsed, range: std::ops::Range<usize>, inner: bool) -> Option<Statement> {
    let text = parsed.text.as_str();
    let root = parsed.tree.root_node();
    let found = root.descendant_for_byte_range(range.start, range.end)?;
    let attribute_kind = if inner {
        "inner_attribute_item"
    } else {
        "attribute_item"
    };
    let attribute = std::iter::once(found)
        .chain(lang::ancestors(root, found))
        .find(|node| node.kind() == attribute_kind)?;
    let scope = lang::qualified_scope(root, attribute, text, Language::Rust).join(" › ");
    if inner {
        return Some(Statement {
            local: format!("inner {scope}"),
            shared: None,
        });
    }
    let mut item = attribute.next_named_sibling();
    for _ in 0..MAX_SIBLINGS {
        match item {
            Some(node)
                if matches!(
                    node.kind(),
                    "attribute_item" | "line_comment" | "block_comment"
                ) =>
            {
                item = node.next_named_sibling();
            }
            _ => break,
        }
    }
    let item = item?;
    let named = |field: &str| {
        item.child_by_field_name(field)
            .map(|node| tokens(node, node.end_byte(), text).join(" "))
    };
    let end = item
        .child_by_field_name("body")
        .map_or(item.end_byte(), |body| body.start_byte());
    let header = tokens(item, end, text);
    let kind = item.kind();
    let name = match kind {
        "impl_item" => format!(
            "impl {} for {}",
            named("trait").unwrap_or_default(),
            named("type")?
        ),
        _ => named("name").unwrap_or_else(|| header.join(" ")),
    };
    Some(Statement {
        local: format!("{scope}: {kind} {name}"),
        shared: shared(&scope, kind, &header),
    })
}

/// The node's tokens before `end`, one space apart, without comments, the dots of a relative
/// import, the brackets around imported names or a comma before a closing bracket: the same
/// statement however it is wrapped.
fn tokens<'t>(node: Node<'_>, end: usize, text: &'t str) -> Vec<&'t str> {
    let mut out: Vec<&str> = Vec::new();
    let mut cursor = node.walk();
    let mut visited = 0usize;
    'walk: loop {
        let current = cursor.node();
        visited += 1;
        let skip = matches!(
            current.kind(),
            "comment" | "line_comment" | "block_comment" | "line_continuation" | "import_prefix"
        );
        if current.start_byte() >= end || out.len() >= MAX_TOKENS || visited > MAX_TOKENS * 8 {
            break;
        }
        if !skip && current.child_count() == 0 {
            let token = text.get(current.byte_range()).unwrap_or_default().trim();
            let import_bracket = matches!(token, "(" | ")")
                && current
                    .parent()
                    .is_some_and(|parent| parent.kind() == "import_from_statement");
            if matches!(token, ")" | "]" | "}") && out.last() == Some(&",") {
                out.pop();
            }
            if !token.is_empty() && !import_bracket {
                out.push(token);
            }
        }
        if !skip && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == node {
                break 'walk;
            }
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(language: Language, source: &str, needle: &str) -> Vec<(String, Option<String>)> {
        let parsed = lang::parse(language, source.into()).unwrap();
        source
            .match_indices(needle)
            .filter_map(|(at, _)| of(&parsed, language, at..at + needle.len(), false))
            .map(|statement| (statement.local, statement.shared))
            .collect()
    }

    fn named(local: &str, shared: Option<&str>) -> (String, Option<String>) {
        (local.to_string(), shared.map(str::to_string))
    }

    #[test]
    fn python_def_rewrapped_keeps_its_name() {
        let one = "class A:\n    @event\n    def f(self, x: int) -> None:  # type: ignore\n        pass\n";
        let wrapped = "class A:\n    @event\n    def f(  # type: ignore\n        self, x: int | str\n    ) -> None:  # type: ignore\n        pass\n";
        let one = names(Language::Python, one, "# type: ignore");
        let wrapped = names(Language::Python, wrapped, "# type: ignore");
        assert_eq!(
            one,
            [named(
                "A: function_definition f",
                Some("A: function_definition def f ( self , x : int ) -> None :")
            )]
        );
        assert_eq!(wrapped.len(), 2);
        assert!(wrapped.iter().all(|(local, _)| *local == one[0].0));
    }

    #[test]
    fn python_statements_ignore_wrapping_and_relative_dots() {
        let one = "from .models import (  # noqa: F401\n    Group,\n    User,\n)\n";
        let other = "from ..models import Group, User  # noqa: F401\n";
        assert_eq!(
            names(Language::Python, one, "# noqa"),
            names(Language::Python, other, "# noqa")
        );
        let body = "def f():\n    x = g(  # type: ignore\n        1,\n    )\n    return x  # type: ignore\n";
        assert_eq!(
            names(Language::Python, body, "# type"),
            [
                named(
                    "f: x = g ( 1 )",
                    Some("f: expression_statement x = g ( 1 )")
                ),
                named("f: return x", None)
            ]
        );
        let alone = "# type: ignore\nimport os.path as path_module\n";
        assert_eq!(
            names(Language::Python, alone, "# type"),
            [named("next:: import os . path as path_module", None)]
        );
    }

    #[test]
    fn rust_attributes_name_their_item() {
        let source = "/// d\n#[allow(a)]\n#[inline]\npub fn build() {}\nmod m {\n    #![allow(b)]\n    #[derive(Debug)]\n    #[allow(c)]\n    enum E { X }\n}\n";
        let parsed = lang::parse(Language::Rust, source.into()).unwrap();
        let at = |needle: &str| {
            let start = source.find(needle).unwrap();
            start..start + needle.len()
        };
        let name = |needle: &str, inner: bool| {
            of(&parsed, Language::Rust, at(needle), inner)
                .map(|statement| (statement.local, statement.shared))
        };
        assert_eq!(
            name("#[allow(a)]", false),
            Some(named(
                ": function_item build",
                Some(": function_item pub fn build ( )")
            ))
        );
        assert_eq!(name("#![allow(b)]", true), Some(named("inner m", None)));
        assert_eq!(
            name("#[allow(c)]", false),
            Some(named("m: enum_item E", None))
        );
    }
}
