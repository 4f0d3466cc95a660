//! What one side of one file says, read from the `test-fitted-code` query's matches: the
//! calls its tests check and the values they expect, its production functions' shapes, its
//! mocks and its test-runner detections.

use super::literal::{Lit, literal};
use crate::lang::Language;
use crate::query::QueryMatch;
use tree_sitter::Node;

/// Most matches of one kind read per side: a generated file can hold millions of asserts.
pub const MAX_PER_KIND: usize = 5000;

/// A call a test checks, with its literal arguments and the value it expects.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// The called function's bare name (`compute_tax` for `billing.compute_tax(..)`).
    pub callee: String,
    /// Each argument's canonical literal, `None` for a non-literal.
    pub args: Vec<Option<String>>,
    /// The expected value's canonical literal.
    pub expected: Option<String>,
    /// The test that checks it.
    pub test: String,
    /// The test's file (set by the caller).
    pub path: String,
    /// The object the function is called on (`billing` in `billing.compute_tax(..)`), if any.
    pub receiver: Option<String>,
    /// Byte range of the assertion.
    pub range: std::ops::Range<usize>,
}

/// What a production function's body amounts to, when it amounts to a literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The body only returns a literal.
    Constant(Lit),
    /// The first statement returns a literal; the rest of the body never runs.
    ShortCircuit(Lit),
    /// The body looks its argument up in a table of literals (`{3: 6}[n]`, `match n {..}`).
    Table(Vec<(String, String)>),
}

/// A branch on a parameter equal to a literal that returns a literal (`if n == 7: return 5040`).
#[derive(Clone, Debug)]
pub struct SpecialCase {
    /// The input literal the branch compares with.
    pub input: String,
    /// The literal it returns.
    pub output: String,
    /// 1-based line of the branch.
    pub line: u32,
}

/// A production function and what its body amounts to.
#[derive(Clone, Debug)]
pub struct Function {
    /// Bare name.
    pub name: String,
    /// Qualified name (pairs base and head).
    pub key: String,
    /// The shape and the 1-based line of the statement that makes it.
    pub shape: Option<(Shape, u32)>,
    /// Branches that special-case a literal input.
    pub special: Vec<SpecialCase>,
}

/// The text of a node.
pub fn text<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or_default()
}

/// The node a match reports.
pub fn node_of<'t>(root: Node<'t>, found: &QueryMatch) -> Option<Node<'t>> {
    let mut node = root.descendant_for_byte_range(found.byte_range.start, found.byte_range.end)?;
    while node.byte_range() != found.byte_range {
        node = node.parent()?;
    }
    Some(node)
}

/// Named children that are not comments.
fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|child| !child.kind().contains("comment"))
        .collect()
}

fn line(node: Node<'_>) -> u32 {
    u32::try_from(node.start_position().row + 1).unwrap_or(u32::MAX)
}

/// A call's bare callee name and literal arguments (`await` and Rust `?` looked through).
pub fn call_parts(node: Node<'_>, source: &str) -> Option<(String, Vec<Option<String>>)> {
    let node = match node.kind() {
        "await" | "await_expression" | "try_expression" | "parenthesized_expression" => {
            *children(node).first()?
        }
        _ => node,
    };
    if !matches!(node.kind(), "call" | "call_expression") {
        return None;
    }
    let function = node.child_by_field_name("function")?;
    let name = match function.kind() {
        "identifier" => text(function, source).to_string(),
        "attribute" => text(function.child_by_field_name("attribute")?, source).to_string(),
        "member_expression" => text(function.child_by_field_name("property")?, source).to_string(),
        "scoped_identifier" => text(function.child_by_field_name("name")?, source).to_string(),
        "field_expression" => text(function.child_by_field_name("field")?, source).to_string(),
        _ => return None,
    };
    let arguments = node.child_by_field_name("arguments")?;
    let args = children(arguments)
        .into_iter()
        .filter(|arg| arg.kind() != "keyword_argument")
        .map(|arg| literal(arg, source).map(|lit| lit.text))
        .collect();
    Some((name, args))
}

