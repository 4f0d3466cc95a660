//! Reads each handler the `empty-catch` queries found and decides whether it swallows the error
//! (JavaScript/TypeScript `catch` and promise handlers, Python `except` and `suppress`, Rust
//! `Err(_)` arms). Pure syntax: pairing with base happens in the parent module.

use super::caught::{self, Caught};
use super::normalize;
use crate::finding::Side;
use crate::lang::{Language, Parsed};
use crate::query::QueryMatch;
use crate::rules::FileContext;
use regex::Regex;
use std::sync::OnceLock;
use tree_sitter::Node;

/// One error handler on one side.
pub struct Handler {
    /// 1-based lines of the reported node.
    pub line: u32,
    /// Last line.
    pub end_line: u32,
    /// Enclosing scope key from the query engine.
    pub scope: String,
    /// What the handler catches, normalized (`except ValueError`, `catch(e)`, the promise).
    pub signature: String,
    /// The whole handler, normalized: pairs identical handlers between base and head.
    pub identity: String,
    /// Lines of the handler's body, for "the change removed what it did".
    pub body_lines: (u32, u32),
    /// First line of the code the handler protects, trimmed (for "wrapped existing code").
    pub protected_first_line: Option<String>,
    /// Whether the protected code asserts that an exception happens (`fail()` after the call).
    pub asserts_exception: bool,
    /// The protected code only returns or assigns, and code after the `try` continues: the
    /// "try this, else fall back" idiom, where the failure stays observable.
    pub fallback: bool,
    /// The code the handler guards, normalized: the `try` body, the call a promise handler is
    /// chained to, the expression a Rust `match` inspects. A base and a head handler at the
    /// same place are one handler rewritten, however differently they are spelled.
    pub place: Option<String>,
    /// What it catches.
    pub caught: Caught,
    /// The body lets the failure out (raises, logs, uses the error, returns a failure). When
    /// false the handler swallowed the error already, whatever else it did.
    pub lets_failure_out: bool,
    /// Set when the handler swallows the error.
    pub swallow: Option<Swallow>,
}

/// How a handler swallows the error.
pub struct Swallow {
    /// Description for the message: "empty `catch` block".
    pub what: String,
    /// The body holds an explanatory comment.
    pub commented: bool,
    /// `except ImportError: pass`: at most a note.
    pub import_fallback: bool,
    /// Reported only with strong evidence (a broad `except` that returns `None`).
    pub needs_evidence: bool,
}

/// Handlers on `side`.
pub fn collect(context: &FileContext<'_>, side: Side, language: Language) -> Vec<Handler> {
    let Some(parsed) = context.parsed(side) else {
        return Vec::new();
    };
    let matches = context.matches(side, "empty-catch");
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for found in matches.iter() {
        if !seen.insert((found.byte_range.start, found.byte_range.end)) {
            continue;
        }
        let Some(kind) = found.property("kind") else {
            continue;
        };
        let node_kind = match kind {
            "catch" => "catch_clause",
            "promise-catch" | "promise-then" => "call_expression",
            "except" => "except_clause",
            "suppress" => "with_statement",
            "err-arm" => "match_arm",
            _ => continue,
        };
        let Some(node) = node_at(parsed, found, node_kind) else {
            continue;
        };
        let source = parsed.text.as_str();
        let handler = match (language, kind) {
            (Language::Python, "except") => python_except(node, source),
            (Language::Python, "suppress") => python_suppress(node, source),
            (Language::Rust, "err-arm") => rust_err_arm(node, source),
            (_, "catch") => js_catch(node, source),
            (_, "promise-catch") => js_promise(node, source, 0, "`.catch()` handler"),
            (_, "promise-then") => js_promise(node, source, 1, "`.then()` rejection handler"),
            _ => None,
        };
        if let Some(mut handler) = handler {
            handler.line = found.line;
            handler.end_line = found.end_line;
            handler.scope = found.key.clone();
            out.push(handler);
        }
    }
    out
}

/// The node of `kind` whose range is the match's `@finding` range.
pub fn node_at<'t>(parsed: &'t Parsed, found: &QueryMatch, kind: &str) -> Option<Node<'t>> {
    let range = &found.byte_range;
    let mut node = parsed
        .tree
        .root_node()
        .descendant_for_byte_range(range.start, range.end)?;
    while node.kind() != kind {
        node = node.parent()?;
        if node.byte_range() != *range {
            return None;
        }
    }
    Some(node)
}

