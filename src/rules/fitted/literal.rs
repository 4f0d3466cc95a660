//! Literal values in one canonical spelling, so that `5040` in a test and `5040` (or `6 * 840`)
//! in the code compare equal across quoting styles and languages' number syntax.

use tree_sitter::Node;

/// A literal's canonical text, and whether it was computed from other literals (`6 * 7`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lit {
    /// Canonical text: numbers in shortest decimal form, strings Debug-quoted, `true`,
    /// `false`, `null`, `[a, b]`, `Some(x)`.
    pub text: String,
    /// Arithmetic over literals rather than a literal written out.
    pub computed: bool,
}

/// Deepest nesting of a literal's parts that is read (a literal list of lists is data, not
/// logic, and a crafted one must not recurse without bound).
const MAX_DEPTH: usize = 8;

/// The node's value when it is a literal, or an expression of literals only.
pub fn literal(node: Node<'_>, source: &str) -> Option<Lit> {
    value(node, source, 0)
}

fn text<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or_default()
}

fn plain(text: String) -> Option<Lit> {
    Some(Lit {
        text,
        computed: false,
    })
}

fn value(node: Node<'_>, source: &str, depth: usize) -> Option<Lit> {
    if depth > MAX_DEPTH {
        return None;
    }
    let raw = text(node, source);
    match node.kind() {
        "integer" | "float" | "number" | "integer_literal" | "float_literal" => {
            plain(number_text(parse_number(raw)?))
        }
        "true" | "false" => plain(raw.to_ascii_lowercase()),
        "boolean_literal" => plain(raw.to_string()),
        "none" | "null" | "undefined" => plain("null".to_string()),
        "identifier" if raw == "undefined" => plain("null".to_string()),
        "string" | "string_literal" | "raw_string_literal" => {
            // An f-string or a template with substitutions is not a literal.
            if has_child(
                node,
                &[
                    "interpolation",
                    "template_substitution",
                    "escape_interpolation",
                ],
            ) {
                return None;
            }
            if node.kind() == "string" && raw.starts_with(['f', 'F']) {
                return None;
            }
            plain(format!(
                "{:?}",
                crate::lang::string_literal_text(node, source)
            ))
        }
        "template_string" if !has_child(node, &["template_substitution"]) => plain(format!(
            "{:?}",
            crate::lang::string_literal_text(node, source)
        )),
        "parenthesized_expression" => value(node.named_child(0)?, source, depth + 1),
        "unary_expression" | "unary_operator" => {
            let operand = node
                .child_by_field_name("argument")
                .or_else(|| node.child_by_field_name("operand"))
                .or_else(|| node.named_child(0))?;
            let inner = value(operand, source, depth + 1)?;
            let operator = raw.trim_start().chars().next()?;
            match operator {
                '-' => {
                    let number: f64 = inner.text.parse().ok()?;
                    Some(Lit {
                        text: number_text(-number),
                        computed: inner.computed,
                    })
                }
                '+' => Some(inner),
                _ => None,
            }
        }
        "binary_expression" | "binary_operator" => arithmetic(node, source, depth),
        "list" | "tuple" | "array" | "array_expression" | "tuple_expression" => {
            let mut parts = Vec::new();
            let mut computed = false;
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                if child.kind().contains("comment") {
                    continue;
                }
                let part = value(child, source, depth + 1)?;
                computed |= part.computed;
                parts.push(part.text);
            }
            Some(Lit {
                text: format!("[{}]", parts.join(", ")),
                computed,
            })
        }
        // Rust: `Some(5)`, `Ok("x")`, `String::from("x")`, `"x".to_string()`.
        "call_expression" => {
            let function = node.child_by_field_name("function")?;
            let arguments = node.child_by_field_name("arguments")?;
            let callee = text(function, source);
            let only = (arguments.named_child_count() == 1)
                .then(|| arguments.named_child(0))
                .flatten();
            match callee {
                "Some" | "Ok" | "Err" => {
                    let inner = value(only?, source, depth + 1)?;
                    Some(Lit {
                        text: format!("{callee}({})", inner.text),
                        computed: inner.computed,
                    })
                }
                "String::from" | "str" | "String" | "Number" => value(only?, source, depth + 1),
                _ if function.kind() == "field_expression"
                    && arguments.named_child_count() == 0 =>
                {
                    let field = function.child_by_field_name("field")?;
                    match text(field, source) {
                        "to_string" | "to_owned" | "into" => {
                            value(function.child_by_field_name("value")?, source, depth + 1)
                        }
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn has_child(node: Node<'_>, kinds: &[&str]) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .any(|child| kinds.contains(&child.kind()))
}

fn arithmetic(node: Node<'_>, source: &str, depth: usize) -> Option<Lit> {
    let left = node.child_by_field_name("left")?;
    let right = node.child_by_field_name("right")?;
    let operator = node
        .child_by_field_name("operator")
        .map(|op| text(op, source).to_string())
        .or_else(|| {
            let between = source.get(left.end_byte()..right.start_byte())?;
            Some(between.trim().to_string())
        })?;
    let a: f64 = value(left, source, depth + 1)?.text.parse().ok()?;
    let b: f64 = value(right, source, depth + 1)?.text.parse().ok()?;
    let result = match operator.as_str() {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" if b != 0.0 => a / b,
        "//" if b != 0.0 => (a / b).floor(),
        "%" if b != 0.0 => a % b,
        "**" if b.abs() <= 64.0 => a.powf(b),
        _ => return None,
    };
    result.is_finite().then(|| Lit {
        text: number_text(result),
        computed: true,
    })
}

/// A number literal in any of the three languages' spellings: `1_000`, `0x10`, `42u32`,
/// `1.5f64`, `10n`.
fn parse_number(raw: &str) -> Option<f64> {
    let cleaned: String = raw.chars().filter(|c| *c != '_').collect();
    let lower = cleaned.to_ascii_lowercase();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = lower.strip_prefix(prefix) {
            let digits = strip_rust_suffix(digits.trim_end_matches('n'));
            return i64::from_str_radix(digits, radix).ok().map(|n| n as f64);
        }
    }
    strip_rust_suffix(lower.trim_end_matches('n'))
        .parse::<f64>()
        .ok()
}

fn strip_rust_suffix(text: &str) -> &str {
    for suffix in [
        "u128", "i128", "usize", "isize", "u64", "i64", "u32", "i32", "u16", "i16", "u8", "i8",
        "f64", "f32",
    ] {
        if let Some(number) = text.strip_suffix(suffix) {
            return number;
        }
    }
    text
}

/// Shortest decimal text: integers without a fraction.
pub fn number_text(number: f64) -> String {
    if number.fract() == 0.0 && number.abs() < 1e15 {
        format!("{}", number as i64)
    } else {
        format!("{number}")
    }
}

/// Values too common to say that a branch special-cases a test's input (`if n == 0`, a base
/// case of nearly every recursion).
pub fn is_trivial(lit: &str) -> bool {
    matches!(
        lit,
        "0" | "1" | "-1" | "2" | "\"\"" | "true" | "false" | "null" | "[]"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{Language, parse};

    fn first_value(language: Language, source: &str, needle: &str) -> Option<Lit> {
        let parsed = parse(language, source.to_string()).unwrap();
        let start = source.find(needle).unwrap();
        let mut node = parsed
            .tree
            .root_node()
            .descendant_for_byte_range(start, start + needle.len())
            .unwrap();
        while source.get(node.byte_range()) != Some(needle) {
            node = node.parent().unwrap();
        }
        // The widest node with exactly this text (an expression statement wraps its value).
        while let Some(parent) = node.parent() {
            if parent.byte_range() != node.byte_range() {
                break;
            }
            node = parent;
        }
        literal(node, source).or_else(|| literal(node.named_child(0)?, source))
    }

    #[test]
    fn literals_compare_across_spellings_and_languages() {
        let py = first_value(Language::Python, "x = 'abc'\n", "'abc'").unwrap();
        let js = first_value(Language::JavaScript, "x = \"abc\";\n", "\"abc\"").unwrap();
        assert_eq!(py.text, js.text);
        let rust = first_value(Language::Rust, "fn f() -> u64 { 5_040u64 }\n", "5_040u64").unwrap();
        assert_eq!(rust.text, "5040");
        let computed = first_value(Language::Python, "x = 6 * 7\n", "6 * 7").unwrap();
        assert_eq!(computed.text, "42");
        assert!(computed.computed);
        let negative = first_value(Language::JavaScript, "x = -3.5;\n", "-3.5").unwrap();
        assert_eq!(negative.text, "-3.5");
        let list = first_value(Language::Python, "x = [1, 2.0]\n", "[1, 2.0]").unwrap();
        assert_eq!(list.text, "[1, 2]");
        let some = first_value(
            Language::Rust,
            "fn f() { Some(\"x\".to_string()) }\n",
            "Some(\"x\".to_string())",
        )
        .unwrap();
        assert_eq!(some.text, "Some(\"x\")");
        assert!(first_value(Language::Python, "x = f'{y}'\n", "f'{y}'").is_none());
        assert!(first_value(Language::Python, "x = n * 7\n", "n * 7").is_none());
    }
}
