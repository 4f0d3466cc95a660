//! Part of `commented-out-validation`: a validation call the change removed and replaced, in the
//! same hunk, by a cast of the same value (`schema.parse(body)` → `body as Order`,
//! `Order.model_validate(data)` → `cast(Order, data)`). The type checker now believes what
//! nothing checks any more, and the diff reads like a typing clean-up.
//!
//! Both sides are read from their syntax trees, visiting only the nodes on the hunk's lines:
//! casts on head's added lines, calls on base's removed lines.

use super::context::{Candidate, FileContext, Output};
use super::markers::shorten;
use crate::changeset::LineSet;
use crate::finding::{Confidence, Severity, Side};
use crate::lang::Language;
use regex::Regex;
use std::sync::OnceLock;
use tree_sitter::Node;

/// At most this many nodes are visited per side, however large the hunk.
const VISIT_BUDGET: usize = 20_000;

/// A cast the change added: `value as Type`, `<Type>value`, `cast(Type, value)`.
struct Cast {
    line: u32,
    value: String,
    type_name: String,
    text: String,
}

/// A validation call the change removed, with its arguments as written.
struct Validation {
    line: u32,
    callee: String,
    arguments: Vec<String>,
    text: String,
}

pub(super) fn check(context: &FileContext<'_>, language: Language, out: &mut Output) {
    if !matches!(
        language,
        Language::TypeScript | Language::Tsx | Language::Python
    ) || context.pair.added.is_empty()
        || context.pair.removed.is_empty()
    {
        return;
    }
    let (Some(head), Some(head_text)) = (
        context.parsed(Side::Head),
        context.side(Side::Head).map(|side| side.text),
    ) else {
        return;
    };
    let (casts, complete) = casts(
        head.tree.root_node(),
        head_text,
        &context.pair.added,
        language,
    );
    if !complete {
        context.mark_cut_short();
    }
    if casts.is_empty() {
        return;
    }
    // Base is parsed only for a change that adds a cast.
    let (Some(base), Some(base_text)) = (
        context.parsed(Side::Base),
        context.side(Side::Base).map(|side| side.text),
    ) else {
        return;
    };
    let base_len = base_text.lines().count();
    for cast in casts {
        let removed =
            super::commented_out_validation::hunk_removed(context.pair, cast.line, base_len);
        if removed.is_empty() {
            continue;
        }
        let removed = LineSet::from_lines(removed);
        let (validations, complete) =
            validations(base.tree.root_node(), base_text, &removed, language);
        if !complete {
            context.mark_cut_short();
        }
        let Some(validation) = validations
            .iter()
            .find(|validation| checked(validation, &cast))
        else {
            continue;
        };
        // The check is still made on the new side (`schema.parse(x) as Order`): nothing lost.
        let squeezed = squeeze(head_text);
        let call = squeeze(&format!("{}({}", validation.callee, cast.value));
        // Or the cast is what the check now reads (`decode(data as ArrayBuffer)`).
        let call_of_cast = squeeze(&format!("{}({}", validation.callee, cast.text));
        if [")", ","]
            .iter()
            .any(|next| squeezed.contains(&format!("{call}{next}")))
            || squeezed.contains(&call_of_cast)
        {
            continue;
        }
        out.candidates.push(Candidate {
            side: Side::Head,
            line: cast.line,
            end_line: cast.line,
            severity: Severity::Error,
            message: format!(
                "validation `{}` (base line {}) was replaced by a cast `{}`: the type is now asserted, not checked",
                shorten(&validation.text, 60),
                validation.line,
                shorten(&cast.text, 60),
            ),
            key: format!("cast:{}:{}", validation.callee, squeeze(&cast.value)),
            moved: None,
            confidence: Confidence::Certain,
        });
    }
}

/// Whether the removed call checked the value the cast now asserts.
fn checked(validation: &Validation, cast: &Cast) -> bool {
    let value = squeeze(&cast.value);
    validation.arguments.iter().any(|argument| {
        let argument = squeeze(argument);
        argument == value
            // `Order(**data)` built (and validated) the model the cast now claims.
            || (argument.strip_prefix("**") == Some(value.as_str())
                && last_segment(&validation.callee) == cast.type_name)
    })
}

/// Calls whose name says they validate: the generic verbs, schema libraries' parse methods
/// (zod, yup) and pydantic's constructors and validators. `decode` is left out: it is as
/// often `new TextDecoder().decode(data)` as io-ts (msw 94fc78ea).
fn validates(callee: &str, language: Language) -> bool {
    static GENERIC: OnceLock<Regex> = OnceLock::new();
    let generic = GENERIC.get_or_init(|| {
        Regex::new(r"^_*(?i:validate|verify|check|ensure|assert|sanitize|authori[sz]e|authenticate)s?([A-Z_0-9].*)?$")
            .unwrap_or_else(|_| unreachable!("a constant pattern"))
    });
    let (receiver, name) = match callee.rsplit_once('.') {
        Some((receiver, name)) => (Some(receiver), name),
        None => (None, callee),
    };
    if generic.is_match(name) {
        return true;
    }
    match language {
        Language::Python => matches!(
            name,
            "model_validate"
                | "model_validate_json"
                | "model_validate_strings"
                | "parse_obj"
                | "parse_raw"
                | "validate_python"
                | "validate_json"
        ),
        _ => {
            // `JSON.parse`, `Date.parse`, `path.parse`: parsing text, not checking a shape.
            let not_schema = receiver.is_none_or(|receiver| {
                matches!(
                    last_segment(receiver),
                    "JSON"
                        | "Date"
                        | "Number"
                        | "path"
                        | "url"
                        | "URL"
                        | "qs"
                        | "querystring"
                        | "yaml"
                        | "YAML"
                        | "toml"
                        | "TOML"
                        | "semver"
                        | "JSON5"
                        | "csv"
                )
            });
            !not_schema
                && matches!(
                    name,
                    "parse" | "safeParse" | "parseAsync" | "safeParseAsync" | "validateSync"
                )
        }
    }
}