fn text<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or_default()
}

fn lines(node: Node<'_>) -> (u32, u32) {
    let row = |row: usize| u32::try_from(row).unwrap_or(u32::MAX - 1) + 1;
    (row(node.start_position().row), row(node.end_position().row))
}

fn is_comment_kind(kind: &str) -> bool {
    matches!(kind, "comment" | "line_comment" | "block_comment")
}

/// Named children that are not comments, and whether any comment was seen.
fn statements(block: Node<'_>) -> (Vec<Node<'_>>, bool) {
    let mut cursor = block.walk();
    let mut out = Vec::new();
    let mut commented = false;
    for child in block.named_children(&mut cursor) {
        if is_comment_kind(child.kind()) {
            commented = true;
        } else {
            out.push(child);
        }
    }
    (out, commented)
}

/// `fail()` / `assert False` / "should have thrown" in the protected code: a test asserting
/// that the call raises, where the empty handler is the expected path.
fn asserts_exception(protected: &str) -> bool {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            Regex::new(
                r"(?i)\b(?:fail|assert\.fail|expect\.fail|pytest\.fail|assertTrue\(\s*False|assert\s+False|assert\(\s*false|unreachable)\b|should\s+(?:have\s+)?(?:thrown|raised|failed)|did\s*n[o']t\s+(?:throw|raise)|expected\s+(?:an?\s+)?(?:error|exception)",
            )
            .ok()
        })
        .as_ref()
        .is_some_and(|pattern| pattern.is_match(protected))
}

/// `try { return parse(x) } catch {}  return fallback`, `try: value = int(x) except: pass`
/// followed by more code: the protected code only returns or assigns, so a failure leaves the
/// value unset or falls through to the code after the `try`, which handles it.
fn is_fallback(try_statement: Option<Node<'_>>, protected: Option<Node<'_>>) -> bool {
    let (Some(try_statement), Some(protected)) = (try_statement, protected) else {
        return false;
    };
    let (statements, _) = statements(protected);
    let only_returns_or_assigns = !statements.is_empty()
        && statements.iter().all(|statement| match statement.kind() {
            "return_statement" | "lexical_declaration" | "variable_declaration" => true,
            "expression_statement" => statement.named_child(0).is_some_and(|inner| {
                matches!(
                    inner.kind(),
                    "assignment_expression" | "assignment" | "augmented_assignment"
                )
            }),
            _ => false,
        });
    only_returns_or_assigns && code_follows(try_statement)
}

/// Whether a statement after `node` runs in the same function (also after enclosing blocks).
fn code_follows(node: Node<'_>) -> bool {
    let mut current = node;
    loop {
        let mut next = current.next_named_sibling();
        while let Some(sibling) = next.filter(|sibling| is_comment_kind(sibling.kind())) {
            next = sibling.next_named_sibling();
        }
        if next.is_some() {
            return true;
        }
        let Some(parent) = current.parent() else {
            return false;
        };
        if matches!(
            parent.kind(),
            "function_declaration"
                | "function_expression"
                | "arrow_function"
                | "method_definition"
                | "function_definition"
                | "generator_function_declaration"
                | "class_body"
                | "program"
                | "module"
        ) {
            return false;
        }
        current = parent;
    }
}

fn first_statement_line(block: Option<Node<'_>>, source: &str) -> Option<String> {
    let (statements, _) = statements(block?);
    let first = statements.first()?;
    text(*first, source)
        .lines()
        .next()
        .map(|line| line.trim().to_string())
        .filter(|line| line.len() > 3)
}

fn handler(node: Node<'_>, source: &str, signature: String, body: Option<Node<'_>>) -> Handler {
    Handler {
        line: 0,
        end_line: 0,
        scope: String::new(),
        signature,
        identity: normalize(text(node, source)),
        body_lines: body.map_or_else(|| lines(node), lines),
        protected_first_line: None,
        asserts_exception: false,
        fallback: false,
        place: None,
        caught: Caught::Everything,
        lets_failure_out: true,
        swallow: None,
    }
}

