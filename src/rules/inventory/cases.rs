//! Parametrized cases of one test: `pytest.mark.parametrize` rows, `.each` table rows,
//! `#[test_case]`/`#[case]` attributes. Each row is identified by its text without whitespace
//! (or its `id=`), so reordering rows keeps every identity.

use super::{squash, text_of};
use crate::lang::Language;
use tree_sitter::Node;

/// Most cases expanded for one test; more is a generated table, kept as one test.
const MAX_CASES: usize = 256;

/// The cases of a parametrized test with the line of each row, or nothing.
pub fn cases(node: Node<'_>, source: &str, language: Language) -> Vec<(String, u32)> {
    let dimensions: Vec<Vec<(String, u32)>> = match language {
        Language::Python => python_parametrize(node, source),
        Language::Rust => rust_case_attributes(node, source),
        _ => js_each_rows(node, source).into_iter().collect(),
    };
    let mut product: Vec<(String, u32)> = Vec::new();
    for dimension in dimensions.into_iter().filter(|rows| !rows.is_empty()) {
        if product.is_empty() {
            product = dimension;
            continue;
        }
        if product.len() * dimension.len() > MAX_CASES {
            return Vec::new();
        }
        product = product
            .iter()
            .flat_map(|(left, line)| {
                dimension
                    .iter()
                    .map(move |(right, _)| (format!("{left}-{right}"), *line))
            })
            .collect();
    }
    product.truncate(MAX_CASES);
    product
}

fn line_of(node: Node<'_>) -> u32 {
    u32::try_from(node.start_position().row)
        .unwrap_or(u32::MAX - 1)
        .saturating_add(1)
}

/// Rows of each `@pytest.mark.parametrize(names, [rows])` decorator on the function.
fn python_parametrize(node: Node<'_>, source: &str) -> Vec<Vec<(String, u32)>> {
    let Some(decorated) = node.parent().filter(|p| p.kind() == "decorated_definition") else {
        return Vec::new();
    };
    let mut dimensions = Vec::new();
    let mut cursor = decorated.walk();
    for decorator in decorated.named_children(&mut cursor) {
        if decorator.kind() != "decorator" {
            continue;
        }
        let Some(call) = decorator.named_child(0).filter(|c| c.kind() == "call") else {
            continue;
        };
        let callee = call
            .child_by_field_name("function")
            .map(|callee| text_of(callee, source))
            .unwrap_or_default();
        if !callee.ends_with("parametrize") {
            continue;
        }
        let Some(arguments) = call.child_by_field_name("arguments") else {
            continue;
        };
        let mut positional = 0;
        let mut table = None;
        let mut arg_cursor = arguments.walk();
        for argument in arguments.named_children(&mut arg_cursor) {
            if argument.kind() == "keyword_argument" {
                let name = argument
                    .child_by_field_name("name")
                    .map(|name| text_of(name, source));
                if name == Some("argvalues") {
                    table = argument.child_by_field_name("value");
                }
                continue;
            }
            if argument.kind() == "comment" {
                continue;
            }
            if positional == 1 {
                table = Some(argument);
            }
            positional += 1;
        }
        // `parametrize("case", CASES)`: the rows of a list assigned at the module's top level.
        let table = match table {
            Some(name) if name.kind() == "identifier" => {
                module_list(node, text_of(name, source), source)
            }
            other => other,
        };
        let Some(table) = table.filter(|t| matches!(t.kind(), "list" | "tuple")) else {
            continue;
        };
        let mut rows = Vec::new();
        let mut row_cursor = table.walk();
        for row in table.named_children(&mut row_cursor) {
            if row.kind() == "comment" {
                continue;
            }
            rows.push((python_row_id(row, source), line_of(row)));
        }
        dimensions.push(rows);
    }
    dimensions
}

/// The list or tuple assigned to `name` at the top level of the module holding `node`
/// (`CASES = [Case(..), ..]`, also annotated: `CASES: list[Case] = [..]`); the last such
/// assignment wins, as it would at import.
fn module_list<'t>(node: Node<'t>, name: &str, source: &str) -> Option<Node<'t>> {
    let mut root = node;
    while let Some(parent) = root.parent() {
        root = parent;
    }
    let mut found = None;
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        let Some(assignment) = statement
            .named_child(0)
            .filter(|_| statement.kind() == "expression_statement")
            .filter(|child| child.kind() == "assignment")
        else {
            continue;
        };
        let target = assignment.child_by_field_name("left");
        if target
            .is_some_and(|target| target.kind() == "identifier" && text_of(target, source) == name)
        {
            found = assignment.child_by_field_name("right");
        }
    }
    found
}