fn casts(root: Node<'_>, text: &str, lines: &LineSet, language: Language) -> (Vec<Cast>, bool) {
    let mut found = Vec::new();
    let complete = visit(root, lines, |node| {
        let start = node.start_position().row as u32 + 1;
        if !lines.contains(start) {
            return;
        }
        let source = |node: Node<'_>| text.get(node.byte_range()).unwrap_or_default().to_string();
        let cast = match (language, node.kind()) {
            (Language::Python, "call") => {
                let function = node.child_by_field_name("function").map(source);
                if !matches!(function.as_deref(), Some("cast" | "typing.cast" | "t.cast")) {
                    return;
                }
                let Some(arguments) = node.child_by_field_name("arguments") else {
                    return;
                };
                let mut cursor = arguments.walk();
                let named: Vec<Node<'_>> = arguments.named_children(&mut cursor).collect();
                let [type_node, value] = named[..] else {
                    return;
                };
                let type_name = source(type_node);
                Some((
                    source(value),
                    type_name.trim_matches(['"', '\'']).to_string(),
                ))
            }
            (_, "as_expression") if node.parent().is_none_or(|p| p.kind() != "as_expression") => {
                // `body as unknown as Order`: the value is the innermost expression.
                let mut inner = node;
                let mut hops = 0;
                while inner.kind() == "as_expression" && hops < 8 {
                    match inner.named_child(0) {
                        Some(child) => inner = child,
                        None => return,
                    }
                    hops += 1;
                }
                let type_name = node
                    .named_child(node.named_child_count().saturating_sub(1) as u32)
                    .map(source)
                    .unwrap_or_default();
                if type_name == "const" || type_name.is_empty() {
                    return;
                }
                Some((source(inner), type_name))
            }
            (_, "type_assertion") => {
                let type_name = node.named_child(0).map(source).unwrap_or_default();
                node.named_child(1).map(|value| {
                    (
                        source(value),
                        type_name.trim_matches(['<', '>']).to_string(),
                    )
                })
            }
            _ => None,
        };
        if let Some((value, type_name)) = cast {
            let type_name =
                last_segment(type_name.split('<').next().unwrap_or_default()).to_string();
            found.push(Cast {
                line: start,
                value,
                type_name,
                text: source(node),
            });
        }
    });
    (found, complete)
}

fn validations(
    root: Node<'_>,
    text: &str,
    lines: &LineSet,
    language: Language,
) -> (Vec<Validation>, bool) {
    let mut found = Vec::new();
    let complete = visit(root, lines, |node| {
        if !matches!(node.kind(), "call" | "call_expression") {
            return;
        }
        let start = node.start_position().row as u32 + 1;
        if !lines.contains(start) {
            return;
        }
        let source = |node: Node<'_>| text.get(node.byte_range()).unwrap_or_default().to_string();
        let (Some(function), Some(arguments)) = (
            node.child_by_field_name("function"),
            node.child_by_field_name("arguments"),
        ) else {
            return;
        };
        let callee = squeeze(&source(function));
        let is_model = language == Language::Python
            && last_segment(&callee).starts_with(|c: char| c.is_ascii_uppercase());
        if !is_model && !validates(&callee, language) {
            return;
        }
        let mut cursor = arguments.walk();
        let arguments: Vec<String> = arguments
            .named_children(&mut cursor)
            .filter(|argument| argument.kind() != "comment")
            .map(source)
            .collect();
        found.push(Validation {
            line: start,
            callee,
            arguments,
            text: source(node),
        });
    });
    (found, complete)
}

/// Visits the nodes that overlap `lines`, depth first, skipping subtrees that do not; at most
/// [`VISIT_BUDGET`] nodes. False when the budget ran out first.
fn visit<'t>(root: Node<'t>, lines: &LineSet, mut each: impl FnMut(Node<'t>)) -> bool {
    let mut cursor = root.walk();
    let mut visited = 0;
    loop {
        let node = cursor.node();
        let first = node.start_position().row as u32 + 1;
        let last = node.end_position().row as u32 + 1;
        let inside = lines.overlaps(first, last);
        if inside {
            each(node);
            visited += 1;
            if visited >= VISIT_BUDGET {
                return false;
            }
        }
        if inside && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return true;
            }
        }
    }
}

fn last_segment(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}