fn js_catch(node: Node<'_>, source: &str) -> Option<Handler> {
    let body = node.child_by_field_name("body")?;
    let parameter = node
        .child_by_field_name("parameter")
        .map(|parameter| text(parameter, source))
        .unwrap_or_default();
    let mut found = handler(node, source, format!("catch({parameter})"), Some(body));
    // The binding is not the handler: `catch (e) {}` → `catch {}` (optional catch binding)
    // leaves the same empty handler in place.
    found.identity = format!("catch{}", normalize(text(body, source)));
    let try_statement = node
        .parent()
        .filter(|parent| parent.kind() == "try_statement");
    let protected = try_statement.and_then(|parent| parent.child_by_field_name("body"));
    found.protected_first_line = first_statement_line(protected, source);
    found.asserts_exception = protected.is_some_and(|block| asserts_exception(text(block, source)));
    found.fallback = is_fallback(try_statement, protected);
    found.place = protected.map(|block| normalize(text(block, source)));
    let bindings = caught::bindings(node.child_by_field_name("parameter"), source);
    found.lets_failure_out = caught::lets_failure_out(body, source, &bindings);
    let (statements, commented) = statements(body);
    if statements.is_empty() {
        found.swallow = Some(Swallow {
            what: if commented {
                "`catch` block with only a comment".to_string()
            } else {
                "empty `catch` block".to_string()
            },
            commented,
            import_fallback: false,
            needs_evidence: false,
        });
    } else if let [only] = statements.as_slice()
        && let Some(value) = fallback_return(*only, source)
    {
        // `catch (e) { return []; }` around code that ran unprotected in base: the error
        // became an empty result, a disguised swallow.
        found.swallow = Some(Swallow {
            what: format!("`catch` that returns `{value}`"),
            commented,
            import_fallback: false,
            needs_evidence: true,
        });
    }
    Some(found)
}

/// The value of a `return` that stands in for a result: an empty collection or string, a
/// zero, `false`, `null`/`undefined`/`None`, or a parameter of the enclosing function (the
/// input handed back unconverted). `return` statements of other values are real handling.
fn fallback_return<'s>(statement: Node<'_>, source: &'s str) -> Option<&'s str> {
    if statement.kind() != "return_statement" {
        return None;
    }
    let value = statement.named_child(0)?;
    let shown = text(value, source).trim();
    let constant = matches!(
        normalize(shown).as_str(),
        "[]" | "{}"
            | "()"
            | "\"\""
            | "''"
            | "``"
            | "0"
            | "-1"
            | "false"
            | "False"
            | "null"
            | "undefined"
            | "None"
            | "[]asconst"
            | "new Map()"
            | "newMap()"
            | "newSet()"
            | "dict()"
            | "list()"
            | "set()"
    );
    let parameter = matches!(value.kind(), "identifier") && is_parameter(statement, shown, source);
    (constant || parameter).then_some(shown)
}

/// Whether `name` is a parameter of the function around `node` (a bounded climb).
fn is_parameter(node: Node<'_>, name: &str, source: &str) -> bool {
    let mut current = node.parent();
    for _ in 0..64 {
        let Some(scope) = current else {
            return false;
        };
        if matches!(
            scope.kind(),
            "function_definition"
                | "function_declaration"
                | "method_definition"
                | "arrow_function"
                | "function_expression"
                | "function"
        ) {
            return scope
                .child_by_field_name("parameters")
                .or_else(|| scope.child_by_field_name("parameter"))
                .is_some_and(|parameters| {
                    text(parameters, source)
                        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                        .any(|word| word == name)
                });
        }
        current = scope.parent();
    }
    false
}

