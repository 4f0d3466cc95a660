//! What a handler catches, and whether its body let the failure out. Both pair a head handler
//! with its base counterpart: an empty handler whose base counterpart already swallowed at least
//! as much is not a new swallow (narrowed `except`, `catch (e) {}` → `catch {}`), and one whose
//! base counterpart only did unrelated work (cleanup, a fallback value) swallowed before too.

use regex::Regex;
use std::sync::OnceLock;
use tree_sitter::Node;

/// The errors a handler catches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caught {
    /// Every error: a JavaScript `catch`, a promise handler, `Err(_)`, a bare `except`,
    /// `except BaseException`.
    Everything,
    /// Python exception names as written (`OSError`, `asyncio.TimeoutError`).
    Types(Vec<String>),
}

impl Caught {
    /// What a Python `except` with these names (empty: bare `except`) catches.
    pub fn python(names: &[&str]) -> Caught {
        let names: Vec<String> = names
            .iter()
            .map(|name| name.strip_prefix("builtins.").unwrap_or(name).to_string())
            .collect();
        if names.is_empty() || names.iter().any(|name| name == "BaseException") {
            Caught::Everything
        } else {
            Caught::Types(names)
        }
    }

    /// Whether everything `other` catches, this catches too.
    pub fn covers(&self, other: &Caught) -> bool {
        match (self, other) {
            (Caught::Everything, _) => true,
            (Caught::Types(_), Caught::Everything) => false,
            (Caught::Types(mine), Caught::Types(theirs)) => theirs
                .iter()
                .all(|name| mine.iter().any(|broader| python_covers(broader, name))),
        }
    }
}

/// Whether `except broader` catches `name`. Only what the language defines: the same name,
/// `Exception` over all but the `BaseException`-only family, and the builtin hierarchy.
fn python_covers(broader: &str, name: &str) -> bool {
    if broader == name {
        return true;
    }
    if broader == "Exception" {
        let last = name.rsplit('.').next().unwrap_or(name);
        // Cancellation and interpreter exit are not `Exception`s: catching them now is new.
        return !matches!(
            last,
            "BaseException"
                | "BaseExceptionGroup"
                | "KeyboardInterrupt"
                | "SystemExit"
                | "GeneratorExit"
                | "CancelledError"
                | "Cancelled"
        );
    }
    const CONNECTION: &[&str] = &[
        "BrokenPipeError",
        "ConnectionAbortedError",
        "ConnectionRefusedError",
        "ConnectionResetError",
    ];
    const OS: &[&str] = &[
        "ConnectionError",
        "BlockingIOError",
        "ChildProcessError",
        "FileExistsError",
        "FileNotFoundError",
        "InterruptedError",
        "IsADirectoryError",
        "NotADirectoryError",
        "PermissionError",
        "ProcessLookupError",
        "TimeoutError",
    ];
    let children: &[&str] = match broader {
        "OSError" | "IOError" | "EnvironmentError" => {
            return OS.contains(&name) || CONNECTION.contains(&name);
        }
        "ConnectionError" => CONNECTION,
        "LookupError" => &["KeyError", "IndexError"],
        "ArithmeticError" => &["ZeroDivisionError", "OverflowError", "FloatingPointError"],
        "ValueError" => &["UnicodeError", "UnicodeDecodeError", "UnicodeEncodeError"],
        "UnicodeError" => &["UnicodeDecodeError", "UnicodeEncodeError"],
        "ImportError" => &["ModuleNotFoundError"],
        _ => &[],
    };
    children.contains(&name)
}

/// Nodes [`lets_failure_out`] reads before it gives up and answers yes.
const MAX_NODES: usize = 5_000;