/// The object a call is made on: `billing` in `billing.compute_tax(1)`, `self.calc` in
/// `self.calc.total()`; `None` for a bare call.
pub fn receiver(node: Node<'_>, source: &str) -> Option<String> {
    let node = match node.kind() {
        "await" | "await_expression" | "try_expression" | "parenthesized_expression" => {
            *children(node).first()?
        }
        _ => node,
    };
    let function = node.child_by_field_name("function")?;
    let object = function
        .child_by_field_name("object")
        .or_else(|| function.child_by_field_name("value"))
        .or_else(|| function.child_by_field_name("path"))?;
    Some(text(object, source).to_string())
}

/// The two values an assertion compares, actual first when one side is a call.
fn compared<'t>(node: Node<'t>, source: &str, language: Language) -> Option<(Node<'t>, Node<'t>)> {
    match (language, node.kind()) {
        (Language::Python, "assert_statement") => {
            let comparison = *children(node).first()?;
            let operands = children(comparison);
            if operands.len() != 2 {
                return None;
            }
            let between = source.get(operands[0].end_byte()..operands[1].start_byte())?;
            (between.trim() == "==").then_some((operands[0], operands[1]))
        }
        (Language::Python, "call") => {
            let args = children(node.child_by_field_name("arguments")?);
            Some((*args.first()?, *args.get(1)?))
        }
        (_, "call_expression") => {
            let function = node.child_by_field_name("function")?;
            let object = function.child_by_field_name("object")?;
            let outer = children(node.child_by_field_name("arguments")?);
            if object.kind() == "call_expression" {
                // expect(actual).toBe(expected)
                let inner = children(object.child_by_field_name("arguments")?);
                Some((*inner.first()?, *outer.first()?))
            } else {
                // assert.equal(actual, expected)
                Some((*outer.first()?, *outer.get(1)?))
            }
        }
        _ => None,
    }
}

/// The expectation an assertion states, when it compares a call with a literal.
pub fn expectation(
    node: Node<'_>,
    source: &str,
    language: Language,
    test: &str,
) -> Option<Expectation> {
    if language == Language::Rust {
        return rust_expectation(node, source, test);
    }
    let (a, b) = compared(node, source, language)?;
    let (call, value) = match resolve_call(a, node, source) {
        Some(call) => (call, b),
        None => (resolve_call(b, node, source)?, a),
    };
    let (callee, args) = call_parts(call, source)?;
    Some(Expectation {
        callee,
        args,
        expected: literal(value, source).map(|lit| lit.text),
        test: test.to_string(),
        path: String::new(),
        receiver: receiver(call, source),
        range: node.byte_range(),
    })
}

/// A call, or the call a local variable was assigned from before `anchor`
/// (`result = f(7)` then `assert result == 5040`).
fn resolve_call<'t>(node: Node<'t>, anchor: Node<'t>, source: &str) -> Option<Node<'t>> {
    if call_parts(node, source).is_some() {
        return Some(node);
    }
    if node.kind() != "identifier" {
        return None;
    }
    assigned_call(anchor, text(node, source), source)
}

/// The call last assigned to `name` before `anchor` in the function around it.
fn assigned_call<'t>(anchor: Node<'t>, name: &str, source: &str) -> Option<Node<'t>> {
    const MAX_NODES: usize = 4000;
    let mut scope = anchor.parent();
    while let Some(candidate) = scope {
        if matches!(
            candidate.kind(),
            "function_definition"
                | "function_item"
                | "arrow_function"
                | "function_expression"
                | "function_declaration"
                | "method_definition"
        ) {
            break;
        }
        scope = candidate.parent();
    }
    let mut stack = vec![scope?];
    let mut visited = 0;
    let mut best: Option<Node<'t>> = None;
    while let Some(current) = stack.pop() {
        visited += 1;
        if visited > MAX_NODES {
            break;
        }
        if current.start_byte() >= anchor.start_byte() {
            continue;
        }
        let (left, right) = match current.kind() {
            "assignment" => (
                current.child_by_field_name("left"),
                current.child_by_field_name("right"),
            ),
            "variable_declarator" => (
                current.child_by_field_name("name"),
                current.child_by_field_name("value"),
            ),
            "let_declaration" => (
                current.child_by_field_name("pattern"),
                current.child_by_field_name("value"),
            ),
            _ => (None, None),
        };
        if let (Some(left), Some(right)) = (left, right)
            && text(left, source) == name
            && call_parts(right, source).is_some()
            && best.is_none_or(|best| best.start_byte() < right.start_byte())
        {
            best = Some(right);
        }
        let mut cursor = current.walk();
        stack.extend(current.named_children(&mut cursor));
    }
    best
}