/// `.catch(h)` (argument 0) or `.then(ok, h)` (argument 1).
fn js_promise(node: Node<'_>, source: &str, index: usize, what: &str) -> Option<Handler> {
    let arguments = node.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let args: Vec<Node<'_>> = arguments
        .named_children(&mut cursor)
        .filter(|child| !is_comment_kind(child.kind()))
        .collect();
    let callback = *args.get(index)?;
    let receiver = node
        .child_by_field_name("function")
        .and_then(|function| function.child_by_field_name("object"))
        .map(|object| normalize(text(object, source)))
        .unwrap_or_default();
    let mut found = handler(node, source, format!("promise:{receiver}"), Some(callback));
    // The promise's call, without its arguments, and the handler: `save(a).catch(noop)` →
    // `save(b).catch(noop)` leaves the same handler on the same call.
    let callee = receiver.split('(').next().unwrap_or_default();
    found.identity = format!("{callee}..{}", normalize(text(arguments, source)));
    found.place = Some(format!("{callee}.."));
    let (swallows, commented) = match callback.kind() {
        "arrow_function" | "function_expression" | "function" => {
            let parameters = callback
                .child_by_field_name("parameter")
                .or_else(|| callback.child_by_field_name("parameters"));
            let bindings = caught::bindings(parameters, source);
            found.lets_failure_out = callback
                .child_by_field_name("body")
                .is_none_or(|body| caught::lets_failure_out(body, source, &bindings));
            match callback.child_by_field_name("body") {
                Some(body) if body.kind() == "statement_block" => {
                    let (statements, commented) = statements(body);
                    (statements.is_empty(), commented)
                }
                Some(body) => (returns_nothing(body, source), false),
                None => (false, false),
            }
        }
        "identifier" => (is_noop(text(callback, source)), false),
        "member_expression" => (
            callback
                .child_by_field_name("property")
                .is_some_and(|property| is_noop(text(property, source))),
            false,
        ),
        _ => (false, false),
    };
    if swallows {
        let shown = crate::rules::markers::shorten(&text(callback, source).replace('\n', " "), 40);
        found.swallow = Some(Swallow {
            what: format!("{what} `{shown}`"),
            commented,
            import_fallback: false,
            needs_evidence: false,
        });
    }
    Some(found)
}

fn returns_nothing(mut body: Node<'_>, source: &str) -> bool {
    // A loop, not recursion, through the parentheses: a hostile file can nest them 100k deep.
    loop {
        match body.kind() {
            "null" | "undefined" => return true,
            "unary_expression" => return text(body, source).trim_start().starts_with("void"),
            "parenthesized_expression" => match body.named_child(0) {
                Some(inner) => body = inner,
                None => return false,
            },
            _ => return false,
        }
    }
}

fn is_noop(name: &str) -> bool {
    matches!(
        name,
        "noop" | "noOp" | "nop" | "_noop" | "ignore" | "ignoreError" | "swallow"
    )
}

fn python_except(node: Node<'_>, source: &str) -> Option<Handler> {
    let mut cursor = node.walk();
    let body = node
        .named_children(&mut cursor)
        .find(|child| child.kind() == "block")?;
    let types = node.child_by_field_name("value").map(|value| {
        if value.kind() == "as_pattern" {
            value.named_child(0).unwrap_or(value)
        } else {
            value
        }
    });
    let types_text = types.map(|types| text(types, source)).unwrap_or_default();
    let names: Vec<&str> = types_text
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .collect();
    let broad = names.is_empty()
        || names.iter().any(|name| {
            matches!(
                *name,
                "Exception" | "BaseException" | "builtins.Exception" | "builtins.BaseException"
            )
        });
    let import_fallback = !names.is_empty()
        && names
            .iter()
            .all(|name| matches!(*name, "ImportError" | "ModuleNotFoundError"));
    let mut found = handler(
        node,
        source,
        format!("except {}", normalize(types_text)),
        Some(body),
    );
    found.caught = Caught::python(&names);
    let alias = node
        .child_by_field_name("value")
        .filter(|value| value.kind() == "as_pattern")
        .and_then(|value| value.child_by_field_name("alias"));
    found.lets_failure_out =
        caught::lets_failure_out(body, source, &caught::bindings(alias, source));
    let try_statement = node
        .parent()
        .filter(|parent| parent.kind() == "try_statement");
    let protected = try_statement.and_then(|parent| parent.child_by_field_name("body"));
    found.place = protected.map(|block| normalize(text(block, source)));
    found.protected_first_line = first_statement_line(protected, source);
    found.asserts_exception = protected.is_some_and(|block| asserts_exception(text(block, source)));
    found.fallback = is_fallback(try_statement, protected);
    let (statements, commented) = statements(body);
    // A comment on the `except` line itself also explains the handler.
    let commented = commented
        || text(node, source)
            .lines()
            .next()
            .is_some_and(|line| line.contains('#'));
    let header = if types_text.is_empty() {
        "except".to_string()
    } else {
        format!("except {}", crate::rules::markers::shorten(types_text, 40))
    };
    let kinds: Vec<&str> = statements
        .iter()
        .map(|statement| python_statement_kind(*statement, source))
        .collect();
    let swallow = match kinds.as_slice() {
        [] => None,
        kinds
            if kinds
                .iter()
                .all(|kind| matches!(*kind, "pass" | "..." | "continue")) =>
        {
            Some(Swallow {
                what: format!("`{header}: {}`", kinds.join("; ")),
                commented,
                import_fallback,
                needs_evidence: false,
            })
        }
        ["return None"] if broad => Some(Swallow {
            what: format!("broad `{header}: return None`"),
            commented,
            import_fallback: false,
            needs_evidence: true,
        }),
        // `except Exception: return x` (the input unconverted), `return []`, `return False`.
        ["other"] if broad => statements
            .first()
            .and_then(|only| fallback_return(*only, source))
            .map(|value| Swallow {
                what: format!("broad `{header}: return {value}`"),
                commented,
                import_fallback: false,
                needs_evidence: true,
            }),
        _ => None,
    };
    found.swallow = swallow;
    Some(found)
}

