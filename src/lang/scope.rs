//! Enclosing scopes of a node, which turn a bare test name into a stable key.
//!
//! A key must survive edits elsewhere in the file, so it is built from names only: the enclosing
//! `describe` titles, classes, modules and functions, never from line numbers.

use super::Language;
use tree_sitter::Node;

/// JavaScript callees whose first argument names a suite or a test, so they form scopes.
const JS_SCOPE_CALLEES: &[&str] = &[
    "describe",
    "context",
    "suite",
    "fdescribe",
    "xdescribe",
    "xcontext",
    "it",
    "test",
    "specify",
    "fit",
    "xit",
    "xtest",
    "ftest",
    "xspecify",
    "bench",
];

/// The names of the scopes that enclose `node` (outermost first), not including `node` itself;
/// `root` is the root of `node`'s tree (see [`super::ancestors`] for why).
pub fn qualified_scope(
    root: Node<'_>,
    node: Node<'_>,
    source: &str,
    language: Language,
) -> Vec<String> {
    let mut names: Vec<String> = super::ancestors(root, node)
        .into_iter()
        .filter_map(|ancestor| scope_name(ancestor, source, language))
        .collect();
    names.reverse();
    names
}

fn scope_name(node: Node<'_>, source: &str, language: Language) -> Option<String> {
    match language {
        Language::Python => match node.kind() {
            "function_definition" | "class_definition" => field_text(node, "name", source),
            _ => None,
        },
        Language::Rust => match node.kind() {
            "function_item" | "mod_item" => field_text(node, "name", source),
            "impl_item" => field_text(node, "type", source),
            // `proptest! { fn prop(..) {} }`: the macro body is opaque tokens, handled by queries.
            _ => None,
        },
        Language::JavaScript | Language::TypeScript | Language::Tsx => match node.kind() {
            "call_expression" => js_scope_call_name(node, source),
            "class_declaration" => field_text(node, "name", source),
            _ => None,
        },
    }
}

fn field_text(node: Node<'_>, field: &str, source: &str) -> Option<String> {
    let child = node.child_by_field_name(field)?;
    Some(source.get(child.byte_range())?.to_string())
}

/// `describe("suite", ...)`, `describe.each(...)("suite %s", ...)` and `it.skip("x", ...)` are
/// scopes named by their first string argument.
fn js_scope_call_name(node: Node<'_>, source: &str) -> Option<String> {
    let callee = node.child_by_field_name("function")?;
    let base = js_callee_base(callee, source)?;
    if !JS_SCOPE_CALLEES.contains(&base) {
        return None;
    }
    let arguments = node.child_by_field_name("arguments")?;
    let first = arguments.named_child(0)?;
    Some(string_literal_text(first, source))
}

/// The identifier a callee chain starts from: `describe` for `describe.only.each(...)(...)`.
fn js_callee_base<'s>(mut callee: Node<'_>, source: &'s str) -> Option<&'s str> {
    loop {
        match callee.kind() {
            "identifier" => return source.get(callee.byte_range()),
            "member_expression" => callee = callee.child_by_field_name("object")?,
            "call_expression" => callee = callee.child_by_field_name("function")?,
            _ => return None,
        }
    }
}

/// The text of a string literal without quotes or prefixes; other nodes yield their source text.
pub fn string_literal_text(node: Node<'_>, source: &str) -> String {
    let raw = source.get(node.byte_range()).unwrap_or_default();
    match node.kind() {
        "string" | "template_string" | "string_literal" | "raw_string_literal" => {
            strip_quotes(raw).to_string()
        }
        _ => raw.to_string(),
    }
}

fn strip_quotes(raw: &str) -> &str {
    let unprefixed = raw.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '#');
    for quote in ["\"\"\"", "'''", "\"", "'", "`"] {
        if let Some(inner) = unprefixed
            .strip_prefix(quote)
            .and_then(|rest| rest.trim_end_matches('#').strip_suffix(quote))
        {
            return inner;
        }
    }
    raw
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parse;

    fn find<'t>(node: Node<'t>, source: &str, needle: &str) -> Option<Node<'t>> {
        if source.get(node.byte_range()) == Some(needle) {
            return Some(node);
        }
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.children(&mut cursor).collect();
        children
            .into_iter()
            .find_map(|child| find(child, source, needle))
    }

    #[test]
    fn js_scope_uses_describe_titles() {
        let source = "describe('outer', () => { describe.each([1])('inner %s', () => { it('x', () => { leaf(); }); }); });";
        let parsed = parse(Language::JavaScript, source.into()).unwrap();
        let leaf = find(parsed.tree.root_node(), source, "leaf()").unwrap();
        assert_eq!(
            qualified_scope(parsed.tree.root_node(), leaf, source, Language::JavaScript),
            ["outer", "inner %s", "x"]
        );
    }

    #[test]
    fn python_scope_uses_classes_and_functions() {
        let source = "class TestA:\n    def test_b(self):\n        leaf()\n";
        let parsed = parse(Language::Python, source.into()).unwrap();
        let leaf = find(parsed.tree.root_node(), source, "leaf()").unwrap();
        assert_eq!(
            qualified_scope(parsed.tree.root_node(), leaf, source, Language::Python),
            ["TestA", "test_b"]
        );
    }

    #[test]
    fn rust_scope_uses_modules_and_functions() {
        let source = "mod tests { fn t() { leaf(); } }";
        let parsed = parse(Language::Rust, source.into()).unwrap();
        let leaf = find(parsed.tree.root_node(), source, "leaf()").unwrap();
        assert_eq!(
            qualified_scope(parsed.tree.root_node(), leaf, source, Language::Rust),
            ["tests", "t"]
        );
    }

    #[test]
    fn strips_quotes_and_prefixes() {
        assert_eq!(strip_quotes("'a b'"), "a b");
        assert_eq!(strip_quotes("r\"x\""), "x");
        assert_eq!(strip_quotes("`t ${x}`"), "t ${x}");
        assert_eq!(strip_quotes("\"\"\"doc\"\"\""), "doc");
        assert_eq!(strip_quotes("r#\"raw\"#"), "raw");
    }
}