/// `pytest.param(.., id="x")` is identified by its id; any other row by its text.
fn python_row_id(row: Node<'_>, source: &str) -> String {
    if row.kind() == "call"
        && let Some(arguments) = row.child_by_field_name("arguments")
    {
        let mut cursor = arguments.walk();
        for argument in arguments.named_children(&mut cursor) {
            if argument.kind() == "keyword_argument"
                && argument
                    .child_by_field_name("name")
                    .is_some_and(|name| text_of(name, source) == "id")
                && let Some(value) = argument.child_by_field_name("value")
            {
                return squash(text_of(value, source));
            }
        }
    }
    squash(text_of(row, source))
}

/// Rows of `it.each([..])(..)` / `it.each\`table\`(..)` when the table is literal.
fn js_each_rows(node: Node<'_>, source: &str) -> Option<Vec<(String, u32)>> {
    let inner = node
        .child_by_field_name("function")
        .filter(|f| f.kind() == "call_expression")?;
    let table = match inner.child_by_field_name("arguments") {
        Some(arguments) if arguments.kind() == "template_string" => arguments,
        Some(arguments) => arguments.named_child(0)?,
        None => return None,
    };
    match table.kind() {
        "array" => {
            let mut cursor = table.walk();
            let rows = table
                .named_children(&mut cursor)
                .filter(|row| row.kind() != "comment")
                .map(|row| (squash(text_of(row, source)), line_of(row)))
                .collect();
            Some(rows)
        }
        "template_string" => {
            let first_line = line_of(table);
            let rows = text_of(table, source)
                .trim_matches('`')
                .lines()
                .enumerate()
                .filter(|(_, line)| !line.trim().is_empty())
                .skip(1)
                .map(|(index, line)| {
                    let offset = u32::try_from(index).unwrap_or(0);
                    (squash(line), first_line + offset)
                })
                .collect();
            Some(rows)
        }
        _ => None,
    }
}

/// The case rows of the function `name` in the file that holds `node` (an rstest_reuse
/// template). Only top-level items and one level of modules are searched: templates live there.
fn template_cases(node: Node<'_>, source: &str, name: &str) -> Option<Vec<(String, u32)>> {
    let mut root = node;
    while let Some(parent) = root.parent() {
        root = parent;
    }
    let mut items: Vec<Node<'_>> = Vec::new();
    let mut cursor = root.walk();
    for child in root.named_children(&mut cursor) {
        if child.kind() == "mod_item"
            && let Some(body) = child.child_by_field_name("body")
        {
            let mut inner = body.walk();
            items.extend(body.named_children(&mut inner));
        } else {
            items.push(child);
        }
    }
    let template = items.into_iter().find(|item| {
        item.kind() == "function_item"
            && item
                .child_by_field_name("name")
                .is_some_and(|found| text_of(found, source) == name)
            && item.id() != node.id()
    })?;
    // The template's own attributes (not another `apply`: no recursion).
    let rows = case_rows(template, source, false);
    (!rows.is_empty()).then_some(rows)
}

/// `#[test_case(..)]` / `#[case(..)]` / `#[case::name(..)]` attributes right before the
/// function, one dimension.
fn rust_case_attributes(node: Node<'_>, source: &str) -> Vec<Vec<(String, u32)>> {
    let rows = case_rows(node, source, true);
    if rows.is_empty() {
        Vec::new()
    } else {
        vec![rows]
    }
}

/// The case rows before the function `node`, following `#[apply(..)]` when `follow_apply`.
fn case_rows(node: Node<'_>, source: &str, follow_apply: bool) -> Vec<(String, u32)> {
    let mut rows = Vec::new();
    let mut current = node.prev_named_sibling();
    while let Some(sibling) = current {
        match sibling.kind() {
            "attribute_item" => {
                let text = squash(text_of(sibling, source));
                let inner = text
                    .strip_prefix("#[")
                    .and_then(|rest| rest.strip_suffix(']'))
                    .unwrap_or_default();
                // rstest names its cases `#[case::name(..)]`; the name is part of the row.
                let named = inner
                    .strip_prefix("case::")
                    .and_then(|rest| rest.split_once('('))
                    .filter(|(name, _)| name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                    .map(|(name, arguments)| (format!("{name}:"), arguments));
                let plain = ["test_case(", "case("]
                    .iter()
                    .find_map(|name| inner.strip_prefix(name))
                    .map(|arguments| (String::new(), arguments));
                if let Some((name, arguments)) = named.or(plain) {
                    let arguments = arguments.strip_suffix(')').unwrap_or(arguments);
                    rows.push((format!("{name}{arguments}"), line_of(sibling)));
                }
                // rstest_reuse: `#[apply(template)]` takes the cases of the `#[template]`
                // function of that name in this file.
                if follow_apply
                    && let Some(template) = inner
                        .strip_prefix("apply(")
                        .and_then(|rest| rest.strip_suffix(')'))
                    && let Some(template_rows) = template_cases(node, source, template)
                {
                    rows.extend(template_rows);
                }
            }
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        current = sibling.prev_named_sibling();
    }
    rows.reverse();
    rows
}