fn python_statement_kind(statement: Node<'_>, source: &str) -> &'static str {
    match statement.kind() {
        "pass_statement" => "pass",
        "continue_statement" => "continue",
        "expression_statement" if text(statement, source).trim() == "..." => "...",
        "return_statement"
            if matches!(text(statement, source).trim(), "return" | "return None") =>
        {
            "return None"
        }
        _ => "other",
    }
}

fn python_suppress(node: Node<'_>, source: &str) -> Option<Handler> {
    let clause = node.named_child(0)?;
    let call = clause.named_child(0)?.child_by_field_name("value")?;
    let arguments = call.child_by_field_name("arguments")?;
    let broad = {
        let mut cursor = arguments.walk();
        arguments.named_children(&mut cursor).any(|argument| {
            matches!(
                text(argument, source).trim(),
                "Exception" | "BaseException" | "builtins.Exception" | "builtins.BaseException"
            )
        })
    };
    let body = node.child_by_field_name("body");
    let mut found = handler(clause, source, "suppress".to_string(), body);
    found.identity = normalize(text(clause, source));
    found.protected_first_line = first_statement_line(body, source);
    if broad {
        found.swallow = Some(Swallow {
            what: format!("`{}`", text(call, source)),
            commented: false,
            import_fallback: false,
            needs_evidence: false,
        });
    }
    Some(found)
}

fn rust_err_arm(node: Node<'_>, source: &str) -> Option<Handler> {
    let pattern = node.child_by_field_name("pattern")?;
    let pattern_text = normalize(text(pattern, source));
    // `Err(_)`, `Err(..)`, `Err(_e)`: the error value is not used.
    let unused =
        matches!(pattern_text.as_str(), "Err(_)" | "Err(..)") || pattern_text.starts_with("Err(_");
    let value = node.child_by_field_name("value")?;
    let scrutinee = node
        .parent()
        .and_then(|block| block.parent())
        .and_then(|expression| expression.child_by_field_name("value"))
        .map(|value| normalize(text(value, source)))
        .unwrap_or_default();
    let mut found = handler(node, source, format!("match {scrutinee}"), Some(value));
    found.place = (!scrutinee.is_empty()).then(|| format!("match {scrutinee}"));
    found.lets_failure_out =
        caught::lets_failure_out(value, source, &caught::bindings(Some(pattern), source));
    let (swallows, commented) = match value.kind() {
        "unit_expression" | "continue_expression" => (true, false),
        "block" => {
            let (statements, commented) = statements(value);
            let only_continue = match statements.as_slice() {
                [] => true,
                [single] => {
                    matches!(
                        normalize(text(*single, source)).as_str(),
                        "continue;" | "continue"
                    )
                }
                _ => false,
            };
            (only_continue, commented)
        }
        _ => (false, false),
    };
    if unused && swallows {
        found.swallow = Some(Swallow {
            what: format!(
                "`{} => {}`",
                text(pattern, source),
                crate::rules::markers::shorten(&text(value, source).replace('\n', " "), 30)
            ),
            commented,
            import_fallback: false,
            needs_evidence: false,
        });
    }
    Some(found)
}