/// `assert_eq!(f(3), 6)`: the macro's tokens are not parsed, so its arguments are parsed
/// again as a Rust tuple expression.
fn rust_expectation(node: Node<'_>, source: &str, test: &str) -> Option<Expectation> {
    const MAX_ARGS_BYTES: usize = 4096;
    let tokens = children(node)
        .into_iter()
        .find(|child| child.kind() == "token_tree")?;
    let inner = text(tokens, source);
    if inner.len() > MAX_ARGS_BYTES {
        return None;
    }
    let wrapped = format!("fn f() {{ {inner}; }}");
    let parsed = crate::lang::parse(Language::Rust, wrapped.clone()).ok()?;
    let root = parsed.tree.root_node();
    let tuple = find_kind(root, "tuple_expression", 6)?;
    let parts = children(tuple);
    let (a, b) = (*parts.first()?, *parts.get(1)?);
    // The call is in the macro's tokens, or a `let` before the macro assigned it.
    let in_macro =
        |n: Node<'_>| call_parts(n, &wrapped).map(|parts| (parts, receiver(n, &wrapped)));
    let assigned = |n: Node<'_>| {
        (n.kind() == "identifier")
            .then(|| assigned_call(node, text(n, &wrapped), source))
            .flatten()
            .and_then(|call| Some((call_parts(call, source)?, receiver(call, source))))
    };
    let (((callee, args), receiver), value) = match in_macro(a).or_else(|| assigned(a)) {
        Some(found) => (found, b),
        None => (in_macro(b).or_else(|| assigned(b))?, a),
    };
    Some(Expectation {
        callee,
        args,
        expected: literal(value, &wrapped).map(|lit| lit.text),
        test: test.to_string(),
        path: String::new(),
        receiver,
        range: node.byte_range(),
    })
}

/// The first node of `kind` within `depth` levels.
fn find_kind<'t>(node: Node<'t>, kind: &str, depth: usize) -> Option<Node<'t>> {
    if node.kind() == kind {
        return Some(node);
    }
    if depth == 0 {
        return None;
    }
    for index in 0..u32::try_from(node.named_child_count()).unwrap_or(u32::MAX) {
        if let Some(found) = node
            .named_child(index)
            .and_then(|child| find_kind(child, kind, depth - 1))
        {
            return Some(found);
        }
    }
    None
}

/// The statements of a function's body (a Python docstring set aside), and whether the body
/// is an expression (an arrow function's `=> 42`).
fn body_statements<'t>(function: Node<'t>, source: &str) -> Option<Vec<Node<'t>>> {
    let function = match function.kind() {
        "variable_declarator" => function.child_by_field_name("value")?,
        _ => function,
    };
    let body = function.child_by_field_name("body")?;
    if !matches!(body.kind(), "block" | "statement_block") {
        return Some(vec![body]);
    }
    // Statements that only discard a value (`let _ = x;`, `_ = x`, `void x;`) silence an
    // unused-parameter warning; they do not make a constant body compute anything.
    let discards = |statement: &Node<'t>| -> bool {
        let shown = text(*statement, source).trim();
        shown.starts_with("let _ =")
            || shown.starts_with("_ =")
            || shown.starts_with("void ")
            || shown.starts_with("del ")
    };
    let mut statements: Vec<Node<'t>> = children(body)
        .into_iter()
        .filter(|statement| !discards(statement))
        .collect();
    if let Some(first) = statements.first()
        && first.kind() == "expression_statement"
        && children(*first)
            .first()
            .is_some_and(|s| s.kind() == "string")
    {
        statements.remove(0);
    }
    Some(statements)
}