/// Whether a handler body lets the failure out instead of swallowing it: it raises or throws,
/// uses the caught error (`bindings`), calls something that logs, reports, rejects or exits,
/// builds an error value, propagates with `?`, assigns to something named for the failure
/// (`errors += 1`), or holds a boolean or a negative number (a failure flag, `return False`,
/// `return -1`). Cleanup and fallback values answer no. Unsure (a huge body) answers yes: the
/// answer only ever makes the rule more lenient.
pub fn lets_failure_out(body: Node<'_>, source: &str, bindings: &[String]) -> bool {
    let mut cursor = body.walk();
    let mut seen = 0;
    loop {
        seen += 1;
        if seen > MAX_NODES {
            return true;
        }
        let node = cursor.node();
        let text = || source.get(node.byte_range()).unwrap_or_default();
        let signals = match node.kind() {
            "raise_statement" | "throw_statement" | "assert_statement" | "try_expression" => true,
            "true" | "false" | "boolean_literal" => true,
            // `return -1`: an error code.
            "unary_operator" | "unary_expression" | "negative_literal" => text()
                .strip_prefix('-')
                .is_some_and(|rest| rest.trim_start().starts_with(|c: char| c.is_ascii_digit())),
            "identifier" | "shorthand_property_identifier" => {
                bindings.iter().any(|binding| binding == text())
            }
            "call" | "call_expression" | "new_expression" => node
                .child_by_field_name("function")
                .or_else(|| node.child_by_field_name("constructor"))
                .is_some_and(|callee| reports(source.get(callee.byte_range()).unwrap_or_default())),
            // `failed = ...`, `self.errors += 1`: recording the failure is not swallowing it.
            "assignment"
            | "augmented_assignment"
            | "assignment_expression"
            | "augmented_assignment_expression"
            | "compound_assignment_expr" => node
                .child_by_field_name("left")
                .is_some_and(|left| reports(source.get(left.byte_range()).unwrap_or_default())),
            "macro_invocation" => node
                .child_by_field_name("macro")
                .is_some_and(|name| reports(source.get(name.byte_range()).unwrap_or_default())),
            _ => false,
        };
        if signals {
            return true;
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return false;
            }
        }
    }
}

/// A callee whose name says it logs, reports, rejects, exits or builds an error
/// (`log.exception`, `console.error`, `Promise.reject`, `sys.exit`, `Err`, `panic!`,
/// `res.status(500)`). Deliberately loose: a false yes keeps the finding.
fn reports(callee: &str) -> bool {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| {
            Regex::new(
                r"(?i)log|warn|err|exc|fail|fault|report|notify|alert|panic|abort|exit|reject|raise|throw|print|console|sentry|capture|traceback|assert|bail|unreachable|todo|unimplemented|status|crash",
            )
            .ok()
        })
        .as_ref()
        .is_none_or(|pattern| pattern.is_match(callee))
}

/// Names a pattern binds (`e`, `{ message }`, `Err(error)`), for [`lets_failure_out`].
pub fn bindings(pattern: Option<Node<'_>>, source: &str) -> Vec<String> {
    let Some(pattern) = pattern else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cursor = pattern.walk();
    let mut seen = 0;
    loop {
        seen += 1;
        if seen > MAX_NODES {
            return out;
        }
        let node = cursor.node();
        if matches!(
            node.kind(),
            "identifier" | "shorthand_property_identifier_pattern"
        ) && let Some(name) = source.get(node.byte_range())
            && !matches!(name, "Err" | "Ok" | "Some" | "None")
        {
            out.push(name.to_string());
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broad_types_cover_narrow_ones_and_not_the_reverse() {
        let broad = Caught::python(&["asyncio.TimeoutError", "Exception"]);
        let narrow = Caught::python(&["asyncio.TimeoutError", "OSError"]);
        assert!(broad.covers(&narrow));
        assert!(!narrow.covers(&broad));
        assert!(Caught::python(&[]).covers(&Caught::python(&["KeyboardInterrupt"])));
        assert!(!Caught::python(&["Exception"]).covers(&Caught::python(&["KeyboardInterrupt"])));
        assert!(
            !Caught::python(&["Exception"]).covers(&Caught::python(&["asyncio.CancelledError"]))
        );
        assert!(Caught::python(&["OSError"]).covers(&Caught::python(&["ConnectionResetError"])));
        assert!(!Caught::python(&["KeyError"]).covers(&Caught::python(&["LookupError"])));
        assert!(
            Caught::python(&["builtins.BaseException"]).covers(&Caught::python(&["SystemExit"]))
        );
    }

    #[test]
    fn reporting_callees() {
        for callee in [
            "log.exception",
            "console.error",
            "Promise.reject",
            "sys.exit",
            "Err",
        ] {
            assert!(reports(callee), "{callee}");
        }
        for callee in [
            "ConcurrencyContext.get",
            "ctx.cleanup_lease_ids.append",
            "buffer.clear",
        ] {
            assert!(!reports(callee), "{callee}");
        }
    }
}