/// The literal a statement returns: `return 42`, Rust's tail `42`, an arrow's `=> 42`.
fn returned(statement: Node<'_>, source: &str) -> Option<Lit> {
    match statement.kind() {
        "return_statement" | "return_expression" => literal(*children(statement).first()?, source),
        "expression_statement" => {
            let inner = *children(statement).first()?;
            if inner.kind() == "return_expression" {
                return returned(inner, source);
            }
            // Rust: `42;` is not a tail expression, a statement whose value is dropped.
            None
        }
        _ => literal(statement, source),
    }
}

/// A table lookup of the argument: `return {3: 6}[n]`, `return TABLE.get(n)` with the table
/// literal in the body, or a Rust `match n { 3 => 6, .. }` with literal arms.
fn table(statements: &[Node<'_>], source: &str) -> Option<Vec<(String, String)>> {
    let last = *statements.last()?;
    let value = match last.kind() {
        "return_statement" | "return_expression" => *children(last).first()?,
        "expression_statement" => {
            let inner = *children(last).first()?;
            match inner.kind() {
                "return_expression" => *children(inner).first()?,
                // Rust: a tail `match` parses as a statement of its own.
                "match_expression" => inner,
                _ => return None,
            }
        }
        _ => last,
    };
    match value.kind() {
        "subscript" | "subscript_expression" => {
            let object = value
                .child_by_field_name("value")
                .or_else(|| value.child_by_field_name("object"))?;
            entries(object, statements, source)
        }
        "call" | "call_expression" => {
            let function = value.child_by_field_name("function")?;
            let object = function
                .child_by_field_name("object")
                .or_else(|| function.child_by_field_name("value"))?;
            entries(object, statements, source)
        }
        "match_expression" => {
            let body = value.child_by_field_name("body")?;
            let mut pairs = Vec::new();
            for arm in children(body) {
                let pattern = arm.child_by_field_name("pattern")?;
                let result = arm.child_by_field_name("value")?;
                let result = literal(result, source)?.text;
                let key = children(pattern).first().and_then(|p| literal(*p, source));
                if let Some(key) = key {
                    pairs.push((key.text, result));
                } else if text(pattern, source).trim() != "_" {
                    return None;
                }
            }
            (pairs.len() >= 2).then_some(pairs)
        }
        _ => None,
    }
}

/// A dict/object literal's entries, written inline or assigned to a name in the body.
fn entries(
    object: Node<'_>,
    statements: &[Node<'_>],
    source: &str,
) -> Option<Vec<(String, String)>> {
    let table = match object.kind() {
        "dictionary" | "object" => object,
        "identifier" => {
            let name = text(object, source);
            statements.iter().find_map(|statement| {
                let assigned = find_kind(*statement, "assignment", 2)
                    .or_else(|| find_kind(*statement, "variable_declarator", 2))?;
                let left = assigned
                    .child_by_field_name("left")
                    .or_else(|| assigned.child_by_field_name("name"))?;
                let right = assigned
                    .child_by_field_name("right")
                    .or_else(|| assigned.child_by_field_name("value"))?;
                (text(left, source) == name).then_some(right)
            })?
        }
        _ => return None,
    };
    if !matches!(table.kind(), "dictionary" | "object") {
        return None;
    }
    let mut pairs = Vec::new();
    for pair in children(table) {
        let key = pair.child_by_field_name("key")?;
        let value = pair.child_by_field_name("value")?;
        let key = match key.kind() {
            "property_identifier" => format!("{:?}", text(key, source)),
            _ => literal(key, source)?.text,
        };
        pairs.push((key, literal(value, source)?.text));
    }
    (pairs.len() >= 2).then_some(pairs)
}

/// Branches `if <param> == <literal>: return <literal>` among the statements (not nested).
fn special_cases(statements: &[Node<'_>], source: &str) -> Vec<SpecialCase> {
    let mut found = Vec::new();
    for statement in statements {
        let statement = match statement.kind() {
            "expression_statement" => children(*statement).first().copied().unwrap_or(*statement),
            _ => *statement,
        };
        if !matches!(statement.kind(), "if_statement" | "if_expression") {
            continue;
        }
        let Some(condition) = statement.child_by_field_name("condition") else {
            continue;
        };
        let Some(consequence) = statement.child_by_field_name("consequence") else {
            continue;
        };
        let inner = children(consequence);
        let output = match inner.as_slice() {
            [only] => returned(*only, source).or_else(|| {
                children(*only)
                    .first()
                    .and_then(|child| returned(*child, source))
            }),
            _ => None,
        };
        let Some(output) = output else {
            continue;
        };
        for input in compared_inputs(condition, source) {
            found.push(SpecialCase {
                input,
                output: output.text.clone(),
                line: line(statement),
            });
        }
    }
    found
}

/// The literals a condition compares a name with: `n == 7`, `7 === n`, `n in (7, 8)`,
/// `a == 2 and b == 3`.
fn compared_inputs(condition: Node<'_>, source: &str) -> Vec<String> {
    let condition = match condition.kind() {
        "parenthesized_expression" => children(condition).first().copied().unwrap_or(condition),
        _ => condition,
    };
    let mut inputs = Vec::new();
    match condition.kind() {
        "comparison_operator" => {
            let operands = children(condition);
            if let [a, b] = operands.as_slice() {
                let between = source
                    .get(a.end_byte()..b.start_byte())
                    .unwrap_or_default()
                    .trim();
                let (name, value) = if a.kind() == "identifier" {
                    (*a, *b)
                } else {
                    (*b, *a)
                };
                if name.kind() == "identifier" {
                    match between {
                        "==" => inputs.extend(literal(value, source).map(|lit| lit.text)),
                        "in" if matches!(value.kind(), "tuple" | "list" | "set") => {
                            for item in children(value) {
                                inputs.extend(literal(item, source).map(|lit| lit.text));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        "binary_expression" => {
            let (Some(left), Some(right)) = (
                condition.child_by_field_name("left"),
                condition.child_by_field_name("right"),
            ) else {
                return inputs;
            };
            let operator = condition
                .child_by_field_name("operator")
                .map(|op| text(op, source))
                .unwrap_or_default();
            match operator {
                "==" | "===" => {
                    let (name, value) = if left.kind() == "identifier" {
                        (left, right)
                    } else {
                        (right, left)
                    };
                    if name.kind() == "identifier" {
                        inputs.extend(literal(value, source).map(|lit| lit.text));
                    }
                }
                "&&" | "||" => {
                    inputs.extend(compared_inputs(left, source));
                    inputs.extend(compared_inputs(right, source));
                }
                _ => {}
            }
        }
        "boolean_operator" => {
            for side in ["left", "right"] {
                if let Some(side) = condition.child_by_field_name(side) {
                    inputs.extend(compared_inputs(side, source));
                }
            }
        }
        _ => {}
    }
    inputs
}

/// Reads a production function.
pub fn function(node: Node<'_>, source: &str, name: &str, key: &str) -> Option<Function> {
    let statements = body_statements(node, source)?;
    let shape = match statements.as_slice() {
        [] => None,
        [only] => returned(*only, source)
            .map(|lit| (Shape::Constant(lit), line(*only)))
            .or_else(|| table(&statements, source).map(|t| (Shape::Table(t), line(*only)))),
        [first, ..] => returned(*first, source)
            .map(|lit| (Shape::ShortCircuit(lit), line(*first)))
            .or_else(|| table(&statements, source).map(|t| (Shape::Table(t), line(*first)))),
    };
    Some(Function {
        name: name.to_string(),
        key: key.to_string(),
        shape,
        special: special_cases(&statements, source),
    })
}
